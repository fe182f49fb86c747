//===--- Storage.cpp - The memory behind tensors --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Storage.h"
#include "sk/util/Exception.h"

namespace sk {

void StorageImpl::grow(size_t NewBytes) {
  if (NewBytes <= NBytes)
    return;
  SK_CHECK(Resizable && Alloc,
           "Trying to resize storage that is not resizable (it was created "
           "from external memory)");
  // The allocator copies the old bytes: a device's memory may be one the
  // host cannot read.
  DataPtr NewData = Alloc->allocate(NewBytes);
  if (NBytes && Data)
    Alloc->copyData(NewData.get(), Data.get(), NBytes);
  Data = std::move(NewData);
  NBytes = NewBytes;
}

} // namespace sk
