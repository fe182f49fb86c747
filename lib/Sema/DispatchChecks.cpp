//===--- DispatchChecks.cpp - Dispatch tables -----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Resolves `dispatch:` into BackendKernels and checks torchgen's rules:
/// known keys, each once; valid kernel names in one namespace; at most one
/// composite alias key; no redundant or misnamed lone
/// CompositeImplicitAutograd table; and explicit kernels for factories.
///
//===----------------------------------------------------------------------===//

#include "OperatorModelBuilder.h"
#include "skc/Basic/Identifier.h"
#include "skc/Basic/Suggest.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace skc {

/// Splits `ns::kernel` into namespace and name; false unless every part is
/// an identifier and there are at most three namespace levels.
static bool splitKernelName(StringRef Text, std::string &Namespace,
                            std::string &Name) {
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, "::");
  if (Parts.size() > 4 || !all_of(Parts, isIdentifier))
    return false;
  Name = Parts.back().str();
  Parts.pop_back();
  Namespace = Parts.empty() ? "at::native" : join(Parts, "::");
  return true;
}

/// The name torchgen gives a function's kernel when none is written: the
/// operator name, with `_out` for out= functions.
static std::string getDefaultKernelName(const FunctionSchema &Schema) {
  std::string Name = Schema.Name.Name;
  if (Schema.hasOutArguments())
    Name += "_out";
  return Name;
}

/// Whether \p F must have an explicit dispatch table because it creates
/// tensors from nothing (torchgen: "factory functions should not have
/// implicit dispatch").
static bool isFactoryLike(const FunctionSchema &Schema) {
  StringRef Name = Schema.Name.Name;
  if (Name.starts_with("new_") || Name.ends_with("_like"))
    return true;
  bool HasTensorArg = any_of(Schema.Arguments, [](const Argument &A) {
    return A.Ty->isTensorLike();
  });
  return Schema.hasTensorOptions() && !HasTensorArg;
}

bool OperatorModelBuilder::checkDispatch(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  const FunctionSchema &Schema = F.getSchema();

  if (!E.Dispatch) {
    bool IsStructured = E.Structured.value_or(false) || E.StructuredDelegate;
    if (IsStructured || F.ManualKernelRegistration)
      return true;
    if (isFactoryLike(Schema)) {
      Diags.report(Schema.Name.Range.Start, diag::err_dispatch_factory_implicit)
          << Schema.Name.getAsString() << Schema.Name.Range;
      return false;
    }
    BackendKernel K;
    K.Key = DispatchKey::CompositeImplicitAutograd;
    K.Kernel = getDefaultKernelName(Schema);
    K.Namespace = "at::native";
    K.Implicit = true;
    F.Dispatch.push_back(std::move(K));
    return true;
  }

  const DispatchKeyCatalogue &Catalogue = Model.getDispatchKeys();
  bool Ok = true;
  // By key, not by name: a renamed key and its runtime key are one.
  DenseMap<DispatchKey, std::pair<StringRef, SMRange>> SeenKeys;
  const BackendKernel *FirstKernel = nullptr;
  for (const auto &[Keys, Kernel] : *E.Dispatch) {
    std::string Namespace, Name;
    if (!splitKernelName(Kernel.Value, Namespace, Name)) {
      Diags.report(Kernel.Loc, diag::err_dispatch_bad_kernel_name)
          << Kernel.Value << Kernel.getRange();
      Ok = false;
      continue;
    }
    SmallVector<StringRef, 4> KeyNames;
    StringRef(Keys.Value).split(KeyNames, ',');
    size_t Offset = 0;
    for (StringRef Raw : KeyNames) {
      StringRef KeyName = Raw.trim();
      SMRange R =
          Keys.rangeAt(Offset + (Raw.size() - Raw.ltrim().size()),
                       KeyName.size());
      Offset += Raw.size() + 1;
      if (KeyName.empty()) {
        Diags.report(R.Start, diag::err_dispatch_empty_key)
            << Keys.Value << Keys.getRange();
        Ok = false;
        continue;
      }
      std::optional<DispatchKey> Key = Catalogue.lookup(KeyName);
      if (!Key) {
        std::string Suggestion =
            suggestClosest(KeyName, Catalogue.getNames());
        if (Suggestion.empty())
          Diags.report(R.Start, diag::err_dispatch_unknown_key)
              << KeyName << R;
        else
          Diags.report(R.Start, diag::err_dispatch_unknown_key_suggest)
              << KeyName << Suggestion << R
              << FixItHint::replace(R, Suggestion);
        Ok = false;
        continue;
      }
      auto [It, Inserted] = SeenKeys.try_emplace(*Key, KeyName, R);
      if (!Inserted) {
        Diags.report(R.Start, diag::err_dispatch_duplicate_key)
            << KeyName << R;
        Diags.report(It->second.second.Start, diag::note_previous_key)
            << It->second.first << It->second.second;
        Ok = false;
        continue;
      }
      BackendKernel K;
      K.Key = *Key;
      K.Kernel = Name;
      K.Namespace = Namespace;
      K.Structured =
          E.Structured.value_or(false) && Catalogue.getInfo(*Key).Structured;
      K.KeyRange = R;
      K.KernelRange = Kernel.getRange();
      F.Dispatch.push_back(std::move(K));
    }
  }
  if (!Ok)
    return false;

  for (const BackendKernel &K : F.Dispatch) {
    if (!FirstKernel) {
      FirstKernel = &K;
      continue;
    }
    if (K.Namespace != FirstKernel->Namespace) {
      Diags.report(K.KernelRange.Start, diag::err_dispatch_kernel_namespaces)
          << K.Kernel << K.Namespace << FirstKernel->Namespace
          << K.KernelRange << FirstKernel->KernelRange;
      return false;
    }
  }

  unsigned NumComposite = count_if(F.Dispatch, [](const BackendKernel &K) {
    return K.Key == DispatchKey::CompositeImplicitAutograd ||
           K.Key == DispatchKey::CompositeExplicitAutograd ||
           K.Key == DispatchKey::CompositeExplicitAutogradNonFunctional;
  });
  if (NumComposite > 1) {
    Diags.report(E.getKeyLoc("dispatch"), diag::err_dispatch_multiple_composites)
        << E.getKeyRange("dispatch");
    return false;
  }

  // A lone CompositeImplicitAutograd entry either restates the default or
  // renames it; torchgen rejects both. The exceptions: a kernel whose name
  // has `_symint` anywhere (`fft_fft_symint_out`), a structured delegate,
  // whose table means something, and a structured function, which was told
  // it may not have one.
  if (F.Dispatch.size() == 1 &&
      F.Dispatch.front().Key == DispatchKey::CompositeImplicitAutograd &&
      !E.StructuredDelegate && !E.Structured.value_or(false)) {
    const BackendKernel &K = F.Dispatch.front();
    std::string Expected = getDefaultKernelName(Schema);
    if (K.Kernel == Expected) {
      Diags.report(E.getKeyLoc("dispatch"),
                   diag::err_dispatch_redundant_implicit)
          << Expected << E.getKeyRange("dispatch");
      return false;
    }
    if (!StringRef(K.Kernel).contains("_symint")) {
      Diags.report(K.KernelRange.Start,
                   diag::err_dispatch_singleton_implicit_name)
          << K.Kernel << Expected << K.KernelRange
          << FixItHint::replace(K.KernelRange, Expected);
      return false;
    }
  }

  // Keys are unique (duplicates were reported), so the order is total.
  llvm::sort(F.Dispatch, [](const BackendKernel &A, const BackendKernel &B) {
    return A.Key < B.Key;
  });
  return true;
}

} // namespace skc
