//===--- EmitModel.h - What the emitters share about each function -*- C++ -*-//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The functions of an operator model as generated code names them: their
/// dispatcher signature in the runtime's types, their C++ identifiers and
/// namespaces, and the C++ API declarations (`add`, `add_out`, `add_outf`)
/// with their default arguments. Every emitter of Register<Key>.cpp,
/// Operators.h and Functions.h works from this one table, in one order
/// (sorted by qualified name), so that they agree and their output is
/// deterministic.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_EMIT_EMITMODEL_H
#define SKC_LIB_EMIT_EMITMODEL_H

#include "skc/Emit/Emitters.h"
#include "skc/Sema/KernelSignature.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace skc {

/// One C++ API declaration of a function: `add_out(out, self, ...)`.
struct CppApiDecl {
  std::string Name;
  /// The parameters in declaration order, as indices into the dispatcher
  /// signature's parameters.
  llvm::SmallVector<unsigned, 6> Order;
  /// Whether the declaration carries the schema's default arguments.
  bool WithDefaults = true;
};

struct EmittedFunction {
  const NativeFunction *F = nullptr;
  /// The dispatcher (and native kernel) signature.
  KernelSignature Sig;
  /// Unique among the model's functions: `add_Tensor`, `add__Tensor`,
  /// `myns_foo` for `myns::foo`; a name two functions would share
  /// (`bar_baz` and `bar.baz`) gets a numbered suffix in sorted order.
  std::string Ident;
  /// The namespace the operator is registered in: `aten`.
  std::string DispatcherNamespace;
  /// The C++ namespace of its API: `sk`, or `sk::myns` for an operator
  /// written `myns::op` in a library whose namespace is another one.
  std::string CppNamespace;
  /// `add_out` and `add_outf` for out= functions; `add` otherwise.
  llvm::SmallVector<CppApiDecl, 2> ApiDecls;
  /// The C++ default argument of each parameter, or empty.
  llvm::SmallVector<std::string, 6> Defaults;

  const FunctionSchema &getSchema() const { return F->getSchema(); }
  /// `add.Tensor`: how a registration names the operator in its namespace.
  std::string getRegistrationName() const {
    return getSchema().Name.getAsString();
  }
  /// The parameter list of \p D: `(const ::sk::Tensor &self, ...)`, with
  /// default arguments when \p WithDefaults and \p D has them.
  std::string getParamList(const CppApiDecl &D, bool WithDefaults) const;
  /// The dispatcher parameter list, without default arguments.
  std::string getDispatcherParamList() const;
  /// The parameter names in dispatcher order: `self, other, alpha`.
  std::string getArgNames() const;
};

class EmitModel {
public:
  EmitModel(const OperatorModel &Model, const EmitOptions &Opts);

  const OperatorModel &getModel() const { return Model; }
  const EmitOptions &getOptions() const { return Opts; }

  /// Sorted by qualified name.
  const std::vector<EmittedFunction> &getFunctions() const { return Functions; }
  /// The emitted form of \p F, or null when its types have no runtime type.
  const EmittedFunction *lookup(const NativeFunction *F) const {
    auto It = ByFunction.find(F);
    return It == ByFunction.end() ? nullptr : &Functions[It->second];
  }
  /// Qualified name -> why the function is not emitted.
  const std::map<std::string, std::string> &getSkipped() const {
    return Skipped;
  }
  /// Whether a C++ API declaration with \p D's name and parameter types was
  /// already emitted by an earlier function (int and SymInt overloads map
  /// to one C++ signature); such a declaration is left out.
  bool isShadowedApiDecl(const EmittedFunction &EF,
                         const CppApiDecl &D) const {
    return ShadowedDecls.count({&EF, D.Name}) != 0;
  }

  /// Whether the kernel \p K of \p F is registered: every explicit kernel,
  /// and an implicit CompositeImplicitAutograd one when the kernel sources
  /// define it (or when no sources were given).
  bool isKernelRegistered(const NativeFunction &F,
                          const BackendKernel &K) const;
  /// Whether the kernel sources define implicit kernel \p K; false when no
  /// sources were given.
  bool isImplicitKernelDefined(const BackendKernel &K) const {
    return Opts.DefinedNativeKernels &&
           Opts.DefinedNativeKernels->contains(K.Kernel);
  }

  /// Writes the skipped functions as a comment at the end of a file.
  void writeSkipped(llvm::raw_ostream &OS) const;

private:
  const OperatorModel &Model;
  const EmitOptions &Opts;
  std::vector<EmittedFunction> Functions;
  llvm::DenseMap<const NativeFunction *, size_t> ByFunction;
  std::map<std::string, std::string> Skipped;
  std::set<std::pair<const EmittedFunction *, std::string>> ShadowedDecls;
};

/// \p T followed by the space a declaration needs before its name:
/// `::sk::Tensor `, `::sk::Tensor &`.
std::string getReturnSpelling(const CppType *T);

/// The C++ expression of \p A's default argument for a parameter of type
/// \p T, or empty when it has none.
std::string getCppDefaultArgument(const Argument &A, const CppType *T);

/// `::sk::native::add_out` for a kernel written `add_out` (PyTorch's
/// `at::native` namespace is the runtime's `sk::native`).
std::string getQualifiedKernelName(const BackendKernel &K);

// The emitters, one per kind of file; emitAll() calls them in order.

/// Register<Key>.cpp (or its shards) and <Key>Functions.h.
void emitBackendFiles(const EmitModel &EM, DispatchKey Key,
                      std::vector<GeneratedFile> &Files);
/// Operators.h, Operators.cpp (or its shards) and Functions.h.
void emitOperatorFiles(const EmitModel &EM, std::vector<GeneratedFile> &Files);
/// RegisterSchema.cpp.
GeneratedFile emitSchemaRegistration(const EmitModel &EM);

} // namespace skc

#endif // SKC_LIB_EMIT_EMITMODEL_H
