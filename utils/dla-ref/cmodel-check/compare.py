"""Reads the xcheck_* programs' lines (unit, inputs, C-model output) on stdin
and recomputes each output with the numpy model. Prints per-unit counts and
the first mismatches; exit status 1 on any mismatch. The numpy model
(utils/dla-ref) on PYTHONPATH: run.sh sets it."""

import sys

import numpy as np

from int_cdp import cdp_icvt, cdp_lrn, cdp_ocvt
from int_conv import cdma_cvt_feature, cdma_cvt_image
from int_sdp import sdp_cvt, sdp_x, sdp_y
from int_sdp_lut import sdp_lut

PREC = ("int8", "int16")


def lut_kwargs(v):
    """The table registers as the programs print them (CDP and SDP alike)."""
    fn, up, op, hp, les, lee, los, loe, leoff, lesel, losel = v[:11]
    s = v[11:19]
    return dict(lut_le_function=("exponent", "linear")[fn], lut_uflow_priority=up,
                lut_oflow_priority=op, lut_hybrid_priority=hp, lut_le_start=les,
                lut_le_end=lee, lut_lo_start=los, lut_lo_end=loe, lut_le_index_offset=leoff,
                lut_le_index_select=lesel, lut_lo_index_select=losel,
                lut_le_slope_uflow_scale=s[0], lut_le_slope_uflow_shift=s[1],
                lut_le_slope_oflow_scale=s[2], lut_le_slope_oflow_shift=s[3],
                lut_lo_slope_uflow_scale=s[4], lut_lo_slope_uflow_shift=s[5],
                lut_lo_slope_oflow_scale=s[6], lut_lo_slope_oflow_shift=s[7]), v[19:]


def check(unit, v):
    """(model output, C-model output) for one line."""
    if unit == "X":
        x, ao, mo, ab, alg, ash, mb, pr, msh, rb, out = v
        return int(sdp_x(np.array(x), alu_bypass=ab, alu_algo=("max", "min", "sum")[alg],
                         alu_operand=ao, alu_shift_value=ash, mul_bypass=mb, mul_prelu=pr,
                         mul_operand=mo, mul_shift_value=msh, relu_bypass=rb)), out
    if unit == "C":
        y, off, sc, sh, op, out = v
        return int(sdp_cvt(np.array(y), cvt_offset=off, cvt_scale=sc, cvt_shift=sh,
                           out_precision=PREC[op])), out
    if unit == "Y":
        (x, aop, mop, areg, mreg, ab, asrc, alg, mb, msrc, pr, tr, acb, mcb, aco, mco, acs, mcs,
         act, mct, out) = v
        return int(sdp_y(np.array(x), mul_bypass=mb, mul_src=("reg", "mem")[msrc],
                         mul_operand=mop if msrc else mreg, mul_prelu=pr, mul_cvt_bypass=mcb,
                         mul_cvt_offset=mco, mul_cvt_scale=mcs, mul_cvt_truncate=mct,
                         truncate=tr, alu_bypass=ab, alu_src=("reg", "mem")[asrc],
                         alu_algo=("max", "min", "sum", "eql")[alg],
                         alu_operand=aop if asrc else areg, alu_cvt_bypass=acb,
                         alu_cvt_offset=aco, alu_cvt_scale=acs, alu_cvt_truncate=act)), out
    if unit == "S":
        kw, rest = lut_kwargs(v)
        x, le, lo, out = rest[0], rest[1:66], rest[66:323], rest[323]
        return int(sdp_lut(np.array(x), lut_le_table=le, lut_lo_table=lo, **kw)), out
    if unit == "D":
        ty, px, off, sc, tr, outp, out = v
        kw = dict(cvt_en=1, cvt_offset=off, cvt_scale=sc, cvt_truncate=tr,
                  proc_precision=PREC[outp])
        if ty == 2:
            got = cdma_cvt_image(np.array([px]), in_precision="int8", pixel_sign_override=0,
                                 mean_format=0, **kw)[0]
        else:
            got = cdma_cvt_feature(np.array(px), in_precision=PREC[ty], **kw)
        return int(got), out - 65536 if out >= 32768 else out
    if unit in ("I8", "I16"):
        x, off, sc, sh, out = v
        return int(cdp_icvt(np.array(x), input_data=PREC[unit == "I16"], datin_offset=off,
                            datin_scale=sc, datin_shifter=sh)), out
    if unit in ("O8", "O16"):
        x, off, sc, sh, out = v
        return int(cdp_ocvt(np.array(x), input_data=PREC[unit == "O16"], datout_offset=off,
                            datout_scale=sc, datout_shifter=sh)), out
    if unit in ("L8", "L16"):
        int16 = unit == "L16"
        nl, v = v[0], v[1:]
        kw, rest = lut_kwargs(v)
        dio, dis, dish, doo, dos, dosh, sqb, mb = rest[:8]
        channels, outs = (12, 4) if int16 else (16, 8)
        le, lo = rest[8:73], rest[73:330]
        x = rest[330:330 + channels]
        out = rest[330 + channels:330 + channels + outs]
        got = cdp_lrn(np.array(x).reshape(1, channels, 1, 1), input_data=PREC[int16],
                      normalz_len=(3, 5, 7, 9)[nl], sqsum_bypass=sqb, mul_bypass=mb,
                      datin_offset=dio, datin_scale=dis, datin_shifter=dish,
                      datout_offset=doo, datout_scale=dos, datout_shifter=dosh,
                      lut_le_table=le, lut_lo_table=lo, **kw)
        # Only the centre channels have all their neighbours in the program's input.
        return got.ravel()[4:4 + outs].tolist(), out
    raise ValueError("unknown unit %r" % unit)


def main():
    counts, bad = {}, {}
    for line in sys.stdin:
        fields = line.split()
        unit, values = fields[0], [int(f) for f in fields[1:]]
        got, want = check(unit, values)
        counts[unit] = counts.get(unit, 0) + 1
        if got != want:
            bad.setdefault(unit, []).append((line[:160].strip(), got, want))
    for unit in sorted(counts):
        print("%-4s %6d cases, %d mismatches" % (unit, counts[unit], len(bad.get(unit, []))))
    for unit, cases in bad.items():
        for line, got, want in cases[:3]:
            print("  %s: model %s, C model %s" % (line, got, want))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
