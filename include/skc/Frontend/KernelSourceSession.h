//===--- KernelSourceSession.h - A source checked as edited -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The front end for an editor: parse one kernel source again after each
/// edit without parsing the runtime's and the generated headers again.
/// Each source's preamble (the #include lines at its top) is parsed once
/// into a clang::PrecompiledPreamble held in memory, and reused while the
/// preamble's text and the files it includes are unchanged, as clangd does.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_FRONTEND_KERNELSOURCESESSION_H
#define SKC_FRONTEND_KERNELSOURCESESSION_H

#include "skc/Frontend/KernelSourceParser.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <vector>

namespace skc {

class KernelSourceSession {
public:
  /// \p Options as parseKernelSources takes them; compile flags from
  /// \p Database when it lists a source, else Options.ExtraFlags.
  explicit KernelSourceSession(
      KernelSourceOptions Options,
      std::shared_ptr<const clang::tooling::CompilationDatabase> Database =
          nullptr);
  ~KernelSourceSession();
  KernelSourceSession(const KernelSourceSession &) = delete;
  KernelSourceSession &operator=(const KernelSourceSession &) = delete;

  /// Parses \p File, whose text is \p Contents (an editor's buffer, which
  /// need not be saved), and appends its kernels to \p Decls in source
  /// order and its diagnostics to \p Diags, as parseKernelSources would.
  /// Builds the file's preamble, or reuses the one built before. Clang's
  /// diagnostics in the preamble's headers come with the parse that builds
  /// it; a preamble with errors is not kept, so they come back until fixed,
  /// and its warnings are not repeated. \p InstantiateFunctionTemplates
  /// overrides the session's KernelSourceOptions for this parse: an editor
  /// checks quickly as the author types and fully on save.
  llvm::Error parse(llvm::StringRef File, llvm::StringRef Contents,
                    DiagnosticsEngine &Diags, std::vector<KernelDecl> &Decls,
                    std::optional<bool> InstantiateFunctionTemplates = {});

  /// Whether the last parse() reused a preamble.
  bool reusedPreamble() const;

private:
  struct Implementation;
  std::unique_ptr<Implementation> Impl;
};

} // namespace skc

#endif // SKC_FRONTEND_KERNELSOURCESESSION_H
