//===--- KernelFactsTest.cpp - The facts file and the library's checks ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Driver/KernelFacts.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/KernelChecks.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

KernelDecl makeDecl(KernelDeclKind Kind, StringRef Name, bool CUDA,
                    std::vector<std::string> Dtypes = {}) {
  KernelDecl D;
  D.Kind = Kind;
  D.Name = Name.str();
  D.InCUDASource = CUDA;
  D.Macro = Kind == KernelDeclKind::Native ? "native" : "impl";
  D.Dtypes = std::move(Dtypes);
  return D;
}

ProvidedKernel makeProvided(KernelDeclKind Kind, StringRef Name,
                            DispatchKey Backend, StringRef File, unsigned Line,
                            unsigned Unit, StringRef Function = "") {
  ProvidedKernel P;
  P.Kind = Kind;
  P.Name = Name.str();
  P.Function = Function.str();
  P.Backend = Backend;
  P.File = File.str();
  P.Line = Line;
  P.Column = 14;
  P.Unit = Unit;
  return P;
}

TEST(KernelFactsTest, RoundTrip_KeepsWhatTheMergeNeeds) {
  KernelFacts Facts;
  Facts.Sources = {"kernels/Neg.cu"};
  Facts.Decls.push_back(makeDecl(KernelDeclKind::Impl, "structured_neg_out",
                                 /*CUDA=*/true, {"Float", "Double"}));
  Facts.Decls.push_back(
      makeDecl(KernelDeclKind::Native, "relu_cuda", /*CUDA=*/true));
  Facts.Decls.back().setInvalid(KernelDecl::IR_ClangReported);
  Facts.Provided.push_back(makeProvided(
      KernelDeclKind::Impl, "neg_out", DispatchKey::CUDA, "/src/Neg.cu", 3, 0));
  Facts.Provided.push_back(makeProvided(KernelDeclKind::Native, "relu_cuda",
                                        DispatchKey::CUDA, "/src/Neg.cu", 9, 0,
                                        "relu"));

  std::string Text = writeKernelFacts(Facts);
  // The same facts, the same bytes.
  EXPECT_EQ(Text, writeKernelFacts(Facts));
  Expected<KernelFacts> Read = readKernelFacts(Text, "Neg.cu.facts", 7);
  ASSERT_TRUE(bool(Read)) << toString(Read.takeError());
  EXPECT_EQ(Read->Sources, Facts.Sources);
  ASSERT_EQ(Read->Decls.size(), 2u);
  EXPECT_EQ(Read->Decls[0].Kind, KernelDeclKind::Impl);
  EXPECT_EQ(Read->Decls[0].Name, "structured_neg_out");
  EXPECT_TRUE(Read->Decls[0].InCUDASource);
  EXPECT_EQ(Read->Decls[0].Dtypes,
            (std::vector<std::string>{"Float", "Double"}));
  EXPECT_FALSE(Read->Decls[0].IsInvalid);
  EXPECT_TRUE(Read->Decls[1].IsInvalid);
  EXPECT_EQ(Read->Decls[1].Macro, "native");
  ASSERT_EQ(Read->Provided.size(), 2u);
  const ProvidedKernel &P = Read->Provided[1];
  EXPECT_EQ(P.Kind, KernelDeclKind::Native);
  EXPECT_EQ(P.Name, "relu_cuda");
  EXPECT_EQ(P.Function, "relu");
  EXPECT_EQ(P.Backend, DispatchKey::CUDA);
  EXPECT_EQ(P.File, "/src/Neg.cu");
  EXPECT_EQ(P.Line, 9u);
  EXPECT_EQ(P.Column, 14u);
  // The unit is the reader's: which file of the merge it came from.
  EXPECT_EQ(P.Unit, 7u);
}

TEST(KernelFactsTest, Unreadable_NamesTheFileAndWhy) {
  auto Error = [](StringRef Text) {
    Expected<KernelFacts> Read = readKernelFacts(Text, "x.facts", 0);
    return Read ? std::string() : toString(Read.takeError());
  };
  EXPECT_EQ(Error("{"), "'x.facts' is not a facts file of this skc: "
                        "[1:1, byte=1]: Expected object key");
  EXPECT_EQ(Error("{\"version\": 2}"),
            "'x.facts' is not a facts file of this skc: expected version 1");
  EXPECT_NE(Error("{\"version\": 1, \"sources\": [], \"kernels\": [], "
                  "\"provides\": [{\"kind\": \"impl\"}]}")
                .find("facts.provides[0]"),
            std::string::npos);
  EXPECT_NE(Error("{\"version\": 1, \"sources\": [], \"kernels\": "
                  "[{\"kind\": \"meta\", \"name\": \"m\", \"cuda\": false, "
                  "\"invalid\": false, \"macro\": \"meta\"}], "
                  "\"provides\": [{\"kind\": \"impl\", \"name\": \"k\", "
                  "\"backend\": \"NoSuchKey\", \"file\": \"f\", \"line\": 1, "
                  "\"column\": 1}]}")
                .find("expected a dispatch key"),
            std::string::npos);
}

/// checkLibrary over a small schema: a structured op and a native kernel
/// two functions share.
class CheckLibraryTest : public ::testing::Test {
protected:
  CheckLibraryTest() : Diags(SM, Stored) {
    unsigned ID =
        SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(R"yaml(
- func: neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: neg_out
- func: neg(Tensor self) -> Tensor
  structured_delegate: neg.out
- func: relu(Tensor self) -> Tensor
  dispatch:
    CPU: relu_cpu
)yaml",
                                                             "t.yaml"),
                              SMLoc());
    Model =
        buildOperatorModel(parseSchemaFile(ID, Types, Diags), nullptr, Diags);
    EXPECT_TRUE(Stored.Diagnostics.empty());
  }

  std::vector<std::string> check(ArrayRef<ProvidedKernel> Provided) {
    Stored.Diagnostics.clear();
    Located.clear();
    checkLibrary(Model, Provided, KernelCheckOptions(), Diags,
                 [&](const ProvidedKernel &P) {
                   Located.push_back(P.File + ":" + std::to_string(P.Line));
                   return SMLoc();
                 });
    std::vector<std::string> IDs;
    for (const Diagnostic &D : Stored.Diagnostics)
      IDs.push_back(D.getID().str());
    return IDs;
  }

  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags;
  TypeContext Types;
  OperatorModel Model;
  std::vector<std::string> Located;

  ProvidedKernel Meta = makeProvided(KernelDeclKind::Meta, "neg",
                                     DispatchKey::Meta, "a.cpp", 3, 0);
  ProvidedKernel Impl = makeProvided(KernelDeclKind::Impl, "neg_out",
                                     DispatchKey::CPU, "b.cpp", 5, 1);
  ProvidedKernel Relu = makeProvided(KernelDeclKind::Native, "relu_cpu",
                                     DispatchKey::CPU, "b.cpp", 9, 1, "relu");
};

TEST_F(CheckLibraryTest, EverythingProvided_NoDiagnostic) {
  EXPECT_TRUE(check({Meta, Impl, Relu}).empty());
  // No diagnostic points at a source: none is read.
  EXPECT_TRUE(Located.empty());
}

TEST_F(CheckLibraryTest, Missing_ReportedAtTheSchema) {
  EXPECT_EQ(check({Meta, Relu}),
            std::vector<std::string>{"err_kernel_missing"});
  EXPECT_TRUE(Located.empty());
  // A native kernel counts for the function it was checked against only;
  // an impl in a .cu source is not the CPU one.
  ProvidedKernel CUDAImpl = Impl;
  CUDAImpl.Backend = DispatchKey::CUDA;
  ProvidedKernel OtherFunction = Relu;
  OtherFunction.Function = "neg";
  EXPECT_EQ(
      check({Meta, CUDAImpl, OtherFunction}),
      (std::vector<std::string>{"err_kernel_missing", "err_kernel_missing"}));
}

TEST_F(CheckLibraryTest, DefinedInTwoUnits_ReportedAtBoth) {
  ProvidedKernel Again = Impl;
  Again.File = "c.cpp";
  Again.Line = 4;
  Again.Unit = 2;
  EXPECT_EQ(check({Meta, Impl, Relu, Again}),
            (std::vector<std::string>{"err_kernel_duplicate",
                                      "note_previous_definition"}));
  EXPECT_EQ(Located, (std::vector<std::string>{"c.cpp:4", "b.cpp:5"}));
  EXPECT_EQ(Stored.Diagnostics[0].Message,
            "redefinition of the impl 'structured_neg_out'");
}

TEST_F(CheckLibraryTest, OneHeaderInTwoUnits_OrTwiceInOne_NotReportedAgain) {
  // The same definition, from a header both units include.
  ProvidedKernel FromHeader = Impl;
  FromHeader.Unit = 2;
  // Two in one unit: that unit's own check reported them.
  ProvidedKernel SameUnit = Impl;
  SameUnit.Line = 20;
  EXPECT_TRUE(check({Meta, Impl, Relu, FromHeader, SameUnit}).empty());
}

TEST_F(CheckLibraryTest, NoMissingKernels_OnlyDuplicates) {
  KernelCheckOptions Opts;
  Opts.RequireAllKernels = false;
  Stored.Diagnostics.clear();
  checkLibrary(Model, {Meta}, Opts, Diags,
               [](const ProvidedKernel &) { return SMLoc(); });
  EXPECT_TRUE(Stored.Diagnostics.empty());
}

} // namespace
