#!/usr/bin/env python3
"""The int8 result NVIDIA's loadable asks for, computed in numpy from the
loadable alone: its descriptors (loadable_summary.descriptors), its weight
and bias blobs, and the input, run through the project's independent
integer reference of the units (utils/dla-ref: int_conv, int_sdp, checked
against the C model's code, not against the harness). Covers what the
anchor network's loadable uses (direct int8 convolution with its fused SDP:
X1 per-channel bias add from memory, ReLU, the output converter; PDP max
pooling) and refuses anything else. Compares byte for byte with the
harness's output.

usage: descriptor_reference.py MODEL.nvdla INPUT.bin OUTPUT0.bin
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "utils", "dla-ref"))
from int_conv import cacc_clip, cdma_cvt_feature  # noqa: E402
from int_sdp import sdp_cvt, sdp_x  # noqa: E402
from loadable_summary import descriptors  # noqa: E402

ATOM = 8  # nv_small: atomic C and K, memory atom (bytes)
SDP_ADD, SDP_PER_KERNEL, SDP_ALU_SUM, ACT_RELU = 2, 1, 2, 1


def cube_bytes(mem, c):
    return mem(c["address"])[c["offset"]:c["offset"] + c["size"]]


def read_feature(b, c):
    """NCHW int8 from nv_small feature data (surfaces of 8 channels)."""
    w, h, ch = c["width"], c["height"], c["channel"]
    out = np.zeros((ch, h, w), np.int64)
    a = np.frombuffer(b, np.int8)
    for k in range(ch):
        s, e = divmod(k, ATOM)
        for y in range(h):
            out[k, y] = a[s * c["surf_stride"] + y * c["line_stride"] + e:][:w * ATOM:ATOM]
    return out


def write_feature(x, c):
    b = np.zeros(c["size"], np.int8)
    ch, h, w = x.shape
    for k in range(ch):
        s, e = divmod(k, ATOM)
        for y in range(h):
            b[s * c["surf_stride"] + y * c["line_stride"] + e:][:w * ATOM:ATOM] = x[k, y]
    return b.tobytes()


def conv(d, surf, src, mem, kernels):
    """Direct int8 convolution: NVIDIA's weight order [K/8][C/8][R][S][8 k][8 c]."""
    assert d["conv_mode"] == 0 and d["in_precision"] == 0 and d["out_precision"] == 0
    assert (d["dilation_x"], d["dilation_y"]) == (1, 1)
    R, S, C = d["kernel_height_csc"], d["kernel_width_csc"], d["kernel_channel_csc"]
    K = kernels
    raw = np.frombuffer(cube_bytes(mem, surf["weight_data"]), np.int8).astype(np.int64)
    wt = np.zeros((K, C, R, S), np.int64)
    at = 0
    for kg in range(0, K, ATOM):
        kn = min(ATOM, K - kg)
        for cg in range(0, C, ATOM):
            cn = min(ATOM, C - cg)
            for r in range(R):
                for s in range(S):
                    blk = raw[at:at + kn * cn].reshape(kn, cn)
                    wt[kg:kg + kn, cg:cg + cn, r, s] = blk
                    at += kn * cn
    ic = d["in_cvt"]
    x = cdma_cvt_feature(src, cvt_en=ic["enable"], cvt_offset=ic["offset"], cvt_scale=ic["scale"],
                         cvt_truncate=ic["truncate"], in_precision="int8", proc_precision="int8")
    x = np.pad(x.astype(np.int64), ((0, 0), (d["pad_y_top"], d["pad_y_bottom"]),
                                    (d["pad_x_left"], d["pad_x_right"])), constant_values=d["pad_val"])
    sy, sx = d["conv_stride_y"], d["conv_stride_x"]
    oh = (x.shape[1] - R) // sy + 1
    ow = (x.shape[2] - S) // sx + 1
    acc = np.zeros((K, oh, ow), np.int64)
    for r in range(R):
        for s in range(S):
            acc += np.einsum("chw,kc->khw", x[:, r:r + sy * oh:sy, s:s + sx * ow:sx], wt[:, :, r, s])
    return cacc_clip(acc, clip_truncate=d["out_cvt"]["truncate"])


def sdp(d, surf, acc, mem):
    x1 = d["x1_op"]
    assert x1["enable"] and x1["type"] == SDP_ADD and x1["mode"] == SDP_PER_KERNEL
    assert x1["alu_type"] == SDP_ALU_SUM and x1["precision"] == 1
    assert not d["x2_op"]["enable"] and not d["y_op"]["enable"] and d["lut_index"] == -1
    K = acc.shape[0]
    bias = np.frombuffer(cube_bytes(mem, surf["x1_data"]), "<i2")[:K].astype(np.int64)
    t = sdp_x(acc, alu_bypass=False, alu_algo="sum", alu_operand=bias[:, None, None],
              alu_shift_value=x1["shift_value"], mul_bypass=True, mul_shift_value=x1["truncate"],
              relu_bypass=x1["act"] != ACT_RELU)
    oc = d["out_cvt"]
    return sdp_cvt(t, cvt_offset=oc["offset"], cvt_scale=oc["scale"], cvt_shift=oc["truncate"],
                   out_precision="int8").astype(np.int64)


def pdp(d, x):
    assert d["pool_mode"] == 1 and d["split_num"] == 1  # max, one pass
    kh, kw = d["pool_height"] + 1, d["pool_width"] + 1
    sy, sx = d["stride_y"], d["stride_x"]
    assert not any((d["pad_left"], d["pad_right"], d["pad_top"], d["pad_bottom"]))
    oh, ow = (x.shape[1] - kh) // sy + 1, (x.shape[2] - kw) // sx + 1
    out = np.full((x.shape[0], oh, ow), -128, np.int64)
    for i in range(kh):
        for j in range(kw):
            out = np.maximum(out, x[:, i:i + sy * oh:sy, j:j + sx * ow:sx])
    return out


def main(model, input_bin, output_bin):
    ops, addr_bytes, al = descriptors(model)

    def mem(index):
        """The SET bytes behind the task's address-list entry `index`."""
        return addr_bytes(al[index])

    # Surfaces by (address, offset): what each operation wrote, for its consumers.
    written = {}
    inputs = open(input_bin, "rb").read()
    pending = None
    last = None
    for k, (op, d, surf) in enumerate(ops):
        if op == "CONV":
            s = surf["src_data"]
            key = (s["address"], s["offset"])
            src = written[key] if key in written else read_feature(inputs, s)
            # The fused SDP (the next operation) says how many kernels.
            pending = (d, surf, src)
        elif op == "SDP":
            cd, csurf, src = pending
            acc = conv(cd, csurf, src, mem, surf["dst_data"]["channel"])
            last = (sdp(d, surf, acc, mem), surf["dst_data"])
            written[(surf["dst_data"]["address"], surf["dst_data"]["offset"])] = last[0]
        elif op == "PDP":
            s = surf["src_data"]
            out = pdp(d, written[(s["address"], s["offset"])])
            last = (out, surf["dst_data"])
            written[(surf["dst_data"]["address"], surf["dst_data"]["offset"])] = out
        else:
            sys.exit("operation %s is not covered" % op)
    want = write_feature(*last)
    got = open(output_bin, "rb").read()
    diff = sum(a != b for a, b in zip(want, got)) + abs(len(want) - len(got))
    print("descriptor reference: %d bytes, %d differ from the harness's output" % (len(want), diff))
    return 1 if diff else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
