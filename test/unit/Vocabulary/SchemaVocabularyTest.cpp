//===--- SchemaVocabularyTest.cpp - skc and the runtime agree -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc's `func:` parser (lib/Parse) and the runtime's (sk::OperatorSchema)
/// read every schema of PyTorch's files alike: the same names, arguments,
/// types and returns, and the same answer to "has a runtime C++ type"; and
/// both sides know the same dispatch keys by the same names.
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

void expectSameArguments(const std::string &Text,
                         const std::vector<sk::SchemaArgument> &Runtime,
                         llvm::ArrayRef<std::string> Names,
                         llvm::ArrayRef<const Type *> Types) {
  ASSERT_EQ(Runtime.size(), Types.size()) << Text;
  for (size_t I = 0; I != Types.size(); ++I) {
    EXPECT_EQ(Runtime[I].Name, Names[I]) << Text;
    EXPECT_EQ(Runtime[I].Type.Spelling, Types[I]->getAsString()) << Text;
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

    std::vector<std::string> ArgNames;
    std::vector<const Type *> ArgTypes;
    for (const Argument &A : Ours->Arguments) {
      ArgNames.push_back(A.Name);
      ArgTypes.push_back(A.Ty);
    }
    expectSameArguments(Text, Runtime.Arguments, ArgNames, ArgTypes);
    for (size_t I = 0; I != std::min(Runtime.Arguments.size(),
                                     Ours->Arguments.size());
         ++I) {
      EXPECT_EQ(Runtime.Arguments[I].IsKwargOnly,
                Ours->Arguments[I].IsKwargOnly)
          << Text;
      EXPECT_EQ(Runtime.Arguments[I].IsWrite, Ours->Arguments[I].isWrite())
          << Text;
    }
    std::vector<std::string> ReturnNames;
    std::vector<const Type *> ReturnTypes;
    for (const Return &R : Ours->Returns) {
      ReturnNames.push_back(R.Name);
      ReturnTypes.push_back(R.Ty);
    }
    expectSameArguments(Text, Runtime.Returns, ReturnNames, ReturnTypes);

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
