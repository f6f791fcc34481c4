#!/usr/bin/env bash
# Test-only dependency: onnxruntime-node from the npm registry, the numeric
# reference the ONNX model checks compare with. Prints the package directory
# (for ONNXRUNTIME_NODE). Cached under $DLA_CACHE (default
# ~/.cache/dla-mlir); the tarball's SHA-256 is pinned.
#
# 1.20.1 is the newest release whose npm tarball still bundles the linux-x64
# native binding (bin/napi-v3/linux/x64); later ones download it from GitHub
# in an install script, which this machine cannot reach. The install script
# (CUDA downloads only) is skipped with --ignore-scripts. With --cached it
# prints the directory only if it is already installed (no network).
set -euo pipefail
VERSION=1.20.1
SHA256=0d8e3928e14fd4e2bdcf4feabbd5db689ba980ccabb9c806f43a303cdc13c5a5
CACHE=${DLA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dla-mlir}
DIR="$CACHE/onnxruntime-node-$VERSION"
PKG="$DIR/node_modules/onnxruntime-node"

installed() { [ -f "$PKG/bin/napi-v3/linux/x64/onnxruntime_binding.node" ]; }
# --cached: no network; print the directory only if it is installed (lit).
if [ "${1:-}" = --cached ]; then installed && echo "$PKG"; exit $?; fi
if ! installed; then
  command -v npm >/dev/null || { echo "fetch-onnxruntime: npm is missing (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$CACHE"
  tgz="$CACHE/onnxruntime-node-$VERSION.tgz"
  if [ ! -f "$tgz" ] || ! echo "$SHA256  $tgz" | sha256sum -c --quiet - 2>/dev/null; then
    echo "== fetching onnxruntime-node $VERSION from npm (70 MB, once)" >&2
    (cd "$CACHE" && npm pack --silent "onnxruntime-node@$VERSION" >/dev/null)
  fi
  echo "$SHA256  $tgz" | sha256sum -c --quiet - || { echo "fetch-onnxruntime: checksum mismatch for $tgz" >&2; rm -f "$tgz"; exit 1; }
  rm -rf "$DIR"
  npm install --silent --ignore-scripts --no-audit --no-fund --prefix "$DIR" "$tgz" >&2
fi
echo "$PKG"
