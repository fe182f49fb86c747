//===--- VerifyDiagnosticConsumer.cpp - skc -verify -----------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/VerifyDiagnosticConsumer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <list>
#include <memory>

using namespace llvm;

namespace skc {

namespace {

/// One expected-* directive: where, how often, and what.
struct Directive {
  static constexpr unsigned Unlimited = std::numeric_limits<unsigned>::max();

  DiagSeverity Severity = DiagSeverity::Error;
  /// Where the directive is written.
  unsigned DirectiveBuffer = 0;
  unsigned DirectiveLine = 0;
  /// Where the diagnostic is expected. AnyFile implies AnyLine.
  unsigned Buffer = 0;
  unsigned Line = 0;
  bool AnyLine = false;
  bool AnyFile = false;
  /// Whether the place was given with '@'.
  bool HasLocation = false;
  unsigned Min = 1;
  unsigned Max = 1;
  std::string Text;
  /// For expected-*-re, the compiled Text.
  std::unique_ptr<Regex> Pattern;

  bool matchesLocation(unsigned DiagBuffer, unsigned DiagLine) const {
    if (AnyFile)
      return true;
    return DiagBuffer == Buffer && (AnyLine || DiagLine == Line);
  }

  bool matchesMessage(StringRef Message) const {
    if (Pattern)
      return Pattern->match(Message);
    return Message.contains(Text);
  }
};

enum class DirectiveStatus { None, NoDiagnostics, Others };

} // namespace

/// Returns the regular expression for the text of an expected-*-re
/// directive: the parts in {{ }} as written, the rest matched literally.
/// Returns an empty string if there is no part in {{ }}.
static std::string buildRegex(StringRef Text) {
  std::string Pattern;
  bool SawRegex = false;
  while (!Text.empty()) {
    size_t Open = Text.find("{{");
    if (Open == StringRef::npos) {
      Pattern += Regex::escape(Text);
      break;
    }
    Pattern += Regex::escape(Text.substr(0, Open));
    Text = Text.drop_front(Open + 2);
    size_t Close = Text.find("}}");
    if (Close == StringRef::npos)
      return "";
    Pattern += '(';
    Pattern += Text.substr(0, Close);
    Pattern += ')';
    Text = Text.drop_front(Close + 2);
    SawRegex = true;
  }
  return SawRegex ? Pattern : "";
}

/// Returns the position of the \p Close that ends a {{ }} group opened
/// before \p Pos, counting nested \p Open and \p Close; npos if none.
static size_t findClosingBrace(StringRef S, size_t Pos, StringRef Open,
                               StringRef Close) {
  unsigned Depth = 1;
  while (Pos < S.size()) {
    StringRef Rest = S.substr(Pos);
    if (Rest.starts_with(Open)) {
      ++Depth;
      Pos += Open.size();
    } else if (Rest.starts_with(Close)) {
      if (--Depth == 0)
        return Pos;
      Pos += Close.size();
    } else {
      ++Pos;
    }
  }
  return StringRef::npos;
}

/// Whether a directive may start at \p Pos of \p Line: at its start, after
/// whitespace, or right after a comment opener (`#`, `//`, `/*`).
static bool isStartOfWord(StringRef Line, size_t Pos) {
  if (Pos == 0 || isSpace(Line[Pos - 1]) || Line[Pos - 1] == '#')
    return true;
  return Pos >= 2 && (Line[Pos - 1] == '/' || Line[Pos - 1] == '*') &&
         Line[Pos - 2] == '/';
}

/// Reads an unsigned number at \p Pos of \p S, advancing \p Pos; returns
/// false, leaving \p Pos, if there is none.
static bool readNumber(StringRef S, size_t &Pos, unsigned &N) {
  size_t End = Pos;
  while (End < S.size() && isDigit(S[End]))
    ++End;
  if (End == Pos || S.slice(Pos, End).getAsInteger(10, N))
    return false;
  Pos = End;
  return true;
}

namespace {

/// Reads the directives of the buffers of a SourceMgr, reporting malformed
/// ones to a stream.
class DirectiveParser {
public:
  DirectiveParser(const SourceMgr &SM, raw_ostream &OS) : SM(SM), OS(OS) {}

  void scanBuffer(unsigned BufferID) {
    StringRef Text = SM.getMemoryBuffer(BufferID)->getBuffer();
    unsigned LineNo = 1;
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      if (Line.contains("expected-"))
        parseLine(BufferID, LineNo, Line.rtrim('\r'));
      Text = Rest;
      ++LineNo;
    }
  }

  std::vector<Directive> Directives;
  DirectiveStatus Status = DirectiveStatus::None;
  unsigned NumErrors = 0;

private:
  void error(const char *Ptr, const Twine &Message) {
    SM.PrintMessage(OS, SMLoc::getFromPointer(Ptr), SourceMgr::DK_Error,
                    Message, {}, {}, /*ShowColors=*/false);
    ++NumErrors;
  }

  /// Returns the buffer whose name is \p File or ends in '/' and \p File;
  /// 0 if there is none.
  unsigned findBuffer(StringRef File) const {
    for (unsigned ID = 1, E = SM.getNumBuffers(); ID <= E; ++ID) {
      StringRef Name = SM.getMemoryBuffer(ID)->getBufferIdentifier();
      if (Name == File)
        return ID;
      if (Name.ends_with(File) && Name.size() > File.size() &&
          (Name[Name.size() - File.size() - 1] == '/' ||
           Name[Name.size() - File.size() - 1] == '\\'))
        return ID;
    }
    return 0;
  }

  /// Parses what follows '@' at \p Pos into \p D; returns false after
  /// reporting an error.
  bool parseLocation(StringRef Line, size_t &Pos, Directive &D, StringRef Kind);

  void parseLine(unsigned BufferID, unsigned LineNo, StringRef Line);

  const SourceMgr &SM;
  raw_ostream &OS;
};

bool DirectiveParser::parseLocation(StringRef Line, size_t &Pos, Directive &D,
                                    StringRef Kind) {
  auto MissingLine = [&] {
    error(Line.data() + Pos,
          "missing or invalid line number following '@' in expected " + Kind);
    return false;
  };
  D.HasLocation = true;
  unsigned N;
  if (Pos < Line.size() && (Line[Pos] == '+' || Line[Pos] == '-')) {
    bool Minus = Line[Pos++] == '-';
    if (!readNumber(Line, Pos, N) || (Minus && N >= D.DirectiveLine))
      return MissingLine();
    D.Line = Minus ? D.DirectiveLine - N : D.DirectiveLine + N;
    return true;
  }
  if (readNumber(Line, Pos, N)) {
    if (N == 0)
      return MissingLine();
    D.Line = N;
    return true;
  }
  if (Line.substr(Pos).starts_with("*")) {
    Pos += Line.substr(Pos).starts_with("*:*") ? 3 : 1;
    D.AnyFile = D.AnyLine = true;
    return true;
  }
  // @FILE:N or @FILE:*.
  size_t Colon = Pos;
  while (Colon < Line.size() && Line[Colon] != ':' && !isSpace(Line[Colon]))
    ++Colon;
  if (Colon == Pos || Colon == Line.size() || Line[Colon] != ':')
    return MissingLine();
  StringRef File = Line.slice(Pos, Colon);
  D.Buffer = findBuffer(File);
  if (!D.Buffer) {
    error(Line.data() + Pos,
          "file '" + File + "' could not be located in expected " + Kind);
    return false;
  }
  Pos = Colon + 1;
  if (Line.substr(Pos).starts_with("*")) {
    ++Pos;
    D.AnyLine = true;
    return true;
  }
  if (!readNumber(Line, Pos, N) || N == 0)
    return MissingLine();
  D.Line = N;
  return true;
}

void DirectiveParser::parseLine(unsigned BufferID, unsigned LineNo,
                                StringRef Line) {
  size_t Pos = 0;
  while (true) {
    size_t Start = Line.find("expected-", Pos);
    if (Start == StringRef::npos)
      return;
    Pos = Start + 1;
    if (!isStartOfWord(Line, Start))
      continue;

    // The directive token: letters, digits, '-' and '_', without trailing
    // digits and hyphens (those would be a count).
    size_t End = Start;
    while (End < Line.size() &&
           (isAlnum(Line[End]) || Line[End] == '-' || Line[End] == '_'))
      ++End;
    while (isDigit(Line[End - 1]) || Line[End - 1] == '-')
      --End;
    StringRef Token = Line.slice(Start, End);
    Pos = End;

    Directive D;
    bool IsRegex = Token.consume_back("-re");
    StringRef Kind = IsRegex ? "regex" : "string";
    if (Token == "expected-no-diagnostics" && !IsRegex) {
      if (Status == DirectiveStatus::Others) {
        error(Line.data() + Start, "'expected-no-diagnostics' directive "
                                   "cannot follow other expected directives");
        continue;
      }
      Status = DirectiveStatus::NoDiagnostics;
      continue;
    }
    if (Token == "expected-error")
      D.Severity = DiagSeverity::Error;
    else if (Token == "expected-warning")
      D.Severity = DiagSeverity::Warning;
    else if (Token == "expected-note")
      D.Severity = DiagSeverity::Note;
    else
      continue;
    if (Status == DirectiveStatus::NoDiagnostics) {
      error(Line.data() + Start, "expected directive cannot follow "
                                 "'expected-no-diagnostics' directive");
      continue;
    }
    Status = DirectiveStatus::Others;

    D.DirectiveBuffer = D.Buffer = BufferID;
    D.DirectiveLine = D.Line = LineNo;
    if (Pos < Line.size() && Line[Pos] == '@') {
      ++Pos;
      if (!parseLocation(Line, Pos, D, Kind))
        continue;
    }

    // The count: N, N+, N-M or +.
    Pos = Line.find_if_not(isSpace, Pos);
    if (readNumber(Line, Pos, D.Min)) {
      D.Max = D.Min;
      if (Pos < Line.size() && Line[Pos] == '+') {
        ++Pos;
        D.Max = Directive::Unlimited;
      } else if (Pos < Line.size() && Line[Pos] == '-') {
        ++Pos;
        if (!readNumber(Line, Pos, D.Max) || D.Max < D.Min) {
          error(Line.data() + Pos,
                "invalid range following '-' in expected " + Kind);
          continue;
        }
      }
    } else if (Pos < Line.size() && Line[Pos] == '+') {
      ++Pos;
      D.Max = Directive::Unlimited;
    }

    // The text: {{...}}, or with more braces {{{...}}} for a plain string.
    Pos = Line.find_if_not(isSpace, Pos);
    if (!Line.substr(Pos).starts_with("{{")) {
      error(Line.data() + std::min(Pos, Line.size()),
            "cannot find start ('{{') of expected " + Kind);
      continue;
    }
    size_t OpenBegin = Pos;
    Pos += 2;
    while (!IsRegex && Pos < Line.size() && Line[Pos] == '{')
      ++Pos;
    StringRef Open = Line.slice(OpenBegin, Pos);
    std::string Close(Open.size(), '}');
    size_t ContentEnd = findClosingBrace(Line, Pos, Open, Close);
    if (ContentEnd == StringRef::npos) {
      error(Line.data() + Pos,
            "cannot find end ('" + Close + "') of expected " + Kind);
      return;
    }
    StringRef Content = Line.slice(Pos, ContentEnd);
    Pos = ContentEnd + Close.size();
    // `\n` in the text stands for a newline.
    for (size_t I = 0; I < Content.size(); ++I) {
      if (Content.substr(I).starts_with("\\n")) {
        D.Text += '\n';
        ++I;
        continue;
      }
      D.Text += Content[I];
    }

    if (IsRegex) {
      std::string Pattern = buildRegex(D.Text);
      if (Pattern.empty()) {
        error(Content.data(), "cannot find a regular expression ('{{...}}') "
                              "in expected regex");
        continue;
      }
      D.Pattern = std::make_unique<Regex>(Pattern);
      std::string RegexError;
      if (!D.Pattern->isValid(RegexError)) {
        error(Content.data(), "invalid expected regex: " + RegexError);
        continue;
      }
    }
    Directives.push_back(std::move(D));
  }
}

/// A diagnostic that was reported, with its buffer (0 if it has no
/// location) and line.
struct SeenDiagnostic {
  const Diagnostic *Diag;
  unsigned Buffer;
  unsigned Line;
};

} // namespace

void VerifyDiagnosticConsumer::handleDiagnostic(const Diagnostic &D) {
  assert(!Finished && "diagnostic reported after finish()");
  Seen.push_back(D);
}

/// Writes the header of clang's report of one list of mismatches.
static void printHeader(raw_ostream &OS, DiagSeverity S, bool Unexpected) {
  OS << "error: 'expected-" << getSeverityName(S) << "' diagnostics "
     << (Unexpected ? "seen but not expected" : "expected but not seen")
     << ":\n";
}

void VerifyDiagnosticConsumer::finish() {
  assert(!Finished && "finish() called twice");
  Finished = true;

  DirectiveParser Parser(SM, OS);
  for (unsigned ID = 1, E = SM.getNumBuffers(); ID <= E; ++ID)
    Parser.scanBuffer(ID);
  NumFailures = Parser.NumErrors;
  if (Parser.Status == DirectiveStatus::None) {
    OS << "error: no expected directives found: consider use of "
          "'expected-no-diagnostics'\n";
    ++NumFailures;
  }

  auto GetName = [&](unsigned Buffer) {
    return SM.getMemoryBuffer(Buffer)->getBufferIdentifier();
  };
  for (DiagSeverity S :
       {DiagSeverity::Error, DiagSeverity::Warning, DiagSeverity::Note}) {
    std::list<SeenDiagnostic> Unmatched;
    for (const Diagnostic &D : Seen) {
      if (D.Severity != S)
        continue;
      unsigned Buffer = D.Loc.isValid() ? SM.FindBufferContainingLoc(D.Loc) : 0;
      unsigned Line = Buffer ? SM.getLineAndColumn(D.Loc, Buffer).first : 0;
      Unmatched.push_back({&D, Buffer, Line});
    }

    // Each directive takes up to Max matching diagnostics, and misses once
    // for each of its first Min that it cannot find.
    std::vector<const Directive *> Missing;
    for (const Directive &Dir : Parser.Directives) {
      if (Dir.Severity != S)
        continue;
      for (unsigned I = 0; I < Dir.Max; ++I) {
        auto It = llvm::find_if(Unmatched, [&](const SeenDiagnostic &SD) {
          return Dir.matchesLocation(SD.Buffer, SD.Line) &&
                 Dir.matchesMessage(SD.Diag->Message);
        });
        if (It != Unmatched.end()) {
          Unmatched.erase(It);
          continue;
        }
        if (I >= Dir.Min)
          break;
        Missing.push_back(&Dir);
      }
    }

    if (!Missing.empty()) {
      printHeader(OS, S, /*Unexpected=*/false);
      for (const Directive *Dir : Missing) {
        OS << "  File "
           << (Dir->AnyFile ? StringRef("*") : GetName(Dir->Buffer))
           << " Line ";
        if (Dir->AnyLine)
          OS << '*';
        else
          OS << Dir->Line;
        if (Dir->HasLocation)
          OS << " (directive at " << GetName(Dir->DirectiveBuffer) << ':'
             << Dir->DirectiveLine << ')';
        OS << ": " << Dir->Text << '\n';
      }
      NumFailures += Missing.size();
    }
    if (!Unmatched.empty()) {
      printHeader(OS, S, /*Unexpected=*/true);
      for (const SeenDiagnostic &SD : Unmatched) {
        if (SD.Buffer)
          OS << "  File " << GetName(SD.Buffer) << " Line " << SD.Line;
        else
          OS << "  (frontend)";
        OS << ": " << SD.Diag->Message << '\n';
      }
      NumFailures += Unmatched.size();
    }
  }

  if (NumFailures)
    OS << NumFailures << (NumFailures == 1 ? " error" : " errors")
       << " generated.\n";
  OS.flush();
}

} // namespace skc
