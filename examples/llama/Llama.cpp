//===--- Llama.cpp - A Llama-style transformer ----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The model of Llama.h, after Meta's reference implementation (llama/
/// model.py) with Hugging Face's real-valued rotary embedding
/// (rotate_half). Every operator is a call into the kernel library, so it
/// reaches the dispatcher and the generated CPU or Meta kernel (or a
/// composite over them); views and copies are the runtime's.
///
//===----------------------------------------------------------------------===//

#include "Llama.h"

#include "skc_kernels/Functions.h"

#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"
#include "sk/serialize/Safetensors.h"
#include "sk/util/Exception.h"

#include <cmath>
#include <cstdio>
#include <limits>

using namespace sk;

namespace llama {

LlamaConfig LlamaConfig::llama70B() {
  LlamaConfig C;
  C.NumLayers = 80;
  C.Dim = 8192;
  C.NumHeads = 64;
  C.NumKVHeads = 8;
  // int(2 * 4 * 8192 / 3) = 21845, times ffn_dim_multiplier 1.3, rounded up
  // to a multiple of 4096 (Llama 2's model.py).
  C.FFNHidden = 28672;
  C.VocabSize = 32000;
  return C;
}

LlamaConfig LlamaConfig::tiny() {
  LlamaConfig C;
  C.NumLayers = 2;
  C.Dim = 64;
  C.NumHeads = 4;
  C.NumKVHeads = 2;
  C.FFNHidden = 172;
  C.VocabSize = 256;
  return C;
}

/// A weight of \p Sizes: N(0, 0.02^2) like GPT-style initialisation, which
/// keeps a small random model's activations and logits in range.
static Tensor makeWeight(IntArrayRef Sizes, TensorOptions Options,
                         Generator *Gen) {
  return mul(randn(Sizes, Gen, Options), 0.02);
}

LlamaModel::LlamaModel(const LlamaConfig &Config, TensorOptions Options,
                       Generator *Gen)
    : Config(Config), Options(Options) {
  const int64_t D = Config.Dim, HD = Config.headDim();
  TokEmbeddings = makeWeight({Config.VocabSize, D}, Options, Gen);
  Layers.reserve(Config.NumLayers);
  for (int64_t I = 0; I != Config.NumLayers; ++I) {
    LlamaLayer L;
    L.AttnNorm = ones({D}, Options);
    L.Wq = makeWeight({Config.NumHeads * HD, D}, Options, Gen);
    L.Wk = makeWeight({Config.NumKVHeads * HD, D}, Options, Gen);
    L.Wv = makeWeight({Config.NumKVHeads * HD, D}, Options, Gen);
    L.Wo = makeWeight({D, Config.NumHeads * HD}, Options, Gen);
    L.FFNNorm = ones({D}, Options);
    L.WGate = makeWeight({Config.FFNHidden, D}, Options, Gen);
    L.WDown = makeWeight({D, Config.FFNHidden}, Options, Gen);
    L.WUp = makeWeight({Config.FFNHidden, D}, Options, Gen);
    Layers.push_back(std::move(L));
  }
  Norm = ones({D}, Options);
  Output = makeWeight({Config.VocabSize, D}, Options, Gen);
}

template <typename Model, typename Callback>
void LlamaModel::forEachParameter(Model &M, Callback Fn) {
  Fn("model.embed_tokens.weight", M.TokEmbeddings);
  for (size_t I = 0; I != M.Layers.size(); ++I) {
    auto &L = M.Layers[I];
    const std::string P = "model.layers." + std::to_string(I) + ".";
    Fn(P + "self_attn.q_proj.weight", L.Wq);
    Fn(P + "self_attn.k_proj.weight", L.Wk);
    Fn(P + "self_attn.v_proj.weight", L.Wv);
    Fn(P + "self_attn.o_proj.weight", L.Wo);
    Fn(P + "mlp.gate_proj.weight", L.WGate);
    Fn(P + "mlp.up_proj.weight", L.WUp);
    Fn(P + "mlp.down_proj.weight", L.WDown);
    Fn(P + "input_layernorm.weight", L.AttnNorm);
    Fn(P + "post_attention_layernorm.weight", L.FFNNorm);
  }
  Fn("model.norm.weight", M.Norm);
  Fn("lm_head.weight", M.Output);
}

std::vector<std::pair<std::string, Tensor>>
LlamaModel::namedParameters() const {
  std::vector<std::pair<std::string, Tensor>> Params;
  forEachParameter(*this, [&](std::string Name, const Tensor &T) {
    Params.emplace_back(std::move(Name), T);
  });
  return Params;
}

std::vector<Tensor> LlamaModel::parameters() const {
  std::vector<Tensor> Params;
  for (auto &[Name, T] : namedParameters())
    Params.push_back(T);
  return Params;
}

void LlamaModel::loadParameters(const std::map<std::string, Tensor> &Weights) {
  SK_CHECK(Weights.size() == Layers.size() * 9 + 3, "a Llama model of ",
           Layers.size(), " layers has ", Layers.size() * 9 + 3,
           " parameters, but the checkpoint has ", Weights.size(), " tensors");
  forEachParameter(*this, [&](const std::string &Name, Tensor &T) {
    auto It = Weights.find(Name);
    SK_CHECK(It != Weights.end(), "the checkpoint has no tensor '", Name, "'");
    SK_CHECK(It->second.sizes() == T.sizes(), "the checkpoint's '", Name,
             "' is ", It->second.sizes(), ", where the model's is ", T.sizes());
    T = It->second;
  });
  Options = Options.dtype(TokEmbeddings.dtype()).device(TokEmbeddings.device());
}

int64_t LlamaModel::numParameters() const {
  int64_t N = 0;
  for (const Tensor &P : parameters())
    N += P.numel();
  return N;
}

uint64_t LlamaModel::numParameterBytes() const {
  uint64_t N = 0;
  for (const Tensor &P : parameters())
    N += P.nbytes();
  return N;
}

// Note [The 70B skeleton checkpoint]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Llama-2-70b-hf's checkpoint: the model's state dict, in order, split
// into shards of at most 10 GB as Hugging Face's split_torch_state_dict_
// into_shards does (a tensor that would take a shard past the limit starts
// the next), named model-0000N-of-00015.safetensors, with an index
// model.safetensors.index.json. The shards are skeletons: complete
// headers over 138 GB of holes, which take no disk space where the file
// system supports holes, and which the demo never reads.

/// The checkpoint's largest shard, in bytes.
static constexpr uint64_t kMaxShardBytes = 10'000'000'000;

std::string saveSkeletonCheckpoint(const LlamaModel &Model,
                                   const std::string &Dir) {
  std::vector<std::map<std::string, Tensor>> Shards(1);
  uint64_t ShardBytes = 0, Total = 0;
  for (auto &[Name, T] : Model.namedParameters()) {
    if (ShardBytes && ShardBytes + T.nbytes() > kMaxShardBytes) {
      Shards.emplace_back();
      ShardBytes = 0;
    }
    Shards.back().emplace(Name, T);
    ShardBytes += T.nbytes();
    Total += T.nbytes();
  }
  std::map<std::string, std::string> WeightMap;
  for (size_t I = 0; I != Shards.size(); ++I) {
    char File[64];
    std::snprintf(File, sizeof File, "model-%05zu-of-%05zu.safetensors", I + 1,
                  Shards.size());
    safetensors::save_skeleton_file(Shards[I], Dir + "/" + File,
                                    {{"format", "pt"}});
    for (const auto &Entry : Shards[I])
      WeightMap.emplace(Entry.first, File);
  }
  std::string Index = Dir + "/model.safetensors.index.json";
  safetensors::save_index_file(WeightMap, Index, Total);
  return Index;
}

/// x * rsqrt(mean(x^2, -1, keepdim) + eps) * weight, in the model's dtype.
Tensor LlamaModel::rmsNorm(const Tensor &X, const Tensor &Weight) const {
  Tensor MeanSquare = mean(pow(X, 2), IntArrayRef{-1}, /*keepdim=*/true);
  return mul(mul(X, rsqrt(add(MeanSquare, Config.NormEps))), Weight);
}

/// Rotates each pair (x[i], x[i + HeadDim/2]) of \p X ([B, Heads, S,
/// HeadDim]) by the angles whose cosines and sines are \p Cos and \p Sin
/// ([S, HeadDim]): x * cos + rotate_half(x) * sin.
static Tensor applyRotary(const Tensor &X, const Tensor &Cos,
                          const Tensor &Sin) {
  const int64_t Half = X.size(-1) / 2;
  Tensor X1 = X.narrow(-1, 0, Half);
  Tensor X2 = X.narrow(-1, Half, Half);
  Tensor Rotated = cat({neg(X2), X1}, -1);
  return add(mul(X, Cos), mul(Rotated, Sin));
}

/// \p X ([B, KVHeads, S, HeadDim]) with each head repeated \p Rep times in
/// a row, [B, KVHeads * Rep, S, HeadDim], as grouped-query attention pairs
/// query heads with key/value heads (llama's repeat_kv).
static Tensor repeatKV(const Tensor &X, int64_t Rep) {
  if (Rep == 1)
    return X;
  const int64_t B = X.size(0), KVH = X.size(1), S = X.size(2), HD = X.size(3);
  return X.unsqueeze(2)
      .expand({B, KVH, Rep, S, HD})
      .reshape({B, KVH * Rep, S, HD});
}

Tensor LlamaModel::attention(const LlamaLayer &L, const Tensor &X,
                             const Tensor &Cos, const Tensor &Sin,
                             const Tensor &Mask) const {
  const int64_t B = X.size(0), S = X.size(1), HD = Config.headDim();
  const int64_t H = Config.NumHeads, KVH = Config.NumKVHeads;
  // [B, S, Heads * HD] -> [B, Heads, S, HD]: the heads become a batch
  // dimension of the matrix products.
  Tensor Q = linear(X, L.Wq).view({B, S, H, HD}).transpose(1, 2);
  Tensor K = linear(X, L.Wk).view({B, S, KVH, HD}).transpose(1, 2);
  Tensor V = linear(X, L.Wv).view({B, S, KVH, HD}).transpose(1, 2);
  Q = applyRotary(Q, Cos, Sin);
  K = repeatKV(applyRotary(K, Cos, Sin), H / KVH);
  V = repeatKV(V, H / KVH);

  Tensor Scores = mul(matmul(Q, K.transpose(-2, -1)), 1.0 / std::sqrt(HD));
  Tensor Probs = softmax(add(Scores, Mask), -1);
  Tensor Out = matmul(Probs, V).transpose(1, 2).reshape({B, S, H * HD});
  return linear(Out, L.Wo);
}

/// SwiGLU: w2(silu(w1 x) * w3 x), with silu(g) = g * sigmoid(g).
Tensor LlamaModel::feedForward(const LlamaLayer &L, const Tensor &X) const {
  Tensor Gate = linear(X, L.WGate);
  Tensor Up = linear(X, L.WUp);
  return linear(mul(mul(Gate, sigmoid(Gate)), Up), L.WDown);
}

Tensor LlamaModel::forward(const Tensor &Tokens,
                           std::vector<Tensor> *Trace) const {
  const int64_t S = Tokens.size(1), HD = Config.headDim();
  const TensorOptions F32 = Options.dtype(kFloat);

  // The rotary tables, [S, HD]: angle p * theta^(-2i/HD) for position p and
  // pair i, computed in float32 and used in the model's dtype.
  Tensor InvFreq =
      exp(mul(arange(0, HD, 2, F32), -std::log(Config.RopeTheta) / HD));
  Tensor Angles = mul(arange(0, S, 1, F32).unsqueeze(1), InvFreq.unsqueeze(0));
  Tensor Emb = cat({Angles, Angles}, -1);
  Tensor Cos = cos(Emb).to(Options.dtype());
  Tensor Sin = sin(Emb).to(Options.dtype());

  // The causal mask, [S, S]: 0 where key position <= query position, -inf
  // after it, added to the scores before the softmax.
  const TensorOptions I64 = Options.dtype(kLong);
  Tensor Future =
      gt(arange(0, S, 1, I64).unsqueeze(0), arange(0, S, 1, I64).unsqueeze(1));
  Tensor Mask = where(
      Future,
      full(IntArrayRef(), -std::numeric_limits<double>::infinity(), Options),
      zeros(IntArrayRef(), Options));

  Tensor H = embedding(TokEmbeddings, Tokens);
  for (const LlamaLayer &L : Layers) {
    H = add(H, attention(L, rmsNorm(H, L.AttnNorm), Cos, Sin, Mask));
    H = add(H, feedForward(L, rmsNorm(H, L.FFNNorm)));
    if (Trace)
      Trace->push_back(H);
  }
  return linear(rmsNorm(H, Norm), Output);
}

} // namespace llama
