//===--- KernelFacts.cpp - What a kernel source's check found -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Driver/KernelFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace skc {

/// KernelDeclKind's spellings in the file, by enumerator.
static constexpr StringLiteral KindNames[] = {"meta", "impl", "native"};

static StringRef getKindName(KernelDeclKind K) {
  return KindNames[static_cast<unsigned>(K)];
}

static bool fromJSON(const json::Value &V, KernelDeclKind &K, json::Path P) {
  std::optional<StringRef> S = V.getAsString();
  const StringLiteral *It = S ? find(KindNames, *S) : std::end(KindNames);
  if (It == std::end(KindNames)) {
    P.report("expected \"meta\", \"impl\" or \"native\"");
    return false;
  }
  K = static_cast<KernelDeclKind>(It - std::begin(KindNames));
  return true;
}

static bool fromJSON(const json::Value &V, DispatchKey &K, json::Path P) {
  std::optional<StringRef> S = V.getAsString();
  std::optional<DispatchKey> Key =
      S ? lookupBuiltinDispatchKey(*S) : std::nullopt;
  if (!Key) {
    P.report("expected a dispatch key");
    return false;
  }
  K = *Key;
  return true;
}

static bool fromJSON(const json::Value &V, KernelDecl &D, json::Path P) {
  json::ObjectMapper O(V, P);
  bool Invalid = false;
  if (!O || !O.map("kind", D.Kind) || !O.map("name", D.Name) ||
      !O.map("cuda", D.InCUDASource) || !O.map("invalid", Invalid) ||
      !O.map("macro", D.Macro) || !O.mapOptional("dtypes", D.Dtypes))
    return false;
  D.IsInvalid = Invalid;
  return true;
}

static bool fromJSON(const json::Value &V, ProvidedKernel &K, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("kind", K.Kind) && O.map("name", K.Name) &&
         O.mapOptional("function", K.Function) && O.map("backend", K.Backend) &&
         O.map("file", K.File) && O.map("line", K.Line) &&
         O.map("column", K.Column);
}

std::string writeKernelFacts(const KernelFacts &Facts) {
  json::Array Decls;
  for (const KernelDecl &D : Facts.Decls) {
    json::Object O{{"kind", getKindName(D.Kind)},
                   {"name", D.Name},
                   {"cuda", D.InCUDASource},
                   {"invalid", D.IsInvalid},
                   {"macro", D.Macro}};
    if (!D.Dtypes.empty())
      O["dtypes"] = json::Array(D.Dtypes);
    Decls.push_back(std::move(O));
  }
  json::Array Provided;
  for (const ProvidedKernel &K : Facts.Provided) {
    json::Object O{{"kind", getKindName(K.Kind)},
                   {"name", K.Name},
                   {"backend", getDispatchKeyName(K.Backend)},
                   {"file", K.File},
                   {"line", K.Line},
                   {"column", K.Column}};
    if (!K.Function.empty())
      O["function"] = K.Function;
    Provided.push_back(std::move(O));
  }
  json::Object Root{{"version", KernelFacts::Version},
                    {"sources", json::Array(Facts.Sources)},
                    {"kernels", std::move(Decls)},
                    {"provides", std::move(Provided)}};
  return formatv("{0:1}\n", json::Value(std::move(Root)));
}

Expected<KernelFacts> readKernelFacts(StringRef Text, StringRef Path,
                                      unsigned Unit) {
  auto Invalid = [&](const Twine &Why) {
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             "'%s' is not a facts file of this skc: %s",
                             Path.str().c_str(), Why.str().c_str());
  };
  Expected<json::Value> Root = json::parse(Text);
  if (!Root)
    return Invalid(toString(Root.takeError()));
  const json::Object *O = Root->getAsObject();
  std::optional<int64_t> Version = O ? O->getInteger("version") : std::nullopt;
  if (Version != KernelFacts::Version)
    return Invalid(formatv("expected version {0}", KernelFacts::Version));
  KernelFacts Facts;
  json::Path::Root R("facts");
  json::ObjectMapper M(*Root, R);
  if (!M.map("sources", Facts.Sources) || !M.map("kernels", Facts.Decls) ||
      !M.map("provides", Facts.Provided))
    return Invalid(toString(R.getError()));
  for (ProvidedKernel &K : Facts.Provided)
    K.Unit = Unit;
  return Facts;
}

} // namespace skc
