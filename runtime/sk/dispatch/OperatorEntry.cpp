//===--- OperatorEntry.cpp - One operator's kernels and table -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/OperatorEntry.h"

#include <sstream>

namespace sk {

OperatorEntry::OperatorEntry(OperatorName Name)
    : Name(std::move(Name)), NonFallthroughKeys(DispatchKeySet::full().raw()) {
  for (auto &Slot : Table)
    Slot.store(nullptr, std::memory_order_relaxed);
}

std::string OperatorEntry::listKernelKeys() const {
  std::ostringstream OS;
  OS << '[';
  bool First = true;
  for (int I = 0; I < static_cast<int>(DispatchKey::EndOfAliasKeys); ++I) {
    if (Kernels[I].empty())
      continue;
    OS << (First ? "" : ", ") << static_cast<DispatchKey>(I);
    First = false;
  }
  OS << ']';
  return OS.str();
}

void OperatorEntry::reportMissingKernel(DispatchKey K) const {
  if (K == DispatchKey::Undefined)
    throw NotImplementedError(detail::str(
        "There were no tensor arguments to '", Name,
        "' and no kernel runs without one (such as a BackendSelect or "
        "CompositeImplicitAutograd kernel); its kernels are registered for ",
        listKernelKeys()));
  throw NotImplementedError(detail::str(
      "Could not run '", Name, "' with arguments from the '", K,
      "' backend. '", Name, "' has kernels only for these keys: ",
      listKernelKeys(),
      Schema ? "" : " (and its schema was never registered)"));
}

std::string OperatorEntry::dumpState() const {
  std::ostringstream OS;
  OS << "name: " << Name << '\n';
  OS << "schema: " << (Schema ? Schema->Text : "(none)") << '\n';
  if (Schema)
    OS << "schema " << SchemaDebug << '\n';
  for (int I = 0; I < static_cast<int>(DispatchKey::EndOfAliasKeys); ++I)
    for (const AnnotatedKernel &K : Kernels[I])
      OS << static_cast<DispatchKey>(I) << ": "
         << (K.Kernel.isFallthrough() ? "fallthrough " : "") << "kernel "
         << K.Debug << '\n';
  return OS.str();
}

void OperatorEntry::checkTypesAgainstSchema(
    const std::vector<SchemaType> &Args, const std::vector<SchemaType> &Rets,
    const std::string &What, const std::string &Debug) const {
  if (!Schema)
    return;
  auto Fail = [&](const std::string &Problem) {
    throw Error(detail::str("Mismatch in kernel C++ signature for operator ",
                            Name, ": ", Problem, ".\n  schema: ", Schema->Text,
                            "\n    ", SchemaDebug, "\n  ", What,
                            Debug.empty() ? "" : "\n    ", Debug));
  };
  if (Args.size() != Schema->Arguments.size())
    Fail(detail::str("the schema has ", Schema->Arguments.size(),
                     " arguments but the C++ signature has ", Args.size()));
  // Types without a runtime C++ type (Note [Runtime types of schema
  // types]) cannot have unboxed kernels: whatever C++ type stands for
  // them would be boxed as something else.
  for (size_t I = 0; I != Args.size(); ++I) {
    const SchemaArgument &A = Schema->Arguments[I];
    if (!A.Type.hasArgumentCppType())
      Fail(detail::str("argument ", I, " ('", A.Name, "') is '",
                       A.Type.Spelling,
                       "' in the schema, which has no runtime C++ type; "
                       "register a boxed kernel"));
    if (A.Type != Args[I])
      Fail(detail::str("argument ", I, " ('", A.Name, "') is '",
                       A.Type.Spelling, "' in the schema but '",
                       Args[I].Spelling, "' in C++"));
  }
  if (Rets.size() != Schema->Returns.size())
    Fail(detail::str("the schema has ", Schema->Returns.size(),
                     " returns but the C++ signature has ", Rets.size()));
  for (size_t I = 0; I != Rets.size(); ++I) {
    const SchemaType &T = Schema->Returns[I].Type;
    if (!T.hasReturnCppType())
      Fail(detail::str("return ", I, " is '", T.Spelling,
                       "' in the schema, which has no runtime C++ type; "
                       "register a boxed kernel"));
    if (T != Rets[I])
      Fail(detail::str("return ", I, " is '", T.Spelling,
                       "' in the schema but '", Rets[I].Spelling,
                       "' in C++"));
  }
}

void OperatorEntry::checkSchemaAgainst(const AnnotatedKernel &K) const {
  if (!K.Kernel.cppSignature())
    return;
  checkTypesAgainstSchema(
      K.Kernel.argumentTypes(), K.Kernel.returnTypes(),
      "kernel C++ signature: " + K.Kernel.cppSignature()->Name, K.Debug);
}

void OperatorEntry::checkTypedCall(const detail::CppSignature &Sig,
                                   const std::vector<SchemaType> &Args,
                                   const std::vector<SchemaType> &Rets) const {
  checkTypesAgainstSchema(Args, Rets, "call C++ signature: " + Sig.Name, "");
  for (const auto &PerKey : Kernels) {
    for (const AnnotatedKernel &K : PerKey) {
      if (!K.Kernel.cppSignature() || *K.Kernel.cppSignature() == Sig)
        continue;
      throw Error(detail::str(
          "Tried to call operator ", Name, " with C++ signature ", Sig.Name,
          ", but its kernel ", K.Debug, " has signature ",
          K.Kernel.cppSignature()->Name));
    }
  }
}

void OperatorEntry::registerSchema(OperatorSchema S, std::string Debug) {
  SK_CHECK(!Schema, "Tried to register operator ", Name,
           " twice: its schema was first ", SchemaDebug,
           " and again ", Debug);
  Schema = std::move(S);
  SchemaDebug = std::move(Debug);
  NumArguments = Schema->Arguments.size();
  try {
    for (const auto &PerKey : Kernels)
      for (const AnnotatedKernel &K : PerKey)
        checkSchemaAgainst(K);
  } catch (...) {
    Schema.reset();
    NumArguments = 0;
    throw;
  }
}

void OperatorEntry::deregisterSchema() {
  Schema.reset();
  SchemaDebug.clear();
  NumArguments = 0;
}

std::list<AnnotatedKernel>::iterator
OperatorEntry::registerKernel(DispatchKey Key, KernelFunction K,
                              std::string Debug) {
  std::list<AnnotatedKernel> &Slot = Kernels[static_cast<int>(Key)];
  SK_CHECK(Slot.empty(), "Tried to register a kernel for operator ", Name,
           " and dispatch key ", Key, " twice: the first was ",
           Slot.empty() ? "" : Slot.front().Debug, ", the second ", Debug);
  AnnotatedKernel New{std::move(K), std::move(Debug)};
  checkSchemaAgainst(New);
  // Every unboxed kernel of one operator has the same C++ signature, so that
  // typed calls can trust it.
  if (New.Kernel.cppSignature()) {
    for (const auto &PerKey : Kernels) {
      for (const AnnotatedKernel &Other : PerKey) {
        if (!Other.Kernel.cppSignature() ||
            *Other.Kernel.cppSignature() == *New.Kernel.cppSignature())
          continue;
        SK_CHECK(false, "Mismatch in kernel C++ signatures for operator ",
                 Name, ": the kernel ", New.Debug, " has signature ",
                 New.Kernel.cppSignature()->Name, " but the kernel ",
                 Other.Debug, " has ", Other.Kernel.cppSignature()->Name);
      }
    }
  }
  Slot.push_back(std::move(New));
  return std::prev(Slot.end());
}

void OperatorEntry::deregisterKernel(DispatchKey Key,
                                     std::list<AnnotatedKernel>::iterator It) {
  Retired.splice(Retired.end(), Kernels[static_cast<int>(Key)], It);
}

bool OperatorEntry::isUnused() const {
  if (Schema)
    return false;
  for (const auto &PerKey : Kernels)
    if (!PerKey.empty())
      return false;
  return true;
}

const AnnotatedKernel *OperatorEntry::computeKernelFor(
    DispatchKey K,
    const std::array<const AnnotatedKernel *, NumRuntimeKeys> &Fallbacks)
    const {
  auto First = [&](DispatchKey Key) -> const AnnotatedKernel * {
    const auto &Slot = Kernels[static_cast<int>(Key)];
    return Slot.empty() ? nullptr : &Slot.front();
  };
  // 1. A kernel registered for the key itself.
  if (const AnnotatedKernel *A = First(K))
    return A;
  // 2. Alias keys: CompositeExplicitAutograd serves every backend;
  //    CompositeImplicitAutograd serves every backend and Autograd.
  if (isBackendKey(K))
    if (const AnnotatedKernel *A =
            First(DispatchKey::CompositeExplicitAutograd))
      return A;
  if (isBackendKey(K) || K == DispatchKey::Autograd)
    if (const AnnotatedKernel *A =
            First(DispatchKey::CompositeImplicitAutograd))
      return A;
  // 3. The key's boxed fallback, for every operator.
  return Fallbacks[static_cast<int>(K)];
}

void OperatorEntry::updateDispatchTable(
    const std::array<const AnnotatedKernel *, NumRuntimeKeys> &Fallbacks) {
  uint64_t Mask = DispatchKeySet::full().raw();
  for (int I = 1; I < NumRuntimeKeys; ++I) {
    auto K = static_cast<DispatchKey>(I);
    const AnnotatedKernel *A = computeKernelFor(K, Fallbacks);
    if (!A) {
      Table[I].store(nullptr, std::memory_order_release);
      continue;
    }
    if (A->Kernel.isFallthrough())
      Mask &= ~DispatchKeySet(K).raw();
    Table[I].store(&A->Kernel, std::memory_order_release);
  }
  NonFallthroughKeys.store(Mask, std::memory_order_relaxed);
}

} // namespace sk
