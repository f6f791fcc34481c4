#!/usr/bin/env python3
"""The anchor network of docs/NvidiaCompilerAnchor.md, as a Caffe model for
NVIDIA's compiler (nvdla_compiler), with its calibration table, an int8
input and float references.

    data 1x8x8x8 -> conv1 3x3 pad 1, 16 kernels, bias -> relu1 (in place)
         -> pool1 max 2x2 stride 2 -> conv2 1x1, 8 kernels, bias -> 1x8x4x4

Weights and input are deterministic (numpy's PCG64, seed 44). The
.caffemodel is written with python protobuf from NVIDIA's ditcaffe.proto
(compiled with protoc --python_out into OUT_DIR first; ditcaffe is Caffe's
caffe.proto under another package name, so the files are Caffe's format).
The calibration table (NVIDIA's JSON, LowPrecision.md) holds per-tensor
scales max|x| / 127 of the float network on this very input, as a
calibrator would measure them.

usage: make_caffe_net.py DITCAFFE_PROTO OUT_DIR
writes OUT_DIR/{anchor.prototxt, anchor.caffemodel, calib.json,
                input.bin (int8 1x8x8x8 = the network input / scale, as nv_small
                feature data: H x W x 8 channels),
                reference.npz (float activations, scales)}
"""
import json
import os
import subprocess
import sys

import numpy as np

SEED = 44
N, C, H, W = 1, 8, 8, 8
K1, K2 = 16, 8
IN_SCALE = 1.0 / 64  # input int8 q <-> float q * IN_SCALE

PROTOTXT = """name: "dla_anchor"
layer {{ name: "data" type: "Input" top: "data"
  input_param {{ shape {{ dim: {n} dim: {c} dim: {h} dim: {w} }} }} }}
layer {{ name: "conv1" type: "Convolution" bottom: "data" top: "conv1"
  convolution_param {{ num_output: {k1} kernel_size: 3 pad: 1 stride: 1 }} }}
layer {{ name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }}
layer {{ name: "pool1" type: "Pooling" bottom: "conv1" top: "pool1"
  pooling_param {{ pool: MAX kernel_size: 2 stride: 2 }} }}
layer {{ name: "conv2" type: "Convolution" bottom: "pool1" top: "conv2"
  convolution_param {{ num_output: {k2} kernel_size: 1 stride: 1 }} }}
"""


def to_feature_x8(t):
    """NCHW -> NVDLA int8 feature data on nv_small (8-byte atoms): surfaces of
    8 channels, each H x W x 8, packed (line stride W*8, surface stride
    H*W*8), as the loadable's tensor descriptor says."""
    n, c, h, w = t.shape
    cs = -(-c // 8) * 8
    p = np.zeros((n, cs, h, w), t.dtype)
    p[:, :c] = t
    return p.reshape(n, cs // 8, 8, h, w).transpose(0, 1, 3, 4, 2).copy()


def from_feature_x8(b, shape):
    n, c, h, w = shape
    cs = -(-c // 8) * 8
    t = np.frombuffer(b, np.int8)[:n * cs * h * w].reshape(n, cs // 8, h, w, 8)
    return t.transpose(0, 1, 4, 2, 3).reshape(n, cs, h, w)[:, :c]


def params():
    rng = np.random.default_rng(SEED)
    q_in = rng.integers(-64, 65, size=(N, C, H, W)).astype(np.int8)
    w1 = (rng.standard_normal((K1, C, 3, 3)) * 0.15).astype(np.float32)
    b1 = (rng.standard_normal(K1) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((K2, K1, 1, 1)) * 0.3).astype(np.float32)
    b2 = (rng.standard_normal(K2) * 0.1).astype(np.float32)
    return q_in, w1, b1, w2, b2


def conv(x, w, b, pad):
    """float NCHW convolution, stride 1 (float64 accumulation)."""
    n, c, h, wd = x.shape
    k, _, r, s = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - r + 1, wd + 2 * pad - s + 1
    out = np.zeros((n, k, oh, ow))
    for i in range(r):
        for j in range(s):
            out += np.einsum("nchw,kc->nkhw", xp[:, :, i:i + oh, j:j + ow], w[:, :, i, j].astype(np.float64))
    return out + b.astype(np.float64)[None, :, None, None]


def maxpool2(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def forward(x, w1, b1, w2, b2):
    conv1 = np.maximum(conv(x, w1, b1, 1), 0)
    pool1 = maxpool2(conv1)
    conv2 = conv(pool1, w2, b2, 0)
    return conv1, pool1, conv2


def main(proto, out):
    os.makedirs(out, exist_ok=True)
    subprocess.check_call(["protoc", "-I" + os.path.dirname(os.path.abspath(proto)),
                           "--python_out=" + out, os.path.abspath(proto)])
    sys.path.insert(0, out)
    import ditcaffe_pb2 as pb

    q_in, w1, b1, w2, b2 = params()
    x = q_in.astype(np.float64) * IN_SCALE
    conv1, pool1, conv2 = forward(x, w1, b1, w2, b2)

    with open(os.path.join(out, "anchor.prototxt"), "w") as f:
        f.write(PROTOTXT.format(n=N, c=C, h=H, w=W, k1=K1, k2=K2))

    net = pb.NetParameter()
    net.name = "dla_anchor"
    for name, wt, bs in (("conv1", w1, b1), ("conv2", w2, b2)):
        layer = net.layer.add()
        layer.name = name
        layer.type = "Convolution"
        for arr in (wt, bs):
            blob = layer.blobs.add()
            blob.shape.dim.extend(arr.shape)
            blob.data.extend(arr.ravel().tolist())
    with open(os.path.join(out, "anchor.caffemodel"), "wb") as f:
        f.write(net.SerializeToString())

    scales = {"data": IN_SCALE,
              "conv1": float(np.abs(conv1).max() / 127), "relu1": float(np.abs(conv1).max() / 127),
              "pool1": float(np.abs(pool1).max() / 127), "conv2": float(np.abs(conv2).max() / 127)}
    with open(os.path.join(out, "calib.json"), "w") as f:
        json.dump({k: {"scale": v, "min": 0, "max": 0, "offset": 0} for k, v in scales.items()}, f, indent=1)
    to_feature_x8(q_in).tofile(os.path.join(out, "input.bin"))
    np.savez(os.path.join(out, "reference.npz"), q_in=q_in, w1=w1, b1=b1, w2=w2, b2=b2,
             conv1=conv1, pool1=pool1, conv2=conv2,
             scales=np.array([scales[k] for k in ("data", "conv1", "relu1", "pool1", "conv2")]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
