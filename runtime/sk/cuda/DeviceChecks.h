//===--- DeviceChecks.h - Checks kernels make, reported later ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Checks that CUDA kernels make of their input on the device (an index in
/// range, a probability in [0, 1]) and that the host reports at its next
/// wait for the stream, without a wait of their own.
///
/// Note [Device checks]
/// ~~~~~~~~~~~~~~~~~~~~
/// Only the device sees the values of an index tensor on the device. An
/// operator that checks them (gather, take, index_select, embedding,
/// embedding_bag, binary_cross_entropy) takes a DeviceCheck, passes
/// get() to its kernels, which record the first failure's code and value
/// there (raiseError in kernels/cuda/DeviceUtils.cuh), and hands it back
/// with reportLater and a function that throws the CPU's error from them.
/// The operator returns without waiting for its kernels, as PyTorch's do:
/// a copy back and a wait per call were most of a small gather's time, and
/// stalled the GPU's queue at every embedding lookup (docs/performance.md).
/// The runtime reads the records once it waits for the stream anyway: a
/// copy to the host (Tensor::cpu, item, the count masked_select and
/// nonzero size their output by), a cross-device copy,
/// CUDAStream::synchronize, device_synchronize. The first failed check
/// made on that stream throws there; the others made on it before the
/// wait are dropped, as their inputs may be the first one's wrong
/// results. A wait for the whole device throws the first failure made on
/// any stream and keeps the other streams' for their next waits. Checks
/// belong to a stream, not to a thread: threads that share one (the
/// default stream, a pool's) hear of each other's failures. Unlike
/// PyTorch's device-side assertions, a failed check leaves the device
/// usable and the message is the CPU's; like them, it is heard of only at
/// a wait: a program that never waits never hears of it, nor sees the
/// results it spoiled.
///
/// Under CUDA_LAUNCH_BLOCKING=1 (read at each call, as cudart reads it at
/// start) each check is read at once, and the operator itself throws, the
/// way PyTorch's users find which call failed.
///
/// The records live in one array of kDeviceCheckSlots per device, of
/// which a read copies the range its checks span in one transfer, with
/// the table's mutex released: other threads' checked operators do not
/// wait for it. A check that finds every slot pending first waits for its
/// device and reads them, keeping their failures for their stream's or
/// the device's next wait. A wait whose checks another thread's read has
/// taken (a full table's, a concurrent wait's) waits for that read to
/// end, so that their failures still throw there.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_DEVICECHECKS_H
#define SK_CUDA_DEVICECHECKS_H

#include "sk/cuda/CUDAStream.h"

#include <cstdint>
#include <functional>

namespace sk {
namespace cuda {

/// Where kernels record a failed check: a non-zero Code, the first failing
/// thread's, and its Value (an offending index, say).
struct DeviceCheckRecord {
  unsigned long long Code;
  unsigned long long Value;
};

static_assert(sizeof(DeviceCheckRecord) == 2 * sizeof(unsigned long long),
              "kernels write a record as two words");

/// Throws the error of a failed check from its record's code and value.
using DeviceCheckReport = std::function<void(int64_t Code, int64_t Value)>;

/// How many checks a device holds before a new one waits for them.
constexpr int kDeviceCheckSlots = 1024;

/// One operator call's record, zeroed on the current stream: its kernels
/// take get(), then reportLater hands it to the runtime. Destroyed without
/// reportLater (an exception before the launch), its failures are dropped
/// at the next wait.
class DeviceCheck {
public:
  DeviceCheck();
  DeviceCheck(const DeviceCheck &) = delete;
  DeviceCheck &operator=(const DeviceCheck &) = delete;
  ~DeviceCheck();

  /// What the kernels write: [0] the code, [1] the value.
  unsigned long long *get() const { return Record; }

  /// Reads the record at the next wait for the stream (now, under
  /// CUDA_LAUNCH_BLOCKING=1) and calls \p Report if a kernel failed.
  void reportLater(DeviceCheckReport Report);

private:
  CUDAStream Stream;
  int Slot;
  unsigned long long *Record;
  bool Handed = false;
};

/// Reads the checks made on \p S, which the host has just waited for;
/// throws the first failure's error (Note [Device checks]).
void reportDeviceChecks(const CUDAStream &S);

/// Reads every check made on device \p Index, whose work the host has just
/// waited for; throws the first failure's error.
void reportDeviceChecks(DeviceIndex Index);

} // namespace cuda
} // namespace sk

#endif // SK_CUDA_DEVICECHECKS_H
