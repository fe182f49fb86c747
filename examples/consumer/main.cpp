//===--- main.cpp - Runs every variant of the consumer's operators --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls each operator of ops.yaml in each of its variants: through the
/// dispatcher (`consumer::op`), directly on a backend (`consumer::cpu::op`,
/// `consumer::meta::op`), on meta tensors (sizes and dtypes, no data), and
/// on the PrivateUse1 device, whose only kernel is negate's functional one.
/// Prints one line per call, `<call>: <dtype>[<sizes>] <device> <values>`,
/// or `<call>: error: <message>`; test/cmake/Consumer.cmake compares them
/// with test/cmake/consumer-output.txt.
///
//===----------------------------------------------------------------------===//

#include "consumer_ops/CPUFunctions.h"
#include "consumer_ops/Functions.h"
#include "consumer_ops/MetaFunctions.h"
#include "consumer_ops/PrivateUse1Functions.h"

#include "sk/core/Allocator.h"
#include "sk/core/EmptyTensor.h"
#include "sk/interop/DLPack.h"
#include "sk/ops/Factories.h"
#include "sk/serialize/Safetensors.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

namespace {

/// The PrivateUse1 device of this example keeps its tensors in host
/// memory, so that its kernels and this program can read them directly.
class HostAllocator final : public sk::Allocator {
public:
  sk::DataPtr allocate(size_t NBytes) override {
    if (NBytes == 0)
      return {};
    void *Ptr = std::malloc(NBytes);
    if (!Ptr)
      throw std::bad_alloc();
    return sk::DataPtr(Ptr, &std::free, Device);
  }

  static constexpr sk::Device Device{sk::DeviceType::PrivateUse1, 0};
};

/// A copy of the CPU tensor \p T on the PrivateUse1 device.
sk::Tensor toPrivateUse1(const sk::Tensor &T) {
  sk::Tensor Contig = T.contiguous();
  sk::Tensor Result = sk::detail::empty_generic(T.sizes(), T.scalar_type(),
                                                HostAllocator::Device);
  std::memcpy(Result.data_ptr(), Contig.data_ptr(), Contig.nbytes());
  return Result;
}

/// A CPU tensor with the elements of the contiguous PrivateUse1 tensor \p T.
sk::Tensor toCPU(const sk::Tensor &T) {
  sk::Tensor Result = sk::empty(T.sizes(), T.options().device(sk::kCPU));
  std::memcpy(Result.data_ptr(), T.data_ptr(), T.nbytes());
  return Result;
}

/// Prints `<What>: <dtype>[<sizes>] <device>` and, for a tensor with data,
/// its elements in row-major order.
void show(const std::string &What, const sk::Tensor &T) {
  std::cout << What << ": " << T.scalar_type() << T.sizes() << ' '
            << T.device();
  if (!T.is_meta()) {
    sk::Tensor Values =
        (T.device().is_cpu() ? T : toCPU(T)).to(sk::kDouble).contiguous();
    const double *Data = Values.data_ptr<double>();
    std::cout << " {";
    for (int64_t I = 0, N = Values.numel(); I != N; ++I)
      std::cout << (I ? ", " : "") << Data[I];
    std::cout << '}';
  }
  std::cout << '\n';
}

/// Runs \p Call, which returns the tensor to show, and prints it or the
/// first line of the error it throws.
template <typename CallT> void run(const std::string &What, CallT Call) {
  try {
    show(What, Call());
  } catch (const sk::Error &E) {
    std::string Message = E.what();
    std::cout << What << ": error: " << Message.substr(0, Message.find('\n'))
              << '\n';
  }
}

} // namespace

int main() {
  static HostAllocator PrivateUse1Memory;
  sk::setAllocator(sk::DeviceType::PrivateUse1, &PrivateUse1Memory);
  sk::setWarningHandler([](const std::string &Message) {
    std::cout << "warning: " << Message << '\n';
  });

  sk::TensorOptions Float = sk::TensorOptions().dtype(sk::kFloat);
  sk::Tensor X = sk::arange(6, Float).reshape({2, 3});
  sk::Tensor Y = sk::arange(3, Float);
  sk::Tensor Out = sk::empty({2, 3}, Float);
  show("x", X);
  show("y", Y);

  // scale: functional, out= in both spellings and inplace, through the
  // dispatcher and straight to the CPU kernel.
  run("scale(x, 2)", [&] { return consumer::scale(X, 2.0); });
  run("cpu::scale(x, 2)", [&] { return consumer::cpu::scale(X, 2.0); });
  run("scale(double x, 2)",
      [&] { return consumer::scale(X.to(sk::kDouble), 2.0); });
  run("scale_out(out, x, 3)", [&] { return consumer::scale_out(Out, X, 3.0); });
  run("scale_outf(x, 4, out)",
      [&] { return consumer::scale_outf(X, 4.0, Out); });
  run("cpu::scale_out(out, x, 5)",
      [&] { return consumer::cpu::scale_out(Out, X, 5.0); });
  run("cpu::scale_outf(x, 6, out)",
      [&] { return consumer::cpu::scale_outf(X, 6.0, Out); });
  sk::Tensor Z = X.clone();
  run("scale_(z, 0.5)", [&] { return consumer::scale_(Z, 0.5); });
  run("cpu::scale_(z, 4)", [&] { return consumer::cpu::scale_(Z, 4.0); });
  // The wrappers' checks: the meta function's, then out='s dtype.
  run("scale(long x, 2)", [&] { return consumer::scale(sk::arange(3), 2.0); });
  run("scale_out(double out, x, 2)", [&] {
    sk::Tensor DoubleOut = sk::empty({2, 3}, Float.dtype(sk::kDouble));
    return consumer::scale_out(DoubleOut, X, 2.0);
  });
  // An out= of another shape is resized, with a warning if it had elements.
  run("scale_out(out of 4, y, 2)", [&] {
    sk::Tensor Small = sk::empty({4}, Float);
    return consumer::scale_out(Small, Y, 2.0);
  });

  // squared_difference: broadcasting and type promotion through
  // TensorIterator.
  run("squared_difference(x, y)",
      [&] { return consumer::squared_difference(X, Y); });
  run("cpu::squared_difference(y, x)",
      [&] { return consumer::cpu::squared_difference(Y, X); });
  run("squared_difference(x, long y)",
      [&] { return consumer::squared_difference(X, sk::arange(3)); });
  run("squared_difference(long, long)", [&] {
    return consumer::squared_difference(sk::arange(3), sk::arange(3, 0, -1));
  });
  run("squared_difference_out(out, y, x)",
      [&] { return consumer::squared_difference_out(Out, Y, X); });
  run("squared_difference_outf(x, 1, out)",
      [&] { return consumer::squared_difference_outf(X, sk::ones({1}), Out); });
  run("cpu::squared_difference_out(out, x, x)",
      [&] { return consumer::cpu::squared_difference_out(Out, X, X); });

  // Meta tensors: sizes and dtypes only, through the dispatcher and
  // straight to the generated Meta kernels.
  sk::TensorOptions Meta = sk::TensorOptions().device(sk::kMeta);
  sk::Tensor MX = sk::empty({8, 1, 5}, Meta);
  sk::Tensor MY = sk::empty({7, 1}, Meta.dtype(sk::kDouble));
  run("meta scale(mx, 2)", [&] { return consumer::scale(MX, 2.0); });
  run("meta::scale(mx, 2)", [&] { return consumer::meta::scale(MX, 2.0); });
  run("meta scale_(mx, 2)", [&] { return consumer::scale_(MX, 2.0); });
  run("meta scale_out(empty, mx, 2)", [&] {
    sk::Tensor MOut = sk::empty({0}, Meta);
    return consumer::scale_out(MOut, MX, 2.0);
  });
  run("meta squared_difference(mx, my)",
      [&] { return consumer::squared_difference(MX, MY); });
  run("meta::squared_difference(my, mx)",
      [&] { return consumer::meta::squared_difference(MY, MX); });
  run("meta squared_difference(mx, 7x2)", [&] {
    return consumer::squared_difference(MX, sk::empty({7, 2}, Meta));
  });

  // negate on PrivateUse1: the functional kernel, and the inplace and out=
  // kernels skc generated from it (seed 002).
  sk::Tensor P = toPrivateUse1(X);
  run("privateuse1 negate(p)", [&] { return consumer::negate(P); });
  run("privateuse1::negate(p)",
      [&] { return consumer::privateuse1::negate(P); });
  run("privateuse1 negate_out(pout, p)", [&] {
    sk::Tensor POut = toPrivateUse1(sk::zeros({2, 3}));
    return consumer::negate_out(POut, P);
  });
  run("privateuse1::negate_outf(p, pout)", [&] {
    sk::Tensor POut = toPrivateUse1(sk::zeros({2, 3}));
    return consumer::privateuse1::negate_outf(P, POut);
  });
  run("privateuse1 negate_(p)", [&] {
    sk::Tensor Q = toPrivateUse1(X);
    return consumer::negate_(Q);
  });
  run("privateuse1::negate_(p)", [&] {
    sk::Tensor Q = toPrivateUse1(X);
    return consumer::privateuse1::negate_(Q);
  });
  // No CPU kernel: the dispatcher says so.
  run("negate(x)", [&] { return consumer::negate(X); });

  // A checkpoint (skc::serialize): the results saved, loaded back mapped
  // and onto meta; and the runtime's DLPack exchange.
  const std::string Checkpoint = "consumer.safetensors";
  sk::safetensors::save_file({{"scaled", consumer::scale(X, 2.0)}, {"y", Y}},
                             Checkpoint, {{"format", "pt"}});
  run("load_file scaled",
      [&] { return sk::safetensors::load_file(Checkpoint).at("scaled"); });
  run("load_file y onto meta", [&] {
    return sk::safetensors::load_file(Checkpoint, sk::kMeta).at("y");
  });
  run("fromDLPack(toDLPack(x.t()))",
      [&] { return sk::fromDLPack(sk::toDLPack(X.t())); });
  return 0;
}
