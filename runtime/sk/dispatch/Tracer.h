//===--- Tracer.h - Record every operator call ------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A boxed fallback on the Tracer key records each operator call, with its
/// arguments and returns, then redispatches to the kernel below it. It works
/// for every operator without one line of per-op code, which is the point
/// of boxed fallbacks:
///
///   sk::TraceGuard Trace;             // includes the Tracer key
///   sk::add(A, B);
///   Trace.calls()[0].str();           // "sk::add.Tensor(tensor(float32[2], cpu), ...)"
///
/// Calls made by kernels below the Tracer (redispatches) are not recorded
/// again: the fallback excludes the Tracer key while it runs the kernel.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_TRACER_H
#define SK_DISPATCH_TRACER_H

#include "sk/dispatch/Dispatcher.h"

#include <string>
#include <vector>

namespace sk {

struct TracedCall {
  OperatorName Name;
  std::vector<std::string> Arguments;
  std::vector<std::string> Returns;

  /// `name.overload(arg, arg) -> ret`.
  std::string str() const;
};

/// Records the operator calls of this thread while alive. Guards nest; each
/// records the calls made during its own lifetime.
class TraceGuard {
public:
  TraceGuard();
  ~TraceGuard();
  TraceGuard(const TraceGuard &) = delete;
  TraceGuard &operator=(const TraceGuard &) = delete;

  const std::vector<TracedCall> &calls() const { return Calls; }

private:
  friend void recordTracedCall(TracedCall Call);
  IncludeDispatchKeyGuard Include;
  TraceGuard *Outer;
  std::vector<TracedCall> Calls;
};

} // namespace sk

#endif // SK_DISPATCH_TRACER_H
