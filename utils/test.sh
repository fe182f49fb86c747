#!/usr/bin/env bash
# The whole test suite: builds what is stale, then runs every suite through
# CTest (lit + FileCheck, GoogleTest). Usage: utils/test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}

"$root/utils/setup.sh"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
