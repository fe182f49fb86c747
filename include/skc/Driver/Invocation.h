//===--- Invocation.h - One run of skc, as parsed options -------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Everything one skc run is asked to do, typed and checked: what
/// tools/skc/skc.cpp makes of its command line, and what another tool (the
/// language server) fills in to drive the same pipeline (Pipeline.h).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_DRIVER_INVOCATION_H
#define SKC_DRIVER_INVOCATION_H

#include "skc/Emit/Emitters.h"
#include "skc/Sema/DispatchKey.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace skc {

enum class OpModelFormat { None, Text, JSON };

struct Invocation {
  /// The schema file; "-" is standard input.
  std::string SchemaPath;
  /// Where the schema, its catalogues and the kernel sources are read from;
  /// null for the real file system. An editor lays its unsaved buffers over
  /// the real one.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FileSystem;
  /// The tags catalogue; empty for tags.yaml beside the schema, if any.
  std::string TagsPath;
  /// The project's dispatch key catalogue; empty for none.
  std::string DispatchKeysPath;

  /// Kernel sources to check (facts files, with Merge), and how to compile
  /// them: a build directory's compile_commands.json, and flags for sources
  /// it does not list.
  std::vector<std::string> Sources;
  std::string BuildPath;
  std::vector<std::string> ExtraFlags;
  /// The CUDA toolkit .cu sources are parsed against.
  std::string CUDAPath;
  /// The directory holding sk/Kernel.h.
  std::string RuntimeIncludeDir;
  /// Do not report kernels no given source defines.
  bool NoMissingKernels = false;
  /// Called before each kernel source is checked (the command line's
  /// progress lines); may be empty.
  std::function<void(size_t Index, size_t Count, llvm::StringRef Source)>
      SourceProgress;

  /// The backends built, among getSelectableBackends().
  std::vector<DispatchKey> Backends;
  unsigned Shards = 1;
  std::string Namespace = "aten";
  std::string CppNamespace = "sk";

  /// Check the sources on their own (no check that needs the whole
  /// library) and write what they define into this facts file
  /// (KernelFacts.h), instead of any other output; empty for none.
  std::string FactsPath;
  /// Sources are the facts files of every source of the library: check
  /// the library as a whole and generate from what they say.
  bool Merge = false;
  /// Write a precompiled header of the generated NativeFunctions.h, built
  /// with the compile command of the one source given, into this file
  /// (and its flags beside it), instead of any other output; empty for
  /// none.
  std::string EmitPCHPath;
  /// Parse the sources with this precompiled header (EmitPCHPath), each
  /// whose command is the one it was built with; empty for none.
  std::string PCHPath;

  /// Where the generated files go; empty for none.
  std::string OutputDir;
  /// Which of them.
  OutputSet Outputs = OutputSet::All;
  /// With OutputDir: the depfile, and the one target it names (empty: every
  /// generated file).
  std::string DepfilePath;
  std::string DepfileTarget;
  /// The meta consistency tests; empty for none.
  std::string MetaTestsPath;
  /// The coverage report: std::nullopt for none, "" for the output stream.
  std::optional<std::string> CoverageReport;
  OpModelFormat PrintOpModel = OpModelFormat::None;
  bool PrintStats = false;

  /// The backends built when none is asked for: CPU when a source is not a
  /// .cu file, CUDA when one is.
  static std::vector<DispatchKey>
  getDefaultBackends(const std::vector<std::string> &Sources);
  /// Where -o puts the generated file \p Name.
  std::string getOutputPath(llvm::StringRef Name) const;
  /// The tags file: TagsPath, else tags.yaml beside the schema, else "".
  std::string findTagsFile() const;

  /// The runtime's headers for the tool at \p ExecutablePath: the
  /// <prefix>/include beside an installed <prefix>/bin/<tool>, else the
  /// source tree's (SKC_RUNTIME_INCLUDE_DIR).
  static std::string
  getDefaultRuntimeIncludeDir(llvm::StringRef ExecutablePath);
};

} // namespace skc

#endif // SKC_DRIVER_INVOCATION_H
