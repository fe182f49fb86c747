//===--- CopyBytes.h - Bulk copies of bytes ---------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// copyBytes, memcpy for the kernels' bulk copies (cat, stack, copy_): a
/// loop of vector loads and stores, as ATen's cat_serial_kernel is.
///
/// Note [Copies into fresh pages]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// A functional op's result is freshly mapped memory: its first write to
/// each page faults, and the kernel clears the page. glibc's memcpy copies
/// between 2 KiB and 1 MiB with `rep movsb`, which on the AMD machine
/// measured copies into such pages 25 % slower than a vector loop does
/// (16 MiB chunks into a fresh 64 MiB buffer, 256 KiB at a time: 42–43 ms
/// against 34 ms), and no faster into pages already mapped (docs/
/// performance.md). The loop is bound by bandwidth, so it runs on AVX2 at
/// most (Note [AVX-512 and bandwidth-bound kernels] in sk/iter/Loops.h).
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_COPYBYTES_H
#define SK_ITER_COPYBYTES_H

#include <cstddef>

namespace sk {

/// Copies \p N bytes from \p Src to \p Dst, which must not overlap.
void copyBytes(void *Dst, const void *Src, size_t N);

} // namespace sk

#endif // SK_ITER_COPYBYTES_H
