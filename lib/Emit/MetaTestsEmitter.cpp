//===--- MetaTestsEmitter.cpp - One meta-consistency test per operator ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A GoogleTest source with one test per functional operator that has a
/// Meta kernel (a structured group, whose Meta kernel skc generates, a
/// composite, or an explicit Meta kernel): it runs the operator on CPU and
/// on Meta over samples made from its schema and compares sizes, strides
/// and dtypes (sk/testing/MetaConsistency.h). Every other device backend
/// built (CUDA, PrivateUse1) gets the same test against its own kernels,
/// which skips when the process has no such device. Operators tagged
/// `dynamic_output_shape` must instead be refused on Meta. PyTorch keeps
/// these checks by hand; here the schema gives them.
///
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "EmitModel.h"
#include "RegistrationPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

/// {0}: nothing; the helper every test calls.
static const char *const Prologue = R"(#include "sk/core/DispatchKey.h"
#include "sk/testing/MetaConsistency.h"

#include <gtest/gtest.h>

#include <string_view>

namespace {

void expectMetaConsistent(const char *Name, const char *Overload,
                          bool RefusedOnMeta = false,
                          ::sk::DeviceType Backend = ::sk::DeviceType::CPU) {
  std::string_view On = ::sk::toString(::sk::backendKeyOf(Backend));
  if (!::sk::testing::isDeviceAvailable(Backend))
    GTEST_SKIP() << "no " << On << " device: " << On << " tests skipped";
  ::sk::testing::MetaConsistencyReport R = ::sk::testing::checkMetaConsistency(
      Name, Overload, RefusedOnMeta, ::sk::Device(Backend));
  for (const std::string &F : R.Failures)
    ADD_FAILURE() << F;
  if (RefusedOnMeta) {
    if (R.RefusedOnMeta == 0)
      GTEST_SKIP() << "none of the " << R.Samples
                   << " samples made from the schema ran on " << On;
    ::testing::Test::RecordProperty("meta_refusal", R.FirstMetaRefusal);
    return;
  }
  ::testing::Test::RecordProperty("compared", static_cast<int>(R.Compared));
  if (R.Compared == 0)
    GTEST_SKIP() << "none of the " << R.Samples
                 << " samples made from the schema ran on " << On;
}

} // namespace
)";

/// Whether a call of \p F on meta tensors reaches a Meta kernel.
static bool hasMetaKernel(const NativeFunction &F) {
  if (F.Group && F.Group->isStructured() && &F != F.Group->Mutable)
    return true;
  return any_of(F.Dispatch, [](const BackendKernel &K) {
    return K.Key == DispatchKey::Meta ||
           K.Key == DispatchKey::CompositeImplicitAutograd ||
           K.Key == DispatchKey::CompositeExplicitAutograd ||
           K.Key == DispatchKey::CompositeExplicitAutogradNonFunctional;
  });
}

/// Whether a call of \p EF on \p Key's device reaches a kernel: the key's
/// own or a composite one.
static bool hasKernelFor(const EmitModel &EM, const EmittedFunction &EF,
                         DispatchKey Key) {
  return planRegistration(EM, EF, Key) ||
         planRegistration(EM, EF, DispatchKey::CompositeImplicitAutograd) ||
         planRegistration(EM, EF, DispatchKey::CompositeExplicitAutograd);
}

GeneratedFile emitMetaConsistencyTests(const OperatorModel &Model,
                                       const EmitOptions &Opts,
                                       StringRef FileName) {
  EmitModel EM(Model, Opts);
  // The device backends built, besides the CPU: those the runtime has a
  // device type for.
  SmallVector<DispatchKey, 2> DeviceBackends;
  for (DispatchKey B : Opts.Backends)
    if (B == DispatchKey::CUDA || B == DispatchKey::PrivateUse1)
      DeviceBackends.push_back(B);
  GeneratedFile File{FileName.str(), ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, Opts);
  OS << Prologue;
  std::vector<std::string> WithoutMeta;
  for (const EmittedFunction &EF : EM.getFunctions()) {
    const NativeFunction &F = *EF.F;
    if (F.Kind != SchemaKind::Functional || EF.Sig.Return->isVoid())
      continue;
    bool Reachable = any_of(EF.getSchema().Arguments, [](const Argument &A) {
      const Type *T = A.Ty->isOptional() ? A.Ty->getElement() : A.Ty;
      if (T->isList())
        T = T->getElement();
      return T->isBase(BaseTypeKind::Tensor) || T->isBase(BaseTypeKind::Device);
    });
    if (!hasMetaKernel(F) || !Reachable) {
      WithoutMeta.push_back(EF.DispatcherNamespace + "::" +
                            EF.getRegistrationName());
      continue;
    }
    const OperatorName &Name = EF.getSchema().Name;
    bool Dynamic = is_contained(F.Tags, "dynamic_output_shape");
    OS << formatv("\nTEST(MetaConsistency, {0}) {{\n  expectMetaConsistent("
                  "\"{1}::{2}\", \"{3}\"{4});\n}\n",
                  EF.Ident, EF.DispatcherNamespace, Name.Name, Name.Overload,
                  Dynamic ? ", /*RefusedOnMeta=*/true" : "");
    for (DispatchKey Key : DeviceBackends) {
      if (!hasKernelFor(EM, EF, Key))
        continue;
      StringRef KeyName = getDispatchKeyName(Key);
      OS << formatv("\nTEST(MetaConsistency_{0}, {1}) {{\n  "
                    "expectMetaConsistent(\"{2}::{3}\", \"{4}\", {5}, "
                    "{6}::{0});\n}\n",
                    KeyName, EF.Ident, EF.DispatcherNamespace, Name.Name,
                    Name.Overload, Dynamic ? "true" : "false",
                    qualified(CppType::Name::DeviceType));
    }
  }
  if (!WithoutMeta.empty()) {
    OS << "\n// No test: these functional operators have no Meta kernel, or no\n"
          "// tensor or device argument that would send a call to it.\n";
    for (const std::string &N : WithoutMeta)
      OS << "//   " << N << '\n';
  }
  EM.writeSkipped(OS);
  return File;
}

} // namespace skc
