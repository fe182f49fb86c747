//===--- TorchAbsent.cpp - The bridge of a build without libtorch ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "TorchBridge.h"

#include <stdexcept>

namespace skdiff {

bool isTorchAvailable() { return false; }

std::string getTorchVersion() { return std::string(); }

TorchOutcome callTorch(const std::string &, const std::string &,
                       const std::vector<PlainValue> &) {
  throw std::logic_error("callTorch(): built without libtorch");
}

struct PreparedTorchCall::Impl {};

PreparedTorchCall::PreparedTorchCall(const std::string &, const std::string &,
                                     const std::vector<PlainValue> &) {
  throw std::logic_error("PreparedTorchCall: built without libtorch");
}

PreparedTorchCall::~PreparedTorchCall() = default;

void PreparedTorchCall::run() {}

void PreparedTorchCall::setThreads(int) {}

} // namespace skdiff
