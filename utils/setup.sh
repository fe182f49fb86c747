#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test skc.
# Quick when nothing is missing: it asks dpkg first and runs apt-get only for
# the packages that are not installed yet.
set -euo pipefail

packages=(
  # Compiler libraries: LLVM Support, Clang LibTooling, clang 22 for the
  # fuzzers, lit/FileCheck/split-file for the lit suite.
  llvm-22-dev libclang-22-dev clang-22 llvm-22-tools libclang-rt-22-dev
  # OpenMP for clang builds (the fuzzers build the runtime with clang 22).
  libomp-22-dev
  # Schema files are YAML.
  libyaml-cpp-dev
  # Runtime: SIMD inner loops. Kernel library: matrix products, on OpenBLAS's
  # OpenMP build (one thread pool with the runtime's; cmake/SkcOpenBLAS.cmake).
  libhwy-dev libopenblas-openmp-dev
  # Checkpoints (runtime/sk/serialize): safetensors headers are JSON.
  # Interop (runtime/sk/interop): DLPack's header.
  libsimdjson-dev libdlpack-dev
  # Build and test drivers.
  cmake ninja-build libgtest-dev libbenchmark-dev python3 python3-venv
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# A real LSP client for skc-lsp's end-to-end test (pytest-lsp, from PyPI),
# in a virtual environment of its own (CMake's SKC_PYTHON_TOOLS_DIR). The
# test skips, saying why, when this cannot be installed.
tools=${SKC_PYTHON_TOOLS_DIR:-"$HOME/.cache/skc/python"}
if ! "$tools/bin/python" -c "import pytest_lsp" 2>/dev/null; then
  echo "setup: installing pytest-lsp into $tools"
  if ! { python3 -m venv "$tools" &&
         "$tools/bin/pip" install --quiet --disable-pip-version-check \
           pytest-lsp==1.0.1 pygls==2.1.1 lsprotocol==2025.0.0 \
           pytest==9.2.0 pytest-asyncio==1.5.0; }; then
    echo "setup: could not install pytest-lsp; its test will be skipped"
  fi
fi

# Python's safetensors (the format's reference implementation) and numpy,
# beside pytest-lsp, for the safetensors compatibility test, which skips,
# saying why, when they cannot be installed.
if ! "$tools/bin/python" -c "import safetensors.numpy" 2>/dev/null; then
  echo "setup: installing safetensors and numpy into $tools"
  if ! { [[ -x "$tools/bin/pip" ]] || python3 -m venv "$tools"; } ||
     ! "$tools/bin/pip" install --quiet --disable-pip-version-check \
         safetensors==0.8.0 numpy==2.4.6; then
    echo "setup: could not install safetensors; its test will be skipped"
  fi
fi

# libtorch 2.x from PyPI's torch wheel, the differential test's reference
# (utils/fetch-libtorch.sh; quick once it is in the cache). The test skips,
# saying why, when this cannot be fetched.
if ! "$(dirname "$0")/fetch-libtorch.sh" >/dev/null; then
  echo "setup: could not fetch libtorch; the differential test will be skipped"
fi
