#!/usr/bin/env python3
"""How long skc's build steps take (docs/performance.md, "skc in the build").

Two libraries, each built with Ninja, timed from Ninja's own log
(.ninja_log: the start and end of every step):

  kernels   skc's kernel library, in skc's build directory (--build):
            kernels/ with every .cpp and, when CUDA is on, .cu source.
  generated a library of --sources kernel sources (500 by default) that
            this script writes, with its schema, into --work, built
            against an installed skc (--prefix); of its compiles, only
            the edited source's is run.

For each: the full check (every skc step of the library) with -j1 and
-j2, then a one-kernel edit: touch one source and rebuild the library and
what links it, reporting skc's part (its check and the library's step)
and the compile's part (that source's object and the archive), and the
check of that one source alone (skc --facts, as the build runs it), which
the edit's skc part is compared with.

Usage:
  bench/build_steps.py kernels --build build
  bench/build_steps.py generated --prefix build/test/cmake/prefix \
      --work /tmp/skc-bench-500 [--sources 500]
"""

import argparse
import os
import pathlib
import shlex
import statistics
import subprocess
import sys
import time


def run(args, cwd=None):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def ninja_log_entries(build):
    log = build / ".ninja_log"
    if not log.exists():
        return set()
    return {tuple(line.split("\t")) for line in log.read_text().splitlines()
            if not line.startswith("#")}


def timed_build(build, targets, jobs):
    """Builds targets; returns the wall time and the steps that ran, as
    output -> (start ms, end ms), one output per step: the entries of
    Ninja's log that this build added (the log is only read, never
    touched: without it Ninja would rebuild everything)."""
    before = ninja_log_entries(build)
    begin = time.monotonic()
    run(["ninja", "-C", str(build), f"-j{jobs}"] + targets)
    wall = time.monotonic() - begin
    ran, seen = {}, set()
    for entry in ninja_log_entries(build) - before:
        start, end, _, output, _ = entry
        # Ninja logs each output of a step, by the path the build file
        # names it with, relative or absolute.
        if os.path.isabs(output) or (start, end) in seen:
            continue
        seen.add((start, end))
        ran[output] = (int(start), int(end))
    return wall, ran


def span(steps):
    """Seconds from the first step's start to the last one's end."""
    if not steps:
        return 0.0
    return (max(e for _, e in steps.values()) -
            min(s for s, _ in steps.values())) / 1000


def total(steps):
    return sum(e - s for s, e in steps.values()) / 1000


def skc_outputs(steps, name):
    return {o: t for o, t in steps.items()
            if f"skc-generated/{name}" in o and
            not o.endswith("skc_objects")}


def full_check(build, name, jobs):
    """Every skc step of the library, from clean: without its stamps,
    precompiled headers and facts files ('ninja -t clean' would clean skc
    itself too)."""
    for path in build.rglob(f"{name}*"):
        if path.suffix in (".stamp", ".pch") or path.name == f"{name}.facts":
            if path.is_dir():
                for facts in path.rglob("*.facts"):
                    facts.unlink()
            else:
                path.unlink()
    wall, ran = timed_build(build, [f"{name}_skc"], jobs)
    return wall, ran


def one_source_check(build, name, source):
    """The command the build runs for source's check, and its time."""
    commands = subprocess.run(
        ["ninja", "-C", str(build), "-t", "commands", f"{name}_skc"],
        check=True, capture_output=True, text=True).stdout.splitlines()
    # CMake appends the rewriting of the depfile to the command.
    command = next(c for c in commands
                   if "--facts=" in c and f" {shlex.quote(source)} " in c)
    times = []
    for _ in range(5):
        begin = time.monotonic()
        subprocess.run(command, shell=True, check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.monotonic() - begin)
    return statistics.median(times)


def edit(build, name, source, targets):
    """Touches source, rebuilds targets: (wall, skc part, compile part)."""
    time.sleep(1.1)  # a later mtime than the last build's outputs
    pathlib.Path(source).touch()
    wall, ran = timed_build(build, targets, 2)
    skc = skc_outputs(ran, name)
    compile_ = {o: t for o, t in ran.items()
                if f"CMakeFiles/{name}.dir/" in o or
                o.endswith(f"lib{name}.a")}
    return wall, span(skc), span(compile_), ran


def report(label, name, build, source, targets, runs=3):
    print(f"## {label}")
    for jobs in (1, 2):
        wall, ran = full_check(build, name, jobs)
        steps = skc_outputs(ran, name)
        print(f"full check -j{jobs}: {wall:.2f} s wall "
              f"({len(steps)} skc steps, {total(steps):.2f} s of work)")
    run(["ninja", "-C", str(build), "-j2"] + targets)
    alone = one_source_check(build, name, source)
    print(f"check of {os.path.basename(source)} alone: {alone:.2f} s "
          "(median of 5)")
    results = [edit(build, name, source, targets) for _ in range(runs)]
    wall = statistics.median(r[0] for r in results)
    skc = statistics.median(r[1] for r in results)
    compile_ = statistics.median(r[2] for r in results)
    print(f"one-kernel edit: {wall:.2f} s wall; skc's part {skc:.2f} s "
          f"({skc / alone:.2f}x the check alone), compile's part "
          f"{compile_:.2f} s (median of {runs})")
    for output, (s, e) in sorted(results[-1][3].items(), key=lambda x: x[1]):
        print(f"    {(e - s) / 1000:6.2f} s  {output}")


SCHEMA_ENTRY = """\
- func: op{i}(Tensor self) -> Tensor
  structured_delegate: op{i}.out
- func: op{i}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: op{i}_out
"""

SOURCE = """\
#include "NativeFunctions.h"

#include "sk/iter/Loops.h"

namespace sk {{

SK_META_FUNC(op{i})(const Tensor &self) {{
  build_borrowing_unary_op(maybe_get_output(), self);
}}

SK_IMPL_FUNC(op{i}_out)(const Tensor &self, const Tensor &out) {{
  cpu_kernel(*this, [](float X) {{ return X * {i}.0f + 1.0f; }});
}}

}} // namespace sk
"""

CMAKE = """\
cmake_minimum_required(VERSION 3.24)
project(skc_bench_library LANGUAGES CXX)
find_package(skc CONFIG REQUIRED)
file(GLOB sources CONFIGURE_DEPENDS kernels/*.cpp)
skc_add_kernel_library(bench_ops SCHEMA ops.yaml SOURCES ${sources}
  NAMESPACE bench CPP_NAMESPACE bench STATIC)
add_executable(bench_main main.cpp)
target_link_libraries(bench_main PRIVATE bench_ops)
"""

MAIN = """\
#include "Functions.h"
#include <iostream>
int main() { std::cout << bench::op0(sk::ones({4})) << '\\n'; }
"""


def write_library(work, count):
    src = work / "src"
    (src / "kernels").mkdir(parents=True, exist_ok=True)
    (src / "ops.yaml").write_text(
        "".join(SCHEMA_ENTRY.format(i=i) for i in range(count)))
    for i in range(count):
        (src / "kernels" / f"Op{i}.cpp").write_text(SOURCE.format(i=i))
    (src / "CMakeLists.txt").write_text(CMAKE)
    (src / "main.cpp").write_text(MAIN)
    return src


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", choices=["kernels", "generated"])
    parser.add_argument("--build", type=pathlib.Path,
                        help="skc's build directory (kernels)")
    parser.add_argument("--prefix", type=pathlib.Path,
                        help="an installed skc (generated)")
    parser.add_argument("--work", type=pathlib.Path,
                        help="where the generated library goes")
    parser.add_argument("--sources", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    if args.library == "kernels":
        build = args.build.resolve()
        source = str((build / ".." / "kernels" / "cpu" /
                      "UnaryOps.cpp").resolve())
        report("kernels/", "skc_kernels", build, source,
               ["skc_kernels_skc", "skc_kernels"], args.runs)
        return 0

    work = args.work.resolve()
    src = write_library(work, args.sources)
    build = work / "build"
    run(["cmake", "-S", str(src), "-B", str(build), "-G", "Ninja",
         f"-DCMAKE_PREFIX_PATH={args.prefix.resolve()}",
         "-DCMAKE_BUILD_TYPE=Release"])
    # skc's steps and the edited source's object: compiling all 500 would
    # take longer than every measurement here, and adds nothing to them.
    report(f"a generated library of {args.sources} sources", "bench_ops",
           build, str(src / "kernels" / "Op7.cpp"),
           ["bench_ops_skc", "CMakeFiles/bench_ops.dir/kernels/Op7.cpp.o"],
           args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
