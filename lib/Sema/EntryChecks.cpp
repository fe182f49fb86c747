//===--- EntryChecks.cpp - The fields of one operator entry ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OperatorModelBuilder.h"
#include "skc/Basic/Suggest.h"
#include "skc/Parse/SchemaParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace skc {

/// Calls \p Fn with each comma-separated, trimmed item of \p S and the range
/// it occupies. Items may be empty.
template <typename Fn>
static void forEachListItem(const YAMLScalar &S, Fn &&Callback) {
  StringRef Rest = S.Value;
  size_t Offset = 0;
  while (true) {
    auto [Item, Tail] = Rest.split(',');
    StringRef Trimmed = Item.trim();
    size_t Start = Offset + (Item.size() - Item.ltrim().size());
    Callback(Trimmed, S.rangeAt(Start, Trimmed.size()));
    if (Item.size() == Rest.size())
      return;
    Offset += Item.size() + 1;
    Rest = Tail;
  }
}

bool OperatorModelBuilder::checkVariants(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  if (!E.Variants)
    return true;
  bool Ok = true;
  F.HasFunctionVariant = false;
  forEachListItem(*E.Variants, [&](StringRef Item, SMRange R) {
    if (Item == "function") {
      F.HasFunctionVariant = true;
    } else if (Item == "method") {
      F.HasMethodVariant = true;
    } else {
      Diags.report(R.Start, diag::err_variants_illegal) << Item << R;
      Ok = false;
    }
  });
  if (!Ok)
    return false;
  const FunctionSchema &Schema = F.getSchema();
  if (F.HasMethodVariant && !Schema.getSelf()) {
    Diags.report(E.Variants->Loc, diag::err_variants_method_without_self)
        << E.Variants->getRange();
    return false;
  }
  if (F.HasMethodVariant && Schema.hasOutArguments()) {
    Diags.report(E.Variants->Loc, diag::err_variants_out_method)
        << E.Variants->getRange();
    return false;
  }
  if (F.HasMethodVariant && E.PythonModule) {
    Diags.report(E.getKeyLoc("python_module"), diag::err_python_module_method)
        << E.getKeyRange("python_module");
    return false;
  }
  return true;
}

bool OperatorModelBuilder::checkCppNoDefaultArgs(const NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  if (!E.CppNoDefaultArgs)
    return true;
  for (const YAMLScalar &Name : *E.CppNoDefaultArgs) {
    const Argument *A = F.getSchema().findArgument(Name.Value);
    if (A && A->Default)
      continue;
    Diags.report(Name.Loc, diag::err_cpp_no_default_args_unknown)
        << Name.Value << Name.getRange();
    return false;
  }
  return true;
}

bool OperatorModelBuilder::checkTags(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  bool Ok = true;
  if (E.Tags) {
    for (const YAMLScalar &Tag : *E.Tags) {
      forEachListItem(Tag, [&](StringRef Name, SMRange R) {
        if (Tags && Tags->Tags.count(Name)) {
          F.Tags.push_back(Name.str());
          return;
        }
        Ok = false;
        SmallVector<StringRef, 8> Known;
        if (Tags)
          for (const auto &KV : Tags->Tags)
            Known.push_back(KV.getKey());
        llvm::sort(Known);
        std::string Suggestion = suggestClosest(Name, Known);
        if (Suggestion.empty())
          Diags.report(R.Start, diag::err_tag_unknown) << Name << R;
        else
          Diags.report(R.Start, diag::err_tag_unknown_suggest)
              << Name << Suggestion << R
              << FixItHint::replace(R, Suggestion);
        if (!Tags)
          Diags.report(R.Start, diag::note_no_tags_file);
      });
    }
  }
  if (!Ok)
    return false;

  const FunctionSchema &Schema = F.getSchema();
  auto HasTag = [&](StringRef T) { return is_contained(F.Tags, T); };
  std::string Name = Schema.Name.getAsString();

  // Random operators must say so, so that tools do not cache their results.
  // Dropout backward passes are deterministic, and so are the stateless
  // `_philox_` operators, which their key input fully determines.
  bool IsRand = StringRef(Name).contains("rand") &&
                !StringRef(Name).contains("_philox_");
  // (torchgen 2.x also counts an argument named `dropout_p`; 1.13's file
  // breaks that rule, and skc accepts every release's file.)
  bool IsDropout = StringRef(Name).contains("dropout") &&
                   !StringRef(Name).contains("backward") &&
                   Schema.Name.Name != "_cudnn_init_dropout_state";
  bool TakesGenerator = any_of(Schema.Arguments, [](const Argument &A) {
    return A.Ty->stripOptional()->isBase(BaseTypeKind::Generator);
  });
  if ((IsRand || IsDropout || TakesGenerator) &&
      !HasTag("nondeterministic_seeded")) {
    Diags.report(Schema.Name.Range.Start,
                 diag::err_tag_needs_nondeterministic_seeded)
        << Name << (TakesGenerator ? 1 : 0) << Schema.Name.Range;
    return false;
  }
  if (HasTag("inplace_view") && !Schema.Name.Inplace) {
    Diags.report(Schema.Name.Range.Start, diag::err_tag_inplace_view_name)
        << Name << Schema.Name.Range;
    return false;
  }
  // `slice_scatter` is the view_copy of `slice` since PyTorch 2.1.
  if (HasTag("view_copy") &&
      !StringRef(Schema.Name.Base).ends_with("_copy") &&
      !StringRef(Schema.Name.Base).ends_with("_scatter")) {
    Diags.report(Schema.Name.Range.Start, diag::err_tag_view_copy_name)
        << Name << Schema.Name.Range;
    return false;
  }
  return true;
}

bool OperatorModelBuilder::checkAutogen(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  if (!E.Autogen)
    return true;
  bool Ok = true;
  forEachListItem(*E.Autogen, [&](StringRef Item, SMRange R) {
    std::optional<OperatorName> Name = parseOperatorName(Item);
    if (!Name || !Name->Namespace.empty()) {
      Diags.report(R.Start, diag::err_autogen_bad_name) << Item << R;
      Ok = false;
      return;
    }
    if (Name->Base != F.getSchema().Name.Base) {
      Diags.report(R.Start, diag::err_autogen_base_mismatch)
          << F.getName() << Item << R;
      Ok = false;
      return;
    }
    F.Autogen.push_back(Item.str());
  });
  return Ok;
}

bool OperatorModelBuilder::registerName(NativeFunction &F) {
  const FunctionSchema &Schema = F.getSchema();
  std::string Name = Schema.Name.getQualifiedName();
  auto [It, Inserted] = Model.ByName.try_emplace(Name, &F);
  if (Inserted)
    return true;
  Diags.report(Schema.Name.Range.Start, diag::err_duplicate_operator)
      << Name << Schema.Name.Range;
  Diags.report(It->second->getSchema().Name.Range.Start,
               diag::note_previous_definition)
      << It->second->getSchema().Name.Range;
  return false;
}

void OperatorModelBuilder::checkAutogenTargets() {
  for (const std::unique_ptr<NativeFunction> &F : Model.Functions) {
    if (!F->Entry->Autogen)
      continue;
    forEachListItem(*F->Entry->Autogen, [&](StringRef Item, SMRange R) {
      const NativeFunction *Declared =
          Model.lookup(Item, F->getSchema().Name.Namespace);
      if (!Declared || !is_contained(F->Autogen, Item))
        return;
      Diags.report(R.Start, diag::err_autogen_exists) << Item << R;
      Diags.report(Declared->getLoc(), diag::note_operator_declared_here)
          << Item << Declared->getSchema().Name.Range;
    });
  }
}

bool OperatorModelBuilder::checkEntry(NativeFunction &F) {
  const SchemaEntry &E = *F.Entry;
  F.Kind = F.getSchema().getKind();
  bool Ok = checkVariants(F);
  if (E.DeviceCheck) {
    if (E.DeviceCheck->Value == "NoCheck") {
      F.DeviceCheck = false;
    } else if (E.DeviceCheck->Value != "ExactSame") {
      Diags.report(E.DeviceCheck->Loc, diag::err_device_check_value)
          << E.DeviceCheck->Value << E.DeviceCheck->getRange();
      Ok = false;
    }
  }
  F.DeviceGuard = E.DeviceGuard.value_or(true);
  F.ManualKernelRegistration = E.ManualKernelRegistration.value_or(false);
  F.ManualCppBinding = E.ManualCppBinding.value_or(false);
  if (E.PythonModule)
    F.PythonModule = E.PythonModule->Value;
  if (F.ManualKernelRegistration && E.Dispatch) {
    Diags.report(E.getKeyLoc("manual_kernel_registration"),
                 diag::err_manual_registration_with_dispatch)
        << E.getKeyRange("manual_kernel_registration")
        << E.getKeyRange("dispatch");
    Ok = false;
  }
  Ok &= checkCppNoDefaultArgs(F);
  Ok &= checkTags(F);
  Ok &= checkAutogen(F);
  Ok &= checkStructuredFields(F);
  Ok &= checkDispatch(F);
  return Ok;
}

} // namespace skc
