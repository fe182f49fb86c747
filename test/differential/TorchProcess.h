//===--- TorchProcess.h - PyTorch on a GPU, in a python3 beside us -*- C++ -*-//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PyTorch's CUDA kernels as a reference: torch_cuda.py, run by a python3
/// process that this one speaks to over two pipes, calls an operator by
/// schema name on arguments rebuilt on the GPU with their strides, and
/// either times it (skc-bench-kernels-cuda) or sends its results back
/// (the differential test's CUDA half). The PyTorch that Python imports
/// need not match the libtorch the rest of the test links, so this works
/// on a GPU machine that has PyTorch and nothing else.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_DIFFERENTIAL_TORCHPROCESS_H
#define SKC_TEST_DIFFERENTIAL_TORCHPROCESS_H

#include "TorchBridge.h"

#include <cstdio>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace skdiff {

/// The path of torch_cuda.py: $SKC_TORCH_CUDA_SCRIPT, else the source
/// tree's copy.
std::string getTorchCUDAScript();

/// python3 running torch_cuda.py.
class TorchProcess {
public:
  /// Starts \p Script with \p Python. Returns nullptr, with the reason in
  /// \p Why, when it cannot start, or PyTorch is missing or sees no GPU.
  static std::unique_ptr<TorchProcess>
  start(const std::string &Python, const std::string &Script, std::string &Why);

  ~TorchProcess();
  TorchProcess(const TorchProcess &) = delete;
  TorchProcess &operator=(const TorchProcess &) = delete;

  /// "PyTorch 2.11.0 on NVIDIA H100 80GB HBM3".
  const std::string &description() const { return Description; }

  /// Times \p N calls of `Name.Overload` on \p Args, one at a time between
  /// two CUDA events: ms each, or none and PyTorch's error in \p Error.
  std::vector<double> time(const std::string &Name, const std::string &Overload,
                           const std::vector<PlainValue> &Args, int N,
                           std::string &Error);

  /// Calls `Name.Overload` once on \p Args on the GPU; its results come back
  /// to the CPU with their strides. A call that leaves PyTorch's CUDA
  /// context unusable (a device-side assert) is PyTorch's error, and the
  /// next runs in a fresh one (Note [Workers] in torch_cuda.py). Throws
  /// when the process answers nothing or nonsense.
  TorchOutcome call(const std::string &Name, const std::string &Overload,
                    const std::vector<PlainValue> &Args);

  /// False once the process has closed its end of the pipe.
  bool isAlive() const { return Alive; }

private:
  TorchProcess(pid_t Pid, FILE *In, FILE *Out);

  /// Sends \p Request and returns the reply's line, empty once the process
  /// has gone.
  std::string ask(const std::string &Request);

  pid_t Pid;
  FILE *In;
  FILE *Out;
  bool Alive = true;
  std::string Description;
};

} // namespace skdiff

#endif // SKC_TEST_DIFFERENTIAL_TORCHPROCESS_H
