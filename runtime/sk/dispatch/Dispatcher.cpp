//===--- Dispatcher.cpp - The operator registry and call path -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/Dispatcher.h"

#include <algorithm>
#include <cxxabi.h>
#include <cstdlib>

namespace sk {

std::string detail::demangle(const char *Name) {
  int Status = 0;
  char *Demangled = abi::__cxa_demangle(Name, nullptr, nullptr, &Status);
  if (Status != 0 || !Demangled)
    return Name;
  std::string Result(Demangled);
  std::free(Demangled);
  return Result;
}

void KernelFunction::fallthroughKernel(OperatorKernel *,
                                       const OperatorHandle &Op,
                                       DispatchKeySet KS, Stack *S) {
  // Only reached when a call races with the registration that made this
  // key a fallthrough (Note [Lock-free dispatch]): skip the key.
  Op.redispatchBoxed(KS.remove(KS.highestPriorityKey()), *S);
}

KernelFunction KernelFunction::makeFromEntryPoints(const EntryPoints &E) {
  KernelFunction K;
  K.Unboxed = E.GetUnboxed();
  K.Functor = std::make_shared<detail::UnboxedEntryKernel>(K.Unboxed);
  K.Boxed = E.Boxed;
  E.Describe(K);
  return K;
}

KernelFunction KernelFunction::makeFallthrough() {
  KernelFunction K;
  K.Boxed = &fallthroughKernel;
  return K;
}

DispatchKeySet detail::computeDispatchKeySet(const OperatorEntry &Entry,
                                             const Stack &S) {
  size_t N = std::min(Entry.numArguments(), S.size());
  DispatchKeySet KS;
  for (size_t I = S.size() - N; I != S.size(); ++I) {
    const IValue &V = S[I];
    if (V.isTensor())
      addKeys(KS, V.toTensor());
    else if (V.isTensorList())
      addKeys(KS, V.toTensorList());
  }
  return (KS | tlsIncludedKeys()) - tlsExcludedKeys();
}

void OperatorHandle::callBoxed(Stack &S) const {
  DispatchKeySet KS = detail::computeDispatchKeySet(*Entry, S);
  Entry->lookup(KS).callBoxed(*this, KS, &S);
}

void OperatorHandle::redispatchBoxed(DispatchKeySet KS, Stack &S) const {
  Entry->lookup(KS).callBoxed(*this, KS, &S);
}

Dispatcher &Dispatcher::singleton() {
  static Dispatcher D;
  return D;
}

Dispatcher::Dispatcher() {
  // Factories have BackendSelect kernels; every other op falls through
  // (LocalDispatchKeySet.h includes BackendSelect in every call).
  Fallbacks[static_cast<int>(DispatchKey::BackendSelect)].push_back(
      {KernelFunction::makeFallthrough(), "registered by the dispatcher"});
}

OperatorEntry &Dispatcher::findOrCreate(const OperatorName &Name) {
  std::string Key = Name.str();
  auto It = ByName.find(Key);
  if (It != ByName.end())
    return *It->second;
  OperatorEntry &E = Operators.emplace_back(Name);
  E.updateDispatchTable(fallbackPointers());
  ByName.emplace(std::move(Key), &E);
  return E;
}

std::array<const AnnotatedKernel *, NumRuntimeKeys>
Dispatcher::fallbackPointers() const {
  std::array<const AnnotatedKernel *, NumRuntimeKeys> Result{};
  for (int I = 0; I < NumRuntimeKeys; ++I)
    Result[I] = Fallbacks[I].empty() ? nullptr : &Fallbacks[I].front();
  return Result;
}

void Dispatcher::updateAllTables() {
  auto Pointers = fallbackPointers();
  for (OperatorEntry &E : Operators)
    E.updateDispatchTable(Pointers);
}

std::optional<OperatorHandle> Dispatcher::findSchema(std::string_view Name,
                                                     std::string_view Overload) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByName.find(OperatorName{std::string(Name), std::string(Overload)}
                            .str());
  if (It == ByName.end() || !It->second->hasSchema())
    return std::nullopt;
  return OperatorHandle(It->second);
}

OperatorHandle Dispatcher::findSchemaOrThrow(std::string_view Name,
                                             std::string_view Overload) {
  std::optional<OperatorHandle> H = findSchema(Name, Overload);
  if (H)
    return *H;
  std::string Full =
      OperatorName{std::string(Name), std::string(Overload)}.str();
  // Say whether the name is known at all, as c10 does.
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByName.find(Full);
  SK_CHECK(It != ByName.end() && !It->second->isUnused(),
           "Could not find schema for ", Full,
           ": no operator of that name is registered");
  throw Error(detail::str("Could not find schema for ", Full,
                          ": it has kernels (", It->second->listKernelKeys(),
                          ") but its schema was never registered with "
                          "m.def()"));
}

std::vector<OperatorName> Dispatcher::getRegisteredOperators() {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<OperatorName> Names;
  for (const OperatorEntry &E : Operators)
    if (E.hasSchema())
      Names.push_back(E.name());
  std::sort(Names.begin(), Names.end(),
            [](const OperatorName &A, const OperatorName &B) {
              return A.str() < B.str();
            });
  return Names;
}

RegistrationHandle Dispatcher::registerDef(OperatorSchema Schema,
                                           std::string Debug) {
  std::lock_guard<std::mutex> Lock(Mutex);
  OperatorEntry &E = findOrCreate(Schema.Name);
  E.registerSchema(std::move(Schema), std::move(Debug));
  E.updateDispatchTable(fallbackPointers());
  return RegistrationHandle([this, &E] {
    std::lock_guard<std::mutex> Lock(Mutex);
    E.deregisterSchema();
    E.updateDispatchTable(fallbackPointers());
  });
}

RegistrationHandle Dispatcher::registerImpl(const OperatorName &Name,
                                            DispatchKey Key, KernelFunction K,
                                            std::string Debug) {
  SK_CHECK(Key != DispatchKey::Undefined && Key != DispatchKey::EndOfAliasKeys,
           "Tried to register a kernel for ", Name,
           " with an invalid dispatch key ", Key);
  std::lock_guard<std::mutex> Lock(Mutex);
  OperatorEntry &E = findOrCreate(Name);
  auto It = E.registerKernel(Key, std::move(K), std::move(Debug));
  E.updateDispatchTable(fallbackPointers());
  return RegistrationHandle([this, &E, Key, It] {
    std::lock_guard<std::mutex> Lock(Mutex);
    E.deregisterKernel(Key, It);
    E.updateDispatchTable(fallbackPointers());
  });
}

RegistrationHandle Dispatcher::registerFallback(DispatchKey Key,
                                                KernelFunction K,
                                                std::string Debug) {
  SK_CHECK(!isAliasKey(Key) && Key != DispatchKey::Undefined &&
               Key < DispatchKey::EndOfRuntimeKeys,
           "Tried to register a fallback for ", Key,
           ", which is not a runtime dispatch key");
  std::lock_guard<std::mutex> Lock(Mutex);
  std::list<AnnotatedKernel> &Slot = Fallbacks[static_cast<int>(Key)];
  // The dispatcher's own BackendSelect fallthrough yields to a user's.
  bool ReplacesBuiltin = !Slot.empty() &&
                         Slot.front().Debug == "registered by the dispatcher";
  SK_CHECK(Slot.empty() || ReplacesBuiltin,
           "Tried to register multiple backend fallbacks for the same "
           "dispatch key ",
           Key, "; the first was ", Slot.empty() ? "" : Slot.front().Debug,
           ", the second ", Debug);
  Slot.push_front({std::move(K), std::move(Debug)});
  auto It = Slot.begin();
  updateAllTables();
  return RegistrationHandle([this, Key, It] {
    std::lock_guard<std::mutex> Lock(Mutex);
    std::list<AnnotatedKernel> &S = Fallbacks[static_cast<int>(Key)];
    RetiredFallbacks.splice(RetiredFallbacks.end(), S, It);
    updateAllTables();
  });
}

} // namespace sk
