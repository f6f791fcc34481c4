"""Random fp16 convolutions and SDPs for the CPU execution's NVDLA fp16
arithmetic (run_layers.py --kind fp16-conv): the expected bits from
fp_nvdla.py (the numpy model checked against NVIDIA's v1 C model), not from
the project's C++.

Cases: a direct convolution alone (its result fp16: the SDP bypassed, the
output converter rounding CACC's fp32); with a per-channel bias (the SDP's
X stage adds it in NVDLA's fp32); followed by an on-the-fly SDP (bias,
batch-norm, ReLU or PReLU on CACC's fp32, unrounded); an offline SDP on fp16
data (bias, batch-norm, eltwise, ReLU). The implicit form's steps are the
X stages' operations in its order (docs/NvdlaFp16.md "The CPU execution").
Data as run_fp16_trace.draw's: several binades, zeros of both signs,
denormals; 1 to 100 channels (one or two 64-channel atoms), kernels up to
3x3, strides, padding, dilation, batches of 1 or 2.

`expect="ideal"` gives the exact result rounded once to fp16 instead (the
negative control)."""

import numpy as np

import fp_nvdla as fp
from run_fp16_trace import fp16_data


def _f(bits):
    return np.asarray(bits, np.uint16).view(np.float16)


def _w(bits):
    """fp16 bits widened as the SDP does (Fp16ToFp32)."""
    return fp.fp16_to_fp32(bits)


def _geometry(rng):
    c = int(rng.choice([rng.integers(1, 65), rng.integers(65, 101)], p=[0.7, 0.3]))
    k = int(rng.integers(1, 17))
    r, s = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    dy, dx = (int(rng.choice([1, 1, 1, 2])) for _ in range(2))
    er, es = (r - 1) * dy + 1, (s - 1) * dx + 1
    pad = (int(rng.integers(0, r)), int(rng.integers(0, r)), int(rng.integers(0, s)),
           int(rng.integers(0, s)))
    h = int(rng.integers(max(1, er - pad[0] - pad[1]), 9))
    w = int(rng.integers(max(1, es - pad[2] - pad[3]), 9))
    stride = (int(rng.choice([1, 1, 2])), int(rng.choice([1, 1, 2])))
    return c, k, (r, s), (dy, dx), pad, (h, w), stride


def _sdp_steps(v, bias=None, bn=None, eltwise=None, relu=False, prelu=None):
    """The implicit form on fp32 bits v [N, K, H, W]: operands fp16 bits,
    per channel (bias, bn columns, prelu) or per element (eltwise)."""
    ch = lambda a: np.asarray(a)[None, :, None, None]  # noqa: E731
    if bias is not None:
        v = fp.fp32_add(v, _w(ch(bias)))
    if bn is not None:
        v = fp.fp32_mul(fp.fp32_add(v, _w(ch(bn[:, 0]))), _w(ch(bn[:, 1])))
    if eltwise is not None:
        v = fp.fp32_add(v, _w(eltwise))
    if relu:
        v = fp.fp32_relu(v)
    if prelu is not None:
        v = np.where((v >> 31) == 0, v, fp.fp32_mul(v, _w(ch(prelu))))
    return fp.sdp_cvt_fp16(v)


def _ideal_steps(v, bias=None, bn=None, eltwise=None, relu=False, prelu=None):
    """The same in float64 from the exact value, rounded once to fp16
    (saturating as NVDLA's converter)."""
    ch = lambda a: _f(np.asarray(a)).astype(np.float64)[None, :, None, None]  # noqa: E731
    if bias is not None:
        v = v + ch(bias)
    if bn is not None:
        v = (v + ch(bn[:, 0])) * ch(bn[:, 1])
    if eltwise is not None:
        v = v + _f(eltwise).astype(np.float64)
    if relu:
        v = np.maximum(v, 0)
    if prelu is not None:
        v = np.where(v >= 0, v, v * ch(prelu))
    return np.clip(v, -65504, 65504).astype(np.float16).view(np.uint16)


def _exact_conv(x, w, stride, pad, dilation):
    """The exact sums (float64), [N, K, OH, OW]."""
    xf = _f(x).astype(np.float64)
    wf = _f(w).astype(np.float64)
    N, C, H, W = xf.shape
    K, _, R, S = wf.shape
    xp = np.pad(xf, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    oh = (H + pad[0] + pad[1] - ((R - 1) * dilation[0] + 1)) // stride[0] + 1
    ow = (W + pad[2] + pad[3] - ((S - 1) * dilation[1] + 1)) // stride[1] + 1
    out = np.zeros((N, K, oh, ow))
    for r in range(R):
        for s in range(S):
            win = xp[:, :, r * dilation[0]:r * dilation[0] + (oh - 1) * stride[0] + 1:stride[0],
                     s * dilation[1]:s * dilation[1] + (ow - 1) * stride[1] + 1:stride[1]]
            out += np.einsum("nchw,kc->nkhw", win, wf[:, :, r, s])
    return out


def layer_cases(rng, count, Case, tensor_type, expect="hardware"):
    hw = expect == "hardware"
    cases = []
    for n in range(count):
        kind = ("conv", "bias", "fused", "offline")[n % 4]
        c, k, (r, s), dil, pad, (h, wd), stride = _geometry(rng)
        batch = int(rng.choice([1, 1, 1, 2]))
        if kind == "offline":
            shape = (batch, c, h, wd)
            x = fp16_data(rng, shape, zeros=0.1)
            bias = fp16_data(rng, (c,), zeros=0.1) if rng.random() < 0.7 else None
            bn = fp16_data(rng, (c, 2), zeros=0.05) if rng.random() < 0.6 else None
            elt = fp16_data(rng, shape, zeros=0.1) if rng.random() < 0.5 else None
            if elt is not None and rng.random() < 0.5:
                elt = x ^ np.uint16(0x8000)  # x + (-x): the sign of a zero sum
            relu = bool(rng.random() < 0.5)
            v = _w(x)
            steps = dict(bias=bias, bn=bn, eltwise=elt, relu=relu)
            e = _sdp_steps(v, **steps) if hw else _ideal_steps(
                _f(x).astype(np.float64), **steps)
            args = [(_f(x), "f16")]
            text = "dla.sdp offline %a0"
            for name, a in (("bias", bias), ("batchnorm", bn), ("eltwise", elt)):
                if a is not None:
                    text += f" {name} %a{len(args)} : {tensor_type(a.shape, 'f16')}"
                    args.append((_f(a), "f16"))
            text += (" relu" if relu else "") + \
                f" : {tensor_type(shape, 'f16')} -> {tensor_type(shape, 'f16')}"
            case = Case(f"fp16_sdp_{n}", args, text, shape, "f16", _f(e))
            case.bits = True
            cases.append(case)
            continue
        x = fp16_data(rng, (batch, c, h, wd), zeros=float(rng.choice([0.0, 0.2])))
        w = fp16_data(rng, (k, c, r, s), zeros=0.1)
        acc = np.stack([fp.conv_fp16(x[i], w, stride, pad, dil) for i in range(batch)])
        exact = None if hw else _exact_conv(x, w, stride, pad, dil)
        out_shape = acc.shape
        attrs = (f" stride [{stride[0]}, {stride[1]}] pad [{pad[0]}, {pad[1]}, {pad[2]}, "
                 f"{pad[3]}] dilation [{dil[0]}, {dil[1]}]")
        types = f"{tensor_type(x.shape, 'f16')}, {tensor_type(w.shape, 'f16')}"
        args = [(_f(x), "f16"), (_f(w), "f16")]
        if kind in ("conv", "bias"):
            bias = fp16_data(rng, (k,), zeros=0.1) if kind == "bias" else None
            e = (_sdp_steps(acc, bias=bias) if hw else _ideal_steps(exact, bias=bias))
            names = "%a0, %a1"
            if bias is not None:
                names += ", %a2"
                types += f", {tensor_type(bias.shape, 'f16')}"
                args.append((_f(bias), "f16"))
            op = f"dla.conv direct {names}{attrs} : {types} -> {tensor_type(out_shape, 'f16')}"
            case = Case(f"fp16_{kind}_{n}", args, op, out_shape, "f16", _f(e))
        else:
            bias = fp16_data(rng, (k,), zeros=0.1) if rng.random() < 0.5 else None
            bn = fp16_data(rng, (k, 2), zeros=0.05) if rng.random() < 0.7 else None
            relu = bool(rng.random() < 0.5)
            prelu = fp16_data(rng, (k,), zeros=0.0) if not relu and rng.random() < 0.5 else None
            steps = dict(bias=bias, bn=bn, relu=relu, prelu=prelu)
            e = _sdp_steps(acc, **steps) if hw else _ideal_steps(exact, **steps)
            sdp = "dla.sdp on_the_fly %c"
            for name, a in (("bias", bias), ("batchnorm", bn)):
                if a is not None:
                    sdp += f" {name} %a{len(args)} : {tensor_type(a.shape, 'f16')}"
                    args.append((_f(a), "f16"))
            sdp += " relu" if relu else ""
            if prelu is not None:
                sdp += f" prelu %a{len(args)} : {tensor_type(prelu.shape, 'f16')}"
                args.append((_f(prelu), "f16"))
            ot = tensor_type(out_shape, "f16")
            sdp += f" : {ot} -> {ot}"
            case = Case(f"fp16_fused_{n}", args, sdp, out_shape, "f16", _f(e))
            case.prelude = f"%c = dla.conv direct %a0, %a1{attrs} : {types} -> {ot}"
        case.bits = True
        cases.append(case)
    return cases
