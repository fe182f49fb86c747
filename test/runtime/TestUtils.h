//===--- TestUtils.h - Helpers for runtime tests ----------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_RUNTIME_TESTUTILS_H
#define SKC_TEST_RUNTIME_TESTUTILS_H

#include "sk/util/Exception.h"

#include "gtest/gtest.h"

#include <string>

/// Expects \p Statement to throw \p ErrorType (an sk::Error) whose message
/// contains \p Needle.
#define SK_EXPECT_ERROR_TYPE(Statement, ErrorType, Needle)                     \
  do {                                                                         \
    try {                                                                      \
      Statement;                                                               \
      ADD_FAILURE() << "expected an error containing: " << (Needle);           \
    } catch (const ErrorType &E) {                                             \
      EXPECT_NE(std::string(E.what()).find(Needle), std::string::npos)         \
          << "message: " << E.what();                                          \
    }                                                                          \
  } while (false)

#define SK_EXPECT_ERROR(Statement, Needle)                                     \
  SK_EXPECT_ERROR_TYPE(Statement, ::sk::Error, Needle)

namespace sk {
namespace test {

/// Expects \p Fn to throw an sk::Error whose message contains \p Needle;
/// the function form of SK_EXPECT_ERROR, for lambdas.
template <typename Fn> void expectError(Fn &&F, const std::string &Needle) {
  try {
    F();
    ADD_FAILURE() << "expected an error containing '" << Needle << "'";
  } catch (const Error &E) {
    EXPECT_NE(std::string(E.what()).find(Needle), std::string::npos)
        << "message: " << E.what() << "\nexpected to contain: " << Needle;
  }
}

} // namespace test
} // namespace sk

#endif // SKC_TEST_RUNTIME_TESTUTILS_H
