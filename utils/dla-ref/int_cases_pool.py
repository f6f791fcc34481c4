"""Random integer pooling layers for `run_layers.py --kind int-pool`.

Average pooling with PDP's registers drawn across their whole ranges (the
edges included: reciprocals 0 and 2^17 - 1, pad values -2^18 and 2^18 - 1,
values that set int_sign_extend's sign bits), stated or derived; random
kernels 1..8, strides 1..16 and padding below the kernel; int8 and int16 data
that also reach the line buffer's wrap; some max / min layers. Expected
values come from int_pdp.pdp_pool, the numpy model of NVIDIA's C model.
"""

import numpy as np

import int_pdp

RECIP_MAX = (1 << 17) - 1
PAD_LO, PAD_HI = -(1 << 18), (1 << 18) - 1
TYPES = {"i8": ("int8", np.int8, 8), "i16": ("int16", np.int16, 16)}


def _recip(rng, k):
    r = rng.random()
    if r < 0.3:
        return None  # derived
    if r < 0.5:
        return int(rng.choice([0, 1, RECIP_MAX, 1 << 16, (1 << 16) // k, (1 << 16) // k + 1]))
    return int(rng.integers(0, RECIP_MAX + 1))


def _pad_values(rng, bits):
    r = rng.random()
    if r < 0.2:
        return None  # all 0
    if r < 0.4:
        # "each padded position counts as v" (int_pdp.pdp_pad_values)
        v = int(rng.integers(-(1 << (bits - 1)), 1 << (bits - 1)))
        return [n * v for n in range(1, 8)]
    if r < 0.6:
        # around int_sign_extend's sign bits of this width
        out = []
        for n in range(1, 8):
            bit = int_pdp.PAD_SIGN_BIT[bits][n - 1]
            v = int(rng.choice([1 << bit, (1 << bit) - 1, -(1 << bit), (1 << (bit + 1)) - 1,
                                PAD_LO, PAD_HI, 0, -1]))
            out.append(max(PAD_LO, min(PAD_HI, v)))
        return out
    return [int(v) for v in rng.integers(PAD_LO, PAD_HI + 1, size=7)]



def average_attrs(rng, kw, kh, bits):
    """Average pooling's register attributes, drawn: the op's text and the
    drawn reciprocals and pad values (None where the op derives them)."""
    rw, rh, pads = _recip(rng, kw), _recip(rng, kh), _pad_values(rng, bits)
    attrs = ""
    if rw is not None:
        attrs += f" recip_kernel_width {rw}"
    if rh is not None:
        attrs += f" recip_kernel_height {rh}"
    if pads is not None:
        attrs += " pad_values [" + ", ".join(map(str, pads)) + "]"
    return attrs, rw, rh, pads

def _data(rng, shape, bits):
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    r = rng.random()
    if r < 0.15:
        # one extreme everywhere: large window sums wrap in the line buffer
        return np.full(shape, rng.choice([lo, hi]), dtype=np.int64)
    if r < 0.3:
        return rng.choice([lo, hi, lo + 1, hi - 1, 0, -1, 1], size=shape)
    return rng.integers(lo, hi + 1, size=shape)


def window(rng, kmax=(8, 8), zero_pad=0.25):
    """A random PDP window: kernels 1..kmax, strides 1..16, padding below
    the kernel per side (none with probability zero_pad):
    (kh, kw, sh, sw, [top, bottom, left, right])."""
    kh, kw = int(rng.integers(1, kmax[0] + 1)), int(rng.integers(1, kmax[1] + 1))
    sh, sw = (int(s) for s in rng.choice([1, 1, 2, 2, 3, 5, 8, 16], size=2))
    pad = [int(rng.integers(0, kh)), int(rng.integers(0, kh)), int(rng.integers(0, kw)),
           int(rng.integers(0, kw))]
    if rng.random() < zero_pad:
        pad = [0, 0, 0, 0]
    return kh, kw, sh, sw, pad


def _layer(rng, index, make_case, tensor_type):
    t = "i8" if rng.random() < 0.5 else "i16"
    precision, np_type, bits = TYPES[t]
    kind = "average" if rng.random() < 0.85 else str(rng.choice(["max", "min"]))
    kh, kw, sh, sw, pad = window(rng)
    h = int(rng.integers(max(1, kh - pad[0] - pad[1]), 11))
    w = int(rng.integers(max(1, kw - pad[2] - pad[3]), 11))
    c = int(rng.integers(1, 4))
    x = _data(rng, (1, c, h, w), bits).astype(np_type)

    attrs, regs = "", {}
    rw = rh = pads = None
    if kind == "average":
        attrs, rw, rh, pads = average_attrs(rng, kw, kh, bits)
        if pads is not None:
            regs = {"pad_value_%dx" % (n + 1): v for n, v in enumerate(pads)}
    expected = int_pdp.pdp_pool(
        x, pooling_method=kind, kernel=(kh, kw), stride=(sh, sw), pad=tuple(pad),
        input_data=precision,
        recip_kernel_width=int_pdp.pdp_recip_kernel(kw) if rw is None else rw,
        recip_kernel_height=int_pdp.pdp_recip_kernel(kh) if rh is None else rh, **regs)
    op = (f"dla.pool {kind} %a0 kernel [{kh}, {kw}] stride [{sh}, {sw}] "
          f"pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]{attrs} "
          f": {tensor_type(x.shape, t)} -> {tensor_type(expected.shape, t)}")
    return make_case(f"int_pool_{kind}_{t}_{index}", [(x, t)], op, expected.shape, t, expected)


def int_pool_cases(rng, count, make_case, tensor_type):
    """`count` random layers, each made by make_case(name, args, op, shape,
    out_t, expected) (run_layers.Case, passed in as int_cases_sdp takes it)."""
    return [_layer(rng, i, make_case, tensor_type) for i in range(count)]
