//===--- OperatorEntry.h - One operator's kernels and table -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An OperatorEntry (c10::impl::OperatorEntry) keeps, for one operator:
///
///  - hot: a flat dispatch table with one kernel per runtime key, and the
///    mask of keys whose kernel is not a fallthrough;
///  - cold: the registrations the table is computed from (per key, with the
///    "registered at file:line" that errors cite), and the schema.
///
/// Note [Lock-free dispatch]
/// Calls read the table without a lock while registrations may change it
/// on another thread. Each table slot is an atomic pointer to the immutable
/// KernelFunction of a registration record, published with a release
/// store. A deregistered record is not freed but retired (moved to a list
/// that lives as long as the entry), because a call that loaded its pointer
/// may still be running it; registering and deregistering in a loop grows
/// memory by one record per cycle, and programs register once, at start-up.
/// The fallthrough mask is updated after the table, so a call racing with
/// a registration may run a fallthrough kernel, which then redispatches.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_OPERATORENTRY_H
#define SK_DISPATCH_OPERATORENTRY_H

#include "sk/core/DispatchKeySet.h"
#include "sk/dispatch/KernelFunction.h"
#include "sk/dispatch/OperatorSchema.h"

#include <array>
#include <atomic>
#include <list>
#include <optional>
#include <string>

namespace sk {

/// A kernel with where it was registered.
struct AnnotatedKernel {
  KernelFunction Kernel;
  std::string Debug; ///< "registered at file:line"
};

class OperatorEntry {
public:
  explicit OperatorEntry(OperatorName Name);

  const OperatorName &name() const { return Name; }
  bool hasSchema() const { return Schema.has_value(); }
  const OperatorSchema &schema() const {
    SK_INTERNAL_ASSERT(Schema, "operator ", Name, " has no schema");
    return *Schema;
  }
  /// The number of arguments, for boxed calls (0 before the schema is
  /// registered).
  size_t numArguments() const { return NumArguments; }

  /// The kernel for \p KS (already combined with thread-local keys).
  const KernelFunction &lookup(DispatchKeySet KS) const {
    DispatchKeySet Live =
        KS & DispatchKeySet::fromRaw(
                 NonFallthroughKeys.load(std::memory_order_relaxed));
    DispatchKey K = Live.highestPriorityKey();
    const KernelFunction *F =
        Table[static_cast<int>(K)].load(std::memory_order_acquire);
    if (SK_UNLIKELY(F == nullptr))
      reportMissingKernel(K);
    return *F;
  }

  bool hasKernelForDispatchKey(DispatchKey K) const {
    const KernelFunction *F =
        Table[static_cast<int>(K)].load(std::memory_order_acquire);
    return F && !F->isFallthrough();
  }
  /// Checks that typed calls with C++ signature \p Sig (parameter and
  /// return types \p Args and \p Rets) fit the schema and the registered
  /// kernels; throws an sk::Error naming both otherwise.
  void checkTypedCall(const detail::CppSignature &Sig,
                      const std::vector<SchemaType> &Args,
                      const std::vector<SchemaType> &Rets) const;
  /// The keys with a kernel, for error messages: "[CPU, Meta]".
  std::string listKernelKeys() const;
  /// The registrations, the computed table and the schema, for debugging.
  std::string dumpState() const;

  // Registration; the Dispatcher holds its mutex around these.
  void registerSchema(OperatorSchema S, std::string Debug);
  void deregisterSchema();
  /// \p Key is a runtime or alias key, or std::nullopt for a catch-all
  /// (CompositeImplicitAutograd) kernel.
  std::list<AnnotatedKernel>::iterator
  registerKernel(DispatchKey Key, KernelFunction K, std::string Debug);
  void deregisterKernel(DispatchKey Key,
                        std::list<AnnotatedKernel>::iterator It);
  /// Recomputes the table after a kernel, fallback or schema change.
  /// \p Fallbacks holds each runtime key's boxed fallback, if any.
  void updateDispatchTable(
      const std::array<const AnnotatedKernel *, NumRuntimeKeys> &Fallbacks);
  bool isUnused() const;

private:
  [[noreturn]] void reportMissingKernel(DispatchKey K) const;
  void checkSchemaAgainst(const AnnotatedKernel &K) const;
  /// Throws unless \p Args and \p Rets fit the schema; \p What and
  /// \p Debug describe the C++ side in the message.
  void checkTypesAgainstSchema(const std::vector<SchemaType> &Args,
                               const std::vector<SchemaType> &Rets,
                               const std::string &What,
                               const std::string &Debug) const;
  const AnnotatedKernel *computeKernelFor(
      DispatchKey K,
      const std::array<const AnnotatedKernel *, NumRuntimeKeys> &Fallbacks)
      const;

  OperatorName Name;
  // Hot.
  std::array<std::atomic<const KernelFunction *>, NumRuntimeKeys> Table;
  std::atomic<uint64_t> NonFallthroughKeys;
  size_t NumArguments = 0;
  // Cold.
  std::optional<OperatorSchema> Schema;
  std::string SchemaDebug;
  std::array<std::list<AnnotatedKernel>,
             static_cast<int>(DispatchKey::EndOfAliasKeys)>
      Kernels;
  /// Deregistered records (Note [Lock-free dispatch]).
  std::list<AnnotatedKernel> Retired;
};

} // namespace sk

#endif // SK_DISPATCH_OPERATORENTRY_H
