#!/usr/bin/env python3
"""A float ONNX model whose convolutions are too deep for NVDLA's
convolution buffer to hold even one output column's window beside one
kernel group (issue 45 item 4: the input-channel cut), random from a seed.

    deep_conv.py OUT.onnx [--channels C] [--size S] [--kernels K]
                 [--window R] [--stride T] [--seed N] [--fc]

x [1, C, S, S] -> a = Relu(Conv_a(x) + bias) (the cut's last addition
moves into the Relu's SDP); y = Conv_b(x) + a, no bias (the residual add is
the SDP's element-wise operand, so the sum is read from memory by an
offline SDP); outputs y. Both R x R (odd), stride T, padding R // 2.
Weights uniform in +-1 / sqrt(R R C) so that sums stay near the input's
scale.

--fc: x [1, C] -> Gemm(x, W [C, K], bias) instead, a fully connected layer
whose C may exceed one NVDLA layer's input channels (DATAIN_CHANNEL, 8192).
"""

import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model_of(graph):
    """`graph` as a checked opset-13 model."""
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model


def build(channels, size, kernels, window, stride, seed):
    rng = np.random.default_rng(seed)
    bound = 1.0 / np.sqrt(float(window * window * channels))

    def weights(name):
        w = rng.uniform(-bound, bound, size=(kernels, channels, window, window)).astype(np.float32)
        return numpy_helper.from_array(w, name)

    bias = numpy_helper.from_array(rng.uniform(-0.5, 0.5, size=(kernels,)).astype(np.float32), "b_a")
    pad = window // 2
    conv = dict(kernel_shape=[window, window], pads=[pad] * 4, strides=[stride, stride])
    out = (size + 2 * pad - window) // stride + 1
    nodes = [
        helper.make_node("Conv", ["x", "w_a", "b_a"], ["c_a"], name="conv_a", **conv),
        helper.make_node("Relu", ["c_a"], ["a"], name="relu_a"),
        helper.make_node("Conv", ["x", "w_b"], ["c_b"], name="conv_b", **conv),
        helper.make_node("Add", ["c_b", "a"], ["y"], name="residual"),
    ]
    graph = helper.make_graph(
        nodes, "deep_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, kernels, out, out])],
        initializer=[weights("w_a"), bias, weights("w_b")])
    return model_of(graph)


def build_fc(channels, kernels, seed):
    rng = np.random.default_rng(seed)
    bound = 1.0 / np.sqrt(float(channels))
    w = rng.uniform(-bound, bound, size=(channels, kernels)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, size=(kernels,)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc")], "deep_fc",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, kernels])],
        initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    return model_of(graph)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--channels", type=int, default=2048)
    p.add_argument("--size", type=int, default=4)
    p.add_argument("--kernels", type=int, default=16)
    p.add_argument("--window", type=int, default=3)
    p.add_argument("--stride", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--fc", action="store_true")
    a = p.parse_args()
    if a.fc:
        onnx.save(build_fc(a.channels, a.kernels, a.seed), a.out)
        return
    if a.window % 2 != 1:
        p.error("--window must be odd")
    onnx.save(build(a.channels, a.size, a.kernels, a.window, a.stride, a.seed), a.out)


if __name__ == "__main__":
    main()
