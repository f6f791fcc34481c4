"""A small U-Net-like segmentation model (what salient-object and text
detectors look like: 3x3 convolutions with Relu, a depthwise 3x3, max
pools, nearest upsampling, concatenations with the skips, a 1x1 head and a
Sigmoid), and N input samples.

    seg_net.py DIR [--size 320] [--samples 32] [--fp16 none|weights|all]

writes DIR/model.onnx and DIR/data/x_<i>.npy (1 x 3 x size x size,
uniform in [-1, 1]). --fp16 weights: every weight an fp16 initializer read
through a Cast to float (what some exporters write); --fp16 all: the whole
network in float16 between a Cast of the float input and a Cast of the
output to float (onnxconverter-common's keep_io_types form).
"""
import argparse
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def seg_model(size=320, fp16="none", width=16, seed=3):
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    half = fp16 == "all"

    def weight(name, shape, scale):
        w = (rng.standard_normal(shape) * scale).astype(np.float32)
        if fp16 == "none":
            inits.append(numpy_helper.from_array(w, name))
            return name
        inits.append(numpy_helper.from_array(w.astype(np.float16), name + "_h"))
        if half:
            return name + "_h"
        nodes.append(helper.make_node("Cast", [name + "_h"], [name], name + "_cast",
                                      to=TensorProto.FLOAT))
        return name

    def conv(x, cin, cout, name, k=3, group=1, relu=True):
        w = weight(name + "_w", (cout, cin // group, k, k), (2.0 / (cin // group * k * k)) ** 0.5)
        b = weight(name + "_b", (cout,), 0.1)
        p = k // 2
        nodes.append(helper.make_node("Conv", [x, w, b], [name], name, pads=[p] * 4, group=group))
        if not relu:
            return name
        nodes.append(helper.make_node("Relu", [name], [name + "_relu"], name + "_relu"))
        return name + "_relu"

    def pool(x, name):
        nodes.append(helper.make_node("MaxPool", [x], [name], name, kernel_shape=[2, 2],
                                      strides=[2, 2]))
        return name

    def up(x, name):
        scales = name + "_scales"
        inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), scales))
        nodes.append(helper.make_node("Resize", [x, "", scales], [name], name, mode="nearest"))
        return name

    def concat(a, b, name):
        nodes.append(helper.make_node("Concat", [a, b], [name], name, axis=1))
        return name

    x = "x"
    if half:
        nodes.append(helper.make_node("Cast", ["x"], ["x_h"], "graph_input_cast_0",
                                      to=TensorProto.FLOAT16))
        x = "x_h"
    c = width
    e1 = conv(conv(x, 3, c, "enc1a"), c, c, "enc1b")
    e2 = conv(conv(pool(e1, "pool1"), c, 2 * c, "enc2a"), 2 * c, 2 * c, "enc2b")
    m = conv(pool(e2, "pool2"), 2 * c, 4 * c, "mid")
    m = conv(m, 4 * c, 4 * c, "mid_dw", group=4 * c)
    d2 = conv(concat(up(m, "up2"), e2, "cat2"), 6 * c, 2 * c, "dec2")
    d1 = conv(concat(up(d2, "up1"), e1, "cat1"), 3 * c, c, "dec1")
    head = conv(d1, c, 1, "head", k=1, relu=False)
    nodes.append(helper.make_node("Sigmoid", [head], ["prob_h" if half else "prob"], "sigmoid"))
    if half:
        nodes.append(helper.make_node("Cast", ["prob_h"], ["prob"], "graph_output_cast_0",
                                      to=TensorProto.FLOAT))
    g = helper.make_graph(nodes, "seg", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                       [1, 3, size, size])],
                          [helper.make_tensor_value_info("prob", TensorProto.FLOAT,
                                                         [1, 1, size, size])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def samples(n, size, seed=5):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, (1, 3, size, size)).astype(np.float32) for _ in range(n)]


def write(out, size=320, n=32, fp16="none"):
    import onnx
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    onnx.save(seg_model(size, fp16), os.path.join(out, "model.onnx"))
    for i, x in enumerate(samples(n, size)):
        np.save(os.path.join(out, "data", "x_%02d.npy" % i), x)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("--size", type=int, default=320)
    p.add_argument("--samples", type=int, default=32)
    p.add_argument("--fp16", choices=["none", "weights", "all"], default="none")
    a = p.parse_args()
    write(a.dir, a.size, a.samples, a.fp16)
