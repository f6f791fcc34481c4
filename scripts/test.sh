#!/usr/bin/env bash
# Set up, build everything, and run every test suite: lit + FileCheck tests
# and the GoogleTest unit tests (through lit), and the pytest suites of the
# independent Python reference and of the dla package (python/). Prints one
# closing "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/setup.sh DLAUnitTests dla-opt >/dev/null || exit 1

log=$(mktemp -d)
status=0
echo "== lit (regression + unit tests)"
/usr/bin/python3 /usr/lib/llvm-22/bin/lit -sv build/test build/test/Unit | tee "$log/lit" || status=1
echo "== pytest utils/dla-ref"
(cd utils/dla-ref && PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider) | tee "$log/pytest" || status=1
echo "== pytest python/tests (the dla package over libDLACAPI.so)"
(cd python/tests && PYTHONPATH="$PWD/../../build/python_packages" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider) | tee "$log/pypkg" || status=1
echo "== pytest python/tests-onnx (dla.onnx: ONNX -> TOSA on libonnx-testdata and hand-built graphs)"
(cd python/tests-onnx && PYTHONPATH="$PWD/../../build/python_packages" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider) | tee "$log/pyimport" || status=1

# --- sanitizers and fuzzing (issue 9) --------------------------------------
# The same lit, unit and Python suites again in build-san (clang-22, ASan +
# UBSan), then a bounded run of each libFuzzer harness; see
# scripts/test-sanitizers.sh. DLA_SKIP_SANITIZERS=1 skips it for a quick
# local run; CI (.ci/run) never sets it.
if [ "${DLA_SKIP_SANITIZERS:-0}" = 1 ]; then
  echo "== sanitizers and fuzzers SKIPPED (DLA_SKIP_SANITIZERS=1)"
else
  bash scripts/test-sanitizers.sh || status=1
fi
# --- end sanitizers and fuzzing ----------------------------------------------

count() { grep -Eo "$1" "$2" | grep -Eo '[0-9]+' | head -1 || true; }
lit_pass=$(count 'Passed *: *[0-9]+' "$log/lit"); lit_fail=$(count 'Failed *: *[0-9]+' "$log/lit")
py_pass=$(count '[0-9]+ passed' "$log/pytest"); py_fail=$(count '[0-9]+ failed' "$log/pytest")
pkg_pass=$(count '[0-9]+ passed' "$log/pypkg"); pkg_fail=$(count '[0-9]+ failed' "$log/pypkg")
imp_pass=$(count '[0-9]+ passed' "$log/pyimport"); imp_fail=$(count '[0-9]+ failed' "$log/pyimport")
passed=$(( ${lit_pass:-0} + ${py_pass:-0} + ${pkg_pass:-0} + ${imp_pass:-0} ))
failed=$(( ${lit_fail:-0} + ${py_fail:-0} + ${pkg_fail:-0} + ${imp_fail:-0} ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
rm -rf "$log"
echo "all suites: $passed passed, $failed failed"
exit $status
