//===--- SarifDiagnosticPrinterTest.cpp - Tests of the SARIF output -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each test reports diagnostics through a DiagnosticsEngine into a
// SarifDiagnosticPrinter, parses what it wrote with llvm::json, and checks
// the fields, as clang's unittests/Basic/SarifTest.cpp does.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/SarifDiagnosticPrinter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

class SarifDiagnosticPrinterTest : public ::testing::Test {
protected:
  /// Adds a buffer named \p Name holding \p Text; returns its ID.
  unsigned addBuffer(StringRef Text, StringRef Name) {
    return SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, Name),
                                 SMLoc());
  }

  /// The location of 1-based \p Line and byte \p Column of buffer \p ID.
  SMLoc at(unsigned ID, unsigned Line, unsigned Column) {
    SMLoc Loc = SM.FindLocForLineAndColumn(ID, Line, Column);
    EXPECT_TRUE(Loc.isValid());
    return Loc;
  }

  /// Runs \p Report against a printer and returns the parsed log.
  json::Value print(function_ref<void(DiagnosticsEngine &)> Report) {
    std::string Out;
    raw_string_ostream OS(Out);
    SarifDiagnosticPrinter Printer(OS, SM, "1.2.3");
    DiagnosticsEngine Diags(SM, Printer);
    Report(Diags);
    Diags.finish();
    Text = Out;
    Expected<json::Value> Log = json::parse(Out);
    if (!Log) {
      ADD_FAILURE() << toString(Log.takeError()) << "\n" << Out;
      return nullptr;
    }
    return std::move(*Log);
  }

  /// The one run of \p Log.
  static const json::Object &getRun(const json::Value &Log) {
    static const json::Object Empty;
    const json::Object *Doc = Log.getAsObject();
    if (!Doc || !Doc->getArray("runs") || Doc->getArray("runs")->size() != 1) {
      ADD_FAILURE() << "no single run";
      return Empty;
    }
    return *Doc->getArray("runs")->front().getAsObject();
  }

  static const json::Array &getArray(const json::Object &O, StringRef Key) {
    static const json::Array Empty;
    const json::Array *A = O.getArray(Key);
    if (!A) {
      ADD_FAILURE() << "no array '" << Key.str() << "'";
      return Empty;
    }
    return *A;
  }

  static const json::Object &getObject(const json::Value &V) {
    static const json::Object Empty;
    const json::Object *O = V.getAsObject();
    if (!O) {
      ADD_FAILURE() << "not an object";
      return Empty;
    }
    return *O;
  }

  /// The value at \p Path (keys and array indices separated by '.') of \p V,
  /// or nullptr.
  static const json::Value *get(const json::Value &V, StringRef Path) {
    const json::Value *Cur = &V;
    SmallVector<StringRef, 8> Keys;
    Path.split(Keys, '.');
    for (StringRef Key : Keys) {
      unsigned Index;
      if (const json::Array *A = Cur->getAsArray();
          A && !Key.getAsInteger(10, Index)) {
        if (Index >= A->size())
          return nullptr;
        Cur = &(*A)[Index];
        continue;
      }
      const json::Object *O = Cur->getAsObject();
      if (!O || !(Cur = O->get(Key)))
        return nullptr;
    }
    return Cur;
  }

  static std::optional<StringRef> getString(const json::Value &V,
                                            StringRef Path) {
    const json::Value *Found = get(V, Path);
    return Found ? Found->getAsString() : std::nullopt;
  }

  static std::optional<int64_t> getInteger(const json::Value &V,
                                           StringRef Path) {
    const json::Value *Found = get(V, Path);
    return Found ? Found->getAsInteger() : std::nullopt;
  }

  /// Expects the region at \p Path of \p V to be the one given.
  static void expectRegion(const json::Value &V, StringRef Path,
                           int64_t StartLine, int64_t StartColumn,
                           int64_t EndLine, int64_t EndColumn) {
    SCOPED_TRACE(Path.str());
    EXPECT_EQ(getInteger(V, (Path + ".startLine").str()), StartLine);
    EXPECT_EQ(getInteger(V, (Path + ".startColumn").str()), StartColumn);
    EXPECT_EQ(getInteger(V, (Path + ".endLine").str()), EndLine);
    EXPECT_EQ(getInteger(V, (Path + ".endColumn").str()), EndColumn);
  }

  SourceMgr SM;
  /// What the last print() wrote.
  std::string Text;
};

TEST_F(SarifDiagnosticPrinterTest, NoDiagnostics_LogHasOneEmptyRun) {
  json::Value Log = print([](DiagnosticsEngine &) {});
  const json::Object &Doc = getObject(Log);
  std::vector<std::string> Keys;
  for (const auto &KV : Doc)
    Keys.push_back(KV.first.str());
  EXPECT_THAT(Keys,
              ::testing::UnorderedElementsAre("$schema", "version", "runs"));
  EXPECT_EQ(Doc.getString("version"), "2.1.0");
  EXPECT_THAT(Doc.getString("$schema").value_or("").str(),
              ::testing::HasSubstr("sarif-schema-2.1.0.json"));

  const json::Object &Run = getRun(Log);
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.name"), "skc");
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.version"), "1.2.3");
  EXPECT_EQ(Run.getString("columnKind"), "unicodeCodePoints");
  EXPECT_TRUE(getArray(Run, "results").empty());
  EXPECT_TRUE(getArray(Run, "artifacts").empty());
  EXPECT_TRUE(
      getArray(*Run.getObject("tool")->getObject("driver"), "rules").empty());
}

TEST_F(SarifDiagnosticPrinterTest, Output_IsPrettyPrintedWithTwoSpaces) {
  print([](DiagnosticsEngine &) {});
  EXPECT_THAT(Text, ::testing::StartsWith("{\n  \"$schema\": "));
  EXPECT_THAT(Text, ::testing::HasSubstr("\n  \"runs\": [\n    {\n"));
  EXPECT_THAT(Text, ::testing::EndsWith("}\n"));
}

TEST_F(SarifDiagnosticPrinterTest, Error_IsResultWithRuleArtifactAndRegion) {
  unsigned ID = addBuffer("- func: foo(Tensor self) -> Tensor\n"
                          "- func: bar(Tensr self) -> Tensor\n",
                          "mem/ops.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    SMLoc Loc = at(ID, 2, 13);
    Diags.report(Loc, diag::err_schema_unknown_type_suggest)
        << "Tensr"
        << "Tensor" << SMRange(Loc, at(ID, 2, 18));
  });

  // The rule: the catalogue entry.
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.rules.0.id"),
            "err_schema_unknown_type_suggest");
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.rules.0.name"),
            "SchemaUnknownTypeSuggest");
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.rules.0.shortDescription.text"),
            "unknown type '%0'; did you mean '%1'?");
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.rules.0.defaultConfiguration."
                           "level"),
            "error");

  // The artifact: not a file, so its name.
  const json::Object &Run = getRun(Log);
  ASSERT_EQ(getArray(Run, "artifacts").size(), 1u);
  EXPECT_EQ(getString(Log, "runs.0.artifacts.0.location.uri"), "mem/ops.yaml");
  EXPECT_EQ(getInteger(Log, "runs.0.artifacts.0.length"), 69);

  // The result.
  ASSERT_EQ(getArray(Run, "results").size(), 1u);
  const json::Value &Result = getArray(Run, "results")[0];
  EXPECT_EQ(getString(Result, "ruleId"), "err_schema_unknown_type_suggest");
  EXPECT_EQ(getInteger(Result, "ruleIndex"), 0);
  EXPECT_EQ(getString(Result, "level"), "error");
  EXPECT_EQ(getString(Result, "message.text"),
            "unknown type 'Tensr'; did you mean 'Tensor'?");
  ASSERT_EQ(getArray(getObject(Result), "locations").size(), 1u);
  EXPECT_EQ(
      getString(Result, "locations.0.physicalLocation.artifactLocation.uri"),
      "mem/ops.yaml");
  EXPECT_EQ(
      getInteger(Result, "locations.0.physicalLocation.artifactLocation.index"),
      0);
  // The range that starts at the caret is the region: 'Tensr'.
  expectRegion(Result, "locations.0.physicalLocation.region", 2, 13, 2, 18);
  EXPECT_EQ(get(Result, "locations.0.annotations"), nullptr);
  EXPECT_EQ(get(Result, "relatedLocations"), nullptr);
  EXPECT_EQ(get(Result, "fixes"), nullptr);
}

TEST_F(SarifDiagnosticPrinterTest, CaretWithoutRange_IsOneCharacter) {
  unsigned ID = addBuffer("- variants: function\n", "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(at(ID, 1, 3), diag::err_yaml_missing_func);
  });
  expectRegion(Log, "runs.0.results.0.locations.0.physicalLocation.region", 1,
               3, 1, 4);
}

TEST_F(SarifDiagnosticPrinterTest, RangeAwayFromCaret_IsAnnotation) {
  unsigned ID = addBuffer("- func: foo(Tensor self) -> Tensor\n"
                          "  structured: yes please\n",
                          "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(at(ID, 2, 15), diag::err_yaml_value_type)
        << "structured" << 0 << SMRange(at(ID, 2, 3), at(ID, 2, 13));
  });
  const json::Value *Result = get(Log, "runs.0.results.0");
  ASSERT_NE(Result, nullptr);
  expectRegion(*Result, "locations.0.physicalLocation.region", 2, 15, 2, 16);
  expectRegion(*Result, "locations.0.annotations.0", 2, 3, 2, 13);
}

TEST_F(SarifDiagnosticPrinterTest, NotesFollowingAnError_AreRelatedLocations) {
  unsigned ID = addBuffer("- func: foo(Tensor self) -> Tensor\n"
                          "  variants: function\n"
                          "  variants: method\n",
                          "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(at(ID, 3, 3), diag::err_yaml_duplicate_key)
        << "variants" << SMRange(at(ID, 3, 3), at(ID, 3, 11));
    Diags.report(at(ID, 2, 3), diag::note_previous_key) << "variants";
    Diags.report(SMLoc(), diag::note_previous_key) << "nowhere";
  });
  const json::Object &Run = getRun(Log);
  ASSERT_EQ(getArray(Run, "results").size(), 1u);
  const json::Value &Result = getArray(Run, "results")[0];
  EXPECT_EQ(getString(Result, "ruleId"), "err_yaml_duplicate_key");
  ASSERT_EQ(getArray(getObject(Result), "relatedLocations").size(), 2u);
  EXPECT_EQ(getString(Result, "relatedLocations.0.message.text"),
            "previous occurrence of 'variants' is here");
  expectRegion(Result, "relatedLocations.0.physicalLocation.region", 2, 3, 2,
               4);
  EXPECT_EQ(getInteger(Result, "relatedLocations.0.physicalLocation."
                               "artifactLocation.index"),
            0);
  // A note without a location is a message only.
  EXPECT_EQ(getString(Result, "relatedLocations.1.message.text"),
            "previous occurrence of 'nowhere' is here");
  EXPECT_EQ(get(Result, "relatedLocations.1.physicalLocation"), nullptr);
  // Rules are made for results only.
  EXPECT_EQ(
      getArray(*Run.getObject("tool")->getObject("driver"), "rules").size(),
      1u);
}

TEST_F(SarifDiagnosticPrinterTest, NoteWithoutError_IsAResultOfItsOwn) {
  unsigned ID = addBuffer("- func: foo(Tensor self) -> Tensor\n", "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(at(ID, 1, 9), diag::note_operator_declared_here) << "foo";
  });
  EXPECT_EQ(getString(Log, "runs.0.results.0.ruleId"),
            "note_operator_declared_here");
  EXPECT_EQ(getString(Log, "runs.0.results.0.level"), "note");
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.rules.0.defaultConfiguration."
                           "level"),
            "note");
}

TEST_F(SarifDiagnosticPrinterTest, Rules_OnePerIDInOrderOfFirstUse) {
  unsigned ID = addBuffer("- a: 1\n- b: 2\n- c: 3\n", "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(at(ID, 1, 3), diag::err_yaml_missing_func);
    Diags.report(at(ID, 2, 3), diag::err_yaml_unknown_key) << "b";
    Diags.report(at(ID, 3, 3), diag::err_yaml_missing_func);
  });
  const json::Object &Run = getRun(Log);
  const json::Array &Rules =
      getArray(*Run.getObject("tool")->getObject("driver"), "rules");
  ASSERT_EQ(Rules.size(), 2u);
  EXPECT_EQ(getString(Rules[0], "id"), "err_yaml_missing_func");
  EXPECT_EQ(getString(Rules[1], "id"), "err_yaml_unknown_key");
  const json::Array &Results = getArray(Run, "results");
  ASSERT_EQ(Results.size(), 3u);
  EXPECT_EQ(getInteger(Results[0], "ruleIndex"), 0);
  EXPECT_EQ(getInteger(Results[1], "ruleIndex"), 1);
  EXPECT_EQ(getInteger(Results[2], "ruleIndex"), 0);
  EXPECT_EQ(getString(Results[2], "ruleId"), "err_yaml_missing_func");
  // One artifact, however often it is referred to.
  EXPECT_EQ(getArray(Run, "artifacts").size(), 1u);
}

TEST_F(SarifDiagnosticPrinterTest, FixIt_IsFixWithReplacement) {
  unsigned ID = addBuffer("- func: bar(Tensr self) -> Tensor\n", "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    SMRange R(at(ID, 1, 13), at(ID, 1, 18));
    Diags.report(R.Start, diag::err_schema_unknown_type_suggest)
        << "Tensr"
        << "Tensor" << R << FixItHint::replace(R, "Tensor");
  });
  const json::Value *Fix = get(Log, "runs.0.results.0.fixes.0");
  ASSERT_NE(Fix, nullptr);
  EXPECT_EQ(getString(*Fix, "artifactChanges.0.artifactLocation.uri"),
            "a.yaml");
  EXPECT_EQ(getInteger(*Fix, "artifactChanges.0.artifactLocation.index"), 0);
  expectRegion(*Fix, "artifactChanges.0.replacements.0.deletedRegion", 1, 13, 1,
               18);
  EXPECT_EQ(getString(*Fix, "artifactChanges.0.replacements.0.insertedContent."
                            "text"),
            "Tensor");
  EXPECT_EQ(get(Log, "runs.0.results.0.fixes.1"), nullptr);
}

TEST_F(SarifDiagnosticPrinterTest, NoLocation_ResultHasNoLocations) {
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(SMLoc(), diag::err_yaml_missing_func);
  });
  EXPECT_EQ(getString(Log, "runs.0.results.0.ruleId"), "err_yaml_missing_func");
  EXPECT_EQ(get(Log, "runs.0.results.0.locations"), nullptr);
  EXPECT_TRUE(getArray(getRun(Log), "artifacts").empty());
}

TEST_F(SarifDiagnosticPrinterTest, Columns_CountCharactersNotBytes) {
  // 'é' is two bytes in UTF-8, one character.
  unsigned ID =
      addBuffer("- func: f(str s='é', Tensr x) -> Tensor\n", "u.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    SMRange R(at(ID, 1, 23), at(ID, 1, 28)); // 'Tensr', by bytes
    Diags.report(R.Start, diag::err_schema_unknown_type_suggest)
        << "Tensr"
        << "Tensor" << R;
  });
  expectRegion(Log, "runs.0.results.0.locations.0.physicalLocation.region", 1,
               22, 1, 27);
}

TEST_F(SarifDiagnosticPrinterTest, WarningAsError_ResultLevelIsError) {
  unsigned ID = addBuffer("- func: foo(Tensor  self) -> Tensor\n", "a.yaml");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.setWarningsAsErrors(true);
    Diags.report(at(ID, 1, 9), diag::warn_schema_not_canonical)
        << "foo(Tensor self) -> Tensor";
  });
  EXPECT_EQ(getString(Log, "runs.0.results.0.level"), "error");
  EXPECT_EQ(getString(Log, "runs.0.tool.driver.rules.0.defaultConfiguration."
                           "level"),
            "warning");
}

TEST_F(SarifDiagnosticPrinterTest, FileBuffer_HasFileURIOfAbsolutePath) {
  SmallString<128> Path;
  ASSERT_FALSE(sys::fs::createTemporaryFile("sarif test", "yaml", Path));
  FileRemover Remover(Path);
  {
    std::error_code EC;
    raw_fd_ostream File(Path, EC);
    ASSERT_FALSE(EC);
    File << "- a: 1\n";
  }
  unsigned ID = addBuffer("- a: 1\n", Path);
  unsigned Stdin = addBuffer("- b: 2\n", "<stdin>");
  json::Value Log = print([&](DiagnosticsEngine &Diags) {
    Diags.report(at(ID, 1, 3), diag::err_yaml_missing_func);
    Diags.report(at(Stdin, 1, 3), diag::err_yaml_missing_func);
  });
  std::string URI =
      getString(Log, "runs.0.artifacts.0.location.uri").value_or("").str();
  EXPECT_THAT(URI, ::testing::StartsWith("file:///"));
  // The space is percent-encoded.
  EXPECT_THAT(URI, ::testing::HasSubstr("sarif%20test"));
  EXPECT_THAT(URI, ::testing::EndsWith(".yaml"));
  EXPECT_EQ(getString(Log, "runs.0.results.0.locations.0.physicalLocation."
                           "artifactLocation.uri"),
            URI);
  EXPECT_EQ(getString(Log, "runs.0.artifacts.1.location.uri"), "%3Cstdin%3E");
  EXPECT_EQ(getInteger(Log, "runs.0.results.1.locations.0.physicalLocation."
                            "artifactLocation.index"),
            1);
}

} // namespace
