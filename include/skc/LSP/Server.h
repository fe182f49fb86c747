//===--- Server.h - skc's language server -----------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-lsp: skc's diagnostics in an editor, as the author types, over LSP
/// 3.17 (LLVM's llvm/Support/LSP library; MLIR's language servers are the
/// model: a transport, a message handler, and the language's logic).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LSP_SERVER_H
#define SKC_LSP_SERVER_H

#include "llvm/Support/Error.h"

#include <chrono>
#include <string>
#include <vector>

namespace llvm {
namespace lsp {
class JSONTransport;
} // namespace lsp
} // namespace llvm

namespace skc {

struct ServerOptions {
  /// Where docs/diagnostics.md is, as a URL: each diagnostic's
  /// codeDescription links to its ID's entry there. Empty for no links.
  std::string DiagnosticsDocURL;
  /// The schema that kernel sources (.cpp, .cu) outside every project are
  /// checked against; none: they are not checked.
  std::string SchemaPath;
  /// The build directory with compile_commands.json and the project files
  /// (skc's -p); "": the nearest above each file, as clangd finds it.
  std::string BuildPath;
  /// The runtime's headers, and flags for sources the build does not list.
  std::string RuntimeIncludeDir;
  std::vector<std::string> ExtraFlags;
  /// Every check and request done at once, in the order the messages came
  /// (for tests); else on a worker thread, each check after Debounce
  /// without a newer edit.
  bool Synchronous = false;
  std::chrono::milliseconds Debounce{50};
};

/// Serves the client on the other end of \p Transport until it exits.
/// Returns an error when the transport fails, or the client exits without
/// asking for a shutdown first.
llvm::Error runServer(const ServerOptions &Options,
                      llvm::lsp::JSONTransport &Transport);

} // namespace skc

#endif // SKC_LSP_SERVER_H
