"""fp16 Winograd convolutions (nv_full: 3x3, stride 1, feature input) as
NVDLA computes them, for run_fp16_trace.py --layer winograd and
run_layers.py --kind winograd: the stored taps (weight_ref.winograd_values:
G g G^T rounded once to fp16, the encoding's rounding) through
fp_nvdla.conv_wino_fp16 (CSC's PRA in fp17 steps, CMAC's Winograd cell,
CACC), then the SDP: the bias added by an X stage (FpAdd of the widened
fp16 bias) and the output converter (Fp32ToFp16)."""

import numpy as np

import fp_nvdla as fp
import weight_ref

ENC = "#dla.feature<fp16>"


def wenc(config=None):
    return "#dla.weight<winograd, fp16" + (f", config = {config}>" if config else ">")


def taps(w, enc=None):
    """The stored taps of fp16 weights `w` (K x C x 3 x 3 float16) as fp16
    bits, K x C' x 4 x 4."""
    enc = enc or wenc()
    p = weight_ref.plan(enc, w.shape, "f16")
    return np.asarray(weight_ref.winograd_values(w, p), np.float16).view(np.uint16)


def expected(x, w, pad, bias=None, enc=None):
    """NVDLA's fp16 Winograd of one image: x [C, H, W] float16, w [K, C, 3,
    3] float16, bias [K] float16 or None. Returns (CACC's fp32 bits, the
    fp16 result bits), [K, OH, OW] each."""
    y32 = fp.conv_wino_fp16(np.asarray(x, np.float16).view(np.uint16), taps(w, enc), pad)
    if bias is not None:
        b = np.asarray(bias, np.float16).view(np.uint16)[:, None, None]
        y32 = fp.sdp_x_fp16(y32, alu_bypass=0, alu_algo=fp.ALU_SUM,
                            alu_op=np.broadcast_to(b, y32.shape))
    return y32, fp.sdp_cvt_fp16(y32)


def draw(rng, n, zeros=0.1):
    """A random fp16 Winograd layer: padding 0..2 a side, outputs of whole
    4x4 tiles (4..16 a side), 1..100 channels, 1..40 kernels; data over
    several binades with zeros of both signs and denormals
    (run_fp16_trace.fp16_data's draw)."""
    import run_fp16_trace as r16
    pad = [int(rng.integers(0, 3)) for _ in range(4)]
    oh, ow = 4 * int(rng.integers(1, 5)), 4 * int(rng.integers(1, 5))
    h, w = oh + 2 - pad[0] - pad[1], ow + 2 - pad[2] - pad[3]
    c = int(rng.choice([rng.integers(1, 33), rng.integers(33, 101)], p=[0.6, 0.4]))
    k = int(rng.integers(1, 41))
    x = r16.fp16_data(rng, (c, h, w), zeros=float(rng.choice([0.0, 0.2])))
    wt = r16.fp16_data(rng, (k, c, 3, 3), zeros=zeros)
    return dict(name=f"wino_{n}", x=x, w=wt, pad=tuple(pad), shape=(c, h, w), k=k,
                out=(k, oh, ow))
