#!/usr/bin/env bash
# Every check of the CUDA backend that needs a GPU, in one run: the CUDA
# kernel tests, the generated MetaConsistency_CUDA tests and the runtime's
# CUDA tests; all three again under compute-sanitizer's memcheck,
# racecheck and initcheck; the differential test on CUDA against
# the CPU kernels and, where python3 imports PyTorch, against PyTorch's
# CUDA kernels (in shards, each with its own python3); all of these side by
# side, then skc-bench-kernels-cuda alone. Each run's log goes into the
# output folder; a summary goes to stdout.
#
# Usage: utils/run-cuda-checks.sh [options] BINARIES
#   BINARIES     a build folder, or the bin/ of utils/pack-cuda-checks.sh's
#                archive (whose lib/, beside it, is put on LD_LIBRARY_PATH)
#   --out DIR        the logs' folder (default: cuda-checks)
#   --timeout S      each check's limit in seconds (default: 600)
#   --bench-timeout S  the benchmark's limit (default: 600; 0 skips it)
#   --shards N       processes for the differential test against PyTorch
#                    (default: 6; with 1, the test also fails on each
#                    difference docs/kernels.md lists that no case showed)
#   --dry-run        print each check's command instead of running it
#
# PyTorch's side runs SKC_TORCH_PYTHON (default: python3). Exits 1 when a
# check fails or runs out of time, 2 on a usage error or a program that
# cannot start. Without a GPU the checks skip, as the test suite does.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=cuda-checks limit=600 bench_limit=600 shards=6 dry=0 bins=""
usage() { echo "run-cuda-checks: $1 (--help)" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --out|--timeout|--bench-timeout|--shards)
      [[ $# -ge 2 ]] || usage "$1 needs a value"
      case $1 in
        --out) out=$2 ;;
        --timeout) limit=$2 ;;
        --bench-timeout) bench_limit=$2 ;;
        --shards) shards=$2 ;;
      esac
      shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) usage "unknown option $1" ;;
    *) [[ -d $1 ]] || usage "no folder $1"
       bins=$(cd "$1" && pwd); shift ;;
  esac
done
[[ -n $bins ]] || usage "which binaries?"
[[ $shards =~ ^[1-9][0-9]*$ ]] || usage "--shards takes a positive count"
# The shards' variables are this script's to set.
unset GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX

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
programs=("$kernel_tests" "$runtime_tests" "$meta_tests" "$differential" "$bench")

# The archive's libraries are for skc's programs alone: PyTorch's python3
# gets the caller's LD_LIBRARY_PATH back, through this wrapper.
libs=""
[[ $(basename "$bins") == bin && -d $bins/../lib ]] && libs=$(cd "$bins/../lib" && pwd)
programs_path=$libs${LD_LIBRARY_PATH:+${libs:+:}$LD_LIBRARY_PATH}
work=$(mktemp -d)
python=${SKC_TORCH_PYTHON:-python3}
{
  echo '#!/usr/bin/env bash'
  if [[ -n ${LD_LIBRARY_PATH+set} ]]; then
    echo "export LD_LIBRARY_PATH=$(printf %q "$LD_LIBRARY_PATH")"
  else
    echo 'unset LD_LIBRARY_PATH'
  fi
  echo "exec $(printf %q "$python") \"\$@\""
} > "$work/python3"
chmod +x "$work/python3"
export SKC_TORCH_PYTHON=$work/python3
export SKC_TORCH_CUDA_SCRIPT=$root/test/differential/torch_cuda.py
export SKC_KERNELS_DOC=$root/docs/kernels.md
sanitizer=$(command -v compute-sanitizer ||
            ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
bench_command=("$bench" --order=torch-first "--python=$work/python3"
               "--torch-script=$SKC_TORCH_CUDA_SCRIPT")

# Runs a check into $out/NAME.log under timeout (its pid in NAME.pid, for
# an interrupt), line-buffered so that a check stopped at its limit keeps
# what it printed; its exit code goes into $work/NAME.rc.
check() {
  local name=$1; shift
  LD_LIBRARY_PATH=$programs_path timeout -k 30 "$limit" stdbuf -oL -eL "$@" \
    > "$out/$name.log" 2>&1 &
  echo $! > "$work/$name.pid"
  wait $!
  echo $? > "$work/$name.rc"
}
names=()
# Starts a check beside the others (--dry-run: prints it).
launch() {
  names+=("$1")
  if [[ $dry == 1 ]]; then
    echo "$1: ${GTEST_SHARD_INDEX:+shard $GTEST_SHARD_INDEX of $GTEST_TOTAL_SHARDS: }${*:2}"
  else
    check "$@" &
  fi
}
# An interrupt stops the checks too: timeout runs each in a process group
# of its own, which a ^C at the terminal does not reach.
stop() {
  for pid in "$work"/*.pid; do
    [[ -e $pid ]] && kill -TERM "$(cat "$pid")" 2>/dev/null
  done
  wait
  exit 130
}
trap stop INT TERM
trap 'rm -rf "$work"' EXIT

if [[ $dry == 0 ]]; then
  mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
  # A library the loader cannot find fails every check alike; say which.
  missing=$(for p in "${programs[@]}"; do
              LD_LIBRARY_PATH=$programs_path ldd "$p" | grep 'not found'
            done | sort -u)
  if [[ -n $missing ]]; then
    echo "run-cuda-checks: libraries not found (the CUDA toolkit's lib64 on LD_LIBRARY_PATH?):" >&2
    echo "$missing" >&2
    exit 2
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
    2>/dev/null || echo "nvidia-smi: none"
  "$work/python3" -c 'import torch; print("PyTorch", torch.__version__)' \
    2>/dev/null || echo "PyTorch: none"
fi

start=$SECONDS
launch kernels "$kernel_tests"
launch runtime "$runtime_tests"
launch meta "$meta_tests" --gtest_filter='MetaConsistency_CUDA.*'
if [[ -n $sanitizer ]]; then
  for tool in memcheck racecheck initcheck; do
    # The large-tensor tests would take the sanitizers minutes over each
    # of their several GB; they run, unsanitized, in "kernels".
    launch "$tool-kernels" "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "$kernel_tests" --gtest_filter='-CUDALargeTensorTest.*' --gtest_brief=1
    launch "$tool-runtime" "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "$runtime_tests" --gtest_brief=1
    launch "$tool-meta" "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "$meta_tests" --gtest_filter='MetaConsistency_CUDA.*' --gtest_brief=1
  done
fi
launch differential-cpu "$differential" \
  --gtest_filter='*/DifferentialCUDA.*'
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i launch "differential-torch-$i" \
    "$differential" --gtest_filter='*/DifferentialTorchCUDA.*'
done
if [[ $dry == 1 ]]; then
  [[ $bench_limit == 0 ]] || echo "bench: ${bench_command[*]}"
  exit 0
fi
wait
[[ -n $sanitizer ]] || echo "compute-sanitizer: none; the sanitizer runs skipped"
echo "checks: $((SECONDS - start)) s"

# The summary: each check's exit code and GoogleTest's or the sanitizer's
# closing lines.
failed=0
for name in "${names[@]}"; do
  code=$(cat "$work/$name.rc" 2>/dev/null || echo none)
  case $code in
    0) state=passed ;;
    124|137) state="out of time (${limit} s)" failed=1 ;;
    none) state="no exit code" failed=1 ;;
    *) state="failed ($code)" failed=1 ;;
  esac
  echo "== $name: $state"
  grep -hE '^\[  (PASSED|SKIPPED|FAILED) +\] [0-9]+ test|^\[  FAILED  \] [A-Za-z]|ERROR SUMMARY|RACECHECK SUMMARY|^\[ differential \]' \
    "$out/$name.log" | head -20
done

if [[ $bench_limit != 0 ]]; then
  start=$SECONDS
  LD_LIBRARY_PATH=$programs_path timeout -k 30 "$bench_limit" stdbuf -oL \
    "${bench_command[@]}" > "$out/bench.log" 2>&1 &
  echo $! > "$work/bench.pid"
  wait $!
  code=$?
  echo "== bench: exit $code, $((SECONDS - start)) s"
  [[ $code == 0 ]] || failed=1
  sed -n '/^| operator, shape/,$p' "$out/bench.log"
fi
exit $failed
