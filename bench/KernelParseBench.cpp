//===--- KernelParseBench.cpp - Parsing a kernel source with Clang --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How long skc's Clang front end takes on one realistic kernel source (four
/// structured ops, meta and impl, through TensorIterator, Highway loops and
/// a reduction, plus a native kernel, against the real runtime headers),
/// against Clang doing nothing but parse it with the same flags:
///
///   BM_ParseKernelSources   parseKernelSources: a ClangTool, skc's flags,
///                           the generated header in memory, diagnostics
///                           forwarded, kernels and body facts extracted;
///   BM_ClangToolSyntaxOnly  the in-process reference: a ClangTool running
///                           Clang's plain SyntaxOnlyAction on the same
///                           file system and flags. The fair reference for
///                           skc's own overhead;
///   BM_ClangProcess         `clang++-22 -fsyntax-only` as a process, with
///                           the generated header on disk: what a build
///                           step would pay (process start, -disable-free);
///   BM_ReparseWithPreamble  KernelSourceSession re-checking the source
///                           after an edit in a function body, its preamble
///                           (the runtime's and generated headers) cached:
///                           what an editor pays per keystroke; with
///                           function templates instantiated (1) or not (0);
///   BM_ReparseUnaryOpsWithPreamble
///                           the same on kernels/cpu/UnaryOps.cpp, against
///                           the headers the build generated.
///
/// Run from a Release build; the figures are wall-clock time:
///
///   build/bench/skc-bench-kernel-parse --benchmark_repetitions=5
///
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Config.h"
#include "skc/Frontend/KernelSourceParser.h"
#include "skc/Frontend/KernelSourceSession.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

using namespace llvm;
using namespace skc;

namespace {

/// The header skc would generate for the ops of KernelSource.
const char GeneratedHeader[] = R"cpp(#pragma once
#include "sk/iter/MetaBase.h"
#include "sk/iter/TensorIterator.h"

#include <optional>

#define SK_NATIVE_FUNC(Name) (::sk::native::Name)

namespace sk {
namespace meta {
struct structured_add_Tensor : public ::sk::TensorIteratorBase {
  void meta(const Tensor &self, const Tensor &other, const Scalar &alpha);
};
struct structured_scale : public ::sk::impl::MetaBase {
  void meta(const Tensor &self, double factor);
};
struct structured_sum_dim_IntList : public ::sk::impl::MetaBase {
  void meta(const Tensor &self, IntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype);
};
struct structured_modf : public ::sk::TensorIteratorBase {
  void meta(const Tensor &self);
};
} // namespace meta
namespace native {
struct structured_add_out : public ::sk::meta::structured_add_Tensor {
  void impl(const Tensor &self, const Tensor &other, const Scalar &alpha,
            const Tensor &out);
};
struct structured_scale_out : public ::sk::meta::structured_scale {
  void impl(const Tensor &self, double factor, const Tensor &out);
};
struct structured_sum_out : public ::sk::meta::structured_sum_dim_IntList {
  void impl(const Tensor &self, IntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype, const Tensor &out);
};
struct structured_modf_out : public ::sk::meta::structured_modf {
  void impl(const Tensor &self, const Tensor &trunc, const Tensor &frac);
};
Tensor relu_cpu(const Tensor &self);
} // namespace native
} // namespace sk
)cpp";

/// Kernels as an author writes them (test/runtime/iter/
/// StructuredHelpersTest.cpp's ops, with the macros and a native kernel).
const char KernelSource[] = R"cpp(#include "skc/Kernels.h"

#include "sk/iter/Reduce.h"
#include "sk/iter/ReduceUtils.h"
#include "sk/iter/TypePromotion.h"
#include "sk/ops/Factories.h"

#include <cmath>
#include <tuple>

using namespace sk;

SK_META_FUNC(add, Tensor)
(const Tensor &self, const Tensor &other, const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  SK_CHECK(!alpha.isBoolean() || dtype() == kBool,
           "Boolean alpha only supported for Boolean results.");
  SK_CHECK(isFloatingType(dtype()) || alpha.isIntegral(/*IncludeBool=*/true),
           "For integral input tensors, argument alpha must not be a "
           "floating point number.");
}

SK_IMPL_FUNC(add_out)
(const Tensor &, const Tensor &, const Scalar &alpha, const Tensor &) {
  visitScalarType(common_dtype(), [&](auto Tag) {
    using T = decltype(Tag);
    using Acc = opmath_type<T>;
    if constexpr (std::is_same_v<T, bool>) {
      bool A = alpha.to<bool>();
      cpu_kernel(*this, [A](bool X, bool Y) { return X || (A && Y); });
    } else {
      Acc A = alpha.toUnchecked<Acc>();
      auto ScalarOp = [A](T X, T Y) { return T(Acc(X) + A * Acc(Y)); };
      if constexpr (std::is_floating_point_v<T>) {
        auto AV = hn::Set(hn::ScalableTag<T>(), A);
        cpu_kernel_vec(*this, ScalarOp,
                       [AV](auto X, auto Y) { return hn::MulAdd(Y, AV, X); });
      } else if constexpr (detail::kHasVec<T>) {
        if (A == 1)
          cpu_kernel_vec(*this, ScalarOp,
                         [](auto X, auto Y) { return hn::Add(X, Y); });
        else
          cpu_kernel(*this, ScalarOp);
      } else {
        cpu_kernel(*this, ScalarOp);
      }
    }
  });
}

SK_META_FUNC(scale)(const Tensor &self, double) {
  SK_CHECK(self.scalar_type() == kFloat,
           "scale: expected a Float tensor, but got ",
           detail::typeName(self.scalar_type()));
  set_output_contiguous(0, self.sizes(), self.options());
}

SK_IMPL_FUNC(scale_out)
(const Tensor &self, double factor, const Tensor &out) {
  SK_INTERNAL_ASSERT(out.is_contiguous(), "scale needs a contiguous out");
  float *O = out.data_ptr<float>();
  const float *S = self.data_ptr<float>();
  for (int64_t I = 0, N = self.numel(); I != N; ++I)
    O[I] = static_cast<float>(S[I] * factor);
}

SK_META_FUNC(sum, dim_IntList)
(const Tensor &self, IntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype) {
  const Tensor &Out = maybe_get_output();
  ScalarType OutDtype = dtype ? *dtype
                        : Out.defined()
                            ? Out.scalar_type()
                            : get_dtype_from_self(self, std::nullopt, true);
  resize_reduction(*this, self, dim, keepdim, OutDtype);
}

SK_IMPL_FUNC(sum_out)
(const Tensor &self, IntArrayRef dim, bool keepdim, std::optional<ScalarType>,
 const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, dim, keepdim);
  visitScalarType(out.scalar_type(), [&](auto Tag) {
    using T = decltype(Tag);
    using Acc =
        std::conditional_t<std::is_integral_v<T>, int64_t, opmath_type<T>>;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      cpu_reduce_vec(
          Iter, T(0), [](T A, T B) { return A + B; },
          [](auto A, auto B) { return hn::Add(A, B); });
    else
      cpu_reduce(
          Iter, Acc(0), [](Acc A, Acc X) { return A + X; },
          [](Acc A, Acc B) { return A + B; }, [](Acc A) { return T(A); });
  });
}

SK_META_FUNC(modf)(const Tensor &self) {
  build(TensorIteratorConfig()
            .set_check_mem_overlap(true)
            .add_output(maybe_get_output(0))
            .add_output(maybe_get_output(1))
            .add_input(self));
  SK_CHECK(isFloatingType(common_dtype()),
           "modf: expected a floating-point tensor, but got ",
           detail::typeName(common_dtype()));
}

SK_IMPL_FUNC(modf_out)(const Tensor &, const Tensor &, const Tensor &) {
  visitScalarType(common_dtype(), [&](auto Tag) {
    using T = decltype(Tag);
    if constexpr (isFloatingType(scalarTypeOf<T>())) {
      cpu_kernel_multiple_outputs(*this, [](T X) {
        opmath_type<T> Int = std::trunc(opmath_type<T>(X));
        return std::make_tuple(T(Int), T(opmath_type<T>(X) - Int));
      });
    }
  });
}

Tensor SK_NATIVE_FUNC(relu_cpu)(const Tensor &self) {
  Tensor Out = sk::empty(self.sizes(), self.options());
  TensorIterator Iter =
      TensorIteratorConfig().add_output(Out).add_input(self).build();
  visitScalarType(self.scalar_type(), [&](auto Tag) {
    using T = decltype(Tag);
    if constexpr (!std::is_same_v<T, bool>)
      cpu_kernel(Iter, [](T X) { return X > T(0) ? X : T(0); });
  });
  return Out;
}
)cpp";

/// The kernel source on disk, in a directory that lives as long as the
/// process; the generated header both in memory (skc's runs) and on disk
/// (the clang++ process).
class Inputs {
public:
  static const Inputs &get() {
    static const Inputs I;
    return I;
  }

  /// The flags every run gets, as skc passes them.
  std::vector<std::string> flags(StringRef GeneratedDir) const {
    return {"-I" + GeneratedDir.str(), "-I" SKC_RUNTIME_INCLUDE_DIR,
            "-resource-dir=" SKC_CLANG_RESOURCE_DIR, "-fsyntax-only",
            "-std=c++17", "-DSKC_ANALYSIS=1",
            // skc parses one Highway target (Note [Highway dynamic
            // dispatch] in sk/iter/Loops.h).
            "-DHWY_COMPILE_ONLY_STATIC=1"};
  }

  KernelSourceOptions options() const {
    KernelSourceOptions O;
    O.GeneratedIncludeDir = VirtualGeneratedDir;
    O.GeneratedHeaders.push_back(
        {VirtualGeneratedDir + "/skc/Kernels.h", GeneratedHeader});
    O.RuntimeIncludeDir = SKC_RUNTIME_INCLUDE_DIR;
    O.ResourceDir = SKC_CLANG_RESOURCE_DIR;
    return O;
  }

  std::string Source;
  /// Where the generated header is on disk, and where it is only in memory.
  std::string DiskGeneratedDir;
  std::string VirtualGeneratedDir;
  std::string Error;

  ~Inputs() {
    if (!Dir.empty())
      sys::fs::remove_directories(Dir);
  }

private:
  Inputs() {
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("skc-kernel-parse-bench", Dir)) {
      Error = "cannot create a temporary directory: " + EC.message();
      return;
    }
    Source = (Dir + "/kernels.cpp").str();
    DiskGeneratedDir = (Dir + "/generated").str();
    VirtualGeneratedDir = (Dir + "/virtual-generated").str();
    if (std::error_code EC =
            sys::fs::create_directories(DiskGeneratedDir + "/skc")) {
      Error = "cannot create '" + DiskGeneratedDir + "': " + EC.message();
      return;
    }
    write(Source, KernelSource);
    write(DiskGeneratedDir + "/skc/Kernels.h", GeneratedHeader);
  }

  void write(const std::string &Path, StringRef Text) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << Text;
    if (EC)
      Error = "cannot write '" + Path + "': " + EC.message();
  }

  SmallString<128> Dir;
};

/// Skips \p State's benchmark, and returns true, if the inputs are missing.
static bool skipIfNoInputs(benchmark::State &State) {
  if (Inputs::get().Error.empty())
    return false;
  State.SkipWithError(Inputs::get().Error.c_str());
  return true;
}

void BM_ParseKernelSources(benchmark::State &State) {
  if (skipIfNoInputs(State))
    return;
  const Inputs &In = Inputs::get();
  KernelSourceOptions Options = In.options();
  for (auto _ : State) {
    SourceMgr SM;
    StoredDiagnosticConsumer Stored;
    DiagnosticsEngine Diags(SM, Stored);
    std::vector<KernelDecl> Decls;
    if (Error E =
            parseKernelSources({In.Source}, nullptr, Options, Diags, Decls)) {
      State.SkipWithError(toString(std::move(E)).c_str());
      return;
    }
    if (Diags.getNumErrors() != 0 || Decls.size() != 9) {
      std::string Why = "expected 9 kernels and no errors, got " +
                        std::to_string(Decls.size()) + " kernels";
      if (!Stored.Diagnostics.empty())
        Why += "; first: " + Stored.Diagnostics[0].Message;
      State.SkipWithError(Why.c_str());
      return;
    }
    benchmark::DoNotOptimize(Decls.data());
  }
}
BENCHMARK(BM_ParseKernelSources)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ClangToolSyntaxOnly(benchmark::State &State) {
  if (skipIfNoInputs(State))
    return;
  const Inputs &In = Inputs::get();
  clang::tooling::FixedCompilationDatabase Commands(
      ".", In.flags(In.VirtualGeneratedDir));
  std::unique_ptr<clang::tooling::FrontendActionFactory> Factory =
      clang::tooling::newFrontendActionFactory<clang::SyntaxOnlyAction>();
  for (auto _ : State) {
    // The same file system as parseKernelSources builds.
    auto Generated = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
    Generated->addFile(In.VirtualGeneratedDir + "/skc/Kernels.h", 0,
                       MemoryBuffer::getMemBuffer(GeneratedHeader));
    auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
        IntrusiveRefCntPtr<vfs::FileSystem>(vfs::createPhysicalFileSystem()));
    FS->pushOverlay(Generated);
    clang::tooling::ClangTool Tool(
        Commands, {In.Source},
        std::make_shared<clang::PCHContainerOperations>(), FS);
    clang::IgnoringDiagConsumer Ignore;
    Tool.setDiagnosticConsumer(&Ignore);
    if (Tool.run(Factory.get()) != 0) {
      State.SkipWithError("the in-process Clang run failed");
      return;
    }
  }
}
BENCHMARK(BM_ClangToolSyntaxOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ClangProcess(benchmark::State &State) {
  if (skipIfNoInputs(State))
    return;
  const Inputs &In = Inputs::get();
  std::vector<std::string> Args = In.flags(In.DiskGeneratedDir);
  Args.insert(Args.begin(), SKC_BENCH_CLANGXX);
  Args.push_back(In.Source);
  std::vector<StringRef> Argv(Args.begin(), Args.end());
  for (auto _ : State) {
    std::string Message;
    int RC = sys::ExecuteAndWait(SKC_BENCH_CLANGXX, Argv, std::nullopt, {}, 0,
                                 0, &Message);
    if (RC != 0) {
      State.SkipWithError(("clang++ failed: " + Message).c_str());
      return;
    }
  }
}
BENCHMARK(BM_ClangProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Re-checks \p Source (at \p Path) after an edit in a function body, as
/// an editor does, with KernelSourceSession: the preamble is built before
/// the timing starts, and each iteration changes the text of a string
/// literal in the body (\p Anchor) and parses the result.
void reparseAfterEdits(benchmark::State &State, KernelSourceOptions Options,
                       const std::string &Path, const std::string &Source,
                       StringRef Anchor) {
  size_t At = Source.find(Anchor.str());
  if (At == std::string::npos) {
    State.SkipWithError("the source has no place to edit");
    return;
  }
  KernelSourceSession Session(std::move(Options));
  auto Check = [&](unsigned Edit) {
    std::string Text = Source;
    Text.insert(At + 1, "edit " + std::to_string(Edit) + " ");
    SourceMgr SM;
    StoredDiagnosticConsumer Stored;
    DiagnosticsEngine Diags(SM, Stored);
    std::vector<KernelDecl> Decls;
    if (Error E = Session.parse(Path, Text, Diags, Decls))
      return toString(std::move(E));
    if (Diags.getNumErrors() != 0)
      return "errors: " + Stored.Diagnostics[0].Message;
    if (Decls.empty())
      return std::string("no kernels found");
    return std::string();
  };
  if (std::string Why = Check(0); !Why.empty()) {
    State.SkipWithError(Why.c_str());
    return;
  }
  unsigned Edit = 1;
  for (auto _ : State) {
    std::string Why = Check(Edit++);
    if (!Why.empty() || !Session.reusedPreamble()) {
      State.SkipWithError(Why.empty() ? "the preamble was not reused"
                                      : Why.c_str());
      return;
    }
  }
}

/// The argument: whether function templates are instantiated (Note
/// [Function templates left uninstantiated]).
void BM_ReparseWithPreamble(benchmark::State &State) {
  if (skipIfNoInputs(State))
    return;
  const Inputs &In = Inputs::get();
  KernelSourceOptions Options = In.options();
  Options.InstantiateFunctionTemplates = State.range(0) != 0;
  reparseAfterEdits(State, std::move(Options), In.Source, KernelSource,
                    "\"Boolean alpha");
}
BENCHMARK(BM_ReparseWithPreamble)
    ->ArgName("instantiate")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The same on the kernel library's largest CPU source, against the headers
/// the build generated for it.
void BM_ReparseUnaryOpsWithPreamble(benchmark::State &State) {
  const std::string Path = SKC_BENCH_KERNELS_DIR "/cpu/UnaryOps.cpp";
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text || !sys::fs::exists(SKC_BENCH_KERNELS_GENERATED_DIR
                                "/NativeFunctions.h")) {
    State.SkipWithError("build the kernel library (skc_kernels) first");
    return;
  }
  KernelSourceOptions Options;
  Options.GeneratedIncludeDir = SKC_BENCH_KERNELS_GENERATED_DIR;
  Options.RuntimeIncludeDir = SKC_RUNTIME_INCLUDE_DIR;
  Options.ResourceDir = SKC_CLANG_RESOURCE_DIR;
  Options.ExtraFlags = {"-I" SKC_BENCH_KERNELS_DIR};
  Options.InstantiateFunctionTemplates = State.range(0) != 0;
  reparseAfterEdits(State, std::move(Options), Path,
                    (*Text)->getBuffer().str(), "\"abs_cpu");
}
BENCHMARK(BM_ReparseUnaryOpsWithPreamble)
    ->ArgName("instantiate")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
