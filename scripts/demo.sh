#!/usr/bin/env bash
# The main job: set up and build what it needs, then compile PaddleOCR's text-direction
# classifier (fetched and cached by the setup) for NVDLA nv_full in fp16
# with dla-compile and print what it made: layers offloaded, relayouts,
# weight bytes, the loadable, and where the bundle and its report are.
#
# DLA_DEMO_OUT: the bundle's directory (default build/demo/cls-nv_full).
# DLA_DEMO_SKIP_SETUP=1: use BUILD_DIR (default build) as it is (the test).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ "${DLA_DEMO_SKIP_SETUP:-0}" != 1 ]; then
  # Only what this runs: no test-only packages, no NVIDIA C models.
  BUILD_DIR="$BUILD_DIR" bash scripts/setup.sh --demo
fi
model="$BUILD_DIR/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
out=${DLA_DEMO_OUT:-$BUILD_DIR/demo/cls-nv_full}
[ -f "$model" ] || { echo "demo: $model is missing (scripts/fetch-models.sh could not fetch it)" >&2; exit 1; }
echo "== dla-compile $(basename "$model") --target nv_full --precision fp16 --input-shape x=1x3x48x192 -o $out"
"$BUILD_DIR/bin/dla-compile" "$model" --target nv_full --precision fp16 \
  --input-shape x=1x3x48x192 -o "$out"
echo "== open $out/report.html in a browser; $out/model.nvdla is the loadable NVIDIA's runtime runs (nvdla_runtime --loadable), $out/manifest.json and $out/weights/ what a runtime of your own reads"
