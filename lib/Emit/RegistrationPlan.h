//===--- RegistrationPlan.h - Which kernel serves a function ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides, per dispatch key, how each function gets its kernel: through
/// the structured machinery, a native kernel of the dispatch table, or a
/// from-functional wrapper (seed 002). Register<Key>.cpp is written from
/// this plan, and the coverage report reads it, so the two cannot
/// disagree.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_EMIT_REGISTRATIONPLAN_H
#define SKC_LIB_EMIT_REGISTRATIONPLAN_H

#include "EmitModel.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skc {

/// How one function gets its kernel for a key.
struct Registration {
  enum KindTy { Structured, Native, FromFunctional };
  KindTy Kind;
  const EmittedFunction *EF;
  /// Structured and from-functional: the function's group.
  const NativeFunctionsGroup *G = nullptr;
  /// Structured: the out= function's kernel (null for Meta). Native: the
  /// kernel called.
  const BackendKernel *Kernel = nullptr;
  /// From-functional: the functional member whose wrapper is called.
  const EmittedFunction *Functional = nullptr;
};

/// What one key's files hold, in units that stay in one shard: a group's
/// registrations call each other's wrappers.
struct KeyPlan {
  DispatchKey Key;
  /// Unit name (sorted) -> registrations in function order.
  std::map<std::string, std::vector<Registration>> Units;
};

/// How \p EF gets its kernel for \p Key, or none when \p Key has no
/// kernel for it. Composite keys have native registrations only.
std::optional<Registration> planRegistration(const EmitModel &EM,
                                             const EmittedFunction &EF,
                                             DispatchKey Key);

/// Every registration of \p Key, in units.
KeyPlan planKey(const EmitModel &EM, DispatchKey Key);

} // namespace skc

#endif // SKC_LIB_EMIT_REGISTRATIONPLAN_H
