//===--- Comparison.h - The six comparisons of CompareOps -------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// eq, ne, lt, le, gt and ge as the CPU and CUDA kernels of CompareOps
/// dispatch them: a kind per comparison, its operator on host and device,
/// and the list each backend registers its impls from.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_COMPARISON_H
#define SKC_KERNELS_SHARED_COMPARISON_H

#include "sk/util/HostDevice.h"

#include <type_traits>

namespace sk {
namespace kernels {

enum class CompareKind { Eq, Ne, Lt, Le, Gt, Ge };

/// A op B for the comparison \p Kind.
template <CompareKind Kind, typename M>
SK_HOST_DEVICE inline bool compare(M A, M B) {
  if constexpr (Kind == CompareKind::Eq)
    return A == B;
  else if constexpr (Kind == CompareKind::Ne)
    return A != B;
  else if constexpr (Kind == CompareKind::Lt)
    return A < B;
  else if constexpr (Kind == CompareKind::Le)
    return A <= B;
  else if constexpr (Kind == CompareKind::Gt)
    return A > B;
  else
    return A >= B;
}

/// Calls \p F with std::integral_constant<CompareKind, Kind>, for a kind
/// known only at run time.
template <typename Fn> void visitCompareKind(CompareKind Kind, Fn &&F) {
  switch (Kind) {
  case CompareKind::Eq:
    return F(std::integral_constant<CompareKind, CompareKind::Eq>());
  case CompareKind::Ne:
    return F(std::integral_constant<CompareKind, CompareKind::Ne>());
  case CompareKind::Lt:
    return F(std::integral_constant<CompareKind, CompareKind::Lt>());
  case CompareKind::Le:
    return F(std::integral_constant<CompareKind, CompareKind::Le>());
  case CompareKind::Gt:
    return F(std::integral_constant<CompareKind, CompareKind::Gt>());
  case CompareKind::Ge:
    return F(std::integral_constant<CompareKind, CompareKind::Ge>());
  }
}

} // namespace kernels
} // namespace sk

/// X(name, Kind) for each comparison: the operator's name and its
/// CompareKind.
#define SK_FOR_EACH_COMPARISON(X)                                              \
  X(eq, Eq) X(ne, Ne) X(lt, Lt) X(le, Le) X(gt, Gt) X(ge, Ge)

#endif // SKC_KERNELS_SHARED_COMPARISON_H
