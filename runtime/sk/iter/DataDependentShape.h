//===--- DataDependentShape.h - Outputs sized by input data -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What a meta function does when its output's shape depends on the values
/// of an input (masked_select, nonzero): Note [Data-dependent output
/// shapes].
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_DATADEPENDENTSHAPE_H
#define SK_ITER_DATADEPENDENTSHAPE_H

#include "sk/core/Tensor.h"
#include "sk/util/Analysis.h"

namespace sk {

// Note [Data-dependent output shapes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The output of masked_select has as many elements as the mask has true
// values, and the output of nonzero as many rows as self has non-zero
// elements: the shape is a function of the data, not of the input shapes.
// A meta function must describe the output before impl() runs, so:
//
//  - on the Meta backend there is no data to count. Instead of inventing a
//    shape (an upper bound, a zero-size placeholder) that later shape
//    computations would silently build on, the meta function calls
//    refuse_meta_input, which raises a NotImplementedError that names the
//    op and says why:
//
//      nonzero(): the output's size depends on the values of 'self', which
//      a meta tensor does not have; ...
//
//    It does so only after the checks that need no data (dtypes, the
//    broadcast of self and mask), so that shape errors still surface on
//    meta tensors first. PyTorch's meta kernels for these ops fail without
//    saying which op or why; FakeTensor-style symbolic sizes are out of
//    scope for the runtime.
//
//  - past that call the tensors have data (CPU, or CUDA through a copy),
//    and the meta function reads it to size the output. The impl then fills
//    exactly that many elements.
//
// skc's rule that a meta function never reads tensor data
// (err_meta_reads_data) knows this: refuse_meta_input is marked
// SK_REFUSES_META_INPUT, and a read that every path reaches only through
// such a call is not an error.

/// Raises NotImplementedError when \p T, the input of \p Op named
/// \p Input whose values decide the output's size, is a meta tensor.
SK_REFUSES_META_INPUT
void refuse_meta_input(const char *Op, const char *Input, const Tensor &T);

} // namespace sk

#endif // SK_ITER_DATADEPENDENTSHAPE_H
