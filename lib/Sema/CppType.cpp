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
  using Key = std::tuple<CppType::Kind, CppType::Name,
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

namespace {
struct NameInfo {
  CppType::Scope S;
  StringLiteral Spelling;
};
} // namespace

static constexpr NameInfo Names[] = {
#define SKC_CPP_TYPE(Id, In, Spelling) {CppType::Scope::In, Spelling},
#include "skc/Sema/CppTypeNames.def"
};

const CppType *CppType::get(Name N, ArrayRef<const CppType *> Args,
                            unsigned Size) {
  return unique({Kind::Named, N,
                 std::vector<const CppType *>(Args.begin(), Args.end()), Size,
                 nullptr},
                [&] {
                  std::unique_ptr<CppType> T(new CppType());
                  T->TheName = N;
                  T->Args.assign(Args.begin(), Args.end());
                  T->Size = Size;
                  return T;
                });
}

const CppType *CppType::getDerived(Kind K, const CppType *T) {
  return unique({K, Name::Void, {}, 0, T}, [K, T] {
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
  const NameInfo &Info = Names[static_cast<unsigned>(TheName)];
  std::string Out;
  switch (Info.S) {
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
  Out += Info.Spelling;
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
