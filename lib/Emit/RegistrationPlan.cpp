//===--- RegistrationPlan.cpp - Which kernel serves a function -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "RegistrationPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;

namespace skc {

/// Whether a kernel registered for \p KernelKey belongs in \p FileKey's
/// file: whether both register under the same runtime key.
static bool belongsTo(DispatchKey KernelKey, DispatchKey FileKey) {
  return isRuntimeKernelKey(KernelKey) &&
         getRuntimeKeyName(KernelKey) == getRuntimeKeyName(FileKey);
}

static const BackendKernel *findStructuredKernel(const NativeFunction &Out,
                                                 DispatchKey K) {
  for (const BackendKernel &B : Out.Dispatch)
    if (B.Key == K && B.Structured)
      return &B;
  return nullptr;
}

/// Whether the structured machinery can serve \p G: both struct signatures
/// exist in runtime types, and so does every member's dispatcher signature.
static bool canEmitStructured(const EmitModel &EM,
                              const NativeFunctionsGroup &G) {
  if (!G.isStructured())
    return false;
  if (std::holds_alternative<UnsupportedType>(getMetaSignature(G)) ||
      std::holds_alternative<UnsupportedType>(getImplSignature(G)))
    return false;
  for (const NativeFunction *F : G.getFunctions())
    if (F != G.Mutable && !EM.lookup(F))
      return false;
  return true;
}

/// The from-functional registration of \p F (the out= or inplace member of
/// its group) for \p Key, when the functional member has a native kernel
/// for the key and \p F has none.
static std::optional<Registration> getFromFunctional(const EmitModel &EM,
                                                     const EmittedFunction &EF,
                                                     DispatchKey Key) {
  const NativeFunction &F = *EF.F;
  const NativeFunctionsGroup *G = F.Group;
  if (!G || (&F != G->Out && &F != G->Inplace) || F.findKernel(Key))
    return std::nullopt;
  // A composite kernel the author wrote serves every backend: a generated
  // backend wrapper would override it. An implicit one counts when the
  // sources define it.
  if (any_of(F.Dispatch, [&](const BackendKernel &B) {
        return isAliasKey(B.Key) && (B.Implicit ? EM.isImplicitKernelDefined(B)
                                                : EM.isKernelRegistered(F, B));
      }))
    return std::nullopt;
  const NativeFunction &Functional = *G->Functional;
  const BackendKernel *K = Functional.findKernel(Key);
  if (!K || K->Structured || !EM.isKernelRegistered(Functional, *K))
    return std::nullopt;
  const EmittedFunction *FEF = EM.lookup(&Functional);
  if (!FEF)
    return std::nullopt;
  // The functional wrapper takes arguments of the same names, and returns
  // one tensor per written argument.
  for (const KernelParamSpec &P : FEF->Sig.Params)
    if (none_of(EF.Sig.Params,
                [&](const KernelParamSpec &Q) { return Q.Name == P.Name; }))
      return std::nullopt;
  size_t Written = count_if(EF.getSchema().Arguments,
                            [](const Argument &A) { return A.isWrite(); });
  const FunctionSchema &FS = Functional.getSchema();
  if (Written == 0 || FS.Returns.size() != Written ||
      any_of(FS.Returns, [](const Return &R) {
        return !R.Ty->isBase(BaseTypeKind::Tensor);
      }))
    return std::nullopt;
  if (&F == G->Inplace && Written != 1)
    return std::nullopt;
  Registration R{Registration::FromFunctional, &EF};
  R.G = G;
  R.Functional = FEF;
  return R;
}

std::optional<Registration> planRegistration(const EmitModel &EM,
                                             const EmittedFunction &EF,
                                             DispatchKey Key) {
  const NativeFunction &F = *EF.F;
  const NativeFunctionsGroup *G = F.Group;
  bool IsBackend = Key != DispatchKey::CompositeImplicitAutograd &&
                   Key != DispatchKey::CompositeExplicitAutograd;
  if (IsBackend && G && G->Out && canEmitStructured(EM, *G) &&
      &F != G->Mutable) {
    const BackendKernel *K = findStructuredKernel(*G->Out, Key);
    if (K || Key == DispatchKey::Meta) {
      Registration R{Registration::Structured, &EF};
      R.G = G;
      R.Kernel = K;
      return R;
    }
  }
  for (const BackendKernel &K : F.Dispatch) {
    if (K.Structured || !belongsTo(K.Key, Key) || !EM.isKernelRegistered(F, K))
      continue;
    Registration R{Registration::Native, &EF};
    R.Kernel = &K;
    return R;
  }
  if (!IsBackend)
    return std::nullopt;
  return getFromFunctional(EM, EF, Key);
}

KeyPlan planKey(const EmitModel &EM, DispatchKey Key) {
  KeyPlan Plan{Key, {}};
  for (const EmittedFunction &EF : EM.getFunctions()) {
    std::optional<Registration> R = planRegistration(EM, EF, Key);
    if (!R)
      continue;
    const NativeFunctionsGroup *G = EF.F->Group;
    const EmittedFunction *Functional = G ? EM.lookup(G->Functional) : nullptr;
    Plan.Units[Functional ? Functional->Ident : EF.Ident].push_back(*R);
  }
  // A from-functional wrapper calls its unit's functional wrapper, which
  // must come first (sum.IntList_out sorts before sum.dim_IntList).
  for (auto &[Name, Regs] : Plan.Units)
    std::stable_partition(Regs.begin(), Regs.end(), [](const Registration &R) {
      return R.EF->F->Kind == SchemaKind::Functional;
    });
  return Plan;
}

} // namespace skc
