//===--- Tracer.cpp - Record every operator call --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/Tracer.h"
#include "sk/dispatch/Library.h"

#include <sstream>

namespace sk {

namespace {
TraceGuard *&currentTrace() {
  static thread_local TraceGuard *Current = nullptr;
  return Current;
}

std::string printValue(const IValue &V) {
  std::ostringstream OS;
  OS << V;
  return OS.str();
}
} // namespace

std::string TracedCall::str() const {
  std::ostringstream OS;
  OS << Name << '(';
  for (size_t I = 0; I != Arguments.size(); ++I)
    OS << (I ? ", " : "") << Arguments[I];
  OS << ") -> ";
  if (Returns.size() != 1)
    OS << '(';
  for (size_t I = 0; I != Returns.size(); ++I)
    OS << (I ? ", " : "") << Returns[I];
  if (Returns.size() != 1)
    OS << ')';
  return OS.str();
}

void recordTracedCall(TracedCall Call) {
  for (TraceGuard *G = currentTrace(); G; G = G->Outer)
    G->Calls.push_back(Call);
}

TraceGuard::TraceGuard()
    : Include(DispatchKey::Tracer), Outer(currentTrace()) {
  currentTrace() = this;
}

TraceGuard::~TraceGuard() { currentTrace() = Outer; }

/// The Tracer key's fallback: record, run the kernel below, record returns.
static void traceFallback(const OperatorHandle &Op, DispatchKeySet KS,
                          Stack *S) {
  TracedCall Call;
  Call.Name = Op.operator_name();
  size_t NumArgs = Op.hasSchema() ? Op.schema().Arguments.size() : 0;
  size_t Base = S->size() - std::min(NumArgs, S->size());
  for (size_t I = Base; I != S->size(); ++I)
    Call.Arguments.push_back(printValue((*S)[I]));
  {
    ExcludeDispatchKeyGuard NoNestedTraces(DispatchKey::Tracer);
    Op.redispatchBoxed(KS & DispatchKeySet::below(DispatchKey::Tracer), *S);
  }
  for (size_t I = Base; I < S->size(); ++I)
    Call.Returns.push_back(printValue((*S)[I]));
  recordTracedCall(std::move(Call));
}

SK_LIBRARY_IMPL(_, Tracer, m) {
  m.fallback(CppFunction::makeFromBoxedFunction<&traceFallback>());
}

} // namespace sk
