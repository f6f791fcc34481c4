"""Writes se-gate.mlir (PYTHONPATH=build/python_packages python3
se-gate.py > se-gate.mlir): a squeeze-excitation block whose gate a
convolution's SDP writes and the product's SDP reads in place."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "utils", "dla-ref"))
import numpy as np
import run_quant_tosa as qt
rng = np.random.default_rng(45)
C, R, H, W = 40, 10, 4, 4
b = qt.Builder()
shape = (1, H, W, C)
# x: the previous layer's result (a requantization), read by the pool and
# by the product
x = qt.rescale(b, "%a0", shape, "i8", "i8", [np.float32(0.8)], 0, -3)
# squeeze: a global max pool (one PDP window: 4x4; the firmware programs
# no single-rounding average)
pooled = b.op("tosa.max_pool2d %s {kernel = array<i64: %d, %d>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (%s) -> $T"
              % (x, H, W, qt.ttype(shape, "i8")), qt.ttype((1, 1, 1, C), "i8"))
def conv(src, cin, cout, zin, zout, m, relu_zp, bias_range=(-2000, 2000)):
    wt = qt.i8(rng, (cout, 1, 1, cin))
    bias = rng.integers(*bias_range, size=cout).astype(np.int32)
    wv, bv = b.const(wt, "i8"), b.const(bias, "i32")
    izp, wzp = b.const(np.array([zin], np.int8), "i8"), b.const(np.array([0], np.int8), "i8")
    out = (1, 1, 1, cout)
    acc = b.op("tosa.conv2d %s, %s, %s, %s, %s {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (%s, %s, %s, %s, %s) -> $T"
               % (src, wv, bv, izp, wzp, qt.ttype((1, 1, 1, cin), "i8"), qt.ttype(wt.shape, "i8"),
                  qt.ttype(bias.shape, "i32"), qt.ttype((1,), "i8"), qt.ttype((1,), "i8")), qt.ttype(out, "i32"))
    # per output channel (as the classifier's convolutions): X1 reads the
    # multipliers, X2 the bias with the second ones, each from one surface
    y = qt.rescale(b, acc, out, "i32", "i8",
                   (m * np.exp(rng.uniform(-0.3, 0.3, cout))).astype(np.float32), 0, zout)
    return qt.relu(b, y, out, relu_zp)
# excitation: FC C -> C/4 with ReLU, FC C/4 -> C clamped to [0, 127]: the gate at 1/127
h = conv(pooled, C, R, -3, -7, 1.0 / (128 * np.sqrt(C) * 1.5), -7)
g = conv(h, R, C, -7, 0, 1.0 / (128 * np.sqrt(R) * 0.5), 0, (0, 26000))
# scale: x * g[c], requantized
wa = qt.rescale(b, x, shape, "i8", "i32", [1.0], -3, 0)
wb = qt.rescale(b, g, (1, 1, 1, C), "i8", "i32", [1.0], 0, 0)
shift = b.const(np.zeros(1, np.int8), "i8")
p = b.op("tosa.mul %s, %s, %s : (%s, %s, %s) -> $T" % (wa, wb, shift, qt.ttype(shape, "i32"),
         qt.ttype((1, 1, 1, C), "i32"), qt.ttype((1,), "i8")), qt.ttype(shape, "i32"))
y = qt.rescale(b, p, shape, "i32", "i8", [np.float32(0.9 / 127)], 0, -4)
print("// A squeeze-excitation block, int8 (se-gate.py: numpy, seed 45,\n"
      "// utils/dla-ref/run_quant_tosa.py's builders): x = a requantization of\n"
      "// the input; a global max pool of x (the firmware's averages round\n"
      "// twice); a 1x1 convolution C -> C/4 with ReLU; one C/4 -> C clamped to\n"
      "// [0, 127] (the gate at 1/127, written by the convolution's SDP); then\n"
      "// x * gate[c] requantized: the product's SDP reads the gate's own\n"
      "// 1x40x1x1 surface per channel (issue 45).")
print("func.func @main(%%a0: %s) -> %s {" % (qt.ttype(shape, "i8"), qt.ttype(shape, "i8")))
print("\n".join(b.lines))
print("  return %s : %s\n}" % (y, qt.ttype(shape, "i8")))
