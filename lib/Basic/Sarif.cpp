//===--- Sarif.cpp - SARIF 2.1.0 value types ------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Sarif.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace skc {

static StringRef getLevelName(SarifLevel Level) {
  switch (Level) {
  case SarifLevel::Note:
    return "note";
  case SarifLevel::Warning:
    return "warning";
  case SarifLevel::Error:
    return "error";
  }
  llvm_unreachable("covered switch");
}

static json::Object makeMessage(StringRef Text) {
  return json::Object{{"text", Text}};
}

json::Object SarifRegion::toJSON() const {
  return json::Object{{"startLine", StartLine},
                      {"startColumn", StartColumn},
                      {"endLine", EndLine},
                      {"endColumn", EndColumn}};
}

json::Object SarifArtifactLocation::toJSON() const {
  return json::Object{{"uri", URI}, {"index", Index}};
}

json::Object SarifLocation::toJSON() const {
  json::Object Loc;
  if (Artifact) {
    json::Object Physical{{"artifactLocation", Artifact->toJSON()}};
    if (Region)
      Physical["region"] = Region->toJSON();
    Loc["physicalLocation"] = std::move(Physical);
  }
  if (!Message.empty())
    Loc["message"] = makeMessage(Message);
  if (!Annotations.empty()) {
    json::Array Regions;
    for (const SarifRegion &R : Annotations)
      Regions.push_back(R.toJSON());
    Loc["annotations"] = std::move(Regions);
  }
  return Loc;
}

json::Object SarifFix::toJSON() const {
  assert(!Replacements.empty() && "a fix changes at least one artifact");
  // One artifactChange per artifact, in the order the artifacts first occur.
  json::Array Changes;
  SmallVector<unsigned, 2> ChangeArtifacts;
  for (const Replacement &R : Replacements) {
    json::Object Replace{
        {"deletedRegion", R.Deleted.toJSON()},
        {"insertedContent", json::Object{{"text", R.Inserted}}}};
    auto It = llvm::find(ChangeArtifacts, R.Artifact.getIndex());
    if (It != ChangeArtifacts.end()) {
      json::Object *Change =
          Changes[It - ChangeArtifacts.begin()].getAsObject();
      Change->getArray("replacements")->push_back(std::move(Replace));
      continue;
    }
    ChangeArtifacts.push_back(R.Artifact.getIndex());
    Changes.push_back(
        json::Object{{"artifactLocation", R.Artifact.toJSON()},
                     {"replacements", json::Array{std::move(Replace)}}});
  }
  json::Object Fix{{"artifactChanges", std::move(Changes)}};
  if (!Description.empty())
    Fix["description"] = makeMessage(Description);
  return Fix;
}

json::Object SarifRule::toJSON() const {
  json::Object Rule{{"id", ID}};
  if (!Name.empty())
    Rule["name"] = Name;
  if (!ShortDescription.empty())
    Rule["shortDescription"] = makeMessage(ShortDescription);
  if (DefaultLevel)
    Rule["defaultConfiguration"] =
        json::Object{{"level", getLevelName(*DefaultLevel)}};
  return Rule;
}

unsigned SarifLog::addRule(const SarifRule &Rule) {
  unsigned Index = Rules.size();
  bool Inserted = RuleIndices.try_emplace(Rule.getID(), Index).second;
  assert(Inserted && "a rule id must be unique within a run");
  (void)Inserted;
  Rules.push_back(Rule);
  return Index;
}

std::optional<unsigned> SarifLog::findRule(StringRef ID) const {
  auto It = RuleIndices.find(ID);
  if (It == RuleIndices.end())
    return std::nullopt;
  return It->second;
}

SarifArtifactLocation SarifLog::addArtifact(StringRef URI,
                                            std::optional<uint64_t> Length) {
  assert(!URI.empty() && "an artifact needs a URI");
  auto [It, Inserted] = ArtifactIndices.try_emplace(URI, Artifacts.size());
  if (Inserted)
    Artifacts.push_back({URI.str(), Length});
  return SarifArtifactLocation(URI, It->second);
}

void SarifLog::appendResult(const SarifResult &Result) {
  assert(Result.RuleIndex < Rules.size() &&
         "a result must name a rule of the log; add the rule first");
  assert(!Result.Message.empty() && "a result needs a message");
  Results.push_back(Result);
}

json::Object SarifLog::toJSON() const {
  json::Object Driver{{"name", ToolName}};
  if (!ToolVersion.empty())
    Driver["version"] = ToolVersion;
  if (!InformationURI.empty())
    Driver["informationUri"] = InformationURI;
  json::Array RulesJSON;
  for (const SarifRule &R : Rules)
    RulesJSON.push_back(R.toJSON());
  Driver["rules"] = std::move(RulesJSON);

  json::Array ArtifactsJSON;
  for (const Artifact &A : Artifacts) {
    json::Object Artifact{{"location", json::Object{{"uri", A.URI}}}};
    if (A.Length)
      Artifact["length"] = *A.Length;
    ArtifactsJSON.push_back(std::move(Artifact));
  }

  json::Array ResultsJSON;
  for (const SarifResult &R : Results) {
    json::Object Result{{"ruleId", Rules[R.RuleIndex].getID()},
                        {"ruleIndex", R.RuleIndex},
                        {"message", makeMessage(R.Message)}};
    if (R.Level)
      Result["level"] = getLevelName(*R.Level);
    if (R.Location)
      Result["locations"] = json::Array{R.Location->toJSON()};
    if (!R.RelatedLocations.empty()) {
      json::Array Related;
      for (const SarifLocation &L : R.RelatedLocations)
        Related.push_back(L.toJSON());
      Result["relatedLocations"] = std::move(Related);
    }
    if (!R.Fixes.empty()) {
      json::Array Fixes;
      for (const SarifFix &F : R.Fixes)
        Fixes.push_back(F.toJSON());
      Result["fixes"] = std::move(Fixes);
    }
    ResultsJSON.push_back(std::move(Result));
  }

  json::Object Run{
      {"tool", json::Object{{"driver", std::move(Driver)}}},
      {"artifacts", std::move(ArtifactsJSON)},
      {"results", std::move(ResultsJSON)},
      // Columns count characters (code points), not bytes; a file with only
      // ASCII has the same columns in every columnKind.
      {"columnKind", "unicodeCodePoints"},
  };
  return json::Object{
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/"
                  "sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}},
  };
}

} // namespace skc
