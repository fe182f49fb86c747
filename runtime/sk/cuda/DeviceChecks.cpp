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
#include <condition_variable>
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
  /// The order the checks were made in, which decides which is first.
  uint64_t Sequence;
  StateKind State;
  /// The read that copies its record, or 0 while none does.
  uint64_t ReadBy = 0;
  DeviceCheckReport Report;
};

/// A failed check, read and not reported yet.
struct Failure {
  cudaStream_t Stream;
  uint64_t Sequence;
  DeviceCheckReport Report;
  DeviceCheckRecord Record;
};

/// The checks of one device: its records, the pending checks in the order
/// they were made, and the failures read and not reported yet, at most one
/// per stream (its first).
struct DeviceCheckTable {
  std::mutex Mutex;
  /// Notified when a read ends, its checks freed or pending again.
  std::condition_variable ReadEnded;
  /// From the caching allocator (which frees its cache and retries when
  /// the device is full), kept for the process.
  DataPtr DeviceStorage;
  DeviceCheckRecord *Records = nullptr;
  std::vector<int> FreeSlots;
  std::vector<PendingCheck> Pending;
  std::vector<Failure> Failed;
  uint64_t NextSequence = 0;
  uint64_t NextRead = 0;
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
    T->DeviceStorage = CUDACachingAllocator::allocateTempStorage(
        kDeviceCheckSlots * sizeof(DeviceCheckRecord));
    T->Records = static_cast<DeviceCheckRecord *>(T->DeviceStorage.get());
    // Zeroed once, and waited for: a read copies the span of its checks'
    // slots, which may take in another stream's check whose first zeroing
    // is still queued there. Those bytes are never looked at, but
    // compute-sanitizer's initcheck would report the copy. On the current
    // stream, which the block was allocated for.
    cudaStream_t Stream = getCurrentCUDAStream(Index).stream();
    SK_CUDA_CHECK(cudaMemsetAsync(
        T->Records, 0, kDeviceCheckSlots * sizeof(DeviceCheckRecord), Stream));
    SK_CUDA_CHECK(cudaStreamSynchronize(Stream));
    for (int Slot = kDeviceCheckSlots - 1; Slot >= 0; --Slot)
      T->FreeSlots.push_back(Slot);
    Tables[Index] = T.release();
  }
  return Tables[Index];
}

/// Keeps \p F unless its stream has an earlier failure; replaces a later
/// one.
void keepFailure(DeviceCheckTable &T, Failure F) {
  auto It =
      std::find_if(T.Failed.begin(), T.Failed.end(),
                   [&](const Failure &K) { return K.Stream == F.Stream; });
  if (It == T.Failed.end())
    T.Failed.push_back(std::move(F));
  else if (F.Sequence < It->Sequence)
    *It = std::move(F);
}

/// Reads the closed checks of \p T made on \p Stream, or on every stream
/// of the current device when \p All, that no other read has taken; frees
/// their slots and keeps each stream's first failure in T.Failed. \p Lock
/// holds T's mutex on entry and exit, and not while the copy and its wait
/// run: other threads' checked operators need not wait for the device.
/// A check is closed after its kernels are queued, so the copy, queued on
/// their stream after them (or after a wait for the device), sees what
/// they wrote. False when there was nothing to read.
bool readChecks(DeviceCheckTable &T, std::unique_lock<std::mutex> &Lock,
                cudaStream_t Stream, bool All) {
  auto IsUnread = [&](const PendingCheck &P) {
    return P.State != PendingCheck::Open && P.ReadBy == 0 &&
           (All || P.Stream == Stream);
  };
  int First = kDeviceCheckSlots, Last = -1;
  size_t Count = 0;
  for (const PendingCheck &P : T.Pending)
    if (IsUnread(P)) {
      First = std::min(First, P.Slot);
      Last = std::max(Last, P.Slot);
      ++Count;
    }
  if (Last < 0)
    return false;
  // Slots between theirs may belong to other streams' running kernels;
  // those bytes are copied and never looked at. Pageable memory: the copy
  // returns once done, and each read has its own. Allocated before the
  // checks are marked as this read's: a bad_alloc leaves them unread.
  std::vector<DeviceCheckRecord> Host(size_t(Last - First + 1));
  const uint64_t Read = ++T.NextRead;
  for (PendingCheck &P : T.Pending)
    if (IsUnread(P))
      P.ReadBy = Read;
  Lock.unlock();
  cudaError_t E = cudaSuccess;
  // Reading every stream's: the legacy stream's copy would not wait for
  // kernels on non-blocking streams, nor for those queued since the
  // caller's wait, if any.
  if (All)
    E = cudaDeviceSynchronize();
  if (E == cudaSuccess)
    E = cudaMemcpyAsync(Host.data(), T.Records + First,
                        Host.size() * sizeof(DeviceCheckRecord),
                        cudaMemcpyDeviceToHost, Stream);
  if (E == cudaSuccess)
    E = cudaStreamSynchronize(Stream);
  Lock.lock();
  // On an error, the checks stay pending, for a later read.
  auto Unmark = [&] {
    for (PendingCheck &P : T.Pending)
      if (P.ReadBy == Read)
        P.ReadBy = 0;
    T.ReadEnded.notify_all();
  };
  if (E != cudaSuccess) {
    Unmark();
    SK_CUDA_CHECK(E);
  }
  // Room for every failure first, so that nothing below throws with some
  // of this read's checks freed and others not. (FreeSlots never
  // reallocates: it was made holding every slot.)
  try {
    T.Failed.reserve(T.Failed.size() + Count);
  } catch (...) {
    Unmark();
    throw;
  }
  for (PendingCheck &P : T.Pending) {
    if (P.ReadBy != Read)
      continue;
    const DeviceCheckRecord &R = Host[size_t(P.Slot - First)];
    if (R.Code != 0 && P.State == PendingCheck::Handed)
      keepFailure(T, {P.Stream, P.Sequence, std::move(P.Report), R});
    T.FreeSlots.push_back(P.Slot);
  }
  T.Pending.erase(
      std::remove_if(T.Pending.begin(), T.Pending.end(),
                     [&](const PendingCheck &P) { return P.ReadBy == Read; }),
      T.Pending.end());
  T.ReadEnded.notify_all();
  return true;
}

/// Takes the failure of \p Stream, or the first made of any stream when
/// \p All, off T.Failed. The caller holds T's mutex.
std::optional<Failure> takeFailure(DeviceCheckTable &T, cudaStream_t Stream,
                                   bool All) {
  auto It = T.Failed.end();
  for (auto I = T.Failed.begin(); I != T.Failed.end(); ++I)
    if ((All || I->Stream == Stream) &&
        (It == T.Failed.end() || I->Sequence < It->Sequence))
      It = I;
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
/// failure among them and those kept before.
void readAndReport(DeviceIndex Index, cudaStream_t Stream, bool All) {
  DeviceCheckTable *T = tableOf(Index, /*Create=*/false);
  if (!T)
    return;
  std::optional<Failure> F;
  {
    std::unique_lock<std::mutex> Lock(T->Mutex);
    if (T->Pending.empty() && T->Failed.empty())
      return;
    CUDAGuard Guard(Index);
    // Checks made before this wait that another thread's read has taken
    // (a full table's, a concurrent wait's) are this wait's too: their
    // failures count once that read ends.
    const uint64_t MadeBefore = T->NextSequence;
    readChecks(*T, Lock, Stream, All);
    T->ReadEnded.wait(Lock, [&] {
      return std::none_of(T->Pending.begin(), T->Pending.end(),
                          [&](const PendingCheck &P) {
                            return P.ReadBy != 0 && P.Sequence < MadeBefore &&
                                   (All || P.Stream == Stream);
                          });
    });
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
  std::unique_lock<std::mutex> Lock(T.Mutex);
  CUDAGuard Guard(Stream.device_index());
  while (T.FreeSlots.empty()) {
    // Every slot waits for a read: wait for the device and read them. The
    // failures wait for their streams' waits; this call has none.
    if (readChecks(T, Lock, nullptr, /*All=*/true))
      continue;
    bool OthersReading =
        std::any_of(T.Pending.begin(), T.Pending.end(),
                    [](const PendingCheck &P) { return P.ReadBy != 0; });
    SK_CHECK(OthersReading, "more than ", kDeviceCheckSlots,
             " CUDA operators are checking their input at once on device ",
             static_cast<int>(Stream.device_index()));
    T.ReadEnded.wait(Lock);
  }
  int Free = T.FreeSlots.back();
  SK_CUDA_CHECK(cudaMemsetAsync(&T.Records[Free], 0, sizeof(DeviceCheckRecord),
                                Stream.stream()));
  T.Pending.push_back({Stream.stream(), Free, T.NextSequence++,
                       PendingCheck::Open, /*ReadBy=*/0, nullptr});
  T.FreeSlots.pop_back();
  Slot = Free;
  Record = &T.Records[Slot].Code;
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
  DeviceCheckTable &T = *tableOf(Stream.device_index(), /*Create=*/false);
  {
    std::lock_guard<std::mutex> Lock(T.Mutex);
    SK_INTERNAL_ASSERT(!Handed, "a device check reported twice");
    PendingCheck &P = pendingOf(T, Slot);
    P.State = PendingCheck::Handed;
    P.Report = std::move(Report);
    Handed = true;
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
