#!/usr/bin/env bash
# Fetches libtorch, the C++ library inside PyPI's `torch` wheel, into a cache
# outside the repository, for the benchmarks' and the differential test's
# reference (docs/performance.md, docs/kernels.md). Only the wheel's
# torch/include and torch/lib are unpacked; the wheel itself is deleted.
#
#   utils/fetch-libtorch.sh [VERSION]      (default 2.15.0)
#
# Prints the directory, which CMake finds by itself at its default place
# ($HOME/.cache/skc/libtorch-VERSION) or takes as -DSKC_LIBTORCH_DIR=DIR.
# The CPU parts of the wheel need the CUDA toolkit's libcudart.so.13 and
# libcupti.so.13 at run time, which CMake puts in the programs' RPATH.
set -euo pipefail

version=${1:-2.15.0}
cache=${SKC_LIBTORCH_CACHE:-"$HOME/.cache/skc"}
dest="$cache/libtorch-$version"

if [[ -f "$dest/.complete" ]]; then
  echo "$dest"
  exit 0
fi

work=$(mktemp -d "$cache/.libtorch-$version.XXXXXX" 2>/dev/null ||
       { mkdir -p "$cache" && mktemp -d "$cache/.libtorch-$version.XXXXXX"; })
trap 'rm -rf "$work"' EXIT

echo "fetch-libtorch: downloading torch==$version from PyPI" >&2
python3 -m pip download --quiet --disable-pip-version-check --no-deps \
  --only-binary=:all: --platform manylinux_2_28_x86_64 \
  --python-version 3.11 --dest "$work" "torch==$version" >&2
wheel=$(ls "$work"/torch-*.whl)

echo "fetch-libtorch: unpacking torch/include and torch/lib" >&2
python3 - "$wheel" "$work/unpacked" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(("torch/include/", "torch/lib/")):
            z.extract(name, out)
PY
rm -f "$wheel"

rm -rf "$dest"
mv "$work/unpacked/torch" "$dest"
touch "$dest/.complete"
echo "$dest"
