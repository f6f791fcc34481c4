"""emulator-writer.test: Inputs/emulated.mlir's loadable on NVIDIA's
runtime against numpy: the 2x2 max pool of a random input, then
emulator_ref.py's softmax and power (NVIDIA's emulator, from Emulator.cpp).

    check_emulated.py input SCRATCH_DIR      writes SCRATCH_DIR/input.bin
    check_emulated.py check SCRATCH_DIR OUT   compares OUT/output{0,1}.bin
"""
import os
import sys

import numpy as np

import emulator_ref
import nvdla_ref

ENC = "#dla.feature<int8, config = nv_small>"
x = np.random.default_rng(7).integers(-128, 128, size=(1, 8, 2, 2)).astype(np.int8)
if sys.argv[1] == "input":
    with open(os.path.join(sys.argv[2], "input.bin"), "wb") as f:
        f.write(nvdla_ref.pack(x, ENC, "i8"))
    sys.exit(0)
pool = x.max(axis=(2, 3)).ravel()
soft = emulator_ref.softmax(pool, 0.0625, 0.0078125)
power = emulator_ref.power(soft, 2.0, 0.5, -1.0, 0.125, 0.25)
offsets = nvdla_ref.element_offsets(ENC, (1, 8, 1, 1), "i8")
for i, want in enumerate((soft, power)):
    got = np.frombuffer(open(os.path.join(sys.argv[3], f"output{i}.bin"), "rb").read(), np.int8)
    got = np.array([got[offsets[(0, c, 0, 0)]] for c in range(8)], np.int8)
    print(f"output {i}: {'equal' if np.array_equal(got, want) else 'DIFFERENT'} "
          f"(loadable {list(got)}, numpy {list(want)}; pool {list(pool)})")
