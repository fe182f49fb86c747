//===--- KernelSourceParser.h - Kernel sources through Clang ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Clang front end: parses kernel sources with Clang LibTooling, with the
/// headers skc generated from the schemas mapped into Clang's virtual file
/// system (they need not exist on disk), and returns the kernel definitions
/// it finds (KernelDecl.h).
///
/// Clang's own diagnostics in the sources are reported through the
/// DiagnosticsEngine, at their locations, with Clang's message; the few that
/// skc explains better in schema terms (an out-of-line meta or impl whose
/// parameters do not match the generated declaration, a meta for an
/// operator that has no generated struct) are left to Sema, which reports
/// them with the schema and a fix-it.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_FRONTEND_KERNELSOURCEPARSER_H
#define SKC_FRONTEND_KERNELSOURCEPARSER_H

#include "skc/Parse/KernelDecl.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
namespace tooling {
class CompilationDatabase;
} // namespace tooling
} // namespace clang

namespace skc {

class DiagnosticsEngine;

/// A file that exists only in memory: the generated headers.
struct VirtualFile {
  /// An absolute path, under KernelSourceOptions::GeneratedIncludeDir.
  std::string Path;
  std::string Contents;
};

struct KernelSourceOptions {
  /// Flags for every source, used when no compilation database is given
  /// (the flags after `--` on the command line).
  std::vector<std::string> ExtraFlags;
  /// The generated headers, and the directory they are included from
  /// (added with -I before the author's own flags).
  std::vector<VirtualFile> GeneratedHeaders;
  std::string GeneratedIncludeDir;
  /// The runtime's headers (runtime/ in the source tree, include/ of an
  /// installation), added with -I.
  std::string RuntimeIncludeDir;
  /// Clang's resource directory (builtin headers such as stddef.h).
  std::string ResourceDir;
  /// The CUDA toolkit, for .cu sources; empty to find it as clang does.
  std::string CUDAPath;
  /// The file system sources and headers are read from, under the
  /// generated headers; null for the real one. An editor lays its unsaved
  /// buffers over the real one.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FileSystem;
  /// When non-null, receives every file the sources include, less system
  /// headers and the generated ones: what a depfile names.
  std::set<std::string> *Dependencies = nullptr;
  /// Whether the function templates a source uses are instantiated, as a
  /// compiler does. Off, a check is several times faster and misses what
  /// only those instantiations show (errors inside them, template helpers'
  /// bodies): for an editor's check as the author types, with the full
  /// check on save or in the build. Note [Function templates left
  /// uninstantiated] in lib/Frontend/KernelDeclAction.cpp.
  bool InstantiateFunctionTemplates = true;
  /// A precompiled header of the generated NativeFunctions.h, which
  /// buildKernelPCH() wrote, or empty for none. A source whose command is
  /// the one the header was built with (its flags file says) is parsed
  /// with it; any other is parsed without.
  std::string PrecompiledHeader;
  /// Called before each source is parsed, with its index among \p Count:
  /// what a tool shows as progress.
  std::function<void(size_t Index, size_t Count, llvm::StringRef Source)>
      BeforeSource;
};

/// Parses \p Sources and appends what it finds to \p Decls, source by
/// source, each in source order. Compile flags come from \p Database when
/// it is non-null and lists the source (its first command), else from
/// Options.ExtraFlags; skc's own flags (the include directories above,
/// -std=c++17 unless a standard is given, -DSKC_ANALYSIS=1, and for .cu
/// sources -x cuda --cuda-host-only) come before them. Problems in the
/// sources are diagnostics; an environment failure (a source that cannot
/// be read) is an Error.
llvm::Error
parseKernelSources(llvm::ArrayRef<std::string> Sources,
                   const clang::tooling::CompilationDatabase *Database,
                   const KernelSourceOptions &Options, DiagnosticsEngine &Diags,
                   std::vector<KernelDecl> &Decls);

/// Writes to \p Output a precompiled header of the generated
/// NativeFunctions.h (and so of the runtime's authoring headers, which it
/// includes: nearly all a kernel source's parse), built with the command
/// \p Source is parsed with, and beside it the flags it was built with
/// (\p Output + ".flags"), which parseKernelSources compares with each
/// source's. Clang's problems in those headers are diagnostics; one in
/// writing the files is an Error.
llvm::Error buildKernelPCH(llvm::StringRef Source,
                           const clang::tooling::CompilationDatabase *Database,
                           const KernelSourceOptions &Options,
                           llvm::StringRef Output, DiagnosticsEngine &Diags);

/// Loads the compile_commands.json in \p BuildDir (the driver's -p), so
/// that callers need not include Clang's headers. The shared_ptr owns the
/// database.
llvm::Expected<std::shared_ptr<const clang::tooling::CompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildDir);

} // namespace skc

#endif // SKC_FRONTEND_KERNELSOURCEPARSER_H
