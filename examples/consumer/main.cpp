//===--- main.cpp - Runs every variant of the consumer's operators --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls each operator of ops.yaml in each of its variants: through the
/// dispatcher (`consumer::op`), directly on the CPU (`consumer::cpu::op`),
/// on meta tensors (shapes and dtypes, no data), and on the PrivateUse1
/// device, whose only kernel is negate's functional one. Prints one line
/// per call; the install test checks them.
///
//===----------------------------------------------------------------------===//

#include "consumer_ops/CPUFunctions.h"
#include "consumer_ops/Functions.h"

#include "sk/core/Allocator.h"
#include "sk/core/EmptyTensor.h"
#include "sk/ops/Factories.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

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

/// A copy of the PrivateUse1 tensor \p T on the CPU, for printing.
sk::Tensor toCPU(const sk::Tensor &T) {
  sk::Tensor Result = sk::empty(T.sizes(), T.options().device(sk::kCPU));
  std::memcpy(Result.data_ptr(), T.data_ptr(), T.nbytes());
  return Result;
}

void show(const char *What, const sk::Tensor &T) {
  std::cout << What << " = " << T << '\n';
}

} // namespace

int main() {
  static HostAllocator PrivateUse1Memory;
  sk::setAllocator(sk::DeviceType::PrivateUse1, &PrivateUse1Memory);

  sk::Tensor X =
      sk::arange(6, sk::TensorOptions().dtype(sk::kFloat)).reshape({2, 3});
  sk::Tensor Y = sk::arange(3, sk::TensorOptions().dtype(sk::kFloat));
  show("x", X);
  show("y", Y);

  // scale: functional, out= in both spellings and inplace, through the
  // dispatcher and directly.
  show("scale(x, 2)", consumer::scale(X, 2.0));
  show("cpu::scale(x, 2)", consumer::cpu::scale(X, 2.0));
  sk::Tensor Out = sk::empty({2, 3}, sk::TensorOptions().dtype(sk::kFloat));
  consumer::scale_out(Out, X, 3.0);
  show("scale_out(out, x, 3)", Out);
  consumer::scale_outf(X, 4.0, Out);
  show("scale_outf(x, 4, out)", Out);
  sk::Tensor Z = X.clone();
  consumer::scale_(Z, 0.5);
  show("scale_(z, 0.5)", Z);
  consumer::cpu::scale_(Z, 2.0);
  show("cpu::scale_(z, 2)", Z);

  // squared_difference: broadcasting through TensorIterator.
  show("squared_difference(x, y)", consumer::squared_difference(X, Y));
  show("cpu::squared_difference(x, y)",
       consumer::cpu::squared_difference(X, Y));
  consumer::squared_difference_out(Out, Y, X);
  show("squared_difference_out(out, y, x)", Out);

  // Meta tensors: shapes and dtypes only.
  sk::Tensor MX = sk::empty({8, 1, 5}, sk::TensorOptions().device(sk::kMeta));
  sk::Tensor MY = sk::empty({7, 1}, sk::TensorOptions().device(sk::kMeta));
  show("meta scale(mx, 2)", consumer::scale(MX, 2.0));
  show("meta squared_difference(mx, my)", consumer::squared_difference(MX, MY));

  // negate on PrivateUse1: the functional kernel, and the inplace and out=
  // kernels skc generated from it.
  sk::Tensor P = toPrivateUse1(X);
  show("privateuseone negate(p)", toCPU(consumer::negate(P)));
  sk::Tensor POut = toPrivateUse1(sk::zeros({2, 3}));
  consumer::negate_out(POut, P);
  show("privateuseone negate_out(pout, p)", toCPU(POut));
  consumer::negate_(P);
  show("privateuseone negate_(p)", toCPU(P));
  return 0;
}
