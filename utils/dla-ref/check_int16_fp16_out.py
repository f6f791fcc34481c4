"""What v1's SDP writes when an int16 pipeline's output converter writes
fp16 (issue 47, docs/NvdlaCModelV1.md "SDPs between int16 and fp16"):
checked here on the model itself against numpy's float16, independently of
the CPU execution (the plan's own programs: --kind fp16out-*).

    check_int16_fp16_out.py --player PLAYER [--format 0x9] [--from-fp16] CASE_DIR...

Each CASE_DIR holds a register program CASE_DIR/NAME.cfg (run_trace.py
--keep) whose SDP processes and writes int16 (D_DATA_FORMAT 0x5). The
program is run as it is and with D_DATA_FORMAT 0x9 (processing int16,
writing fp16), each check_crc region dumped (the player's --dump); the
expectation is sdp_c.cpp's: the converter's 17-bit value through
Int17ToFp16 (round to nearest even), so every int16 result below int16's
saturation must read back as numpy's float16 of it, and a saturated one
(+-32767 / -32768) as an fp16 beyond it, never infinite (the 17-bit
value saturates to 65504). Prints one line per case and a
summary; exits 1 on any other value. --format: the variant's
D_DATA_FORMAT (the negative control: 0x5 writes int16 again).

--from-fp16: the other way, not programmed by the plan: fp16 SDP programs
(D_DATA_FORMAT 0xa, run_fp16_trace.py --keep) run again writing int16
(0x6), each element checked against fp_nvdla.fp16_to_int16 of the fp16 result
(sdp_c.cpp Fp32ToFp16 then Fp16ToInt16; the control --format 0xa). The
plan programs it now (--kind fp16to16-*); this checks the model alone.
"""

import argparse
import glob
import os
import subprocess
import sys

import numpy as np

from fp_nvdla import fp16_to_int16


def dumps(player, cfg, out):
    os.makedirs(out, exist_ok=True)
    # The fp16 variant fails its int16 CRCs by design: only the dumps count.
    subprocess.run([player, "--dump", out, os.path.basename(cfg)], cwd=os.path.dirname(cfg),
                   capture_output=True)
    return sorted(glob.glob(os.path.join(out, "*.bin")))


def program_and_variant(player, case_dir, own, data_format, what):
    """(case name, the dumps of case_dir's program whose SDP's D_DATA_FORMAT
    is `own` (`what` it does, for the message), the dumps of its variant
    with `data_format` instead): each a list of region files, in order."""
    name = os.path.basename(os.path.normpath(case_dir))
    cfg = os.path.join(case_dir, name + ".cfg")
    text = open(cfg).read()
    field = f"SDP.D_DATA_FORMAT_0, {own})"
    if field not in text:
        sys.exit(f"{cfg}: no SDP {what} (D_DATA_FORMAT {own})")
    variant = os.path.join(case_dir, f"variant_{data_format}.cfg")
    with open(variant, "w") as f:
        f.write(text.replace(field, f"SDP.D_DATA_FORMAT_0, {data_format})"))
    mine = dumps(player, cfg, os.path.join(case_dir, "dump_program"))
    other = dumps(player, variant, os.path.join(case_dir, "dump_variant"))
    if not mine or [os.path.basename(p) for p in mine] != [os.path.basename(p) for p in other]:
        sys.exit(f"{case_dir}: the player dumped no or different regions")
    return name, mine, other


def check(player, case_dir, data_format):
    name, int16, fp16 = program_and_variant(player, case_dir, "0x5", data_format,
                                            "processing and writing int16")
    a = np.concatenate([np.fromfile(p, np.int16) for p in int16]).astype(np.int64)
    b = np.concatenate([np.fromfile(p, np.uint16) for p in fp16])
    sat = (a == 32767) | (a == -32768)
    got = b.view(np.float16).astype(np.float64)
    equal = ~sat & (b == a.astype(np.float16).view(np.uint16))
    beyond = sat & (((a > 0) & (got >= 32767)) | ((a < 0) & (got <= -32768)))
    rounded = ~sat & (a.astype(np.float16).astype(np.int64) != a)
    # Int17ToFp16 saturates at 65504 (fp_nvdla.int17_to_fp16): never infinite.
    top, infinite = (np.abs(got) == 65504).sum(), np.isinf(got).sum()
    print(f"{name}: {equal.sum()} of {(~sat).sum()} unsaturated elements equal float16 of the "
          f"int16 result ({rounded.sum()} rounded), {beyond.sum()} of {sat.sum()} saturated ones "
          f"beyond int16 in fp16 ({top} at +-65504, {infinite} infinite)")
    return equal.sum() + beyond.sum() == a.size and not infinite, a.size


def check_from_fp16(player, case_dir, data_format):
    """The other way (--from-fp16): a program whose SDP processes and writes
    fp16 (D_DATA_FORMAT 0xa) run again writing int16 (0x6: sdp_c.cpp
    Fp32ToFp16, then Fp16ToInt16, the output converter skipped); every
    element must read back as fp16_to_int16 of the fp16 result."""
    name, fp16, int16 = program_and_variant(player, case_dir, "0xa", data_format,
                                            "processing and writing fp16")
    h = np.concatenate([np.fromfile(p, np.uint16) for p in fp16])
    got = np.concatenate([np.fromfile(p, np.int16) for p in int16]).astype(np.int64)
    want = fp16_to_int16(h)
    f = h.view(np.float16).astype(np.float64)
    halves = (np.abs(f) % 1 == 0.5)
    equal = got == want
    print(f"{name}: {equal.sum()} of {got.size} elements equal Fp16ToInt16 of the fp16 result "
          f"({(halves & equal).sum()} of {halves.sum()} halves rounded away from zero, "
          f"{(np.abs(f) > 32767).sum()} beyond int16)")
    return bool(equal.all()), got.size


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--player", required=True)
    p.add_argument("--format", help="the variant's D_DATA_FORMAT (default 0x9; 0x6 with "
                   "--from-fp16)")
    p.add_argument("--from-fp16", action="store_true",
                   help="fp16 programs (0xa) run writing int16 instead")
    p.add_argument("cases", nargs="+")
    a = p.parse_args()
    run = check_from_fp16 if a.from_fp16 else check
    fmt = a.format or ("0x6" if a.from_fp16 else "0x9")
    results = [run(os.path.abspath(a.player), os.path.abspath(c), fmt) for c in a.cases]
    good = sum(ok for ok, _ in results)
    print(f"{good} of {len(results)} programs write {'int16' if a.from_fp16 else 'fp16'} as "
          "sdp_c.cpp states")
    sys.exit(0 if good == len(results) else 1)


if __name__ == "__main__":
    main()
