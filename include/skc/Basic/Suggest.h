//===--- Suggest.h - "did you mean" candidates ------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_SUGGEST_H
#define SKC_BASIC_SUGGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace skc {

/// Returns the candidate closest to \p Typo by edit distance, if it is close
/// enough to be a plausible misspelling (at most a third of the typo's
/// length, and at least 1); otherwise an empty string. Ties go to the first.
std::string suggestClosest(llvm::StringRef Typo,
                           llvm::ArrayRef<llvm::StringRef> Candidates);

} // namespace skc

#endif // SKC_BASIC_SUGGEST_H
