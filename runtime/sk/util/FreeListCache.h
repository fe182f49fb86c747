//===--- FreeListCache.h - Per-thread caches of freed blocks ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `FreeListCache<Policy>` keeps, per thread, a bounded list of freed
/// memory blocks of each of a few size classes, and hands them out again
/// before asking the system allocator. The runtime uses it for TensorImpl
/// and StorageImpl objects and for small CPU data blocks (Allocator.cpp).
///
/// Note [Per-thread free lists]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// Creating and dropping a small tensor used to cost three malloc/free
/// pairs (TensorImpl, StorageImpl, data), ~24 ns on the reference machine,
/// more than the rest of `empty({1})` together. Tensors are created and
/// dropped in steady-state loops, so, as CPython's free lists and the
/// thread caches of tcmalloc do, freed blocks go onto a singly linked list
/// threaded through the blocks themselves, and the next allocation of that
/// class pops one: a load and two stores each way, no lock, no atomics.
///
///  - Per thread. The lists live in zero-initialised thread-local storage,
///    so reaching them needs no initialisation guard (as Note
///    [Zero-initialised TLS]). A block freed on another thread than the
///    one that allocated it goes onto the freeing thread's list: blocks of
///    one class are interchangeable, and they all come from the system
///    allocator, which takes them back from any thread.
///  - Bounded. A list holds at most Policy::maxCached(Class) blocks; past
///    that, frees go to the system allocator. A producer thread that only
///    allocates and a consumer that only frees therefore cost no more
///    than without the cache.
///  - Freed at thread exit. The first block cached on a thread arms a
///    thread_local reaper whose destructor gives the thread's blocks back
///    and disables caching for the rest of that thread's exit (objects
///    destroyed later by other thread_local or static destructors are
///    freed directly). Until the first cached free, `Limit` is 0, so the
///    fast path needs no separate "armed" test.
///  - Off under AddressSanitizer (SK_FREE_LIST_CACHES is 0): a reused
///    block would hide use-after-free from ASan's quarantine, so every
///    allocation goes to the system allocator there. Define
///    SK_DISABLE_FREE_LIST_CACHES to turn them off elsewhere (e.g. for
///    Valgrind).
///
/// A Policy provides:
///
///   static constexpr unsigned kNumClasses;
///   static unsigned maxCached(unsigned Class);    // the bound, > 0
///   static void *allocateNew(unsigned Class);     // the system allocator
///   static void release(void *Block, unsigned Class);
///
/// Blocks must be at least pointer-sized and pointer-aligned: a cached
/// block's first word links it to the next.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_FREELISTCACHE_H
#define SK_UTIL_FREELISTCACHE_H

#include "sk/util/Exception.h"

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define SK_FREE_LIST_CACHES 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SK_FREE_LIST_CACHES 0
#endif
#endif
#if !defined(SK_FREE_LIST_CACHES) && defined(SK_DISABLE_FREE_LIST_CACHES)
#define SK_FREE_LIST_CACHES 0
#endif
#ifndef SK_FREE_LIST_CACHES
#define SK_FREE_LIST_CACHES 1
#endif

namespace sk {

/// Whether free-list caches are compiled in (Note [Per-thread free lists]).
constexpr bool kFreeListCachesEnabled = SK_FREE_LIST_CACHES != 0;

/// See Note [Per-thread free lists].
template <typename Policy> class FreeListCache {
public:
  static constexpr unsigned kNumClasses = Policy::kNumClasses;

  /// A block of class \p Class: the most recently cached one, else a new
  /// one from Policy::allocateNew (which may throw).
  static void *allocate(unsigned Class = 0) {
    if constexpr (kFreeListCachesEnabled) {
      List &L = state().Lists[Class];
      if (void *Block = L.Head) {
        L.Head = *static_cast<void **>(Block);
        --L.Count;
        return Block;
      }
    }
    return Policy::allocateNew(Class);
  }

  /// Caches \p Block (of class \p Class) on this thread, or gives it to
  /// Policy::release when the list is full or the thread is exiting.
  static void deallocate(void *Block, unsigned Class = 0) noexcept {
    if constexpr (kFreeListCachesEnabled) {
      List &L = state().Lists[Class];
      if (SK_LIKELY(L.Count < L.Limit)) {
        push(L, Block);
        return;
      }
      deallocateSlow(Block, Class);
      return;
    }
    Policy::release(Block, Class);
  }

  /// The number of blocks of class \p Class cached on this thread.
  static size_t cachedCount(unsigned Class = 0) {
    return state().Lists[Class].Count;
  }

  /// Gives every block cached on this thread back to Policy::release.
  static void trim() noexcept {
    State &S = state();
    for (List &L : S.Lists) {
      unsigned Class = static_cast<unsigned>(&L - S.Lists);
      while (void *Block = L.Head) {
        L.Head = *static_cast<void **>(Block);
        Policy::release(Block, Class);
      }
      L.Count = 0;
    }
  }

private:
  struct List {
    void *Head;
    uint32_t Count;
    /// 0 until the thread's reaper is armed, and again once it ran.
    uint32_t Limit;
  };
  struct State {
    List Lists[kNumClasses];
    /// Set by the reaper: the thread is exiting, cache nothing more.
    bool Exited;
  };

  /// Gives the thread's blocks back at thread exit.
  struct Reaper {
    ~Reaper() {
      State &S = state();
      S.Exited = true;
      for (List &L : S.Lists)
        L.Limit = 0;
      trim();
    }
  };

  static State &state() {
    // Zero-initialised: no guard on access.
    static thread_local State S{};
    return S;
  }

  static void push(List &L, void *Block) {
    *static_cast<void **>(Block) = L.Head;
    L.Head = Block;
    ++L.Count;
  }

  [[gnu::noinline]] static void deallocateSlow(void *Block,
                                               unsigned Class) noexcept {
    State &S = state();
    List &L = S.Lists[Class];
    if (L.Limit != 0 || S.Exited) {
      // Full, or the thread is past its reaper.
      Policy::release(Block, Class);
      return;
    }
    // The first cached free on this thread: arm the reaper (this registers
    // its destructor for thread exit), then open every list.
    static thread_local Reaper R;
    (void)R;
    for (unsigned C = 0; C != kNumClasses; ++C)
      S.Lists[C].Limit = Policy::maxCached(C);
    push(L, Block);
  }
};

/// The bound of an ObjectCache: enough for the temporaries of a loop body,
/// about 20 KiB of TensorImpls per thread at most.
constexpr unsigned kMaxCachedObjects = 128;

/// The policy of a cache of objects of type \p T: one class, sizeof(T)
/// bytes from the global operator new.
template <typename T> struct ObjectCachePolicy {
  static_assert(sizeof(T) >= sizeof(void *), "too small to hold the link");
  static constexpr unsigned kNumClasses = 1;
  static unsigned maxCached(unsigned) { return kMaxCachedObjects; }
  static void *allocateNew(unsigned) { return ::operator new(sizeof(T)); }
  static void release(void *Block, unsigned) noexcept {
    ::operator delete(Block, sizeof(T));
  }
};

/// Blocks for objects of type \p T, for a class-specific operator new:
///
///   static void *operator new(size_t Size) {
///     return ObjectCache<T>::allocateObject(Size);
///   }
///   static void operator delete(void *P, size_t Size) noexcept {
///     ObjectCache<T>::deallocateObject(P, Size);
///   }
///
/// A subclass of another size bypasses the cache.
template <typename T> struct ObjectCache : FreeListCache<ObjectCachePolicy<T>> {
  static void *allocateObject(size_t Size) {
    if (SK_LIKELY(Size == sizeof(T)))
      return ObjectCache::allocate();
    return ::operator new(Size);
  }
  static void deallocateObject(void *P, size_t Size) noexcept {
    if (SK_LIKELY(Size == sizeof(T)))
      return ObjectCache::deallocate(P);
    ::operator delete(P, Size);
  }
};

} // namespace sk

#endif // SK_UTIL_FREELISTCACHE_H
