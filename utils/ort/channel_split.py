#!/usr/bin/env python3
"""A float ONNX model that splits a convolution's result along channels
(ONNX Split, as YOLO's C2f blocks and detection heads do), random from a
seed.

    channel_split.py OUT.onnx [--channels C] [--seed N]

x [1, 16, 8, 8] -> c = Conv(x) [1, 2C, 8, 8], 3x3, pad 1 -> Split into
a, b of C channels each; outputs a (the host reads a slice of a layer's
result) and y = Conv(b) [1, 16, 8, 8], 1x1 (a layer reads the other).
Compiled in fp16 from f32 each slice is a channel view of c (no host
slice), when C is a whole number of channel atoms.
"""

import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from deep_conv import model_of


def build(channels, seed):
    rng = np.random.default_rng(seed)
    w = rng.uniform(-0.3, 0.3, size=(2 * channels, 16, 3, 3)).astype(np.float32)
    w2 = rng.uniform(-0.3, 0.3, size=(16, channels, 1, 1)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Split", ["c", "split"], ["a", "b"], name="split", axis=1),
        helper.make_node("Conv", ["b", "w2"], ["y"], name="conv_b"),
    ]
    graph = helper.make_graph(
        nodes, "channel_split",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, channels, 8, 8]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 8, 8])],
        initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(w2, "w2"),
                     numpy_helper.from_array(np.array([channels, channels], np.int64), "split")])
    return model_of(graph)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    onnx.save(build(a.channels, a.seed), a.out)


if __name__ == "__main__":
    main()
