//===--- StructuredChecks.cpp - Structured kernels, delegates, groups -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rules of reference/torchgen.md §3.2–3.5 for `structured`,
/// `structured_delegate`, `structured_inherits`, `precomputed` and
/// `ufunc_inner_loop`; grouping by signature; and the group invariants. Where
/// torchgen has a bare assert or a KeyError, these say what is wrong and
/// point at the other half of the mismatch with a note.
///
//===----------------------------------------------------------------------===//

#include "OperatorModelBuilder.h"
#include "skc/Basic/Suggest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <map>

using namespace llvm;

namespace skc {

bool OperatorModelBuilder::checkStructuredFields(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  bool IsStructured = E.Structured.value_or(false);
  bool IsDelegate = E.StructuredDelegate.has_value();
  bool IsOut = F.Kind == SchemaKind::Out || F.Kind == SchemaKind::Scratch;

  if (IsStructured && IsDelegate) {
    Diags.report(E.getKeyLoc("structured_delegate"),
                 diag::err_structured_and_delegate)
        << E.getKeyRange("structured_delegate") << E.getKeyRange("structured");
    return false;
  }
  if (IsStructured && !IsOut) {
    Diags.report(E.getKeyLoc("structured"), diag::err_structured_not_out)
        << E.getKeyRange("structured")
        << FixItHint::replace(E.getKeyRange("structured"),
                              "structured_delegate");
    return false;
  }
  if (IsDelegate && IsOut) {
    Diags.report(E.getKeyLoc("structured_delegate"),
                 diag::err_structured_delegate_on_out)
        << E.getKeyRange("structured_delegate");
    return false;
  }
  if ((IsStructured && F.Kind == SchemaKind::Scratch) ||
      (IsDelegate && F.Kind == SchemaKind::Mutable)) {
    StringRef Key = IsStructured ? "structured" : "structured_delegate";
    Diags.report(E.getKeyLoc(Key), diag::err_structured_kind_unsupported)
        << static_cast<unsigned>(F.Kind) << E.getKeyRange(Key);
    return false;
  }
  // The function is structured from here on, even if a later rule fails, so
  // that its delegates are not told to make it structured.
  F.Structured = IsStructured;
  if ((IsStructured || IsDelegate) && E.DeviceGuard == false) {
    Diags.report(E.getKeyLoc("device_guard"), diag::err_structured_device_guard)
        << E.getKeyRange("device_guard");
    return false;
  }
  if (E.StructuredInherits && !IsStructured) {
    Diags.report(E.getKeyLoc("structured_inherits"),
                 diag::err_structured_inherits_unstructured)
        << E.getKeyRange("structured_inherits");
    return false;
  }
  if (E.Precomputed && !IsStructured) {
    Diags.report(E.getKeyLoc("precomputed"),
                 diag::err_precomputed_unstructured)
        << E.getKeyRange("precomputed");
    return false;
  }
  if (IsDelegate && StringRef(E.StructuredDelegate->Value).contains("::")) {
    Diags.report(E.StructuredDelegate->Loc,
                 diag::err_structured_delegate_namespace)
        << E.StructuredDelegate->getRange();
    return false;
  }
  if (E.UfuncInnerLoop && !checkUfuncInnerLoop(F))
    return false;

  // Keys that structured codegen owns must not be written by hand.
  if (E.Dispatch && (IsStructured || IsDelegate)) {
    for (const auto &[Keys, Kernel] : *E.Dispatch) {
      SmallVector<StringRef, 4> Names;
      StringRef(Keys.Value).split(Names, ',');
      size_t Offset = 0;
      for (StringRef Raw : Names) {
        StringRef Name = Raw.trim();
        SMRange R = Keys.rangeAt(Offset + (Raw.size() - Raw.ltrim().size()),
                                 Name.size());
        Offset += Raw.size() + 1;
        std::optional<DispatchKey> K = Model.getDispatchKeys().lookup(Name);
        if (!K)
          continue; // Reported by checkDispatch.
        if (*K == DispatchKey::Meta) {
          Diags.report(R.Start, diag::err_structured_explicit_meta) << R;
          return false;
        }
        if (*K == DispatchKey::CompositeExplicitAutogradNonFunctional) {
          Diags.report(R.Start, diag::err_structured_explicit_nonfunctional)
              << R;
          return false;
        }
        if (*K == DispatchKey::CompositeImplicitAutograd && IsStructured) {
          Diags.report(R.Start, diag::err_structured_composite_implicit) << R;
          return false;
        }
        if (IsDelegate && Model.getDispatchKeys().getInfo(*K).Structured) {
          Diags.report(R.Start, diag::err_structured_delegate_key)
              << Name << E.StructuredDelegate->Value << R;
          return false;
        }
      }
    }
  }

  if (E.StructuredInherits)
    F.StructuredInherits = E.StructuredInherits->Value;
  return !E.Precomputed || checkPrecomputed(F);
}

/// Whether \p S has letters and all of them are upper-case.
static bool isAllUpperCase(StringRef S) {
  return any_of(S, isAlpha) &&
         none_of(S, [](char C) { return isLower(C); });
}

bool OperatorModelBuilder::checkPrecomputed(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  const std::vector<YAMLScalar> &Lines = *E.Precomputed;
  for (size_t I = 0; I != Lines.size(); ++I) {
    const YAMLScalar &Line = Lines[I];
    StringRef Text = Line.Value;
    PrecomputedLine Result;
    StringRef FieldList = Text;
    size_t FieldOffset = 0;
    size_t Arrow = Text.find("->");
    if (Arrow != StringRef::npos) {
      StringRef Replaced = Text.take_front(Arrow).trim();
      FieldOffset = Arrow + 2;
      FieldList = Text.drop_front(FieldOffset);
      if (!F.getSchema().findArgument(Replaced)) {
        SMRange R =
            Line.rangeAt(Replaced.data() - Text.data(), Replaced.size());
        Diags.report(R.Start, diag::err_precomputed_unknown_argument)
            << Replaced << R;
        return false;
      }
      Result.Replaces = Replaced.str();
    } else if (I + 1 != Lines.size()) {
      // Only the last line may add fields without replacing an argument.
      Diags.report(Line.Loc, diag::err_precomputed_syntax)
          << Text << Line.getRange();
      return false;
    }
    SmallVector<StringRef, 4> Fields;
    FieldList.split(Fields, ',');
    for (StringRef Raw : Fields) {
      size_t Start = FieldOffset + (Raw.data() - FieldList.data()) +
                     (Raw.size() - Raw.ltrim().size());
      StringRef Field = Raw.trim();
      auto [TypeName, Name] = Field.rsplit(' ');
      TypeName = TypeName.trim();
      if (Field.empty() || TypeName.empty() || Name.empty()) {
        Diags.report(Line.locAt(Start), diag::err_precomputed_syntax)
            << Text << Line.getRange();
        return false;
      }
      std::optional<BaseTypeKind> Ty = sk::schema::lookupBaseType(TypeName);
      if (!Ty) {
        Diags.report(Line.locAt(Start), diag::err_precomputed_unknown_type)
            << TypeName << Name << Line.rangeAt(Start, TypeName.size());
        return false;
      }
      if (isAllUpperCase(Name)) {
        size_t NameStart = Start + Field.size() - Name.size();
        Diags.report(Line.locAt(NameStart), diag::err_precomputed_uppercase)
            << Name << Line.rangeAt(NameStart, Name.size());
        return false;
      }
      Result.Fields.push_back({*Ty, Name.str()});
    }
    F.Precomputed.push_back(std::move(Result));
  }
  return true;
}

/// Whether \p Name is a dtype class or a dtype a ufunc loop may name.
static bool isUfuncDtype(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"Integral", "Floating", "Complex", "All", "AllAndComplex", "FloatingAndComplex"}, true)
      .Cases({"Byte", "Char", "Short", "Int", "Long", "Bool"}, true)
      .Cases({"Half", "BFloat16", "Float", "Double"}, true)
      .Cases({"ComplexHalf", "ComplexFloat", "ComplexDouble"}, true)
      .Default(false);
}

bool OperatorModelBuilder::checkUfuncInnerLoop(const NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  if (!E.Structured.value_or(false)) {
    Diags.report(E.getKeyLoc("ufunc_inner_loop"), diag::err_ufunc_unstructured)
        << E.getKeyRange("ufunc_inner_loop");
    return false;
  }
  if (E.Dispatch) {
    for (const auto &[Keys, Kernel] : *E.Dispatch) {
      SmallVector<StringRef, 4> Names;
      StringRef(Keys.Value).split(Names, ',');
      for (StringRef Name : Names) {
        Name = Name.trim();
        // torchgen's UFUNC_DISPATCH_KEYS, whose kernels ufunc generates.
        std::optional<DispatchKey> K = Model.getDispatchKeys().lookup(Name);
        if (K && (*K == DispatchKey::CPU || *K == DispatchKey::CUDA)) {
          SMRange R =
              Keys.rangeAt(Name.data() - Keys.Value.data(), Name.size());
          Diags.report(R.Start, diag::err_ufunc_explicit_dispatch) << Name << R;
          return false;
        }
      }
    }
  }
  for (const auto &[Key, Loop] : *E.UfuncInnerLoop) {
    bool KnownKey = StringSwitch<bool>(Key.Value)
                        .Cases({"Generic", "ScalarOnly", "CPUScalar", "CPUVector", "CUDAFunctor"}, true)
                        .Cases({"CUDAFunctorOnSelf", "CUDAFunctorOnOther"}, true)
                        .Default(false);
    if (!KnownKey) {
      Diags.report(Key.Loc, diag::err_ufunc_unknown_key)
          << Key.Value << Key.getRange();
      return false;
    }
    // `name (DtypeClass, ...)`
    StringRef Text = StringRef(Loop.Value).trim();
    size_t Open = Text.find('(');
    if (Open == StringRef::npos || !Text.ends_with(")") ||
        Text.take_front(Open).trim().empty()) {
      Diags.report(Loop.Loc, diag::err_ufunc_bad_loop)
          << Loop.Value << Loop.getRange();
      return false;
    }
    SmallVector<StringRef, 4> Dtypes;
    Text.slice(Open + 1, Text.size() - 1).split(Dtypes, ',');
    for (StringRef D : Dtypes) {
      D = D.trim();
      if (!isUfuncDtype(D)) {
        SMRange R = Loop.rangeAt(D.data() - Loop.Value.data(), D.size());
        Diags.report(R.Start, diag::err_ufunc_unknown_dtype) << D << R;
        return false;
      }
    }
  }
  return true;
}

void OperatorModelBuilder::resolveDelegates() {
  for (const std::unique_ptr<NativeFunction> &FP : Model.Functions) {
    NativeFunction &F = *FP;
    const SchemaEntry &E = *F.Entry;
    if (!E.StructuredDelegate)
      continue;
    // A misplaced delegate was reported by checkStructuredFields().
    if (E.Structured.value_or(false) ||
        (F.Kind != SchemaKind::Functional && F.Kind != SchemaKind::Inplace) ||
        StringRef(E.StructuredDelegate->Value).contains("::"))
      continue;
    const YAMLScalar &Name = *E.StructuredDelegate;
    StringRef Namespace = F.getSchema().Name.Namespace;
    const NativeFunction *Delegate = Model.lookup(Name.Value, Namespace);
    if (!Delegate) {
      std::vector<std::string> Names;
      for (const auto &KV : Model.ByName)
        if (KV.second->Kind == SchemaKind::Out &&
            KV.second->getSchema().Name.Namespace == Namespace)
          Names.push_back(KV.second->getName());
      SmallVector<StringRef, 0> Candidates(Names.begin(), Names.end());
      llvm::sort(Candidates);
      std::string Suggestion = suggestClosest(Name.Value, Candidates);
      if (Suggestion.empty())
        Diags.report(Name.Loc, diag::err_structured_delegate_unknown)
            << Name.Value << Name.getRange();
      else
        Diags.report(Name.Loc, diag::err_structured_delegate_unknown_suggest)
            << Name.Value << Suggestion << Name.getRange()
            << FixItHint::replace(Name.getRange(), Suggestion);
      continue;
    }
    if (!Delegate->Structured) {
      Diags.report(Name.Loc, diag::err_structured_delegate_not_structured)
          << Name.Value << Name.getRange();
      Diags.report(Delegate->getLoc(), diag::note_operator_declared_here)
          << Name.Value << Delegate->getSchema().Name.Range;
      continue;
    }
    if (Delegate->getSchema().getSignatureKey() !=
        F.getSchema().getSignatureKey()) {
      Diags.report(Name.Loc, diag::err_structured_delegate_not_in_group)
          << Name.Value << Name.getRange();
      Diags.report(Delegate->getLoc(), diag::note_operator_declared_here)
          << Name.Value << Delegate->getSchema().Name.Range;
      continue;
    }
    F.StructuredDelegate = Delegate;
  }
}

SmallVector<NativeFunction *, 4> NativeFunctionsGroup::getFunctions() const {
  SmallVector<NativeFunction *, 4> Result;
  for (NativeFunction *F : {Functional, Inplace, Mutable, Out})
    if (F)
      Result.push_back(F);
  return Result;
}

void OperatorModelBuilder::formGroups() {
  // Bucket by (namespace, signature); within a bucket, one function per
  // kind (the first one in the file, like torchgen's dict).
  struct Bucket {
    NativeFunction *ByKind[5] = {};
  };
  std::map<std::string, Bucket> Buckets;
  for (const std::unique_ptr<NativeFunction> &F : Model.Functions) {
    std::string Key = F->getSchema().Name.Namespace + "::" +
                      F->getSchema().getSignatureKey();
    NativeFunction *&Slot = Buckets[Key].ByKind[static_cast<int>(F->Kind)];
    if (!Slot)
      Slot = F.get();
  }

  for (const std::unique_ptr<NativeFunction> &FP : Model.Functions) {
    NativeFunction &F = *FP;
    if (F.Kind != SchemaKind::Out)
      continue;
    std::string Key =
        F.getSchema().Name.Namespace + "::" + F.getSchema().getSignatureKey();
    Bucket &B = Buckets[Key];
    if (B.ByKind[static_cast<int>(SchemaKind::Out)] != &F)
      continue;
    NativeFunction *Functional =
        B.ByKind[static_cast<int>(SchemaKind::Functional)];
    if (!Functional) {
      if (F.Structured)
        Diags.report(F.getSchema().Name.Range.Start,
                     diag::err_structured_no_functional)
            << F.getName() << F.getSchema().Name.Range;
      continue;
    }
    NativeFunctionsGroup &G = Model.Groups.emplace_back();
    G.Functional = Functional;
    G.Inplace = B.ByKind[static_cast<int>(SchemaKind::Inplace)];
    G.Mutable = B.ByKind[static_cast<int>(SchemaKind::Mutable)];
    G.Out = &F;
    for (NativeFunction *Member : G.getFunctions())
      Member->Group = &G;
    checkGroup(G);
  }
}

void OperatorModelBuilder::checkGroup(const NativeFunctionsGroup &G) {
  if (!G.isStructured())
    return;
  for (NativeFunction *F : {G.Functional, G.Inplace, G.Mutable}) {
    if (!F)
      continue;
    const SchemaEntry &E = *F->Entry;
    if (!E.StructuredDelegate) {
      Diags.report(F->getSchema().Name.Range.Start,
                   diag::err_structured_mixed_group)
          << F->getName() << F->getSchema().Name.Range;
      Diags.report(G.Out->getLoc(), diag::note_group_member)
          << G.Out->getName() << static_cast<unsigned>(SchemaKind::Out)
          << G.Out->getSchema().Name.Range;
      continue;
    }
    // A delegate that did not resolve was reported by resolveDelegates().
    if (F->StructuredDelegate && F->StructuredDelegate != G.Out) {
      Diags.report(E.StructuredDelegate->Loc,
                   diag::err_structured_group_delegate)
          << F->getName() << E.StructuredDelegate->Value << G.Out->getName()
          << E.StructuredDelegate->getRange();
      Diags.report(G.Out->getLoc(), diag::note_group_member)
          << G.Out->getName() << static_cast<unsigned>(SchemaKind::Out)
          << G.Out->getSchema().Name.Range;
    }
  }
}

} // namespace skc
