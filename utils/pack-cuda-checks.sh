#!/usr/bin/env bash
# Builds the programs of utils/run-cuda-checks.sh and packs them, with the
# shared libraries they link that a GPU machine may lack (OpenBLAS, Highway,
# simdjson, Google Benchmark, ...), into one archive, for a GPU machine that
# has the CUDA driver and toolkit and a checkout of the same commit but no
# compiler. The build has no libtorch: the differential test's libtorch half
# is a CPU check, and its CUDA halves need none.
#
# Usage: utils/pack-cuda-checks.sh [BUILD_DIR [ARCHIVE]]
#   (defaults: build-cuda-checks, cuda-checks.tar.xz)
# There: tar -xJf cuda-checks.tar.xz && utils/run-cuda-checks.sh cuda-checks/bin
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build-cuda-checks"}
archive=${2:-cuda-checks.tar.xz}
programs=(
  test/kernels/cuda/skc-kernel-cuda-tests
  test/runtime/cuda/skc-runtime-cuda-tests
  test/kernels/skc-kernel-meta-tests
  test/differential/skc-differential-tests
  bench/skc-bench-kernels-cuda
)

if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSKC_ENABLE_CUDA=ON -DSKC_LIBTORCH_DIR="$build/no-libtorch"
fi
cmake --build "$build" --target "${programs[@]##*/}"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/cuda-checks/bin" "$stage/cuda-checks/lib"
for p in "${programs[@]}"; do
  cp "$build/$p" "$stage/cuda-checks/bin/"
done
strip --strip-debug "$stage"/cuda-checks/bin/*
# The C and C++ runtimes and the driver are the machine's own; the CUDA
# toolkit's libraries come with its toolkit (or PyTorch's wheels), which
# utils/run-cuda-checks.sh expects on LD_LIBRARY_PATH there.
deps=$(for p in "$stage"/cuda-checks/bin/*; do ldd "$p"; done)
if missing=$(grep 'not found' <<< "$deps"); then
  echo "pack-cuda-checks: libraries not found here:" >&2
  echo "$missing" | sort -u >&2
  exit 1
fi
awk '/=> \//{print $3}' <<< "$deps" | sort -u |
  grep -vE '/(ld-linux|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas|libcublasLt|libcurand|libnvrtc|libnvJitLink)[.-]' |
  while read -r lib; do cp -L "$lib" "$stage/cuda-checks/lib/"; done
# One dictionary over all the programs: they share the kernel library's
# device code, which a small window would compress once per program.
tar -C "$stage" -cf - cuda-checks |
  xz -T0 --lzma2=preset=9,dict=256MiB > "$archive.tmp"
mv "$archive.tmp" "$archive"
echo "pack-cuda-checks: $archive ($(du -h "$archive" | cut -f1)) for $(git -C "$root" rev-parse --short HEAD)"
