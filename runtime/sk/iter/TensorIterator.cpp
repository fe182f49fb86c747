//===--- TensorIterator.cpp - Broadcasting elementwise iteration ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/TensorIterator.h"

#include "sk/core/EmptyTensor.h"
#include "sk/iter/MemoryOverlap.h"
#include "sk/iter/StructuredHelpers.h"
#include "sk/iter/TypePromotion.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace sk {

/// The error of sizes that do not broadcast. Out of line and taking its
/// values by value: an SK_CHECK in the loop below captures them by
/// reference, which keeps them in memory, stored on every iteration.
[[noreturn, gnu::noinline, gnu::cold]] static void
reportBroadcastMismatch(int64_t SizeA, int64_t SizeB, size_t Dim) {
  SK_CHECK(false, "The size of tensor a (", SizeA,
           ") must match the size of tensor b (", SizeB,
           ") at non-singleton dimension ", Dim);
}

/// Broadcasts \p Shape (tensor a) with \p B in place.
static void broadcastInPlace(DimVector &Shape, IntArrayRef B) {
  size_t DimsA = Shape.size(), DimsB = B.size();
  if (DimsB > DimsA) {
    // Leading dimensions of size 1 for a.
    Shape.resize(DimsB);
    for (size_t I = DimsB; I-- > DimsB - DimsA;)
      Shape[I] = Shape[I - (DimsB - DimsA)];
    for (size_t I = 0; I != DimsB - DimsA; ++I)
      Shape[I] = 1;
  }
  size_t Ndim = Shape.size();
  for (size_t Offset = 0; Offset < DimsB; ++Offset) {
    size_t I = Ndim - 1 - Offset;
    int64_t SizeA = Offset < DimsA ? Shape[I] : 1;
    int64_t SizeB = B[DimsB - 1 - Offset];
    if (SK_UNLIKELY(SizeA != SizeB && SizeA != 1 && SizeB != 1))
      reportBroadcastMismatch(SizeA, SizeB, I);
    Shape[I] = SizeA == 1 ? SizeB : SizeA;
  }
}

/// Broadcasts \p Shape with \p B, both of rank \p Ndim, in place, as
/// broadcastInPlace does (the same error for the same sizes); returns
/// whether \p B differed from \p Shape.
static bool broadcastSameRank(int64_t *Shape, const int64_t *B, size_t Ndim) {
  bool Differ = false;
  for (size_t I = Ndim; I-- > 0;) {
    int64_t SizeA = Shape[I], SizeB = B[I];
    if (SizeA == SizeB)
      continue;
    Differ = true;
    if (SK_UNLIKELY(SizeA != 1 && SizeB != 1))
      reportBroadcastMismatch(SizeA, SizeB, I);
    if (SizeA == 1)
      Shape[I] = SizeB;
  }
  return Differ;
}

/// result_type of the tensors TensorAt(I), I in [\p Begin, \p End).
template <typename TensorAtFn>
static ScalarType resultTypeOf(size_t Begin, size_t End, TensorAtFn TensorAt) {
  ResultTypeState State;
  for (size_t I = Begin; I != End; ++I)
    State = update_result_type_state(TensorAt(I), State);
  return result_type(State);
}

DimVector infer_size_dimvector(IntArrayRef A, IntArrayRef B) {
  DimVector Expanded(A);
  broadcastInPlace(Expanded, B);
  return Expanded;
}

OperandInfo::OperandInfo(detail::MaybeOwnedTensor &&MT) noexcept
    : T(std::move(MT)), Impl(T.get().unsafeGetTensorImpl()) {
  if (!Impl)
    return;
  device = Impl->device();
  target_dtype = Impl->dtype();
  current_dtype = target_dtype;
}

OperandInfo::OperandInfo(BorrowedTag, const Tensor &Borrowed) noexcept
    : T(detail::MaybeOwnedTensor::borrowed(Borrowed)),
      Impl(Borrowed.unsafeGetTensorImpl()) {
  if (!Impl)
    return;
  device = Impl->device();
  target_dtype = Impl->dtype();
  current_dtype = target_dtype;
}

TensorOptions OperandInfo::options() const {
  // Read the optional's fields rather than copy it whole: see Note
  // [Optional devices from a table] in TensorOptions.h.
  TensorOptions O(target_dtype);
  if (device.has_value())
    O = O.device(*device);
  return O;
}

//===----------------------------------------------------------------------===//
// TensorIteratorConfig
//===----------------------------------------------------------------------===//

TensorIteratorConfig &
TensorIteratorConfig::promote_inputs_to_common_dtype(bool Promote) {
  PromoteInputsToCommonDtype = Promote;
  if (Promote)
    CheckAllSameDtype = false;
  return *this;
}

TensorIteratorConfig &
TensorIteratorConfig::promote_integer_inputs_to_float(bool Promote) {
  PromoteIntegerInputsToFloat = Promote;
  SK_INTERNAL_ASSERT(!Promote || PromoteInputsToCommonDtype,
                     "promote_integer_inputs_to_float needs "
                     "promote_inputs_to_common_dtype");
  return *this;
}

TensorIteratorConfig &
TensorIteratorConfig::cast_common_dtype_to_outputs(bool Cast) {
  CastCommonDtypeToOutputs = Cast;
  if (Cast)
    CheckAllSameDtype = false;
  return *this;
}

TensorIteratorConfig &
TensorIteratorConfig::declare_static_dtype_and_device(ScalarType Dtype,
                                                      Device Dev) {
  declare_static_dtype(Dtype);
  StaticDevice = Dev;
  return *this;
}

TensorIteratorConfig &TensorIteratorConfig::declare_static_dtype(ScalarType D) {
  SK_CHECK(!CheckAllSameDtype, "check_all_same_dtype(false) must be called "
                               "before declare_static_dtype(...)");
  StaticDtype = D;
  return *this;
}

TensorIteratorConfig &TensorIteratorConfig::declare_static_device(Device D) {
  StaticDevice = D;
  return *this;
}

TensorIteratorConfig &
TensorIteratorConfig::declare_static_shape(IntArrayRef StaticShapeArg) {
  // Bypasses all shape checking: the caller has checked the operands.
  SK_CHECK(!ResizeOutputs, "resize_outputs() must be called before "
                           "declare_static_shape(...)");
  StaticShape = DimVector(StaticShapeArg);
  return *this;
}

TensorIteratorConfig &
TensorIteratorConfig::declare_static_shape(IntArrayRef StaticShapeArg,
                                           IntArrayRef SquashDims) {
  declare_static_shape(StaticShapeArg);
  for (int64_t D : SquashDims) {
    SK_CHECK(D >= 0 && D < static_cast<int64_t>(StaticShape->size()),
             "squash_dim ", D, " must be in [0, ", StaticShape->size(), ").");
    (*StaticShape)[D] = 1;
  }
  return *this;
}

TensorIterator TensorIteratorConfig::build() {
  TensorIterator Iter;
  Iter.build(*this);
  return Iter;
}

//===----------------------------------------------------------------------===//
// build()
//===----------------------------------------------------------------------===//

// Note [Lean iterator setup]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// build() runs on every call of an elementwise op, and for meta tensors
// and small CPU tensors it is most of the op's cost, so its passes are
// kept lean:
//  - each operand caches its TensorImpl (OperandInfo::impl()), and the
//    passes read sizes, dtypes and layout flags from it directly, without
//    the defined-ness checks of Tensor's accessors and the borrowed-or-
//    owned indirection;
//  - outputs are marked while the operands are populated, and the passes
//    about given outputs (aliasing, overlap, resizing) stop at once when
//    every output is undefined, the functional case;
//  - compute_types' second pass looks only at the outputs when every
//    operand is on the common device (the device checks would all pass);
//  - build() calls a fast set-up only when it may apply;
//  - TensorOptions is one word (Note [TensorOptions in one word]), built
//    in registers for each output;
//  - error paths in loops are out-of-line calls taking values, not
//    SK_CHECKs, whose by-reference captures keep the loop's variables in
//    memory.

// Note [Functional elementwise fast path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Most builds are the functional call of an elementwise op: every output
// undefined, every input defined, row-major contiguous, of one dtype and
// on one device, with no static shape or device and not a reduction
// (add(A, B) on meta tensors, for shape inference, above all). For those,
// the passes of the general path reduce to
//  - compute_shape: the broadcast of the inputs' sizes;
//  - compute_types: the inputs' dtype (promoted as compute_types promotes
//    it) and device, given to every output, or the static dtype if there
//    is one (comparisons declare bool);
//  - fast_set_up (inputs of one shape) or fast_set_up_row_major (others):
//    row-major outputs of that shape,
// which build_functional_elementwise() computes in one pass over the
// inputs, a fill of the shape and the outputs' allocation. It runs before
// any operand exists and reads the inputs' TensorImpls from the tensors
// themselves; the operands are made afterwards, in one pass that stores
// values it already holds. (Run after populate_operands, reading each
// field back from the operand just written, a meta add took 51 ns; this
// way, 43 ns.) When one of its assumptions fails (different dtypes or
// devices, a strided input, sizes that do not broadcast), it returns
// false having changed nothing but Shape, and build() populates the
// operands and takes the general path, which recomputes Shape and makes
// the checks and errors of the general case. The outputs and the options
// passed to set_output_raw_strided are the general path's exactly
// (TensorIteratorTest checks both paths against each other).

// Inlined into its callers, build() and build_borrowed(): a call, with its
// register saves and restores, was 25 of 868 instructions of a meta add.
template <typename TensorAtFn, typename MakeFn>
[[gnu::always_inline]] inline bool
TensorIteratorBase::build_functional_elementwise(
    size_t NT, int NumOutputsArg, const TensorIteratorConfig &Config,
    TensorAtFn TensorAt, MakeFn Make) {
  size_t Outputs = static_cast<size_t>(NumOutputsArg);
  if (Config.IsReduction || Config.StaticShape || Config.StaticDevice ||
      !Config.CheckAllSameDevice || NT == Outputs)
    return false;
  for (size_t I = 0; I != Outputs; ++I)
    if (TensorAt(I).defined())
      return false;
  // One pass over the inputs: dtype, device, layout and the broadcast
  // shape, computed as compute_shape computes it (so a broadcast error
  // here is the one the general path would raise first).
  const TensorImpl *First = TensorAt(Outputs).unsafeGetTensorImpl();
  if (!First || !First->is_contiguous())
    return false;
  ScalarType Dtype = First->dtype();
  Device Dev = First->device();
  Shape = First->sizes();
  bool SameShape = true;
  for (size_t I = Outputs + 1; I != NT; ++I) {
    const TensorImpl *T = TensorAt(I).unsafeGetTensorImpl();
    if (!T || T->dtype() != Dtype || T->device() != Dev || !T->is_contiguous())
      return false;
    IntArrayRef S = T->sizes();
    if (S.size() == Shape.size()) {
      SameShape &= !broadcastSameRank(Shape.data(), S.data(), S.size());
      continue;
    }
    SameShape = false;
    broadcastInPlace(Shape, S);
  }

  // compute_types, for inputs that agree: their dtype, promoted as it
  // promotes it.
  ScalarType Common = Dtype;
  if (Shape.empty() && Config.PromoteInputsToCommonDtype)
    Common = resultTypeOf(Outputs, NT, TensorAt);
  if (Config.PromoteIntegerInputsToFloat &&
      isIntegralType(Common, /*IncludeBool=*/true))
    Common = get_default_dtype();
  // Outputs get the static dtype if there is one (comparisons declare
  // bool), else the common one.
  ScalarType OutputDtype = Config.StaticDtype ? *Config.StaticDtype : Common;

  // Every assumption holds: the operands, in one pass, the outputs with
  // their dtype and the common device. Outputs are undefined and inputs on
  // Dev, so the build is a meta one when Dev is.
  NumOutputs = NumOutputsArg;
  Operands.append_in_place(
      NT, [&, I = size_t(0)](OperandInfo *Slot) mutable noexcept {
        OperandInfo &Op = Make(Slot, I);
        if (I++ >= Outputs)
          return;
        Op.is_output = true;
        Op.target_dtype = OutputDtype;
        Op.device = Dev;
      });
  IsMeta = Dev.is_meta();
  EnforceLinearIteration = Config.EnforceLinearIteration;
  AllOpsSameShape = SameShape;
  AllOpsAreScalars = Shape.empty();
  CommonDtype = Common;
  CommonDevice = Dev;

  // The outputs, as fast_set_up (one shape) or fast_set_up_row_major
  // (broadcast) allocate them.
  TensorOptions Options = TensorOptions(OutputDtype).device(Dev);
  if (SameShape)
    Options = Options.memory_format(MemoryFormat::Contiguous);
  for (size_t I = 0; I != Outputs; ++I) {
    set_output_raw_strided(static_cast<int64_t>(I), Shape, {}, Options);
    if (!SameShape)
      Operands[I].current_dtype = OutputDtype;
  }
  // As in fast_set_up, one shape gives one dimension, on meta tensors too;
  // fast_set_up_row_major leaves meta iterators as they are. The data
  // pointers are set here, in the same pass as the strides when it can be.
  if (SameShape) {
    coalesce_dense_operands(/*SetDataPointers=*/!IsMeta);
  } else if (!IsMeta) {
    finish_row_major_set_up(Config);
    setDataPointers();
  }
  return true;
}

void TensorIteratorBase::build(TensorIteratorConfig &Config) {
  auto &Tensors = Config.Tensors;
  if (build_functional_elementwise(
          Tensors.size(), Config.NumOutputs, Config,
          [&Tensors](size_t I) -> const Tensor & { return Tensors[I].get(); },
          [&Tensors](OperandInfo *Slot, size_t I) noexcept -> OperandInfo & {
            return *new (Slot) OperandInfo(std::move(Tensors[I]));
          }))
    return;
  populate_operands(Config);
  build_populated(Config);
}

// Inlined into each borrowing builder, where the operand count and the
// tensors' addresses are constants: the fast path's loops unroll, which
// took a meta add from 803 to 750 instructions (43 to 40.5 ns).
[[gnu::always_inline]] inline void
TensorIteratorBase::build_borrowed(ArrayRef<const Tensor *> Tensors,
                                   int NumOutputsArg,
                                   const TensorIteratorConfig &Config) {
  if (build_functional_elementwise(
          Tensors.size(), NumOutputsArg, Config,
          [Tensors](size_t I) -> const Tensor & { return *Tensors[I]; },
          [Tensors](OperandInfo *Slot, size_t I) noexcept -> OperandInfo & {
            return *new (Slot)
                OperandInfo(OperandInfo::BorrowedTag(), *Tensors[I]);
          }))
    return;
  populate_borrowed_operands(Tensors, NumOutputsArg);
  build_populated(Config);
}

void TensorIteratorBase::build_populated(const TensorIteratorConfig &Config) {
  IsReduction = Config.IsReduction;
  EnforceLinearIteration = Config.EnforceLinearIteration;
  StaticShape = Config.StaticShape.has_value();

  mark_outputs();
  compute_mem_overlaps(Config);
  compute_shape(Config);
  mark_resize_outputs(Config);
  compute_types(Config);
  // The fast set-ups apply only to elementwise ops of the operands' own
  // shape; the tests that rule them out are here so that a call is made
  // only when one may apply.
  bool FastSetUp = !IsReduction && !StaticShape &&
                   ((AllOpsSameShape && fast_set_up(Config)) ||
                    fast_set_up_row_major(Config));
  if (!FastSetUp) {
    compute_strides(Config);
    reorder_dimensions();
    allocate_or_resize_outputs();
    // Loops never run on meta tensors, so their dimensions stay as they
    // are (which keeps invert_perm valid for callers).
    if (!IsMeta)
      coalesce_dimensions();
  }
  if (IsMeta)
    return;
  setDataPointers();
}

void TensorIteratorBase::setDataPointers() {
  for (OperandInfo &Op : Operands) {
    SK_INTERNAL_ASSERT(Op.impl(), "operand left undefined");
    Op.data = Op.impl()->data();
  }
}

template <typename MakeFn>
void TensorIteratorBase::populate_operands_from(size_t N, int NumOutputsArg,
                                                MakeFn Make) {
  NumOutputs = NumOutputsArg;
  bool Meta = false;
  bool DefinedOutputs = false;
  size_t I = 0;
  // In place, counting in registers: a loop of emplace_back carries the
  // vector's size through memory from one operand to the next.
  Operands.append_in_place(N, [&](OperandInfo *Slot) noexcept {
    OperandInfo &Op = Make(Slot, I);
    const TensorImpl *Impl = Op.impl();
    bool Output = I < static_cast<size_t>(NumOutputsArg);
    Op.is_output = Output;
    DefinedOutputs |= Output && Impl;
    // Any meta operand makes the whole computation a meta one: shapes and
    // dtypes only, as with multiple dispatch.
    Meta |= Impl && Impl->is_meta();
    ++I;
  });
  HasDefinedOutputs = DefinedOutputs;
  if (Meta)
    IsMeta = true;
}

void TensorIteratorBase::populate_operands(TensorIteratorConfig &Config) {
  populate_operands_from(
      Config.Tensors.size(), Config.NumOutputs,
      [&Config](OperandInfo *Slot, size_t I) -> OperandInfo & {
        return *new (Slot) OperandInfo(std::move(Config.Tensors[I]));
      });
}

void TensorIteratorBase::populate_borrowed_operands(
    ArrayRef<const Tensor *> Tensors, int NumOutputsArg) {
  populate_operands_from(
      Tensors.size(), NumOutputsArg,
      [Tensors](OperandInfo *Slot, size_t I) -> OperandInfo & {
        return *new (Slot) OperandInfo(OperandInfo::BorrowedTag(), *Tensors[I]);
      });
}

void TensorIteratorBase::mark_outputs() {
  if (!HasDefinedOutputs)
    return;
  for (int I = 0; I < NumOutputs; ++I) {
    OperandInfo &Op = Operands[I];
    if (!Op.impl())
      continue;
    for (int Arg = NumOutputs; Arg < ntensors(); ++Arg)
      if (Op.impl() == Operands[Arg].impl())
        Op.is_read_write = true;
  }
}

void TensorIteratorBase::mark_resize_outputs(
    const TensorIteratorConfig &Config) {
  // Outputs do not broadcast: a given output must have the broadcast shape,
  // except that a write-only one is resized (the legacy out= behaviour).
  if (Config.StaticShape || !HasDefinedOutputs)
    return;
  for (int I = 0; I < NumOutputs; ++I) {
    const Tensor &Output = tensor(I);
    if (!Output.defined() || Output.sizes() == IntArrayRef(Shape))
      continue;
    if (Config.ResizeOutputs && !Operands[I].is_read_write) {
      Operands[I].will_resize = true;
      continue;
    }
    // A reduction's output has the reduced shape, not the input's.
    SK_CHECK(IsReduction, "output with shape ", Output.sizes(),
             " doesn't match the broadcast shape ", Shape);
  }
}

void TensorIteratorBase::compute_mem_overlaps(
    const TensorIteratorConfig &Config) {
  if (!Config.CheckMemOverlap || !HasDefinedOutputs)
    return;
  for (int I = 0; I < NumOutputs; ++I) {
    const Tensor &Output = tensor(I);
    if (!Output.defined())
      continue;
    assert_no_internal_overlap(Output);
    for (int Arg = NumOutputs; Arg < ntensors(); ++Arg)
      if (!tensor(Arg).is_same(Output))
        assert_no_partial_overlap(Output, tensor(Arg));
  }
}

void TensorIteratorBase::compute_shape(const TensorIteratorConfig &Config) {
  if (Config.StaticShape) {
    Shape = *Config.StaticShape;
    return;
  }
  bool SameShape = true;
  bool HasScalars = false, HasTensors = false, First = true;
  for (OperandInfo &Op : Operands) {
    const TensorImpl *T = Op.impl();
    if (!T)
      continue;
    // Outputs that may be resized do not take part: add(..., out=Dst)
    // resizes Dst. An output that is also an input is seen as the input.
    if (Config.ResizeOutputs && Op.is_output)
      continue;
    IntArrayRef S = T->sizes();
    if (S.empty())
      HasScalars = true;
    else
      HasTensors = true;
    if (HasScalars && HasTensors)
      SameShape = false;
    if (First) {
      Shape = S;
      First = false;
    } else if (S != IntArrayRef(Shape)) {
      SameShape = false;
      broadcastInPlace(Shape, S);
    }
  }
  AllOpsSameShape = SameShape;
  AllOpsAreScalars = !HasTensors;
}

ScalarType TensorIteratorBase::compute_common_dtype() {
  CommonDtype = resultTypeOf(NumOutputs, Operands.size(),
                             [this](size_t I) -> const Tensor & {
                               return tensor(static_cast<int>(I));
                             });
  SK_INTERNAL_ASSERT(CommonDtype != ScalarType::Undefined);
  return CommonDtype;
}

void TensorIteratorBase::compute_types(const TensorIteratorConfig &Config) {
  // Review the operands (1/2): every input is defined, find the common
  // device, see whether dtypes differ and take the first input dtype as a
  // candidate common dtype.
  Device Common = kCPU;
  CommonDtype = ScalarType::Undefined;
  ScalarType OutputDtype = ScalarType::Undefined;
  bool HasDifferentInputDtypes = false;
  bool HasDifferentOutputDtypes = false;
  bool HasUndefinedOutputs = false;
  // Whether every defined operand is on FirstDevice.
  bool SameDevice = true;
  bool SeenDevice = false;
  Device FirstDevice = kCPU;

  for (OperandInfo &Op : Operands) {
    if (!Op.is_type_defined()) {
      SK_INTERNAL_ASSERT(Op.is_output, "Found type undefined input tensor!");
      if (Config.StaticDtype)
        Op.target_dtype = *Config.StaticDtype;
      else
        HasUndefinedOutputs = true;
      if (Config.StaticDevice)
        Op.device = *Config.StaticDevice;
      else
        SK_INTERNAL_ASSERT(Config.CheckAllSameDevice,
                           "an undefined output needs check_all_same_device "
                           "or a static device");
      if (HasUndefinedOutputs || !Op.device)
        continue;
    }
    const TensorImpl *T = Op.impl();
    if (!T) {
      SK_INTERNAL_ASSERT(Op.is_output, "Found undefined input tensor!");
      continue;
    }
    SK_INTERNAL_ASSERT(Op.target_dtype == Op.current_dtype);
    Device D = T->device();
    SameDevice &= !SeenDevice || D == FirstDevice;
    if (!SeenDevice)
      FirstDevice = D;
    SeenDevice = true;
    if (Common == kCPU && !D.is_cpu())
      Common = D;
    ScalarType &Seen = Op.is_output ? OutputDtype : CommonDtype;
    if (Op.target_dtype == Seen)
      continue;
    if (Seen == ScalarType::Undefined)
      Seen = Op.target_dtype;
    else if (Op.is_output)
      HasDifferentOutputDtypes = true;
    else
      HasDifferentInputDtypes = true;
  }

  SK_INTERNAL_ASSERT(
      !(HasDifferentInputDtypes && !Config.PromoteInputsToCommonDtype &&
        (HasUndefinedOutputs || Config.EnforceSafeCastingToOutput ||
         Config.CastCommonDtypeToOutputs)),
      "inputs of different dtypes need promote_inputs_to_common_dtype");

  if (Config.CheckAllSameDtype &&
      (HasDifferentInputDtypes || HasDifferentOutputDtypes ||
       (CommonDtype != OutputDtype && OutputDtype != ScalarType::Undefined))) {
    for (const OperandInfo &Op : Operands) {
      if (!Op.impl())
        continue;
      SK_CHECK(Op.target_dtype == CommonDtype, "Found dtype ",
               detail::typeName(Op.target_dtype), " but expected ",
               detail::typeName(CommonDtype));
    }
  }

  CommonDevice = Common;
  if (!HasUndefinedOutputs && !Config.CheckAllSameDevice &&
      !Config.PromoteInputsToCommonDtype && !Config.CastCommonDtypeToOutputs &&
      !Config.EnforceSafeCastingToOutput) {
    // Nothing else to do; the common dtype is known only if inputs agree.
    if (HasDifferentInputDtypes)
      CommonDtype = ScalarType::Undefined;
    return;
  }

  if ((HasDifferentInputDtypes || AllOpsAreScalars) &&
      Config.PromoteInputsToCommonDtype)
    compute_common_dtype();
  if (Config.PromoteIntegerInputsToFloat &&
      isIntegralType(CommonDtype, /*IncludeBool=*/true))
    CommonDtype = get_default_dtype();

  // Review the operands (2/2): give undefined outputs their dtype and
  // device, check devices and safe casting. No temporaries are made: see
  // Note [Type promotion without temporaries]. When every defined operand
  // is on the common device, the device checks below all pass, and only
  // the outputs need a look.
  bool DevicesAgree = SameDevice && (!SeenDevice || FirstDevice == Common);
  int End = DevicesAgree ? NumOutputs : ntensors();
  int CpuScalarsOnNonCpu = 0;
  int MaxCpuScalarsOnNonCpu = Config.AllowCpuScalars ? 1 : 0;
  for (int I = 0; I != End; ++I) {
    OperandInfo &Op = Operands[I];
    bool TypeDefined = Op.is_type_defined();
    bool DeviceDefined = Op.is_device_defined();
    if (!TypeDefined)
      Op.target_dtype = CommonDtype;
    if (!DeviceDefined)
      Op.device = Common;
    if (!TypeDefined && !DeviceDefined)
      continue;
    const TensorImpl *T = Op.impl();
    if (!T)
      continue;
    if (Config.CheckAllSameDevice && !DevicesAgree) {
      if (!Common.is_cpu() && Config.AllowCpuScalars && !Op.is_output &&
          T->dim() == 0 && T->device().is_cpu()) {
        // One CPU scalar may join a kernel on another device, which gets
        // its value by value.
        SK_CHECK(CpuScalarsOnNonCpu < MaxCpuScalarsOnNonCpu,
                 "Trying to pass too many CPU scalars to non-CPU kernel!");
        ++CpuScalarsOnNonCpu;
      } else if (*Op.device != Common) {
        SK_CHECK(false,
                 "Expected all tensors to be on the same device, but found at "
                 "least two devices, ",
                 Common, " and ", *Op.device, "!");
      }
    }
    if (Config.EnforceSafeCastingToOutput && Op.is_output &&
        Op.current_dtype != CommonDtype)
      SK_CHECK(canCast(CommonDtype, Op.current_dtype), "result type ",
               detail::typeName(CommonDtype),
               " can't be cast to the desired output type ",
               detail::typeName(Op.current_dtype));
  }
}

namespace {
enum class FastSetupKind {
  None,
  Contiguous,
  ChannelsLast,
  NonOverlappingDense
};
} // namespace

bool TensorIteratorBase::fast_set_up(const TensorIteratorConfig &Config) {
  // With a static shape the operands need not have the iteration shape.
  SK_INTERNAL_ASSERT(!IsReduction && AllOpsSameShape && !Config.StaticShape);

  FastSetupKind Kind = FastSetupKind::None;
  if (EnforceLinearIteration) {
    Kind = FastSetupKind::Contiguous;
    for (const OperandInfo &Op : Operands)
      if (Op.impl() && !Op.will_resize && !Op.impl()->is_contiguous())
        return false;
  } else {
    bool Contiguous = true, ChannelsLast = true, Dense = true;
    for (const OperandInfo &Op : Operands) {
      const TensorImpl *T = Op.impl();
      if (!T || Op.will_resize)
        continue;
      Contiguous &= T->is_contiguous();
      ChannelsLast &= T->is_contiguous(MemoryFormat::ChannelsLast);
      Dense &= T->is_non_overlapping_and_dense();
    }
    // An ambiguous layout (NC11) counts as contiguous.
    if (Contiguous) {
      Kind = FastSetupKind::Contiguous;
    } else if (ChannelsLast) {
      Kind = FastSetupKind::ChannelsLast;
    } else if (Dense) {
      // Only when every defined operand has the same strides; an output
      // with other strides keeps them (as NumPy does), so no fast path.
      const TensorImpl *Prev = nullptr;
      for (int I = ntensors() - 1; I >= 0; --I) {
        const OperandInfo &Op = Operands[I];
        if (!Op.impl() || Op.will_resize)
          continue;
        if (Prev && Prev->strides() != Op.impl()->strides())
          return false;
        Prev = Op.impl();
      }
      Kind = FastSetupKind::NonOverlappingDense;
    }
  }
  if (Kind == FastSetupKind::None)
    return false;

  // Allocate or resize the outputs in the layout of the inputs.
  const TensorImpl *Dense = nullptr;
  if (Kind == FastSetupKind::NonOverlappingDense) {
    for (int I = ntensors() - 1; I >= 0 && !Dense; --I)
      Dense = Operands[I].impl();
    SK_INTERNAL_ASSERT(Dense, "no defined tensor to take strides from");
  }
  for (int I = 0; I < NumOutputs; ++I) {
    OperandInfo &Op = Operands[I];
    SK_INTERNAL_ASSERT(Op.is_type_defined(), "no type for operand ", I);
    TensorOptions Options = Op.options();
    switch (Kind) {
    case FastSetupKind::Contiguous:
      set_output_raw_strided(I, Shape, {},
                             Options.memory_format(MemoryFormat::Contiguous));
      break;
    case FastSetupKind::ChannelsLast:
      set_output_raw_strided(I, Shape, {},
                             Options.memory_format(MemoryFormat::ChannelsLast));
      break;
    case FastSetupKind::NonOverlappingDense:
      set_output_raw_strided(I, Shape, Dense->strides(), Options);
      break;
    case FastSetupKind::None:
      SK_INTERNAL_ASSERT(false, "unreachable fast setup kind");
    }
  }

  coalesce_dense_operands();
  return true;
}

/// Makes \p Shape its one dimension of numel elements. Out of line: its
/// product, inlined and vectorized, made coalesce_dense_operands realign
/// the stack and save every register for 1-d shapes too.
[[gnu::noinline]] static void collapseToNumel(DimVector &Shape) {
  int64_t N = 1;
  for (int64_t S : Shape)
    N *= S;
  Shape[0] = N;
  Shape.resize(1);
}

void TensorIteratorBase::coalesce_dense_operands(bool SetDataPointers) {
  // Every operand is dense in the same order: one dimension. This runs on
  // every small elementwise call, so it is written for zero or one stride
  // per operand: resize() and assign() became a memset call or a
  // vectorized loop each, over half of a 1-element add's set-up.
  bool Scalar = Shape.empty();
  if (Shape.size() > 1) {
    HasCoalescedDimensions = true;
    collapseToNumel(Shape);
  }
  for (OperandInfo &Op : Operands) {
    const TensorImpl *T = Op.impl();
    if (SetDataPointers)
      Op.data = T->data();
    Op.stride_bytes.clear();
    if (Scalar)
      continue;
    auto ElementSize = static_cast<int64_t>(T->itemsize());
    Op.stride_bytes.append_in_place(
        1, [ElementSize](int64_t *P) noexcept { *P = ElementSize; });
  }
}

bool TensorIteratorBase::fast_set_up_row_major(
    const TensorIteratorConfig &Config) {
  // Note [Row-major broadcast setup]: when every operand is row-major
  // contiguous, reorder_dimensions keeps the row-major order (but for the
  // strides of size-1 dimensions, which do not change the layout), so the
  // outputs are row-major. Broadcasting ops on contiguous tensors, meta
  // ones above all, skip the sort and need strides only for the loops.
  SK_INTERNAL_ASSERT(!IsReduction && !Config.StaticShape);
  if (!allOperandsRowMajor(/*BeforeStrides=*/true))
    return false;
  for (int I = 0; I < NumOutputs; ++I) {
    OperandInfo &Op = Operands[I];
    SK_INTERNAL_ASSERT(Op.is_type_defined(), "no type for operand ", I);
    TensorOptions Options = Op.options();
    if (Op.impl() && !Op.will_resize) {
      set_output_raw_strided(I, Op.impl()->sizes(), {}, Options);
      continue;
    }
    set_output_raw_strided(I, Shape, {}, Options);
    Op.current_dtype = Op.target_dtype;
  }
  if (IsMeta)
    return true;
  finish_row_major_set_up(Config);
  return true;
}

void TensorIteratorBase::finish_row_major_set_up(
    const TensorIteratorConfig &Config) {
  compute_strides(Config, /*AfterAllocation=*/true);
  int Ndim = ndim();
  Perm.resize(Ndim);
  for (int I = 0; I < Ndim; ++I)
    Perm[I] = Ndim - 1 - I;
  permute_dimensions(Perm);
  coalesce_dimensions();
}

void TensorIteratorBase::compute_strides(const TensorIteratorConfig &Config,
                                         bool AfterAllocation) {
  size_t Ndim = Shape.size();
  for (OperandInfo &Op : Operands) {
    const TensorImpl *T = Op.impl();
    if (!T || (Op.will_resize && !AfterAllocation))
      continue;
    IntArrayRef OriginalShape =
        Config.StaticShape ? IntArrayRef(Shape) : T->sizes();
    IntArrayRef OriginalStride = T->strides();
    int64_t ElementSize = static_cast<int64_t>(T->itemsize());
    SK_INTERNAL_ASSERT(OriginalShape.size() <= Ndim, "operand of rank ",
                       OriginalShape.size(), " in an iteration of rank ", Ndim);
    size_t Offset = Ndim - OriginalShape.size();
    Op.stride_bytes.assign(Ndim, 0);
    for (size_t I = 0; I != OriginalShape.size(); ++I) {
      // Note [Computing output strides]: broadcast dimensions get stride 0.
      if (OriginalShape[I] == 1 && Shape[Offset + I] != 1)
        continue;
      Op.stride_bytes[Offset + I] = OriginalStride[I] * ElementSize;
    }
  }
}

// Note [Computing output strides]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A given output of the right size keeps its strides. Otherwise the output
// gets the layout of the inputs: reorder_dimensions sorts the dimensions by
// the inputs' strides (fastest first), taking the inputs in order and
// skipping broadcast (stride-0) dimensions, so the permutation of the first
// input that is not broadcast along the compared dimensions wins. Equal
// strides (size-1 dimensions) are ordered by size, which keeps a
// channels-last NC11 tensor channels-last. The output is then allocated
// dense in that order. Examples: a full-size input plus a broadcast one
// gives the full-size input's layout whatever the order of arguments; two
// inputs of one size but different layouts give the first one's.

/// Whether every operand that has strides (that is defined, when
/// \p BeforeStrides) and keeps its layout is row-major contiguous. The
/// sort below then keeps the row-major order but for the strides of size-1
/// dimensions, which do not change the layout (as in fast_set_up).
bool TensorIteratorBase::allOperandsRowMajor(bool BeforeStrides) const {
  for (const OperandInfo &Op : Operands) {
    bool HasLayout =
        BeforeStrides ? Op.impl() != nullptr : !Op.stride_bytes.empty();
    if (HasLayout && !Op.will_resize && !Op.impl()->is_contiguous())
      return false;
  }
  return true;
}

void TensorIteratorBase::reorder_dimensions() {
  int Ndim = ndim();
  Perm.resize(Ndim);
  if (Ndim == 1) {
    Perm[0] = 0;
    return;
  }
  // Start from n-1, ..., 1, 0: dimension 0 of the iteration is the last
  // (fastest) dimension of a row-major tensor.
  for (int I = 0; I < Ndim; ++I)
    Perm[I] = Ndim - 1 - I;
  if (EnforceLinearIteration ||
      (!IsReduction && allOperandsRowMajor(/*BeforeStrides=*/false))) {
    permute_dimensions(Perm);
    return;
  }

  // 1 if Dim0 should come after Dim1, -1 if before, 0 if ambiguous.
  auto ShouldSwap = [&](int64_t Dim0, int64_t Dim1) {
    for (const OperandInfo &Op : Operands) {
      // Undefined and to-be-resized outputs have no say.
      if (Op.stride_bytes.empty() || Op.will_resize)
        continue;
      int64_t Stride0 = Op.stride_bytes[Dim0];
      int64_t Stride1 = Op.stride_bytes[Dim1];
      // Reduced dimensions (output stride 0) go first.
      if (IsReduction && Op.is_output && (Stride0 == 0) != (Stride1 == 0))
        return Stride1 == 0 ? 1 : -1;
      // A broadcast dimension says nothing: ask the next operand.
      if (Stride0 == 0 || Stride1 == 0)
        continue;
      if (Stride0 < Stride1)
        return -1;
      if (Stride0 > Stride1)
        return 1;
      // Equal strides: the larger dimension goes outside, else ask on.
      if (Shape[Dim0] > Shape[Dim1])
        return 1;
    }
    return 0;
  };

  // Insertion sort that tolerates ambiguous comparisons.
  for (int I = 1; I < Ndim; ++I) {
    int Dim1 = I;
    for (int Dim0 = I - 1; Dim0 >= 0; --Dim0) {
      int Comparison = ShouldSwap(Perm[Dim0], Perm[Dim1]);
      if (Comparison > 0) {
        std::swap(Perm[Dim0], Perm[Dim1]);
        Dim1 = Dim0;
      } else if (Comparison < 0) {
        break;
      }
    }
  }
  permute_dimensions(Perm);
}

void TensorIteratorBase::permute_dimensions(IntArrayRef P) {
  size_t N = P.size();
  SK_INTERNAL_ASSERT(N == static_cast<size_t>(ndim()) && N <= 64);
  // Data[I] = Old[P[I]] in place, cycle by cycle. (Through a temporary
  // array, GCC turns the copy back into `rep movsq`, whose start-up cost
  // dominated building small iterators.)
  auto Reorder = [P, N](StrideVector &Data) {
    int64_t *D = Data.data();
    for (size_t Start = 0; Start < N; ++Start) {
      size_t J = P[Start];
      while (J > Start)
        J = P[J];
      if (J < Start)
        continue; // Start's cycle was done from a smaller index.
      int64_t First = D[Start];
      size_t Cur = Start;
      for (size_t Next = P[Cur]; Next != Start; Next = P[Cur]) {
        D[Cur] = D[Next];
        Cur = Next;
      }
      D[Cur] = First;
    }
  };
  Reorder(Shape);
  for (OperandInfo &Op : Operands)
    if (!Op.stride_bytes.empty())
      Reorder(Op.stride_bytes);
}

TensorIteratorBase::StrideVector
TensorIteratorBase::compatible_stride(int64_t ElementSize) const {
  StrideVector Stride(ndim());
  int64_t Next = ElementSize;
  for (int D = 0; D < ndim(); ++D) {
    Stride[D] = Next;
    Next *= Shape[D];
  }
  return Stride;
}

DimVector TensorIteratorBase::invert_perm(IntArrayRef Input) const {
  SK_INTERNAL_ASSERT(!HasCoalescedDimensions,
                     "invert_perm after coalescing dimensions");
  SK_INTERNAL_ASSERT(Input.size() == Perm.size());
  DimVector Res(Input.size());
  for (size_t D = 0; D != Input.size(); ++D)
    Res[Perm[D]] = Input[D];
  return Res;
}

void TensorIteratorBase::allocate_or_resize_outputs() {
  int Ndim = ndim();
  bool Inverted = true;
  for (int J = 0; J < Ndim && Inverted; ++J)
    Inverted = Perm[J] == Ndim - J - 1;
  for (int I = 0; I < NumOutputs; ++I) {
    OperandInfo &Op = Operands[I];
    TensorOptions Options = Op.options();
    if (Op.impl() && !Op.will_resize) {
      // Tell the subclass about the output even though nothing changes, so
      // structured wrappers can check it.
      set_output_raw_strided(I, Op.impl()->sizes(), {}, Options);
      continue;
    }
    SK_INTERNAL_ASSERT(Op.is_type_defined(), "no type for operand ", I);
    // Dense in iteration order; the tensor's sizes and strides are the
    // iteration's put back in the original order (invert_perm).
    int64_t ElementSize = static_cast<int64_t>(elementSize(Op.target_dtype));
    DimVector TensorShape(Ndim), TensorStride(Ndim);
    Op.stride_bytes.resize(Ndim);
    int64_t Next = 1;
    for (int D = 0; D < Ndim; ++D) {
      Op.stride_bytes[D] = Next * ElementSize;
      TensorShape[Perm[D]] = Shape[D];
      TensorStride[Perm[D]] = Next;
      Next *= Shape[D];
    }
    // Row-major: let the allocator compute the strides (it is faster).
    set_output_raw_strided(I, TensorShape,
                           Inverted ? IntArrayRef() : IntArrayRef(TensorStride),
                           Options);
    Op.current_dtype = Op.target_dtype;
  }
}

void TensorIteratorBase::coalesce_dimensions() {
  int Ndim = ndim();
  if (Ndim <= 1)
    return;
  // Two adjacent dimensions merge when either has size 1 or, for every
  // operand, Shape[D0] * Stride[D0] == Stride[D1].
  auto CanCoalesce = [&](int Dim0, int Dim1) {
    int64_t Shape0 = Shape[Dim0], Shape1 = Shape[Dim1];
    if (Shape0 == 1 || Shape1 == 1)
      return true;
    for (const OperandInfo &Op : Operands)
      if (Shape0 * Op.stride_bytes[Dim0] != Op.stride_bytes[Dim1])
        return false;
    return true;
  };
  auto ReplaceStride = [&](int Dim0, int Dim1) {
    for (OperandInfo &Op : Operands)
      Op.stride_bytes[Dim0] = Op.stride_bytes[Dim1];
  };
  int PrevDim = 0;
  for (int Dim = 1; Dim < Ndim; ++Dim) {
    if (CanCoalesce(PrevDim, Dim)) {
      if (Shape[PrevDim] == 1)
        ReplaceStride(PrevDim, Dim);
      Shape[PrevDim] *= Shape[Dim];
      continue;
    }
    ++PrevDim;
    if (PrevDim != Dim) {
      ReplaceStride(PrevDim, Dim);
      Shape[PrevDim] = Shape[Dim];
    }
  }
  Shape.resize(PrevDim + 1);
  for (OperandInfo &Op : Operands)
    Op.stride_bytes.resize(ndim());
  HasCoalescedDimensions = true;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int64_t TensorIteratorBase::numel() const {
  int64_t N = 1;
  for (int64_t S : Shape)
    N *= S;
  return N;
}

bool TensorIteratorBase::is_scalar(int Arg) const {
  IntArrayRef Stride = Operands[Arg].stride_bytes;
  for (int I = 0; I < ndim(); ++I)
    if (Stride[I] != 0 && Shape[I] != 1)
      return false;
  return true;
}

bool TensorIteratorBase::is_cpu_scalar(int Arg) const {
  return is_scalar(Arg) && device(Arg).is_cpu();
}

bool TensorIteratorBase::has_contiguous_first_dim() const {
  if (ndim() == 0)
    return true;
  for (int I = 0; I < ntensors(); ++I)
    if (Operands[I].stride_bytes[0] != element_size(I))
      return false;
  return true;
}

bool TensorIteratorBase::is_contiguous() const {
  if (numel() == 1)
    return true;
  if (ndim() != 1)
    return false;
  return has_contiguous_first_dim();
}

bool TensorIteratorBase::is_dim_reduced(int Dim) const {
  for (const OperandInfo &Op : Operands)
    if (Op.is_output && Op.stride_bytes[Dim] == 0 && Shape[Dim] > 1)
      return true;
  return false;
}

int64_t TensorIteratorBase::num_output_elements() const {
  int64_t Elems = 1;
  for (int D = 0; D < ndim(); ++D)
    if (Operands[0].stride_bytes[D] != 0 || Shape[D] == 0)
      Elems *= Shape[D];
  return Elems;
}

int TensorIteratorBase::num_reduce_dims() const {
  int Count = 0;
  for (int D = 0; D < ndim(); ++D)
    if (Operands[0].stride_bytes[D] == 0)
      ++Count;
  return Count;
}

bool TensorIteratorBase::can_use_32bit_indexing() const {
  int64_t Max = std::numeric_limits<int32_t>::max();
  if (numel() > Max)
    return false;
  for (const OperandInfo &Op : Operands) {
    int64_t MaxOffset = 1;
    for (int D = 0; D < ndim(); ++D)
      MaxOffset += (Shape[D] - 1) * Op.stride_bytes[D];
    if (MaxOffset > Max)
      return false;
  }
  return true;
}

int TensorIteratorBase::get_dim_to_split() const {
  SK_INTERNAL_ASSERT(!IsMeta, "a meta iteration has no strides to split by");
  int Dim = -1;
  int64_t MaxExtent = -1;
  for (int D = ndim() - 1; D >= 0; --D) {
    if (Shape[D] == 0)
      return -1;
    if (Shape[D] == 1)
      continue;
    for (const OperandInfo &Op : Operands) {
      int64_t Extent = (Shape[D] - 1) * std::abs(Op.stride_bytes[D]);
      if (Extent > MaxExtent) {
        MaxExtent = Extent;
        Dim = D;
      }
    }
  }
  return Dim;
}

void TensorIteratorBase::narrow(int Dim, int64_t Start, int64_t Size) {
  SK_INTERNAL_ASSERT(!IsMeta, "a meta iteration has no data to narrow");
  SK_INTERNAL_ASSERT(Dim >= 0 && Dim < ndim() && Start >= 0 && Size >= 0 &&
                     Start + Size <= Shape[Dim]);
  Shape[Dim] = Size;
  for (OperandInfo &Op : Operands)
    if (Op.data)
      Op.data = static_cast<char *>(Op.data) + Op.stride_bytes[Dim] * Start;
  // A dimension of one index merges with its neighbours, as in PyTorch;
  // a reduction keeps its dimensions, which say which ones are reduced.
  if (Size == 1 && !IsReduction)
    coalesce_dimensions();
}

std::vector<TensorIterator>
splitFor32BitIndexing(const TensorIteratorBase &Iter) {
  std::vector<TensorIterator> Pieces;
  // Halves still to split, the lower last, so that pieces come in order.
  std::vector<TensorIterator> Pending;
  Pending.emplace_back(Iter);
  while (!Pending.empty()) {
    TensorIterator Lower = std::move(Pending.back());
    Pending.pop_back();
    if (Lower.numel() == 0 || Lower.can_use_32bit_indexing()) {
      Pieces.push_back(std::move(Lower));
      continue;
    }
    int Dim = Lower.get_dim_to_split();
    SK_INTERNAL_ASSERT(Dim >= 0 && Lower.shape()[Dim] >= 2);
    int64_t Size = Lower.shape()[Dim], Half = Size / 2;
    TensorIterator Upper = Lower;
    Lower.narrow(Dim, 0, Half);
    Upper.narrow(Dim, Half, Size - Half);
    Pending.push_back(std::move(Upper));
    Pending.push_back(std::move(Lower));
  }
  return Pieces;
}

TensorIteratorBase::StrideVector TensorIteratorBase::get_strides() const {
  int Ndim = ndim(), NT = ntensors();
  StrideVector Strides(static_cast<size_t>(std::max(Ndim, 2) * NT), 0);
  for (int D = 0; D < Ndim; ++D)
    for (int Arg = 0; Arg < NT; ++Arg)
      Strides[D * NT + Arg] = Operands[Arg].stride_bytes[D];
  return Strides;
}

TensorIteratorBase::StrideVector
TensorIteratorBase::get_dim_strides(int Dim) const {
  StrideVector Strides;
  for (const OperandInfo &Op : Operands)
    Strides.push_back(ndim() == 0 ? 0 : Op.stride_bytes[Dim]);
  return Strides;
}

TensorIteratorBase::PtrVector TensorIteratorBase::get_base_ptrs() const {
  PtrVector Ptrs(Operands.size());
  for (int Arg = 0; Arg < ntensors(); ++Arg)
    Ptrs[Arg] = static_cast<char *>(Operands[Arg].data);
  return Ptrs;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void TensorIteratorBase::for_each(loop2d_t Loop, int64_t GrainSize) {
  int64_t N = numel();
  if (N == 0)
    return;
  if (N < GrainSize || get_num_threads() == 1)
    return serial_for_each(Loop, {0, N});
  parallel_for(0, N, GrainSize, [&](int64_t Begin, int64_t End) {
    serial_for_each(Loop, {Begin, End});
  });
}

void TensorIteratorBase::serial_for_each(loop2d_t Loop, Range R) const {
  if (R.size() <= 0)
    return;
  SK_INTERNAL_ASSERT(!IsMeta, "cannot run a loop over meta tensors");
  const int NT = ntensors();
  const int Ndim = ndim();
  StrideVector Strides = get_strides();
  PtrVector Base = get_base_ptrs();
  PtrVector Ptrs(Base.size());

  if (Ndim <= 1) {
    for (int Arg = 0; Arg < NT; ++Arg)
      Ptrs[Arg] = Base[Arg] + R.begin * Strides[Arg];
    Loop(Ptrs.data(), Strides.data(), R.size(), 1);
    return;
  }

  // Walk the range as a multi-index (a DimCounter), two dimensions per
  // call: the rest of the current row of dimension 0, then, from the start
  // of a row, as many whole rows of dimension 1 as the range allows.
  DimVector Values(Ndim, 0);
  int64_t Linear = R.begin;
  for (int D = 0; D < Ndim; ++D) {
    Values[D] = Linear % Shape[D];
    Linear /= Shape[D];
  }
  int64_t Offset = R.begin;
  while (Offset < R.end) {
    for (int Arg = 0; Arg < NT; ++Arg) {
      char *P = Base[Arg];
      for (int D = 0; D < Ndim; ++D)
        P += Values[D] * Strides[D * NT + Arg];
      Ptrs[Arg] = P;
    }
    int64_t Step0 = std::min(Shape[0] - Values[0], R.end - Offset);
    int64_t Step1 = 1;
    if (Values[0] == 0)
      Step1 = std::max<int64_t>(
          1, std::min(Shape[1] - Values[1], (R.end - Offset) / Shape[0]));
    Loop(Ptrs.data(), Strides.data(), Step0, Step1);

    Offset += Step0 * Step1;
    // Advance the multi-index by Step0 along dimension 0 and Step1 rows.
    Values[0] += Step0;
    if (Step1 > 1)
      Values[1] += Step1 - 1; // Step1 > 1 only from the start of a row.
    int64_t Carry = 0;
    for (int D = 0; D < Ndim; ++D) {
      Values[D] += Carry;
      Carry = 0;
      if (Values[D] >= Shape[D]) {
        Carry = Values[D] / Shape[D];
        Values[D] %= Shape[D];
      } else {
        break;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

/// The configuration of binary ops (add, mul, ...).
static TensorIteratorConfig &binaryOpConfig(TensorIteratorConfig &C) {
  return C.set_check_mem_overlap(true)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
}

// Note [Constant builder configurations]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The borrowing builders of structured meta functions (add's
// build_borrowing_binary_op, ...) configure every build the same way, and
// a TensorIteratorConfig made per call, with its operand list filled and
// then moved out and destroyed, cost 51 of the 818 instructions of a meta
// build. They keep their configuration in a function-local constant
// instead (flags only, no operands) and give their borrowed operands
// straight to the iterator (build_borrowed), which builds as build() would
// on a configuration holding them. The constants are never destroyed, so
// that static destructors may still build iterators.

void TensorIteratorBase::build_binary_op(const Tensor &Out, const Tensor &A,
                                         const Tensor &B) {
  TensorIteratorConfig C;
  build(binaryOpConfig(C)
            .add_owned_output(Out)
            .add_owned_input(A)
            .add_owned_input(B));
}

void TensorIteratorBase::build_borrowing_binary_op(const Tensor &Out,
                                                   const Tensor &A,
                                                   const Tensor &B) {
  // Note [Constant builder configurations].
  static const TensorIteratorConfig &Flags =
      binaryOpConfig(*new TensorIteratorConfig);
  const Tensor *Tensors[] = {&Out, &A, &B};
  build_borrowed(Tensors, /*NumOutputs=*/1, Flags);
}

void TensorIteratorBase::build_binary_float_op(const Tensor &Out,
                                               const Tensor &A,
                                               const Tensor &B) {
  TensorIteratorConfig C;
  build(binaryOpConfig(C)
            .promote_integer_inputs_to_float(true)
            .add_owned_output(Out)
            .add_owned_input(A)
            .add_owned_input(B));
}

void TensorIteratorBase::build_borrowing_binary_float_op(const Tensor &Out,
                                                         const Tensor &A,
                                                         const Tensor &B) {
  // Note [Constant builder configurations].
  static const TensorIteratorConfig &Flags =
      binaryOpConfig(*new TensorIteratorConfig)
          .promote_integer_inputs_to_float(true);
  const Tensor *Tensors[] = {&Out, &A, &B};
  build_borrowed(Tensors, /*NumOutputs=*/1, Flags);
}

namespace {
/// What a comparison writes to (Note [special-case bool outputs] in
/// PyTorch: a given bool output is written directly, anything else
/// through a cast).
enum class ComparisonOutput { Allocated, GivenBool, GivenOther };
} // namespace

static ComparisonOutput comparisonOutputOf(const Tensor &Out) {
  if (!Out.defined())
    return ComparisonOutput::Allocated;
  return Out.scalar_type() == kBool ? ComparisonOutput::GivenBool
                                    : ComparisonOutput::GivenOther;
}

/// The configuration of comparison ops: a bool result when the output is
/// allocated, a cast to a given non-bool one.
static TensorIteratorConfig &comparisonOpConfig(TensorIteratorConfig &C,
                                                ComparisonOutput Out) {
  C.set_check_mem_overlap(true)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true);
  if (Out == ComparisonOutput::Allocated)
    C.declare_static_dtype(kBool);
  if (Out == ComparisonOutput::GivenOther)
    C.cast_common_dtype_to_outputs(true);
  return C;
}

void TensorIteratorBase::build_comparison_op(const Tensor &Out, const Tensor &A,
                                             const Tensor &B) {
  TensorIteratorConfig C;
  build(comparisonOpConfig(C, comparisonOutputOf(Out))
            .add_owned_output(Out)
            .add_owned_input(A)
            .add_owned_input(B));
}

void TensorIteratorBase::build_borrowing_comparison_op(const Tensor &Out,
                                                       const Tensor &A,
                                                       const Tensor &B) {
  // Note [Constant builder configurations], one per kind of output.
  static const TensorIteratorConfig *const Flags[] = {
      &comparisonOpConfig(*new TensorIteratorConfig,
                          ComparisonOutput::Allocated),
      &comparisonOpConfig(*new TensorIteratorConfig,
                          ComparisonOutput::GivenBool),
      &comparisonOpConfig(*new TensorIteratorConfig,
                          ComparisonOutput::GivenOther)};
  const Tensor *Tensors[] = {&Out, &A, &B};
  build_borrowed(Tensors, /*NumOutputs=*/1,
                 *Flags[static_cast<int>(comparisonOutputOf(Out))]);
}

/// The configuration of unary ops that keep the dtype (neg, abs, ...).
static TensorIteratorConfig &unaryOpConfig(TensorIteratorConfig &C) {
  return C.set_check_mem_overlap(true)
      .cast_common_dtype_to_outputs(false)
      .enforce_safe_casting_to_output(false)
      .check_all_same_dtype(true);
}

void TensorIteratorBase::build_unary_op(const Tensor &Out, const Tensor &A) {
  TensorIteratorConfig C;
  build(unaryOpConfig(C).add_owned_output(Out).add_owned_input(A));
}

void TensorIteratorBase::build_borrowing_unary_op(const Tensor &Out,
                                                  const Tensor &A) {
  // Note [Constant builder configurations].
  static const TensorIteratorConfig &Flags =
      unaryOpConfig(*new TensorIteratorConfig);
  const Tensor *Tensors[] = {&Out, &A};
  build_borrowed(Tensors, /*NumOutputs=*/1, Flags);
}

/// The configuration of unary ops computed in floating point (sqrt, exp).
static TensorIteratorConfig &unaryFloatOpConfig(TensorIteratorConfig &C) {
  return C.set_check_mem_overlap(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(true);
}

void TensorIteratorBase::build_unary_float_op(const Tensor &Out,
                                              const Tensor &A) {
  TensorIteratorConfig C;
  build(unaryFloatOpConfig(C).add_owned_output(Out).add_owned_input(A));
}

void TensorIteratorBase::build_borrowing_unary_float_op(const Tensor &Out,
                                                        const Tensor &A) {
  // Note [Constant builder configurations].
  static const TensorIteratorConfig &Flags =
      unaryFloatOpConfig(*new TensorIteratorConfig);
  const Tensor *Tensors[] = {&Out, &A};
  build_borrowed(Tensors, /*NumOutputs=*/1, Flags);
}

void TensorIteratorBase::build_ternary_op(const Tensor &Out, const Tensor &A,
                                          const Tensor &B, const Tensor &C) {
  TensorIteratorConfig Config;
  build(Config.promote_inputs_to_common_dtype(true)
            .cast_common_dtype_to_outputs(true)
            .enforce_safe_casting_to_output(true)
            .add_owned_output(Out)
            .add_owned_input(A)
            .add_owned_input(B)
            .add_owned_input(C));
}

//===----------------------------------------------------------------------===//
// set_output
//===----------------------------------------------------------------------===//

const Tensor &TensorIterator::maybe_get_output(int64_t OutputIdx) {
  return output(static_cast<int>(OutputIdx));
}

void TensorIterator::set_output_raw_strided(int64_t OutputIdx,
                                            IntArrayRef Sizes,
                                            IntArrayRef Strides,
                                            TensorOptions Options) {
  // Intentionally no call of TensorIteratorBase's: this class owns its
  // outputs.
  OperandInfo &Op = Operands[OutputIdx];
  SK_INTERNAL_ASSERT(OutputIdx < NumOutputs);
  if (!Op.impl()) {
    Op.tensor(detail::MaybeOwnedTensor::owned(
        detail::empty_with_options(Sizes, Strides, Options)));
    Op.current_dtype = Op.target_dtype;
    return;
  }
  if (!Op.will_resize)
    return;
  impl::resize_output(Op.tensor(), Sizes);
  if (!Strides.empty()) {
    SK_INTERNAL_ASSERT(!Options.memory_format_opt().has_value());
    impl::restride_output(Op.tensor(), Sizes, Strides);
  } else if (auto Format = Options.memory_format_opt()) {
    Op.tensor().unsafeGetTensorImpl()->resize(Sizes, *Format);
  }
}

TensorIterator TensorIterator::binary_op(const Tensor &Out, const Tensor &A,
                                         const Tensor &B) {
  TensorIterator Iter;
  Iter.build_binary_op(Out, A, B);
  return Iter;
}

TensorIterator TensorIterator::borrowing_binary_op(const Tensor &Out,
                                                   const Tensor &A,
                                                   const Tensor &B) {
  TensorIterator Iter;
  Iter.build_borrowing_binary_op(Out, A, B);
  return Iter;
}

TensorIterator TensorIterator::binary_float_op(const Tensor &Out,
                                               const Tensor &A,
                                               const Tensor &B) {
  TensorIterator Iter;
  Iter.build_binary_float_op(Out, A, B);
  return Iter;
}

TensorIterator TensorIterator::comparison_op(const Tensor &Out, const Tensor &A,
                                             const Tensor &B) {
  TensorIterator Iter;
  Iter.build_comparison_op(Out, A, B);
  return Iter;
}

TensorIterator TensorIterator::unary_op(const Tensor &Out, const Tensor &A) {
  TensorIterator Iter;
  Iter.build_unary_op(Out, A);
  return Iter;
}

TensorIterator TensorIterator::unary_float_op(const Tensor &Out,
                                              const Tensor &A) {
  TensorIterator Iter;
  Iter.build_unary_float_op(Out, A);
  return Iter;
}

/// The configuration of ops with only an output (fill_, random_).
static TensorIteratorConfig &nullaryOpConfig(TensorIteratorConfig &C) {
  return C.set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .resize_outputs(false);
}

TensorIterator TensorIterator::nullary_op(const Tensor &Out) {
  TensorIteratorConfig C;
  return nullaryOpConfig(C).add_owned_output(Out).build();
}

TensorIterator TensorIterator::borrowing_nullary_op(const Tensor &Out) {
  TensorIteratorConfig C;
  return nullaryOpConfig(C).add_output(Out).build();
}

TensorIterator TensorIterator::reduce_op(const Tensor &Out, const Tensor &A) {
  SK_INTERNAL_ASSERT(Out.defined(), "reduce_op needs a defined output");
  // The loops convert the input on load (Note [Type promotion without
  // temporaries]), so out and input may differ (sum of int32 into int64).
  TensorIteratorConfig C;
  return C.set_check_mem_overlap(false)
      .add_owned_output(Out)
      .add_owned_input(A)
      .resize_outputs(false)
      .is_reduction(true)
      .check_all_same_dtype(false)
      .build();
}

TensorIterator TensorIterator::reduce_op(const Tensor &Out1, const Tensor &Out2,
                                         const Tensor &A) {
  SK_INTERNAL_ASSERT(Out1.defined() && Out2.defined(),
                     "reduce_op needs defined outputs");
  SK_CHECK(A.device() == Out1.device() && Out1.device() == Out2.device(),
           "reduce_op(): expected input and both outputs to be on same "
           "device, but input is on ",
           A.device(), ", output1 is on ", Out1.device(), " and output2 is on ",
           Out2.device());
  SK_CHECK(Out1.dim() == Out2.dim(),
           "reduce_op(): expected both outputs to have same number of dims, "
           "but output1 has ",
           Out1.dim(), " and output2 has ", Out2.dim());
  SK_CHECK(Out1.sizes() == Out2.sizes(),
           "reduce_op(): expected both outputs to have same sizes, but "
           "output1 has ",
           Out1.sizes(), " and output2 has ", Out2.sizes());
  SK_CHECK(Out1.strides() == Out2.strides(),
           "reduce_op(): expected both outputs to have same strides, but "
           "output1 has ",
           Out1.strides(), " and output2 has ", Out2.strides());
  TensorIteratorConfig C;
  return C.set_check_mem_overlap(false)
      .add_owned_output(Out1)
      .add_owned_output(Out2)
      .add_owned_input(A)
      .resize_outputs(false)
      .is_reduction(true)
      .check_all_same_dtype(false)
      .build();
}

} // namespace sk
