#!/usr/bin/env bash
# ThreadSanitizer over --dla-pack-weights' parallel phase (issue 9; not part
# of CI): builds dla-opt with -fsanitize=thread in ./build-tsan (clang-22;
# libMLIR.so/libLLVM.so uninstrumented, their mutexes and thread creation
# seen through TSan's pthread interceptors) and packs a module of many
# constants of every encoding family on the context thread pool.
# Usage: scripts/tsan-pack-weights.sh [COPIES]   (module size: 14 x COPIES constants)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${TSAN_BUILD_DIR:-build-tsan}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DLLVM_USE_SANITIZER=Thread -DDLA_ENABLE_TESTS=OFF \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
ninja -j2 -C "$BUILD_DIR" dla-opt
module=$(mktemp --suffix=.mlir)
/usr/bin/python3 utils/tsan/many_constants.py --copies "${1:-16}" > "$module"
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1"
# The pool has one thread per core; several runs, several interleavings.
for run in 1 2 3; do
  echo "== run $run: $(grep -c 'dla.relayout' "$module") relayouts of constants"
  "$BUILD_DIR/bin/dla-opt" "$module" --dla-pack-weights -o /dev/null
done
rm -f "$module"
echo "tsan: no data race reported"
