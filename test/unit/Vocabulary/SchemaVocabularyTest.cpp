//===--- SchemaVocabularyTest.cpp - skc and the runtime agree -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc and the runtime share one `func:` parser (sk/schema/SchemaSyntax.h)
/// and one rule of which types have C++ types (sk/schema/TypeShape.h).
/// Each builds its own form of a schema from the parser's tree: skc's
/// FunctionSchema (lib/Parse) and the runtime's sk::OperatorSchema. These
/// tests check that both read every schema of PyTorch's files alike (the
/// same names, arguments, types and returns), that skc prints a C++ type
/// for exactly the types the rule admits, and that both sides know the
/// same dispatch keys by the same names.
///
//===----------------------------------------------------------------------===//

#include "../../support/FuncStrings.h"
#include "../Parse/SchemaTestUtils.h"
#include "skc/Sema/DispatchKey.h"
#include "skc/Sema/KernelSignature.h"
#include "skc/Sema/OperatorModel.h"

#include "sk/core/DispatchKey.h"
#include "sk/dispatch/OperatorSchema.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace skc;

namespace {

/// Whether skc generates C++ for the schema: what getNativeSignature says.
bool hasCppTypes(const FunctionSchema &Schema) {
  SchemaEntry Entry;
  Entry.Schema = Schema;
  NativeFunction F;
  F.Entry = &Entry;
  return std::holds_alternative<KernelSignature>(getNativeSignature(F));
}

/// The runtime's arguments (or returns) are skc's: the same names, types
/// and written flags. \p Ours are skc's Arguments or Returns.
template <typename T>
void expectSameArguments(const std::string &Text,
                         const std::vector<sk::SchemaArgument> &Runtime,
                         llvm::ArrayRef<T> Ours) {
  ASSERT_EQ(Runtime.size(), Ours.size()) << Text;
  for (size_t I = 0; I != Ours.size(); ++I) {
    EXPECT_EQ(Runtime[I].Name, Ours[I].Name) << Text;
    EXPECT_EQ(Runtime[I].Type.Spelling, Ours[I].Ty->getAsString()) << Text;
    EXPECT_EQ(Runtime[I].IsWrite, Ours[I].isWrite()) << Text;
  }
}

class SchemaVocabularyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SchemaVocabularyTest, BothParsersReadEverySchemaAlike) {
  std::vector<std::string> Schemas = skc::testing::readFuncStrings(GetParam());
  if (Schemas.empty())
    GTEST_SKIP() << "no " << GetParam();
  size_t WithCppTypes = 0;
  skc::testing::SchemaParseHarness H;
  for (const std::string &Text : Schemas) {
    std::optional<FunctionSchema> Ours = H.parse(Text);
    ASSERT_TRUE(Ours) << Text << ": " << H.firstMessage();
    sk::OperatorSchema Runtime;
    try {
      Runtime = sk::OperatorSchema::parse(Text);
    } catch (const std::exception &E) {
      ADD_FAILURE() << E.what();
      continue;
    }
    EXPECT_EQ(Runtime.Name.Name, Ours->Name.Name) << Text;
    EXPECT_EQ(Runtime.Name.Overload, Ours->Name.Overload) << Text;

    expectSameArguments<Argument>(Text, Runtime.Arguments, Ours->Arguments);
    for (size_t I = 0; I != std::min(Runtime.Arguments.size(),
                                     Ours->Arguments.size());
         ++I)
      EXPECT_EQ(Runtime.Arguments[I].IsKwargOnly,
                Ours->Arguments[I].IsKwargOnly)
          << Text;
    expectSameArguments<Return>(Text, Runtime.Returns, Ours->Returns);

    bool Generated = hasCppTypes(*Ours);
    EXPECT_EQ(Runtime.hasCppTypes(), Generated) << Text;
    WithCppTypes += Generated;
  }
  std::cout << "[          ] " << Schemas.size() << " schemas, "
            << WithCppTypes << " with runtime C++ types\n";
}

std::string releaseName(const ::testing::TestParamInfo<std::string> &Info) {
  static const char *const Names[] = {"PyTorch1_13", "PyTorch2_5",
                                      "PyTorch2_15"};
  return Names[Info.index];
}

INSTANTIATE_TEST_SUITE_P(
    PyTorchReleases, SchemaVocabularyTest,
    ::testing::Values(SKC_PYTORCH_YAML_DIR "/native_functions.yaml",
                      SKC_SHARED_DIR "/data/pytorch-2.5/native_functions.yaml",
                      SKC_VENDORED_PYTORCH_DIR "/native_functions.yaml"),
    releaseName);

TEST(SchemaVocabularyTest, EveryRuntimeKeyOfASchemaKeyIsTheRuntimes) {
  DispatchKeyCatalogue Keys;
  for (llvm::StringRef Name : Keys.getNames()) {
    DispatchKey K = *Keys.lookup(Name);
    llvm::StringRef Runtime = getRuntimeKeyName(K);
    if (Runtime.empty())
      continue;
    std::optional<sk::DispatchKey> R = sk::parseDispatchKey(Runtime.str());
    ASSERT_TRUE(R) << Name.str() << " registers under " << Runtime.str()
                   << ", which the runtime does not have";
    EXPECT_EQ(sk::isAliasKey(*R), isAliasKey(K)) << Name.str();
  }
  for (DispatchKey K : getSelectableBackends()) {
    std::optional<sk::DispatchKey> R =
        sk::parseDispatchKey(getDispatchKeyName(K).str());
    ASSERT_TRUE(R) << getDispatchKeyName(K).str();
    EXPECT_TRUE(sk::isBackendKey(*R)) << getDispatchKeyName(K).str();
  }
}

} // namespace
