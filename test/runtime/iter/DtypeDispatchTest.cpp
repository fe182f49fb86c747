//===--- DtypeDispatchTest.cpp - dispatchDtypes and dispatchElementSize ---===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/DtypeDispatch.h"

#include "IterTestUtils.h"

#include <type_traits>

using namespace sk;

namespace {

constexpr ScalarType AllDtypes[] = {kBool, kByte, kChar,     kShort, kInt,
                                    kLong, kHalf, kBFloat16, kFloat, kDouble};

/// The dtype dispatchDtypes<Mask> hands \p Dtype to, or Undefined when it
/// refuses it.
template <unsigned Mask> ScalarType dispatchedAs(ScalarType Dtype) {
  try {
    ScalarType Seen = ScalarType::Undefined;
    dispatchDtypes<Mask>(
        Dtype, "op", [&](auto Tag) { Seen = scalarTypeOf<decltype(Tag)>(); });
    return Seen;
  } catch (const NotImplementedError &) {
    return ScalarType::Undefined;
  }
}

TEST(IterDtypeDispatchTest, MaskBitsAreScalarTypeValues) {
  // Note [Dtype masks]: skc reads the mask by ScalarType value.
  EXPECT_EQ(dtypes::of(kBool), 1u);
  EXPECT_EQ(dtypes::of(kDouble), 1u << static_cast<int>(kDouble));
  // The ten dtypes are ScalarType values 0-9.
  EXPECT_EQ(dtypes::All | dtypes::Bool, (1u << 10) - 1);
}

TEST(IterDtypeDispatchTest, Groups_CallWithTheirDtypesOnly) {
  for (ScalarType T : AllDtypes) {
    SCOPED_TRACE(T);
    EXPECT_EQ(dispatchedAs<dtypes::Floating>(T),
              isFloatingType(T) ? T : ScalarType::Undefined);
    bool Integral = T != kBool && !isFloatingType(T);
    EXPECT_EQ(dispatchedAs<dtypes::Integral>(T),
              Integral ? T : ScalarType::Undefined);
    EXPECT_EQ(dispatchedAs<dtypes::All | dtypes::Bool>(T), T);
  }
  EXPECT_EQ((dispatchedAs<dtypes::of(kFloat) | dtypes::of(kLong)>(kLong)),
            kLong);
  EXPECT_EQ((dispatchedAs<dtypes::of(kFloat) | dtypes::of(kLong)>(kDouble)),
            ScalarType::Undefined);
}

TEST(IterDtypeDispatchTest, Refused_RaisesPyTorchsMessage) {
  SK_EXPECT_ERROR_TYPE(
      dispatchDtypes<dtypes::Floating>(kBool, "softmax_cpu", [](auto) {}),
      NotImplementedError, "\"softmax_cpu\" not implemented for 'Bool'");
}

TEST(IterDtypeDispatchTest, ElementSize_WordAsWideAsTheDtype) {
  for (ScalarType T : AllDtypes) {
    SCOPED_TRACE(T);
    size_t Width = dispatchElementSize(T, [](auto Tag) {
      static_assert(std::is_unsigned_v<decltype(Tag)>);
      return sizeof(Tag);
    });
    EXPECT_EQ(Width, elementSize(T));
  }
}

} // namespace
