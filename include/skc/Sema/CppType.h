//===--- CppType.h - The C++ types skc reasons about ------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The C++ types of kernel signatures and generated code, as values: a small
/// tree (a named type, possibly a template of other types, or a reference
/// or pointer to one), uniqued, so that types compare with ==, and asked
/// through predicates, never by their spelling. torchgen's api/types is the
/// model. Spellings exist only where code or a message is written: how an
/// author writes the type inside an SK_*_FUNC definition ("const Tensor &")
/// and how generated code does ("const ::sk::Tensor &").
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_CPPTYPE_H
#define SKC_SEMA_CPPTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

#include <string>

namespace skc {

class CppType {
public:
  enum class Kind : uint8_t {
    /// `int64_t`, `Tensor`, `std::optional<Tensor>`, `std::array<bool, 3>`.
    Named,
    /// `const T &`.
    ConstRef,
    /// `T &`.
    Ref,
    /// `T *`.
    Pointer,
  };
  /// Where a named type is declared.
  enum class Scope : uint8_t {
    Builtin, ///< `void`, `bool`, `int64_t`, `double`
    Std,     ///< `std::`
    Runtime, ///< `sk::`, the runtime; authors write these unqualified
  };
  /// The named types there are (CppTypeNames.def).
  enum class Name : uint8_t {
#define SKC_CPP_TYPE(Id, Scope, Spelling) Id,
#include "skc/Sema/CppTypeNames.def"
  };

  /// A named type, with template arguments and, for `std::array`, a size.
  static const CppType *get(Name N, llvm::ArrayRef<const CppType *> Args = {},
                            unsigned Size = 0);
  static const CppType *getVoid() { return get(Name::Void); }
  static const CppType *getOptional(const CppType *T) {
    return get(Name::Optional, T);
  }
  static const CppType *getConstRef(const CppType *T);
  static const CppType *getRef(const CppType *T);
  static const CppType *getPointer(const CppType *T);

  Kind getKind() const { return K; }
  bool isVoid() const { return this == getVoid(); }
  bool isReference() const { return K == Kind::ConstRef || K == Kind::Ref; }
  bool isPointer() const { return K == Kind::Pointer; }
  /// Whether the type is the named type \p N, whatever its template
  /// arguments.
  bool isNamed(Name N) const { return K == Kind::Named && TheName == N; }
  /// The referenced or pointed-to type, or the type itself when it is
  /// named.
  const CppType *getPointee() const { return K == Kind::Named ? this : Pointee; }
  llvm::ArrayRef<const CppType *> getTemplateArgs() const { return Args; }

  /// As an author writes it inside an SK_*_FUNC definition, in namespace sk.
  std::string getAuthorSpelling() const { return print(/*Qualified=*/false); }
  /// As generated code writes it, qualified from the global namespace.
  std::string getQualifiedSpelling() const { return print(/*Qualified=*/true); }
  /// A declaration of \p Name of this type: `const Tensor &self`,
  /// `int64_t dim`.
  std::string getDeclaration(llvm::StringRef Name, bool Qualified) const;

private:
  CppType() = default;
  static const CppType *getDerived(Kind K, const CppType *T);
  std::string print(bool Qualified) const;

  Kind K = Kind::Named;
  Name TheName = Name::Void;
  llvm::SmallVector<const CppType *, 1> Args;
  unsigned Size = 0;
  const CppType *Pointee = nullptr;
};

/// The named type \p N as generated code writes it: `::sk::DispatchKey`.
inline std::string qualified(CppType::Name N) {
  return CppType::get(N)->getQualifiedSpelling();
}

} // namespace skc

#endif // SKC_SEMA_CPPTYPE_H
