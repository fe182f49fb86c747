//===--- VerifyDiagnosticConsumerTest.cpp - Tests of -verify --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/VerifyDiagnosticConsumer.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;
using ::testing::HasSubstr;

namespace {

class VerifyDiagnosticConsumerTest : public ::testing::Test {
protected:
  VerifyDiagnosticConsumerTest()
      : OS(Out), Verifier(OS, SM), Diags(SM, Verifier) {}

  /// Adds a buffer named \p Name holding \p Text; returns its ID.
  unsigned addBuffer(StringRef Text, StringRef Name) {
    return SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, Name),
                                 SMLoc());
  }

  /// The location of 1-based \p Line and \p Column of buffer \p ID.
  SMLoc at(unsigned ID, unsigned Line, unsigned Column = 1) {
    return SM.FindLocForLineAndColumn(ID, Line, Column);
  }

  /// Finishes and returns what the verifier wrote.
  const std::string &finish() {
    Diags.finish();
    return Out;
  }

  SourceMgr SM;
  std::string Out;
  raw_string_ostream OS;
  VerifyDiagnosticConsumer Verifier;
  DiagnosticsEngine Diags;
};

TEST_F(VerifyDiagnosticConsumerTest, ExpectedErrorSeen_Passes) {
  unsigned ID = addBuffer("- func: foo(Tensr self) -> Tensor  "
                          "# expected-error {{unknown type 'Tensr'}}\n",
                          "a.yaml");
  Diags.report(at(ID, 1, 13), diag::err_schema_unknown_type) << "Tensr";
  EXPECT_EQ(finish(), "");
  EXPECT_FALSE(Verifier.hadFailures());
}

TEST_F(VerifyDiagnosticConsumerTest, ExpectedErrorNotSeen_FailsAsClangDoes) {
  addBuffer("- func: foo(Tensor self) -> Tensor\n"
            "- func: bar(Tensor self) -> Tensor # expected-error {{oops}}\n",
            "a.yaml");
  EXPECT_EQ(finish(), "error: 'expected-error' diagnostics expected but not "
                      "seen:\n"
                      "  File a.yaml Line 2: oops\n"
                      "1 error generated.\n");
  EXPECT_TRUE(Verifier.hadFailures());
}

TEST_F(VerifyDiagnosticConsumerTest, UnexpectedError_FailsAsClangDoes) {
  unsigned ID = addBuffer("# expected-no-diagnostics\n"
                          "- func: foo(Tensr self) -> Tensor\n",
                          "a.yaml");
  Diags.report(at(ID, 2, 13), diag::err_schema_unknown_type) << "Tensr";
  Diags.report(SMLoc(), diag::err_yaml_missing_func);
  EXPECT_EQ(finish(), "error: 'expected-error' diagnostics seen but not "
                      "expected:\n"
                      "  File a.yaml Line 2: unknown type 'Tensr'\n"
                      "  (frontend): operator entry has no 'func' key\n"
                      "2 errors generated.\n");
  EXPECT_EQ(Verifier.getNumFailures(), 2u);
}

TEST_F(VerifyDiagnosticConsumerTest, WrongSeverity_IsBothMissingAndUnexpected) {
  unsigned ID = addBuffer("- func: f(Tensor  self) -> Tensor  "
                          "# expected-error {{canonical}}\n",
                          "a.yaml");
  Diags.report(at(ID, 1, 9), diag::warn_schema_not_canonical) << "f";
  const std::string &Text = finish();
  EXPECT_THAT(Text, HasSubstr("error: 'expected-error' diagnostics expected "
                              "but not seen:\n  File a.yaml Line 1: "
                              "canonical\n"));
  EXPECT_THAT(Text, HasSubstr("error: 'expected-warning' diagnostics seen but "
                              "not expected:\n  File a.yaml Line 1: function "
                              "schema is not in canonical form; expected "
                              "'f'\n"));
}

TEST_F(VerifyDiagnosticConsumerTest, WarningAsError_NeedsExpectedError) {
  unsigned ID = addBuffer("- func: f(Tensor  self) -> Tensor  "
                          "# expected-error {{canonical}}\n",
                          "a.yaml");
  Diags.setWarningsAsErrors(true);
  Diags.report(at(ID, 1, 9), diag::warn_schema_not_canonical) << "f";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, WrongLine_Fails) {
  unsigned ID = addBuffer("- func: foo(Tensr self) -> Tensor\n"
                          "# expected-error {{unknown type}}\n",
                          "a.yaml");
  Diags.report(at(ID, 1, 13), diag::err_schema_unknown_type) << "Tensr";
  const std::string &Text = finish();
  EXPECT_THAT(Text, HasSubstr("expected but not seen:\n  File a.yaml Line 2: "
                              "unknown type\n"));
  EXPECT_THAT(Text, HasSubstr("seen but not expected:\n  File a.yaml Line 1: "
                              "unknown type 'Tensr'\n"));
}

TEST_F(VerifyDiagnosticConsumerTest, RelativeAndAbsoluteLines_Match) {
  unsigned ID = addBuffer("# expected-error@+1 {{'a'}}\n"
                          "- a: 1\n"
                          "- b: 2\n"
                          "# expected-error@-1 {{'b'}}\n"
                          "# expected-error@5 {{'c'}}\n",
                          "a.yaml");
  Diags.report(at(ID, 2, 3), diag::err_yaml_unknown_key) << "a";
  Diags.report(at(ID, 3, 3), diag::err_yaml_unknown_key) << "b";
  Diags.report(at(ID, 5, 3), diag::err_yaml_unknown_key) << "c";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, MissingRelativeDirective_NamesBothLines) {
  addBuffer("# expected-error@+1 {{'a'}}\n"
            "- a: 1\n",
            "dir/a.yaml");
  EXPECT_THAT(finish(), HasSubstr("  File dir/a.yaml Line 2 (directive at "
                                  "dir/a.yaml:1): 'a'\n"));
}

TEST_F(VerifyDiagnosticConsumerTest, FileDirective_MatchesBufferAddedLater) {
  addBuffer("- func: foo(Tensor self) -> Tensor\n"
            "# expected-error@tags.yaml:2 {{tag}}\n"
            "# expected-note@tags.yaml:* {{first}}\n",
            "dir/ops.yaml");
  // Added after the verifier was made, as the driver adds the tags file.
  unsigned Tags = addBuffer("- tag: core\n"
                            "- tag: core\n",
                            "dir/tags.yaml");
  Diags.report(at(Tags, 2, 8), diag::err_yaml_unknown_key) << "tag";
  Diags.report(at(Tags, 1, 8), diag::note_previous_key) << "first";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, FileDirective_MatchesWholePathComponents) {
  addBuffer("# expected-error@s.yaml:1 {{x}}\n", "tags.yaml");
  EXPECT_THAT(finish(),
              HasSubstr("tags.yaml:1:18: error: file 's.yaml' could not be "
                        "located in expected string\n"));
}

TEST_F(VerifyDiagnosticConsumerTest, Counts_MatchThatManyDiagnostics) {
  unsigned ID = addBuffer("- a: 1 # expected-error 2 {{unknown key}} "
                          "expected-note 0+ {{previous}}\n"
                          "- b: 2 # expected-error + {{unknown key}}\n"
                          "- c: 3 # expected-error 1-2 {{unknown key}}\n",
                          "a.yaml");
  Diags.report(at(ID, 1, 3), diag::err_yaml_unknown_key) << "a";
  Diags.report(at(ID, 1, 3), diag::err_yaml_unknown_key) << "a";
  for (int I = 0; I < 3; ++I)
    Diags.report(at(ID, 2, 3), diag::err_yaml_unknown_key) << "b";
  Diags.report(at(ID, 3, 3), diag::err_yaml_unknown_key) << "c";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, CountTooHigh_ListsEachMissingOne) {
  unsigned ID =
      addBuffer("- a: 1 # expected-error 3 {{unknown key}}\n", "a.yaml");
  Diags.report(at(ID, 1, 3), diag::err_yaml_unknown_key) << "a";
  EXPECT_EQ(finish(), "error: 'expected-error' diagnostics expected but not "
                      "seen:\n"
                      "  File a.yaml Line 1: unknown key\n"
                      "  File a.yaml Line 1: unknown key\n"
                      "2 errors generated.\n");
}

TEST_F(VerifyDiagnosticConsumerTest, UnexpectedNote_Fails) {
  unsigned ID = addBuffer("- a: 1\n"
                          "- a: 1 # expected-error {{duplicate}}\n",
                          "a.yaml");
  Diags.report(at(ID, 2, 3), diag::err_yaml_duplicate_key) << "a";
  Diags.report(at(ID, 1, 3), diag::note_previous_key) << "a";
  EXPECT_EQ(finish(), "error: 'expected-note' diagnostics seen but not "
                      "expected:\n"
                      "  File a.yaml Line 1: previous occurrence of 'a' is "
                      "here\n"
                      "1 error generated.\n");
}

TEST_F(VerifyDiagnosticConsumerTest, CppComments_AreScannedToo) {
  // The kinds do not matter to the verifier; these stand in for Clang's.
  unsigned ID = addBuffer("void f() {\n"
                          "  g(); // expected-error {{unknown key 'g'}}\n"
                          "  /* expected-warning@+1 {{expected 'int x'}} */\n"
                          "  int  x;\n"
                          "}\n",
                          "k.cpp");
  Diags.report(at(ID, 2, 3), diag::err_yaml_unknown_key) << "g";
  Diags.report(at(ID, 4, 3), diag::warn_schema_not_canonical) << "int x";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, RegexDirective_Matches) {
  unsigned ID =
      addBuffer("- a: 1 # expected-error-re {{unknown key '{{[a-z]+}}' "
                "in operator entry{{$}}}}\n",
                "a.yaml");
  Diags.report(at(ID, 1, 3), diag::err_yaml_unknown_key) << "a";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, ExtraBraces_AllowBracesInText) {
  unsigned ID =
      addBuffer("- a: 1 # expected-error {{{unknown key '}}'}}}\n", "a.yaml");
  Diags.report(at(ID, 1, 3), diag::err_yaml_unknown_key) << "}}";
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, AnywhereDirective_MatchesNoLocation) {
  addBuffer("# expected-error@* {{no 'func'}}\n", "a.yaml");
  Diags.report(SMLoc(), diag::err_yaml_missing_func);
  EXPECT_EQ(finish(), "");
}

TEST_F(VerifyDiagnosticConsumerTest, NoDirectives_Fails) {
  addBuffer("- func: foo(Tensor self) -> Tensor\n", "a.yaml");
  EXPECT_EQ(finish(), "error: no expected directives found: consider use of "
                      "'expected-no-diagnostics'\n"
                      "1 error generated.\n");
  EXPECT_TRUE(Verifier.hadFailures());
}

TEST_F(VerifyDiagnosticConsumerTest, ExpectedNoDiagnostics_PassesWhenClean) {
  addBuffer("# expected-no-diagnostics\n", "a.yaml");
  EXPECT_EQ(finish(), "");
  EXPECT_FALSE(Verifier.hadFailures());
}

TEST_F(VerifyDiagnosticConsumerTest, NoDiagnosticsWithOtherDirectives_Fails) {
  addBuffer("# expected-error {{x}}\n"
            "# expected-no-diagnostics\n",
            "a.yaml");
  EXPECT_THAT(finish(), HasSubstr("a.yaml:2:3: error: "
                                  "'expected-no-diagnostics' directive cannot "
                                  "follow other expected directives\n"));
}

TEST_F(VerifyDiagnosticConsumerTest, MalformedDirectives_AreErrorsWithCarets) {
  addBuffer("# expected-error oops\n"
            "# expected-error@ {{x}}\n"
            "# expected-error 2-1 {{x}}\n"
            "# expected-error {{never closed\n"
            "# expected-error-re {{no regex}}\n",
            "a.yaml");
  const std::string &Text = finish();
  EXPECT_THAT(Text, HasSubstr("a.yaml:1:18: error: cannot find start ('{{') "
                              "of expected string\n"
                              "# expected-error oops\n"
                              "                 ^\n"));
  EXPECT_THAT(Text, HasSubstr("a.yaml:2:18: error: missing or invalid line "
                              "number following '@' in expected string\n"));
  EXPECT_THAT(Text, HasSubstr("a.yaml:3:21: error: invalid range following "
                              "'-' in expected string\n"));
  EXPECT_THAT(Text, HasSubstr("a.yaml:4:20: error: cannot find end ('}}') of "
                              "expected string\n"));
  EXPECT_THAT(Text, HasSubstr("a.yaml:5:23: error: cannot find a regular "
                              "expression ('{{...}}') in expected regex\n"));
  EXPECT_THAT(Text, HasSubstr("5 errors generated.\n"));
}

TEST_F(VerifyDiagnosticConsumerTest, WordsThatOnlyContainTheDirective_Ignored) {
  addBuffer("# unexpected-error {{x}} expected-errors {{y}}\n"
            "# expected-no-diagnostics\n",
            "a.yaml");
  EXPECT_EQ(finish(), "");
}

} // namespace
