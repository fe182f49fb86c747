//===--- Sarif.h - SARIF 2.1.0 value types ----------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The few SARIF 2.1.0 objects skc writes, as value types built fluently, as
/// clang's clang/Basic/Sarif.h builds them: `create` takes what an object
/// cannot do without, each setter asserts its preconditions and returns the
/// object, and SarifLog hands out the rule and artifact indices that results
/// refer to, so a result can only name a rule the log has.
///
///   SarifLog Log("skc", "0.1.0");
///   unsigned Rule = Log.addRule(SarifRule::create("err_x").setName("X"));
///   SarifArtifactLocation File = Log.addArtifact("file:///a.yaml", 12);
///   Log.appendResult(SarifResult::create(Rule)
///                        .setLevel(SarifLevel::Error)
///                        .setMessage("unknown key 'y'")
///                        .setLocation(SarifLocation::create().setPhysical(
///                            File, SarifRegion::create(3, 1).setEnd(3, 2))));
///
/// Private to lib/Basic; SarifDiagnosticPrinter is its one user.
///
/// Reference: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
/// (section numbers below are that document's).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_BASIC_SARIF_H
#define SKC_LIB_BASIC_SARIF_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skc {

/// The `level` of a result or of a rule's default configuration (3.27.10).
/// SARIF's fourth level, `none`, is never written by skc.
enum class SarifLevel { Note, Warning, Error };

/// A `region` (3.30): 1-based lines and columns, the end column exclusive.
/// A region that is never given an end is empty: an insertion point.
class SarifRegion {
public:
  static SarifRegion create(unsigned StartLine, unsigned StartColumn) {
    assert(StartLine >= 1 && StartColumn >= 1 &&
           "SARIF lines and columns are 1-based");
    return SarifRegion(StartLine, StartColumn);
  }

  /// Ends the region just before column \p EndColumn of line \p EndLine.
  SarifRegion &setEnd(unsigned EndLine, unsigned EndColumn) {
    assert(EndColumn >= 1 && "SARIF columns are 1-based");
    assert((EndLine > StartLine ||
            (EndLine == StartLine && EndColumn >= StartColumn)) &&
           "a region cannot end before it starts");
    this->EndLine = EndLine;
    this->EndColumn = EndColumn;
    return *this;
  }

  unsigned getStartLine() const { return StartLine; }
  unsigned getStartColumn() const { return StartColumn; }
  unsigned getEndLine() const { return EndLine; }
  unsigned getEndColumn() const { return EndColumn; }

  llvm::json::Object toJSON() const;

private:
  SarifRegion(unsigned Line, unsigned Column)
      : StartLine(Line), StartColumn(Column), EndLine(Line), EndColumn(Column) {
  }

  unsigned StartLine;
  unsigned StartColumn;
  unsigned EndLine;
  unsigned EndColumn;
};

/// An `artifactLocation` (3.4): the URI of an artifact of the log and its
/// index in the run's `artifacts`. Only SarifLog::addArtifact makes one, so
/// the index is always valid.
class SarifArtifactLocation {
public:
  llvm::StringRef getURI() const { return URI; }
  unsigned getIndex() const { return Index; }

  llvm::json::Object toJSON() const;

private:
  friend class SarifLog;
  SarifArtifactLocation(llvm::StringRef URI, unsigned Index)
      : URI(URI.str()), Index(Index) {}

  std::string URI;
  unsigned Index;
};

/// A `location` (3.28): a region of an artifact (its `physicalLocation`),
/// a message, or both; and `annotations`, further regions of the same
/// artifact worth showing with it.
class SarifLocation {
public:
  static SarifLocation create() { return SarifLocation(); }

  SarifLocation &setPhysical(const SarifArtifactLocation &Artifact,
                             const SarifRegion &Region) {
    this->Artifact = Artifact;
    this->Region = Region;
    return *this;
  }

  SarifLocation &setMessage(llvm::StringRef Text) {
    assert(!Text.empty() && "a location's message needs text");
    Message = Text.str();
    return *this;
  }

  SarifLocation &addAnnotation(const SarifRegion &R) {
    assert(Artifact && "annotations are regions of the location's artifact; "
                       "set the physical location first");
    Annotations.push_back(R);
    return *this;
  }

  bool hasPhysical() const { return Artifact.has_value(); }

  llvm::json::Object toJSON() const;

private:
  SarifLocation() = default;

  std::optional<SarifArtifactLocation> Artifact;
  std::optional<SarifRegion> Region;
  std::string Message;
  llvm::SmallVector<SarifRegion, 2> Annotations;
};

/// A `fix` (3.55): replacements in one or more artifacts that, applied
/// together, resolve a result. A result's `fixes` are alternatives.
class SarifFix {
public:
  static SarifFix create() { return SarifFix(); }

  SarifFix &setDescription(llvm::StringRef Text) {
    assert(!Text.empty() && "a fix's description needs text");
    Description = Text.str();
    return *this;
  }

  /// Replaces \p Deleted, a region of \p Artifact, by \p Inserted.
  SarifFix &addReplacement(const SarifArtifactLocation &Artifact,
                           const SarifRegion &Deleted,
                           llvm::StringRef Inserted) {
    Replacements.push_back({Artifact, Deleted, Inserted.str()});
    return *this;
  }

  llvm::json::Object toJSON() const;

private:
  SarifFix() = default;

  struct Replacement {
    SarifArtifactLocation Artifact;
    SarifRegion Deleted;
    std::string Inserted;
  };
  std::string Description;
  std::vector<Replacement> Replacements;
};

/// A rule, SARIF's `reportingDescriptor` (3.49): one kind of result.
class SarifRule {
public:
  /// \p ID is the stable `id` that results name as their `ruleId`.
  static SarifRule create(llvm::StringRef ID) {
    assert(!ID.empty() && "a rule needs an id");
    return SarifRule(ID);
  }

  SarifRule &setName(llvm::StringRef Name) {
    this->Name = Name.str();
    return *this;
  }

  SarifRule &setShortDescription(llvm::StringRef Text) {
    ShortDescription = Text.str();
    return *this;
  }

  SarifRule &setDefaultLevel(SarifLevel Level) {
    DefaultLevel = Level;
    return *this;
  }

  llvm::StringRef getID() const { return ID; }

  llvm::json::Object toJSON() const;

private:
  explicit SarifRule(llvm::StringRef ID) : ID(ID.str()) {}

  std::string ID;
  std::string Name;
  std::string ShortDescription;
  std::optional<SarifLevel> DefaultLevel;
};

/// A `result` (3.27): one diagnostic, an instance of a rule of the log.
class SarifResult {
public:
  /// \p RuleIndex is what SarifLog::addRule returned.
  static SarifResult create(unsigned RuleIndex) {
    return SarifResult(RuleIndex);
  }

  SarifResult &setLevel(SarifLevel Level) {
    this->Level = Level;
    return *this;
  }

  SarifResult &setMessage(llvm::StringRef Text) {
    assert(!Text.empty() && "a result's message needs text");
    Message = Text.str();
    return *this;
  }

  SarifResult &setLocation(const SarifLocation &Loc) {
    assert(Loc.hasPhysical() &&
           "a result's location says where: give it a physical location");
    Location = Loc;
    return *this;
  }

  SarifResult &addRelatedLocation(const SarifLocation &Loc) {
    RelatedLocations.push_back(Loc);
    return *this;
  }

  SarifResult &addFix(const SarifFix &Fix) {
    Fixes.push_back(Fix);
    return *this;
  }

private:
  friend class SarifLog;
  explicit SarifResult(unsigned RuleIndex) : RuleIndex(RuleIndex) {}

  unsigned RuleIndex;
  std::optional<SarifLevel> Level;
  std::string Message;
  std::optional<SarifLocation> Location;
  std::vector<SarifLocation> RelatedLocations;
  std::vector<SarifFix> Fixes;
};

/// A SARIF log (3.13) with one run (3.14) of one tool: its rules, the
/// artifacts results refer to, and the results, each in the order added.
/// Columns are counted in Unicode code points (`columnKind`).
class SarifLog {
public:
  SarifLog(llvm::StringRef ToolName, llvm::StringRef ToolVersion)
      : ToolName(ToolName.str()), ToolVersion(ToolVersion.str()) {
    assert(!this->ToolName.empty() && "a tool needs a name");
  }

  SarifLog &setInformationURI(llvm::StringRef URI) {
    InformationURI = URI.str();
    return *this;
  }

  /// Adds \p Rule and returns its index.
  unsigned addRule(const SarifRule &Rule);

  /// Returns the index of the rule with \p ID, or std::nullopt.
  std::optional<unsigned> findRule(llvm::StringRef ID) const;

  /// Returns the location of the artifact \p URI, adding the artifact (with
  /// its \p Length in bytes) the first time.
  SarifArtifactLocation addArtifact(llvm::StringRef URI,
                                    std::optional<uint64_t> Length);

  void appendResult(const SarifResult &Result);

  /// The whole log: `$schema`, `version` and `runs`.
  llvm::json::Object toJSON() const;

private:
  std::string ToolName;
  std::string ToolVersion;
  std::string InformationURI;
  std::vector<SarifRule> Rules;
  llvm::StringMap<unsigned> RuleIndices;
  struct Artifact {
    std::string URI;
    std::optional<uint64_t> Length;
  };
  std::vector<Artifact> Artifacts;
  llvm::StringMap<unsigned> ArtifactIndices;
  std::vector<SarifResult> Results;
};

} // namespace skc

#endif // SKC_LIB_BASIC_SARIF_H
