//===--- KernelChecks.h - Pair kernel definitions with schemas --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rules between a schema file and its kernel sources (issue 4): every
/// structured group has exactly one meta function; every kernel a
/// `dispatch:` lists for a built backend is defined, in a source of the
/// right kind; every definition belongs to an operator; each definition's
/// parameters are the ones its schema implies; meta functions set their
/// outputs and never read data; impls never set or reassign outputs; and
/// every precomputed field is set. Each problem is reported at the author's
/// line, with a note at the YAML entry and, for signatures, a fix-it that
/// rewrites the whole parameter list.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_KERNELCHECKS_H
#define SKC_SEMA_KERNELCHECKS_H

#include "skc/Parse/KernelDecl.h"
#include "skc/Sema/DispatchKey.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace skc {

class DiagnosticsEngine;
class OperatorModel;

struct KernelCheckOptions {
  /// Whether the sources given are all of the library's, so that a missing
  /// meta function or kernel can be reported.
  bool RequireAllKernels = true;
  /// The backends built, whose kernels are required; composite kernels are
  /// required when any backend is built.
  std::vector<DispatchKey> Backends = {DispatchKey::CPU};
};

/// What one checked definition gives its library: a meta function, a
/// structured kernel for the sources of a backend, or a native kernel for
/// one function and the sources of a backend. What checkLibrary() counts,
/// and what a library's check of one source hands to the merge (the facts
/// file, docs/cmake.md).
struct ProvidedKernel {
  KernelDeclKind Kind;
  /// The meta function's or the kernel's name: "add_Tensor", "add_out",
  /// "relu_cpu" (KernelDecl::Name without StructuredClassPrefix).
  std::string Name;
  /// Native kernels: the function it is registered for
  /// (NativeFunction::getName()); empty otherwise.
  std::string Function;
  /// DispatchKey::Meta for a meta function; else CUDA for a definition in
  /// a .cu source and CPU for the others.
  DispatchKey Backend;
  /// The definition: the file as the front end opened it, and the 1-based
  /// line and column of its name.
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// Which of the library's checked units (one per source) it came from.
  unsigned Unit = 0;
};

/// Checks \p Decls against \p Model. When \p Provided is non-null, it
/// receives what each valid definition gives the library, in order.
void checkKernels(const OperatorModel &Model, llvm::ArrayRef<KernelDecl> Decls,
                  const KernelCheckOptions &Opts, DiagnosticsEngine &Diags,
                  std::vector<ProvidedKernel> *Provided = nullptr);

/// The checks of a whole library whose sources were checked one by one
/// (checkKernels() on each, as separate units): a meta function or kernel
/// defined in two units, and, when Opts.RequireAllKernels, every kernel a
/// built backend needs that no unit provides. \p Locate finds where a
/// provided kernel is, for the diagnostics that point at one; it is called
/// only for those.
void checkLibrary(
    const OperatorModel &Model, llvm::ArrayRef<ProvidedKernel> Provided,
    const KernelCheckOptions &Opts, DiagnosticsEngine &Diags,
    llvm::function_ref<llvm::SMLoc(const ProvidedKernel &)> Locate);

/// A kernel a source defines, known by name only: what an editor's index
/// of a library's sources keeps.
struct KernelDefinitionName {
  KernelDeclKind Kind;
  /// As KernelDecl::Name has it.
  std::string Name;
  bool InCUDASource = false;
};

/// Reports every kernel a built backend needs that none of \p Defined is,
/// as checkKernels does when it requires all kernels. A native kernel named
/// counts for every function whose dispatch names it.
void checkKernelsDefined(const OperatorModel &Model,
                         llvm::ArrayRef<KernelDefinitionName> Defined,
                         const KernelCheckOptions &Opts,
                         DiagnosticsEngine &Diags);

} // namespace skc

#endif // SKC_SEMA_KERNELCHECKS_H
