//===--- Features.h - What the server answers about a project ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The editor features, each from a project's state as last checked:
/// hover, definition and references both ways between the schema and the
/// kernels, completion and document symbols in the schema, inlay hints on
/// kernel definitions, and the code skc generates for an operator. Places
/// are returned as paths; the server names them by URI.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_FEATURES_H
#define SKC_LIB_LSP_FEATURES_H

#include "ProjectState.h"

#include "llvm/Support/LSP/Protocol.h"

#include <optional>
#include <string>
#include <vector>

namespace skc {

/// A range in a file, by path.
struct PlaceInFile {
  std::string File;
  llvm::lsp::Range Range;
};

/// On an entry of the schema or a kernel definition (its macro, name or
/// parameters): the operator's schema, the C++ signature each kernel must
/// have, its variants, and which backends have a kernel.
std::optional<llvm::lsp::Hover> getHover(const ProjectState &State,
                                         llvm::StringRef Path,
                                         llvm::lsp::Position P);

/// From a dispatch entry's kernel name to the kernel's definition; from a
/// `func:` to the operator's wrapper in the build's generated Functions.h
/// (and the meta function, for a structured one); from a kernel
/// definition to the schema entries that name it.
std::vector<PlaceInFile> getDefinition(const ProjectState &State,
                                       llvm::StringRef Path,
                                       llvm::lsp::Position P);
/// Every place that names the kernel at \p P: the definitions and the
/// schema's dispatch entries (or `structured: True` entry, for a meta).
std::vector<PlaceInFile> getReferences(const ProjectState &State,
                                       llvm::StringRef Path,
                                       llvm::lsp::Position P);

/// Completion at \p P of schema text \p Text: entry keys, the types of a
/// `func:`, dispatch keys (the project's catalogue's too), kernel names the
/// sources define, and tags.
std::vector<llvm::lsp::CompletionItem>
getSchemaCompletion(const ProjectState &State, llvm::StringRef Text,
                    llvm::lsp::Position P);

/// The schema's operators, each with its overloads.
std::vector<llvm::lsp::DocumentSymbol>
getSchemaSymbols(const ProjectState &State);

/// On each parameter of the kernels \p Path defines: the schema argument it
/// binds to.
std::vector<llvm::lsp::InlayHint> getInlayHints(const ProjectState &State,
                                                llvm::StringRef Path);

/// What skc generates for the operator at \p P of the schema, or for the
/// one the kernel at \p P belongs to: each generated file's part for it.
llvm::Expected<std::string> getGeneratedCode(const ProjectState &State,
                                             llvm::StringRef Path,
                                             llvm::lsp::Position P);

} // namespace skc

#endif // SKC_LIB_LSP_FEATURES_H
