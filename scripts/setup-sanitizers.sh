#!/usr/bin/env bash
# Configures and builds the instrumented variant in ./build-san (or
# $SAN_BUILD_DIR): Debian's clang-22 with AddressSanitizer + UBSan
# (-fno-sanitize-recover=all: the first report aborts) and libFuzzer
# coverage (-fsanitize=fuzzer-no-link) on project code only; libMLIR.so and
# libLLVM.so stay uninstrumented. The libFuzzer harnesses (fuzz/) are built
# here too. Installs clang-22 and its runtimes only when this is used.
# Used by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(clang-22 libclang-rt-22-dev)   # compiler, ASan/UBSan/libFuzzer runtimes
bash scripts/install-missing.sh "${PACKAGES[@]}"

BUILD_DIR=${SAN_BUILD_DIR:-build-san}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== configuring $BUILD_DIR (clang-22, address + undefined, fuzzers)"
  # LLVM's own UBSan set minus vptr and function: both compare type info
  # across the uninstrumented libMLIR.so/libLLVM.so boundary and report
  # false mismatches there (LLVM builds itself the same way).
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DLLVM_USE_SANITIZER="Address;Undefined" \
    -DLLVM_UBSAN_FLAGS="-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all" \
    -DLLVM_USE_SANITIZE_COVERAGE=ON \
    -DDLA_ENABLE_FUZZERS=ON \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
echo "== building $BUILD_DIR: ${*:-all}"
ninja -C "$BUILD_DIR" "$@"
