//===--- SchemaFuzzer.cpp - libFuzzer target for 'func:' strings ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-fuzz-schema: each input is one `func:` string, parsed as a verbatim
/// YAML scalar so that every diagnostic location maps into the input. The
/// diagnostics are printed, with their caret lines, to a null stream. A
/// schema that parses also goes through Sema's checks, as a one-entry file.
///
/// Invariant: when the input parses, its canonical spelling (print()) parses
/// again without any diagnostic and prints as itself; otherwise the target
/// traps.
///
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/TextDiagnosticPrinter.h"
#include "skc/Parse/SchemaParser.h"
#include "skc/Parse/YAMLNode.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

using namespace llvm;
using namespace skc;

/// Adds a copy of \p Text to \p SM and returns a verbatim scalar over it.
static YAMLScalar addVerbatimScalar(SourceMgr &SM, StringRef Text) {
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, "<func>"), SMLoc());
  YAMLScalar S;
  S.Value = Text.str();
  S.Loc = SMLoc::getFromPointer(SM.getMemoryBuffer(ID)->getBufferStart());
  S.ValueLoc = S.Loc;
  S.Verbatim = true;
  S.Plain = true;
  return S;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Input(reinterpret_cast<const char *>(Data), Size);
  SourceMgr SM;
  TextDiagnosticPrinter Printer(nulls(), SM, /*ShowColors=*/false);
  DiagnosticsEngine Diags(SM, Printer);
  TypeContext Types;

  YAMLScalar Text = addVerbatimScalar(SM, Input);
  std::optional<FunctionSchema> Schema =
      parseFunctionSchema(Text, Types, Diags);
  if (!Schema)
    return 0;

  // Sema's checks, on the schema as a one-entry file.
  std::vector<SchemaEntry> Entries(1);
  Entries[0].Loc = Text.Loc;
  Entries[0].Func = Text;
  Entries[0].Schema = Schema;
  buildOperatorModel(std::move(Entries), /*Tags=*/nullptr, Diags);
  Diags.finish();

  // The round trip.
  std::string Printed = Schema->getAsString();
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine ReparseDiags(SM, Stored);
  YAMLScalar PrintedText = addVerbatimScalar(SM, Printed);
  std::optional<FunctionSchema> Reparsed =
      parseFunctionSchema(PrintedText, Types, ReparseDiags);
  if (Reparsed && Stored.Diagnostics.empty() &&
      Reparsed->getAsString() == Printed)
    return 0;

  errs() << "skc-fuzz-schema: the canonical form does not round-trip\n"
         << "  input:     '" << Input << "'\n"
         << "  printed:   '" << Printed << "'\n";
  if (Reparsed)
    errs() << "  reprinted: '" << Reparsed->getAsString() << "'\n";
  TextDiagnosticPrinter ErrorPrinter(errs(), SM, /*ShowColors=*/false);
  for (const Diagnostic &D : Stored.Diagnostics)
    ErrorPrinter.handleDiagnostic(D);
  __builtin_trap();
}
