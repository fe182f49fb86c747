//===--- KernelSourceParserTest.cpp - Tests of the Clang front end --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kernel sources written to a temporary directory and parsed against the
/// real runtime headers (SKC_RUNTIME_INCLUDE_DIR) and the headers skc's
/// emitter generates for a small schema, which exist only in memory, as
/// the driver maps them.
///
//===----------------------------------------------------------------------===//

#include "skc/Frontend/KernelSourceParser.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Config.h"
#include "skc/Emit/Emitters.h"
#include "skc/Frontend/KernelSourceSession.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

/// A small schema: add.Tensor / add.out (structured, through
/// TensorIterator), pair (two outputs), avg_pool2d (precomputed kH, kW) and
/// the native relu_cpu and sum_dim. The tests parse their sources against
/// the headers skc's own emitter generates from it, as clangd's TestTU
/// builds its inputs with the real pieces.
const char Schema[] = R"yaml(
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: add_out
- func: pair(Tensor self, int dim) -> (Tensor, Tensor)
  structured_delegate: pair.out
- func: pair.out(Tensor self, int dim, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))
  structured: True
  dispatch:
    CPU: pair_out
- func: avg_pool2d(Tensor self, int[2] kernel_size) -> Tensor
  structured_delegate: avg_pool2d.out
- func: avg_pool2d.out(Tensor self, int[2] kernel_size, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  precomputed:
  - kernel_size -> int kH, int kW
  dispatch:
    CPU: avg_pool2d_out
- func: relu(Tensor self) -> Tensor
  dispatch:
    CPU: relu_cpu
- func: sum.dim(Tensor self, int dim) -> Tensor
  dispatch:
    CPU: sum_dim
)yaml";

class KernelSourceParserTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("skc-kernel-src", Dir));
    SmallString<128> Gen(Dir);
    sys::path::append(Gen, "generated");
    Options.GeneratedIncludeDir = Gen.str().str();
    // The generated headers, from the schema, by skc's emitter.
    SourceMgr SchemaSM;
    StoredDiagnosticConsumer SchemaDiags;
    DiagnosticsEngine SchemaEngine(SchemaSM, SchemaDiags);
    TypeContext Types;
    unsigned ID = SchemaSM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(Schema, "ops.yaml"), SMLoc());
    OperatorModel Model = buildOperatorModel(
        parseSchemaFile(ID, Types, SchemaEngine), nullptr, SchemaEngine);
    ASSERT_EQ(SchemaEngine.getNumErrors(), 0u);
    EmitOptions Emit;
    Emit.Inputs = {"ops.yaml"};
    Emit.Backends = {DispatchKey::CPU};
    for (GeneratedFile &F : emitNativeFunctionHeaders(Model, Emit)) {
      SmallString<128> Path(Options.GeneratedIncludeDir);
      sys::path::append(Path, F.Name);
      Options.GeneratedHeaders.push_back(
          {Path.str().str(), std::move(F.Contents)});
    }
    Options.RuntimeIncludeDir = SKC_RUNTIME_INCLUDE_DIR;
    Options.ResourceDir = SKC_CLANG_RESOURCE_DIR;
    Options.CUDAPath = SKC_CUDA_PATH;
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string writeFile(StringRef Name, StringRef Text) {
    SmallString<128> Path(Dir);
    sys::path::append(Path, Name);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Text;
    return Path.str().str();
  }

  /// Parses \p Text as \p Name and returns its kernels.
  std::vector<KernelDecl> parse(StringRef Name, StringRef Text) {
    std::string Path = writeFile(Name, Text);
    return parseFiles({Path});
  }

  std::vector<KernelDecl>
  parseFiles(ArrayRef<std::string> Paths,
             const clang::tooling::CompilationDatabase *DB = nullptr) {
    std::vector<KernelDecl> Decls;
    Error E = parseKernelSources(Paths, DB, Options, Diags, Decls);
    EXPECT_FALSE(bool(E)) << toString(std::move(E));
    return Decls;
  }

  /// "line:col" of \p Loc.
  std::string at(SMLoc Loc) const {
    if (!Loc.isValid())
      return "<invalid>";
    auto [Line, Col] = SM.getLineAndColumn(Loc);
    return std::to_string(Line) + ":" + std::to_string(Col);
  }
  /// The file \p Loc is in, as its SourceMgr buffer is named.
  std::string fileOf(SMLoc Loc) const {
    unsigned ID = SM.FindBufferContainingLoc(Loc);
    return ID ? SM.getMemoryBuffer(ID)->getBufferIdentifier().str() : "";
  }
  static std::string text(SMRange R) {
    if (!R.isValid())
      return "<invalid>";
    return std::string(R.Start.getPointer(),
                       R.End.getPointer() - R.Start.getPointer());
  }
  /// Every diagnostic as "ID line:col: message", for failure messages.
  std::string dump() const {
    std::string Out;
    for (const Diagnostic &D : Stored.Diagnostics)
      Out += D.getID().str() + " " + at(D.Loc) + ": " + D.Message + "\n";
    return Out;
  }

  static const BodyFact *findFact(const KernelDecl &K, BodyFact::FactKind Kind,
                                  StringRef Detail) {
    for (const BodyFact &F : K.Facts)
      if (F.Kind == Kind && F.Detail == Detail)
        return &F;
    return nullptr;
  }

  SmallString<128> Dir;
  KernelSourceOptions Options;
  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags{SM, Stored};
};

TEST_F(KernelSourceParserTest, MetaImplNative_ExtractedWithParamsAndRanges) {
  // clang-format off
  auto Decls = parse("add.cpp",
R"cpp(#include "NativeFunctions.h"
namespace sk {
SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
                          const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}
SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, const Tensor &out) {}
Tensor SK_NATIVE_FUNC(relu_cpu)(const Tensor &self) { return self; }
namespace native {
Tensor sum_dim(const Tensor &self, int64_t) { return self; }
} // namespace native
} // namespace sk
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 4u);

  const KernelDecl &Meta = Decls[0];
  EXPECT_EQ(Meta.Kind, KernelDeclKind::Meta);
  EXPECT_EQ(Meta.Name, "structured_add_Tensor");
  EXPECT_TRUE(Meta.isFromMacro());
  EXPECT_EQ(sys::path::filename(Meta.File), "add.cpp");
  EXPECT_EQ(fileOf(Meta.Loc), Meta.File);
  EXPECT_EQ(at(Meta.Loc), "3:14"); // the macro's argument: `add`
  EXPECT_FALSE(Meta.InCUDASource);
  EXPECT_FALSE(Meta.IsInvalid);
  EXPECT_EQ(Meta.ReturnTypeAsWritten, "void");
  EXPECT_EQ(Meta.CanonicalReturnType, "void");
  EXPECT_EQ(at(Meta.ParamListRange.Start), "3:26");
  EXPECT_EQ(text(Meta.ParamListRange),
            "(const Tensor &self, const Tensor &other,\n"
            "                          const Scalar &alpha)");
  ASSERT_EQ(Meta.Params.size(), 3u);
  EXPECT_EQ(Meta.Params[0].Name, "self");
  EXPECT_EQ(Meta.Params[0].TypeAsWritten, "const Tensor &");
  EXPECT_EQ(Meta.Params[0].CanonicalType, "const sk::Tensor &");
  EXPECT_EQ(text(Meta.Params[0].TypeRange), "const Tensor &");
  EXPECT_EQ(text(Meta.Params[0].Range), "const Tensor &self");
  EXPECT_EQ(at(Meta.Params[0].NameLoc), "3:41");
  EXPECT_EQ(Meta.Params[2].CanonicalType, "const sk::Scalar &");
  EXPECT_EQ(at(Meta.Params[2].NameLoc), "4:41");
  EXPECT_TRUE(Meta.HasDeclaration);
  EXPECT_EQ(Meta.DeclaredParamTypes.size(), 3u);

  const KernelDecl &Impl = Decls[1];
  EXPECT_EQ(Impl.Kind, KernelDeclKind::Impl);
  EXPECT_EQ(Impl.Name, "structured_add_out");
  EXPECT_EQ(at(Impl.Loc), "7:14");
  ASSERT_EQ(Impl.Params.size(), 4u);
  EXPECT_EQ(Impl.Params[3].Name, "out");
  EXPECT_EQ(Impl.Params[3].CanonicalType, "const sk::Tensor &");

  const KernelDecl &Relu = Decls[2];
  EXPECT_EQ(Relu.Kind, KernelDeclKind::Native);
  EXPECT_EQ(Relu.Name, "relu_cpu");
  EXPECT_TRUE(Relu.isFromMacro());
  EXPECT_EQ(at(Relu.Loc), "9:23");
  EXPECT_EQ(Relu.ReturnTypeAsWritten, "Tensor");
  EXPECT_EQ(Relu.CanonicalReturnType, "sk::Tensor");
  EXPECT_EQ(text(Relu.ParamListRange), "(const Tensor &self)");

  const KernelDecl &Sum = Decls[3];
  EXPECT_EQ(Sum.Kind, KernelDeclKind::Native);
  EXPECT_EQ(Sum.Name, "sum_dim");
  EXPECT_FALSE(Sum.isFromMacro());
  EXPECT_EQ(at(Sum.Loc), "11:8");
  ASSERT_EQ(Sum.Params.size(), 2u);
  EXPECT_EQ(Sum.Params[1].Name, "");
  EXPECT_FALSE(Sum.Params[1].NameLoc.isValid());
  EXPECT_EQ(Sum.Params[1].TypeAsWritten, "int64_t");
  EXPECT_EQ(Sum.Params[1].CanonicalType, "long");
  ASSERT_TRUE(Sum.HasDeclaration);
  EXPECT_EQ(Sum.DeclaredParamTypes[1], "long");
}

TEST_F(KernelSourceParserTest, CanonicalTypes_FullyQualifiedAndDesugared) {
  // clang-format off
  auto Decls = parse("types.cpp",
R"cpp(#include "NativeFunctions.h"
#include <optional>
namespace sk {
namespace native {
using MaybeDim = std::optional<int64_t>;
Tensor typed(IntArrayRef sizes, MaybeDim dim, ScalarType t,
             Tensor &out) { return out; }
} // namespace native
} // namespace sk
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 1u);
  const KernelDecl &K = Decls[0];
  ASSERT_EQ(K.Params.size(), 4u);
  EXPECT_EQ(K.Params[0].TypeAsWritten, "IntArrayRef");
  EXPECT_EQ(K.Params[0].CanonicalType, "sk::ArrayRef<long>");
  EXPECT_EQ(K.Params[1].TypeAsWritten, "MaybeDim");
  EXPECT_EQ(K.Params[1].CanonicalType, "std::optional<long>");
  EXPECT_EQ(K.Params[2].CanonicalType, "sk::ScalarType");
  EXPECT_EQ(K.Params[3].TypeAsWritten, "Tensor &");
  EXPECT_EQ(K.Params[3].CanonicalType, "sk::Tensor &");
}

TEST_F(KernelSourceParserTest, SetOutputFacts_IndexAndConditionality) {
  // clang-format off
  auto Decls = parse("pair.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
SK_META_FUNC(pair)(const Tensor &self, int64_t dim) {
  set_output_raw_strided(0, self.sizes(), {}, self.options());
  {
    set_output_strided(dim, self.sizes(), self.strides(), self.options());
  }
  if (dim > 0)
    set_output_contiguous(1, self.sizes(), self.options());
  dim > 1 ? (void)self.data_ptr() : (void)0;
  if (self.numel() == 0)
    return;
  set_output_contiguous(1, self.sizes(), self.options());
}
SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
                          const Scalar &alpha) {
  TensorIteratorConfig().add_input(self).build();
  build_borrowing_binary_op(maybe_get_output(), self, other);
  SK_CHECK(alpha.to<double>() != 0, "alpha ", self.item());
}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 2u);

  const std::vector<BodyFact> &F = Decls[0].Facts;
  ASSERT_EQ(F.size(), 5u);
  EXPECT_EQ(F[0].Kind, BodyFact::FK_SetOutput);
  EXPECT_EQ(F[0].OutputIndex, 0);
  EXPECT_FALSE(F[0].AllOutputs);
  EXPECT_EQ(at(F[0].Range.Start), "4:3");
  EXPECT_EQ(text(F[0].Range),
            "set_output_raw_strided(0, self.sizes(), {}, self.options())");
  // In a nested plain block: the index is unknown.
  EXPECT_EQ(F[1].Kind, BodyFact::FK_SetOutput);
  EXPECT_EQ(F[1].OutputIndex, std::nullopt);
  // Under an if.
  EXPECT_EQ(F[2].OutputIndex, 1);
  // In an arm of ?:.
  EXPECT_EQ(F[3].Kind, BodyFact::FK_DataAccess);
  EXPECT_EQ(F[3].Detail, "data_ptr");
  // After an if with a return.
  EXPECT_EQ(F[4].OutputIndex, 1);
  EXPECT_EQ(at(F[4].Range.Start), "13:3");
  // On every path: output 0. Output 1 is set under `dim > 0` and at the
  // end, but the early return between them skips both when dim <= 0.
  EXPECT_FALSE(Decls[0].OutputsSet.All);
  EXPECT_EQ(Decls[0].OutputsSet.Indices, (SmallVector<int64_t, 2>{0}));

  // A TensorIteratorConfig's build() builds another iterator; this
  // kernel's own build_* sets every output.
  const KernelDecl &Add = Decls[1];
  const BodyFact *Build =
      findFact(Add, BodyFact::FK_SetOutput, "build_borrowing_binary_op");
  ASSERT_NE(Build, nullptr);
  EXPECT_TRUE(Build->AllOutputs);
  EXPECT_TRUE(Add.OutputsSet.All);
  EXPECT_EQ(Build->OutputIndex, std::nullopt);
  EXPECT_EQ(findFact(Add, BodyFact::FK_SetOutput, "build"), nullptr);
  // item() inside SK_CHECK: reads data, conditionally.
  const BodyFact *Item = findFact(Add, BodyFact::FK_DataAccess, "item");
  ASSERT_NE(Item, nullptr);
  EXPECT_EQ(at(Item->Range.Start), "19:47");
}

TEST_F(KernelSourceParserTest, OutputsOnEveryPath_BranchesReturnsAndHelpers) {
  // clang-format off
  auto Decls = parse("paths.cpp",
R"cpp(#include "NativeFunctions.h"
#include "sk/iter/ReduceUtils.h"
using namespace sk;
static void setSecond(impl::MetaBase &M, const Tensor &T) {
  M.set_output_raw_strided(1, T.sizes(), {}, T.options());
}
static void maybeSetSecond(impl::MetaBase *M, const Tensor &T) {
  if (T.dim() > 1)
    setSecond(*M, T);
}
SK_META_FUNC(pair)(const Tensor &self, int64_t dim) {
  SK_CHECK(dim >= 0, "dim ", dim);
  if (dim == 0) {
    set_output_raw_strided(0, self.sizes(), {}, self.options());
    setSecond(*this, self);
    return;
  }
  resize_reduction(*this, self, {dim}, false, self.scalar_type());
  maybeSetSecond(this, self);
  setSecond(*this, self);
}
SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
                          const Scalar &alpha) {
  if (alpha.to<double>() > 0)
    build_borrowing_binary_op(maybe_get_output(), self, other);
  else
    build_borrowing_binary_op(maybe_get_output(), other, self);
}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 2u);
  // Output 0 in the early-return branch and through resize_reduction
  // (annotated SK_SETS_OUTPUT(0)) after it; output 1 through the helper on
  // both paths, not through the helper that sets it only sometimes.
  EXPECT_FALSE(Decls[0].OutputsSet.All);
  EXPECT_EQ(Decls[0].OutputsSet.Indices, (SmallVector<int64_t, 2>{0, 1}));
  // Both arms of an if/else.
  EXPECT_TRUE(Decls[1].OutputsSet.All);
}

TEST_F(KernelSourceParserTest, OutputsOnEveryPath_NotWhenAPathMisses) {
  // clang-format off
  auto Decls = parse("miss.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
static void maybeSet(impl::MetaBase &M, const Tensor &T) {
  if (T.dim() > 1)
    M.set_output_raw_strided(1, T.sizes(), {}, T.options());
}
SK_META_FUNC(pair)(const Tensor &self, int64_t dim) {
  for (int64_t I = 0; I < dim; ++I)
    set_output_raw_strided(0, self.sizes(), {}, self.options());
  maybeSet(*this, self);
}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 1u);
  EXPECT_FALSE(Decls[0].OutputsSet.All);
  EXPECT_TRUE(Decls[0].OutputsSet.Indices.empty());
}

TEST_F(KernelSourceParserTest, AssignmentToParam_RecordedEvenWhenRejected) {
  // clang-format off
  auto Decls = parse("assign.cpp",
R"cpp(#include "NativeFunctions.h"
#include "sk/ops/Factories.h"
#include <iostream>
using namespace sk;
SK_IMPL_FUNC(pair_out)(const Tensor &self, int64_t dim, const Tensor &out0,
                       const Tensor &out1) {
  dim += 1;
  std::cout << out0;
  out1 = sk::empty({2});
  self = out0;
}
)cpp");
  // clang-format on
  // Tensor's operator= does not take a const Tensor. For the out argument
  // (SK_OUT_ARGUMENT in the generated declaration) Sema's
  // err_impl_assigns_out says why, and Clang's error is left out; for an
  // input, Clang's error and its notes (the candidates) stay.
  ASSERT_FALSE(Stored.Diagnostics.empty());
  EXPECT_EQ(Diags.getNumErrors(), 1u) << dump();
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "err_clang");
  EXPECT_EQ(Stored.Diagnostics[0].Message, "no viable overloaded '='");
  EXPECT_EQ(at(Stored.Diagnostics[0].Loc), "10:8");
  for (size_t I = 1; I != Stored.Diagnostics.size(); ++I)
    EXPECT_EQ(Stored.Diagnostics[I].getID(), "note_clang");
  ASSERT_EQ(Decls.size(), 1u);
  const KernelDecl &K = Decls[0];
  const BodyFact *Dim = findFact(K, BodyFact::FK_AssignToParam, "dim");
  ASSERT_NE(Dim, nullptr);
  EXPECT_EQ(text(Dim->Range), "dim += 1");
  const BodyFact *Print = findFact(K, BodyFact::FK_DataAccess, "operator<<");
  ASSERT_NE(Print, nullptr);
  EXPECT_EQ(at(Print->Range.Start), "8:3");
  const BodyFact *Out = findFact(K, BodyFact::FK_AssignToParam, "out1");
  ASSERT_NE(Out, nullptr);
  EXPECT_EQ(at(Out->Range.Start), "9:3");
}

TEST_F(KernelSourceParserTest, PrecomputeMeta_SettersAndReturnType) {
  // clang-format off
  auto Decls = parse("pool.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
SK_PRECOMPUTE_META_FUNC(avg_pool2d)(const Tensor &self,
                                    IntArrayRef kernel_size) {
  set_output_contiguous(0, self.sizes(), self.options());
  return SK_PRECOMPUTE_STRUCT(avg_pool2d)().set_kH(kernel_size[0])
      .set_kW(kernel_size[1]);
}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 1u);
  const KernelDecl &K = Decls[0];
  EXPECT_EQ(K.Kind, KernelDeclKind::Meta);
  EXPECT_EQ(K.Name, "structured_avg_pool2d");
  EXPECT_EQ(at(K.Loc), "3:25");
  EXPECT_EQ(K.CanonicalReturnType,
            "sk::meta::structured_avg_pool2d::precompute_out<3>");
  const BodyFact *KH = findFact(K, BodyFact::FK_PrecomputeSet, "kH");
  const BodyFact *KW = findFact(K, BodyFact::FK_PrecomputeSet, "kW");
  ASSERT_NE(KH, nullptr);
  ASSERT_NE(KW, nullptr);
  EXPECT_TRUE(K.OutputsSet.covers(0));
  EXPECT_EQ(at(KW->Range.Start), "6:10");
}

TEST_F(KernelSourceParserTest, MismatchedMeta_InvalidWithParamsNoClangError) {
  // clang-format off
  auto Decls = parse("mismatch.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
                          double alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}
Tensor SK_NATIVE_FUNC(relu_cpu)(const Tensor &self, bool inplace) {
  return self;
}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 2u);
  const KernelDecl &Meta = Decls[0];
  EXPECT_EQ(Meta.Name, "structured_add_Tensor");
  EXPECT_TRUE(Meta.IsInvalid);
  EXPECT_EQ(Meta.InvalidReason, KernelDecl::IR_NoMatchingDecl);
  EXPECT_EQ(at(Meta.Loc), "3:14");
  ASSERT_EQ(Meta.Params.size(), 3u);
  EXPECT_EQ(Meta.Params[2].TypeAsWritten, "double");
  EXPECT_EQ(at(Meta.Params[2].TypeRange.Start), "4:27");
  // The body is there too.
  ASSERT_EQ(Meta.Facts.size(), 1u);
  EXPECT_TRUE(Meta.Facts[0].AllOutputs);
  // And the declaration it was meant to define.
  ASSERT_TRUE(Meta.HasDeclaration);
  ASSERT_EQ(Meta.DeclaredParamTypes.size(), 3u);
  EXPECT_EQ(Meta.DeclaredParamTypes[2], "const sk::Scalar &");

  const KernelDecl &Relu = Decls[1];
  EXPECT_EQ(Relu.Kind, KernelDeclKind::Native);
  EXPECT_EQ(Relu.InvalidReason, KernelDecl::IR_NoMatchingDecl);
  ASSERT_EQ(Relu.Params.size(), 2u);
  EXPECT_EQ(Relu.Params[1].CanonicalType, "bool");
  ASSERT_TRUE(Relu.HasDeclaration);
  ASSERT_EQ(Relu.DeclaredParamTypes.size(), 1u);
  EXPECT_EQ(Relu.DeclaredParamTypes[0], "const sk::Tensor &");
}

TEST_F(KernelSourceParserTest, UnknownStruct_RecordedByNameNoClangError) {
  // clang-format off
  auto Decls = parse("unknown.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
SK_IMPL_FUNC(frobnicate_out)(const Tensor &self, const Tensor &out) {
  int unused_in_dropped_body = 0;
}
SK_IMPL_FUNC(add_oot)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, const Tensor &out) {}
SK_META_FUNC(sub, Tensor)(const Tensor &self) {}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 3u);

  // No close match: Clang drops the definition; the name and the
  // parameter list's place remain.
  const KernelDecl &Mul = Decls[0];
  EXPECT_EQ(Mul.Kind, KernelDeclKind::Impl);
  EXPECT_EQ(Mul.Name, "structured_frobnicate_out");
  EXPECT_TRUE(Mul.IsInvalid);
  EXPECT_EQ(Mul.InvalidReason, KernelDecl::IR_UnknownName);
  EXPECT_EQ(at(Mul.Loc), "3:14");
  EXPECT_EQ(text(Mul.ParamListRange),
            "(const Tensor &self, const Tensor &out)");
  EXPECT_TRUE(Mul.Params.empty());

  // A close match (structured_add_out): Clang recovers with it; the
  // kernel keeps the name written and its parameters.
  const KernelDecl &Oot = Decls[1];
  EXPECT_EQ(Oot.Kind, KernelDeclKind::Impl);
  EXPECT_EQ(Oot.Name, "structured_add_oot");
  EXPECT_EQ(Oot.InvalidReason, KernelDecl::IR_UnknownName);
  EXPECT_EQ(at(Oot.Loc), "6:14");
  EXPECT_EQ(Oot.Params.size(), 4u);
  EXPECT_FALSE(Oot.HasDeclaration);

  const KernelDecl &Sub = Decls[2];
  EXPECT_EQ(Sub.Kind, KernelDeclKind::Meta);
  EXPECT_EQ(Sub.Name, "structured_sub_Tensor");
  EXPECT_EQ(Sub.InvalidReason, KernelDecl::IR_UnknownName);
}

TEST_F(KernelSourceParserTest, SpelledOutDefinitions_ClangErrorsForwarded) {
  // clang-format off
  auto Decls = parse("spelled.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
void sk::meta::structured_pair::meta(const Tensor &self, int64_t dim) {}
void sk::meta::structured_add_Tensor::meta(const Tensor &self,
                                           const Tensor &other, int alpha) {}
namespace sk::native {
static Tensor helper(const Tensor &self) { return self; }
template <typename T> Tensor generic(const Tensor &self) { return self; }
namespace {
Tensor hidden(const Tensor &self) { return self; }
}
} // namespace sk::native
)cpp");
  // clang-format on
  // Only Clang's macros' mismatches are left to Sema.
  ASSERT_FALSE(Stored.Diagnostics.empty());
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "err_clang") << dump();
  EXPECT_EQ(Stored.Diagnostics[0].Message,
            "out-of-line definition of 'meta' does not match any declaration "
            "in 'sk::meta::structured_add_Tensor'");
  EXPECT_EQ(at(Stored.Diagnostics[0].Loc), "4:39");
  EXPECT_EQ(Diags.getNumErrors(), 1u) << dump();

  ASSERT_EQ(Decls.size(), 2u);
  EXPECT_EQ(Decls[0].Name, "structured_pair");
  EXPECT_FALSE(Decls[0].isFromMacro());
  EXPECT_EQ(at(Decls[0].Loc), "3:16"); // the struct's name
  EXPECT_FALSE(Decls[0].IsInvalid);
  EXPECT_EQ(Decls[1].Name, "structured_add_Tensor");
  EXPECT_TRUE(Decls[1].IsInvalid);
  EXPECT_EQ(Decls[1].InvalidReason, KernelDecl::IR_ClangReported);
  EXPECT_TRUE(Decls[1].HasDeclaration);
}

TEST_F(KernelSourceParserTest, ClangError_ForwardedAtItsLocation) {
  Options.ExtraFlags = {"-Wall"};
  // clang-format off
  auto Decls = parse("error.cpp",
R"cpp(#include "NativeFunctions.h"
using namespace sk;
SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, const Tensor &out) {
  undeclared_thing(self);
}
void helper() { int unused = 0; }
)cpp");
  // clang-format on
  ASSERT_EQ(Stored.Diagnostics.size(), 2u) << dump();
  const Diagnostic &Err = Stored.Diagnostics[0];
  EXPECT_EQ(Err.getID(), "err_clang");
  EXPECT_EQ(Err.Severity, DiagSeverity::Error);
  EXPECT_EQ(Err.Message, "use of undeclared identifier 'undeclared_thing'");
  EXPECT_EQ(at(Err.Loc), "5:3");
  ASSERT_EQ(Err.Ranges.size(), 1u);
  EXPECT_EQ(text(Err.Ranges[0]), "undeclared_thing");
  const Diagnostic &Warn = Stored.Diagnostics[1];
  EXPECT_EQ(Warn.getID(), "warn_clang");
  EXPECT_EQ(Warn.Message, "unused variable 'unused' [-Wunused-variable]");
  EXPECT_EQ(at(Warn.Loc), "7:21");
  EXPECT_EQ(Diags.getNumErrors(), 1u);
  // The kernel is still extracted.
  ASSERT_EQ(Decls.size(), 1u);
  EXPECT_FALSE(Decls[0].IsInvalid);
}

TEST_F(KernelSourceParserTest, DiagnosticInGeneratedHeader_MapsToVirtualFile) {
  Options.GeneratedHeaders.push_back(
      {Options.GeneratedIncludeDir + "/skc/Warn.h",
       "#pragma once\n#warning \"generated\"\n"});
  parse("warn.cpp", "#include \"skc/Warn.h\"\n");
  ASSERT_EQ(Stored.Diagnostics.size(), 1u) << dump();
  const Diagnostic &D = Stored.Diagnostics[0];
  EXPECT_EQ(D.getID(), "warn_clang");
  EXPECT_EQ(D.Message, "\"generated\" [-W#warnings]");
  EXPECT_EQ(fileOf(D.Loc), Options.GeneratedIncludeDir + "/skc/Warn.h");
  EXPECT_EQ(at(D.Loc), "2:2");
}

TEST_F(KernelSourceParserTest, CUDASource_ParsedHostSideWithoutErrors) {
  if (StringRef(SKC_CUDA_PATH).empty())
    GTEST_SKIP() << "no CUDA toolkit was found at configure time";
  // clang-format off
  auto Decls = parse("add.cu",
R"cpp(#include <cuda_runtime.h>
#include <thrust/version.h>
#include "NativeFunctions.h"
__global__ void addKernel(float *A, const float *B, int64_t N) {
  int64_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    A[I] += B[I];
}
namespace sk::native {
__global__ void scaleKernel(float *A, float S) { A[threadIdx.x] *= S; }
__device__ float twice(float X) { return 2 * X; }
} // namespace sk::native
using namespace sk;
SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, const Tensor &out) {
  addKernel<<<1, 256>>>(nullptr, nullptr, out.numel());
}
)cpp");
  // clang-format on
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 1u);
  EXPECT_EQ(Decls[0].Kind, KernelDeclKind::Impl);
  EXPECT_TRUE(Decls[0].InCUDASource);
  EXPECT_FALSE(Decls[0].IsInvalid);
}

TEST_F(KernelSourceParserTest, CompileCommandsJson_FlagsFromTheDatabase) {
  std::string A = writeFile("a.cpp", R"cpp(#include "NativeFunctions.h"
#ifndef FROM_DATABASE
#error "compiled without the database's flags"
#endif
namespace sk::native {
Tensor relu_cpu(const Tensor &self) { return self; }
}
)cpp");
  // Not in the database: Clang's JSON database infers its command from
  // a.cpp's, as clangd and clang-tidy do; Options.ExtraFlags are not used.
  std::string B = writeFile("b.cpp", R"cpp(#include "NativeFunctions.h"
#if !defined(FROM_DATABASE) || defined(FROM_FLAGS)
#error "b.cpp did not get a.cpp's flags"
#endif
)cpp");
  writeFile("compile_commands.json",
            (Twine(R"([{"directory": ")") + Dir +
             R"(", "file": "a.cpp", "command": )"
             R"("/usr/bin/c++ -DFROM_DATABASE -std=gnu++17 -c a.cpp -o a.o"}])")
                .str());
  Options.ExtraFlags = {"-DFROM_FLAGS"};
  auto DB = loadCompilationDatabase(Dir);
  ASSERT_TRUE(bool(DB)) << toString(DB.takeError());
  auto Decls = parseFiles({A, B}, DB->get());
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 1u);
  EXPECT_EQ(Decls[0].Name, "relu_cpu");
}

TEST_F(KernelSourceParserTest, NvccCompileCommand_NvccOnlyFlagsDropped) {
  if (StringRef(SKC_CUDA_PATH).empty())
    GTEST_SKIP() << "no CUDA toolkit was found at configure time";
  std::string A = writeFile("a.cu", R"cpp(#include "NativeFunctions.h"
#ifndef FROM_DATABASE
#error "compiled without the database's flags"
#endif
__global__ void k(float *P) { P[0] = 1; }
namespace sk::native {
Tensor relu_cuda(const Tensor &self) { return self; }
}
)cpp");
  // What CMake writes for a .cu source compiled by nvcc.
  writeFile("compile_commands.json",
            (Twine(R"([{"directory": ")") + Dir +
             R"(", "file": "a.cu", "command": "/usr/local/cuda/bin/nvcc )"
             R"(-forward-unknown-to-host-compiler -DFROM_DATABASE -O3 )"
             R"(--generate-code=arch=compute_90,code=[sm_90] )"
             R"(--generate-code=arch=compute_90,code=[compute_90] )"
             R"(-std=c++17 -x cu -c a.cu -o a.o"}])")
                .str());
  auto DB = loadCompilationDatabase(Dir);
  ASSERT_TRUE(bool(DB)) << toString(DB.takeError());
  auto Decls = parseFiles({A}, DB->get());
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Decls.size(), 1u);
  EXPECT_TRUE(Decls[0].InCUDASource);
}

TEST_F(KernelSourceParserTest, EmptyCompileCommandsJson_FallsBackToFlags) {
  std::string A = writeFile("a.cpp", R"cpp(#include "NativeFunctions.h"
#ifndef FROM_FLAGS
#error "compiled without the extra flags"
#endif
)cpp");
  writeFile("compile_commands.json", "[]");
  Options.ExtraFlags = {"-DFROM_FLAGS"};
  auto DB = loadCompilationDatabase(Dir);
  ASSERT_TRUE(bool(DB)) << toString(DB.takeError());
  parseFiles({A}, DB->get());
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
}

TEST_F(KernelSourceParserTest, CompileCommandInMissingDirectory_IsAnError) {
  std::string A = writeFile("a.cpp", "int x;\n");
  writeFile("compile_commands.json",
            (Twine(R"([{"directory": ")") + Dir + R"(/gone", "file": ")" + A +
             R"(", "command": "c++ -c a.cpp"}])")
                .str());
  auto DB = loadCompilationDatabase(Dir);
  ASSERT_TRUE(bool(DB)) << toString(DB.takeError());
  std::vector<KernelDecl> Decls;
  Error E = parseKernelSources({A}, DB->get(), Options, Diags, Decls);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("gone"), std::string::npos);
}

TEST_F(KernelSourceParserTest, MissingDatabase_IsAnError) {
  auto DB = loadCompilationDatabase((Dir + "/nowhere").str());
  EXPECT_FALSE(bool(DB));
  consumeError(DB.takeError());
}

TEST_F(KernelSourceParserTest, MissingSource_IsAnErrorNotADiagnostic) {
  std::vector<KernelDecl> Decls;
  Error E = parseKernelSources({(Dir + "/missing.cpp").str()}, nullptr, Options,
                               Diags, Decls);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("missing.cpp"), std::string::npos);
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
}

TEST_F(KernelSourceParserTest, KernelsInHeaders_ExtractedOnceAtTheirLine) {
  std::string Header =
      writeFile("inline_kernel.h", R"cpp(#include "NativeFunctions.h"
namespace sk::native {
inline Tensor sum_dim(const Tensor &self, int64_t) { return self; }
}
)cpp");
  std::string A = writeFile("a.cpp", "#include \"inline_kernel.h\"\n");
  std::string B = writeFile("b.cpp", "#include \"inline_kernel.h\"\n");
  std::vector<KernelDecl> Decls = parseFiles({A, B});
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  // Two sources include the header; it defines the kernel once.
  ASSERT_EQ(Decls.size(), 1u);
  EXPECT_EQ(Decls[0].Name, "sum_dim");
  EXPECT_EQ(Decls[0].File, Header);
  EXPECT_EQ(at(Decls[0].Loc), "3:15");
}

} // namespace

//===----------------------------------------------------------------------===//
// KernelSourceSession: the same parse, with a cached preamble
//===----------------------------------------------------------------------===//

namespace {

// clang-format off
const char EditedSource[] = R"cpp(#include "NativeFunctions.h"
namespace sk {
SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
                          const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  BODY
}
SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, const Tensor &out) {}
} // namespace sk
)cpp";
// clang-format on

/// EditedSource with \p Body in the meta function.
std::string withBody(StringRef Body) {
  std::string Text = EditedSource;
  size_t At = Text.find("BODY");
  return Text.replace(At, 4, Body.str());
}

} // namespace

TEST_F(KernelSourceParserTest, Session_ReusesThePreambleAcrossBodyEdits) {
  std::string Path = writeFile("edited.cpp", withBody(""));
  KernelSourceSession Session(Options);

  std::vector<KernelDecl> First;
  ASSERT_FALSE(bool(Session.parse(Path, withBody(""), Diags, First)));
  EXPECT_FALSE(Session.reusedPreamble());
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(First.size(), 2u);
  EXPECT_EQ(First[0].Name, "structured_add_Tensor");
  EXPECT_EQ(at(First[0].Loc), "3:14");
  EXPECT_TRUE(First[0].OutputsSet.All);

  // An edit in a body, not saved: the preamble is reused, and the edit is
  // what is parsed.
  std::vector<KernelDecl> Second;
  ASSERT_FALSE(
      bool(Session.parse(Path, withBody("self.data_ptr();"), Diags, Second)));
  EXPECT_TRUE(Session.reusedPreamble());
  ASSERT_EQ(Second.size(), 2u);
  EXPECT_TRUE(findFact(Second[0], BodyFact::FK_DataAccess, "data_ptr"));
  EXPECT_EQ(Second[1].Params.size(), 4u);

  // An error in the edit is reported as parseKernelSources reports it.
  Stored.Diagnostics.clear();
  std::vector<KernelDecl> Third;
  ASSERT_FALSE(
      bool(Session.parse(Path, withBody("undeclared();"), Diags, Third)));
  EXPECT_TRUE(Session.reusedPreamble());
  ASSERT_EQ(Stored.Diagnostics.size(), 1u) << dump();
  EXPECT_EQ(Stored.Diagnostics[0].getID(), "err_clang");
  EXPECT_EQ(at(Stored.Diagnostics[0].Loc), "6:3");

  // An edit of the preamble (a new include) builds it again.
  Stored.Diagnostics.clear();
  std::vector<KernelDecl> Fourth;
  ASSERT_FALSE(bool(Session.parse(Path, "#include <vector>\n" + withBody(""),
                                  Diags, Fourth)));
  EXPECT_FALSE(Session.reusedPreamble());
  EXPECT_TRUE(Stored.Diagnostics.empty()) << dump();
  ASSERT_EQ(Fourth.size(), 2u);
  EXPECT_EQ(at(Fourth[0].Loc), "4:14");
}

TEST_F(KernelSourceParserTest, Session_FindsWhatParseKernelSourcesFinds) {
  // clang-format off
  std::string Text = R"cpp(#include "NativeFunctions.h"
namespace sk {
static void helper(const Tensor &T) { (void)T.item(); }
SK_META_FUNC(pair)(const Tensor &self, int64_t dim) {
  helper(self);
  set_output_raw_strided(0, self.sizes(), {}, self.options());
}
SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, Tensor &out) {}
} // namespace sk
)cpp";
  // clang-format on
  std::string Path = writeFile("same.cpp", Text);
  std::vector<KernelDecl> Tool = parseFiles({Path});
  std::string ToolDiagnostics = dump();
  Stored.Diagnostics.clear();
  KernelSourceSession Session(Options);
  std::vector<KernelDecl> Cached;
  ASSERT_FALSE(bool(Session.parse(Path, Text, Diags, Cached)));
  EXPECT_EQ(dump(), ToolDiagnostics);
  ASSERT_EQ(Cached.size(), Tool.size());
  for (size_t I = 0; I != Tool.size(); ++I) {
    EXPECT_EQ(Cached[I].Name, Tool[I].Name);
    EXPECT_EQ(at(Cached[I].Loc), at(Tool[I].Loc));
    EXPECT_EQ(Cached[I].IsInvalid, Tool[I].IsInvalid);
    EXPECT_EQ(Cached[I].Facts.size(), Tool[I].Facts.size());
    EXPECT_EQ(Cached[I].DeclaredParamTypes, Tool[I].DeclaredParamTypes);
  }
  const BodyFact *Read = findFact(Cached[0], BodyFact::FK_DataAccess, "item");
  ASSERT_TRUE(Read);
  ASSERT_EQ(Read->Path.size(), 1u);
  EXPECT_EQ(Read->Path[0].Function, "helper");
}

TEST_F(KernelSourceParserTest,
       Session_WithoutInstantiations_FindsTheSameKernels) {
  // clang-format off
  std::string Text = R"cpp(#include "NativeFunctions.h"
namespace sk {
template <typename T> void fill(T Value) { Value.missing(); }
SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
                          const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}
SK_IMPL_FUNC(add_out)(const Tensor &self, const Tensor &other,
                      const Scalar &alpha, const Tensor &out) {
  fill(1);
}
} // namespace sk
)cpp";
  // clang-format on
  std::string Path = writeFile("lazy.cpp", Text);
  // Instantiated: the error inside fill<int>.
  KernelSourceSession Full(Options);
  std::vector<KernelDecl> Instantiated;
  ASSERT_FALSE(bool(Full.parse(Path, Text, Diags, Instantiated)));
  EXPECT_EQ(Diags.getNumErrors(), 1u) << dump();
  // Not instantiated: the same kernels and facts, without that error, and
  // without "used but not defined" for what was left out.
  Stored.Diagnostics.clear();
  SourceMgr LazySM;
  StoredDiagnosticConsumer LazyStored;
  DiagnosticsEngine LazyDiags(LazySM, LazyStored);
  KernelSourceOptions Lazy = Options;
  Lazy.InstantiateFunctionTemplates = false;
  KernelSourceSession Fast(Lazy);
  std::vector<KernelDecl> Uninstantiated;
  ASSERT_FALSE(bool(Fast.parse(Path, Text, LazyDiags, Uninstantiated)));
  EXPECT_EQ(LazyDiags.getNumErrors(), 0u);
  EXPECT_TRUE(LazyStored.Diagnostics.empty());
  ASSERT_EQ(Uninstantiated.size(), Instantiated.size());
  for (size_t I = 0; I != Instantiated.size(); ++I) {
    EXPECT_EQ(Uninstantiated[I].Name, Instantiated[I].Name);
    EXPECT_EQ(Uninstantiated[I].Facts.size(), Instantiated[I].Facts.size());
    EXPECT_EQ(Uninstantiated[I].OutputsSet.All, Instantiated[I].OutputsSet.All);
  }
}
