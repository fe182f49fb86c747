//===--- TorchDLPackAbsent.cpp - No libtorch for the DLPack test ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "TorchDLPack.h"

namespace torchside {

bool available(std::string &Why) {
  Why = "libtorch 2.x was not found when skc was configured "
        "(utils/fetch-libtorch.sh puts it where CMake looks)";
  return false;
}
DLManagedTensor *exportFromTorch(const std::string &) { return nullptr; }
long torchUseCount() { return 0; }
Seen importIntoTorch(DLManagedTensor *) { return {}; }
void releaseImported() {}

} // namespace torchside
