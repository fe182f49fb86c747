//===--- CompileCommands.cpp - How skc runs Clang on a source -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CompileCommands.h"

#include "skc/Frontend/KernelSourceParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
namespace tooling = clang::tooling;

namespace skc {

std::vector<tooling::CompileCommand>
KernelCompilationDatabase::getCompileCommands(StringRef File) const {
  std::vector<tooling::CompileCommand> Commands;
  if (Primary)
    Commands = Primary->getCompileCommands(File);
  if (Commands.empty())
    Commands = Fallback.getCompileCommands(File);
  Commands.resize(std::min<size_t>(Commands.size(), 1));
  return Commands;
}

bool isCUDASource(const tooling::CommandLineArguments &Args, StringRef File) {
  if (sys::path::extension(File) == ".cu")
    return true;
  for (size_t I = 0, E = Args.size(); I != E; ++I)
    if (Args[I] == "-xcuda" ||
        (Args[I] == "-x" && I + 1 != E && Args[I + 1] == "cuda"))
      return true;
  return false;
}

/// Returns whether \p Arg is a flag of nvcc's own that Clang does not
/// accept.
static bool isNvccOnlyFlag(StringRef Arg) {
  return Arg == "-forward-unknown-to-host-compiler" ||
         Arg == "--extended-lambda" || Arg == "--expt-relaxed-constexpr" ||
         Arg.starts_with("--generate-code") || Arg.starts_with("-gencode") ||
         Arg.starts_with("-arch=") || Arg.starts_with("--gpu-architecture") ||
         Arg.starts_with("-rdc=") || Arg.starts_with("--relocatable-device");
}

tooling::CommandLineArguments
withoutNvccFlags(const tooling::CommandLineArguments &Args) {
  if (Args.empty() || sys::path::stem(Args.front()) != "nvcc")
    return Args;
  tooling::CommandLineArguments Result;
  for (size_t I = 0, E = Args.size(); I != E; ++I) {
    if (isNvccOnlyFlag(Args[I]))
      continue;
    if (Args[I] == "-x" && I + 1 != E && Args[I + 1] == "cu") {
      Result.push_back("-x");
      Result.push_back("cuda");
      ++I;
      continue;
    }
    Result.push_back(Args[I]);
  }
  return Result;
}

static bool hasLanguageStandard(const tooling::CommandLineArguments &Args) {
  return any_of(Args, [](StringRef A) {
    return A.starts_with("-std=") || A.starts_with("--std=") || A == "-std" ||
           A == "--std" || A.starts_with("/std:");
  });
}

tooling::CommandLineArguments
adjustKernelCommand(const tooling::CommandLineArguments &OriginalArgs,
                    StringRef File, const KernelSourceOptions &Options) {
  tooling::CommandLineArguments Args = withoutNvccFlags(OriginalArgs);
  tooling::CommandLineArguments Prefix;
  if (!Options.GeneratedIncludeDir.empty())
    Prefix.push_back("-I" + Options.GeneratedIncludeDir);
  if (!Options.RuntimeIncludeDir.empty())
    Prefix.push_back("-I" + Options.RuntimeIncludeDir);
  if (!Options.ResourceDir.empty())
    Prefix.push_back("-resource-dir=" + Options.ResourceDir);
  Prefix.push_back("-fsyntax-only");
  if (!hasLanguageStandard(Args))
    Prefix.push_back("-std=c++17");
  Prefix.push_back("-DSKC_ANALYSIS=1");
  // One Highway target is enough to check a kernel source: its
  // foreach_target.h passes repeat the same code (Note [Highway dynamic
  // dispatch] in sk/iter/Loops.h).
  Prefix.push_back("-DHWY_COMPILE_ONLY_STATIC=1");
  if (isCUDASource(Args, File)) {
    // Host code only; CUDA 13 keeps CUB and Thrust in include/cccl, which
    // nvcc adds on its own and Clang does not.
    Prefix.insert(Prefix.end(), {"-x", "cuda", "--cuda-host-only"});
    if (!Options.CUDAPath.empty()) {
      Prefix.push_back("--cuda-path=" + Options.CUDAPath);
      Prefix.push_back("-I" + Options.CUDAPath + "/include/cccl");
    }
  }
  tooling::CommandLineArguments Result;
  Result.reserve(Args.size() + Prefix.size());
  if (!Args.empty())
    Result.push_back(Args.front());
  Result.insert(Result.end(), Prefix.begin(), Prefix.end());
  if (!Args.empty())
    Result.insert(Result.end(), Args.begin() + 1, Args.end());
  return Result;
}

std::string getPCHFlags(const tooling::CommandLineArguments &Args,
                        StringRef File) {
  std::string Flags;
  for (const std::string &A : Args)
    if (A != File)
      Flags += A + '\n';
  return Flags;
}

} // namespace skc
