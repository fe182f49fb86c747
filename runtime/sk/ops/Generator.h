//===--- Generator.h - Seedable random number generators --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::Generator` is the random state behind rand and randn
/// (at::CPUGeneratorImpl): a 64-bit Mersenne Twister with a seed.
/// `sk::Generator G(42)` gives a reproducible stream; factories that are
/// given no generator use the process-wide default one, which
/// `sk::manual_seed` reseeds.
///
/// A generator serialises its users with a mutex, so threads may share one;
/// the sequence they see then depends on the order they take it in. The
/// streams are reproducible within skc but are not PyTorch's.
///
/// Draws on CUDA use the same generator differently: its seed keys a
/// counter-based Philox generator on the device, and the generator keeps
/// the offset where the next draw starts (at::CUDAGeneratorImpl's
/// philox_offset_per_thread); Note [Random numbers on CUDA] in
/// sk/cuda/CUDARandom.cu. manual_seed resets both.
///
//===----------------------------------------------------------------------===//

#ifndef SK_OPS_GENERATOR_H
#define SK_OPS_GENERATOR_H

#include <cstdint>
#include <mutex>
#include <random>

namespace sk {

class Generator {
public:
  /// PyTorch's default seed (c10::detail::default_rng_seed_val).
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  explicit Generator(uint64_t Seed = kDefaultSeed) : Seed(Seed), Engine(Seed) {}
  Generator(const Generator &) = delete;
  Generator &operator=(const Generator &) = delete;

  /// Restarts the stream from \p NewSeed.
  void manual_seed(uint64_t NewSeed) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Seed = NewSeed;
    Engine.seed(NewSeed);
    HasCachedNormal = false;
    PhiloxOffset = 0;
  }
  uint64_t initial_seed() const { return Seed; }

  /// The mutex a kernel holds while it draws numbers.
  std::mutex &mutex() { return Mutex; }

  /// 64 random bits; call with mutex() held.
  uint64_t random64() { return Engine(); }
  /// Uniform in [0, 1) with \p Bits bits of precision (at most 53): every
  /// value is k / 2^Bits, exact in any floating type with that many
  /// mantissa bits, so rounding to the target dtype can never give 1.
  double uniform(int Bits) {
    return static_cast<double>(Engine() >> (64 - Bits)) /
           static_cast<double>(uint64_t(1) << Bits);
  }
  /// A standard normal sample (Box-Muller); call with mutex() held.
  double normal();

  /// Where a device draw starts: the seed that keys Philox and the offset
  /// into each thread's subsequence.
  struct PhiloxState {
    uint64_t Seed;
    uint64_t Offset;
  };
  /// The state for a draw that takes \p Increment values from each
  /// subsequence; the next draw starts that much later.
  PhiloxState reservePhilox(uint64_t Increment) {
    std::lock_guard<std::mutex> Lock(Mutex);
    PhiloxState State{Seed, PhiloxOffset};
    PhiloxOffset += Increment;
    return State;
  }

private:
  std::mutex Mutex;
  uint64_t Seed;
  std::mt19937_64 Engine;
  /// Box-Muller makes two samples; the second waits here.
  double CachedNormal = 0;
  bool HasCachedNormal = false;
  uint64_t PhiloxOffset = 0;
};

/// The generator that factories use when given none.
Generator &getDefaultGenerator();

/// Reseeds the default generator (torch.manual_seed).
void manual_seed(uint64_t Seed);

} // namespace sk

#endif // SK_OPS_GENERATOR_H
