//===--- Diagnostic.h - Diagnostic kinds, engine and builder ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Problems in user input (schema files, kernel sources) are reported through
/// a DiagnosticsEngine: `Diags.report(Loc, diag::err_x) << Arg << Range;`.
/// The builder formats the catalogue message when it goes out of scope and
/// hands the finished Diagnostic to a DiagnosticConsumer (text, SARIF, or a
/// test's collector). Library code never prints errors itself.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_DIAGNOSTIC_H
#define SKC_BASIC_DIAGNOSTIC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace skc {

namespace diag {
/// One enumerator per line of DiagnosticKinds.def.
enum Kind : unsigned {
#define DIAG(ID, Severity, Format) ID,
#include "skc/Basic/DiagnosticKinds.def"
  NumKinds
};
} // namespace diag

enum class DiagSeverity : uint8_t { Note, Warning, Error };

/// The static description of one diagnostic kind, as written in the catalogue.
struct DiagnosticKindInfo {
  llvm::StringRef ID;
  DiagSeverity Severity;
  llvm::StringRef Format;
};

const DiagnosticKindInfo &getDiagnosticKindInfo(diag::Kind K);

/// Returns the kind whose stable ID is \p ID, or std::nullopt.
std::optional<diag::Kind> lookupDiagnosticKind(llvm::StringRef ID);

/// Returns "error", "warning" or "note".
llvm::StringRef getSeverityName(DiagSeverity S);

/// A suggested edit: replace \p Range by \p Code.
struct FixItHint {
  llvm::SMRange Range;
  std::string Code;
  /// An insertion at Range.Start (an empty range on purpose).
  bool IsInsertion = false;

  static FixItHint replace(llvm::SMRange R, llvm::StringRef Code) {
    return {R, Code.str()};
  }
  static FixItHint insert(llvm::SMLoc Loc, llvm::StringRef Code) {
    return {llvm::SMRange(Loc, Loc), Code.str(), /*IsInsertion=*/true};
  }
};

/// A diagnostic after formatting, as consumers see it.
struct Diagnostic {
  diag::Kind Kind;
  DiagSeverity Severity;
  llvm::SMLoc Loc;
  llvm::SmallVector<llvm::SMRange, 2> Ranges;
  llvm::SmallVector<FixItHint, 1> FixIts;
  std::string Message;

  llvm::StringRef getID() const { return getDiagnosticKindInfo(Kind).ID; }
};

/// Receives every diagnostic in the order it was reported. Notes follow the
/// error or warning they belong to.
class DiagnosticConsumer {
public:
  virtual ~DiagnosticConsumer();
  virtual void handleDiagnostic(const Diagnostic &D) = 0;
  /// Called once when no more diagnostics will come.
  virtual void finish() {}
};

/// Formats a catalogue message with its arguments. Exposed for tests.
std::string
formatDiagnostic(llvm::StringRef Format,
                 llvm::ArrayRef<std::variant<std::string, int64_t>> Args);

class DiagnosticBuilder;

/// Routes reported diagnostics to a consumer and counts them.
class DiagnosticsEngine {
public:
  DiagnosticsEngine(llvm::SourceMgr &SM, DiagnosticConsumer &Consumer)
      : SM(SM), Consumer(&Consumer) {}

  /// Starts a diagnostic of kind \p K at \p Loc. It is emitted when the
  /// returned builder is destroyed.
  DiagnosticBuilder report(llvm::SMLoc Loc, diag::Kind K);

  llvm::SourceMgr &getSourceMgr() const { return SM; }
  DiagnosticConsumer &getConsumer() const { return *Consumer; }
  void setConsumer(DiagnosticConsumer &C) { Consumer = &C; }

  /// With -Werror, warnings are reported (and counted) as errors.
  void setWarningsAsErrors(bool Enable) { WarningsAsErrors = Enable; }
  /// With -Wno-<id>, the warning \p K is dropped, with its notes, before
  /// -Werror would make it an error.
  void ignoreWarning(diag::Kind K) { IgnoredWarnings.insert(K); }

  unsigned getNumErrors() const { return NumErrors; }
  unsigned getNumWarnings() const { return NumWarnings; }
  bool hasErrors() const { return NumErrors != 0; }

  /// Tells the consumer that reporting is over.
  void finish() { Consumer->finish(); }

private:
  friend class DiagnosticBuilder;
  void emit(Diagnostic &&D);

  llvm::SourceMgr &SM;
  DiagnosticConsumer *Consumer;
  bool WarningsAsErrors = false;
  llvm::SmallSet<diag::Kind, 4> IgnoredWarnings;
  /// Whether the last error or warning was dropped, and so its notes are.
  bool DroppingNotes = false;
  unsigned NumErrors = 0;
  unsigned NumWarnings = 0;
};

/// Collects the arguments, ranges and fix-its of one diagnostic.
class DiagnosticBuilder {
public:
  DiagnosticBuilder(DiagnosticsEngine &Engine, llvm::SMLoc Loc, diag::Kind K)
      : Engine(&Engine), Loc(Loc), Kind(K) {}
  DiagnosticBuilder(DiagnosticBuilder &&Other) noexcept;
  DiagnosticBuilder(const DiagnosticBuilder &) = delete;
  DiagnosticBuilder &operator=(const DiagnosticBuilder &) = delete;
  ~DiagnosticBuilder();

  const DiagnosticBuilder &operator<<(llvm::StringRef S) const {
    Args.emplace_back(S.str());
    return *this;
  }
  const DiagnosticBuilder &operator<<(const char *S) const {
    return *this << llvm::StringRef(S);
  }
  const DiagnosticBuilder &operator<<(const std::string &S) const {
    return *this << llvm::StringRef(S);
  }
  const DiagnosticBuilder &operator<<(int64_t N) const {
    Args.emplace_back(N);
    return *this;
  }
  const DiagnosticBuilder &operator<<(int N) const {
    return *this << static_cast<int64_t>(N);
  }
  const DiagnosticBuilder &operator<<(unsigned N) const {
    return *this << static_cast<int64_t>(N);
  }
  const DiagnosticBuilder &operator<<(size_t N) const {
    return *this << static_cast<int64_t>(N);
  }
  /// Highlights \p R under the caret line.
  const DiagnosticBuilder &operator<<(llvm::SMRange R) const {
    if (R.isValid())
      Ranges.push_back(R);
    return *this;
  }
  /// Adds a replacement. One whose range is empty is dropped, unless it is
  /// an insertion: an empty range to replace means the text was not written
  /// verbatim (an escaped or folded YAML scalar), so its place is unknown.
  const DiagnosticBuilder &operator<<(FixItHint F) const {
    if (!F.Range.Start.isValid() ||
        (F.Range.Start == F.Range.End && !F.IsInsertion))
      return *this;
    FixIts.push_back(std::move(F));
    return *this;
  }

private:
  DiagnosticsEngine *Engine;
  llvm::SMLoc Loc;
  diag::Kind Kind;
  mutable llvm::SmallVector<std::variant<std::string, int64_t>, 4> Args;
  mutable llvm::SmallVector<llvm::SMRange, 2> Ranges;
  mutable llvm::SmallVector<FixItHint, 1> FixIts;
};

inline DiagnosticBuilder DiagnosticsEngine::report(llvm::SMLoc Loc,
                                                   diag::Kind K) {
  return DiagnosticBuilder(*this, Loc, K);
}

/// Keeps every diagnostic; for tests and for tools that post-process them.
class StoredDiagnosticConsumer : public DiagnosticConsumer {
public:
  void handleDiagnostic(const Diagnostic &D) override {
    Diagnostics.push_back(D);
  }
  llvm::SmallVector<Diagnostic, 4> Diagnostics;
};

/// Sends every diagnostic to several consumers: text on the terminal and a
/// SARIF file, say.
class MultiplexDiagnosticConsumer : public DiagnosticConsumer {
public:
  explicit MultiplexDiagnosticConsumer(
      llvm::ArrayRef<DiagnosticConsumer *> Consumers)
      : Consumers(Consumers.begin(), Consumers.end()) {}
  void handleDiagnostic(const Diagnostic &D) override {
    for (DiagnosticConsumer *C : Consumers)
      C->handleDiagnostic(D);
  }
  void finish() override {
    for (DiagnosticConsumer *C : Consumers)
      C->finish();
  }

private:
  llvm::SmallVector<DiagnosticConsumer *, 2> Consumers;
};

/// Drops every diagnostic (the engine still counts them).
class IgnoringDiagnosticConsumer : public DiagnosticConsumer {
public:
  void handleDiagnostic(const Diagnostic &) override {}
};

} // namespace skc

#endif // SKC_BASIC_DIAGNOSTIC_H
