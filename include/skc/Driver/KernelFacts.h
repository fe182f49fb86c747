//===--- KernelFacts.h - What a kernel source's check found -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The facts file: what `skc --facts` writes after checking kernel sources
/// on their own, and what `skc --merge` reads to check and generate the
/// library as a whole, as a linker reads object files. It holds the
/// kernels the sources define (what the coverage report and the
/// registrations need) and what each gives the library (ProvidedKernel,
/// what the library-wide checks count). JSON, with sorted keys and the
/// sources named as the command line named them, so that the same inputs
/// give the same bytes in every build directory. docs/cmake.md has the
/// format.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_DRIVER_KERNELFACTS_H
#define SKC_DRIVER_KERNELFACTS_H

#include "skc/Parse/KernelDecl.h"
#include "skc/Sema/KernelChecks.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace skc {

struct KernelFacts {
  /// The version written; a reader refuses others.
  static constexpr int Version = 1;

  /// The sources checked.
  std::vector<std::string> Sources;
  /// The kernels they define, in source order: Kind, Name, InCUDASource,
  /// IsInvalid, Macro and Dtypes only (no locations, parameters or body
  /// facts, which the check of the source has used).
  std::vector<KernelDecl> Decls;
  /// What the valid definitions give the library.
  std::vector<ProvidedKernel> Provided;
};

/// \p Facts as the text of a facts file.
std::string writeKernelFacts(const KernelFacts &Facts);

/// Reads the facts file \p Text (named \p Path in errors). The units of its
/// ProvidedKernels are \p Unit.
llvm::Expected<KernelFacts>
readKernelFacts(llvm::StringRef Text, llvm::StringRef Path, unsigned Unit);

} // namespace skc

#endif // SKC_DRIVER_KERNELFACTS_H
