//===--- TensorIterator.h - Broadcasting elementwise iteration --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::TensorIteratorBase` (at::TensorIteratorBase): given outputs and
/// inputs, build() works out the broadcast shape, the common dtype and
/// device, the outputs' sizes and strides (allocating or resizing them
/// through set_output_raw_strided), and an iteration order over
/// coalesced dimensions with per-operand byte strides. Loops (Loops.h,
/// Reduce.h) then walk that order, in parallel, two dimensions at a time.
///
/// It is also the meta function of elementwise structured kernels: a
/// generated struct derives from it and overrides set_output_raw_strided,
/// so that the functional / inplace / out= variants decide where the
/// output lives while the iterator decides its shape and dtype:
///
///   SK_META_FUNC(add, Tensor)(const Tensor &self, const Tensor &other,
///                             const Scalar &alpha) {
///     build_borrowing_binary_op(maybe_get_output(), self, other);
///   }
///
/// On meta tensors build() stops after the outputs exist: shapes, dtypes
/// and strides, no data pointers.
///
/// Typical use outside structured kernels:
///
///   TensorIterator Iter = TensorIteratorConfig()
///                             .add_output(Out)
///                             .add_input(A)
///                             .add_input(B)
///                             .promote_inputs_to_common_dtype(true)
///                             .build();
///   cpu_kernel(Iter, [](float X, float Y) { return X + Y; });
///
/// Note [Common dtype computation]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// Inputs only decide the common dtype (outputs never do). With
/// promote_inputs_to_common_dtype it is result_type of the inputs (Note
/// [Result type computation] in TypePromotion.h); without, all inputs must
/// already agree or common_dtype() is an error. Undefined outputs get the
/// common dtype (or the static dtype) and the common device, which is the
/// first non-CPU device of any operand (meta included).
///
/// Note [Type promotion without temporaries]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// PyTorch's CPU iterator copies every input whose dtype differs from the
/// common dtype into a temporary (and computes into a temporary output
/// when cast_common_dtype_to_outputs is set, copying it back afterwards).
/// skc never makes temporaries: operands keep their own dtypes (dtype(i)),
/// and the loops of Loops.h and Reduce.h convert each element on load and
/// store when an operand's dtype differs from the kernel's C++ types. That
/// costs a slower loop on mixed-dtype calls instead of an allocation and
/// an extra pass over memory, and lets build() stay independent of copy
/// kernels. A kernel reading data_ptr() directly must check dtype(i).
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_TENSORITERATOR_H
#define SK_ITER_TENSORITERATOR_H

#include "sk/core/Tensor.h"
#include "sk/iter/MetaBase.h"
#include "sk/iter/Parallel.h"
#include "sk/util/Analysis.h"
#include "sk/util/FunctionRef.h"
#include "sk/util/SmallVector.h"

#include <bitset>
#include <optional>
#include <type_traits>
#include <vector>

namespace sk {

class TensorIterator;
class TensorIteratorBase;

/// A half-open range [begin, end) of linear iteration indices.
struct Range {
  Range(int64_t Begin, int64_t End) : begin(Begin), end(End) {}
  int64_t size() const { return end - begin; }
  int64_t begin;
  int64_t end;
};

/// The broadcast shape of \p A and \p B (at::infer_size): "The size of
/// tensor a (3) must match the size of tensor b (4) at non-singleton
/// dimension 1" when they do not broadcast.
DimVector infer_size_dimvector(IntArrayRef A, IntArrayRef B);

namespace detail {
/// A tensor an operand either borrows (the caller keeps it alive for the
/// life of the iterator) or owns (c10::MaybeOwned<Tensor>). Borrowing
/// saves two atomic reference-count updates per operand per build.
class MaybeOwnedTensor {
public:
  MaybeOwnedTensor() = default;
  static MaybeOwnedTensor borrowed(const Tensor &T) {
    MaybeOwnedTensor M;
    M.Borrowed = &T;
    return M;
  }
  static MaybeOwnedTensor owned(Tensor T) {
    MaybeOwnedTensor M;
    M.Owned = std::move(T);
    return M;
  }
  const Tensor &get() const { return Borrowed ? *Borrowed : Owned; }
  /// Borrows \p T from now on. An owned tensor is released with this
  /// object, not now: callers rebind only undefined ones.
  void borrow(const Tensor &T) { Borrowed = &T; }
  bool isBorrowed() const { return Borrowed != nullptr; }

private:
  const Tensor *Borrowed = nullptr;
  Tensor Owned;
};
} // namespace detail

/// One output or input of a TensorIterator.
struct OperandInfo {
  using StrideVector = SmallVector<int64_t, 6>;

  OperandInfo() = default;
  explicit OperandInfo(detail::MaybeOwnedTensor &&T) noexcept;
  struct BorrowedTag {};
  /// Borrows \p T, which must outlive the operand; made in place, without
  /// the MaybeOwnedTensor temporary that the constructor above moves from.
  OperandInfo(BorrowedTag, const Tensor &T) noexcept;

  /// The tensor; undefined for an output the iterator has yet to allocate.
  const Tensor &tensor() const { return T.get(); }
  void tensor(detail::MaybeOwnedTensor &&NewT) {
    T = std::move(NewT);
    Impl = T.get().unsafeGetTensorImpl();
  }
  /// Borrows \p NewT, which must outlive the operand, in place of an
  /// undefined tensor (an output that set_output_raw_strided allocated).
  void borrow_tensor(const Tensor &NewT) {
    SK_INTERNAL_ASSERT(!Impl, "the operand's tensor is already defined");
    T.borrow(NewT);
    Impl = NewT.unsafeGetTensorImpl();
  }
  /// tensor()'s TensorImpl, null while it is undefined. Cached: build()
  /// reads it many times per operand (Note [Lean iterator setup]).
  TensorImpl *impl() const { return Impl; }

  bool is_type_defined() const { return target_dtype != ScalarType::Undefined; }
  bool is_device_defined() const { return device.has_value(); }
  /// The target dtype and the device.
  TensorOptions options() const;

  /// Byte strides in iteration order (after broadcasting, reordering and
  /// coalescing); 0 along broadcast dimensions.
  StrideVector stride_bytes;
  /// The address of element 0 once built; null on the meta device.
  void *data = nullptr;
  /// The device the operand is (or will be allocated) on.
  std::optional<Device> device;
  /// The dtype the operand should have: its own, or for an output the
  /// iterator allocates, the common or static dtype.
  ScalarType target_dtype = ScalarType::Undefined;
  /// The dtype the operand has.
  ScalarType current_dtype = ScalarType::Undefined;
  bool is_output = false;
  /// A given output whose shape is wrong and that build() resizes.
  bool will_resize = false;
  /// An output that is also an input (an in-place op).
  bool is_read_write = false;

private:
  detail::MaybeOwnedTensor T;
  TensorImpl *Impl = nullptr;
};

/// The options of a TensorIterator: its operands (outputs first) and what
/// build() checks and computes. Defaults follow PyTorch. Borrowed operands
/// must outlive the iterator.
class TensorIteratorConfig {
public:
  TensorIteratorConfig() = default;
  TensorIteratorConfig(const TensorIteratorConfig &) = delete;
  TensorIteratorConfig &operator=(const TensorIteratorConfig &) = delete;

  /// Operands, outputs first. add_output/add_input borrow.
  TensorIteratorConfig &add_output(const Tensor &Output) {
    return add_borrowed_output(Output);
  }
  TensorIteratorConfig &add_input(const Tensor &Input) {
    return add_borrowed_input(Input);
  }
  TensorIteratorConfig &add_owned_output(const Tensor &Output) {
    checkNoInputsYet();
    Tensors.push_back(detail::MaybeOwnedTensor::owned(Output));
    ++NumOutputs;
    return *this;
  }
  TensorIteratorConfig &add_owned_input(const Tensor &Input) {
    Tensors.push_back(detail::MaybeOwnedTensor::owned(Input));
    ++NumInputs;
    return *this;
  }
  TensorIteratorConfig &add_borrowed_output(const Tensor &Output) {
    checkNoInputsYet();
    Tensors.push_back(detail::MaybeOwnedTensor::borrowed(Output));
    ++NumOutputs;
    return *this;
  }
  TensorIteratorConfig &add_borrowed_input(const Tensor &Input) {
    Tensors.push_back(detail::MaybeOwnedTensor::borrowed(Input));
    ++NumInputs;
    return *this;
  }
  // A temporary would dangle: use add_owned_* for those.
  TensorIteratorConfig &add_output(Tensor &&Output) = delete;
  TensorIteratorConfig &add_input(Tensor &&Input) = delete;
  TensorIteratorConfig &add_borrowed_output(Tensor &&Output) = delete;
  TensorIteratorConfig &add_borrowed_input(Tensor &&Input) = delete;

  /// Outputs must not alias each other or partly alias an input
  /// (default: true).
  TensorIteratorConfig &set_check_mem_overlap(bool Check) {
    CheckMemOverlap = Check;
    return *this;
  }
  /// All inputs and given outputs must have one dtype (default: true).
  TensorIteratorConfig &check_all_same_dtype(bool Check) {
    CheckAllSameDtype = Check;
    return *this;
  }
  /// All operands must be on one device, CPU scalars aside when allowed
  /// (default: true).
  TensorIteratorConfig &check_all_same_device(bool Check) {
    CheckAllSameDevice = Check;
    return *this;
  }
  /// The common dtype must be castable (canCast) to each given output's.
  TensorIteratorConfig &enforce_safe_casting_to_output(bool Enforce) {
    EnforceSafeCastingToOutput = Enforce;
    return *this;
  }
  /// Iterate in row-major order of the operands instead of the order that
  /// is fastest in memory (for ops whose result depends on the order).
  TensorIteratorConfig &enforce_linear_iteration(bool Enforce = true) {
    EnforceLinearIteration = Enforce;
    return *this;
  }
  /// Compute the common dtype with result_type; implies
  /// check_all_same_dtype(false).
  TensorIteratorConfig &promote_inputs_to_common_dtype(bool Promote);
  /// An integral common dtype becomes float32 (true division, sqrt, ...);
  /// needs promote_inputs_to_common_dtype.
  TensorIteratorConfig &promote_integer_inputs_to_float(bool Promote);
  /// Outputs may differ from the common dtype: the loops convert on store.
  /// Implies check_all_same_dtype(false).
  TensorIteratorConfig &cast_common_dtype_to_outputs(bool Cast);
  /// Outputs have reduced dimensions (stride 0) instead of the input shape.
  TensorIteratorConfig &is_reduction(bool Reduction) {
    IsReduction = Reduction;
    return *this;
  }
  /// 0-dim CPU tensors (and wrapped numbers) may join operands on another
  /// device.
  TensorIteratorConfig &allow_cpu_scalars(bool Allow) {
    AllowCpuScalars = Allow;
    return *this;
  }
  /// Wrongly sized outputs that are not also inputs are resized (default:
  /// true); otherwise they are an error.
  TensorIteratorConfig &resize_outputs(bool Resize) {
    ResizeOutputs = Resize;
    return *this;
  }

  /// Undefined outputs get \p Dtype and \p Dev instead of the common ones.
  /// Needs check_all_same_dtype(false) first.
  TensorIteratorConfig &declare_static_dtype_and_device(ScalarType Dtype,
                                                        Device Dev);
  TensorIteratorConfig &declare_static_dtype(ScalarType Dtype);
  TensorIteratorConfig &declare_static_device(Device Dev);
  /// Skips shape computation and checking: the iteration shape is
  /// \p Shape, which every operand must already have. Must come after
  /// resize_outputs(false).
  TensorIteratorConfig &declare_static_shape(IntArrayRef Shape);
  /// As above, with the dimensions \p SquashDims iterated once (size 1).
  TensorIteratorConfig &declare_static_shape(IntArrayRef Shape,
                                             IntArrayRef SquashDims);

  /// Builds a TensorIterator from this configuration, consuming it.
  TensorIterator build();

private:
  friend class TensorIteratorBase;

  void checkNoInputsYet() const {
    SK_INTERNAL_ASSERT(NumInputs == 0, "add all outputs to a "
                                       "TensorIteratorConfig before any input");
  }

  SmallVector<detail::MaybeOwnedTensor, 4> Tensors;
  int NumOutputs = 0;
  int NumInputs = 0;
  std::optional<DimVector> StaticShape;
  std::optional<ScalarType> StaticDtype;
  std::optional<Device> StaticDevice;
  bool CheckMemOverlap = true;
  bool AllowCpuScalars = false;
  bool IsReduction = false;
  bool ResizeOutputs = true;
  bool CheckAllSameDtype = true;
  bool CheckAllSameDevice = true;
  bool EnforceSafeCastingToOutput = false;
  bool EnforceLinearIteration = false;
  bool PromoteInputsToCommonDtype = false;
  bool PromoteIntegerInputsToFloat = false;
  bool CastCommonDtypeToOutputs = false;
};

/// See the file comment.
///
/// Invariants once built: outputs come first and are defined; unless
/// is_meta(), every operand's stride_bytes has ndim() entries and its data
/// pointer is set. A meta iterator describes its outputs only: loops
/// never run on it, so it may skip the per-operand strides.
class TensorIteratorBase : public impl::MetaBase {
public:
  using DimMask = std::bitset<64>;
  using PtrVector = SmallVector<char *, 4>;
  using StrideVector = SmallVector<int64_t, 6>;
  /// The body of a loop over a 2-d block: \p Data holds one pointer per
  /// operand (outputs first) and \p Strides the byte strides of the inner
  /// dimension (Strides[0 .. ntensors()) ) followed by those of the outer
  /// one (Strides[ntensors() .. 2 * ntensors()) ).
  using loop2d_t = FunctionRef<void(char **Data, const int64_t *Strides,
                                    int64_t Size0, int64_t Size1)>;

  TensorIteratorBase() = default;

  /// Runs the configuration: see the file comment.
  SK_SETS_ALL_OUTPUTS void build(TensorIteratorConfig &Config);

  // Shape of the iteration.
  int ndim() const { return static_cast<int>(Shape.size()); }
  IntArrayRef shape() const { return Shape; }
  int64_t numel() const;
  int ntensors() const { return static_cast<int>(Operands.size()); }
  int noutputs() const { return NumOutputs; }
  int ninputs() const { return ntensors() - noutputs(); }
  /// Whether any operand is a meta tensor: build() computed shapes only.
  bool is_meta() const { return IsMeta; }

  // Operands.
  const Tensor &tensor(int Arg) const { return Operands[Arg].tensor(); }
  const Tensor &output(int Arg = 0) const {
    SK_INTERNAL_ASSERT(Arg < NumOutputs);
    return tensor(Arg);
  }
  const Tensor &input(int Arg = 0) const {
    SK_INTERNAL_ASSERT(Arg >= 0 && Arg < ninputs());
    return tensor(NumOutputs + Arg);
  }
  /// Byte strides of operand \p Arg, in iteration order.
  IntArrayRef strides(int Arg) const { return Operands[Arg].stride_bytes; }
  void *data_ptr(int Arg) const { return Operands[Arg].data; }
  ScalarType dtype(int Arg = 0) const { return Operands[Arg].current_dtype; }
  ScalarType input_dtype(int Arg = 0) const {
    return Operands[NumOutputs + Arg].current_dtype;
  }
  /// The dtype the op computes in (Note [Common dtype computation]).
  ScalarType common_dtype() const {
    SK_INTERNAL_ASSERT(CommonDtype != ScalarType::Undefined,
                       "Queried for invalid common dtype!");
    return CommonDtype;
  }
  Device device(int Arg = 0) const {
    return Operands[Arg].device.value_or(kCPU);
  }
  Device common_device() const { return CommonDevice; }
  int64_t element_size(int Arg) const {
    return static_cast<int64_t>(elementSize(dtype(Arg)));
  }
  const OperandInfo &operand(int Arg) const { return Operands[Arg]; }

  // Properties of the iteration.
  /// Whether operand \p Arg is one element broadcast over the iteration.
  bool is_scalar(int Arg) const;
  bool is_cpu_scalar(int Arg) const;
  /// Whether the iteration is one dimension.
  bool is_trivial_1d() const { return ndim() == 1; }
  /// Whether every operand is contiguous in iteration order (one
  /// dimension of element-sized strides).
  bool is_contiguous() const;
  /// Whether the innermost dimension has element-sized strides for every
  /// operand.
  bool has_contiguous_first_dim() const;
  /// Whether the outputs are broadcast along \p Dim (a reduction).
  bool is_dim_reduced(int Dim) const;
  /// Elements of output 0, counting reduced dimensions once.
  int64_t num_output_elements() const;
  /// Dimensions output 0 is reduced over.
  int num_reduce_dims() const;
  /// Whether every offset fits in an int32 (for device kernels).
  bool can_use_32bit_indexing() const;
  /// The dimension of size 2 or more along which some operand spans the
  /// most bytes (of equals, the outermost): where splitFor32BitIndexing()
  /// halves the iteration. -1 where there is none (at most one element).
  int get_dim_to_split() const;

  /// Restricts the iteration to indices [Start, Start + Size) of
  /// dimension \p Dim: each operand's data pointer moves to Start. The
  /// shape queries (numel(), is_contiguous(), ...) then describe the
  /// narrowed iteration; tensor() and output() still the whole tensors.
  /// Narrowed to one index, the dimension is coalesced away (but in a
  /// reduction), so that ndim() may drop.
  void narrow(int Dim, int64_t Start, int64_t Size);

  /// Byte strides of all operands, dimension-major, at least 2
  /// dimensions: what a loop2d_t receives.
  StrideVector get_strides() const;
  /// Byte strides of every operand along \p Dim.
  StrideVector get_dim_strides(int Dim) const;
  StrideVector get_inner_strides() const { return get_dim_strides(0); }
  PtrVector get_base_ptrs() const;

  // Loops.
  /// Calls \p Loop over 2-d blocks covering the iteration, in parallel
  /// (OpenMP) when there are at least \p GrainSize elements.
  void for_each(loop2d_t Loop, int64_t GrainSize = kGrainSize);
  /// The same with a 1-d body `(char **Data, const int64_t *Strides,
  /// int64_t Size)`.
  template <typename Loop1d,
            std::enable_if_t<std::is_invocable_v<Loop1d &, char **,
                                                 const int64_t *, int64_t>,
                             int> = 0>
  void for_each(Loop1d &&Loop, int64_t GrainSize = kGrainSize) {
    auto Loop2d = loop2dFrom1d(Loop);
    for_each(loop2d_t(Loop2d), GrainSize);
  }
  /// Calls \p Loop over the linear sub-range \p R of the iteration, on the
  /// calling thread.
  void serial_for_each(loop2d_t Loop, Range R) const;
  template <typename Loop1d,
            std::enable_if_t<std::is_invocable_v<Loop1d &, char **,
                                                 const int64_t *, int64_t>,
                             int> = 0>
  void serial_for_each(Loop1d &&Loop, Range R) const {
    auto Loop2d = loop2dFrom1d(Loop);
    serial_for_each(loop2d_t(Loop2d), R);
  }

  // The common builders (PyTorch's build_*_op). The borrowing variants
  // keep references to the arguments, which must outlive the iterator.
  /// out = f(a, b): promotes, casts to out, resizes out.
  SK_SETS_ALL_OUTPUTS void build_binary_op(const Tensor &Out, const Tensor &A, const Tensor &B);
  SK_SETS_ALL_OUTPUTS void build_borrowing_binary_op(const Tensor &Out, const Tensor &A,
                                 const Tensor &B);
  /// As binary_op, with integral inputs computed in float32.
  SK_SETS_ALL_OUTPUTS void build_binary_float_op(const Tensor &Out, const Tensor &A,
                             const Tensor &B);
  SK_SETS_ALL_OUTPUTS void build_borrowing_binary_float_op(const Tensor &Out, const Tensor &A,
                                       const Tensor &B);
  /// out = a <cmp> b: bool when out is undefined, else out's dtype.
  SK_SETS_ALL_OUTPUTS void build_comparison_op(const Tensor &Out, const Tensor &A, const Tensor &B);
  SK_SETS_ALL_OUTPUTS void build_borrowing_comparison_op(const Tensor &Out, const Tensor &A,
                                     const Tensor &B);
  /// out = f(a), all one dtype.
  SK_SETS_ALL_OUTPUTS void build_unary_op(const Tensor &Out, const Tensor &A);
  SK_SETS_ALL_OUTPUTS void build_borrowing_unary_op(const Tensor &Out, const Tensor &A);
  /// out = f(a) computed in floating point.
  SK_SETS_ALL_OUTPUTS void build_unary_float_op(const Tensor &Out, const Tensor &A);
  SK_SETS_ALL_OUTPUTS void build_borrowing_unary_float_op(const Tensor &Out, const Tensor &A);
  /// out = f(a, b, c), promoting like binary_op.
  SK_SETS_ALL_OUTPUTS void build_ternary_op(const Tensor &Out, const Tensor &A, const Tensor &B,
                        const Tensor &C);

  /// The structured-kernel half of set_output: a subclass has put output
  /// \p OutputIdx where maybe_get_output() returns it; this records it as
  /// the operand (PyTorch: "NEVER actually called directly"). Inline, so
  /// that in the final variant structs that call it (StructuredVariants.h)
  /// maybe_get_output() is a direct read of their output, not a virtual
  /// call.
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef, IntArrayRef,
                              TensorOptions) override {
    OperandInfo &Op = Operands[OutputIdx];
    SK_INTERNAL_ASSERT(OutputIdx < NumOutputs);
    const Tensor &T = maybe_get_output(OutputIdx);
    SK_INTERNAL_ASSERT(T.defined(),
                       "set_output_raw_strided of a structured kernel left "
                       "output ",
                       OutputIdx, " undefined");
    if (!Op.impl())
      Op.borrow_tensor(T);
    // A resized output was resized in place by the subclass: the operand
    // is the same tensor.
    Op.current_dtype = Op.impl()->dtype();
  }

protected:
  /// The 2-d body that runs \p Loop once per row.
  template <typename Loop1d> auto loop2dFrom1d(Loop1d &Loop) const {
    return [&Loop, NT = ntensors()](char **Base, const int64_t *Strides,
                                    int64_t Size0, int64_t Size1) {
      PtrVector Data(ArrayRef<char *>(Base, NT));
      const int64_t *Outer = Strides + NT;
      for (int64_t I = 0; I < Size1; ++I) {
        if (I > 0)
          for (int Arg = 0; Arg < NT; ++Arg)
            Data[Arg] += Outer[Arg];
        Loop(Data.data(), Strides, Size0);
      }
    };
  }

  /// build() with the flags of \p Config and the borrowed operands
  /// \p Tensors (outputs first, \p NumOutputs of them) instead of its own
  /// (Note [Constant builder configurations]).
  void build_borrowed(ArrayRef<const Tensor *> Tensors, int NumOutputs,
                      const TensorIteratorConfig &Config);
  /// build() on a configuration whose operands are already in place.
  void build_populated(const TensorIteratorConfig &Config);
  void populate_operands(TensorIteratorConfig &Config);
  /// Borrows \p Tensors (outputs first, \p NumOutputs of them) as the
  /// operands (Note [Constant builder configurations]).
  void populate_borrowed_operands(ArrayRef<const Tensor *> Tensors,
                                  int NumOutputs);
  /// Operand I is constructed by \p Make(Slot, I) at Slot, which it
  /// returns.
  template <typename MakeFn>
  void populate_operands_from(size_t N, int NumOutputs, MakeFn Make);
  void mark_outputs();
  void mark_resize_outputs(const TensorIteratorConfig &Config);
  void compute_mem_overlaps(const TensorIteratorConfig &Config);
  void compute_shape(const TensorIteratorConfig &Config);
  void compute_types(const TensorIteratorConfig &Config);
  ScalarType compute_common_dtype();
  /// Note [Functional elementwise fast path]: builds the common case from
  /// the \p NT tensors TensorAt(I) (outputs first), making operand I with
  /// \p Make(Slot, I) as populate_operands_from does; or returns false,
  /// having made no operand, for the general path.
  template <typename TensorAtFn, typename MakeFn>
  bool build_functional_elementwise(size_t NT, int NumOutputs,
                                    const TensorIteratorConfig &Config,
                                    TensorAtFn TensorAt, MakeFn Make);
  bool fast_set_up(const TensorIteratorConfig &Config);
  bool fast_set_up_row_major(const TensorIteratorConfig &Config);
  /// The end of fast_set_up: every operand dense in one order becomes one
  /// dimension of element-sized strides; with \p SetDataPointers, the
  /// data pointers are set in the same pass (as setDataPointers would).
  void coalesce_dense_operands(bool SetDataPointers = false);
  /// The end of fast_set_up_row_major once the outputs exist: strides,
  /// the row-major permutation, coalescing.
  void finish_row_major_set_up(const TensorIteratorConfig &Config);
  void setDataPointers();
  void compute_strides(const TensorIteratorConfig &Config,
                       bool AfterAllocation = false);
  void reorder_dimensions();
  bool allOperandsRowMajor(bool BeforeStrides) const;
  void permute_dimensions(IntArrayRef Perm);
  void allocate_or_resize_outputs();
  void coalesce_dimensions();
  /// Undoes reorder_dimensions' permutation on \p Input.
  DimVector invert_perm(IntArrayRef Input) const;
  /// Row-major byte strides of the iteration shape for \p ElementSize.
  StrideVector compatible_stride(int64_t ElementSize) const;

  SmallVector<OperandInfo, 4> Operands;
  DimVector Shape;
  /// The permutation reorder_dimensions applied: Perm[I] is the original
  /// dimension now at position I (fastest first).
  DimVector Perm;
  int NumOutputs = 0;
  ScalarType CommonDtype = ScalarType::Undefined;
  Device CommonDevice = kCPU;
  bool IsReduction = false;
  bool IsMeta = false;
  bool AllOpsSameShape = false;
  bool AllOpsAreScalars = false;
  bool HasCoalescedDimensions = false;
  bool EnforceLinearIteration = false;
  bool StaticShape = false;
  /// Whether some output was given (defined) to build().
  bool HasDefinedOutputs = false;
};

/// A TensorIterator that allocates its own outputs (what kernels build
/// outside structured meta functions).
class TensorIterator final : public TensorIteratorBase {
public:
  TensorIterator() = default;
  /// A copy of \p Iter's state, e.g. of a structured kernel's iterator.
  explicit TensorIterator(const TensorIteratorBase &Iter)
      : TensorIteratorBase(Iter) {}

  static TensorIterator binary_op(const Tensor &Out, const Tensor &A,
                                  const Tensor &B);
  static TensorIterator borrowing_binary_op(const Tensor &Out, const Tensor &A,
                                            const Tensor &B);
  static TensorIterator binary_float_op(const Tensor &Out, const Tensor &A,
                                        const Tensor &B);
  static TensorIterator comparison_op(const Tensor &Out, const Tensor &A,
                                      const Tensor &B);
  static TensorIterator unary_op(const Tensor &Out, const Tensor &A);
  static TensorIterator unary_float_op(const Tensor &Out, const Tensor &A);
  static TensorIterator nullary_op(const Tensor &Out);
  static TensorIterator borrowing_nullary_op(const Tensor &Out);
  /// A reduction of \p A into \p Out, which has \p A's rank with size 1
  /// (stride 0 once viewed) along the reduced dimensions; see
  /// ReduceUtils.h for building that view from a keepdim=false output.
  static TensorIterator reduce_op(const Tensor &Out, const Tensor &A);
  /// Two outputs of one reduction (values and indices).
  static TensorIterator reduce_op(const Tensor &Out1, const Tensor &Out2,
                                  const Tensor &A);

  const Tensor &maybe_get_output(int64_t OutputIdx) override;
  /// Allocates an undefined output on the operands' device (meta
  /// included), or resizes a will_resize one.
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override;
};

/// Sub-iterations that together cover the elementwise iteration \p Iter
/// once, each of which can_use_32bit_indexing() (or has no elements):
/// \p Iter itself where it can, else its halves along get_dim_to_split(),
/// halved again until they can (PyTorch's with_32bit_indexing), in the
/// order of their data. A device kernel then indexes each in 32 bits,
/// which a GPU divides several times faster than 64. Not for reductions:
/// halves of a reduced dimension would each write all of the outputs.
std::vector<TensorIterator>
splitFor32BitIndexing(const TensorIteratorBase &Iter);

} // namespace sk

#endif // SK_ITER_TENSORITERATOR_H
