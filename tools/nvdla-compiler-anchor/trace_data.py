#!/usr/bin/env python3
"""The data directory of a project register program (dla-translate
--dla-to-nvdla-trace --nvdla-trace-data) for the anchor network
(test/NvdlaCompiler/Inputs/anchor.mlir), taken from NVIDIA's side: the
input, NVIDIA's packed weights and int16 biases exactly as NVIDIA's
compiler wrote them into its loadable (the surfaces its CONV weight_data
and SDP x1_data descriptors point at), and as the expected result the
bytes NVIDIA's loadable produced on the harness.

usage: trace_data.py MODEL.nvdla INPUT.bin OUTPUT0.bin DATA_DIR
writes DATA_DIR/arg0.bin (input), arg1.bin / arg3.bin (conv1 / conv2
weights), arg2.bin / arg4.bin (their biases), result0.bin
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadable_summary import descriptors  # noqa: E402


def main(model, input_bin, output_bin, out):
    ops, addr_bytes, al = descriptors(model)

    def surface(c):
        return addr_bytes(al[c["address"]])[c["offset"]:c["offset"] + c["size"]]

    convs = [surf["weight_data"] for op, _, surf in ops if op == "CONV"]
    biases = [surf["x1_data"] for op, _, surf in ops if op == "SDP"]
    if len(convs) != 2 or len(biases) != 2:
        sys.exit("%s: expected 2 convolutions with their SDPs" % model)
    os.makedirs(out, exist_ok=True)
    files = [open(input_bin, "rb").read(), surface(convs[0]), surface(biases[0]),
             surface(convs[1]), surface(biases[1])]
    for i, data in enumerate(files):
        with open(os.path.join(out, "arg%d.bin" % i), "wb") as f:
            f.write(data)
    with open(os.path.join(out, "result0.bin"), "wb") as f:
        f.write(open(output_bin, "rb").read())
    print("arguments %s bytes" % ", ".join(str(len(d)) for d in files))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
