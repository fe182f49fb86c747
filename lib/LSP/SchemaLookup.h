//===--- SchemaLookup.h - From a place to the model and back ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The links between the schema's entries and the kernel definitions that
/// the editor features follow: the entry at a place in the YAML, the kernel
/// definitions a dispatch entry names, and the entries a definition
/// belongs to.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_SCHEMALOOKUP_H
#define SKC_LIB_LSP_SCHEMALOOKUP_H

#include "KernelIndex.h"

#include "skc/Sema/OperatorModel.h"

#include <string>
#include <utility>
#include <vector>

namespace skc {

/// The function whose entry holds \p Loc, a place in the schema file: from
/// its `- ` to the next entry.
const NativeFunction *findFunctionAt(const OperatorModel &Model,
                                     llvm::SMLoc Loc);
/// The text of \p F's entry in \p SchemaText (the schema's buffer): from
/// the start of its `- func:` line to the next entry, trailing blank lines
/// and comments aside.
llvm::StringRef getEntryText(const OperatorModel &Model,
                             const NativeFunction &F,
                             llvm::StringRef SchemaText);

/// The dispatch entry of \p F whose key or kernel name holds \p Loc.
const BackendKernel *findDispatchAt(const NativeFunction &F, llvm::SMLoc Loc);

/// The definition dispatch entry \p K names: its kind and KernelDecl name.
std::pair<KernelDeclKind, std::string>
getDefinitionName(const BackendKernel &K);

/// A place in the schema a kernel definition belongs to: an entry, and its
/// dispatch entry (none for a meta function, which belongs to the
/// `structured: True` entry).
struct KernelUse {
  const NativeFunction *Function = nullptr;
  const BackendKernel *Kernel = nullptr;
};
std::vector<KernelUse> findUses(const OperatorModel &Model, KernelDeclKind Kind,
                                llvm::StringRef Name);

/// The kernel definition of \p Symbols at \p P (its macro, name or
/// parameter list).
const KernelSymbol *findKernelAt(llvm::ArrayRef<KernelSymbol> Symbols,
                                 llvm::lsp::Position P);

} // namespace skc

#endif // SKC_LIB_LSP_SCHEMALOOKUP_H
