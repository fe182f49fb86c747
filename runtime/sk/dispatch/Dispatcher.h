//===--- Dispatcher.h - The operator registry and call path -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The dispatcher (c10::Dispatcher): a registry of operators keyed by
/// `ns::name.overload`, each with a schema and a dispatch table, and the
/// call path that picks a kernel from the dispatch keys of the arguments.
/// docs/dispatcher.md describes the design; in short:
///
///   static auto Op = Dispatcher::singleton()
///       .findSchemaOrThrow("sk::add", "Tensor")
///       .typed<Tensor(const Tensor &, const Tensor &, const Scalar &)>();
///   Tensor R = Op.call(A, B, 1);             // unboxed
///   Op.redispatch(KS.remove(Key), A, B, 1);  // from inside a kernel
///
/// Registration goes through Library (SK_LIBRARY / SK_LIBRARY_IMPL) and
/// returns handles that undo themselves.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_DISPATCHER_H
#define SK_DISPATCH_DISPATCHER_H

#include "sk/dispatch/LocalDispatchKeySet.h"
#include "sk/dispatch/OperatorEntry.h"

#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sk {

template <typename Sig> class TypedOperatorHandle;

/// Deregisters what it registered when destroyed.
class RegistrationHandle {
public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> Undo)
      : Undo(std::move(Undo)) {}
  RegistrationHandle(RegistrationHandle &&O) noexcept
      : Undo(std::move(O.Undo)) {
    O.Undo = nullptr;
  }
  RegistrationHandle &operator=(RegistrationHandle &&O) noexcept {
    if (this != &O) {
      reset();
      Undo = std::move(O.Undo);
      O.Undo = nullptr;
    }
    return *this;
  }
  ~RegistrationHandle() { reset(); }
  void reset() {
    if (Undo)
      Undo();
    Undo = nullptr;
  }

private:
  std::function<void()> Undo;
};

/// A handle to a registered operator; cheap to copy, valid for the life of
/// the process.
class OperatorHandle {
public:
  const OperatorName &operator_name() const { return Entry->name(); }
  const OperatorSchema &schema() const { return Entry->schema(); }
  bool hasSchema() const { return Entry->hasSchema(); }
  bool hasKernelForDispatchKey(DispatchKey K) const {
    return Entry->hasKernelForDispatchKey(K);
  }
  std::string dumpState() const { return Entry->dumpState(); }

  /// A typed handle for unboxed calls. \p Sig must be the C++ signature the
  /// operator's kernels were registered with; a mismatch is an error.
  template <typename Sig> TypedOperatorHandle<Sig> typed() const;

  /// Calls the operator over \p S: its arguments are the last values on the
  /// stack; they are replaced by its returns.
  void callBoxed(Stack &S) const;
  /// Calls the kernel of the highest key of \p KS (inside kernels).
  void redispatchBoxed(DispatchKeySet KS, Stack &S) const;

  bool operator==(const OperatorHandle &O) const { return Entry == O.Entry; }

protected:
  friend class Dispatcher;
  explicit OperatorHandle(OperatorEntry *Entry) : Entry(Entry) {}
  OperatorEntry *Entry;
};

namespace detail {
inline void addKeys(DispatchKeySet &KS, const Tensor &T) {
  if (T.defined())
    KS = KS | T.key_set();
}
inline void addKeys(DispatchKeySet &KS, const std::optional<Tensor> &T) {
  if (T)
    addKeys(KS, *T);
}
inline void addKeys(DispatchKeySet &KS, TensorList L) {
  for (const Tensor &T : L)
    addKeys(KS, T);
}
inline void addKeys(DispatchKeySet &KS, const std::vector<Tensor> &L) {
  addKeys(KS, TensorList(L));
}
template <typename T> void addKeys(DispatchKeySet &, const T &) {}

/// The keys of the tensor arguments, with this thread's included keys
/// added and its excluded keys removed.
template <typename... Args>
DispatchKeySet computeDispatchKeySet(const Args &...A) {
  DispatchKeySet KS;
  (addKeys(KS, A), ...);
  return (KS | tlsIncludedKeys()) - tlsExcludedKeys();
}
DispatchKeySet computeDispatchKeySet(const OperatorEntry &Entry,
                                     const Stack &S);
} // namespace detail

template <typename Ret, typename... Args>
class TypedOperatorHandle<Ret(Args...)> : public OperatorHandle {
public:
  Ret call(Args... A) const {
    DispatchKeySet KS = detail::computeDispatchKeySet(A...);
    return Entry->lookup(KS).template call<Ret, Args...>(
        *this, KS, std::forward<Args>(A)...);
  }
  /// Calls the kernel of the highest key of \p KS, without adding the
  /// thread-local keys (they were added by the call being redispatched).
  Ret redispatch(DispatchKeySet KS, Args... A) const {
    return Entry->lookup(KS).template call<Ret, Args...>(
        *this, KS, std::forward<Args>(A)...);
  }

private:
  friend class OperatorHandle;
  explicit TypedOperatorHandle(OperatorHandle H) : OperatorHandle(H) {}
};

class Dispatcher {
public:
  /// The process's dispatcher (a function-local static).
  static Dispatcher &singleton();

  std::optional<OperatorHandle> findSchema(std::string_view Name,
                                           std::string_view Overload);
  /// Throws an sk::Error naming the operator when it has no schema.
  OperatorHandle findSchemaOrThrow(std::string_view Name,
                                   std::string_view Overload);
  /// Every operator with a schema, sorted by name.
  std::vector<OperatorName> getRegisteredOperators();

  RegistrationHandle registerDef(OperatorSchema Schema, std::string Debug);
  /// Registers \p K for \p Key (a runtime or alias key) of operator
  /// \p Name, which may not be defined yet.
  RegistrationHandle registerImpl(const OperatorName &Name, DispatchKey Key,
                                  KernelFunction K, std::string Debug);
  /// Registers a boxed kernel (or fallthrough) for \p Key of every operator
  /// that has no kernel of its own for it.
  RegistrationHandle registerFallback(DispatchKey Key, KernelFunction K,
                                      std::string Debug);

private:
  Dispatcher();
  OperatorEntry &findOrCreate(const OperatorName &Name);
  void updateAllTables();
  std::array<const AnnotatedKernel *, NumRuntimeKeys> fallbackPointers() const;

  std::mutex Mutex;
  /// Entries are never destroyed (Note [Lock-free dispatch]).
  std::list<OperatorEntry> Operators;
  std::unordered_map<std::string, OperatorEntry *> ByName;
  std::array<std::list<AnnotatedKernel>, NumRuntimeKeys> Fallbacks;
  std::list<AnnotatedKernel> RetiredFallbacks;
};

namespace detail {
template <typename Sig> struct SignatureOf;
template <typename R, typename... A> struct SignatureOf<R(A...)> {
  static CppSignature signature() { return CppSignature::of<R, A...>(); }
  static std::vector<SchemaType> argTypes() { return schemaTypesOf<A...>(); }
  static std::vector<SchemaType> returnTypes() {
    std::vector<SchemaType> Types;
    ReturnBoxer<R>::schemaTypes(Types);
    return Types;
  }
};
} // namespace detail

template <typename Sig> TypedOperatorHandle<Sig> OperatorHandle::typed() const {
  using S = detail::SignatureOf<Sig>;
  Entry->checkTypedCall(S::signature(), S::argTypes(), S::returnTypes());
  return TypedOperatorHandle<Sig>(*this);
}

} // namespace sk

#endif // SK_DISPATCH_DISPATCHER_H
