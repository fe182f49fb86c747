//===--- Llama.h - A Llama-style transformer --------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Llama-style decoder-only transformer (RMSNorm, rotary embeddings,
/// grouped-query attention, SwiGLU) written once against the kernel
/// library's C++ API (`sk::linear`, `sk::softmax`, ...) and the runtime's
/// views. The same forward() serves meta tensors, where every call runs
/// only the generated Meta kernels (sizes, strides and dtypes, no memory),
/// and CPU tensors, where it computes.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_EXAMPLES_LLAMA_LLAMA_H
#define SKC_EXAMPLES_LLAMA_LLAMA_H

#include "sk/core/Tensor.h"
#include "sk/core/TensorOptions.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sk {
class Generator;
} // namespace sk

namespace llama {

/// The hyperparameters of a Llama model.
struct LlamaConfig {
  int64_t NumLayers;
  int64_t Dim;
  int64_t NumHeads;
  /// Grouped-query attention: NumHeads / NumKVHeads query heads share each
  /// key/value head.
  int64_t NumKVHeads;
  int64_t FFNHidden;
  int64_t VocabSize;
  double NormEps = 1e-5;
  double RopeTheta = 10000.0;

  int64_t headDim() const { return Dim / NumHeads; }

  /// Llama 2 70B: 80 layers, dim 8192, 64 heads over 8 KV heads, FFN 28672.
  static LlamaConfig llama70B();
  /// A two-layer model of the same architecture, small enough to run on CPU.
  static LlamaConfig tiny();
};

/// The weights of one transformer block. Linear weights are [out, in], as
/// sk::linear (and PyTorch's nn.Linear) expects.
struct LlamaLayer {
  sk::Tensor AttnNorm; ///< [Dim]
  sk::Tensor Wq;       ///< [NumHeads * HeadDim, Dim]
  sk::Tensor Wk;       ///< [NumKVHeads * HeadDim, Dim]
  sk::Tensor Wv;       ///< [NumKVHeads * HeadDim, Dim]
  sk::Tensor Wo;       ///< [Dim, NumHeads * HeadDim]
  sk::Tensor FFNNorm;  ///< [Dim]
  sk::Tensor WGate;    ///< [FFNHidden, Dim] (w1)
  sk::Tensor WDown;    ///< [Dim, FFNHidden] (w2)
  sk::Tensor WUp;      ///< [FFNHidden, Dim] (w3)
};

class LlamaModel {
public:
  /// Makes every parameter with \p Options (dtype and device). Linear and
  /// embedding weights are normal with standard deviation 0.02 drawn from
  /// \p Gen, norm weights are ones; on the meta device this allocates
  /// nothing.
  LlamaModel(const LlamaConfig &Config, sk::TensorOptions Options,
             sk::Generator *Gen);

  /// The logits, [Batch, Seq, VocabSize], for the token ids \p Tokens
  /// ([Batch, Seq], int64, on the parameters' device), with a causal mask.
  /// When \p Trace is given, the hidden state after every block is appended
  /// to it, for comparing runs.
  sk::Tensor forward(const sk::Tensor &Tokens,
                     std::vector<sk::Tensor> *Trace = nullptr) const;

  /// Every parameter tensor, embedding first and LM head last.
  std::vector<sk::Tensor> parameters() const;
  /// The same, each with its name in Hugging Face's Llama checkpoints
  /// ("model.layers.0.self_attn.q_proj.weight"), in their state dicts'
  /// order.
  std::vector<std::pair<std::string, sk::Tensor>> namedParameters() const;
  /// Replaces every parameter with the tensor of its name in \p Weights,
  /// which must have the parameter's sizes; the model takes their dtype
  /// and device.
  void loadParameters(const std::map<std::string, sk::Tensor> &Weights);
  int64_t numParameters() const;
  /// What the parameters take in their dtype.
  uint64_t numParameterBytes() const;

  const LlamaConfig &config() const { return Config; }

private:
  sk::Tensor rmsNorm(const sk::Tensor &X, const sk::Tensor &Weight) const;
  sk::Tensor attention(const LlamaLayer &L, const sk::Tensor &X,
                       const sk::Tensor &Cos, const sk::Tensor &Sin,
                       const sk::Tensor &Mask) const;
  sk::Tensor feedForward(const LlamaLayer &L, const sk::Tensor &X) const;
  /// Calls \p Fn(Name, Parameter) for every parameter, in
  /// namedParameters()' order: the one list of names and members.
  template <typename Model, typename Callback>
  static void forEachParameter(Model &M, Callback Fn);

  LlamaConfig Config;
  sk::TensorOptions Options;
  sk::Tensor TokEmbeddings; ///< [VocabSize, Dim]
  std::vector<LlamaLayer> Layers;
  sk::Tensor Norm;   ///< [Dim]
  sk::Tensor Output; ///< [VocabSize, Dim]
};

/// Writes \p Model's parameters as a skeleton checkpoint laid out as
/// Hugging Face's Llama checkpoints are, into the directory \p Dir: shards
/// of at most 10 GB whose data is a hole, and model.safetensors.index.json
/// (Note [The 70B skeleton checkpoint] in Llama.cpp); returns the index's
/// path.
std::string saveSkeletonCheckpoint(const LlamaModel &Model,
                                   const std::string &Dir);

} // namespace llama

#endif // SKC_EXAMPLES_LLAMA_LLAMA_H
