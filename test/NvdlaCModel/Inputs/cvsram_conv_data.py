"""Data of cvsram-conv-nv-large.test: a random 1x8x2x2 int8 input, 1x1
weights picking input channel perm[k] for output channel k, and the
expected result: numpy's permutation of the input's channels (the SDP
multiplies by 1). Each packed by the format library's packer into the
storage bytes the trace loads and checks.

    cvsram_conv_data.py OUT_DIR SEED
"""
import os
import sys

import dla
import numpy as np

out, seed = sys.argv[1], int(sys.argv[2])
ctx = dla.default_context()
rng = np.random.default_rng(seed)
x = rng.integers(-128, 128, (1, 8, 2, 2)).astype(np.int8)
perm = rng.permutation(8)
w = np.zeros((8, 8, 1, 1), np.int8)
w[np.arange(8), perm, 0, 0] = 1
feature = ctx.parse_type("tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>")
weight = ctx.parse_type("tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_large>>")
os.makedirs(out, exist_ok=True)
for name, t, a in [("arg0", feature, x), ("arg1", weight, w),
                   ("result0", feature, np.ascontiguousarray(x[:, perm]))]:
    with open(os.path.join(out, name + ".bin"), "wb") as f:
        f.write(t.pack_surfaces(a)["storage"].tobytes())
