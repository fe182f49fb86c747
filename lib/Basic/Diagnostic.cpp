//===--- Diagnostic.cpp - Diagnostic kinds, engine and builder ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

static const DiagnosticKindInfo KindInfos[] = {
#define DIAG(ID, Sev, Format) {#ID, DiagSeverity::Sev, Format},
#include "skc/Basic/DiagnosticKinds.def"
};

static_assert(sizeof(KindInfos) / sizeof(KindInfos[0]) == diag::NumKinds,
              "one DiagnosticKindInfo per catalogue entry");

const DiagnosticKindInfo &getDiagnosticKindInfo(diag::Kind K) {
  assert(K < diag::NumKinds && "diagnostic kind out of range");
  return KindInfos[K];
}

std::optional<diag::Kind> lookupDiagnosticKind(StringRef ID) {
  static const StringMap<diag::Kind> ByID = [] {
    StringMap<diag::Kind> M;
    for (unsigned I = 0; I != diag::NumKinds; ++I)
      M[KindInfos[I].ID] = static_cast<diag::Kind>(I);
    return M;
  }();
  auto It = ByID.find(ID);
  if (It == ByID.end())
    return std::nullopt;
  return It->second;
}

StringRef getSeverityName(DiagSeverity S) {
  switch (S) {
  case DiagSeverity::Note:
    return "note";
  case DiagSeverity::Warning:
    return "warning";
  case DiagSeverity::Error:
    return "error";
  }
  llvm_unreachable("covered switch");
}

DiagnosticConsumer::~DiagnosticConsumer() = default;

/// Reads the argument index that follows a format directive at \p Pos.
static unsigned readArgIndex(StringRef Format, size_t &Pos) {
  assert(Pos < Format.size() && isDigit(Format[Pos]) &&
         "format directive without an argument index");
  return Format[Pos++] - '0';
}

static int64_t getIntArg(ArrayRef<std::variant<std::string, int64_t>> Args,
                         unsigned Index) {
  assert(Index < Args.size() && "too few diagnostic arguments");
  assert(std::holds_alternative<int64_t>(Args[Index]) &&
         "%select and %s take an integer argument");
  return std::get<int64_t>(Args[Index]);
}

std::string
formatDiagnostic(StringRef Format,
                 ArrayRef<std::variant<std::string, int64_t>> Args) {
  std::string Out;
  raw_string_ostream OS(Out);
  size_t Pos = 0;
  while (Pos < Format.size()) {
    char C = Format[Pos++];
    if (C != '%') {
      OS << C;
      continue;
    }
    if (Format.substr(Pos).starts_with("select{")) {
      size_t Close = Format.find('}', Pos);
      assert(Close != StringRef::npos && "unterminated %select");
      StringRef Body = Format.slice(Pos + 7, Close);
      Pos = Close + 1;
      int64_t Choice = getIntArg(Args, readArgIndex(Format, Pos));
      SmallVector<StringRef, 8> Options;
      Body.split(Options, '|');
      assert(Choice >= 0 && static_cast<size_t>(Choice) < Options.size() &&
             "%select index out of range");
      OS << Options[Choice];
      continue;
    }
    if (Format[Pos] == 's') {
      ++Pos;
      if (getIntArg(Args, readArgIndex(Format, Pos)) != 1)
        OS << 's';
      continue;
    }
    unsigned Index = readArgIndex(Format, Pos);
    assert(Index < Args.size() && "too few diagnostic arguments");
    if (const auto *S = std::get_if<std::string>(&Args[Index]))
      OS << *S;
    else
      OS << std::get<int64_t>(Args[Index]);
  }
  return Out;
}

void DiagnosticsEngine::emit(Diagnostic &&D) {
  if (D.Severity == DiagSeverity::Note) {
    if (DroppingNotes)
      return;
  } else {
    DroppingNotes = D.Severity == DiagSeverity::Warning &&
                    IgnoredWarnings.count(D.Kind);
    if (DroppingNotes)
      return;
  }
  if (D.Severity == DiagSeverity::Warning && WarningsAsErrors)
    D.Severity = DiagSeverity::Error;
  if (D.Severity == DiagSeverity::Error)
    ++NumErrors;
  else if (D.Severity == DiagSeverity::Warning)
    ++NumWarnings;
  Consumer->handleDiagnostic(D);
}

DiagnosticBuilder::DiagnosticBuilder(DiagnosticBuilder &&Other) noexcept
    : Engine(Other.Engine), Loc(Other.Loc), Kind(Other.Kind),
      Args(std::move(Other.Args)), Ranges(std::move(Other.Ranges)),
      FixIts(std::move(Other.FixIts)) {
  Other.Engine = nullptr;
}

DiagnosticBuilder::~DiagnosticBuilder() {
  if (!Engine)
    return;
  const DiagnosticKindInfo &Info = getDiagnosticKindInfo(Kind);
  Diagnostic D{Kind,
               Info.Severity,
               Loc,
               std::move(Ranges),
               std::move(FixIts),
               formatDiagnostic(Info.Format, Args)};
  Engine->emit(std::move(D));
}

} // namespace skc
