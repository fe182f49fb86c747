//===--- SarifDiagnosticPrinter.cpp - Diagnostics as a SARIF log ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/SarifDiagnosticPrinter.h"

#include "Sarif.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

static SarifLevel toSarifLevel(DiagSeverity S) {
  switch (S) {
  case DiagSeverity::Note:
    return SarifLevel::Note;
  case DiagSeverity::Warning:
    return SarifLevel::Warning;
  case DiagSeverity::Error:
    return SarifLevel::Error;
  }
  llvm_unreachable("covered switch");
}

/// Returns the rule `name` for a catalogue ID: its words in PascalCase,
/// without the severity prefix (`err_yaml_unknown_key` -> `YamlUnknownKey`),
/// as SARIF recommends for names.
static std::string getRuleName(StringRef ID) {
  ID = ID.drop_until([](char C) { return C == '_'; }).drop_front();
  SmallVector<StringRef, 4> Words;
  ID.split(Words, '_', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string Name;
  for (StringRef W : Words) {
    Name += toUpper(W.front());
    Name += W.drop_front();
  }
  return Name;
}

/// Returns \p S with every character but the unreserved ones of RFC 3986,
/// '/' and, when \p KeepColon, ':' percent-encoded.
static std::string percentEncode(StringRef S, bool KeepColon) {
  std::string Out;
  for (char C : S) {
    if (isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/' || (KeepColon && C == ':')) {
      Out += C;
      continue;
    }
    Out += '%';
    Out += hexdigit((static_cast<unsigned char>(C) >> 4) & 0xF);
    Out += hexdigit(static_cast<unsigned char>(C) & 0xF);
  }
  return Out;
}

/// Returns the artifact URI of the buffer named \p Name: a file:// URI of
/// its absolute path when it names a file; otherwise (`<stdin>`, a buffer
/// made in memory) the name as a relative reference.
static std::string getArtifactURI(StringRef Name) {
  if (!sys::fs::exists(Name))
    return percentEncode(Name, /*KeepColon=*/false);
  SmallString<256> Path(Name);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  sys::path::native(Path, sys::path::Style::posix);
  std::string URI = "file://";
  if (!Path.starts_with("/"))
    URI += '/'; // file:///C:/...
  URI += percentEncode(Path, /*KeepColon=*/true);
  return URI;
}

namespace {

/// Turns SourceMgr locations into the artifacts and regions of a SarifLog.
class LocationConverter {
public:
  LocationConverter(const SourceMgr &SM, SarifLog &Log) : SM(SM), Log(Log) {}

  /// Returns the location of \p Loc with its \p Ranges, or std::nullopt
  /// when \p Loc is in no buffer of the SourceMgr.
  std::optional<SarifLocation> getLocation(SMLoc Loc,
                                           ArrayRef<SMRange> Ranges) {
    unsigned BufferID = Loc.isValid() ? SM.FindBufferContainingLoc(Loc) : 0;
    if (!BufferID)
      return std::nullopt;
    // The region is the range that starts at the caret (`^~~~`), if any,
    // else the character there; the other ranges are annotations.
    const SMRange *Primary = llvm::find_if(Ranges, [&](SMRange R) {
      return R.Start == Loc && getRegion(BufferID, R);
    });
    SarifRegion Region = Primary != Ranges.end()
                             ? *getRegion(BufferID, *Primary)
                             : getPointRegion(BufferID, Loc);
    SarifLocation Result =
        SarifLocation::create().setPhysical(getArtifact(BufferID), Region);
    for (const SMRange &R : Ranges)
      if (&R != Primary)
        if (std::optional<SarifRegion> RangeRegion = getRegion(BufferID, R))
          Result.addAnnotation(*RangeRegion);
    return Result;
  }

  /// Adds the fix-its \p FixIts to \p Fix; returns false if there are none
  /// with a location.
  bool addReplacements(SarifFix &Fix, ArrayRef<FixItHint> FixIts) {
    bool Added = false;
    for (const FixItHint &F : FixIts) {
      unsigned BufferID = SM.FindBufferContainingLoc(F.Range.Start);
      if (!BufferID)
        continue;
      std::optional<SarifRegion> Deleted = getRegion(BufferID, F.Range);
      if (!Deleted)
        continue;
      Fix.addReplacement(getArtifact(BufferID), *Deleted, F.Code);
      Added = true;
    }
    return Added;
  }

private:
  SarifArtifactLocation getArtifact(unsigned BufferID) {
    const MemoryBuffer *Buffer = SM.getMemoryBuffer(BufferID);
    StringRef Name = Buffer->getBufferIdentifier();
    std::string URI = Name.empty() ? formatv("<buffer-{0}>", BufferID).str()
                                   : getArtifactURI(Name);
    return Log.addArtifact(URI, Buffer->getBufferSize());
  }

  /// Returns the 1-based line and column of \p Loc, counting columns in
  /// code points: UTF-8 bytes that do not continue a sequence.
  std::pair<unsigned, unsigned> getLineColumn(unsigned BufferID, SMLoc Loc) {
    auto [Line, ByteColumn] = SM.getLineAndColumn(Loc, BufferID);
    StringRef Before(Loc.getPointer() - (ByteColumn - 1), ByteColumn - 1);
    unsigned Column = 1 + count_if(Before, [](char C) {
                        return (static_cast<unsigned char>(C) & 0xC0) != 0x80;
                      });
    return {Line, Column};
  }

  /// The character at \p Loc; empty at the end of a line or of the buffer.
  SarifRegion getPointRegion(unsigned BufferID, SMLoc Loc) {
    auto [Line, Column] = getLineColumn(BufferID, Loc);
    SarifRegion Region = SarifRegion::create(Line, Column);
    const char *End = SM.getMemoryBuffer(BufferID)->getBufferEnd();
    if (Loc.getPointer() != End && *Loc.getPointer() != '\n' &&
        *Loc.getPointer() != '\r')
      Region.setEnd(Line, Column + 1);
    return Region;
  }

  /// The half-open range \p R, or std::nullopt if it is not a range of
  /// buffer \p BufferID.
  std::optional<SarifRegion> getRegion(unsigned BufferID, SMRange R) {
    const MemoryBuffer *Buffer = SM.getMemoryBuffer(BufferID);
    const char *Begin = Buffer->getBufferStart();
    const char *End = Buffer->getBufferEnd();
    if (!R.isValid() || R.Start.getPointer() < Begin ||
        R.End.getPointer() > End || R.End.getPointer() < R.Start.getPointer())
      return std::nullopt;
    auto [StartLine, StartColumn] = getLineColumn(BufferID, R.Start);
    auto [EndLine, EndColumn] = getLineColumn(BufferID, R.End);
    return SarifRegion::create(StartLine, StartColumn)
        .setEnd(EndLine, EndColumn);
  }

  const SourceMgr &SM;
  SarifLog &Log;
};

} // namespace

void SarifDiagnosticPrinter::handleDiagnostic(const Diagnostic &D) {
  assert(!Finished && "diagnostic reported after finish()");
  Diagnostics.push_back(D);
}

void SarifDiagnosticPrinter::finish() {
  assert(!Finished && "finish() called twice");
  Finished = true;

  SarifLog Log("skc", ToolVersion);
  LocationConverter Converter(SM, Log);

  for (auto I = Diagnostics.begin(), E = Diagnostics.end(); I != E;) {
    const Diagnostic &D = *I++;
    std::optional<unsigned> RuleIndex = Log.findRule(D.getID());
    if (!RuleIndex) {
      const DiagnosticKindInfo &Info = getDiagnosticKindInfo(D.Kind);
      RuleIndex =
          Log.addRule(SarifRule::create(Info.ID)
                          .setName(getRuleName(Info.ID))
                          .setShortDescription(Info.Format)
                          .setDefaultLevel(toSarifLevel(Info.Severity)));
    }
    SarifResult Result = SarifResult::create(*RuleIndex)
                             .setLevel(toSarifLevel(D.Severity))
                             .setMessage(D.Message);
    if (std::optional<SarifLocation> Loc =
            Converter.getLocation(D.Loc, D.Ranges))
      Result.setLocation(*Loc);
    SarifFix Fix = SarifFix::create();
    if (Converter.addReplacements(Fix, D.FixIts))
      Result.addFix(Fix);

    // The notes that follow belong to this result: each is a related
    // location with its message, and its fix-its are an alternative fix.
    if (D.Severity != DiagSeverity::Note) {
      for (; I != E && I->Severity == DiagSeverity::Note; ++I) {
        std::optional<SarifLocation> Loc =
            Converter.getLocation(I->Loc, I->Ranges);
        Result.addRelatedLocation(
            (Loc ? *Loc : SarifLocation::create()).setMessage(I->Message));
        SarifFix NoteFix = SarifFix::create().setDescription(I->Message);
        if (Converter.addReplacements(NoteFix, I->FixIts))
          Result.addFix(NoteFix);
      }
    }
    Log.appendResult(Result);
  }

  OS << formatv("{0:2}", json::Value(Log.toJSON())) << '\n';
  OS.flush();
}

} // namespace skc
