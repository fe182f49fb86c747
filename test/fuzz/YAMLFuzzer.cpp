//===--- YAMLFuzzer.cpp - libFuzzer target for whole schema files ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-fuzz-yaml: each input is a whole file, read both as a tags file and
/// as a native_functions.yaml schema file, whose entries then go through
/// every check of buildOperatorModel (with the input's own tags as the
/// catalogue when it declares any). The diagnostics are printed, with their
/// caret lines and fix-its, to a null stream; a model without errors is
/// printed as text and as JSON, as the driver would.
///
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/TextDiagnosticPrinter.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/OperatorModel.h"
#include "skc/Sema/OperatorModelPrinter.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

using namespace llvm;
using namespace skc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Input(reinterpret_cast<const char *>(Data), Size);
  SourceMgr SM;
  TextDiagnosticPrinter Printer(nulls(), SM, /*ShowColors=*/false);
  DiagnosticsEngine Diags(SM, Printer);
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Input, "<fuzz>.yaml"), SMLoc());

  TagsFile Tags = parseTagsFile(ID, Diags);
  TypeContext Types;
  std::vector<SchemaEntry> Entries = parseSchemaFile(ID, Types, Diags);
  OperatorModel Model = buildOperatorModel(
      std::move(Entries), Tags.Tags.empty() ? nullptr : &Tags, Diags);
  Diags.finish();
  if (Diags.hasErrors())
    return 0;

  printOperatorModel(Model, SM, nulls());
  nulls() << toJSON(Model, SM);
  printStats(computeStats(Model), nulls());
  return 0;
}
