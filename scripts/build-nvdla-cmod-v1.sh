#!/usr/bin/env bash
# NVIDIA's NVDLA v1 hardware C model (nvdla/hw branch nvdlav1: nv_full,
# libnvdla_cmod.so, SystemC) and the project's trace player linked against
# it: what the lit tests of test/NvdlaCModelV1 run, and what
# scripts/build-nvdla-runtime.sh links its nv_full harness with.
# docs/NvdlaCModelV1.md tells the story; ../shared/nvdla-hw-v1/BUILDING.md
# the facts this script follows.
#
# Sources: $NVDLA_HW_V1_DIR, else ../shared/nvdla-hw-v1 beside the checkout
# (read-only, copied); the ac_types 3.9 headers of the master tree
# ($NVDLA_HW_DIR, else ../shared/nvdla-hw: cmod/hls/include), which
# replace v1's 3.7 ones (g++ 12 rejects those) through an overlay folder
# first on the include path. The library is cached under $DLA_CACHE
# (default ~/.cache/dla-mlir) by a key over those sources, the compiler,
# SystemC and the recipe; the player goes to BUILD_DIR/nvdla-cmod-v1.
# Exits non-zero saying UNSUPPORTED and why when it cannot build;
# BUILD_DIR/nvdla-cmod-v1 is then removed, so its tests are UNSUPPORTED,
# never passed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${1:-${BUILD_DIR:-build}}
CACHE=${DLA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dla-mlir}
OUT=$BUILD_DIR/nvdla-cmod-v1
JOBS=${DLA_CMOD_JOBS:-2}
PACKAGES=(g++ make cpp libsystemc-dev zlib1g-dev)
# BUILDING.md: C++17 (Debian's SystemC exports only the C++17 API symbol);
# the overlay folder goes first on the include path (-I<overlay> before these).
CMOD_FLAGS='$(INC_FLAGS) -MMD -MP -fPIC -Wall -Werror -DSC_INCLUDE_DYNAMIC_PROCESSES -Wp,-w -std=c++17 -O2'
# v1's own headers the overlay copies (identical in v1 and master), and the
# ac_types 3.9 headers it takes from master.
OVERLAY_V1=(nvdla_common.h nvdla_int.h nvdla_float.h)
OVERLAY_AC=(ac_int.h ac_fixed.h ac_channel.h)

. scripts/nvdla-tree-make.sh
say() { echo "== nvdla-cmod-v1: $*" >&2; }
give_up() { say "UNSUPPORTED: $* -- the v1 C model tests will be UNSUPPORTED"; rm -rf "$OUT"; exit 1; }

bash scripts/install-missing.sh "${PACKAGES[@]}" >&2 || give_up "cannot install ${PACKAGES[*]}"
mkdir -p "$CACHE"
exec 9>"$CACHE/nvdla-cmod-v1.lock"
flock 9

# --- sources -------------------------------------------------------------
SRC=""
for cand in "${NVDLA_HW_V1_DIR:-}" "$(dirname "$ROOT")/shared/nvdla-hw-v1"; do
  if [ -n "$cand" ] && [ -f "$cand/cmod/Makefile" ] && [ -d "$cand/verif/traces/traceplayer" ]; then
    SRC=$(cd "$cand" && pwd); break
  fi
done
[ -n "$SRC" ] || give_up "no v1 sources: neither \$NVDLA_HW_V1_DIR nor ../shared/nvdla-hw-v1 (nvdla/hw branch nvdlav1)"
AC=""
for cand in "${NVDLA_HW_DIR:-}" "$(dirname "$ROOT")/shared/nvdla-hw"; do
  if [ -n "$cand" ] && [ -f "$cand/cmod/hls/include/ac_int.h" ]; then AC=$(cd "$cand/cmod/hls/include" && pwd); break; fi
done
[ -n "$AC" ] || give_up "no ac_types 3.9 headers (../shared/nvdla-hw/cmod/hls/include): v1's own 3.7 ones do not compile with g++ 12"

# --- cache key: sources, overlay, compiler, SystemC, recipe ---------------
RECIPE=2 # bump when the build steps below change
# The debug-message filter forced into every model source (its header says why).
FILTER=tools/nvdla-trace-player/log_filter.h
key=$( { (cd "$SRC" && find cmod tools LICENSE Makefile VERSION -type f -print0 | LC_ALL=C sort -z |
           xargs -0 sha256sum)
         sha256sum < "$FILTER"
         (cd "$AC" && sha256sum "${OVERLAY_AC[@]}")
         g++ --version | head -1
         dpkg-query -W -f='${Version}\n' libsystemc-dev
         echo "$RECIPE $CMOD_FLAGS ${OVERLAY_V1[*]} ${OVERLAY_AC[*]}"; } | sha256sum | cut -c1-16)
LIBS="$CACHE/nvdla-cmod-v1-$key"

if [ ! -f "$LIBS/done" ]; then
  say "building the v1 C model (nv_full) in $LIBS (about 4 minutes on 2 idle cores, 14 under load; once)"
  rm -rf "$LIBS"; mkdir -p "$LIBS"
  work="$LIBS/src"
  # The shared tree is read-only and the build writes beside its sources.
  mkdir -p "$work" && (cd "$SRC" && cp -r cmod tools LICENSE Makefile VERSION "$work/") && chmod -R u+w "$work"
  overlay="$work/overlay"
  mkdir -p "$overlay"
  for h in "${OVERLAY_AC[@]}"; do cp "$AC/$h" "$overlay/"; done
  for h in "${OVERLAY_V1[@]}"; do cp "$SRC/cmod/hls/include/$h" "$overlay/"; done
  cp "$FILTER" "$overlay/"
  # tree.make, normally written by interactive prompts (BUILDING.md).
  write_tree_make "$work/tree.make" /usr/bin/g++ nv_full
  log="$LIBS/nv_full.log"
  say "nv_full: libnvdla_cmod.so, log in $log"
  # BUILD_DIR must end in /cmod; name the .so target (the default one
  # races its install step against the link).
  if ! (cd "$work" &&
        nice -n 10 make -j"$JOBS" -C cmod PROJECT=nv_full SYSTEMC_LIB_DIR=/usr/lib/x86_64-linux-gnu \
          BUILD_DIR=../outdir/nv_full/O2/cmod "CPPFLAGS=-I$overlay $CMOD_FLAGS -include $overlay/log_filter.h" \
          ../outdir/nv_full/O2/cmod/libnvdla_cmod.so) > "$log" 2>&1; then
    tail -20 "$log" >&2
    give_up "nv_full: the v1 C model build failed (log: $log)"
  fi
  mkdir -p "$LIBS/nv_full" "$LIBS/include"
  cp "$work/outdir/nv_full/O2/cmod/libnvdla_cmod.so" "$LIBS/nv_full/"
  # v1 checks its register header in (no tmake step): arnvdla.h.
  cp "$work/cmod/include/arnvdla.h" "$LIBS/nv_full/"
  # What the player includes: NV_nvdla.h and its two headers.
  cp "$work/cmod/nvdla_top/NV_nvdla.h" "$work/cmod/include/NV_nvdla_top_base.h" \
     "$work/cmod/include/scsim_common.h" "$LIBS/include/"
  rm -rf "$work" # objects
  echo "$SRC" > "$LIBS/done"
fi

# --- the trace player ---------------------------------------------------------
# Built here, not by CMake, like the master one (scripts/build-nvdla-cmod.sh):
# v1's input.txn format in tools/nvdla-trace-player/v1, the memory, the
# register map, the CSB access and the report filter shared with it.
mkdir -p "$OUT"
ln -sfn "$SRC/verif/traces/traceplayer" "$OUT/traces"
# The cached library and headers (scripts/build-nvdla-runtime.sh links them).
ln -sfn "$LIBS" "$OUT/lib"
P=tools/nvdla-trace-player
REPORT=_ZN7sc_core17sc_report_handler6reportENS_11sc_severityEPKcS3_iS3_i
# link_player BIN DEFINE... -- SOURCE...: BIN linked against the cached
# library when its sources, the headers, this script or the key changed.
link_player() {
  local bin=$1 defines=() stale=0
  shift
  while [ "$1" != -- ]; do defines+=("$1"); shift; done
  shift
  [ -x "$bin" ] && [ "$(cat "$bin.key" 2>/dev/null)" = "$key" ] || stale=1
  for f in "$@" "$P"/*.h "$P"/v1/*.h "$0"; do if [ "$f" -nt "$bin" ]; then stale=1; fi; done
  [ "$stale" = 1 ] || return 0
  say "building $bin"
  nice -n 10 g++ -std=c++17 -O2 -Wall -Wextra -DSC_INCLUDE_DYNAMIC_PROCESSES "${defines[@]}" \
    -I"$LIBS/include" "$@" -o "$bin.part" \
    -Wl,--export-dynamic-symbol="$REPORT" \
    -L"$LIBS/nv_full" -Wl,-rpath,"$LIBS/nv_full" -lnvdla_cmod -lsystemc -lz -ldl || return 1
  mv "$bin.part" "$bin"
  echo "$key" > "$bin.key"
}
link_player "$OUT/nvdla-trace-player-v1" -DNVDLA_ARNVDLA_H="\"$LIBS/nv_full/arnvdla.h\"" -- \
  "$P"/v1/*.cpp "$P/memory.cpp" "$P/register_map.cpp" "$P/report_filter.cpp" "$P/trace.cpp" ||
  give_up "the v1 trace player does not build"
# The project's programs on it: dla-translate --dla-to-nvdla-trace writes
# master's .cfg format, whose player reads register names from the map it
# is given; linked with the v1 model and v1's arnvdla.h it runs nv_full
# programs (docs/NvdlaCModelV1.md).
link_player "$OUT/nvdla-trace-player" -DNVDLA_V1 -DNVDLA_CONFIG='"nv_full"' \
  -DNVDLA_OPENDLA_H="\"$LIBS/nv_full/arnvdla.h\"" -- "$P"/*.cpp ||
  give_up "the trace player (master format) does not build against the v1 model"
echo "$OUT"
