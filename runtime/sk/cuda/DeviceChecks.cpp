//===--- DeviceChecks.cpp - Checks kernels make, reported later -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/DeviceChecks.h"
#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAGuard.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
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

/// A failed check, read and not reported yet.
struct Failure {
  cudaStream_t Stream;
  DeviceCheckReport Report;
  DeviceCheckRecord Record;
};

/// The checks of one device: its records, their pinned image on the host,
/// the pending checks in the order they were made, and the failures read
/// and not reported yet, at most one per stream (its first).
struct DeviceCheckTable {
  std::mutex Mutex;
  /// From the caching allocator (which frees its cache and retries when
  /// the device is full), kept for the process.
  DataPtr DeviceStorage;
  DeviceCheckRecord *Records = nullptr;
  DeviceCheckRecord *HostRecords = nullptr;
  std::vector<int> FreeSlots;
  std::vector<PendingCheck> Pending;
  std::vector<Failure> Failed;
};

/// The table of device \p Index; made on first use when \p Create, else
/// null until then. Kept for the process.
DeviceCheckTable *tableOf(DeviceIndex Index, bool Create) {
  static std::mutex Mutex;
  static DeviceCheckTable *Tables[kMaxCUDADevices] = {};
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Tables[Index] && Create) {
    CUDAGuard Guard(Index);
    auto T = std::make_unique<DeviceCheckTable>();
    size_t Bytes = kDeviceCheckSlots * sizeof(DeviceCheckRecord);
    T->DeviceStorage = CUDACachingAllocator::allocateTempStorage(Bytes);
    T->Records = static_cast<DeviceCheckRecord *>(T->DeviceStorage.get());
    void *HostRecords = nullptr;
    SK_CUDA_CHECK(cudaHostAlloc(&HostRecords, Bytes, cudaHostAllocDefault));
    T->HostRecords = static_cast<DeviceCheckRecord *>(HostRecords);
    for (int Slot = kDeviceCheckSlots - 1; Slot >= 0; --Slot)
      T->FreeSlots.push_back(Slot);
    Tables[Index] = T.release();
  }
  return Tables[Index];
}

/// Reads the closed checks of \p T made on \p Stream, or on every stream
/// of the current device when \p All, with one copy, frees their slots
/// and keeps each stream's first failure in T.Failed. The caller holds
/// T's mutex. A check is closed after its kernels are queued: the copy,
/// queued on their stream after them (or after a wait for the device),
/// sees what they wrote.
void readChecks(DeviceCheckTable &T, cudaStream_t Stream, bool All) {
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
    return;
  // Reading every stream's: the legacy stream's copy would not wait for
  // kernels on non-blocking streams, nor for those queued since the
  // caller's wait, if any.
  if (All)
    SK_CUDA_CHECK(cudaDeviceSynchronize());
  // Slots between theirs may belong to other streams' running kernels;
  // those bytes are copied and never looked at.
  SK_CUDA_CHECK(cudaMemcpyAsync(
      T.HostRecords + First, T.Records + First,
      size_t(Last - First + 1) * sizeof(DeviceCheckRecord),
      cudaMemcpyDeviceToHost, Stream));
  SK_CUDA_CHECK(cudaStreamSynchronize(Stream));
  std::vector<PendingCheck> Kept;
  for (PendingCheck &P : T.Pending) {
    if (!Which(P)) {
      Kept.push_back(std::move(P));
      continue;
    }
    const DeviceCheckRecord &R = T.HostRecords[P.Slot];
    bool StreamFailed =
        std::any_of(T.Failed.begin(), T.Failed.end(),
                    [&](const Failure &F) { return F.Stream == P.Stream; });
    if (R.Code != 0 && P.State == PendingCheck::Handed && !StreamFailed)
      T.Failed.push_back({P.Stream, std::move(P.Report), R});
    T.FreeSlots.push_back(P.Slot);
  }
  T.Pending = std::move(Kept);
}

/// Takes the failure of \p Stream, or the first read of any stream when
/// \p All, off T.Failed. The caller holds T's mutex.
std::optional<Failure> takeFailure(DeviceCheckTable &T, cudaStream_t Stream,
                                   bool All) {
  auto It =
      std::find_if(T.Failed.begin(), T.Failed.end(),
                   [&](const Failure &F) { return All || F.Stream == Stream; });
  if (It == T.Failed.end())
    return std::nullopt;
  Failure F = std::move(*It);
  T.Failed.erase(It);
  return F;
}

/// Throws \p F's error.
void report(const Failure &F) {
  F.Report(static_cast<int64_t>(F.Record.Code),
           static_cast<int64_t>(F.Record.Value));
  SK_INTERNAL_ASSERT(false, "a device check's report returned");
}

/// Reads the checks of \p Stream, or of every stream when \p All, on
/// device \p Index, which the host has waited for, and throws the first
/// failure among them.
void readAndReport(DeviceIndex Index, cudaStream_t Stream, bool All) {
  DeviceCheckTable *T = tableOf(Index, /*Create=*/false);
  if (!T)
    return;
  std::optional<Failure> F;
  {
    std::lock_guard<std::mutex> Lock(T->Mutex);
    if (T->Pending.empty() && T->Failed.empty())
      return;
    CUDAGuard Guard(Index);
    readChecks(*T, Stream, All);
    F = takeFailure(*T, Stream, All);
  }
  if (F)
    report(*F);
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
  std::lock_guard<std::mutex> Lock(T.Mutex);
  CUDAGuard Guard(Stream.device_index());
  if (T.FreeSlots.empty()) {
    // Every slot waits for a read: wait for the device and read them. The
    // failures wait for their streams' waits; this call has none.
    readChecks(T, nullptr, /*All=*/true);
    SK_CHECK(!T.FreeSlots.empty(), "more than ", kDeviceCheckSlots,
             " CUDA operators are checking their input at once on device ",
             static_cast<int>(Stream.device_index()));
  }
  int Free = T.FreeSlots.back();
  SK_CUDA_CHECK(cudaMemsetAsync(&T.Records[Free], 0, sizeof(DeviceCheckRecord),
                                Stream.stream()));
  T.FreeSlots.pop_back();
  Slot = Free;
  Record = &T.Records[Slot].Code;
  T.Pending.push_back({Stream.stream(), Slot, PendingCheck::Open, nullptr});
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
  readAndReport(S.device_index(), S.stream(), /*All=*/false);
}

void reportDeviceChecks(DeviceIndex Index) {
  readAndReport(Index, nullptr, /*All=*/true);
}

} // namespace cuda
} // namespace sk
