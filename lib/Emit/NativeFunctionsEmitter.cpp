//===--- NativeFunctionsEmitter.cpp - The headers kernels compile against -===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// NativeMetaFunctions.h and NativeFunctions.h: the contract between a
/// schema file and its kernel sources (reference/torchgen.md §4.1). skc
/// maps them into Clang's file system to check kernel sources, and writes
/// them to disk for the build.
///
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "skc/Emit/Emitters.h"
#include "skc/Parse/KernelDecl.h"
#include "skc/Sema/KernelSignature.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace skc {

/// The meta struct of a structured group.
/// {0}: meta name; {1}: parent class; {2}: precompute members (or empty);
/// {3}: meta()'s return type; {4}: meta()'s parameters.
static const char *const MetaStructTemplate = R"(struct structured_{0} : public {1} {
{2}  {3} meta{4};
};
)";

/// The precompute struct of a group with `precomputed:`.
/// {0}: the fields, one declaration per line; {1}: the setters, one
/// SK_PRECOMPUTE_FIELD per line; {2}: the number of fields.
static const char *const PrecomputeTemplate = R"(  struct precompute_fields {
{0}  };
  template <uint64_t SetMask = 0>
  struct precompute_out
      : ::sk::impl::PrecomputeOut<precompute_out, precompute_fields, SetMask> {
{1}  };
  using meta_return_ty = precompute_out<::sk::impl::precomputeAllSet({2})>;
)";

/// The impl struct of a structured kernel.
/// {0}: kernel name; {1}: meta name; {2}: impl()'s parameters.
static const char *const ImplStructTemplate = R"(struct structured_{0} : public ::sk::meta::structured_{1} {
  void impl{2};
};
)";

/// The parent of a meta struct: MetaBase, or `structured_inherits`.
static std::string getMetaParent(const NativeFunction &Out) {
  if (Out.StructuredInherits.empty())
    return qualified(CppType::Name::MetaBase);
  if (StringRef(Out.StructuredInherits).contains("::"))
    return Out.StructuredInherits;
  return "::sk::" + Out.StructuredInherits;
}

static std::string getPrecompute(const NativeFunctionsGroup &G,
                                 const KernelSignature &Impl) {
  if (G.Out->Precomputed.empty())
    return "";
  std::string Fields, Setters;
  unsigned Index = 0;
  for (const KernelParamSpec &P : Impl.Params) {
    if (P.SchemaArg)
      continue;
    Fields += formatv("    {0} {1};\n", P.Type->getQualifiedSpelling(), P.Name)
                  .str();
    Setters += formatv("    SK_PRECOMPUTE_FIELD({0}, {1}, {2})\n", Index++,
                       P.Type->getQualifiedSpelling(), P.Name)
                   .str();
  }
  return formatv(PrecomputeTemplate, Fields, Setters, Index).str();
}

namespace {
/// What one header declares, sorted by name for deterministic output.
struct HeaderPlan {
  std::map<std::string, std::string> Decls;
  /// Operator name -> why it was skipped.
  std::map<std::string, std::string> Skipped;
};
} // namespace

static void writeSkipped(raw_ostream &OS, const HeaderPlan &Plan) {
  if (Plan.Skipped.empty())
    return;
  OS << "\n// Not declared: these operators use types the runtime does not "
        "have.\n";
  for (const auto &[Name, Why] : Plan.Skipped)
    OS << "//   " << Name << ": " << Why << '\n';
}

static GeneratedFile emitMetaHeader(const OperatorModel &Model,
                                    const EmitOptions &Opts) {
  HeaderPlan Plan;
  for (const NativeFunctionsGroup &G : Model.getGroups()) {
    if (!G.isStructured())
      continue;
    SignatureOrError Meta = getMetaSignature(G);
    SignatureOrError Impl = getImplSignature(G);
    const UnsupportedType *U = std::get_if<UnsupportedType>(&Meta);
    if (!U)
      U = std::get_if<UnsupportedType>(&Impl);
    if (U) {
      Plan.Skipped[G.Out->getName()] = "'" + U->TypeSpelling + "'";
      continue;
    }
    const auto &MetaSig = std::get<KernelSignature>(Meta);
    std::string Precompute = getPrecompute(G, std::get<KernelSignature>(Impl));
    std::string Text;
    raw_string_ostream OS(Text);
    writeSectionBanner(OS, G.getMetaName());
    OS << formatv(MetaStructTemplate, G.getMetaName(), getMetaParent(*G.Out),
                  Precompute,
                  Precompute.empty() ? "void" : "meta_return_ty",
                  MetaSig.getQualifiedParamList());
    Plan.Decls[G.getMetaName()] = std::move(Text);
  }

  GeneratedFile F{"NativeMetaFunctions.h", ""};
  raw_string_ostream OS(F.Contents);
  writeBanner(OS, F.Name, Opts);
  OS << "#pragma once\n\n#include \"sk/Kernel.h\"\n\n";
  {
    NamespaceScope NS(OS, "sk::meta");
    for (const auto &[Name, Text] : Plan.Decls)
      OS << '\n' << Text;
    OS << '\n';
  }
  writeSkipped(OS, Plan);
  return F;
}

static GeneratedFile emitNativeHeader(const OperatorModel &Model,
                                      const EmitOptions &Opts) {
  HeaderPlan Plan;
  // Structured kernels: one impl struct per kernel name.
  for (const NativeFunctionsGroup &G : Model.getGroups()) {
    if (!G.isStructured())
      continue;
    SignatureOrError Impl = getImplSignature(G);
    SignatureOrError Meta = getMetaSignature(G);
    if (std::holds_alternative<UnsupportedType>(Impl) ||
        std::holds_alternative<UnsupportedType>(Meta))
      continue; // Listed as skipped in NativeMetaFunctions.h.
    for (const BackendKernel &K : G.Out->Dispatch) {
      if (!K.Structured || !isRuntimeKernelKey(K.Key))
        continue;
      std::string Text;
      raw_string_ostream OS(Text);
      OS << formatv(ImplStructTemplate, K.Kernel, G.getMetaName(),
                    std::get<KernelSignature>(Impl).getQualifiedParamList());
      Plan.Decls.emplace((StructuredClassPrefix + K.Kernel).str(),
                         std::move(Text));
    }
  }
  // Native kernels: a declaration per kernel name.
  for (const auto &FP : Model.getFunctions()) {
    const NativeFunction &F = *FP;
    for (const BackendKernel &K : F.Dispatch) {
      if (K.Structured || !isRuntimeKernelKey(K.Key) || K.Namespace != "at::native")
        continue;
      SignatureOrError Sig = getNativeSignature(F);
      if (const auto *U = std::get_if<UnsupportedType>(&Sig)) {
        Plan.Skipped[F.getName()] = "'" + U->TypeSpelling + "'";
        break;
      }
      const auto &S = std::get<KernelSignature>(Sig);
      // Overloads may share a kernel name: key by name and parameters.
      std::string Params = S.getQualifiedParamList();
      Plan.Decls.emplace(K.Kernel + Params,
                         formatv("{0} {1}{2};\n", S.Return->getQualifiedSpelling(),
                                 K.Kernel, Params)
                             .str());
    }
  }

  GeneratedFile F{"NativeFunctions.h", ""};
  raw_string_ostream OS(F.Contents);
  writeBanner(OS, F.Name, Opts);
  OS << "#pragma once\n\n#include \"NativeMetaFunctions.h\"\n\n";
  {
    NamespaceScope NS(OS, "sk::native");
    for (const auto &[Name, Text] : Plan.Decls)
      OS << '\n' << Text;
    OS << '\n';
  }
  writeSkipped(OS, Plan);
  return F;
}

std::vector<GeneratedFile> emitNativeFunctionHeaders(const OperatorModel &Model,
                                                     const EmitOptions &Opts) {
  std::vector<GeneratedFile> Files;
  Files.push_back(emitMetaHeader(Model, Opts));
  Files.push_back(emitNativeHeader(Model, Opts));
  return Files;
}

} // namespace skc
