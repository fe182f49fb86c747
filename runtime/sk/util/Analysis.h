//===--- Analysis.h - Marks for skc's checks of kernel sources --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc parses kernel sources with Clang and -DSKC_ANALYSIS=1. These macros
/// mark runtime APIs for its checks with Clang annotations, so that skc
/// recognises them by the mark rather than by their names; to every other
/// compiler they are nothing.
///
///   SK_SETS_OUTPUT(I)  the function sets output I of the structured kernel
///                      (MetaBase) it is handed, on every path that returns
///                      (Note [Outputs on every path] in skc's
///                      lib/Parse/MetaOutputFlow.cpp)
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_ANALYSIS_H
#define SK_UTIL_ANALYSIS_H

#if defined(SKC_ANALYSIS) && defined(__clang__)
#define SK_SETS_OUTPUT(I) [[clang::annotate("skc.sets_output", I)]]
#else
#define SK_SETS_OUTPUT(I)
#endif

#endif // SK_UTIL_ANALYSIS_H
