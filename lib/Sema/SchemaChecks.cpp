//===--- SchemaChecks.cpp - Invariants of one function schema -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rules torchgen asserts in FunctionSchema.__post_init__, each as a
/// diagnostic at the argument or return that breaks it.
///
//===----------------------------------------------------------------------===//

#include "OperatorModelBuilder.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace skc {

/// Whether some return of \p Schema carries annotation \p A.
static bool isReturned(const FunctionSchema &Schema, const AliasAnnotation &A) {
  return any_of(Schema.Returns, [&](const Return &R) {
    return R.Annotation && *R.Annotation == A;
  });
}

bool OperatorModelBuilder::checkSchema(const FunctionSchema &Schema) {
  const OperatorName &Name = Schema.Name;
  ArrayRef<Argument> Outs = Schema.getOutArguments();

  if (Name.Inplace && !Outs.empty()) {
    Diags.report(Outs.front().Range.Start, diag::err_schema_inplace_with_out)
        << Name.Name << Outs.front().Range;
    return false;
  }

  // Out arguments line up with the returns, one for one.
  for (size_t I = 0, E = std::min(Outs.size(), Schema.Returns.size()); I != E;
       ++I) {
    const Argument &A = Outs[I];
    const Return &R = Schema.Returns[I];
    if (R.Annotation && *R.Annotation == *A.Annotation)
      continue;
    Diags.report(R.Range.Start, diag::err_schema_out_return_mismatch)
        << A.Name << I << A.Annotation->getAsString() << R.Range;
    return false;
  }

  // Mutable positional arguments after self are not returned.
  for (unsigned I = Schema.SelfIndex + 1, E = Schema.Arguments.size(); I < E;
       ++I) {
    const Argument &A = Schema.Arguments[I];
    if (Schema.isPositional(I) && A.isWrite() &&
        isReturned(Schema, *A.Annotation)) {
      Diags.report(A.Range.Start,
                   diag::err_schema_mutable_positional_returned)
          << A.Name << A.Range;
      return false;
    }
  }

  bool AnyMutable = any_of(Schema.Returns, [](const Return &R) {
    return R.isWrite();
  });
  bool AnyImmutable = any_of(Schema.Returns, [](const Return &R) {
    return !R.isWrite();
  });
  if (AnyMutable && AnyImmutable) {
    Diags.report(Schema.Returns.front().Range.Start,
                 diag::err_schema_mixed_mutable_returns)
        << SMRange(Schema.Returns.front().Range.Start,
                   Schema.Returns.back().Range.End);
    return false;
  }

  const Argument *Self = Schema.getSelf();
  for (const Return &R : Schema.Returns) {
    if (!R.isWrite())
      continue;
    bool Aliased =
        any_of(Outs, [&](const Argument &A) {
          return *A.Annotation == *R.Annotation;
        }) ||
        (Self && Self->Annotation && *Self->Annotation == *R.Annotation);
    if (!Aliased) {
      Diags.report(R.Range.Start, diag::err_schema_mutable_return_unaliased)
          << R.Annotation->getAsString() << R.Range;
      return false;
    }
    if (R.Ty->isList()) {
      Diags.report(R.Range.Start, diag::err_schema_mutable_list_return)
          << R.Range;
      return false;
    }
  }
  for (const Return &R : Schema.Returns) {
    if (R.Ty->isList() && R.Ty->getListSize() != 0) {
      Diags.report(R.Range.Start, diag::err_schema_fixed_size_list_return)
          << R.Ty->getAsString() << R.Range;
      return false;
    }
  }

  if (!Outs.empty()) {
    const Argument *NonTensorOut = find_if(Outs, [](const Argument &A) {
      return !A.Ty->isBase(BaseTypeKind::Tensor);
    });
    if (NonTensorOut != Outs.end()) {
      if (!Schema.Returns.empty()) {
        Diags.report(NonTensorOut->Range.Start,
                     diag::err_schema_out_list_return)
            << NonTensorOut->Name << NonTensorOut->Range;
        return false;
      }
    } else {
      size_t NumReturnedOuts = count_if(Outs, [](const Argument &A) {
        return !StringRef(A.Name).starts_with("_scratch_");
      });
      if (!Schema.Returns.empty() &&
          Schema.Returns.size() != NumReturnedOuts) {
        Diags.report(Schema.Returns.front().Range.Start,
                     diag::err_schema_out_return_count)
            << NumReturnedOuts << Schema.Returns.size()
            << SMRange(Schema.Returns.front().Range.Start,
                       Schema.Returns.back().Range.End);
        return false;
      }
    }
  }

  if (Name.Inplace) {
    if (!Self || !Self->isWrite()) {
      SMRange R = Self ? Self->Range : Name.Range;
      Diags.report(R.Start, diag::err_schema_inplace_needs_self)
          << Name.Name << R;
      return false;
    }
    if (Self->Ty->isBase(BaseTypeKind::Tensor)) {
      if (Schema.Returns.size() != 1 || !Schema.Returns[0].Annotation ||
          *Schema.Returns[0].Annotation != *Self->Annotation) {
        SMRange R = Schema.Returns.empty() ? Schema.Range
                                           : Schema.Returns.front().Range;
        Diags.report(R.Start, diag::err_schema_inplace_return)
            << Name.Name << Self->Annotation->getAsString() << R;
        return false;
      }
    } else if (!Schema.Returns.empty()) {
      Diags.report(Schema.Returns.front().Range.Start,
                   diag::err_schema_inplace_list_return)
          << Name.Name << Schema.Returns.front().Range;
      return false;
    }
  }

  SchemaKind Kind = Schema.getKind();
  if (Schema.hasTensorOptions() && Kind != SchemaKind::Functional) {
    const Argument &A = Schema.Arguments[Schema.TensorOptionsStart];
    Diags.report(A.Range.Start, diag::err_schema_tensor_options_not_functional)
        << A.Range;
    return false;
  }
  if (StringRef(Name.Overload).contains("functional") &&
      Kind != SchemaKind::Functional) {
    Diags.report(Name.Range.Start, diag::err_schema_functional_overload)
        << Name.Overload << Name.Range;
    return false;
  }
  return true;
}

} // namespace skc
