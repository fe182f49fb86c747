//===--- KernelSignature.h - The C++ signatures kernels must have -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The C++ signature of each kernel a schema implies, in the runtime's types
/// (reference/torchgen.md §2.9):
///
///  - meta(): the functional variant's arguments, structured API types;
///  - impl(): the out= variant's non-out arguments (with `precomputed`
///    substitutions), then its out arguments as `const Tensor &`;
///  - a native kernel (non-structured or composite): every argument in
///    schema order with native API types, returning the schema's returns.
///
/// Emit writes these into the generated headers; the kernel checks compare
/// an author's definition with them, parameter by parameter (Clang compares
/// the types themselves: the front end reports the types of the generated
/// declaration next to the author's). The types are CppTypes.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_KERNELSIGNATURE_H
#define SKC_SEMA_KERNELSIGNATURE_H

#include "skc/Parse/FunctionSchema.h"
#include "skc/Sema/CppType.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <variant>

namespace skc {

struct NativeFunction;
struct NativeFunctionsGroup;

struct KernelParamSpec {
  std::string Name;
  const CppType *Type;
  /// The schema argument it passes; null for a precomputed field.
  const Argument *SchemaArg = nullptr;
};

struct KernelSignature {
  const CppType *Return = CppType::getVoid();
  llvm::SmallVector<KernelParamSpec, 6> Params;

  /// `(const Tensor &self, int64_t dim)`, as an author would write it.
  std::string getAuthorParamList() const;
  /// The same with qualified types and the out arguments marked
  /// SK_OUT_ARGUMENT, for generated code.
  std::string getQualifiedParamList() const;
};

/// Why a signature cannot be written in the runtime's types: the first
/// unsupported schema type ("Dimname", "Layout?").
struct UnsupportedType {
  std::string TypeSpelling;
};

/// Signatures, or the unsupported type that prevents one.
using SignatureOrError = std::variant<KernelSignature, UnsupportedType>;

SignatureOrError getMetaSignature(const NativeFunctionsGroup &G);
SignatureOrError getImplSignature(const NativeFunctionsGroup &G);
SignatureOrError getNativeSignature(const NativeFunction &F);

/// The structured-API type of \p A (meta and impl parameters), or null.
const CppType *getStructuredType(const Argument &A);
/// The native-API type of \p A (native kernels, the dispatcher), or null.
const CppType *getNativeType(const Argument &A);

} // namespace skc

#endif // SKC_SEMA_KERNELSIGNATURE_H
