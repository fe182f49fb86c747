//===--- OperatorModelTest.cpp - The op model over real and small files ---===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/OperatorModel.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Parse/SchemaFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

/// Loads a schema file (and optionally a tags file) and builds its model.
class ModelHarness {
public:
  ModelHarness() : Diags(SM, Stored) {}

  void loadFile(StringRef Path, StringRef TagsPath = "") {
    auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
    ASSERT_TRUE(bool(Buffer)) << "cannot read " << Path.str();
    unsigned ID = SM.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
    if (!TagsPath.empty()) {
      auto TagsBuffer = MemoryBuffer::getFile(TagsPath, /*IsText=*/true);
      ASSERT_TRUE(bool(TagsBuffer));
      Tags = parseTagsFile(
          SM.AddNewSourceBuffer(std::move(*TagsBuffer), SMLoc()), Diags);
    }
    build(ID);
  }
  void loadText(StringRef Text) {
    build(SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, "t.yaml"),
                                SMLoc()));
  }
  std::vector<std::string> ids() const {
    std::vector<std::string> Result;
    for (const Diagnostic &D : Stored.Diagnostics)
      Result.push_back(D.getID().str());
    return Result;
  }

  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags;
  TypeContext Types;
  std::optional<TagsFile> Tags;
  OperatorModel Model;

private:
  void build(unsigned ID) {
    Model = buildOperatorModel(parseSchemaFile(ID, Types, Diags),
                               Tags ? &*Tags : nullptr, Diags);
  }
};

class PyTorchNativeFunctionsTest : public ::testing::Test {
protected:
  static constexpr const char *Path =
      SKC_PYTORCH_YAML_DIR "/native_functions.yaml";
  static void SetUpTestSuite() {
    H = new ModelHarness;
    if (llvm::sys::fs::exists(Path))
      H->loadFile(Path, SKC_PYTORCH_YAML_DIR "/tags.yaml");
  }
  void SetUp() override {
    if (!llvm::sys::fs::exists(Path))
      GTEST_SKIP() << "no " << Path << " (the shared/ folder)";
  }
  static void TearDownTestSuite() {
    delete H;
    H = nullptr;
  }
  static ModelHarness *H;
};

ModelHarness *PyTorchNativeFunctionsTest::H = nullptr;

TEST_F(PyTorchNativeFunctionsTest, EveryEntryIsAcceptedWithoutDiagnostics) {
  EXPECT_EQ(H->Stored.Diagnostics.size(), 0u);
  EXPECT_EQ(H->Model.getFunctions().size(), 2493u);
}

TEST_F(PyTorchNativeFunctionsTest, EverySchemaRoundTrips) {
  unsigned Checked = 0;
  for (const auto &F : H->Model.getFunctions()) {
    EXPECT_EQ(F->getSchema().getAsString(), F->Entry->Func.Value);
    ++Checked;
  }
  EXPECT_EQ(Checked, 2493u);
}

TEST_F(PyTorchNativeFunctionsTest, StructuredOutsAndDelegatesResolve) {
  unsigned StructuredOut = 0, Delegates = 0;
  for (const auto &F : H->Model.getFunctions()) {
    if (F->Structured) {
      ++StructuredOut;
      EXPECT_EQ(F->Kind, SchemaKind::Out) << F->getName();
      ASSERT_NE(F->Group, nullptr) << F->getName();
      EXPECT_EQ(F->Group->Out, F.get());
    }
    if (!F->Entry->StructuredDelegate)
      continue;
    ++Delegates;
    ASSERT_NE(F->StructuredDelegate, nullptr) << F->getName();
    EXPECT_TRUE(F->StructuredDelegate->Structured) << F->getName();
    EXPECT_EQ(F->StructuredDelegate->getName(),
              F->Entry->StructuredDelegate->Value);
    ASSERT_NE(F->Group, nullptr) << F->getName();
    EXPECT_EQ(F->Group->Out, F->StructuredDelegate) << F->getName();
  }
  EXPECT_EQ(StructuredOut, 270u);
  EXPECT_EQ(Delegates, 380u);
}

TEST_F(PyTorchNativeFunctionsTest, AddGroupIsModelledLikeTorchgen) {
  const NativeFunction *Out = H->Model.lookup("add.out");
  ASSERT_NE(Out, nullptr);
  ASSERT_NE(Out->Group, nullptr);
  const NativeFunctionsGroup &G = *Out->Group;
  EXPECT_TRUE(G.isStructured());
  EXPECT_EQ(G.Functional->getName(), "add.Tensor");
  ASSERT_NE(G.Inplace, nullptr);
  EXPECT_EQ(G.Inplace->getName(), "add_.Tensor");
  EXPECT_EQ(G.getMetaName(), "add_Tensor");
  EXPECT_EQ(Out->StructuredInherits, "TensorIteratorBase");
  EXPECT_FALSE(Out->DeviceCheck);
  const BackendKernel *Sparse = Out->findKernel(DispatchKey::SparseCPU);
  ASSERT_NE(Sparse, nullptr);
  EXPECT_EQ(Sparse->Kernel, "add_out_sparse_cpu");
  EXPECT_FALSE(Sparse->Structured);
}

TEST_F(PyTorchNativeFunctionsTest, PrecomputedIsParsed) {
  const NativeFunction *Cat = H->Model.lookup("cat.out");
  ASSERT_NE(Cat, nullptr);
  ASSERT_EQ(Cat->Precomputed.size(), 1u);
  EXPECT_EQ(Cat->Precomputed[0].Replaces, "dim");
  ASSERT_EQ(Cat->Precomputed[0].Fields.size(), 6u);
  EXPECT_EQ(Cat->Precomputed[0].Fields[5].Name, "memory_format");
  EXPECT_EQ(Cat->Precomputed[0].Fields[5].Ty, BaseTypeKind::MemoryFormat);
}

TEST_F(PyTorchNativeFunctionsTest, ImplicitCompositeKernels) {
  // No dispatch table: CompositeImplicitAutograd under the default name.
  const NativeFunction *F = H->Model.lookup("flatten.using_ints");
  ASSERT_NE(F, nullptr);
  const BackendKernel *K =
      F->findKernel(DispatchKey::CompositeImplicitAutograd);
  ASSERT_NE(K, nullptr);
  EXPECT_TRUE(K->Implicit);
  EXPECT_EQ(K->Kernel, "flatten");
}

TEST(OperatorModelTest, DelegateToMissingOpSuggestsTheClosest) {
  ModelHarness H;
  H.loadText(
      "- func: neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  structured: True\n"
      "  dispatch:\n"
      "    CPU: neg_out\n"
      "- func: neg(Tensor self) -> Tensor\n"
      "  structured_delegate: neg.ot\n");
  EXPECT_EQ(H.ids(), std::vector<std::string>{
                         "err_structured_delegate_unknown_suggest"});
}

TEST(OperatorModelTest, DelegateToUnstructuredOpHasANote) {
  ModelHarness H;
  H.loadText(
      "- func: neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  dispatch:\n"
      "    CPU: neg_out\n"
      "- func: neg(Tensor self) -> Tensor\n"
      "  structured_delegate: neg.out\n");
  EXPECT_EQ(H.ids(),
            (std::vector<std::string>{"err_structured_delegate_not_structured",
                                      "note_operator_declared_here"}));
}

TEST(OperatorModelTest, GroupsFormByKind) {
  ModelHarness H;
  H.loadText(
      "- func: neg(Tensor self) -> Tensor\n"
      "  structured_delegate: neg.out\n"
      "- func: neg_(Tensor(a!) self) -> Tensor(a!)\n"
      "  structured_delegate: neg.out\n"
      "- func: neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  structured: True\n"
      "  dispatch:\n"
      "    CPU, CUDA: neg_out\n");
  EXPECT_TRUE(H.ids().empty());
  ASSERT_EQ(H.Model.getGroups().size(), 1u);
  const NativeFunctionsGroup &G = H.Model.getGroups().front();
  EXPECT_EQ(G.Functional->getName(), "neg");
  EXPECT_EQ(G.Inplace->getName(), "neg_");
  EXPECT_EQ(G.Out->getName(), "neg.out");
  EXPECT_TRUE(G.Out->findKernel(DispatchKey::CUDA)->Structured);
}

} // namespace
