//===--- CompileCommands.h - How skc runs Clang on a source -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The command line skc parses a kernel source with: the source's own
/// command (from compile_commands.json, or the flags after `--`), nvcc's
/// flags translated for Clang, and skc's flags before the author's
/// (clangd's CompileCommands.h is the model).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_COMPILECOMMANDS_H
#define SKC_LIB_FRONTEND_COMPILECOMMANDS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace skc {

struct KernelSourceOptions;

/// The database's first command for a file, or, for a file it does not
/// know (or without a database), the flags given on the command line. One
/// command per file: a database may list a file twice, and parsing it
/// twice would report everything twice. ClangTool never sees a file
/// without a command, so it never prints "Skipping ...".
class KernelCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  KernelCompilationDatabase(const clang::tooling::CompilationDatabase *Primary,
                            llvm::ArrayRef<std::string> Flags)
      : Primary(Primary), Fallback(".", Flags) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override;

private:
  const clang::tooling::CompilationDatabase *Primary;
  clang::tooling::FixedCompilationDatabase Fallback;
};

/// Returns whether \p Args (a compile command) or \p File's extension ask
/// for CUDA.
bool isCUDASource(const clang::tooling::CommandLineArguments &Args,
                  llvm::StringRef File);

/// \p Args without the flags only nvcc understands, and with `-x cu`
/// spelled `-x cuda`; commands of other compilers unchanged. CMake writes
/// compile commands of .cu sources for nvcc.
clang::tooling::CommandLineArguments
withoutNvccFlags(const clang::tooling::CommandLineArguments &Args);

/// The command skc runs Clang with for \p File, whose compile command is
/// \p Args: nvcc's flags translated, and skc's flags (the generated and
/// runtime include directories, -fsyntax-only, -std=c++17 unless a
/// standard is given, -DSKC_ANALYSIS=1, one Highway target, and for CUDA
/// host-only parsing) between the compiler and the author's flags, so the
/// generated and runtime headers come first in the search path and the
/// author's flags can still override the rest.
clang::tooling::CommandLineArguments
adjustKernelCommand(const clang::tooling::CommandLineArguments &Args,
                    llvm::StringRef File, const KernelSourceOptions &Options);

/// The flags of a source's check (\p Args, adjusted) without the source
/// \p File: what a precompiled header built for one source of a library
/// must share with another's to be used for it.
std::string getPCHFlags(const clang::tooling::CommandLineArguments &Args,
                        llvm::StringRef File);

} // namespace skc

#endif // SKC_LIB_FRONTEND_COMPILECOMMANDS_H
