//===--- MetaConsistencyTest.cpp - Tests of sk/testing/MetaConsistency ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Operators whose Meta kernels agree with their CPU kernels, disagree with
// them in sizes, strides or dtype, refuse what CPU runs, or are refused on
// purpose: the checker must tell them apart.
//
//===----------------------------------------------------------------------===//

#include "sk/testing/MetaConsistency.h"

#include "TestUtils.h"
#include "sk/core/EmptyTensor.h"
#include "sk/dispatch/Library.h"
#include "sk/ops/Factories.h"

#include <gtest/gtest.h>

#include <optional>

using namespace sk;
using sk::testing::checkMetaConsistency;
using sk::testing::MetaConsistencyReport;

namespace {

/// `twice(Tensor self, int dim=0) -> Tensor`: the input's shape with
/// dimension `dim` doubled; an error for a scalar.
std::vector<int64_t> twiceShape(const Tensor &Self, int64_t Dim) {
  SK_CHECK(Self.dim() > 0, "twice(): expected a tensor with dimensions");
  SK_CHECK(Dim >= -Self.dim() && Dim < Self.dim(), "twice(): bad dim ", Dim);
  std::vector<int64_t> Sizes(Self.sizes().begin(), Self.sizes().end());
  Sizes[Dim < 0 ? Dim + Self.dim() : Dim] *= 2;
  return Sizes;
}

Tensor twiceCPU(const Tensor &Self, int64_t Dim) {
  return empty(twiceShape(Self, Dim), TensorOptions().dtype(Self.dtype()));
}
Tensor twiceMeta(const Tensor &Self, int64_t Dim) {
  return empty(twiceShape(Self, Dim),
               TensorOptions().dtype(Self.dtype()).device(kMeta));
}
/// Wrong on Meta three ways, one per operator.
Tensor twiceMetaWrongSize(const Tensor &Self, int64_t Dim) {
  std::vector<int64_t> Sizes = twiceShape(Self, Dim);
  Sizes[0] += 1;
  return empty(Sizes, TensorOptions().dtype(Self.dtype()).device(kMeta));
}
Tensor twiceMetaWrongDtype(const Tensor &Self, int64_t Dim) {
  return empty(twiceShape(Self, Dim),
               TensorOptions().dtype(kDouble).device(kMeta));
}
Tensor twiceMetaTransposed(const Tensor &Self, int64_t Dim) {
  std::vector<int64_t> Sizes = twiceShape(Self, Dim);
  std::reverse(Sizes.begin(), Sizes.end());
  Tensor T = empty(Sizes, TensorOptions().dtype(Self.dtype()).device(kMeta));
  std::vector<int64_t> Perm;
  for (int64_t D = T.dim() - 1; D >= 0; --D)
    Perm.push_back(D);
  return T.permute(Perm);
}
Tensor refuse(const Tensor &, int64_t) {
  SK_CHECK(false, "twice(): the Meta kernel refuses");
  return Tensor();
}

/// `square_product(Tensor a, Tensor b) -> Tensor`: like mm, but for two
/// square float matrices of one size only, which a generic sample of one
/// shape for every tensor must include.
Tensor squareProduct(const Tensor &A, const Tensor &B) {
  SK_CHECK(A.dim() == 2 && A.size(0) == A.size(1) && A.sizes() == B.sizes() &&
               A.dtype() == kFloat && B.dtype() == kFloat,
           "square_product(): expected two square float matrices of one size");
  return empty(A.sizes(), TensorOptions().dtype(kFloat).device(A.device()));
}

/// `bags(Tensor weight, Tensor indices, Tensor offsets, Tensor? w=None)`:
/// embedding_bag's checks of its indices and offsets, which only indices
/// sorted from 0 pass; the result has one row of the table per bag.
Tensor bags(const Tensor &Weight, const Tensor &Indices, const Tensor &Offsets,
            const std::optional<Tensor> &PerSampleWeights) {
  SK_CHECK(Weight.dim() == 2 && Weight.dtype() == kFloat &&
               Indices.dim() == 1 && Indices.dtype() == kLong &&
               Offsets.dim() == 1 && Offsets.dtype() == kLong &&
               Offsets.size(0) > 0 && !PerSampleWeights,
           "bags(): bad arguments");
  Tensor Result = empty({Offsets.size(0), Weight.size(1)},
                        TensorOptions().dtype(kFloat).device(Weight.device()));
  if (Offsets.is_meta())
    return Result;
  Tensor DenseIndices = Indices.contiguous(),
         DenseOffsets = Offsets.contiguous();
  const int64_t *I = DenseIndices.data_ptr<int64_t>();
  const int64_t *O = DenseOffsets.data_ptr<int64_t>();
  for (int64_t K = 0; K != Indices.size(0); ++K)
    SK_CHECK(I[K] >= 0 && I[K] < Weight.size(0), "bags(): index out of range");
  SK_CHECK(O[0] == 0, "bags(): the first offset must be 0");
  for (int64_t K = 0; K != Offsets.size(0); ++K)
    SK_CHECK(O[K] <= Indices.size(0) && (K == 0 || O[K - 1] <= O[K]),
             "bags(): offsets must ascend within the indices");
  return Result;
}

SK_LIBRARY(mctest, m) {
  for (const char *Name :
       {"good", "wrong_size", "wrong_dtype", "wrong_strides", "refused"})
    m.def(std::string(Name) + "(Tensor self, int dim=0) -> Tensor");
  m.def("tensorless(int n) -> Tensor");
  m.def("square_product(Tensor a, Tensor b) -> Tensor");
  m.def("bags(Tensor weight, Tensor indices, Tensor offsets, "
        "Tensor? per_sample_weights=None) -> Tensor");
}

SK_LIBRARY_IMPL(mctest, CPU, m) {
  for (const char *Name :
       {"good", "wrong_size", "wrong_dtype", "wrong_strides", "refused"})
    m.impl(Name, SK_FN(twiceCPU));
  m.impl("square_product", SK_FN(squareProduct));
  m.impl("bags", SK_FN(bags));
}

SK_LIBRARY_IMPL(mctest, Meta, m) {
  m.impl("good", SK_FN(twiceMeta));
  m.impl("wrong_size", SK_FN(twiceMetaWrongSize));
  m.impl("wrong_dtype", SK_FN(twiceMetaWrongDtype));
  m.impl("wrong_strides", SK_FN(twiceMetaTransposed));
  m.impl("refused", SK_FN(refuse));
  m.impl("square_product", SK_FN(squareProduct));
  m.impl("bags", SK_FN(bags));
}

/// The failures of \p R joined, for matching.
std::string failures(const MetaConsistencyReport &R) {
  std::string All;
  for (const std::string &F : R.Failures)
    All += F + "\n";
  return All;
}

TEST(MetaConsistencyTest, AgreeingKernelsPass) {
  MetaConsistencyReport R = checkMetaConsistency("mctest::good", "");
  EXPECT_TRUE(R.Failures.empty()) << failures(R);
  EXPECT_GT(R.Compared, 0u);
  // A scalar and bad dims are rejected on CPU, and not failures.
  EXPECT_GT(R.RejectedOnCPU, 0u);
  EXPECT_EQ(R.Samples, R.Compared + R.RejectedOnCPU);
}

TEST(MetaConsistencyTest, DisagreeingSizesDtypesAndStridesFail) {
  MetaConsistencyReport Size = checkMetaConsistency("mctest::wrong_size", "");
  EXPECT_NE(failures(Size).find("result 0: sizes [4, 3] on CPU, [5, 3] on "
                                "Meta"),
            std::string::npos)
      << failures(Size);
  MetaConsistencyReport Dtype =
      checkMetaConsistency("mctest::wrong_dtype", "");
  EXPECT_NE(failures(Dtype).find("dtype float32 on CPU, float64 on Meta"),
            std::string::npos)
      << failures(Dtype);
  MetaConsistencyReport Strides =
      checkMetaConsistency("mctest::wrong_strides", "");
  EXPECT_NE(failures(Strides).find("strides [3, 1] on CPU, [1, 4] on Meta"),
            std::string::npos)
      << failures(Strides);
  // A one-dimensional result has no strides to disagree on.
  EXPECT_EQ(failures(Strides).find("float32 tensors [5],"), std::string::npos);
}

TEST(MetaConsistencyTest, RefusalsFailUnlessExpected) {
  MetaConsistencyReport R = checkMetaConsistency("mctest::refused", "");
  EXPECT_NE(failures(R).find("ran on CPU, but Meta refused it: twice(): the "
                             "Meta kernel refuses"),
            std::string::npos)
      << failures(R);
  MetaConsistencyReport Expected =
      checkMetaConsistency("mctest::refused", "", /*ExpectMetaRefusal=*/true);
  EXPECT_TRUE(Expected.Failures.empty()) << failures(Expected);
  EXPECT_GT(Expected.RefusedOnMeta, 0u);
  EXPECT_EQ(Expected.FirstMetaRefusal, "twice(): the Meta kernel refuses");
  // An operator expected to refuse that runs on Meta is a failure.
  MetaConsistencyReport Ran =
      checkMetaConsistency("mctest::good", "", /*ExpectMetaRefusal=*/true);
  EXPECT_NE(failures(Ran).find("Meta ran a data-dependent operator"),
            std::string::npos);
}

// Operators whose CPU kernels accept little: the samples must still reach
// them, or their generated tests compare nothing (and skip).
TEST(MetaConsistencyTest, SamplesIncludeSquareMatrices) {
  MetaConsistencyReport R = checkMetaConsistency("mctest::square_product", "");
  EXPECT_TRUE(R.Failures.empty()) << failures(R);
  EXPECT_GT(R.Compared, 0u);
}

TEST(MetaConsistencyTest, SamplesIncludeIndicesThatAreOffsets) {
  MetaConsistencyReport R = checkMetaConsistency("mctest::bags", "");
  EXPECT_TRUE(R.Failures.empty()) << failures(R);
  EXPECT_GT(R.Compared, 0u);
}

TEST(MetaConsistencyTest, UnknownOperatorIsAnError) {
  SK_EXPECT_ERROR(checkMetaConsistency("mctest::nope", ""), "mctest::nope");
}

TEST(MetaConsistencyTest, OperatorsNothingSendsToMetaAreAnError) {
  SK_EXPECT_ERROR(checkMetaConsistency("mctest::tensorless", ""),
                  "mctest::tensorless has neither tensor nor device arguments");
}

} // namespace

namespace {

TEST(MetaConsistencyTest, DeviceAvailability) {
  EXPECT_TRUE(sk::testing::isDeviceAvailable(DeviceType::CPU));
  EXPECT_TRUE(sk::testing::isDeviceAvailable(DeviceType::Meta));
  // This binary links no CUDA backend: no allocator, no device.
  EXPECT_FALSE(sk::testing::isDeviceAvailable(DeviceType::CUDA));
}

} // namespace
