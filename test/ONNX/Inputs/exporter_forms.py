"""Writes models in the forms exporters and converters write into the
directory argv[1] (test/ONNX/exporter-forms.test):

  fp16.onnx       an fp16 network as onnxconverter-common's float16
                  conversion writes it (keep_io_types): float32 input and
                  output cast at the edges, fp16 weights and activations,
                  the input cast appended LAST (an unsorted graph)
  bf16.onnx       bfloat16 weights (cast to float32 in the graph) and an
                  activation rounded through bfloat16
  dynamic.onnx    onnxruntime.quantization.quantize_dynamic's form:
                  DynamicQuantizeLinear -> ConvInteger / MatMulInteger ->
                  Cast -> Mul by x_scale * w_scale (-> Add bias)
  dynamic_float.onnx  the float network of dynamic.onnx with its weights
                  dequantized in numpy: what its import must compute
  external.onnx   a float network with its weights in external.onnx_data
  cycle.onnx      two nodes reading each other's output
  undefined.onnx  a node reading a tensor nothing defines
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

OUT = sys.argv[1]
rng = np.random.default_rng(46)


def save(name, nodes, inputs, outputs, inits, opset=13, **kw):
    g = h.make_graph(nodes, name, inputs, outputs, inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, os.path.join(OUT, name + ".onnx"), **kw)


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def w(shape, scale=0.3, dtype=np.float32):
    return (rng.standard_normal(shape) * scale).astype(dtype)


# -- fp16, unsorted --------------------------------------------------------
f16 = lambda a, n: nh.from_array(a.astype(np.float16), n)
fp16_inits = [f16(w((8, 3, 3, 3)), "w1"), f16(w((8,)), "b1"), f16(w((8, 8, 1, 1)), "w2"),
              f16(w((8, 16, 3, 3), 0.1), "w3"), nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales"),
              nh.from_array(np.zeros(0, np.float32), "roi")]
nodes = [
    h.make_node("Conv", ["x16", "w1", "b1"], ["c1"], name="/stage1/conv1", pads=[1, 1, 1, 1]),
    h.make_node("Relu", ["c1"], ["r1"], name="/stage1/relu1"),
    h.make_node("MaxPool", ["r1"], ["p1"], name="/stage1/pool", kernel_shape=[2, 2], strides=[2, 2]),
    h.make_node("Conv", ["p1", "w2"], ["c2"], name="/stage1/conv2"),
    h.make_node("Resize", ["c2", "roi", "scales"], ["u2"], name="/stage1/Resize", mode="nearest"),
    h.make_node("Concat", ["r1", "u2"], ["cat"], name="/stage1/Concat_2", axis=1),
    h.make_node("Conv", ["cat", "w3"], ["c3"], name="/stage1/conv3", pads=[1, 1, 1, 1]),
    h.make_node("Sigmoid", ["c3"], ["s3"], name="/stage1/sigmoid"),
    h.make_node("Cast", ["s3"], ["y"], name="graph_output_cast_0", to=T.FLOAT),
    h.make_node("Cast", ["x"], ["x16"], name="graph_input_cast_0", to=T.FLOAT16),
]
save("fp16", nodes, [vi("x", T.FLOAT, [1, 3, 16, 16])], [vi("y", T.FLOAT, [1, 8, 16, 16])], fp16_inits)

# -- bfloat16 ----------------------------------------------------------------
def bf16(a, name):
    bits = (np.ascontiguousarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return h.make_tensor(name, T.BFLOAT16, a.shape, bits.tobytes(), raw=True)


nodes = [
    h.make_node("Cast", ["wb"], ["wf"], name="weight_cast", to=T.FLOAT),
    h.make_node("Cast", ["x"], ["xb"], name="to_bf16", to=T.BFLOAT16),
    h.make_node("Cast", ["xb"], ["xf"], name="from_bf16", to=T.FLOAT),
    h.make_node("Conv", ["xf", "wf"], ["y"], name="conv", pads=[1, 1, 1, 1]),
]
save("bf16", nodes, [vi("x", T.FLOAT, [1, 4, 8, 8])], [vi("y", T.FLOAT, [1, 6, 8, 8])],
     [bf16(w((6, 4, 3, 3)), "wb")])

# -- quantize_dynamic's form ---------------------------------------------------
w_conv, w_mm = w((8, 3, 3, 3)), w((8 * 8 * 8, 10), 0.05)
b_conv = w((8,))


def quantize_weight(a):
    """uint8 / int8 as quantize_dynamic writes weights: a scale from the
    range, a zero point (uint8 asymmetric here, as its default)."""
    lo, hi = min(a.min(), 0), max(a.max(), 0)
    scale = np.float32((hi - lo) / 255)
    zp = np.uint8(np.clip(np.rint(-lo / scale), 0, 255))
    q = np.clip(np.rint(a / scale) + zp, 0, 255).astype(np.uint8)
    return q, scale, zp


qc, sc, zc = quantize_weight(w_conv)
qm, sm, zm = quantize_weight(w_mm)
inits = [nh.from_array(qc, "conv_w_quantized"), nh.from_array(np.array(sc), "conv_w_scale"),
         nh.from_array(np.array(zc), "conv_w_zero_point"), nh.from_array(b_conv.reshape(1, 8, 1, 1), "conv_b"),
         nh.from_array(qm, "fc_w_quantized"), nh.from_array(np.array(sm), "fc_w_scale"),
         nh.from_array(np.array(zm), "fc_w_zero_point"), nh.from_array(np.array([1, -1], np.int64), "flat")]
nodes = [
    h.make_node("DynamicQuantizeLinear", ["x"], ["x_q", "x_scale", "x_zp"], name="x_QuantizeLinear"),
    h.make_node("ConvInteger", ["x_q", "conv_w_quantized", "x_zp", "conv_w_zero_point"], ["conv_i32"],
                name="conv_quant", pads=[1, 1, 1, 1]),
    h.make_node("Cast", ["conv_i32"], ["conv_f"], name="conv_cast", to=T.FLOAT),
    h.make_node("Mul", ["x_scale", "conv_w_scale"], ["conv_scale"], name="conv_scales_mul"),
    h.make_node("Mul", ["conv_f", "conv_scale"], ["conv_out"], name="conv_output_scale_mul"),
    h.make_node("Add", ["conv_out", "conv_b"], ["conv_biased"], name="conv_bias_add"),
    h.make_node("Relu", ["conv_biased"], ["r"], name="relu"),
    h.make_node("Reshape", ["r", "flat"], ["f"], name="flatten"),
    h.make_node("DynamicQuantizeLinear", ["f"], ["f_q", "f_scale", "f_zp"], name="f_QuantizeLinear"),
    h.make_node("MatMulInteger", ["f_q", "fc_w_quantized", "f_zp", "fc_w_zero_point"], ["fc_i32"],
                name="fc_quant"),
    h.make_node("Cast", ["fc_i32"], ["fc_f"], name="fc_cast", to=T.FLOAT),
    h.make_node("Mul", ["f_scale", "fc_w_scale"], ["fc_scale"], name="fc_scales_mul"),
    h.make_node("Mul", ["fc_f", "fc_scale"], ["y"], name="fc_output_scale_mul"),
]
io = ([vi("x", T.FLOAT, [1, 3, 8, 8])], [vi("y", T.FLOAT, [1, 10])])
save("dynamic", nodes, *io, inits, opset=13)
deq = lambda q, s, z: ((q.astype(np.float32) - np.float32(z)) * s).astype(np.float32)
nodes = [
    h.make_node("Conv", ["x", "conv_w", "conv_b1"], ["r0"], pads=[1, 1, 1, 1]),
    h.make_node("Relu", ["r0"], ["r"]),
    h.make_node("Reshape", ["r", "flat"], ["f"]),
    h.make_node("MatMul", ["f", "fc_w"], ["y"]),
]
save("dynamic_float", nodes, *io, [nh.from_array(deq(qc, sc, zc), "conv_w"), nh.from_array(b_conv, "conv_b1"),
                                    nh.from_array(deq(qm, sm, zm), "fc_w"),
                                    nh.from_array(np.array([1, -1], np.int64), "flat")])

# -- external data ---------------------------------------------------------------
nodes = [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), h.make_node("Relu", ["c"], ["y"])]
save("external", nodes, [vi("x", T.FLOAT, [1, 8, 8, 8])], [vi("y", T.FLOAT, [1, 16, 8, 8])],
     [nh.from_array(w((16, 8, 3, 3)), "w")], save_as_external_data=True,
     all_tensors_to_one_file=True, location="external.onnx_data", size_threshold=0)

# -- broken graphs -------------------------------------------------------------------
nodes = [h.make_node("Add", ["x", "b"], ["a"], name="first"), h.make_node("Relu", ["a"], ["b"], name="second"),
         h.make_node("Relu", ["a"], ["y"], name="out")]
save("cycle", nodes, [vi("x", T.FLOAT, [1, 4])], [vi("y", T.FLOAT, [1, 4])], [])
nodes = [h.make_node("Relu", ["x"], ["a"], name="first"), h.make_node("Add", ["a", "nothing"], ["y"], name="add")]
save("undefined", nodes, [vi("x", T.FLOAT, [1, 4])], [vi("y", T.FLOAT, [1, 4])], [])
