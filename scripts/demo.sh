#!/usr/bin/env bash
# The main job: set up, build dla-opt, and pack a weight constant into the
# HTP crouton layout. The output shows the packed byte image.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dla-opt
echo "== dla-opt --dla-pack-weights examples/pack-crouton.mlir"
./build/bin/dla-opt --dla-pack-weights examples/pack-crouton.mlir
