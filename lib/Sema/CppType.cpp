//===--- CppType.cpp - The C++ types skc reasons about --------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/CppType.h"

#include "llvm/ADT/StringExtras.h"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

using namespace llvm;

namespace skc {

namespace {
/// Every type made, for the life of the process: they are few (those of the
/// schemas seen), and a language server checks many files with them.
struct CppTypeUniquer {
  using Key = std::tuple<CppType::Kind, CppType::Scope, std::string,
                         std::vector<const CppType *>, unsigned,
                         const CppType *>;
  std::mutex Lock;
  std::map<Key, std::unique_ptr<CppType>> Types;
};
} // namespace

static CppTypeUniquer &getUniquer() {
  static CppTypeUniquer U;
  return U;
}

/// The one type of \p Key, made by \p Make the first time.
template <typename MakeFn>
static const CppType *unique(CppTypeUniquer::Key Key, MakeFn Make) {
  CppTypeUniquer &U = getUniquer();
  std::lock_guard<std::mutex> Guard(U.Lock);
  std::unique_ptr<CppType> &Slot = U.Types[std::move(Key)];
  if (!Slot)
    Slot = Make();
  return Slot.get();
}

const CppType *CppType::get(Scope S, StringRef Name,
                            ArrayRef<const CppType *> Args, unsigned Size) {
  return unique({Kind::Named, S, Name.str(),
                 std::vector<const CppType *>(Args.begin(), Args.end()), Size,
                 nullptr},
                [&] {
                  std::unique_ptr<CppType> T(new CppType());
                  T->TheScope = S;
                  T->Name = Name.str();
                  T->Args.assign(Args.begin(), Args.end());
                  T->Size = Size;
                  return T;
                });
}

const CppType *CppType::getDerived(Kind K, const CppType *T) {
  return unique({K, Scope::Builtin, "", {}, 0, T}, [K, T] {
    std::unique_ptr<CppType> R(new CppType());
    R->K = K;
    R->Pointee = T;
    return R;
  });
}

const CppType *CppType::getConstRef(const CppType *T) {
  return getDerived(Kind::ConstRef, T);
}

const CppType *CppType::getRef(const CppType *T) {
  return getDerived(Kind::Ref, T);
}

const CppType *CppType::getPointer(const CppType *T) {
  return getDerived(Kind::Pointer, T);
}

std::string CppType::print(bool Qualified) const {
  switch (K) {
  case Kind::ConstRef:
    return "const " + Pointee->print(Qualified) + " &";
  case Kind::Ref:
    return Pointee->print(Qualified) + " &";
  case Kind::Pointer:
    return Pointee->print(Qualified) + " *";
  case Kind::Named:
    break;
  }
  std::string Out;
  switch (TheScope) {
  case Scope::Builtin:
    break;
  case Scope::Std:
    Out = Qualified ? "::std::" : "std::";
    break;
  case Scope::Runtime:
    if (Qualified)
      Out = "::sk::";
    break;
  }
  Out += Name;
  if (Args.empty())
    return Out;
  SmallVector<std::string, 4> Printed;
  for (const CppType *A : Args)
    Printed.push_back(A->print(Qualified));
  if (Size)
    Printed.push_back(std::to_string(Size));
  return Out + "<" + join(Printed, ", ") + ">";
}

std::string CppType::getDeclaration(StringRef DeclName, bool Qualified) const {
  // `const Tensor &self`, `Generator *gen`, `int64_t dim`.
  std::string Out = print(Qualified);
  if (!isReference() && !isPointer())
    Out += ' ';
  return Out + DeclName.str();
}

} // namespace skc
