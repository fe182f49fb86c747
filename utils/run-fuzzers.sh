#!/usr/bin/env bash
# Builds skc's libFuzzer targets and runs each in turn.
#
#   utils/run-fuzzers.sh [SECONDS]
#
# SECONDS (default 300) is how long each fuzzer runs (-max_total_time). The
# build directory is build-fuzz (or $SKC_FUZZ_BUILD_DIR), configured with
# clang 22 and -DSKC_ENABLE_FUZZERS=ON if it is not yet. Under it,
# test/fuzz/ holds the seeds (from PyTorch's files), the growing corpora, the logs and
# any crash artifacts. Exits non-zero if a fuzzer found a problem; add the
# reproducer, fixed, under test/fuzz/regressions/<fuzzer>/.
set -euo pipefail

seconds=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SKC_FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${SKC_FUZZ_JOBS:-2}

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DSKC_ENABLE_FUZZERS=ON
fi
cmake --build "$build" -j "$jobs" \
  --target skc-fuzz-schema skc-fuzz-yaml skc-fuzz-safetensors skc-fuzz-corpus

fuzz=$build/test/fuzz
status=0
# One fuzzer at a time, each with its own -max_len: a func: string is at
# most a few hundred bytes, a seed file of entries 4 KiB (one lone entry 6),
# a safetensors file of a few tensors under 4 KiB.
for spec in skc-fuzz-schema:1024 skc-fuzz-yaml:8192 \
            skc-fuzz-safetensors:4096; do
  name=${spec%%:*}
  max_len=${spec##*:}
  corpus=$fuzz/corpus/$name
  artifacts=$fuzz/artifacts/$name
  mkdir -p "$corpus" "$artifacts"
  # The first folder is the working corpus, where libFuzzer adds inputs; the
  # seeds and the committed regressions are only read.
  inputs=("$corpus")
  # Seeds from PyTorch's files (skc-fuzz-corpus), where the fuzzer has them.
  if [[ -d "$fuzz/seeds/$name" ]]; then
    inputs+=("$fuzz/seeds/$name")
  fi
  if [[ -d "$root/test/fuzz/regressions/$name" ]]; then
    inputs+=("$root/test/fuzz/regressions/$name")
  fi
  echo "== $name: $seconds s, -max_len=$max_len"
  if ! "$fuzz/$name" "${inputs[@]}" -dict="$root/test/fuzz/$name.dict" \
      -max_total_time="$seconds" -max_len="$max_len" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" 2>&1 | tee "$fuzz/$name.log"; then
    echo "== $name FAILED; see $fuzz/$name.log and $artifacts/"
    status=1
  fi
done
exit $status
