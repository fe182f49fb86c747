//===--- BackendEmitter.cpp - Register<Key>.cpp and <Key>Functions.h ------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Per dispatch key: a wrapper for every function the key has a kernel for,
/// the wrappers' registration (SK_LIBRARY_IMPL), and direct entry points
/// `sk::<key>::<op>` that call the wrappers without dispatching
/// (reference/torchgen.md §4.3-4.7). A wrapper is one of three kinds:
///
///  - structured: instantiates a variant of sk/iter/StructuredVariants.h
///    over the impl struct (over the meta struct for Meta, which is
///    generated for every structured group), runs meta() then impl();
///  - native: calls a kernel named in the dispatch table;
///  - from-functional (seed 002): the out= or inplace member of a group
///    whose functional member is the only one with a kernel for the key
///    calls that kernel's wrapper and copies the result into its tensor.
///
/// Backends whose tensors live on an indexed device (CUDA, PrivateUse1-3)
/// also check that all tensor arguments share a device and set a device
/// guard, as torchgen does for CUDA.
///
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "EmitModel.h"
#include "RegistrationPlan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace skc {

//===----------------------------------------------------------------------===//
// Wrapper bodies
//===----------------------------------------------------------------------===//

static std::string getWrapperName(DispatchKey Key, const EmittedFunction &EF) {
  return ("wrapper_" + getDispatchKeyName(Key) + "_" + EF.Ident).str();
}

/// Whether a parameter of type \p T passes tensors: a tensor or an optional
/// one by reference, or a TensorList.
static bool isTensorLike(const CppType *T) {
  const CppType *Tensor = CppType::get(CppType::Name::Tensor);
  return T == CppType::getConstRef(Tensor) || T == CppType::getRef(Tensor) ||
         T == CppType::getConstRef(CppType::getOptional(Tensor)) ||
         T == CppType::get(CppType::Name::TensorList);
}

/// The device check of a device-guard backend: out arguments first, then
/// the others, as torchgen orders them.
static void writeDeviceCheck(raw_ostream &OS, const EmittedFunction &EF,
                             StringRef Wrapper) {
  if (!EF.F->DeviceCheck)
    return;
  SmallVector<const KernelParamSpec *, 4> Tensors;
  for (const KernelParamSpec &P : EF.Sig.Params)
    if (isTensorLike(P.Type) && P.SchemaArg->IsOut)
      Tensors.push_back(&P);
  for (const KernelParamSpec &P : EF.Sig.Params)
    if (isTensorLike(P.Type) && !P.SchemaArg->IsOut)
      Tensors.push_back(&P);
  if (Tensors.size() < 2)
    return;
  OS << "  "
     << CppType::getOptional(CppType::get(CppType::Name::Device))
            ->getDeclaration("common_device", /*Qualified=*/true)
     << ";\n";
  for (const KernelParamSpec *P : Tensors)
    OS << formatv("  ::sk::impl::check_and_update_common_device(common_device, "
                  "{0}, \"{1}\", \"{0}\");\n",
                  P->Name, Wrapper);
}

/// The device guard of a native wrapper: the `device` argument of a
/// factory, else the first tensor among self, the out arguments and the
/// others (reference/torchgen.md §3.7).
static void writeDeviceGuard(raw_ostream &OS, const EmittedFunction &EF) {
  if (!EF.F->DeviceGuard)
    return;
  const FunctionSchema &S = EF.getSchema();
  for (const KernelParamSpec &P : EF.Sig.Params)
    if (P.Name == "device" &&
        P.Type == CppType::getOptional(CppType::get(CppType::Name::Device))) {
      OS << "  " << qualified(CppType::Name::OptionalDeviceGuard)
         << " device_guard(device);\n";
      return;
    }
  const KernelParamSpec *First = nullptr;
  auto Consider = [&](auto Pred) {
    for (const KernelParamSpec &P : EF.Sig.Params)
      if (!First && isTensorLike(P.Type) && Pred(P))
        First = &P;
  };
  Consider([&](const KernelParamSpec &P) {
    return S.getSelf() && P.SchemaArg == S.getSelf();
  });
  Consider([](const KernelParamSpec &P) { return P.SchemaArg->IsOut; });
  Consider([](const KernelParamSpec &) { return true; });
  if (First)
    OS << formatv("  {0} device_guard(::sk::device_of({1}));\n",
                  qualified(CppType::Name::OptionalDeviceGuard), First->Name);
}

/// The written arguments of \p EF, in order: the inplace variant's self,
/// the out= variant's out arguments.
static SmallVector<std::string, 2> getWrittenArgs(const EmittedFunction &EF) {
  SmallVector<std::string, 2> Names;
  for (const KernelParamSpec &P : EF.Sig.Params)
    if (P.SchemaArg->isWrite())
      Names.push_back(P.Name);
  return Names;
}

static void writeReturnOfWritten(raw_ostream &OS, const EmittedFunction &EF) {
  if (EF.Sig.Return->isVoid())
    return;
  SmallVector<std::string, 2> Written = getWrittenArgs(EF);
  if (Written.size() == 1)
    OS << "  return " << Written[0] << ";\n";
  else
    OS << "  return ::std::forward_as_tuple(" << join(Written, ", ") << ");\n";
}

/// The variant struct a structured wrapper instantiates.
static std::string getVariantType(DispatchKey Key, const Registration &R) {
  const NativeFunctionsGroup &G = *R.G;
  std::string Parent = Key == DispatchKey::Meta
                           ? "::sk::meta::structured_" + G.getMetaName()
                           : "::sk::native::structured_" + R.Kernel->Kernel;
  StringRef Variant = R.EF->F->Kind == SchemaKind::Functional
                          ? "FunctionalVariant"
                      : R.EF->F->Kind == SchemaKind::Inplace ? "InplaceVariant"
                                                             : "OutVariant";
  return formatv("::sk::impl::{0}<{1}, {2}::{3}, {4}, {5}>", Variant, Parent,
                 qualified(CppType::Name::DispatchKey), getDispatchKeyName(Key),
                 G.Out->StructuredInherits.empty() ? "false" : "true",
                 G.Out->getSchema().getOutArguments().size())
      .str();
}

static void writeStructuredWrapper(raw_ostream &OS, DispatchKey Key,
                                   const Registration &R) {
  const EmittedFunction &EF = *R.EF;
  const NativeFunctionsGroup &G = *R.G;
  const auto Meta = std::get<KernelSignature>(getMetaSignature(G));
  const auto Impl = std::get<KernelSignature>(getImplSignature(G));
  bool IsFunctional = EF.F->Kind == SchemaKind::Functional;
  std::string Wrapper = getWrapperName(Key, EF);

  OS << getReturnSpelling(EF.Sig.Return) << Wrapper
     << EF.getDispatcherParamList() << " {\n";
  if (usesDeviceGuard(Key))
    writeDeviceCheck(OS, EF, Wrapper);
  OS << "  " << getVariantType(Key, R) << " op";
  if (!IsFunctional)
    OS << '(' << join(getWrittenArgs(EF), ", ") << ')';
  OS << ";\n";

  SmallVector<std::string, 6> MetaArgs;
  for (const KernelParamSpec &P : Meta.Params)
    MetaArgs.push_back(P.Name);
  bool HasPrecompute = !G.Out->Precomputed.empty();
  OS << "  " << (HasPrecompute ? "auto precompute = " : "") << "op.meta("
     << join(MetaArgs, ", ") << ");\n";

  if (Key != DispatchKey::Meta) {
    SmallVector<std::string, 6> ImplArgs;
    unsigned OutputIdx = 0;
    for (const KernelParamSpec &P : Impl.Params) {
      if (!P.SchemaArg)
        ImplArgs.push_back("precompute." + P.Name);
      else if (P.SchemaArg->IsOut)
        ImplArgs.push_back(formatv(IsFunctional ? "op.outputs_[{0}]"
                                                : "op.maybe_get_output({0})",
                                   OutputIdx++)
                               .str());
      else
        ImplArgs.push_back(P.Name);
    }
    OS << "  op.impl(" << join(ImplArgs, ", ") << ");\n";
  } else if (HasPrecompute) {
    OS << "  (void)precompute;\n";
  }

  if (!IsFunctional) {
    if (Key != DispatchKey::Meta)
      OS << "  op.copy_back_proxies();\n";
    writeReturnOfWritten(OS, EF);
  } else {
    unsigned N = G.Out->getSchema().getOutArguments().size();
    if (N == 1) {
      OS << "  return ::std::move(op.outputs_[0]);\n";
    } else {
      SmallVector<std::string, 2> Moved;
      for (unsigned I = 0; I != N; ++I)
        Moved.push_back(formatv("::std::move(op.outputs_[{0}])", I).str());
      OS << "  return ::std::make_tuple(" << join(Moved, ", ") << ");\n";
    }
  }
  OS << "}\n";
}

static void writeNativeWrapper(raw_ostream &OS, DispatchKey Key,
                               const Registration &R) {
  const EmittedFunction &EF = *R.EF;
  std::string Wrapper = getWrapperName(Key, EF);
  OS << getReturnSpelling(EF.Sig.Return) << Wrapper
     << EF.getDispatcherParamList() << " {\n";
  if (usesDeviceGuard(Key)) {
    writeDeviceCheck(OS, EF, Wrapper);
    writeDeviceGuard(OS, EF);
  }
  OS << "  " << (EF.Sig.Return->isVoid() ? "" : "return ")
     << getQualifiedKernelName(*R.Kernel) << '(' << EF.getArgNames()
     << ");\n}\n";
}

static void writeFromFunctionalWrapper(raw_ostream &OS, DispatchKey Key,
                                       const Registration &R) {
  const EmittedFunction &EF = *R.EF;
  OS << "// " << EF.getRegistrationName() << " from the functional kernel of "
     << R.Functional->getRegistrationName() << " (seed 002).\n";
  std::string Wrapper = getWrapperName(Key, EF);
  OS << getReturnSpelling(EF.Sig.Return) << Wrapper
     << EF.getDispatcherParamList() << " {\n";
  // The functional wrapper checks its inputs; the outputs are checked here,
  // and the copy (which may resize them) runs on their device.
  if (usesDeviceGuard(Key)) {
    writeDeviceCheck(OS, EF, Wrapper);
    writeDeviceGuard(OS, EF);
  }
  OS << "  auto result = " << getWrapperName(Key, *R.Functional) << '('
     << R.Functional->getArgNames() << ");\n";
  SmallVector<std::string, 2> Written = getWrittenArgs(EF);
  StringRef Copy =
      EF.F->Kind == SchemaKind::Inplace ? "copy_to_inplace" : "copy_to_out";
  if (Written.size() == 1)
    OS << formatv("  ::sk::impl::{0}(result, {1});\n", Copy, Written[0]);
  else
    for (size_t I = 0; I != Written.size(); ++I)
      OS << formatv("  ::sk::impl::{0}(::std::get<{1}>(result), {2});\n", Copy,
                    I, Written[I]);
  writeReturnOfWritten(OS, EF);
  OS << "}\n";
}

static void writeWrapper(raw_ostream &OS, DispatchKey Key,
                         const Registration &R) {
  switch (R.Kind) {
  case Registration::Structured:
    return writeStructuredWrapper(OS, Key, R);
  case Registration::Native:
    return writeNativeWrapper(OS, Key, R);
  case Registration::FromFunctional:
    return writeFromFunctionalWrapper(OS, Key, R);
  }
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// `cpu`, `compositeimplicitautograd`: the namespace of the direct entry
/// points (torchgen's `at::cpu::add`).
static std::string getKeyNamespace(DispatchKey Key) {
  return getDispatchKeyName(Key).lower();
}

/// The direct entry points of \p EF, declared (\p Define false, with
/// default arguments) or defined as calls of its wrapper.
static void writeDirectEntryPoints(raw_ostream &OS, const EmitModel &EM,
                                   DispatchKey Key, const EmittedFunction &EF,
                                   bool Define) {
  for (const CppApiDecl &D : EF.ApiDecls) {
    if (EM.isShadowedApiDecl(EF, D))
      continue;
    OS << getReturnSpelling(EF.Sig.Return) << D.Name
       << EF.getParamList(D, /*WithDefaults=*/!Define);
    if (!Define) {
      OS << ";\n";
      continue;
    }
    OS << " {\n  return " << getWrapperName(Key, EF) << '(' << EF.getArgNames()
       << ");\n}\n";
  }
}

/// Splits the units of \p Plan into \p N runs of about equal size.
static std::vector<std::vector<const std::vector<Registration> *>>
shardUnits(const KeyPlan &Plan, unsigned N) {
  std::vector<std::vector<const std::vector<Registration> *>> Shards(N);
  size_t Total = 0;
  for (const auto &[Name, Regs] : Plan.Units)
    Total += Regs.size();
  size_t Done = 0;
  for (const auto &[Name, Regs] : Plan.Units) {
    // The shard this unit starts in, by the registrations before it.
    size_t Shard = Total ? Done * N / Total : 0;
    Shards[std::min<size_t>(Shard, N - 1)].push_back(&Regs);
    Done += Regs.size();
  }
  return Shards;
}

static GeneratedFile
emitRegistrationShard(const EmitModel &EM, const KeyPlan &Plan,
                      ArrayRef<const std::vector<Registration> *> Units,
                      StringRef FileName) {
  DispatchKey Key = Plan.Key;
  std::string KeyName = getDispatchKeyName(Key).str();
  GeneratedFile File{FileName.str(), ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, EM.getOptions());
  OS << "#include \"NativeFunctions.h\"\n"
     << "#include \"" << KeyName << "Functions.h\"\n\n"
     << "#include \"sk/core/DeviceGuard.h\"\n"
     << "#include \"sk/dispatch/DeviceCheck.h\"\n"
     << "#include \"sk/dispatch/Library.h\"\n"
     << "#include \"sk/iter/StructuredHelpers.h\"\n"
     << "#include \"sk/iter/StructuredVariants.h\"\n\n"
     << "#include <tuple>\n#include <utility>\n\n";

  std::map<std::string, std::vector<const Registration *>> ByNamespace;
  OS << "namespace {\n";
  for (const std::vector<Registration> *Regs : Units)
    for (const Registration &R : *Regs) {
      OS << '\n';
      writeWrapper(OS, Key, R);
      ByNamespace[R.EF->DispatcherNamespace].push_back(&R);
    }
  // One constant table per namespace: registering it is a loop in the
  // runtime, not code per kernel here (Note [One boxed entry point per
  // signature] in KernelFunction.h).
  for (const auto &[Namespace, Regs] : ByNamespace) {
    OS << "\nconstexpr " << qualified(CppType::Name::KernelRegistration) << " "
       << Namespace
       << "_kernels[] = {\n";
    for (const Registration *R : Regs)
      OS << formatv("    {{\"{0}\", SK_KERNEL({1})},\n",
                    R->EF->getRegistrationName(), getWrapperName(Key, *R->EF));
    OS << "};\n";
  }
  OS << "\n} // namespace\n";

  for (const auto &[Namespace, Regs] : ByNamespace)
    OS << "\nSK_LIBRARY_IMPL(" << Namespace << ", "
       << getRuntimeKeyName(Key) << ", m) { m.impl(" << Namespace
       << "_kernels); }\n";

  std::map<std::string, std::vector<const Registration *>> ByCppNamespace;
  for (const std::vector<Registration> *Regs : Units)
    for (const Registration &R : *Regs)
      ByCppNamespace[R.EF->CppNamespace].push_back(&R);
  for (const auto &[CppNamespace, Regs] : ByCppNamespace) {
    OS << '\n';
    NamespaceScope NS(OS, CppNamespace + "::" + getKeyNamespace(Key));
    for (const Registration *R : Regs) {
      OS << '\n';
      writeDirectEntryPoints(OS, EM, Key, *R->EF, /*Define=*/true);
    }
    OS << '\n';
  }
  return File;
}

static GeneratedFile emitKeyFunctionsHeader(const EmitModel &EM,
                                            const KeyPlan &Plan) {
  DispatchKey Key = Plan.Key;
  GeneratedFile File{(getDispatchKeyName(Key) + "Functions.h").str(), ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, EM.getOptions());
  OS << "#pragma once\n\n";
  writeApiIncludes(OS);
  OS << "\n// Call the " << getDispatchKeyName(Key)
     << " kernels directly, without dispatching.\n";
  std::map<std::string, std::vector<const EmittedFunction *>> ByCppNamespace;
  for (const auto &[Name, Regs] : Plan.Units)
    for (const Registration &R : Regs)
      ByCppNamespace[R.EF->CppNamespace].push_back(R.EF);
  for (auto &[CppNamespace, Functions] : ByCppNamespace) {
    OS << '\n';
    NamespaceScope NS(OS, CppNamespace + "::" + getKeyNamespace(Key));
    OS << '\n';
    for (const EmittedFunction *EF : Functions)
      writeDirectEntryPoints(OS, EM, Key, *EF, /*Define=*/false);
    OS << '\n';
  }
  return File;
}

void emitBackendFiles(const EmitModel &EM, DispatchKey Key,
                      std::vector<GeneratedFile> &Files) {
  KeyPlan Plan = planKey(EM, Key);
  unsigned N = EM.getOptions().Shards;
  std::string Stem = ("Register" + getDispatchKeyName(Key)).str();
  auto Shards = shardUnits(Plan, N);
  for (unsigned I = 0; I != N; ++I)
    Files.push_back(
        emitRegistrationShard(EM, Plan, Shards[I], getShardedName(Stem, I, N)));
  Files.push_back(emitKeyFunctionsHeader(EM, Plan));
}

} // namespace skc
