#!/usr/bin/env bash
# NVIDIA's NVDLA hardware C model (libnvdla_cmod.so, SystemC) for nv_small
# and nv_large, and the project's trace player (tools/nvdla-trace-player)
# linked against each: what the lit tests of test/NvdlaCModel run.
# docs/NvdlaCModel.md tells the story; ../shared/nvdla-hw/BUILDING.md the
# facts this script follows.
#
# Sources, first found: $NVDLA_HW_DIR; ../shared/nvdla-hw beside the
# checkout (read-only, copied); a clone of github.com/nvdla/hw at the pinned
# commit, cached under $DLA_CACHE. The libraries are cached under
# $DLA_CACHE (default ~/.cache/dla-mlir) by a key over the sources, the
# compiler, SystemC and the build recipe; the players go to BUILD_DIR/nvdla-cmod
# (default build). Cached and up to date, this compiles nothing.
# Exits non-zero, saying why, when the model cannot be built; BUILD_DIR/
# nvdla-cmod is then removed, so its tests are UNSUPPORTED, not passed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${1:-${BUILD_DIR:-build}}
PIN=1a65f1f5b48268accaa47c95f95c2601918be095 # nvdla/hw master, "use version 3.9.0 of ac_types"
CONFIGS=(nv_small nv_large)
CACHE=${DLA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dla-mlir}
OUT=$BUILD_DIR/nvdla-cmod
JOBS=${DLA_CMOD_JOBS:-2}
PACKAGES=(g++ make perl python3 cpp default-jre-headless libsystemc-dev libyaml-perl
          libcapture-tiny-perl libxml-simple-perl zlib1g-dev git)
# BUILDING.md: C++17 (Debian's SystemC exports only the C++17 API symbol).
CMOD_FLAGS='$(INC_FLAGS) -MMD -MP -fPIC -Wall -Werror -DSC_INCLUDE_DYNAMIC_PROCESSES -Wp,-w -std=c++17 -O2'

. scripts/nvdla-tree-make.sh
say() { echo "== nvdla-cmod: $*" >&2; }
give_up() { say "$* -- the C model tests will be UNSUPPORTED"; rm -rf "$OUT"; exit 1; }

bash scripts/install-missing.sh "${PACKAGES[@]}" >&2 || give_up "cannot install ${PACKAGES[*]}"
# One build at a time per cache (worktrees and CI jobs share it).
mkdir -p "$CACHE"
exec 9>"$CACHE/nvdla-cmod.lock"
flock 9

# --- sources -------------------------------------------------------------
has_tree() { [ -f "$1/cmod/Makefile" ] && [ -x "$1/tools/bin/tmake" ] && [ -d "$1/verif/tests/trace_tests" ]; }
SRC=""
for cand in "${NVDLA_HW_DIR:-}" "$(dirname "$ROOT")/shared/nvdla-hw" "$CACHE/nvdla-hw-$PIN"; do
  if [ -n "$cand" ] && has_tree "$cand"; then SRC=$(cd "$cand" && pwd); break; fi
done
if [ -z "$SRC" ]; then
  say "no ../shared/nvdla-hw: cloning github.com/nvdla/hw at ${PIN:0:7} (once)"
  clone="$CACHE/nvdla-hw-$PIN"
  rm -rf "$clone.part"; mkdir -p "$CACHE"
  if timeout 900 git clone -q --filter=blob:none --no-checkout https://github.com/nvdla/hw "$clone.part" >&2 &&
     git -C "$clone.part" sparse-checkout set --no-cone /cmod /spec /tools /LICENSE /Makefile /VERSION \
       /verif/tests/trace_tests/nv_small /verif/tests/trace_tests/nv_large >&2 &&
     timeout 900 git -C "$clone.part" checkout -q "$PIN" >&2; then
    mv "$clone.part" "$clone"; SRC=$clone
  else
    rm -rf "$clone.part"
    give_up "no sources: neither ../shared/nvdla-hw nor a clone of github.com/nvdla/hw"
  fi
fi

# --- cache key: sources, compiler, SystemC, recipe -----------------------
RECIPE=2 # bump when the build steps below change
# The debug-message filter forced into every model source (its header says why).
FILTER=tools/nvdla-trace-player/log_filter.h
key=$( { (cd "$SRC" && find cmod spec tools LICENSE Makefile VERSION -type f -print0 | LC_ALL=C sort -z |
           xargs -0 sha256sum)
         sha256sum < "$FILTER"
         g++ --version | head -1
         dpkg-query -W -f='${Version}\n' libsystemc-dev
         echo "$RECIPE $CMOD_FLAGS ${CONFIGS[*]}"; } | sha256sum | cut -c1-16)
LIBS="$CACHE/nvdla-cmod-$key"

if [ ! -f "$LIBS/done" ]; then
  say "building the C model for ${CONFIGS[*]} in $LIBS (about 5 minutes on 2 cores, once)"
  rm -rf "$LIBS"; mkdir -p "$LIBS"
  work="$LIBS/src"
  # The shared tree is read-only and the build writes beside its sources.
  mkdir -p "$work" && (cd "$SRC" && cp -r cmod spec tools LICENSE Makefile VERSION "$work/") && chmod -R u+w "$work"
  # tree.make, normally written by interactive prompts (BUILDING.md).
  write_tree_make "$work/tree.make" /usr/bin/gcc "${CONFIGS[@]}"
  mkdir -p "$work/filter" && cp "$FILTER" "$work/filter/"
  for cfg in "${CONFIGS[@]}"; do
    log="$LIBS/$cfg.log"
    say "$cfg: specs (tmake) and libnvdla_cmod.so, log in $log"
    # BUILD_DIR must end in /cmod; name the .so target (the default one
    # races its install step against the link).
    if ! (cd "$work" &&
          nice -n 10 ./tools/bin/tmake -build manual -build odif -projects "$cfg" &&
          nice -n 10 make -j"$JOBS" -C cmod PROJECT="$cfg" SYSTEMC_LIB_DIR=/usr/lib/x86_64-linux-gnu \
            BUILD_DIR="../outdir/$cfg/O2/cmod" "CPPFLAGS=$CMOD_FLAGS -include $work/filter/log_filter.h" "../outdir/$cfg/O2/cmod/libnvdla_cmod.so") \
          > "$log" 2>&1; then
      tail -20 "$log" >&2
      give_up "$cfg: the C model build failed (log: $log)"
    fi
    mkdir -p "$LIBS/$cfg"
    cp "$work/outdir/$cfg/O2/cmod/libnvdla_cmod.so" "$work/outdir/$cfg/spec/manual/opendla.h" "$LIBS/$cfg/"
  done
  # What the player includes: NV_nvdla.h and its two headers.
  mkdir -p "$LIBS/include"
  cp "$work/cmod/nvdla_top/NV_nvdla.h" "$work/cmod/include/NV_nvdla_top_base.h" \
     "$work/cmod/include/scsim_common.h" "$LIBS/include/"
  rm -rf "$work" # objects: ~0.5 GB
  echo "$SRC" > "$LIBS/done"
fi

# --- the trace player, one per configuration -----------------------------
# Built here, not by CMake: it needs only SystemC and the cached model, not
# MLIR, and the sanitizer build must not instrument it against an
# uninstrumented libsystemc.
mkdir -p "$OUT"
ln -sfn "$SRC/verif/tests/trace_tests" "$OUT/trace_tests"
# The cached libraries and headers (scripts/build-nvdla-runtime.sh links them).
ln -sfn "$LIBS" "$OUT/lib"
# The sources too: utils/dla-ref/cmodel-check compiles the C model's
# arithmetic against the numpy integer model (test/NvdlaCModel).
ln -sfn "$SRC/cmod" "$OUT/cmod"
PLAYER_SRC=(tools/nvdla-trace-player/*.cpp)
# report_filter.cpp's definition of SystemC's report(), exported so that it
# takes the library's place for the C model's debug messages.
REPORT=_ZN7sc_core17sc_report_handler6reportENS_11sc_severityEPKcS3_iS3_i
for cfg in "${CONFIGS[@]}"; do
  bin="$OUT/$cfg/nvdla-trace-player"
  stale=0
  [ -x "$bin" ] && [ "$(cat "$OUT/$cfg/key" 2>/dev/null)" = "$key" ] || stale=1
  for f in tools/nvdla-trace-player/*.h tools/nvdla-trace-player/*.cpp "$0"; do if [ "$f" -nt "$bin" ]; then stale=1; fi; done
  if [ "$stale" = 1 ]; then
    say "$cfg: building $bin"
    mkdir -p "$OUT/$cfg"
    nice -n 10 g++ -std=c++17 -O2 -Wall -Wextra -DSC_INCLUDE_DYNAMIC_PROCESSES \
      -DNVDLA_CONFIG="\"$cfg\"" -DNVDLA_OPENDLA_H="\"$LIBS/$cfg/opendla.h\"" \
      -I"$LIBS/include" "${PLAYER_SRC[@]}" -o "$bin.part" \
      -Wl,--export-dynamic-symbol="$REPORT" \
      -L"$LIBS/$cfg" -Wl,-rpath,"$LIBS/$cfg" -lnvdla_cmod -lsystemc -lz -ldl ||
      give_up "$cfg: the trace player does not build"
    mv "$bin.part" "$bin"
    echo "$key" > "$OUT/$cfg/key"
  fi
done
echo "$OUT"
