//===--- CatBatch.h - cat's inputs copied by one kernel ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The plan of cat's byte-copying CUDA path (TensorLists.cu). When the
/// output and every input are row-major of one dtype, the output is Rows
/// rows, each the inputs' chunks side by side. One kernel launch copies a
/// batch of up to kCatBatchSize inputs (ATen's CatArrayBatchedCopy): block
/// row blockIdx.y is one input, whose threads copy it in units of
/// UnitBytes, the widest of 16, 8, 4, 2 and 1 that every address and
/// length allows. A unit's row and column in the output come from one
/// division by the chunk's length (IntDivider). It replaces one
/// cudaMemcpy2DAsync per input: a launch each, and a strided walk by the
/// copy engines (docs/performance.md has what that cost).
///
/// Plain C++ as well as CUDA, so that the host tests check the plan and
/// the mapping without a GPU.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_CATBATCH_H
#define SKC_KERNELS_CUDA_CATBATCH_H

#include "OffsetCalculator.h"

#include "sk/util/HostDevice.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace sk {
namespace cuda {

/// The most inputs one launch copies; the parameter block stays under 4 KB.
constexpr int kCatBatchSize = 64;

/// One input of a batch, in units: Units of them, contiguous at Src, in
/// rows of ChunkUnits; row R goes to unit DstBase + R * OutRowUnits of the
/// output.
struct CatPiece {
  const char *Src = nullptr;
  int32_t Units = 0;
  IntDivider<int32_t> ChunkUnits;
  int64_t DstBase = 0;
};

/// The output unit that unit \p Unit of \p Piece goes to.
SK_HOST_DEVICE inline int64_t
catDestinationUnit(const CatPiece &Piece, int64_t OutRowUnits, int32_t Unit) {
  int32_t Row = Piece.ChunkUnits.div(Unit);
  int32_t Column = Unit - Row * Piece.ChunkUnits.divisor();
  return Piece.DstBase + int64_t(Row) * OutRowUnits + Column;
}

/// One input as cat's byte-copying path sees it: Rows chunks of
/// ChunkBytes, contiguous at Src.
struct CatInput {
  const void *Src;
  int64_t ChunkBytes;
};

/// What the kernel launches copy: the pieces of every input, in batches of
/// kCatBatchSize.
struct CatPlan {
  int UnitBytes = 1;
  int64_t OutRowUnits = 0;
  std::vector<CatPiece> Pieces;
};

/// The plan for copying \p Inputs, \p Rows chunks each, side by side into
/// rows of \p OutRowBytes at \p Dst; std::nullopt when an input has 2^31
/// units or more (the caller copies input by input). Inputs with no
/// elements have no piece.
inline std::optional<CatPlan>
planCatBatches(const std::vector<CatInput> &Inputs, const void *Dst,
               int64_t Rows, int64_t OutRowBytes) {
  // Every address, length and offset in bytes must be a multiple of the
  // unit.
  uint64_t Bits =
      reinterpret_cast<uintptr_t>(Dst) | static_cast<uint64_t>(OutRowBytes);
  int64_t Offset = 0;
  for (const CatInput &In : Inputs) {
    Bits |= reinterpret_cast<uintptr_t>(In.Src) |
            static_cast<uint64_t>(In.ChunkBytes) |
            static_cast<uint64_t>(Offset);
    Offset += In.ChunkBytes;
  }
  CatPlan Plan;
  Plan.UnitBytes = 16;
  while (Bits % static_cast<uint64_t>(Plan.UnitBytes) != 0)
    Plan.UnitBytes /= 2;
  Plan.OutRowUnits = OutRowBytes / Plan.UnitBytes;
  Offset = 0;
  for (const CatInput &In : Inputs) {
    int64_t ChunkUnits = In.ChunkBytes / Plan.UnitBytes;
    int64_t DstBase = Offset / Plan.UnitBytes;
    Offset += In.ChunkBytes;
    if (ChunkUnits == 0 || Rows == 0)
      continue;
    if (ChunkUnits * Rows > std::numeric_limits<int32_t>::max())
      return std::nullopt;
    CatPiece Piece;
    Piece.Src = static_cast<const char *>(In.Src);
    Piece.Units = static_cast<int32_t>(ChunkUnits * Rows);
    Piece.ChunkUnits = IntDivider<int32_t>(static_cast<int32_t>(ChunkUnits));
    Piece.DstBase = DstBase;
    Plan.Pieces.push_back(Piece);
  }
  return Plan;
}

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_CATBATCH_H
