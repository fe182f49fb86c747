//===--- Exception.cpp - Errors, checks and warnings of the runtime -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/util/Exception.h"

#include <cstdio>
#include <mutex>

namespace sk {
namespace detail {

template <typename E>
void throwError(const char *, const char *, int, const char *Condition,
                std::string Msg) {
  // A check without a message still says what failed.
  if (Msg.empty())
    Msg = std::string("expected ") + Condition + " to be true";
  throw E(std::move(Msg));
}

template void throwError<Error>(const char *, const char *, int, const char *,
                                std::string);
template void throwError<IndexError>(const char *, const char *, int,
                                     const char *, std::string);
template void throwError<TypeError>(const char *, const char *, int,
                                    const char *, std::string);
template void throwError<NotImplementedError>(const char *, const char *, int,
                                              const char *, std::string);

void internalAssertFail(const char *Func, const char *File, int Line,
                        const char *Condition, std::string Msg) {
  throw InternalAssertError(
      str("INTERNAL ASSERT FAILED at ", File, ":", Line, " in ", Func, ": ",
          Condition, Msg.empty() ? "" : ": ", Msg,
          " (this is a bug in the skc runtime)"));
}

} // namespace detail

namespace {
std::mutex &warningMutex() {
  static std::mutex M;
  return M;
}
WarningHandler &warningHandler() {
  static WarningHandler H = [](const std::string &Msg) {
    std::fprintf(stderr, "warning: %s\n", Msg.c_str());
  };
  return H;
}
} // namespace

WarningHandler setWarningHandler(WarningHandler Handler) {
  std::lock_guard<std::mutex> Lock(warningMutex());
  std::swap(warningHandler(), Handler);
  return Handler;
}

void warn(const std::string &Msg) {
  std::lock_guard<std::mutex> Lock(warningMutex());
  warningHandler()(Msg);
}

} // namespace sk
