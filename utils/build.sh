#!/usr/bin/env bash
# The main job: install what is missing, configure and build skc, then run it
# over the bundled schemas (PyTorch 1.13's native_functions.yaml, from
# ../shared). Usage: utils/build.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}

"$root/utils/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
cmake --build "$build" --target skc-main
