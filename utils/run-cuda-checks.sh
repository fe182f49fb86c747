#!/usr/bin/env bash
# Every check of the CUDA backend that needs a GPU, in one run: the CUDA
# tests, the generated MetaConsistency_CUDA tests and the runtime's CUDA
# tests; the kernel tests again under compute-sanitizer's memcheck, racecheck
# and initcheck; the differential test on CUDA against the CPU kernels and,
# where python3 imports PyTorch, against PyTorch's CUDA kernels (in shards,
# each with its own python3); all of these side by side, then
# skc-bench-kernels-cuda alone. Each run's log goes into the output folder;
# a summary goes to stdout.
#
# Usage: utils/run-cuda-checks.sh [options] BINARIES
#   BINARIES     a build folder, or the bin/ of utils/pack-cuda-checks.sh's
#                archive (whose lib/, beside it, is put on LD_LIBRARY_PATH)
#   --out DIR        the logs' folder (default: cuda-checks)
#   --timeout S      each check's limit in seconds (default: 600)
#   --bench-timeout S  the benchmark's limit (default: 600; 0 skips it)
#   --shards N       processes for the differential test against PyTorch
#                    (default: 6)
#   --dry-run        print each check's command instead of running it
#
# Exits 1 when a check fails or runs out of time. Without a GPU the checks
# skip, as the test suite does.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=cuda-checks limit=600 bench_limit=600 shards=6 dry=0 bins=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --bench-timeout) bench_limit=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-cuda-checks: unknown option $1" >&2; exit 2 ;;
    *) [[ -d $1 ]] || { echo "run-cuda-checks: no folder $1" >&2; exit 2; }
       bins=$(cd "$1" && pwd); shift ;;
  esac
done
[[ -n $bins ]] || { echo "run-cuda-checks: which binaries? (--help)" >&2; exit 2; }
[[ $dry == 1 ]] || { mkdir -p "$out" && out=$(cd "$out" && pwd); }

# A program of the build folder or of the archive's flat bin/.
find_binary() {
  local name=$1 rel=$2
  for p in "$bins/$rel/$name" "$bins/$name"; do
    [[ -x $p ]] && { echo "$p"; return; }
  done
  echo "run-cuda-checks: no $name in $bins" >&2
  exit 2
}
kernel_tests=$(find_binary skc-kernel-cuda-tests test/kernels/cuda) || exit 2
runtime_tests=$(find_binary skc-runtime-cuda-tests test/runtime/cuda) || exit 2
meta_tests=$(find_binary skc-kernel-meta-tests test/kernels) || exit 2
differential=$(find_binary skc-differential-tests test/differential) || exit 2
bench=$(find_binary skc-bench-kernels-cuda bench) || exit 2

# The archive's libraries are for skc's programs alone: PyTorch's python3
# runs with its own, through this wrapper.
libs=""
[[ $(basename "$bins") == bin && -d $bins/../lib ]] && libs=$(cd "$bins/../lib" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\nunset LD_LIBRARY_PATH\nexec python3 "$@"\n' > "$work/python3"
chmod +x "$work/python3"
export SKC_TORCH_PYTHON=$work/python3
export SKC_TORCH_CUDA_SCRIPT=$root/test/differential/torch_cuda.py
export SKC_KERNELS_DOC=$root/docs/kernels.md
sanitizer=$(command -v compute-sanitizer ||
            ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)

if [[ $dry == 0 ]]; then
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  2>/dev/null || echo "nvidia-smi: none"
"$work/python3" -c 'import torch; print("PyTorch", torch.__version__)' \
  2>/dev/null || echo "PyTorch: none"
fi

# Runs a check into $out/NAME.log, line-buffered so that a check stopped at
# its limit keeps what it printed; its exit code goes into $work/NAME.rc.
check() {
  local name=$1; shift
  LD_LIBRARY_PATH=$libs${libs:+:}${LD_LIBRARY_PATH:-} \
    timeout "$limit" stdbuf -oL -eL "$@" > "$out/$name.log" 2>&1
  echo $? > "$work/$name.rc"
}
# Starts a check beside the others (--dry-run: prints it).
launch() {
  if [[ $dry == 1 ]]; then
    echo "$1: ${GTEST_SHARD_INDEX:+shard $GTEST_SHARD_INDEX of $GTEST_TOTAL_SHARDS: }${*:2}"
  else
    check "$@" &
  fi
}

start=$SECONDS
launch kernels "$kernel_tests"
launch runtime "$runtime_tests"
launch meta "$meta_tests" --gtest_filter='MetaConsistency_CUDA.*'
if [[ -n $sanitizer ]]; then
  for tool in memcheck racecheck initcheck; do
    launch "$tool" "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "$kernel_tests" --gtest_brief=1
  done
fi
launch differential-cpu "$differential" \
  --gtest_filter='*/DifferentialCUDA.*'
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i launch "differential-torch-$i" \
    "$differential" --gtest_filter='*/DifferentialTorchCUDA.*'
done
wait
if [[ $dry == 1 ]]; then
  [[ $bench_limit == 0 ]] || echo "bench: $bench --order=torch-first"
  exit 0
fi
[[ -n $sanitizer ]] || echo "compute-sanitizer: none; the sanitizer runs skipped"
echo "checks: $((SECONDS - start)) s"

# The summary: each check's exit code and GoogleTest's or the sanitizer's
# closing lines.
failed=0
for rc in "$work"/*.rc; do
  name=$(basename "$rc" .rc) code=$(cat "$rc")
  case $code in
    0) state=passed ;;
    124) state="out of time (${limit} s)" failed=1 ;;
    *) state="failed ($code)" failed=1 ;;
  esac
  echo "== $name: $state"
  grep -hE '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ test|^\[  FAILED  \] [A-Za-z]|ERROR SUMMARY|RACECHECK SUMMARY|^\[ differential \]' \
    "$out/$name.log" | head -20
done

if [[ $bench_limit != 0 ]]; then
  start=$SECONDS
  LD_LIBRARY_PATH=$libs${libs:+:}${LD_LIBRARY_PATH:-} \
    timeout "$bench_limit" stdbuf -oL "$bench" --order=torch-first \
      --python="$work/python3" --torch-script="$SKC_TORCH_CUDA_SCRIPT" \
      > "$out/bench.log" 2>&1
  code=$?
  echo "== bench: exit $code, $((SECONDS - start)) s"
  [[ $code == 0 ]] || failed=1
  sed -n '/^| operator, shape/,$p' "$out/bench.log"
fi
exit $failed
