//===--- DeviceChecks.cpp - Checks kernels make, reported later -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/DeviceChecks.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAGuard.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace sk {
namespace cuda {

namespace {

/// A check handed out and not read yet.
struct PendingCheck {
  enum StateKind {
    /// Its DeviceCheck lives: its kernels may not be queued yet.
    Open,
    /// Handed back with reportLater: read at the next wait.
    Handed,
    /// Destroyed without reportLater: read, and not reported.
    Dropped,
  };
  cudaStream_t Stream;
  int Slot;
  StateKind State;
  DeviceCheckReport Report;
};

/// The checks of one device: its records, their pinned image on the host
/// and the pending checks in the order they were made.
struct DeviceCheckTable {
  std::mutex Mutex;
  DeviceCheckRecord *Records = nullptr;
  DeviceCheckRecord *HostRecords = nullptr;
  std::vector<int> FreeSlots;
  std::vector<PendingCheck> Pending;
};

/// The table of device \p Index; made on first use when \p Create, else
/// null until then. Kept for the process.
DeviceCheckTable *tableOf(DeviceIndex Index, bool Create) {
  static std::mutex Mutex;
  static DeviceCheckTable *Tables[kMaxCUDADevices] = {};
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Tables[Index] && Create) {
    CUDAGuard Guard(Index);
    auto *T = new DeviceCheckTable;
    size_t Bytes = kDeviceCheckSlots * sizeof(DeviceCheckRecord);
    void *Records = nullptr, *HostRecords = nullptr;
    SK_CUDA_CHECK(cudaMalloc(&Records, Bytes));
    SK_CUDA_CHECK(cudaHostAlloc(&HostRecords, Bytes, cudaHostAllocDefault));
    T->Records = static_cast<DeviceCheckRecord *>(Records);
    T->HostRecords = static_cast<DeviceCheckRecord *>(HostRecords);
    for (int Slot = kDeviceCheckSlots - 1; Slot >= 0; --Slot)
      T->FreeSlots.push_back(Slot);
    Tables[Index] = T;
  }
  return Tables[Index];
}

/// The first failed check's report and record.
struct Failure {
  DeviceCheckReport Report;
  DeviceCheckRecord Record;
};

/// Reads the closed checks of \p T made on \p Stream, or on every stream
/// of the current device when \p All, with one copy, and frees their
/// slots. The caller holds T's mutex. A check is closed after its kernels
/// are queued: the copy, queued on their stream after them (or after a
/// wait for the device), sees what they wrote.
std::optional<Failure> takeChecks(DeviceCheckTable &T, cudaStream_t Stream,
                                  bool All) {
  auto Which = [&](const PendingCheck &P) {
    return P.State != PendingCheck::Open && (All || P.Stream == Stream);
  };
  int First = kDeviceCheckSlots, Last = -1;
  for (const PendingCheck &P : T.Pending)
    if (Which(P)) {
      First = std::min(First, P.Slot);
      Last = std::max(Last, P.Slot);
    }
  if (Last < 0)
    return std::nullopt;
  // A check closed on a non-blocking stream since the caller's wait
  // queued its kernel after that wait, and the legacy stream's copy would
  // not wait for it.
  if (All)
    SK_CUDA_CHECK(cudaDeviceSynchronize());
  // Slots between theirs may belong to other streams' running kernels;
  // those bytes are copied and never looked at.
  SK_CUDA_CHECK(cudaMemcpyAsync(
      T.HostRecords + First, T.Records + First,
      size_t(Last - First + 1) * sizeof(DeviceCheckRecord),
      cudaMemcpyDeviceToHost, Stream));
  SK_CUDA_CHECK(cudaStreamSynchronize(Stream));
  std::optional<Failure> FirstFailure;
  std::vector<PendingCheck> Kept;
  for (PendingCheck &P : T.Pending) {
    if (!Which(P)) {
      Kept.push_back(std::move(P));
      continue;
    }
    const DeviceCheckRecord &R = T.HostRecords[P.Slot];
    if (R.Code != 0 && P.State == PendingCheck::Handed && !FirstFailure)
      FirstFailure = Failure{std::move(P.Report), R};
    T.FreeSlots.push_back(P.Slot);
  }
  T.Pending = std::move(Kept);
  return FirstFailure;
}

/// Throws \p F's error.
void report(const Failure &F) {
  F.Report(static_cast<int64_t>(F.Record.Code),
           static_cast<int64_t>(F.Record.Value));
  SK_INTERNAL_ASSERT(false, "a device check's report returned");
}

/// The pending entry of \p Slot in \p T, whose mutex the caller holds.
PendingCheck &pendingOf(DeviceCheckTable &T, int Slot) {
  auto It = std::find_if(T.Pending.begin(), T.Pending.end(),
                         [&](const PendingCheck &P) { return P.Slot == Slot; });
  SK_INTERNAL_ASSERT(It != T.Pending.end(), "device check ", Slot,
                     " is not pending");
  return *It;
}

bool isLaunchBlocking() {
  const char *E = std::getenv("CUDA_LAUNCH_BLOCKING");
  return E && std::strcmp(E, "1") == 0;
}

} // namespace

DeviceCheck::DeviceCheck() : Stream(getCurrentCUDAStream()) {
  DeviceCheckTable &T = *tableOf(Stream.device_index(), /*Create=*/true);
  std::unique_lock<std::mutex> Lock(T.Mutex);
  while (T.FreeSlots.empty()) {
    // Every slot waits for a read: wait for the device and read them all
    // (those of other threads' live checks stay).
    Lock.unlock();
    CUDAGuard Guard(Stream.device_index());
    device_synchronize();
    Lock.lock();
  }
  Slot = T.FreeSlots.back();
  T.FreeSlots.pop_back();
  Record = &T.Records[Slot].Code;
  T.Pending.push_back({Stream.stream(), Slot, PendingCheck::Open, nullptr});
  Lock.unlock();
  SK_CUDA_CHECK(cudaMemsetAsync(&T.Records[Slot], 0, sizeof(DeviceCheckRecord),
                                Stream.stream()));
}

DeviceCheck::~DeviceCheck() {
  if (Handed)
    return;
  DeviceCheckTable &T = *tableOf(Stream.device_index(), /*Create=*/false);
  std::lock_guard<std::mutex> Lock(T.Mutex);
  for (PendingCheck &P : T.Pending)
    if (P.Slot == Slot)
      P.State = PendingCheck::Dropped;
}

void DeviceCheck::reportLater(DeviceCheckReport Report) {
  SK_INTERNAL_ASSERT(!Handed, "a device check reported twice");
  Handed = true;
  DeviceCheckTable &T = *tableOf(Stream.device_index(), /*Create=*/false);
  {
    std::lock_guard<std::mutex> Lock(T.Mutex);
    PendingCheck &P = pendingOf(T, Slot);
    P.State = PendingCheck::Handed;
    P.Report = std::move(Report);
  }
  if (isLaunchBlocking())
    Stream.synchronize();
}

void reportDeviceChecks(const CUDAStream &S) {
  DeviceCheckTable *T = tableOf(S.device_index(), /*Create=*/false);
  if (!T)
    return;
  std::optional<Failure> F;
  {
    std::lock_guard<std::mutex> Lock(T->Mutex);
    if (T->Pending.empty())
      return;
    CUDAGuard Guard(S.device_index());
    F = takeChecks(*T, S.stream(), /*All=*/false);
  }
  if (F)
    report(*F);
}

void reportDeviceChecks(DeviceIndex Index) {
  DeviceCheckTable *T = tableOf(Index, /*Create=*/false);
  if (!T)
    return;
  std::optional<Failure> F;
  {
    std::lock_guard<std::mutex> Lock(T->Mutex);
    if (T->Pending.empty())
      return;
    CUDAGuard Guard(Index);
    F = takeChecks(*T, nullptr, /*All=*/true);
  }
  if (F)
    report(*F);
}

} // namespace cuda
} // namespace sk
