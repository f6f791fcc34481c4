#!/usr/bin/env bash
# The sanitizer half of scripts/test.sh (issue 9): builds build-san (clang-22,
# ASan + UBSan, libFuzzer coverage; scripts/setup-sanitizers.sh), runs the
# lit, unit and Python suites there, then each libFuzzer harness for a
# bounded time over its seed corpus (test/Fuzz/corpus/NAME). Exits non-zero
# on any failure or sanitizer report. Prints one closing summary line.
#
# Not run under the sanitizers, and why:
#  - test/ONNX and test/Models: ONNX import and JIT execution of whole
#    models, minutes each under ASan; their dla-opt work (convert, pack,
#    lower) is covered by the lit tests of those passes and the fuzzers.
#  - test/Bundle: dla-compile is Python over libDLACAPI.so, which here
#    needs the ASan runtime preloaded into every process of the test
#    (FileCheck and Chromium too); the C API calls of bundle.describe run
#    under ASan in python/tests (test_bundle.py), below.
#  - test/NvdlaCModel: NVIDIA's C model, not project code; its trace player
#    is built with g++ by scripts/build-nvdla-cmod.sh, not in build-san.
#  - test/NvdlaCModelV1: the same for NVIDIA's v1 model and
#    scripts/build-nvdla-cmod-v1.sh.
#  - test/NvdlaRtl: NVIDIA's RTL under Verilator; its player is built by
#    scripts/build-nvdla-rtl.sh, not in build-san.
#  - test/NvdlaLoadable: NVIDIA's runtime and firmware on the C model; the
#    harness is built with g++ by scripts/build-nvdla-runtime.sh, not in
#    build-san.
#  - test/NvdlaCompiler: NVIDIA's compiler (scripts/build-nvdla-compiler.sh,
#    g++) and that harness; its one project step, dla-translate's register
#    program, is covered by test/Target/NvdlaTrace here.
#  - test/CAPI/install.test: builds an out-of-tree consumer against the
#    installed (here: instrumented) archives with a plain toolchain.
#  - five of test/Execution's random sweeps (quant-tosa-layers, int-pool-
#    layers, fp16-conv-layers, fp16-pdp-layers, fp16-lrn-layers: 80-280 s
#    each in the normal build): the JIT'd code they run is not instrumented, the runtime's fp16
#    functions run under the sanitizers in DLAFormatTests, and the passes
#    that lower them run here on the other Execution tests (reference-
#    layers.mlir, int-pool-chains.test, the int-conv / int-lrn / int-sdp
#    sweeps) and in the fuzzers; their shapes add CI time, not code.
#  - utils/dla-ref and python/tests-onnx pytest: the reference and the ONNX
#    importer, Python/numpy; the importer's module verification goes
#    through libDLACAPI.so's parser, which the fuzzers and python/tests
#    cover here.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SAN_BUILD_DIR:-build-san}
FUZZ_SECONDS=${DLA_FUZZ_SECONDS:-15}

bash scripts/setup-sanitizers.sh || exit 1

# halt_on_error / abort_on_error: the first report fails the test with a
# signal, which `not` does not mistake for an expected exit code 1.
# allow_user_poisoning=0: LLVM's headers poison allocator memory from our
# instrumented code, which the uninstrumented libLLVM.so/libMLIR.so then
# touch legitimately.
export ASAN_OPTIONS="allow_user_poisoning=0:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$PWD/utils/sanitizers/lsan.supp:print_suppressions=0"
ASAN_RT=$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)

log=$(mktemp -d)
status=0
echo "== [sanitizers] lit (regression + unit tests) in $BUILD_DIR"
/usr/bin/python3 /usr/lib/llvm-22/bin/lit -sv \
  --filter-out '^DLA :: (ONNX|Models|NvdlaCModel|NvdlaCModelV1|NvdlaRtl|NvdlaLoadable|NvdlaCompiler|Bundle)/|^DLA :: CAPI/install\.test$|^DLA :: Execution/(quant-tosa-layers|int-pool-layers|fp16-(conv|pdp|lrn)-layers)\.test$' \
  "$BUILD_DIR/test" "$BUILD_DIR/test/Unit" | tee "$log/lit" || status=1

echo "== [sanitizers] pytest python/tests (libDLACAPI.so instrumented, ASan runtime preloaded)"
# Python itself is not instrumented and keeps objects until exit by design:
# leak checking is off in this process only (the C API's own leaks are
# checked by dla-capi-test in the lit run above).
(cd python/tests && LD_PRELOAD="$ASAN_RT" ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
  PYTHONPATH="$PWD/../../$BUILD_DIR/python_packages" PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider) | tee "$log/pypkg" || status=1

echo "== [sanitizers] libFuzzer, ${FUZZ_SECONDS}s per harness over test/Fuzz/corpus"
fuzz_runs=0
for name in format parse pipeline; do
  work=$(mktemp -d)
  if "$BUILD_DIR/bin/dla-fuzz-$name" -max_total_time="$FUZZ_SECONDS" -timeout=120 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$log/" \
      "$work" "test/Fuzz/corpus/$name" > "$log/fuzz-$name" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log/fuzz-$name" | grep -Eo '[0-9]+$')
    echo "dla-fuzz-$name: ${runs:-?} executions, no finding"
    fuzz_runs=$((fuzz_runs + ${runs:-0}))
  else
    echo "dla-fuzz-$name: FINDING"; tail -60 "$log/fuzz-$name"
    for a in "$log"/crash-* "$log"/leak-* "$log"/oom-* "$log"/timeout-*; do
      [ -f "$a" ] && { echo "-- $a (base64):"; base64 -w0 "$a"; echo; }
    done
    status=1
  fi
  rm -rf "$work"
done

count() { grep -Eo "$1" "$2" | grep -Eo '[0-9]+' | head -1 || true; }
lit_pass=$(count 'Passed *: *[0-9]+' "$log/lit"); lit_fail=$(count 'Failed *: *[0-9]+' "$log/lit")
lit_timeout=$(count 'Timed Out *: *[0-9]+' "$log/lit")
pkg_pass=$(count '[0-9]+ passed' "$log/pypkg"); pkg_fail=$(count '[0-9]+ failed' "$log/pypkg")
rm -rf "$log"
echo "sanitizer suites: $(( ${lit_pass:-0} + ${pkg_pass:-0} )) passed, $(( ${lit_fail:-0} + ${lit_timeout:-0} + ${pkg_fail:-0} )) failed or timed out; fuzzers: $fuzz_runs executions"
exit $status
