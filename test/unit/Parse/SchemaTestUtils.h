//===--- SchemaTestUtils.h - Helpers for schema unit tests ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_UNIT_PARSE_SCHEMATESTUTILS_H
#define SKC_TEST_UNIT_PARSE_SCHEMATESTUTILS_H

#include "skc/Basic/Diagnostic.h"
#include "skc/Parse/SchemaParser.h"
#include "skc/Parse/YAMLNode.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace skc {
namespace testing {

/// Parses schema strings held in their own SourceMgr buffers and keeps the
/// diagnostics, with the column each one points at.
class SchemaParseHarness {
public:
  SchemaParseHarness() : Diags(SM, Stored) {}

  std::optional<FunctionSchema> parse(llvm::StringRef Text) {
    unsigned ID = SM.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(Text, "schema"), llvm::SMLoc());
    YAMLScalar S;
    S.Value = Text.str();
    S.Loc = S.ValueLoc = llvm::SMLoc::getFromPointer(
        SM.getMemoryBuffer(ID)->getBufferStart());
    S.Verbatim = true;
    return parseFunctionSchema(S, Types, Diags);
  }

  /// The ID of the first diagnostic, or "" if there was none.
  std::string firstID() const {
    return Stored.Diagnostics.empty() ? ""
                                      : Stored.Diagnostics[0].getID().str();
  }
  /// The 1-based column of the first diagnostic.
  unsigned firstColumn() const {
    if (Stored.Diagnostics.empty())
      return 0;
    return SM.getLineAndColumn(Stored.Diagnostics[0].Loc).second;
  }
  std::string firstMessage() const {
    return Stored.Diagnostics.empty() ? "" : Stored.Diagnostics[0].Message;
  }

  llvm::SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags;
  TypeContext Types;
};

} // namespace testing
} // namespace skc

#endif // SKC_TEST_UNIT_PARSE_SCHEMATESTUTILS_H
