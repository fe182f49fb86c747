//===--- Storage.cpp - The memory behind tensors --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Storage.h"
#include "sk/util/Exception.h"

#include <cstring>

namespace sk {

void StorageImpl::grow(size_t NewBytes) {
  if (NewBytes <= NBytes)
    return;
  SK_CHECK(Resizable && Alloc,
           "Trying to resize storage that is not resizable (it was created "
           "from external memory)");
  // The old bytes are copied on the host, which cannot read device memory;
  // an empty storage has none. TODO: a copy hook on Allocator
  // (c10::Allocator::copy_data) for CUDA.
  SK_CHECK_NOT_IMPLEMENTED(NBytes == 0 || !Data.device().is_cuda(),
                           "resize_(): growing the storage of a tensor on '",
                           Data.device(), "' is not supported yet");
  DataPtr NewData = Alloc->allocate(NewBytes);
  if (NBytes && Data)
    std::memcpy(NewData.get(), Data.get(), NBytes);
  Data = std::move(NewData);
  NBytes = NewBytes;
}

} // namespace sk
