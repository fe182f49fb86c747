//===--- KernelDecl.h - Kernel definitions found in C++ sources -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the Clang front end (KernelSourceParser) extracts from a kernel
/// source: every meta, impl and native-function definition, with its
/// parameters as written and the facts about its body that skc's rules
/// check. Locations are SMLocs in the DiagnosticsEngine's llvm::SourceMgr,
/// into which the front end loads every file it reports on, so Sema can
/// report at the author's line without depending on Clang.
///
/// Authors write (runtime/sk/structured/Kernel.h):
///
///   SK_META_FUNC(add, Tensor)(const Tensor &self, ...) { ... }
///       -> Meta,   ClassName "structured_add_Tensor"
///   SK_IMPL_FUNC(add_out)(const Tensor &self, ..., const Tensor &out) {...}
///       -> Impl,   ClassName "structured_add_out"
///   Tensor SK_NATIVE_FUNC(relu_cpu)(const Tensor &self) { ... }
///       -> Native, Name "relu_cpu"
///
//===----------------------------------------------------------------------===//

#ifndef SKC_PARSE_KERNELDECL_H
#define SKC_PARSE_KERNELDECL_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skc {

/// One parameter of a kernel definition.
struct KernelParam {
  /// Empty for an unnamed parameter.
  std::string Name;
  /// The type as the author wrote it: "const Tensor &".
  std::string TypeAsWritten;
  /// The type fully qualified and desugared, as Sema compares it:
  /// "const sk::Tensor &", "std::optional<int64_t>" is "std::optional<long>".
  std::string CanonicalType;
  llvm::SMRange Range;
  llvm::SMRange TypeRange;
  llvm::SMLoc NameLoc;
};

/// A fact about a body that a rule checks (issue 4, "Meta-body contract",
/// "Impl-body contract").
struct BodyFact {
  enum FactKind : uint8_t {
    /// A call of set_output_strided / set_output_raw_strided /
    /// set_output_contiguous (or a TensorIterator build_* call, which sets
    /// every output).
    FK_SetOutput,
    /// A read of tensor data (a call of a function the runtime marks
    /// SK_READS_DATA: data_ptr, item, operator<<), or a call of the
    /// author's own function that reaches one.
    FK_DataAccess,
    /// An assignment to a parameter (`out = ...`).
    FK_AssignToParam,
    /// A call of a precompute setter `set_<field>`.
    FK_PrecomputeSet,
    /// A call of a precompute setter on a struct that has the field set
    /// already (`.set_kH(1)`, the range).
    FK_PrecomputeSetAgain,
    /// A return of the precompute struct without field Detail set (the
    /// returned value, the range).
    FK_PrecomputeReturnUnset,
  };
  FactKind Kind;
  llvm::SMRange Range;
  /// FK_SetOutput: the output index when it is a constant, else none (a
  /// build_* call sets every output: AllOutputs).
  std::optional<int64_t> OutputIndex;
  bool AllOutputs = false;
  /// FK_SetOutput: a call handed the kernel itself (`cpu_kernel(*this,
  /// ...)`), which may set outputs or only read them.
  bool ThroughCall = false;
  /// FK_SetOutput and FK_DataAccess: the member or function called
  /// ("set_output_raw_strided", "data_ptr"; for a read through the
  /// author's functions, the one that reads); FK_AssignToParam: the
  /// parameter; FK_PrecomputeSet, FK_PrecomputeSetAgain and
  /// FK_PrecomputeReturnUnset: the field.
  std::string Detail;

  /// One call on the way from a kernel body to a data read.
  struct PathStep {
    /// The call.
    llvm::SMRange Range;
    /// The function that makes it, and the one it calls.
    std::string Function;
    std::string Callee;
  };
  /// FK_DataAccess through the author's functions: the calls after the
  /// one at Range, from the first callee's body to the read, in order.
  std::vector<PathStep> Path;
};

/// The outputs a meta function sets on every path that returns normally.
struct OutputsSetOnEveryPath {
  /// A TensorIterator build_*() call, or a path that never returns.
  bool All = false;
  /// The indices of the outputs set by index, sorted.
  llvm::SmallVector<int64_t, 2> Indices;

  bool covers(int64_t I) const {
    return All || llvm::is_contained(Indices, I);
  }
};

/// What the structs skc generates for structured kernels are named by:
/// sk::meta::structured_<meta name>, sk::native::structured_<kernel>.
inline constexpr llvm::StringLiteral StructuredClassPrefix = "structured_";

enum class KernelDeclKind : uint8_t {
  Meta, ///< sk::meta::structured_<name>::meta
  Impl, ///< sk::native::structured_<kernel>::impl
  /// sk::native::<kernel>, a non-structured or composite kernel: a
  /// function defined in namespace sk::native that is not static, not a
  /// template and not CUDA device code.
  Native,
};

struct KernelDecl {
  KernelDeclKind Kind;
  /// Meta and Impl: the struct's name ("structured_add_Tensor"); Native:
  /// the function's name ("relu_cpu").
  std::string Name;
  /// The file it is defined in, as the front end opened it.
  std::string File;
  /// Whether that file was parsed as CUDA (.cu).
  bool InCUDASource = false;
  /// The authoring macro it was written with, by the kind its mark names
  /// (SK_KERNEL_DEFINITION in the runtime's sk/util/Analysis.h): "meta"
  /// (SK_META_FUNC), "precompute_meta" (SK_PRECOMPUTE_META_FUNC), "impl"
  /// (SK_IMPL_FUNC) or "native" (SK_NATIVE_FUNC); empty when spelled out
  /// (a function defined inside `namespace sk::native`, which may be a
  /// helper).
  std::string Macro;
  /// The macro's name as written, for fix-its that change it.
  llvm::SMRange MacroNameRange;
  bool isFromMacro() const { return !Macro.empty(); }
  /// Where the name is (the macro's argument, for SK_*_FUNC macros).
  llvm::SMLoc Loc;
  /// The parentheses of the parameter list, included; a fix-it that
  /// rewrites the parameters replaces this range.
  llvm::SMRange ParamListRange;
  llvm::SmallVector<KernelParam, 6> Params;
  /// The parameter types of the declaration this definition belongs to (the
  /// one in the generated header), canonical as CanonicalType is; empty when
  /// there is none. Sema compares them with Params[I].CanonicalType.
  llvm::SmallVector<std::string, 6> DeclaredParamTypes;
  bool HasDeclaration = false;
  /// The return type as written and canonical ("void" for meta and impl).
  std::string ReturnTypeAsWritten;
  std::string CanonicalReturnType;
  std::vector<BodyFact> Facts;
  /// Meta: the outputs set on every path that returns normally, from the
  /// body's control-flow graph (lib/Parse/MetaOutputFlow.h).
  OutputsSetOnEveryPath OutputsSet;
  /// Impl and Native: the dtypes the kernel computes on, by their
  /// sk::ScalarType names ("Half", "Float") in that enum's order, as its
  /// dispatch calls name them (lib/Parse/DtypeDispatchFinder.h); empty when
  /// it reaches none.
  std::vector<std::string> Dtypes;

  /// Why a definition is invalid, and who reports it.
  enum InvalidReasonKind : uint8_t {
    IR_None,
    /// Its declarator does not match any declaration in the generated
    /// struct or namespace (Clang's "out-of-line definition of 'meta' does
    /// not match any declaration"). Clang's error was left to Sema, which
    /// must report it; Params, ranges and Facts are filled in.
    IR_NoMatchingDecl,
    /// Name names no generated struct (Clang's "no member named
    /// 'structured_X' in namespace 'sk::meta'"). Clang's error was left to
    /// Sema, which must report it ("did you mean"). Params and Facts are
    /// empty when Clang dropped the definition (no close match to recover
    /// with); Loc and ParamListRange are always set.
    IR_UnknownName,
    /// Clang reported why itself (an err_clang was emitted); Sema need not.
    IR_ClangReported,
  };
  /// Whether Clang found the definition invalid (its declaration does not
  /// match the generated struct, say); Sema explains why in schema terms.
  bool IsInvalid = false;
  InvalidReasonKind InvalidReason = IR_None;

  void setInvalid(InvalidReasonKind Reason) {
    IsInvalid = Reason != IR_None;
    InvalidReason = Reason;
  }
};

} // namespace skc

#endif // SKC_PARSE_KERNELDECL_H
