//===--- SafetensorsFuzzer.cpp - libFuzzer target for safetensors files ---===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-fuzz-safetensors: each input is a whole safetensors file, opened
/// from memory (memfd) as a file on disk is. Every tensor of a header that
/// passes the checks is loaded onto meta, mapped and copied, and each of
/// its bytes read, so that AddressSanitizer sees any read outside the file.
///
/// Invariants: a bad file throws sk::Error, nothing else; a good one gives
/// tensors of the header's shape and dtype whose bytes are the file's,
/// whether mapped or copied; otherwise the target traps.
///
//===----------------------------------------------------------------------===//

#include "sk/serialize/Safetensors.h"

#include "sk/util/Exception.h"

#include <cstdint>
#include <cstring>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace st = sk::safetensors;

/// Checks every tensor of the file at \p Path; traps on a broken invariant.
static void loadEverything(const std::string &Path) {
  st::SafeOpen File(Path);
  for (const st::TensorInfo &Info : File.header().Tensors) {
    sk::Tensor Meta = File.get_tensor(Info.Name, sk::kMeta);
    sk::Tensor Mapped = File.get_tensor(Info.Name, sk::kCPU, st::LoadMode::Map);
    sk::Tensor Copied =
        File.get_tensor(Info.Name, sk::kCPU, st::LoadMode::Copy);
    for (const sk::Tensor *T : {&Meta, &Mapped, &Copied})
      if (T->sizes() != sk::IntArrayRef(Info.Shape) || T->dtype() != Info.Dtype)
        __builtin_trap();
    if (Mapped.nbytes() != Info.End - Info.Begin ||
        (Mapped.nbytes() &&
         std::memcmp(Mapped.data_ptr(), Copied.data_ptr(), Mapped.nbytes())))
      __builtin_trap();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  int Fd = ::memfd_create("skc-fuzz-safetensors", MFD_CLOEXEC);
  if (Fd < 0)
    return 0;
  if (::write(Fd, Data, Size) == static_cast<ssize_t>(Size)) {
    try {
      loadEverything("/proc/self/fd/" + std::to_string(Fd));
    } catch (const sk::Error &) {
      // A clear error is what a bad file must give.
    }
  }
  ::close(Fd);
  return 0;
}
