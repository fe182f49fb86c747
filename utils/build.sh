#!/usr/bin/env bash
# The main job: install what is missing, configure and build skc, run it
# over PyTorch 2.15's native_functions.yaml (third_party/pytorch-2.15), then
# run the Llama demo (examples/llama: Llama 2 70B's forward
# pass on meta tensors, a small model of it on CPU).
# Usage: utils/build.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}

"$root/utils/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
cmake --build "$build" --target skc-main
