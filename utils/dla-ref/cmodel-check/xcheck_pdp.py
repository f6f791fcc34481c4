"""PDP is SystemC, not HLS: this is a line-by-line transcription of
NV_NVDLA_pdp.cpp's streaming loop (the loop in PdpConsumerThread's data
path, LineOperation, PoolingStage0Calc, PoolingStage1Calc), run against
int_pdp.pdp_pool on random layers. It checks the window / padding reading
of pdp_pool, which sums windows directly. The numpy model (utils/dla-ref)
on PYTHONPATH: run.sh sets it."""

import random
import sys

import numpy as np

from int_arith import rha, wrap
from int_pdp import pdp_pad_register, pdp_pool


def stream(x, method, kh, kw, sh, sw, pt, pb, pl, pr, regs, rw, rh, bits):
    """One channel through the C model's loops, variable names as there."""
    cube_in_height, cube_in_width = x.shape
    pad = [0] + [pdp_pad_register(v, n + 1, "int8" if bits == 8 else "int16")
                 for n, v in enumerate(regs)]
    buf_bits = 2 * bits  # int16 line buffers for int8, int32 for int16
    line_op, line_buf = {}, {}
    pick = {"max": max, "min": min}
    for h in range(cube_in_height):
        for w in range(cube_in_width):
            for kwi in range(kw):
                if not (pl + w >= kwi and pl + w + (kw - kwi) <= pl + pr + cube_in_width
                        and (pl + w - kwi) % sw == 0):
                    continue
                ow = (pl + w - kwi) // sw
                # LineOperation
                first = w == 0 or kwi == 0
                add_left = w + 1 < kw and (kwi + 1 == kw or (w + 1 == cube_in_width
                                                              and w < kwi and pl))
                add_right = w + kw - kwi > cube_in_width and w + 1 == cube_in_width
                pv = pad[kw - (w + 1)] if add_left else pad[kw - (kwi + 1)] if add_right else 0
                v = int(x[h, w])
                if method == "average":
                    line_op[ow] = int(wrap((v if first else line_op[ow] + v) + pv, buf_bits))
                else:
                    line_op[ow] = v if first else pick[method](line_op[ow], v)
                if not (kwi + 1 == kw or (w + kw - kwi > cube_in_width
                                          and w + 1 == cube_in_width)):
                    continue
                for khi in range(kh):
                    if not (pt + h >= khi and pt + h + (kh - khi) <= pt + pb + cube_in_height
                            and (pt + h - khi) % sh == 0):
                        continue
                    key = ((pt + h - khi) // sh, ow)
                    # PoolingStage0Calc
                    first = h == 0 or khi == 0
                    add_top = h + 1 < kh and (khi + 1 == kh or (h + 1 == cube_in_height
                                                                 and h < khi))
                    add_bottom = h + kh - khi > cube_in_height and h + 1 == cube_in_height
                    pv = pad[kh - (h + 1)] if add_top else \
                        pad[kh - (khi + 1)] if add_bottom else 0
                    pv = int(wrap(pv * kw, buf_bits))
                    if method == "average":
                        s = (line_op[ow] if first else line_buf[key] + line_op[ow]) + pv
                        line_buf[key] = int(wrap(s, buf_bits))
                    else:
                        line_buf[key] = line_op[ow] if first else \
                            pick[method](line_buf[key], line_op[ow])
    oh = (cube_in_height + pt + pb - kh) // sh + 1
    ow = (cube_in_width + pl + pr - kw) // sw + 1
    out = np.zeros((oh, ow), np.int64)
    for (i, j), s in line_buf.items():
        # PoolingStage1Calc
        out[i, j] = int(wrap(rha(rha(np.int64(s) * rw, 16) * rh, 16), bits)) \
            if method == "average" else s
    return out


def random_layer(rng):
    bits = rng.choice([8, 16])
    kh, kw = rng.randint(1, 8), rng.randint(1, 8)
    sh, sw = rng.randint(1, 4), rng.randint(1, 4)
    pt, pb = rng.randint(0, kh - 1), rng.randint(0, kh - 1)
    pl, pr = rng.randint(0, kw - 1), rng.randint(0, kw - 1)
    h = rng.randint(max(1, kh - pt - pb), 9)
    w = rng.randint(max(1, kw - pl - pr), 9)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    x = np.array([[rng.choice([lo, hi, rng.randint(lo, hi)]) for _ in range(w)]
                  for _ in range(h)])
    # PAD_VALUE_nX: n * pad as software writes it, or any 19-bit field value
    regs = [rng.choice([rng.randint(-(1 << 18), (1 << 19) - 1), n * rng.randint(lo, hi)])
            for n in range(1, 8)]
    regs = [r if -(1 << 18) <= r < (1 << 19) else 0 for r in regs]
    rw = rng.choice([(1 << 16) // kw, rng.randint(0, (1 << 17) - 1)])
    rh = rng.choice([(1 << 16) // kh, rng.randint(0, (1 << 17) - 1)])
    return (x, rng.choice(["average", "max", "min"]), kh, kw, sh, sw, pt, pb, pl, pr, regs,
            rw, rh, bits)


def main(n):
    rng = random.Random(5)
    bad = 0
    for _ in range(n):
        layer = random_layer(rng)
        x, method, kh, kw, sh, sw, pt, pb, pl, pr, regs, rw, rh, bits = layer
        got = pdp_pool(x.reshape(1, 1, *x.shape), pooling_method=method, kernel=(kh, kw),
                       stride=(sh, sw), pad=(pt, pb, pl, pr),
                       input_data="int8" if bits == 8 else "int16", recip_kernel_width=rw,
                       recip_kernel_height=rh,
                       **{"pad_value_%dx" % (i + 1): regs[i] for i in range(7)})[0, 0]
        ref = stream(*layer)
        if got.shape != ref.shape or not (got == ref).all():
            bad += 1
            if bad < 4:
                print(layer[1:], got.tolist(), ref.tolist())
    print("PDP  %6d layers, %d mismatches" % (n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000))
