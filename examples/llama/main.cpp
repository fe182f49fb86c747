//===--- main.cpp - The Llama demo: one model on Meta and on CPU ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The main job's demo (issue 6). It builds Llama 2 70B on the meta device
/// in bfloat16 from a checkpoint laid out as the real one is (Hugging
/// Face's 723 tensor names in 15 safetensors shards and an index), whose
/// shards it writes once as skeletons (their data a hole; Note [The 70B
/// skeleton checkpoint] in Llama.cpp); loading reads the headers alone. It runs
/// one forward pass over it for shapes and dtypes, and prints the parameter
/// count, the bytes the weights would take, the logits' shape and how long
/// the load and the pass took. Then it runs a two-layer model of the same
/// architecture for real on CPU, float32 with seeded random weights, and
/// again on meta, and checks that both give the same sizes, strides and
/// dtypes: one meta function per operator serves shape inference and
/// computation alike. The small model saves its weights, loads them back
/// through a mapping of the file, and must give bit-identical logits.
///
///   skc-llama-demo [--checkpoint-dir DIR]   (default: ./llama-checkpoints)
///
/// Exits with 1 when the CPU logits are not finite, the two runs of the
/// small model disagree, or the reloaded model's logits differ.
///
//===----------------------------------------------------------------------===//

#include "Llama.h"

#include "sk/ops/Factories.h"
#include "sk/ops/Generator.h"
#include "sk/serialize/Safetensors.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <sys/stat.h>

using llama::LlamaConfig;
using llama::LlamaModel;

/// \p N with thousands separators: 68,976,648,192.
static std::string withCommas(uint64_t N) {
  std::string Digits = std::to_string(N), Out;
  for (size_t I = 0; I != Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += ',';
    Out += Digits[I];
  }
  return Out;
}

static void printConfig(const LlamaConfig &C) {
  std::cout << C.NumLayers << " layers, dim " << C.Dim << ", " << C.NumHeads
            << " heads, " << C.NumKVHeads << " KV heads, FFN " << C.FFNHidden
            << ", vocab " << C.VocabSize << "\n";
}

/// Token ids for \p Batch sequences of \p Seq tokens: drawn from \p Gen on
/// CPU; on meta only their shape matters.
static sk::Tensor makeTokens(int64_t Batch, int64_t Seq, int64_t Vocab,
                             sk::Device Dev, sk::Generator &Gen) {
  sk::Tensor Tokens =
      sk::empty({Batch, Seq}, sk::TensorOptions(sk::kLong).device(Dev));
  if (Dev.is_meta())
    return Tokens;
  int64_t *Ids = Tokens.data_ptr<int64_t>();
  for (int64_t I = 0; I != Batch * Seq; ++I)
    Ids[I] = static_cast<int64_t>(Gen.random64() % uint64_t(Vocab));
  return Tokens;
}

/// Whether \p A and \p B have the same sizes, strides and dtype; prints the
/// difference when not.
static bool sameGeometry(const char *What, const sk::Tensor &A,
                         const sk::Tensor &B) {
  if (A.sizes() == B.sizes() && A.strides() == B.strides() &&
      A.dtype() == B.dtype())
    return true;
  std::cout << What << ": CPU " << A.dtype() << A.sizes() << " strides "
            << A.strides() << ", meta " << B.dtype() << B.sizes() << " strides "
            << B.strides() << "\n";
  return false;
}

using Clock = std::chrono::steady_clock;

static double millisecondsSince(Clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - Start)
      .count();
}

/// Llama 2 70B on meta, from its checkpoint: parameters, the load, one
/// timed forward pass and a few more to show the spread.
static void runLlama70BOnMeta(const std::string &CheckpointDir) {
  const LlamaConfig Config = LlamaConfig::llama70B();
  const int64_t Batch = 1, Seq = 2048;
  const sk::TensorOptions Options =
      sk::TensorOptions(sk::kBFloat16).device(sk::kMeta);
  sk::Generator Gen(0);

  std::cout << "Llama 2 70B on the meta device, bfloat16: ";
  printConfig(Config);
  LlamaModel Model(Config, Options, &Gen);

  // Written once: a later run finds the index and reads it.
  std::string Index = CheckpointDir + "/model.safetensors.index.json";
  struct stat St;
  if (::stat(Index.c_str(), &St) != 0) {
    ::mkdir(CheckpointDir.c_str(), 0777);
    llama::saveSkeletonCheckpoint(Model, CheckpointDir);
    std::cout << "wrote the skeleton checkpoint into " << CheckpointDir << "\n";
  }
  Clock::time_point Start = Clock::now();
  sk::safetensors::ShardedCheckpoint Checkpoint(Index);
  std::map<std::string, sk::Tensor> Weights = Checkpoint.load(sk::kMeta);
  const double LoadMs = millisecondsSince(Start);
  Model.loadParameters(Weights);
  std::set<std::string> ShardFiles;
  for (const auto &Entry : Checkpoint.weight_map())
    ShardFiles.insert(Entry.second);
  std::printf("checkpoint: %zu tensors in %zu safetensors shards, onto meta "
              "in %.3f ms\n",
              Weights.size(), ShardFiles.size(), LoadMs);

  const int64_t NumParams = Model.numParameters();
  const uint64_t NumBytes = Model.numParameterBytes();
  std::printf("parameters: %s (%.2f billion)\n", withCommas(NumParams).c_str(),
              NumParams / 1e9);
  std::printf("parameter bytes in bfloat16: %s (%.2f GiB), allocated: 0\n",
              withCommas(NumBytes).c_str(),
              NumBytes / (1024.0 * 1024.0 * 1024.0));

  sk::Tensor Tokens = makeTokens(Batch, Seq, Config.VocabSize, sk::kMeta, Gen);
  std::cout << "input: batch " << Batch << ", sequence " << Seq << "\n";

  // The first pass is the one a user waits for; the later ones (every
  // layer runs again, nothing is cached) show the warm cost.
  Start = Clock::now();
  sk::Tensor Logits = Model.forward(Tokens);
  const double FirstMs = millisecondsSince(Start);
  std::vector<double> Warm;
  for (int I = 0; I != 9; ++I) {
    Start = Clock::now();
    sk::Tensor Again = Model.forward(Tokens);
    Warm.push_back(millisecondsSince(Start));
  }
  std::sort(Warm.begin(), Warm.end());

  std::cout << "logits: " << Logits.sizes() << " " << Logits.dtype() << " on "
            << Logits.device() << "\n";
  std::printf("meta forward pass: %.3f ms (first), %.3f ms (median of the "
              "next %zu)\n",
              FirstMs, Warm[Warm.size() / 2], Warm.size());
}

/// The small model on CPU and on meta, and from its saved weights; returns
/// whether all is well.
static bool runTinyOnCPUAndMeta(const std::string &CheckpointDir) {
  const LlamaConfig Config = LlamaConfig::tiny();
  const int64_t Batch = 2, Seq = 16;
  std::cout << "\nThe same model, small, float32: ";
  printConfig(Config);
  std::cout << "input: batch " << Batch << ", sequence " << Seq << "\n";

  sk::Generator Gen(42);
  LlamaModel CPUModel(Config, sk::TensorOptions(sk::kFloat), &Gen);
  LlamaModel MetaModel(Config, sk::TensorOptions(sk::kFloat).device(sk::kMeta),
                       nullptr);
  std::cout << "parameters: " << withCommas(CPUModel.numParameters()) << "\n";

  sk::Tensor Tokens =
      makeTokens(Batch, Seq, Config.VocabSize, sk::Device(sk::kCPU), Gen);
  std::vector<sk::Tensor> CPUTrace, MetaTrace;
  sk::Tensor Logits = CPUModel.forward(Tokens, &CPUTrace).contiguous();
  sk::Tensor MetaLogits = MetaModel.forward(
      makeTokens(Batch, Seq, Config.VocabSize, sk::kMeta, Gen), &MetaTrace);

  std::cout << "CPU logits: " << Logits.sizes() << " " << Logits.dtype()
            << "\n";
  const float *Data = Logits.data_ptr<float>();
  bool Finite = true;
  for (int64_t I = 0; I != Logits.numel(); ++I)
    Finite &= std::isfinite(Data[I]);
  // The last position's first logits, which attend over the whole sequence.
  const float *Last = Data + (Seq - 1) * Config.VocabSize;
  std::printf("logits[0, %lld, 0:4]: %.6f %.6f %.6f %.6f\n",
              static_cast<long long>(Seq - 1), Last[0], Last[1], Last[2],
              Last[3]);
  std::cout << (Finite ? "all logits finite" : "error: non-finite logits")
            << "\n";

  bool Agree = sameGeometry("logits", Logits, MetaLogits) &&
               CPUTrace.size() == MetaTrace.size();
  for (size_t I = 0; Agree && I != CPUTrace.size(); ++I)
    Agree = sameGeometry("hidden state", CPUTrace[I], MetaTrace[I]);
  std::cout << (Agree ? "meta and CPU agree" : "error: meta and CPU disagree")
            << " (sizes, strides and dtypes of the logits and of every "
               "block's output)\n";

  // Saved, and loaded back through a mapping of the file.
  std::string Path = CheckpointDir + "/llama-tiny.safetensors";
  std::map<std::string, sk::Tensor> Saved;
  for (auto &[Name, T] : CPUModel.namedParameters())
    Saved.emplace(Name, T);
  sk::safetensors::save_file(Saved, Path, {{"format", "pt"}});
  LlamaModel Reloaded(Config, sk::TensorOptions(sk::kFloat).device(sk::kMeta),
                      nullptr);
  Reloaded.loadParameters(sk::safetensors::load_file(Path));
  sk::Tensor Again = Reloaded.forward(Tokens).contiguous();
  bool Identical =
      Again.sizes() == Logits.sizes() && Again.dtype() == Logits.dtype() &&
      std::memcmp(Again.data_ptr(), Logits.data_ptr(), Logits.nbytes()) == 0;
  std::cout << (Identical ? "logits from the saved weights: bit-identical"
                          : "error: the saved weights give other logits")
            << " (" << Path << ", mapped)\n";
  return Finite && Agree && Identical;
}

int main(int Argc, char **Argv) {
  std::string CheckpointDir = "llama-checkpoints";
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--checkpoint-dir") && I + 1 < Argc) {
      CheckpointDir = Argv[++I];
      continue;
    }
    std::cerr << "usage: skc-llama-demo [--checkpoint-dir DIR]\n";
    return 2;
  }
  try {
    ::mkdir(CheckpointDir.c_str(), 0777);
    runLlama70BOnMeta(CheckpointDir);
    return runTinyOnCPUAndMeta(CheckpointDir) ? 0 : 1;
  } catch (const std::exception &E) {
    std::cerr << "skc-llama-demo: error: " << E.what() << "\n";
    return 1;
  }
}
