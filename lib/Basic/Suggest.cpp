//===--- Suggest.cpp - "did you mean" candidates --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/Suggest.h"

#include <algorithm>

using namespace llvm;

std::string skc::suggestClosest(StringRef Typo, ArrayRef<StringRef> Candidates) {
  unsigned MaxDistance = std::max<unsigned>(1, Typo.size() / 3);
  StringRef Best;
  unsigned BestDistance = MaxDistance + 1;
  for (StringRef C : Candidates) {
    if (C == Typo)
      continue;
    unsigned D = Typo.edit_distance(C, /*AllowReplacements=*/true,
                                    /*MaxEditDistance=*/MaxDistance);
    if (D < BestDistance) {
      BestDistance = D;
      Best = C;
    }
  }
  return Best.str();
}
