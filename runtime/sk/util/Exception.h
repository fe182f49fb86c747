//===--- Exception.h - Errors, checks and warnings of the runtime -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Two channels, never mixed (c10/util/Exception.h does the same):
///
///   SK_CHECK(cond, msg...)            a caller broke an op's contract:
///                                     throws sk::Error (or a subclass).
///   SK_INTERNAL_ASSERT(cond, msg...)  the runtime broke its own invariant:
///                                     throws sk::InternalAssertError.
///
/// The message pieces are streamed together only when the check fails, on
/// an out-of-line [[noreturn]] path (a cold, never-inlined lambda), so a
/// passing check costs one branch and no stack space for the message.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_EXCEPTION_H
#define SK_UTIL_EXCEPTION_H

#include <exception>
#include <functional>
#include <sstream>
#include <string>

namespace sk {

/// A user error: bad shapes, dtypes, devices or arguments.
class Error : public std::exception {
public:
  explicit Error(std::string Msg) : Msg(std::move(Msg)) {}
  const char *what() const noexcept override { return Msg.c_str(); }
  const std::string &message() const { return Msg; }

private:
  std::string Msg;
};

/// An index out of range (PyTorch's IndexError).
class IndexError : public Error {
  using Error::Error;
};
/// A wrong dtype (PyTorch's TypeError).
class TypeError : public Error {
  using Error::Error;
};
/// Something valid that this runtime does not do, such as reading the data
/// of a meta tensor.
class NotImplementedError : public Error {
  using Error::Error;
};
/// A broken invariant of the runtime itself: a bug, not a user error.
class InternalAssertError : public Error {
  using Error::Error;
};

namespace detail {

inline void streamAll(std::ostringstream &) {}
template <typename T, typename... Rest>
void streamAll(std::ostringstream &OS, const T &First, const Rest &...Others) {
  OS << First;
  streamAll(OS, Others...);
}

/// Concatenates the pieces of a check's message.
template <typename... Args> std::string str(const Args &...Pieces) {
  std::ostringstream OS;
  streamAll(OS, Pieces...);
  return OS.str();
}

template <typename E>
[[noreturn]] void throwError(const char *Func, const char *File, int Line,
                             const char *Condition, std::string Msg);

[[noreturn]] void internalAssertFail(const char *Func, const char *File,
                                     int Line, const char *Condition,
                                     std::string Msg);

} // namespace detail

/// Receives warnings (SK_WARN). The default handler prints to stderr;
/// tests install one that records them.
using WarningHandler = std::function<void(const std::string &)>;
/// Installs \p Handler and returns the previous one.
WarningHandler setWarningHandler(WarningHandler Handler);
void warn(const std::string &Msg);

} // namespace sk

#define SK_UNLIKELY(x) __builtin_expect(static_cast<bool>(x), 0)
/// The failure path of a check: a lambda kept out of the caller, so that a
/// passing check costs the caller one branch and no stack frame for the
/// message.
#define SK_COLD_NOINLINE __attribute__((cold, noinline, noreturn))
#define SK_LIKELY(x) __builtin_expect(static_cast<bool>(x), 1)

#define SK_CHECK_WITH(ErrorType, cond, ...)                                    \
  do {                                                                         \
    if (SK_UNLIKELY(!(cond))) {                                                \
      const char *SkFunc_ = __func__;                                          \
      [&]() SK_COLD_NOINLINE {                                                 \
        ::sk::detail::throwError<ErrorType>(SkFunc_, __FILE__, __LINE__,       \
                                            #cond,                             \
                                            ::sk::detail::str(__VA_ARGS__));   \
      }();                                                                     \
    }                                                                          \
  } while (false)

/// Checks a user-facing precondition; the message names the op and the
/// offending sizes or dtypes.
#define SK_CHECK(cond, ...) SK_CHECK_WITH(::sk::Error, cond, __VA_ARGS__)
#define SK_CHECK_INDEX(cond, ...)                                              \
  SK_CHECK_WITH(::sk::IndexError, cond, __VA_ARGS__)
#define SK_CHECK_TYPE(cond, ...)                                               \
  SK_CHECK_WITH(::sk::TypeError, cond, __VA_ARGS__)
#define SK_CHECK_NOT_IMPLEMENTED(cond, ...)                                    \
  SK_CHECK_WITH(::sk::NotImplementedError, cond, __VA_ARGS__)

/// Checks an invariant of the runtime itself.
#define SK_INTERNAL_ASSERT(cond, ...)                                          \
  do {                                                                         \
    if (SK_UNLIKELY(!(cond))) {                                                \
      const char *SkFunc_ = __func__;                                          \
      [&]() SK_COLD_NOINLINE {                                                 \
        ::sk::detail::internalAssertFail(SkFunc_, __FILE__, __LINE__, #cond,   \
                                         ::sk::detail::str(__VA_ARGS__));      \
      }();                                                                     \
    }                                                                          \
  } while (false)

#define SK_WARN(...) ::sk::warn(::sk::detail::str(__VA_ARGS__))

#endif // SK_UTIL_EXCEPTION_H
