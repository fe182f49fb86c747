//===--- KernelBenchCases.cpp - The kernel library's benchmark calls ------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelBenchCases.h"

#include "Functions.h"

#include "sk/ops/Factories.h"

using namespace sk;

namespace skbench {

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

Tensor normal(std::vector<int64_t> Sizes, ScalarType D) {
  return randn(Sizes).to(D);
}
Tensor unit(std::vector<int64_t> Sizes, ScalarType D) {
  return rand(Sizes).to(D);
}
Tensor indices(std::vector<int64_t> Sizes, int64_t High) {
  return sk::mul(rand(Sizes, TensorOptions().dtype(kDouble)), double(High))
      .to(kLong);
}
Tensor mask(std::vector<int64_t> Sizes) { return sk::gt(rand(Sizes), 0.5); }
Stack batchNormArgs(Tensor Input, bool Training) {
  int64_t C = Input.size(1);
  return Stack{std::move(Input), normal({C}), normal({C}), zeros({C}),
               ones({C}),        Training,    0.1,         1e-5};
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

BenchCase &addCase(std::vector<BenchCase> &Cases, std::string Label,
                   std::string Name, std::string Overload,
                   std::function<Stack()> MakeArgs) {
  Cases.push_back({std::move(Label), "aten::" + std::move(Name),
                   std::move(Overload), std::move(MakeArgs)});
  return Cases.back();
}

void addBatchNormCases(std::vector<BenchCase> &Cases,
                       std::vector<int64_t> Sizes) {
  std::string Shape;
  for (int64_t S : Sizes)
    Shape += (Shape.empty() ? "" : "x") + std::to_string(S);
  for (bool Training : {true, false})
    addCase(Cases,
            std::string("batch_norm ") + (Training ? "train " : "eval ") +
                Shape,
            "native_batch_norm", "",
            [=] { return batchNormArgs(normal(Sizes), Training); })
        // Training reads its input twice: its statistics first.
        .InputReads = Training ? 2 : 1;
}

std::vector<BenchCase> makeKernelCases() {
  const int64_t M16 = int64_t(16) << 20;
  std::vector<BenchCase> C;
  auto Add = [&](std::string Label, std::string Name, std::string Overload,
                 std::function<Stack()> Make) -> BenchCase & {
    return addCase(C, std::move(Label), std::move(Name), std::move(Overload),
                   std::move(Make));
  };
  // Pointwise, float32 and bfloat16.
  for (ScalarType D : {kFloat, kBFloat16}) {
    std::string T = D == kFloat ? "f32" : "bf16";
    auto X = [=] { return normal({M16}, D); };
    Add("add 16M " + T, "add", "Tensor", [=] {
      return Stack{X(), X(), IValue(int64_t(1))};
    });
    Add("mul broadcast 4096x4096 by 4096x1 " + T, "mul", "Tensor", [=] {
      return Stack{normal({4096, 4096}, D), normal({4096, 1}, D)};
    });
    Add("div trunc 16M " + T, "div", "Tensor_mode", [=] {
      return Stack{X(), X(), IValue(std::string("trunc"))};
    });
    for (const char *Op :
         {"exp", "sin", "cos", "tanh", "sigmoid", "neg", "abs", "relu"})
      Add(std::string(Op) + " 16M " + T, Op, "", [=] { return Stack{X()}; });
    // Defined for positive inputs only.
    for (const char *Op : {"log", "sqrt", "rsqrt"})
      Add(std::string(Op) + " 16M " + T, Op, "",
          [=] { return Stack{unit({M16}, D)}; });
    Add("gelu 16M " + T, "gelu", "", [=] {
      return Stack{X(), IValue(std::string("none"))};
    });
    Add("gelu tanh 16M " + T, "gelu", "", [=] {
      return Stack{X(), IValue(std::string("tanh"))};
    });
    Add("softmax 4096x1024 " + T, "_softmax", "", [=] {
      return Stack{normal({4096, 1024}, D), int64_t(1), false};
    });
    Add("log_softmax 4096x1024 " + T, "_log_softmax", "", [=] {
      return Stack{normal({4096, 1024}, D), int64_t(1), false};
    });
    Add("layer_norm 4096x1024 " + T, "native_layer_norm", "", [=] {
      return Stack{normal({4096, 1024}, D), IValue(std::vector<int64_t>{1024}),
                   normal({1024}, D), normal({1024}, D), 1e-5};
    });
  }
  // float32 only from here.
  auto X16 = [=] { return normal({M16}); };
  Add("add_out 16M", "add", "out", [=] {
    return Stack{X16(), X16(), IValue(int64_t(1)), empty({M16})};
  });
  Add("add transposed 4096x4096", "add", "Tensor", [] {
    return Stack{normal({4096, 4096}).t(), normal({4096, 4096}),
                 IValue(int64_t(1))};
  });
  Add("add scalar 16M", "add", "Scalar", [=] {
    return Stack{X16(), 2.5, IValue(int64_t(1))};
  });
  Add("pow 2 16M", "pow", "Tensor_Scalar", [=] {
    return Stack{X16(), IValue(int64_t(2))};
  });
  Add("pow tensor 16M", "pow", "Tensor_Tensor", [=] {
    return Stack{unit({M16}), X16()};
  });
  Add("clamp 16M", "clamp", "", [=] { return Stack{X16(), -0.5, 0.5}; });
  Add("clamp tensor 16M", "clamp", "Tensor", [=] {
    return Stack{X16(), X16(), X16()};
  });
  Add("where 16M", "where", "self", [=] {
    return Stack{mask({M16}), X16(), X16()};
  });
  Add("lt 16M", "lt", "Tensor", [=] { return Stack{X16(), X16()}; });
  Add("eq scalar 16M", "eq", "Scalar", [=] { return Stack{X16(), 0.0}; });
  // Reductions.
  auto Big = [] { return normal({4096, 4096}); };
  auto Dims = [](int64_t D) { return IValue(std::vector<int64_t>{D}); };
  Add("sum 16M", "sum", "", [=] { return Stack{Big(), IValue()}; });
  Add("sum dim 0 4096x4096", "sum", "dim_IntList", [=] {
    return Stack{Big(), Dims(0), false, IValue()};
  });
  Add("sum dim 1 4096x4096", "sum", "dim_IntList", [=] {
    return Stack{Big(), Dims(1), false, IValue()};
  });
  // bfloat16 accumulates in float32, read in place on CUDA.
  Add("sum dim 0 4096x4096 bf16", "sum", "dim_IntList", [=] {
    return Stack{normal({4096, 4096}, kBFloat16), Dims(0), false, IValue()};
  });
  Add("sum dim 1 4096x4096 bf16", "sum", "dim_IntList", [=] {
    return Stack{normal({4096, 4096}, kBFloat16), Dims(1), false, IValue()};
  });
  Add("mean dim 1 4096x4096", "mean", "dim", [=] {
    return Stack{Big(), Dims(1), false, IValue()};
  });
  // Mean pooling over a sequence: the reduced dim between kept ones.
  Add("mean dim 1 32x512x768", "mean", "dim", [=] {
    return Stack{normal({32, 512, 768}), Dims(1), false, IValue()};
  });
  Add("prod dim 1 4096x4096", "prod", "dim_int", [=] {
    return Stack{unit({4096, 4096}), int64_t(1), false, IValue()};
  });
  Add("amax dim 1 4096x4096", "amax", "", [=] {
    return Stack{Big(), Dims(1), false};
  });
  Add("amin dim 0 4096x4096", "amin", "", [=] {
    return Stack{Big(), Dims(0), false};
  });
  Add("argmax dim 1 4096x4096", "argmax", "", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("argmin dim 1 4096x4096", "argmin", "", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("max dim 1 4096x4096", "max", "dim", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("min dim 1 4096x4096", "min", "dim", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  // Greedy decoding: the best token of each row of a model's logits.
  Add("argmax dim 1 1024x32000 bf16", "argmax", "", [=] {
    return Stack{normal({1024, 32000}, kBFloat16), int64_t(1), false};
  });
  // GPT-2's vocabulary: rows that are not whole vectors, nor aligned.
  Add("argmax dim 1 1024x50257 bf16", "argmax", "", [=] {
    return Stack{normal({1024, 50257}, kBFloat16), int64_t(1), false};
  });
  // Semantic segmentation: each pixel's class, over a dim between kept
  // ones (PASCAL VOC's 21 classes).
  Add("argmax dim 1 8x21x512x512", "argmax", "", [=] {
    return Stack{normal({8, 21, 512, 512}), int64_t(1), false};
  });
  // Decoding one sequence: a single row, latency rather than bandwidth.
  Add("argmax dim 1 1x50257 bf16", "argmax", "", [=] {
    return Stack{normal({1, 50257}, kBFloat16), int64_t(1), false};
  }).Streams = false;
  Add("all dim 1 4096x4096", "all", "dim", [=] {
    return Stack{mask({4096, 4096}), int64_t(1), false};
  });
  Add("any 16M", "any", "", [=] { return Stack{mask({4096, 4096})}; });
  Add("count_nonzero 16M", "count_nonzero", "dim_IntList", [=] {
    return Stack{sk::relu(Big()), IValue(std::vector<int64_t>{})};
  });
  // Indexing.
  Add("index_select 100k of 1M x 128", "index_select", "", [] {
    return Stack{normal({1 << 20, 128}), int64_t(0),
                 indices({100000}, 1 << 20)};
  }).Streams = false;
  Add("take 1M of 16M", "take", "", [=] {
    return Stack{X16(), indices({1 << 20}, M16)};
  }).Streams = false;
  Add("gather 4096x64 from 4096x4096", "gather", "", [=] {
    return Stack{Big(), int64_t(1), indices({4096, 64}, 4096), false};
  }).Streams = false;
  Add("masked_select 16M", "masked_select", "", [=] {
    return Stack{X16(), mask({M16})};
  }).Streams = false;
  Add("nonzero 4096x4096", "nonzero", "", [] {
    return Stack{mask({4096, 4096})};
  }).Streams = false;
  Add("cat 4 x 1024x4096", "cat", "", [] {
    return Stack{
        IValue(std::vector<Tensor>{normal({1024, 4096}), normal({1024, 4096}),
                                   normal({1024, 4096}), normal({1024, 4096})}),
        int64_t(0)};
  });
  Add("stack 4 x 1024x4096", "stack", "", [] {
    return Stack{
        IValue(std::vector<Tensor>{normal({1024, 4096}), normal({1024, 4096}),
                                   normal({1024, 4096}), normal({1024, 4096})}),
        int64_t(1)};
  });
  // Linear algebra.
  Add("mm 1024", "mm", "", [] {
    return Stack{normal({1024, 1024}), normal({1024, 1024})};
  }).Streams = false;
  Add("bmm 32 x 256", "bmm", "", [] {
    return Stack{normal({32, 256, 256}), normal({32, 256, 256})};
  }).Streams = false;
  Add("addmm 1024", "addmm", "", [] {
    return Stack{normal({1024}), normal({1024, 1024}), normal({1024, 1024}),
                 IValue(int64_t(1)), IValue(int64_t(1))};
  }).Streams = false;
  Add("matmul 1024", "matmul", "", [] {
    return Stack{normal({1024, 1024}), normal({1024, 1024})};
  }).Streams = false;
  Add("linear 4096x1024 by 1024x1024", "linear", "", [] {
    return Stack{normal({4096, 1024}), normal({1024, 1024}), normal({1024})};
  }).Streams = false;
  Add("cdist 1024x1024x64", "cdist", "", [] {
    return Stack{normal({1024, 64}), normal({1024, 64}), 2.0, IValue()};
  }).Streams = false;
  // Neural-network layers.
  addBatchNormCases(C, {32, 64, 56, 56});
  // A convolutional network's activations in the layout of cuDNN's
  // channels-last convolutions.
  Add("batch_norm train 32x64x56x56 channels last", "native_batch_norm", "",
      [] {
        return batchNormArgs(
            normal({32, 64, 56, 56}).contiguous(MemoryFormat::ChannelsLast),
            true);
      })
      .InputReads = 2;
  Add("embedding 100k of 1M x 128", "embedding", "", [] {
    return Stack{normal({1 << 20, 128}), indices({100000}, 1 << 20),
                 int64_t(-1), false, false};
  }).Streams = false;
  for (int64_t Mode : {0, 1, 2})
    Add(std::string("embedding_bag ") +
            (Mode == 0   ? "sum"
             : Mode == 1 ? "mean"
                         : "max") +
            " 100k in bags of 50, 200k x 128",
        "_embedding_bag", "",
        [=] {
          return Stack{normal({200000, 128}),
                       indices({100000}, 200000),
                       sk::mul(arange(0, 2000, TensorOptions().dtype(kLong)),
                               int64_t(50)),
                       false,
                       Mode,
                       false,
                       IValue(),
                       false,
                       int64_t(-1)};
        })
        .Streams = false;
  Add("binary_cross_entropy 16M", "binary_cross_entropy", "", [=] {
    return Stack{unit({M16}), unit({M16}), IValue(), int64_t(1)};
  });
  Add("max_pool2d 3x3 s2 32x64x112x112", "max_pool2d_with_indices", "", [] {
    return Stack{
        normal({32, 64, 112, 112}),         IValue(std::vector<int64_t>{3, 3}),
        IValue(std::vector<int64_t>{2, 2}), IValue(std::vector<int64_t>{1, 1}),
        IValue(std::vector<int64_t>{1, 1}), false};
  });
  Add("max_pool3d 2x2x2 8x32x32x64x64", "max_pool3d_with_indices", "", [] {
    return Stack{normal({8, 32, 32, 64, 64}),
                 IValue(std::vector<int64_t>{2, 2, 2}),
                 IValue(std::vector<int64_t>{2, 2, 2}),
                 IValue(std::vector<int64_t>{0, 0, 0}),
                 IValue(std::vector<int64_t>{1, 1, 1}),
                 false};
  });
  Add("upsample_nearest1d x2 64x256x1024", "upsample_nearest1d", "", [] {
    return Stack{normal({64, 256, 1024}), IValue(std::vector<int64_t>{2048}),
                 IValue()};
  });
  return C;
}

} // namespace skbench
