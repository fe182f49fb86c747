//===--- LinearAlgebra.h - What the cdist kernels share ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of cdist that the CPU and CUDA kernels share: the choice
/// of the matrix-product path and the inputs' batches flattened.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_LINEARALGEBRA_H
#define SKC_KERNELS_SHARED_LINEARALGEBRA_H

#include "sk/core/Tensor.h"

#include <cstdint>
#include <vector>

namespace sk {
namespace kernels {

/// Whether cdist computes p = 2 distances through a matrix product
/// (compute_mode: 0 or none = when either side has more than 25 rows,
/// 1 = always, 2 = never), as PyTorch's cdist_impl decides.
inline bool useMatmulForEuclid(double P, int64_t Mode, int64_t R1, int64_t R2) {
  return P == 2 && (Mode == 1 || (Mode == 0 && (R1 > 25 || R2 > 25)));
}

/// cdist's \p X1 and \p X2 with their batch dimensions broadcast to those
/// of \p Out and flattened: row-major [Batch, Rows, Columns] tensors.
struct CdistBatches {
  Tensor X1;
  Tensor X2;
  int64_t Batch = 1;
};

inline CdistBatches flattenCdistBatches(const Tensor &X1, const Tensor &X2,
                                        const Tensor &Out) {
  IntArrayRef OutSizes = Out.sizes();
  IntArrayRef BatchShape(OutSizes.data(), OutSizes.size() - 2);
  CdistBatches R;
  for (int64_t S : BatchShape)
    R.Batch *= S;
  int64_t C = X1.size(-1);
  auto Flatten = [&](const Tensor &X) {
    int64_t Rows = X.size(-2);
    std::vector<int64_t> Sizes(BatchShape.begin(), BatchShape.end());
    Sizes.push_back(Rows);
    Sizes.push_back(C);
    return X.expand(Sizes).contiguous().view({R.Batch, Rows, C});
  };
  R.X1 = Flatten(X1);
  R.X2 = Flatten(X2);
  return R;
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_LINEARALGEBRA_H
