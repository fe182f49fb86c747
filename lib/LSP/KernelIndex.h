//===--- KernelIndex.h - The kernels a project's sources define -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where each kernel of a project is defined, by source: from each check
/// of an open source, and from the background indexing of the others (as
/// clangd's background index). Navigation, hover and completion read it;
/// the worker and the indexing thread write it, so every access locks and
/// answers with copies.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_KERNELINDEX_H
#define SKC_LIB_LSP_KERNELINDEX_H

#include "skc/Parse/KernelDecl.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/LSP/Protocol.h"

#include <mutex>
#include <string>
#include <vector>

namespace skc {

/// A kernel definition, as the index keeps it: where it is, in LSP terms,
/// outliving the parse that found it.
struct KernelSymbol {
  KernelDeclKind Kind;
  /// KernelDecl::Name: "structured_add_out", "relu_cpu".
  std::string Name;
  std::string File;
  /// KernelDecl::Macro: "meta", "impl", ...; empty when spelled out.
  std::string Macro;
  bool InCUDASource = false;
  /// The name (the macro's argument), and the definition's head: from the
  /// macro to the end of the parameter list.
  llvm::lsp::Range NameRange;
  llvm::lsp::Range HeadRange;
  /// Where each parameter starts.
  std::vector<llvm::lsp::Position> ParamStarts;
};

class KernelIndex {
public:
  /// What a check of \p File found: replaces what was known.
  void set(llvm::StringRef File, std::vector<KernelSymbol> Symbols);
  /// What the background indexing of \p File found: kept unless a check
  /// of the file came first (it saw the editor's text, not the disk's).
  void setIfAbsent(llvm::StringRef File, std::vector<KernelSymbol> Symbols);
  bool contains(llvm::StringRef File) const;

  /// The definitions of the kernel \p Kind \p Name, by file and place.
  std::vector<KernelSymbol> find(KernelDeclKind Kind,
                                 llvm::StringRef Name) const;
  std::vector<KernelSymbol> getKernels(llvm::StringRef File) const;
  std::vector<KernelSymbol> getAll() const;

private:
  mutable std::mutex Mutex;
  llvm::StringMap<std::vector<KernelSymbol>> ByFile;
};

} // namespace skc

#endif // SKC_LIB_LSP_KERNELINDEX_H
