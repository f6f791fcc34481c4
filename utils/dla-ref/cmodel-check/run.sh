#!/usr/bin/env bash
# Compiles NVIDIA's C-model arithmetic (cmod/hls, and the CDP lookup
# functions cut out of cmod/cdp/NV_NVDLA_cdp.cpp) with small drivers, runs
# them on random registers and data, and compares every output with the
# numpy model (../int_*.py). Usage: run.sh [CMOD_DIR] [CASES]
# CMOD_DIR defaults to /work/shared/nvdla-hw/cmod. In the test suite as
# test/NvdlaCModel/integer-units.test (2,000 cases per unit).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cmod=${1:-/work/shared/nvdla-hw/cmod}
cases=${2:-10000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
hls=$cmod/hls
# The ac_types headers shipped with the C model need -fpermissive with g++ 12.
cxx=(g++ -std=c++11 -fpermissive -w -O1 -I"$hls/include" -I"$hls/sdp" -I"$hls/vlibs" -I"$here")

# convert() through lookup_lut (int16): one range of NV_NVDLA_cdp.cpp,
# member functions made free functions.
awk '/^int64_t NV_NVDLA_cdp::convert/ {on = 1}
     on {print}
     /^void NV_NVDLA_cdp::lookup_lut\(int16_t/ {last = 1}
     last && /^}/ {exit}' "$cmod/cdp/NV_NVDLA_cdp.cpp" | sed 's/NV_NVDLA_cdp:://g' \
  > "$out/cdp_lookup.inc"

for f in sdp/sdp_x sdp/sdp_c sdp/sdp_y_cvt sdp/sdp_y_core sdp/sdp_y_idx sdp/sdp_y_inp; do
  "${cxx[@]}" -c "$hls/$f.cpp" -o "$out/$(basename "$f").o"
done
"${cxx[@]}" -I"$hls/cdma_libs" -c "$hls/cdma_libs/cdma_cvt.cpp" -o "$out/cdma_cvt.o"
for f in cdp_icvt cdp_ocvt; do
  "${cxx[@]}" -I"$hls/cdp_libs" -c "$hls/cdp_libs/$f.cpp" -o "$out/$f.o"
  "${cxx[@]}" -I"$hls/cdp_libs" -c "$here/${f}_glue.cpp" -o "$out/${f}_glue.o"
done
"${cxx[@]}" "$here/xcheck_sdp.cpp" "$out"/sdp_{x,c,y_cvt,y_core,y_idx,y_inp}.o -o "$out/xcheck_sdp"
"${cxx[@]}" -I"$hls/cdma_libs" "$here/xcheck_cdma.cpp" "$out/cdma_cvt.o" -o "$out/xcheck_cdma"
"${cxx[@]}" -I"$out" "$here/xcheck_cdp.cpp" "$out"/cdp_{icvt,ocvt}{,_glue}.o -o "$out/xcheck_cdp"

status=0
# The numpy model (../int_*.py) for compare.py and xcheck_pdp.py.
export PYTHONPATH="$here/..${PYTHONPATH:+:$PYTHONPATH}"
{ "$out/xcheck_sdp" "$cases"; "$out/xcheck_cdma" "$cases"; "$out/xcheck_cdp" "$cases"; } |
  /usr/bin/python3 "$here/compare.py" || status=1
/usr/bin/python3 "$here/xcheck_pdp.py" "$(( cases / 3 ))" || status=1
exit $status
