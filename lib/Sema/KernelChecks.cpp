//===--- KernelChecks.cpp - Pair kernel definitions with schemas ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/KernelChecks.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/Suggest.h"
#include "skc/Sema/KernelSignature.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>

using namespace llvm;

namespace skc {

namespace {

/// The %select index of err_kernel_unknown and friends.
unsigned selectIndex(KernelDeclKind K) { return static_cast<unsigned>(K); }

/// What one definition provides: a meta function, a structured kernel, or
/// a native kernel for one function (natives only; null otherwise), for the
/// backend whose sources hold it: Meta for meta functions, which serve
/// every backend; CUDA for kernels in .cu sources; CPU for the others.
using DefinitionKey = std::tuple<KernelDeclKind, StringRef,
                                 const NativeFunction *, DispatchKey>;

/// The backend a kernel defined in \p D's source is compiled for.
DispatchKey getSourceBackend(const KernelDecl &D) {
  return D.InCUDASource ? DispatchKey::CUDA : DispatchKey::CPU;
}
/// The backend whose sources define the kernels of dispatch key \p K:
/// CUDA's are in .cu sources, every other key's in C++ ones.
DispatchKey getSourceBackend(DispatchKey K) {
  return K == DispatchKey::CUDA ? DispatchKey::CUDA : DispatchKey::CPU;
}

/// A native kernel a `dispatch:` entry names.
struct NativeUse {
  const NativeFunction *F;
  const BackendKernel *K;
};

/// What a schema file expects kernel sources to define.
struct KernelIndex {
  /// Meta name -> group (structured groups whose types the runtime has).
  StringMap<const NativeFunctionsGroup *> Metas;
  /// Structured kernel name -> group.
  StringMap<const NativeFunctionsGroup *> Impls;
  /// Native kernel name -> its uses.
  StringMap<SmallVector<NativeUse, 2>> Natives;
};

bool hasSupportedSignatures(const NativeFunctionsGroup &G) {
  return std::holds_alternative<KernelSignature>(getMetaSignature(G)) &&
         std::holds_alternative<KernelSignature>(getImplSignature(G));
}

KernelIndex buildIndex(const OperatorModel &Model) {
  KernelIndex Index;
  for (const NativeFunctionsGroup &G : Model.getGroups()) {
    if (!G.isStructured() || !hasSupportedSignatures(G))
      continue;
    Index.Metas[G.getMetaName()] = &G;
    for (const BackendKernel &K : G.Out->Dispatch)
      if (K.Structured && isRuntimeKernelKey(K.Key))
        Index.Impls[K.Kernel] = &G;
  }
  for (const auto &F : Model.getFunctions())
    for (const BackendKernel &K : F->Dispatch)
      if (!K.Structured && isRuntimeKernelKey(K.Key) && K.Namespace == "at::native" &&
          std::holds_alternative<KernelSignature>(getNativeSignature(*F)))
        Index.Natives[K.Kernel].push_back({F.get(), &K});
  return Index;
}

/// Checks kernel definitions against one schema file.
class KernelChecker {
public:
  KernelChecker(const OperatorModel &Model, const KernelCheckOptions &Opts,
                DiagnosticsEngine &Diags,
                std::vector<ProvidedKernel> *Provided = nullptr)
      : Model(Model), Opts(Opts), Diags(Diags), Index(buildIndex(Model)),
        Provided(Provided) {}

  void check(ArrayRef<KernelDecl> Decls);
  void checkDefined(ArrayRef<KernelDefinitionName> Names);
  void checkLibrary(ArrayRef<ProvidedKernel> Units,
                    function_ref<SMLoc(const ProvidedKernel &)> Locate);

private:
  void checkMeta(const KernelDecl &D);
  void checkImpl(const KernelDecl &D);
  void checkNative(const KernelDecl &D);
  void reportUnknown(const KernelDecl &D, StringRef Name,
                     const std::vector<std::string> &Candidates);
  /// Reports a second definition of \p Key; true for the first.
  bool noteDefinition(const KernelDecl &D, const DefinitionKey &Key);
  /// Records that \p D provides \p Key, its first definition.
  void provide(const KernelDecl &D, const DefinitionKey &Key);
  /// Compares \p D's parameters with \p Expected; \p What names it in
  /// messages; \p Owner is the function whose entry the note points at.
  void checkSignature(const KernelDecl &D, const KernelSignature &Expected,
                      StringRef What, const NativeFunction &Owner);
  void checkMetaBody(const KernelDecl &D, const NativeFunctionsGroup &G);
  void checkImplBody(const KernelDecl &D, const KernelSignature &Expected);
  void checkBackend(const KernelDecl &D, StringRef Kernel,
                    const NativeFunction &Owner,
                    ArrayRef<const BackendKernel *> Uses);
  void checkMissing();
  void noteSchema(const NativeFunction &F) {
    Diags.report(F.getLoc(), diag::note_operator_declared_here)
        << F.getName() << F.getSchema().Name.Range;
  }

  const OperatorModel &Model;
  const KernelCheckOptions &Opts;
  DiagnosticsEngine &Diags;
  KernelIndex Index;
  /// The first definition of each.
  DenseMap<DefinitionKey, const KernelDecl *> Defined;
  /// Receives what the definitions checked provide; may be null.
  std::vector<ProvidedKernel> *Provided;
};

} // namespace

bool KernelChecker::noteDefinition(const KernelDecl &D,
                                   const DefinitionKey &Key) {
  auto [It, Inserted] = Defined.try_emplace(Key, &D);
  if (Inserted) {
    provide(D, Key);
    return true;
  }
  Diags.report(D.Loc, diag::err_kernel_duplicate)
      << selectIndex(D.Kind) << D.Name;
  Diags.report(It->second->Loc, diag::note_previous_definition);
  return false;
}

void KernelChecker::provide(const KernelDecl &D, const DefinitionKey &Key) {
  if (!Provided)
    return;
  ProvidedKernel P;
  P.Kind = std::get<0>(Key);
  P.Name = std::get<1>(Key).str();
  if (const NativeFunction *F = std::get<2>(Key))
    P.Function = F->getName();
  P.Backend = std::get<3>(Key);
  if (D.Loc.isValid()) {
    const SourceMgr &SM = Diags.getSourceMgr();
    unsigned Buffer = SM.FindBufferContainingLoc(D.Loc);
    P.File = SM.getMemoryBuffer(Buffer)->getBufferIdentifier().str();
    std::tie(P.Line, P.Column) = SM.getLineAndColumn(D.Loc, Buffer);
  }
  Provided->push_back(std::move(P));
}

void KernelChecker::reportUnknown(const KernelDecl &D, StringRef Name,
                                  const std::vector<std::string> &Candidates) {
  SmallVector<StringRef, 0> Refs(Candidates.begin(), Candidates.end());
  llvm::sort(Refs);
  std::string Suggestion = suggestClosest(Name, Refs);
  if (Suggestion.empty()) {
    Diags.report(D.Loc, diag::err_kernel_unknown)
        << selectIndex(D.Kind) << Name;
    return;
  }
  Diags.report(D.Loc, diag::err_kernel_unknown_suggest)
      << selectIndex(D.Kind) << Name << Suggestion
      << FixItHint::replace(SMRange(D.Loc, SMLoc::getFromPointer(
                                               D.Loc.getPointer() +
                                               Name.size())),
                            Suggestion);
}

/// Removes white space, so that "const Tensor&" equals "const Tensor &".
static std::string squeeze(StringRef S) {
  std::string Out;
  for (char C : S)
    if (!isSpace(C))
      Out += C;
  return Out;
}

/// A type's spelling without white space and without `sk::` qualifiers, so
/// that `::sk::Tensor`, `sk::Tensor` and `Tensor` compare equal.
static std::string normalizeSpelling(StringRef S) {
  std::string Squeezed = squeeze(S);
  std::string Out;
  StringRef Rest = Squeezed;
  while (!Rest.empty()) {
    if (Rest.consume_front("::sk::") || Rest.consume_front("sk::"))
      continue;
    Out += Rest.front();
    Rest = Rest.drop_front();
  }
  return Out;
}

void KernelChecker::checkSignature(const KernelDecl &D,
                                   const KernelSignature &Expected,
                                   StringRef What,
                                   const NativeFunction &Owner) {
  FixItHint Rewrite =
      FixItHint::replace(D.ParamListRange, Expected.getAuthorParamList());
  if (D.Params.size() != Expected.Params.size()) {
    Diags.report(D.Loc, diag::err_kernel_param_count)
        << selectIndex(D.Kind) << What << D.Params.size()
        << Expected.Params.size() << D.ParamListRange << Rewrite;
    noteSchema(Owner);
    return;
  }
  // Clang compared the types with the generated declaration; without one
  // (an unknown struct), compare the spelling.
  bool Compared = D.HasDeclaration &&
                  D.DeclaredParamTypes.size() == D.Params.size();
  for (size_t I = 0; I != D.Params.size(); ++I) {
    const KernelParam &P = D.Params[I];
    const KernelParamSpec &E = Expected.Params[I];
    bool SameType = Compared
                        ? P.CanonicalType == D.DeclaredParamTypes[I]
                        : squeeze(P.TypeAsWritten) ==
                              squeeze(E.Type->getAuthorSpelling());
    if (!SameType) {
      std::string Arg =
          E.SchemaArg ? E.SchemaArg->Ty->getAsString() + " " + E.Name
                      : "precomputed " + E.Name;
      Diags.report(P.TypeRange.Start, diag::err_kernel_param_type)
          << static_cast<unsigned>(I + 1) << What << P.TypeAsWritten << Arg
          << E.Type->getAuthorSpelling() << P.TypeRange << Rewrite;
      noteSchema(Owner);
      return;
    }
  }
  for (size_t I = 0; I != D.Params.size(); ++I) {
    const KernelParam &P = D.Params[I];
    const KernelParamSpec &E = Expected.Params[I];
    if (P.Name.empty() || P.Name == E.Name)
      continue;
    SMRange NameRange(P.NameLoc, SMLoc::getFromPointer(P.NameLoc.getPointer() +
                                                       P.Name.size()));
    Diags.report(P.NameLoc, diag::warn_kernel_param_name)
        << static_cast<unsigned>(I + 1) << What << P.Name << E.Name
        << NameRange << FixItHint::replace(NameRange, E.Name);
  }
}

void KernelChecker::checkMeta(const KernelDecl &D) {
  StringRef Name = StringRef(D.Name).drop_front(StructuredClassPrefix.size());
  auto It = Index.Metas.find(Name);
  if (It == Index.Metas.end()) {
    // A meta for an operator that exists but is not structured?
    for (const auto &F : Model.getFunctions()) {
      if (F->getSchema().Name.getUnambiguousName() != Name)
        continue;
      Diags.report(D.Loc, diag::err_kernel_meta_unstructured) << F->getName();
      noteSchema(*F);
      return;
    }
    // The operator's name without its overload (SK_META_FUNC(minmax) for
    // minmax.dim): the macro's two-argument form.
    SmallVector<std::string, 2> Overloads;
    for (const auto &KV : Index.Metas) {
      const OperatorName &Op = KV.getValue()->Functional->getSchema().Name;
      if (Op.Name == Name && !Op.Overload.empty())
        Overloads.push_back(Op.Name + ", " + Op.Overload);
    }
    if (!Overloads.empty()) {
      llvm::sort(Overloads);
      SMRange Written(D.Loc,
                      SMLoc::getFromPointer(D.Loc.getPointer() + Name.size()));
      Diags.report(D.Loc, diag::err_kernel_unknown_suggest)
          << selectIndex(D.Kind) << Name << Overloads.front()
          << FixItHint::replace(Written, Overloads.front());
      return;
    }
    std::vector<std::string> Candidates;
    for (const auto &KV : Index.Metas)
      Candidates.push_back(KV.getKey().str());
    reportUnknown(D, Name, Candidates);
    return;
  }
  const NativeFunctionsGroup &G = *It->second;
  if (!noteDefinition(D, {KernelDeclKind::Meta, Name, nullptr,
                          DispatchKey::Meta}) ||
      D.InvalidReason == KernelDecl::IR_ClangReported)
    return;
  // The macro decides meta()'s return type: precomputed fields or void.
  bool Precomputed = !G.Out->Precomputed.empty();
  if ((D.Macro == "meta" && Precomputed) ||
      (D.Macro == "precompute_meta" && !Precomputed)) {
    Diags.report(D.MacroNameRange.Start, diag::err_meta_macro_precomputed)
        << G.Functional->getName() << (Precomputed ? 0u : 1u)
        << D.MacroNameRange
        << FixItHint::replace(D.MacroNameRange,
                              Precomputed ? "SK_PRECOMPUTE_META_FUNC"
                                          : "SK_META_FUNC");
    noteSchema(*G.Out);
    return;
  }
  checkSignature(D, std::get<KernelSignature>(getMetaSignature(G)),
                 G.Functional->getName(), *G.Functional);
  checkMetaBody(D, G);
}

void KernelChecker::checkImpl(const KernelDecl &D) {
  StringRef Kernel = StringRef(D.Name).drop_front(StructuredClassPrefix.size());
  auto It = Index.Impls.find(Kernel);
  if (It == Index.Impls.end()) {
    std::vector<std::string> Candidates;
    for (const auto &KV : Index.Impls)
      Candidates.push_back(KV.getKey().str());
    reportUnknown(D, Kernel, Candidates);
    return;
  }
  const NativeFunctionsGroup &G = *It->second;
  SmallVector<const BackendKernel *, 2> Uses;
  for (const BackendKernel &K : G.Out->Dispatch)
    if (K.Structured && K.Kernel == Kernel)
      Uses.push_back(&K);
  checkBackend(D, Kernel, *G.Out, Uses);
  if (!noteDefinition(D, {KernelDeclKind::Impl, Kernel, nullptr,
                          getSourceBackend(D)}) ||
      D.InvalidReason == KernelDecl::IR_ClangReported)
    return;
  KernelSignature Expected = std::get<KernelSignature>(getImplSignature(G));
  checkSignature(D, Expected, Kernel, *G.Out);
  checkImplBody(D, Expected);
}

void KernelChecker::checkNative(const KernelDecl &D) {
  auto It = Index.Natives.find(D.Name);
  if (It == Index.Natives.end()) {
    std::vector<std::string> Candidates;
    for (const auto &KV : Index.Natives)
      Candidates.push_back(KV.getKey().str());
    reportUnknown(D, D.Name, Candidates);
    return;
  }
  // Overloads may share a kernel name: pair with the one whose arity fits.
  const SmallVector<NativeUse, 2> &Uses = It->second;
  const NativeUse *Use = &Uses.front();
  for (const NativeUse &U : Uses)
    if (U.F->getSchema().Arguments.size() == D.Params.size())
      Use = &U;
  SmallVector<const BackendKernel *, 2> Keys;
  for (const NativeUse &U : Uses)
    if (U.F == Use->F)
      Keys.push_back(U.K);
  checkBackend(D, D.Name, *Use->F, Keys);
  if (!noteDefinition(D, {KernelDeclKind::Native, D.Name, Use->F,
                          getSourceBackend(D)}) ||
      D.InvalidReason == KernelDecl::IR_ClangReported)
    return;
  KernelSignature Expected =
      std::get<KernelSignature>(getNativeSignature(*Use->F));
  // One C++ function serves every function that names it with the same C++
  // signature (two operators may share a kernel, as torchgen allows).
  for (const NativeUse &U : Uses) {
    if (U.F == Use->F)
      continue;
    SignatureOrError Other = getNativeSignature(*U.F);
    const auto *S = std::get_if<KernelSignature>(&Other);
    auto SameType = [](const KernelParamSpec &A, const KernelParamSpec &B) {
      return A.Type == B.Type;
    };
    DefinitionKey Key{KernelDeclKind::Native, D.Name, U.F, getSourceBackend(D)};
    if (S && S->Return == Expected.Return &&
        S->Params.size() == Expected.Params.size() &&
        std::equal(S->Params.begin(), S->Params.end(), Expected.Params.begin(),
                   SameType) &&
        Defined.try_emplace(Key, &D).second)
      provide(D, Key);
  }
  if (normalizeSpelling(D.ReturnTypeAsWritten) !=
      normalizeSpelling(Expected.Return->getAuthorSpelling())) {
    Diags.report(D.Loc, diag::err_kernel_return_type)
        << D.Name << D.ReturnTypeAsWritten
        << Expected.Return->getAuthorSpelling();
    noteSchema(*Use->F);
    return;
  }
  checkSignature(D, Expected, D.Name, *Use->F);
}

void KernelChecker::checkBackend(const KernelDecl &D, StringRef Kernel,
                                 const NativeFunction &Owner,
                                 ArrayRef<const BackendKernel *> Uses) {
  bool ForCUDA = any_of(Uses, [](const BackendKernel *K) {
    return K->Key == DispatchKey::CUDA;
  });
  bool ForHost = any_of(Uses, [](const BackendKernel *K) {
    return K->Key != DispatchKey::CUDA;
  });
  if (!D.InCUDASource && ForCUDA && !ForHost) {
    Diags.report(D.Loc, diag::err_kernel_cuda_in_host_source) << Kernel;
    noteSchema(Owner);
  } else if (D.InCUDASource && !ForCUDA) {
    Diags.report(D.Loc, diag::err_kernel_backend_not_listed)
        << Kernel << Owner.getName();
    noteSchema(Owner);
  }
}

void KernelChecker::checkMetaBody(const KernelDecl &D,
                                  const NativeFunctionsGroup &G) {
  std::string Op = G.Functional->getName();
  for (const BodyFact &F : D.Facts) {
    if (F.Kind != BodyFact::FK_DataAccess)
      continue;
    Diags.report(F.Range.Start, diag::err_meta_reads_data)
        << Op << F.Detail << F.Range;
    // The way from the call to the read, as clang's analyzer shows a path.
    for (size_t I = 0; I != F.Path.size(); ++I) {
      const BodyFact::PathStep &Step = F.Path[I];
      Diags.report(Step.Range.Start, I + 1 == F.Path.size()
                                         ? diag::note_data_read_here
                                         : diag::note_data_read_call)
          << Step.Function << Step.Callee << Step.Range;
    }
  }

  ArrayRef<Argument> Outs = G.Out->getSchema().getOutArguments();
  for (size_t I = 0; I != Outs.size(); ++I) {
    if (D.OutputsSet.covers(static_cast<int64_t>(I)))
      continue;
    // Not on every path; on some, or through a call that may?
    bool Maybe = any_of(D.Facts, [&](const BodyFact &F) {
      return F.Kind == BodyFact::FK_SetOutput &&
             (F.AllOutputs || !F.OutputIndex ||
              *F.OutputIndex == static_cast<int64_t>(I));
    });
    Diags.report(D.Loc, Maybe ? diag::warn_meta_output_maybe_unset
                              : diag::err_meta_output_unset)
        << Op << static_cast<unsigned>(I) << Outs[I].Name;
  }

  // Precomputed fields: each set once, on the way to every return. A
  // return that misses one is reported there, with the setter to add; a
  // field set nowhere at all (no return to point at) at the definition.
  StringSet<> Set, Reported;
  for (const BodyFact &F : D.Facts) {
    switch (F.Kind) {
    case BodyFact::FK_PrecomputeSet:
      Set.insert(F.Detail);
      break;
    case BodyFact::FK_PrecomputeSetAgain:
      Diags.report(F.Range.Start, diag::err_precomputed_set_twice)
          << Op << F.Detail << F.Range << FixItHint::replace(F.Range, "");
      break;
    case BodyFact::FK_PrecomputeReturnUnset:
      Diags.report(F.Range.Start, diag::err_precomputed_unset)
          << Op << F.Detail << F.Range;
      Diags.report(F.Range.End, diag::note_precomputed_setter)
          << F.Detail
          << FixItHint::insert(F.Range.End,
                               ".set_" + F.Detail + "(" + F.Detail + ")");
      Reported.insert(F.Detail);
      break;
    default:
      break;
    }
  }
  for (const PrecomputedLine &L : G.Out->Precomputed)
    for (const PrecomputedLine::Field &Field : L.Fields)
      if (!Set.count(Field.Name) && !Reported.count(Field.Name))
        Diags.report(D.Loc, diag::err_precomputed_unset) << Op << Field.Name;
}

void KernelChecker::checkImplBody(const KernelDecl &D,
                                  const KernelSignature &Expected) {
  StringRef Kernel = StringRef(D.Name).drop_front(StructuredClassPrefix.size());
  for (const BodyFact &F : D.Facts) {
    // A call handed the kernel (cpu_kernel(*this, ...), the loop of every
    // TensorIterator impl) runs over the outputs meta() set.
    if (F.Kind == BodyFact::FK_SetOutput && !F.ThroughCall) {
      Diags.report(F.Range.Start, diag::err_impl_sets_output)
          << Kernel << F.Detail << F.Range;
      continue;
    }
    if (F.Kind != BodyFact::FK_AssignToParam)
      continue;
    const KernelParamSpec *Spec = find_if(
        Expected.Params,
        [&](const KernelParamSpec &P) { return P.Name == F.Detail; });
    if (Spec != Expected.Params.end() && Spec->SchemaArg &&
        Spec->SchemaArg->IsOut)
      Diags.report(F.Range.Start, diag::err_impl_assigns_out)
          << Kernel << F.Detail << F.Range;
  }
}

/// Where a dispatch entry names a kernel, for "missing" errors.
static SMLoc kernelLoc(const NativeFunction &F, const BackendKernel &K) {
  return K.KernelRange.isValid() ? K.KernelRange.Start : F.getLoc();
}

void KernelChecker::checkMissing() {
  auto Wanted = [&](DispatchKey K) {
    if (is_contained(getSelectableBackends(), K))
      return is_contained(Opts.Backends, K);
    // Composite kernels: wanted when anything is built.
    return !Opts.Backends.empty();
  };
  for (const NativeFunctionsGroup &G : Model.getGroups()) {
    if (!G.isStructured() || !hasSupportedSignatures(G))
      continue;
    std::string MetaName = G.getMetaName();
    if (!Defined.count(
            {KernelDeclKind::Meta, MetaName, nullptr, DispatchKey::Meta}))
      Diags.report(G.Out->getLoc(), diag::err_kernel_no_meta)
          << G.Out->getName()
          << (G.Functional->getSchema().Name.Overload.empty()
                  ? G.Functional->getSchema().Name.Name
                  : G.Functional->getSchema().Name.Name + ", " +
                        G.Functional->getSchema().Name.Overload);
    for (const BackendKernel &K : G.Out->Dispatch) {
      if (!K.Structured || !isRuntimeKernelKey(K.Key) || !Wanted(K.Key))
        continue;
      bool CUDA = K.Key == DispatchKey::CUDA;
      if (Defined.count({KernelDeclKind::Impl, K.Kernel, nullptr,
                         getSourceBackend(K.Key)}))
        continue;
      Diags.report(kernelLoc(*G.Out, K), diag::err_kernel_missing)
          << K.Kernel << G.Out->getName() << getDispatchKeyName(K.Key)
          << (CUDA ? 1 : 0) << K.KernelRange;
    }
  }
  DenseSet<DefinitionKey> Reported;
  for (const auto &KV : Index.Natives) {
    for (const NativeUse &U : KV.getValue()) {
      if (!Wanted(U.K->Key) || U.K->Implicit)
        continue;
      bool CUDA = U.K->Key == DispatchKey::CUDA;
      DefinitionKey Key{KernelDeclKind::Native, U.K->Kernel, U.F,
                        getSourceBackend(U.K->Key)};
      if (Defined.count(Key) || !Reported.insert(Key).second)
        continue;
      Diags.report(kernelLoc(*U.F, *U.K), diag::err_kernel_missing)
          << U.K->Kernel << U.F->getName() << getDispatchKeyName(U.K->Key)
          << (CUDA ? 1 : 0) << U.K->KernelRange;
    }
  }
}

void KernelChecker::check(ArrayRef<KernelDecl> Decls) {
  for (const KernelDecl &D : Decls) {
    // A function spelled out in `namespace sk::native` may be a helper; only
    // SK_NATIVE_FUNC marks a kernel.
    if (D.Kind == KernelDeclKind::Native && !D.isFromMacro())
      continue;
    switch (D.Kind) {
    case KernelDeclKind::Meta:
      checkMeta(D);
      break;
    case KernelDeclKind::Impl:
      checkImpl(D);
      break;
    case KernelDeclKind::Native:
      checkNative(D);
      break;
    }
  }
  if (Opts.RequireAllKernels)
    checkMissing();
}

void KernelChecker::checkDefined(ArrayRef<KernelDefinitionName> Names) {
  for (const KernelDefinitionName &N : Names) {
    DispatchKey Backend = N.InCUDASource ? DispatchKey::CUDA : DispatchKey::CPU;
    StringRef Name = N.Name;
    switch (N.Kind) {
    case KernelDeclKind::Meta:
      Defined.try_emplace({KernelDeclKind::Meta,
                           Name.drop_front(StructuredClassPrefix.size()),
                           nullptr, DispatchKey::Meta},
                          nullptr);
      break;
    case KernelDeclKind::Impl:
      Defined.try_emplace({KernelDeclKind::Impl,
                           Name.drop_front(StructuredClassPrefix.size()),
                           nullptr, Backend},
                          nullptr);
      break;
    case KernelDeclKind::Native:
      for (const NativeUse &U : Index.Natives.lookup(Name))
        Defined.try_emplace({KernelDeclKind::Native, Name, U.F, Backend},
                            nullptr);
      break;
    }
  }
  checkMissing();
}

void KernelChecker::checkLibrary(
    ArrayRef<ProvidedKernel> Units,
    function_ref<SMLoc(const ProvidedKernel &)> Locate) {
  DenseMap<DefinitionKey, const ProvidedKernel *> First;
  for (const ProvidedKernel &P : Units) {
    const NativeFunction *F = nullptr;
    if (P.Kind == KernelDeclKind::Native) {
      for (const NativeUse &U : Index.Natives.lookup(P.Name))
        if (U.F->getName() == P.Function)
          F = U.F;
      if (!F)
        continue;
    }
    DefinitionKey Key{P.Kind, P.Name, F, P.Backend};
    auto [It, Inserted] = First.try_emplace(Key, &P);
    if (Inserted) {
      Defined.try_emplace(Key, nullptr);
      continue;
    }
    // One definition that two sources include, or two in one unit, which
    // its own check reported.
    const ProvidedKernel &Previous = *It->second;
    if (Previous.Unit == P.Unit ||
        std::tie(Previous.File, Previous.Line, Previous.Column) ==
            std::tie(P.File, P.Line, P.Column))
      continue;
    Diags.report(Locate(P), diag::err_kernel_duplicate)
        << selectIndex(P.Kind)
        << (P.Kind == KernelDeclKind::Native
                ? P.Name
                : (StructuredClassPrefix + P.Name).str());
    Diags.report(Locate(Previous), diag::note_previous_definition);
  }
  if (Opts.RequireAllKernels)
    checkMissing();
}

void checkLibrary(const OperatorModel &Model, ArrayRef<ProvidedKernel> Provided,
                  const KernelCheckOptions &Opts, DiagnosticsEngine &Diags,
                  function_ref<SMLoc(const ProvidedKernel &)> Locate) {
  KernelChecker(Model, Opts, Diags).checkLibrary(Provided, Locate);
}

void checkKernelsDefined(const OperatorModel &Model,
                         ArrayRef<KernelDefinitionName> Defined,
                         const KernelCheckOptions &Opts,
                         DiagnosticsEngine &Diags) {
  KernelChecker(Model, Opts, Diags).checkDefined(Defined);
}

void checkKernels(const OperatorModel &Model, ArrayRef<KernelDecl> Decls,
                  const KernelCheckOptions &Opts, DiagnosticsEngine &Diags,
                  std::vector<ProvidedKernel> *Provided) {
  KernelChecker(Model, Opts, Diags, Provided).check(Decls);
}

} // namespace skc
