#!/usr/bin/env bash
# NVIDIA's NVDLA software stack in one host process with NVIDIA's C model:
# the user-mode runtime (umd/core/src/runtime, the loadable reader and the
# emulator of umd/core/src/common, umd/port/linux/nvdla_os.c, and the image
# code of umd/apps/runtime that writes output.dimg) and both firmwares
# (kmd/firmware at the pinned HEAD and at c906fc6), compiled unmodified as
# user-space code, linked with the project's harness
# (tools/nvdla-loadable-runner: the port layer that replaces
# umd/port/linux/nvdla.c and implements the firmware's callbacks) and with
# the cached C model of each configuration (scripts/build-nvdla-cmod.sh;
# for nv_full the v1 model, scripts/build-nvdla-cmod-v1.sh, when it builds).
# docs/NvdlaLoadables.md tells the story; ../shared/nvdla-sw/BUILDING.md the
# facts this script follows.
#
# Sources: $NVDLA_SW_DIR, else ../shared/nvdla-sw beside the checkout
# (read-only, never changed). NVIDIA's objects are cached under $DLA_CACHE
# (default ~/.cache/dla-mlir) by a key over those sources, the compiler and
# the recipe; the harness goes to BUILD_DIR/nvdla-runtime (default build):
#   BUILD_DIR/nvdla-runtime/<config>/dla-run-loadable   the command
#   BUILD_DIR/nvdla-runtime/<config>/libdla-loadable-runner.a + include/
#   BUILD_DIR/nvdla-runtime/dla-run-loadable            picks <config> by --config
# <config> is nv_small, nv_large and, when the v1 model builds, nv_full
# (NVIDIA's firmware built without a DLA_*_CONFIG macro: opendla_initial.h,
# the v1 register map).
# Exits non-zero saying UNSUPPORTED and why when it cannot build;
# BUILD_DIR/nvdla-runtime is then removed, so test/NvdlaLoadable is
# UNSUPPORTED, never passed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${1:-${BUILD_DIR:-build}}
CONFIGS=(nv_small nv_large)
CACHE=${DLA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dla-mlir}
OUT=$BUILD_DIR/nvdla-runtime
JOBS=${DLA_CMOD_JOBS:-2}
PACKAGES=(g++ binutils libsystemc-dev libjpeg-dev)
# BUILDING.md: the firmware as gnu99 C with a forced include for the kernel
# types and macros; the runtime as C++11 without RTTI, <limits> forced
# (GCC 12 rejects Type.h's std::numeric_limits without it).
FW_FLAGS="-std=gnu99 -O2 -w -fno-common"
RT_FLAGS="-std=c++11 -fexceptions -fno-rtti -O2 -w -include limits"
HARNESS_FLAGS="-std=c++17 -O2 -Wall -Wextra -DSC_INCLUDE_DYNAMIC_PROCESSES -DNVDLA_UTILS_ERROR_TAG=\"DLA_HARNESS\""
# The firmware's entry points (kmd/include/nvdla_interface.h), kept global
# and prefixed with the firmware's name; all else of it is made local.
FW_ENTRIES=(dla_register_driver dla_isr_handler dla_process_events dla_clear_task dla_execute_task)

say() { echo "== nvdla-runtime: $*" >&2; }
give_up() {
  say "UNSUPPORTED: $* -- test/NvdlaLoadable will be UNSUPPORTED"
  rm -rf "$OUT"
  exit 1
}

bash scripts/install-missing.sh "${PACKAGES[@]}" >&2 || give_up "cannot install ${PACKAGES[*]}"

# --- NVIDIA's C model (cached by build-nvdla-cmod.sh) ---------------------
bash scripts/build-nvdla-cmod.sh "$BUILD_DIR" >/dev/null || give_up "no C model (scripts/build-nvdla-cmod.sh failed)"
CMOD=$(cd "$BUILD_DIR/nvdla-cmod/lib" 2>/dev/null && pwd -P) || give_up "no $BUILD_DIR/nvdla-cmod/lib"
for cfg in "${CONFIGS[@]}"; do
  [ -f "$CMOD/$cfg/libnvdla_cmod.so" ] || give_up "no cached C model for $cfg in $CMOD"
done
# The v1 model (nv_full): optional; without it the nv_full harness is not
# built and its tests are UNSUPPORTED (the script says why).
CMOD_V1=none
if bash scripts/build-nvdla-cmod-v1.sh "$BUILD_DIR" >/dev/null &&
   CMOD_V1=$(cd "$BUILD_DIR/nvdla-cmod-v1/lib" 2>/dev/null && pwd -P) && [ -f "$CMOD_V1/nv_full/libnvdla_cmod.so" ]; then
  CONFIGS+=(nv_full)
else
  CMOD_V1=none
  rm -rf "$OUT/nv_full"
  say "no v1 C model (scripts/build-nvdla-cmod-v1.sh failed): the nv_full harness is not built"
fi
# Per configuration: the model's library folder, its headers, its register
# map (the harness reads GLB's interrupt status address from it) and which
# firmware build (the register map the firmware programs).
declare -A CMOD_LIB=([nv_small]="$CMOD/nv_small" [nv_large]="$CMOD/nv_large" [nv_full]="$CMOD_V1/nv_full")
declare -A CMOD_INC=([nv_small]="$CMOD/include" [nv_large]="$CMOD/include" [nv_full]="$CMOD_V1/include")
declare -A CMOD_REGS=([nv_small]="$CMOD/nv_small/opendla.h" [nv_large]="$CMOD/nv_large/opendla.h"
                      [nv_full]="$CMOD_V1/nv_full/arnvdla.h")
declare -A FW_MAP=([nv_small]=small [nv_large]=small [nv_full]=initial)

# --- sources ---------------------------------------------------------------
has_sw() { [ -d "$1/umd/core/src/runtime" ] && [ -d "$1/kmd/firmware" ] && [ -d "$1/kmd-c906fc6/firmware" ]; }
SW=""
for cand in "${NVDLA_SW_DIR:-}" "$(dirname "$ROOT")/shared/nvdla-sw"; do
  if [ -n "$cand" ] && has_sw "$cand"; then SW=$(cd "$cand" && pwd); break; fi
done
[ -n "$SW" ] || give_up "no NVIDIA software sources: neither \$NVDLA_SW_DIR nor ../shared/nvdla-sw (umd/, kmd/, kmd-c906fc6/)"
U=$SW/umd
RT_SRC=("$U/core/src/runtime/Runtime.cpp" "$U/core/src/runtime/Emulator.cpp"
        "$U/core/src/common/Check.cpp" "$U/core/src/common/EMUInterface.cpp"
        "$U/core/src/common/EMUInterfaceA.cpp" "$U/core/src/common/Loadable.cpp"
        "$U/apps/runtime/DlaImage.cpp" "$U/apps/runtime/DlaImageUtils.cpp" "$U/apps/runtime/TestUtils.cpp")
RT_C_SRC=("$U/core/src/common/ErrorLogging.c" "$U/port/linux/nvdla_os.c")
RT_INC=(-I"$U/core/include" -I"$U/core/src/common/include" -I"$U/core/src/runtime/include"
        -I"$U/port/linux/include" -I"$U/external/include" -I"$U/apps/runtime")
# Each firmware: its directory and the macro that selects opendla_small.h,
# the register map of nv_small and nv_large (BUILDING.md); without a macro
# it programs opendla_initial.h, nv_full's (the v1 model's) map.
declare -A FW_DIR=([head]="$SW/kmd" [c906fc6]="$SW/kmd-c906fc6")
declare -A FW_DEF=([head]=-DDLA_2_CONFIG [c906fc6]=-DDLA_SMALL_CONFIG)
FW_MAPS=(small initial)
for f in "${RT_SRC[@]}" "${RT_C_SRC[@]}"; do [ -f "$f" ] || give_up "missing $f"; done

# --- cache key: sources, compiler, recipe ----------------------------------
RECIPE=3 # bump when the steps below change
key=$( { (cd "$SW" && find umd/core umd/port/linux umd/external/include umd/apps/runtime \
              kmd/firmware kmd/include kmd-c906fc6 -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
         sha256sum tools/nvdla-loadable-runner/firmware_compat.h | cut -d' ' -f1
         g++ --version | head -1; gcc --version | head -1; ld --version | head -1
         echo "$RECIPE $FW_FLAGS $RT_FLAGS ${FW_ENTRIES[*]} ${FW_MAPS[*]}"; } | sha256sum | cut -c1-16)
LIBS="$CACHE/nvdla-runtime-$key"
mkdir -p "$CACHE"
exec 9>"$CACHE/nvdla-runtime.lock"
flock 9

if [ ! -f "$LIBS/done" ]; then
  say "building NVIDIA's runtime and both firmwares in $LIBS (about a minute on 2 cores, once)"
  rm -rf "$LIBS"; mkdir -p "$LIBS/obj"
  log=$LIBS/build.log
  # Every step checked by hand: errexit does not apply inside a function
  # called as the condition of an if.
  build_nvidia() {
    # The runtime, its C parts and the app's image code, $JOBS at a time.
    local pids=() failed=0 src obj p fw dir e keep rename extra
    for src in "${RT_SRC[@]}" "${RT_C_SRC[@]}"; do
      obj="$LIBS/obj/rt-$(basename "${src%.*}").o"
      case $src in
        *.c) nice -n 10 gcc -O2 -w -DNVDLA_UTILS_ERROR_TAG='"DLA_RUNTIME"' "${RT_INC[@]}" -c "$src" -o "$obj" & ;;
        *)   nice -n 10 g++ $RT_FLAGS -DNVDLA_UTILS_ERROR_TAG='"DLA_RUNTIME"' "${RT_INC[@]}" -c "$src" -o "$obj" & ;;
      esac
      pids+=($!)
      if [ ${#pids[@]} -ge "$JOBS" ]; then wait "${pids[0]}" || failed=1; pids=("${pids[@]:1}"); fi
    done
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    [ "$failed" = 0 ] || { echo "a runtime source does not compile"; return 1; }
    ar rcs "$LIBS/libnvdla-runtime.a" "$LIBS"/obj/rt-*.o || return 1
    # Each firmware, for each register map, as one relocatable object with
    # five global symbols: firmware-<map>-<fw>.o.
    local map def o
    for map in "${FW_MAPS[@]}"; do
      for fw in head c906fc6; do
        dir=${FW_DIR[$fw]}
        def=""; [ "$map" = small ] && def=${FW_DEF[$fw]}
        o=$LIBS/obj/fw-$map-$fw
        mkdir -p "$o"
        for src in "$dir"/firmware/*.c; do
          nice -n 10 gcc $FW_FLAGS $def -include "$ROOT/tools/nvdla-loadable-runner/firmware_compat.h" \
            -I"$dir/firmware/include" -I"$dir/firmware" -I"$dir/include" \
            -c "$src" -o "$o/$(basename "${src%.c}").o" || return 1
        done
        ld -r -o "$o-all.o" "$o"/*.o || return 1
        keep=(); rename=()
        for e in "${FW_ENTRIES[@]}"; do keep+=(--keep-global-symbol="$e"); rename+=(--redefine-sym "$e=${fw}_$e"); done
        objcopy "${keep[@]}" "$o-all.o" "$o-local.o" || return 1
        objcopy "${rename[@]}" "$o-local.o" "$LIBS/firmware-$map-$fw.o" || return 1
        # Nothing but the renamed entry points may be defined globally, and
        # all five must be.
        extra=$(nm -g --defined-only "$LIBS/firmware-$map-$fw.o" | awk '{print $3}' | grep -v "^${fw}_dla_" || true)
        [ -z "$extra" ] || { echo "firmware $fw ($map): unexpected global symbols: $extra"; return 1; }
        [ "$(nm -g --defined-only "$LIBS/firmware-$map-$fw.o" | grep -c " T ${fw}_dla_")" = "${#FW_ENTRIES[@]}" ] ||
          { echo "firmware $fw ($map): not all of ${FW_ENTRIES[*]} defined"; return 1; }
      done
    done
  }
  if ! build_nvidia > "$log" 2>&1; then
    tail -20 "$log" >&2
    give_up "NVIDIA's runtime or firmware does not build (log: $log)"
  fi
  rm -rf "$LIBS/obj"
  echo "$SW" > "$LIBS/done"
fi

# --- the harness, one per configuration -------------------------------------
# Built here, not by CMake, like the trace player: it needs only SystemC, the
# cached model and NVIDIA's objects, not MLIR.
H=tools/nvdla-loadable-runner
REPORT=_ZN7sc_core17sc_report_handler6reportENS_11sc_severityEPKcS3_iS3_i
# apps/runtime first: its DlaImageUtils.h, not core/include's older one.
# NVIDIA's headers as system headers: their warnings are not the harness's.
HARNESS_INC=(-I"$H" -Itools/nvdla-trace-player -isystem "$CMOD/include" -isystem "$U/apps/runtime" "${RT_INC[@]/#-I/-isystem}")
mkdir -p "$OUT/obj" "$OUT/include"
OUT=$(cd "$OUT" && pwd) # absolute: cxxflags and ldflags name it
compile() { # SRC OBJ [FLAGS...]: when the source, a harness header or this script is newer
  local src=$1 obj=$2; shift 2
  local stale=0
  [ -f "$obj" ] && [ "$(cat "$OUT/key" 2>/dev/null)" = "$key $CMOD $CMOD_V1" ] || stale=1
  for f in "$src" "$H"/*.h tools/nvdla-trace-player/csb.h tools/nvdla-trace-player/v1/cvsram_lanes.h "$0"; do if [ "$f" -nt "$obj" ]; then stale=1; fi; done
  if [ "$stale" = 1 ]; then
    nice -n 10 g++ $HARNESS_FLAGS "$@" "${HARNESS_INC[@]}" -c "$src" -o "$obj.part" && mv "$obj.part" "$obj"
  fi
}
COMMON=(port firmware loadable_info dimg main)
for s in "${COMMON[@]}"; do
  compile "$H/$s.cpp" "$OUT/obj/$s.o" || give_up "the harness does not compile ($H/$s.cpp)"
done
# The C model's debug messages dropped before SystemC looks them up: the
# trace player's filter, the same file.
compile tools/nvdla-trace-player/report_filter.cpp "$OUT/obj/report_filter.o" ||
  give_up "the report filter does not compile"
cp "$H/harness.h" "$OUT/include/"
for cfg in "${CONFIGS[@]}"; do
  d=$OUT/$cfg
  mkdir -p "$d"
  # The configuration's model headers first (-isystem in command-line order).
  compile "$H/harness.cpp" "$d/harness.o" -DNVDLA_CONFIG="\"$cfg\"" -DNVDLA_OPENDLA_H="\"${CMOD_REGS[$cfg]}\"" \
    -isystem "${CMOD_INC[$cfg]}" ||
    give_up "$cfg: the harness does not compile"
  lib=$d/libdla-loadable-runner.a
  objs=("$d/harness.o" "$OUT/obj/port.o" "$OUT/obj/firmware.o" "$OUT/obj/loadable_info.o" "$OUT/obj/dimg.o"
        "$LIBS/firmware-${FW_MAP[$cfg]}-head.o" "$LIBS/firmware-${FW_MAP[$cfg]}-c906fc6.o")
  stale=0
  for f in "${objs[@]}"; do if [ ! -f "$lib" ] || [ "$f" -nt "$lib" ]; then stale=1; fi; done
  if [ "$stale" = 1 ]; then
    rm -f "$lib.part"
    ar rcs "$lib.part" "${objs[@]}" && mv "$lib.part" "$lib" || give_up "$cfg: cannot archive the harness"
  fi
  # How a program links the library (it defines sc_main; the report filter
  # object drops the C model's debug messages).
  link=("$OUT/obj/report_filter.o" "$lib" "$LIBS/libnvdla-runtime.a" -Wl,--export-dynamic-symbol="$REPORT"
        -L"${CMOD_LIB[$cfg]}" -Wl,-rpath,"${CMOD_LIB[$cfg]}" -lnvdla_cmod -lsystemc -ljpeg -lpthread -ldl)
  echo "-std=c++17 -I$OUT/include" > "$d/cxxflags"
  echo "${link[*]}" > "$d/ldflags"
  bin=$d/dla-run-loadable
  stale=0
  for f in "$lib" "$OUT/obj/main.o" "$OUT/obj/report_filter.o" "$LIBS/libnvdla-runtime.a"; do
    if [ ! -x "$bin" ] || [ "$f" -nt "$bin" ]; then stale=1; fi
  done
  if [ "$stale" = 1 ]; then
    say "$cfg: linking $bin"
    nice -n 10 g++ -o "$bin.part" "$OUT/obj/main.o" "${link[@]}" || give_up "$cfg: the harness does not link"
    mv "$bin.part" "$bin"
  fi
done
# What the objects were built against: NVIDIA's objects and the C model.
echo "$key $CMOD $CMOD_V1" > "$OUT/key"
# NVIDIA's regression loadables and goldens (test/NvdlaLoadable).
ln -sfn "$SW/regression" "$OUT/regression"

# The command: picks the configuration's binary by --config (default nv_small).
cat > "$OUT/dla-run-loadable.part" <<'EOF'
#!/bin/sh
# dla-run-loadable [--config nv_small|nv_large|nv_full] ...: runs the configuration's
# harness (written by scripts/build-nvdla-runtime.sh).
dir=$(dirname "$0")
cfg=nv_small
prev=
for a in "$@"; do
  if [ "$prev" = --config ]; then cfg=$a; fi
  prev=$a
done
if [ ! -x "$dir/$cfg/dla-run-loadable" ]; then
  built=$(cd "$dir" && for d in */dla-run-loadable; do [ -x "$d" ] && printf ' %s' "${d%/*}"; done)
  echo "dla-run-loadable: error: --config $cfg: no harness for this configuration (built:$built)" >&2
  exit 1
fi
exec "$dir/$cfg/dla-run-loadable" "$@"
EOF
chmod +x "$OUT/dla-run-loadable.part" && mv "$OUT/dla-run-loadable.part" "$OUT/dla-run-loadable"
echo "$OUT"
