//===--- CompileCommandsTest.cpp - Tests of the commands skc runs ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The command lines skc gives Clang, from the commands CMake writes for
/// g++ and nvcc. Nothing here runs a compiler or needs a CUDA toolkit.
///
//===----------------------------------------------------------------------===//

#include "Frontend/CompileCommands.h"
#include "skc/Frontend/KernelSourceParser.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace skc;
using clang::tooling::CommandLineArguments;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsSupersetOf;
using ::testing::Not;

namespace {

/// What CMake 3.25 writes into compile_commands.json for a .cu source of a
/// CUDA library.
const CommandLineArguments NvccCommand = {
    "/usr/local/cuda/bin/nvcc",
    "-forward-unknown-to-host-compiler",
    "-DSK_WITH_CUDA",
    "-I/src/runtime",
    "-O3",
    "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
    "--extended-lambda",
    "--expt-relaxed-constexpr",
    "-std=c++17",
    "-x",
    "cu",
    "-c",
    "/src/kernels/cuda/Add.cu",
    "-o",
    "Add.cu.o"};

TEST(CompileCommandsTest, NvccOnlyFlagsAreDropped) {
  CommandLineArguments Args = withoutNvccFlags(NvccCommand);
  EXPECT_THAT(Args,
              ElementsAre("/usr/local/cuda/bin/nvcc", "-DSK_WITH_CUDA",
                          "-I/src/runtime", "-O3", "-std=c++17", "-x", "cuda",
                          "-c", "/src/kernels/cuda/Add.cu", "-o", "Add.cu.o"));
}

TEST(CompileCommandsTest, OtherCompilersKeepTheirFlags) {
  // `-arch=` means something else to clang on Darwin; only nvcc's commands
  // are rewritten.
  CommandLineArguments Clang = {"clang++", "-arch=x86_64", "-x", "cu", "a.cpp"};
  EXPECT_EQ(withoutNvccFlags(Clang), Clang);
  EXPECT_EQ(withoutNvccFlags({}), CommandLineArguments());
}

TEST(CompileCommandsTest, CUDAByExtensionOrLanguageFlag) {
  EXPECT_TRUE(isCUDASource({"g++", "-c", "k.cu"}, "k.cu"));
  EXPECT_TRUE(isCUDASource({"clang++", "-xcuda", "k.cpp"}, "k.cpp"));
  EXPECT_TRUE(isCUDASource({"clang++", "-x", "cuda", "k.cpp"}, "k.cpp"));
  EXPECT_FALSE(isCUDASource({"clang++", "-x", "c++", "k.cpp"}, "k.cpp"));
  // `-x` as the last argument names no language.
  EXPECT_FALSE(isCUDASource({"clang++", "k.cpp", "-x"}, "k.cpp"));
}

TEST(CompileCommandsTest, SkcFlagsComeBetweenCompilerAndAuthorFlags) {
  KernelSourceOptions Options;
  Options.GeneratedIncludeDir = "/build/gen";
  Options.RuntimeIncludeDir = "/src/runtime";
  Options.ResourceDir = "/usr/lib/llvm-22/lib/clang/22";
  CommandLineArguments Args = adjustKernelCommand(
      {"g++", "-DNDEBUG", "-Iinclude", "-c", "k.cpp"}, "k.cpp", Options);
  EXPECT_THAT(Args,
              ElementsAre("g++", "-I/build/gen", "-I/src/runtime",
                          "-resource-dir=/usr/lib/llvm-22/lib/clang/22",
                          "-fsyntax-only", "-std=c++17", "-DSKC_ANALYSIS=1",
                          "-DHWY_COMPILE_ONLY_STATIC=1", "-DNDEBUG",
                          "-Iinclude", "-c", "k.cpp"));
}

TEST(CompileCommandsTest, TheAuthorsStandardWins) {
  KernelSourceOptions Options;
  for (const char *Std : {"-std=c++20", "--std=gnu++17", "-std"}) {
    CommandLineArguments Args =
        adjustKernelCommand({"g++", Std, "k.cpp"}, "k.cpp", Options);
    EXPECT_THAT(Args, Not(Contains("-std=c++17"))) << Std;
  }
}

TEST(CompileCommandsTest, CUDASourcesParseHostCodeOnly) {
  KernelSourceOptions Options;
  Options.CUDAPath = "/usr/local/cuda";
  CommandLineArguments Args =
      adjustKernelCommand(NvccCommand, "/src/kernels/cuda/Add.cu", Options);
  EXPECT_THAT(Args, IsSupersetOf({"--cuda-host-only", "cuda",
                                  "--cuda-path=/usr/local/cuda",
                                  "-I/usr/local/cuda/include/cccl"}));
  EXPECT_THAT(Args, Not(Contains("--extended-lambda")));
  EXPECT_THAT(Args, Not(Contains("cu")));
  // Without a toolkit path, Clang looks for one itself.
  Options.CUDAPath.clear();
  Args = adjustKernelCommand({"clang++", "k.cu"}, "k.cu", Options);
  EXPECT_THAT(Args, Contains("--cuda-host-only"));
  EXPECT_THAT(Args, Not(Contains(::testing::StartsWith("--cuda-path"))));
}

TEST(CompileCommandsTest, OneCommandPerFileAndFlagsForUnknownFiles) {
  std::string Error;
  // A database that lists a.cpp twice (two targets build it).
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> DB =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(
          R"json([
  {"directory": "/b", "command": "g++ -DFIRST -c /s/a.cpp", "file": "/s/a.cpp"},
  {"directory": "/b", "command": "g++ -DSECOND -c /s/a.cpp", "file": "/s/a.cpp"}
])json",
          Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(DB) << Error;
  KernelCompilationDatabase Commands(DB.get(), {"-DFALLBACK"});
  std::vector<clang::tooling::CompileCommand> A =
      Commands.getCompileCommands("/s/a.cpp");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_THAT(A[0].CommandLine, Contains("-DFIRST"));
  std::vector<clang::tooling::CompileCommand> B =
      Commands.getCompileCommands("/s/b.cpp");
  ASSERT_EQ(B.size(), 1u);
  EXPECT_THAT(B[0].CommandLine, Contains("-DFALLBACK"));
  // Without a database, every file gets the command line's flags.
  KernelCompilationDatabase FlagsOnly(nullptr, {"-DONLY"});
  EXPECT_THAT(FlagsOnly.getCompileCommands("/s/a.cpp")[0].CommandLine,
              Contains("-DONLY"));
}

} // namespace
