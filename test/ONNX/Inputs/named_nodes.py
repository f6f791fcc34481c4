"""`named_nodes.py DIR` writes, into DIR, model.onnx: Conv 'conv1' (4 -> 8
channels, 3x3, pad 1) -> Relu 'relu1' -> an unnamed Erf (no NVDLA unit
computes it: it stays on the host, as 'Erf_2'); driver.mlir: a @main for
mlir-runner that calls the imported @forward on a fixed input and prints
the result; expected.txt: that result, computed here with numpy from the
operators' definitions. `named_nodes.py check DIR OUTPUT` compares what
mlir-runner printed (OUTPUT) with expected.txt: fp16 layers, within
2^-7 (|expected| + max |expected|), dla-run-onnx's tolerance."""
import math
import os
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

if sys.argv[1] == "check":
    expected = np.loadtxt(os.path.join(sys.argv[2], "expected.txt"))
    printed = open(sys.argv[3]).read().split("data =", 1)[1]
    got = np.array([float(v) for v in re.findall(r"-?[\d.]+(?:e[-+]?\d+)?|nan|inf", printed)])
    if got.shape != expected.shape:
        sys.exit("printed %d values, expected %d" % (got.size, expected.size))
    err = np.abs(got - expected)
    bound = 2.0 ** -7 * (np.abs(expected) + np.abs(expected).max())
    if not np.all(err <= bound):
        sys.exit("max error %g at %d" % (err.max(), int(np.argmax(err - bound))))
    print("%d values within tolerance, max error %.3g" % (got.size, err.max()))
    sys.exit(0)

out = sys.argv[1]
rng = np.random.default_rng(24)
x = rng.uniform(-1, 1, size=(1, 4, 6, 6)).astype(np.float16).astype(np.float32)
w = rng.uniform(-0.5, 0.5, size=(8, 4, 3, 3)).astype(np.float16).astype(np.float32)
b = rng.uniform(0, 1, size=(8,)).astype(np.float16).astype(np.float32)

nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c"], ["r"], name="relu1"),
         helper.make_node("Erf", ["r"], ["y"])]
graph = helper.make_graph(
    nodes, "named", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6, 6])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 6, 6])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
          os.path.join(out, "model.onnx"))

# Conv (ONNX: cross-correlation, zero padding), Relu, Erf.
padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
y = np.zeros((1, 8, 6, 6))
for k in range(8):
    for i in range(6):
        for j in range(6):
            y[0, k, i, j] = np.sum(padded[0, :, i:i + 3, j:j + 3] * w[k]) + b[k]
y = np.vectorize(math.erf)(np.maximum(y, 0))
np.savetxt(os.path.join(out, "expected.txt"), y.reshape(-1))

values = ", ".join(repr(float(v)) for v in x.reshape(-1))
with open(os.path.join(out, "driver.mlir"), "w") as f:
    f.write("""func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %%x = arith.constant dense<[%s]> : tensor<144xf32>
  %%s = tosa.const_shape {values = dense<[1, 4, 6, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %%x4 = tosa.reshape %%x, %%s : (tensor<144xf32>, !tosa.shape<4>) -> tensor<1x4x6x6xf32>
  %%y = call @forward(%%x4) : (tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32>
  %%m = bufferization.to_buffer %%y : tensor<1x8x6x6xf32> to memref<1x8x6x6xf32>
  %%u = memref.cast %%m : memref<1x8x6x6xf32> to memref<*xf32>
  call @printMemrefF32(%%u) : (memref<*xf32>) -> ()
  return
}
""" % values)
