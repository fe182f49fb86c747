//===--- DiagnosticConversion.cpp - Diagnostics in LSP terms --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticConversion.h"
#include "SourcePositions.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace skc {

/// The range of \p R when it holds \p Loc, else an empty one at Loc.
static lsp::Range toLSPRange(const SourceMgr &SM, SMLoc Loc, SMRange R) {
  if (R.isValid() && R.Start.getPointer() <= Loc.getPointer() &&
      Loc.getPointer() <= R.End.getPointer())
    return skc::toLSPRange(SM, R);
  lsp::Position P = toLSPPosition(SM, Loc);
  return lsp::Range(P, P);
}

/// A fix: the fix-its of one diagnostic (or note), as one edit of the
/// files they touch. Its title says what it does, as clangd's do.
static std::optional<json::Object> toFix(const SourceMgr &SM,
                                         const Diagnostic &D) {
  json::Array Edits;
  for (const FixItHint &F : D.FixIts) {
    StringRef File = getFile(SM, F.Range.Start);
    if (File.empty())
      continue;
    Edits.push_back(json::Object{
        {"file", File.str()},
        {"range", json::Value(toLSPRange(SM, F.Range.Start, F.Range))},
        {"newText", F.Code}});
  }
  if (Edits.empty())
    return std::nullopt;
  std::string Title;
  if (D.FixIts.size() == 1) {
    const FixItHint &F = D.FixIts.front();
    StringRef Old(F.Range.Start.getPointer(),
                  F.Range.End.getPointer() - F.Range.Start.getPointer());
    Title = F.Code.empty() ? ("remove '" + Old + "'").str()
            : Old.empty()  ? "insert '" + F.Code + "'"
                           : ("change '" + Old + "' to '" + F.Code + "'").str();
  } else {
    Title = "fix: " + D.Message;
  }
  return json::Object{{"title", Title}, {"edits", std::move(Edits)}};
}

StringMap<std::vector<json::Value>>
toLSPDiagnostics(const SourceMgr &SM, ArrayRef<Diagnostic> Diagnostics,
                 StringRef DocsURL,
                 function_ref<std::string(StringRef)> GetURI) {
  StringMap<std::vector<json::Value>> ByFile;
  for (size_t I = 0; I != Diagnostics.size();) {
    const Diagnostic &D = Diagnostics[I++];
    json::Array Fixes;
    if (std::optional<json::Object> Fix = toFix(SM, D))
      Fixes.push_back(std::move(*Fix));
    json::Array Related;
    for (; I != Diagnostics.size() &&
           Diagnostics[I].Severity == DiagSeverity::Note;
         ++I) {
      const Diagnostic &Note = Diagnostics[I];
      // A note's fix-its fix the diagnostic it belongs to.
      if (std::optional<json::Object> Fix = toFix(SM, Note))
        Fixes.push_back(std::move(*Fix));
      StringRef File = getFile(SM, Note.Loc);
      if (File.empty())
        continue;
      std::string URI;
      if (GetURI) {
        URI = GetURI(File);
      } else if (Expected<lsp::URIForFile> FileURI =
                     lsp::URIForFile::fromFile(File)) {
        URI = FileURI->uri().str();
      } else {
        consumeError(FileURI.takeError());
      }
      if (URI.empty())
        continue;
      Related.push_back(json::Object{
          {"location",
           json::Object{{"uri", std::move(URI)},
                        {"range", json::Value(toLSPRange(
                                      SM, Note.Loc,
                                      Note.Ranges.empty() ? SMRange()
                                                          : Note.Ranges[0]))}}},
          {"message", Note.Message}});
    }
    StringRef File = getFile(SM, D.Loc);
    lsp::DiagnosticSeverity Severity =
        D.Severity == DiagSeverity::Error ? lsp::DiagnosticSeverity::Error
        : D.Severity == DiagSeverity::Warning
            ? lsp::DiagnosticSeverity::Warning
            : lsp::DiagnosticSeverity::Information;
    json::Object Out{
        {"range", json::Value(toLSPRange(
                      SM, D.Loc, D.Ranges.empty() ? SMRange() : D.Ranges[0]))},
        {"severity", static_cast<int>(Severity)},
        {"source", "skc"},
        {"code", D.getID()},
        {"message", D.Message}};
    if (!DocsURL.empty())
      Out["codeDescription"] =
          json::Object{{"href", (DocsURL + "#" + D.getID()).str()}};
    if (!Related.empty())
      Out["relatedInformation"] = std::move(Related);
    // Kept by the client and handed back with a code action request
    // (LSP 3.16's `data`).
    if (!Fixes.empty())
      Out["data"] = json::Object{{"fixes", std::move(Fixes)}};
    ByFile[File].push_back(std::move(Out));
  }
  return ByFile;
}

} // namespace skc
