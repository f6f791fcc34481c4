"""NVIDIA's spreadsheet's three networks (perf/NVDLA_OpenSource_Performance.xlsx:
ResNet-50, GoogLeNet, AlexNet) built from their published layer shapes
with onnx.helper and seeded random weights, compiled by dla-compile for the
spreadsheet's configuration, their estimated frame time beside the
spreadsheet's ideal (docs/PerformanceModel.md, "Decisions").

    python3 bench/spreadsheet_nets.py model resnet50|googlenet|alexnet OUT.onnx
    python3 bench/spreadsheet_nets.py table MODEL.onnx TABLE.json
    python3 bench/spreadsheet_nets.py measure [build/bin] [--work DIR] [--only NAMES]
                                      [--pipeline-option KEY=VALUE ...]

The shapes: ResNet-50 as Caffe's deploy file (He et al. 2015; the stride
of a stage's first block on its 1x1 branch2a and branch1, batch norm folded
into the convolutions, as the spreadsheet's rows "+ bn + scale"), GoogLeNet
as Caffe's bvlc_googlenet (Szegedy et al. 2014) without its LRNs and
auxiliary heads, AlexNet as Caffe's bvlc_alexnet (227x227 input, conv2,
conv4 and conv5 in two groups) without its LRNs and dropouts: the
spreadsheet counts neither LRN nor softmax. The softmax stays off too (a
host op). int8 through a calibration table written without calibrating
(every tensor at 1/16), as bench/seg_net.py's `table`: the estimate
depends on shapes, not values.

The configuration: nv_full int8 is the spreadsheet's (2048 MACs as 64 x
32 atomics, 512 KB buffer); 1000 MHz; --dram-gbps 10.24 because the
spreadsheet's "GB/s" moves 1.024e9 bytes a second (docs/PerformanceModel.md,
"Units").
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

#: The spreadsheet's frame times (ms), its "Performance Summary" (DRAM only).
IDEAL_MS = {"resnet50": 7.114, "googlenet": 1.222, "alexnet": 0.895}
CONFIG_ARGS = ["--target", "nv_full", "--precision", "int8", "--clock-mhz", "1000",
               "--dram-gbps", "10.24"]


class Net:
    """A graph under construction: NCHW float32, seeded weights."""

    def __init__(self, name, size, seed):
        from onnx import helper, TensorProto
        self.helper, self.tp = helper, TensorProto
        self.name, self.rng = name, np.random.default_rng(seed)
        self.nodes, self.inits, self.n = [], [], 0
        self.input = helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])

    def fresh(self, kind):
        self.n += 1
        return "%s_%d" % (kind, self.n)

    def const(self, kind, array):
        from onnx import numpy_helper
        name = self.fresh(kind)
        self.inits.append(numpy_helper.from_array(array.astype(np.float32), name))
        return name

    def conv(self, x, cin, cout, k, stride=1, pad=0, group=1, relu=True):
        if group > 1:
            # As a Split, one Conv per group and a Concat: the importer's
            # grouped Conv is a slice / conv / concat whose int8 convs have
            # no rescale of their own (they stay on the host); the
            # spreadsheet too has one row per group.
            parts = [self.fresh("group") for _ in range(group)]
            from onnx import numpy_helper
            sizes = self.fresh("split")
            self.inits.append(numpy_helper.from_array(np.array([cin // group] * group, np.int64),
                                                      sizes))
            self.nodes.append(self.helper.make_node("Split", [x, sizes], parts, axis=1))
            return self.concat([self.conv(p, cin // group, cout // group, k, stride, pad,
                                          relu=relu) for p in parts])
        fan_in = cin // group * k * k
        w = self.const("w", self.rng.normal(0, (2.0 / fan_in) ** 0.5, (cout, cin // group, k, k)))
        b = self.const("b", self.rng.normal(0, 0.05, (cout,)))
        y = self.fresh("conv")
        self.nodes.append(self.helper.make_node("Conv", [x, w, b], [y], kernel_shape=[k, k],
                                                strides=[stride, stride], pads=[pad] * 4,
                                                group=group))
        return self.relu(y) if relu else y

    def relu(self, x):
        y = self.fresh("relu")
        self.nodes.append(self.helper.make_node("Relu", [x], [y]))
        return y

    def maxpool(self, x, k, stride, pad=0, ceil=1):
        y = self.fresh("pool")
        self.nodes.append(self.helper.make_node("MaxPool", [x], [y], kernel_shape=[k, k],
                                                strides=[stride, stride], pads=[pad] * 4,
                                                ceil_mode=ceil))
        return y

    def avgpool(self, x, k):
        y = self.fresh("avgpool")
        self.nodes.append(self.helper.make_node("AveragePool", [x], [y], kernel_shape=[k, k],
                                                strides=[1, 1]))
        return y

    def add(self, a, b):
        y = self.fresh("add")
        self.nodes.append(self.helper.make_node("Add", [a, b], [y]))
        return y

    def concat(self, xs):
        y = self.fresh("concat")
        self.nodes.append(self.helper.make_node("Concat", xs, [y], axis=1))
        return y

    def fc(self, x, cin, cout, relu=True):
        """A fully-connected layer as a Flatten and a Gemm."""
        f = self.fresh("flat")
        self.nodes.append(self.helper.make_node("Flatten", [x], [f], axis=1))
        w = self.const("fcw", self.rng.normal(0, (1.0 / cin) ** 0.5, (cout, cin)))
        b = self.const("fcb", self.rng.normal(0, 0.05, (cout,)))
        y = self.fresh("fc")
        self.nodes.append(self.helper.make_node("Gemm", [f, w, b], [y], transB=1))
        if relu:
            r = self.fresh("relu")
            self.nodes.append(self.helper.make_node("Relu", [y], [r]))
            y = r
        # Back to N x C x 1 x 1 for the next Flatten.
        return y

    def model(self, out, classes):
        from onnx import checker
        output = self.helper.make_tensor_value_info(out, self.tp.FLOAT, [1, classes])
        graph = self.helper.make_graph(self.nodes, self.name, [self.input], [output], self.inits)
        m = self.helper.make_model(graph, opset_imports=[self.helper.make_opsetid("", 13)],
                                   producer_name="bench/spreadsheet_nets.py")
        m.ir_version = 8
        checker.check_model(m)
        return m


def resnet50(seed=0):
    n = Net("resnet50", 224, seed)
    x = n.conv("input", 3, 64, 7, 2, 3)
    x = n.maxpool(x, 3, 2)  # Caffe: ceil mode, 112 -> 56
    cin = 64
    for stage, (blocks, mid) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)]):
        for b in range(blocks):
            stride = 2 if b == 0 and stage > 0 else 1
            shortcut = n.conv(x, cin, mid * 4, 1, stride, relu=False) if b == 0 else x
            y = n.conv(x, cin, mid, 1, stride)
            y = n.conv(y, mid, mid, 3, 1, 1)
            y = n.conv(y, mid, mid * 4, 1, relu=False)
            x = n.relu(n.add(y, shortcut))
            cin = mid * 4
    x = n.avgpool(x, 7)
    return n.model(n.fc(x, 2048, 1000, relu=False), 1000)


def googlenet(seed=0):
    n = Net("googlenet", 224, seed)
    x = n.conv("input", 3, 64, 7, 2, 3)
    x = n.maxpool(x, 3, 2)
    x = n.conv(x, 64, 64, 1)
    x = n.conv(x, 64, 192, 3, 1, 1)
    x = n.maxpool(x, 3, 2)
    cin = 192
    # (1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool proj), a max pool after 3b and 4e.
    blocks = [(64, 96, 128, 16, 32, 32), (128, 128, 192, 32, 96, 64), "pool",
              (192, 96, 208, 16, 48, 64), (160, 112, 224, 24, 64, 64),
              (128, 128, 256, 24, 64, 64), (112, 144, 288, 32, 64, 64),
              (256, 160, 320, 32, 128, 128), "pool",
              (256, 160, 320, 32, 128, 128), (384, 192, 384, 48, 128, 128)]
    for b in blocks:
        if b == "pool":
            x = n.maxpool(x, 3, 2)
            continue
        a, r3, c3, r5, c5, pp = b
        y1 = n.conv(x, cin, a, 1)
        y3 = n.conv(n.conv(x, cin, r3, 1), r3, c3, 3, 1, 1)
        y5 = n.conv(n.conv(x, cin, r5, 1), r5, c5, 5, 1, 2)
        yp = n.conv(n.maxpool(x, 3, 1, 1), cin, pp, 1)
        x = n.concat([y1, y3, y5, yp])
        cin = a + c3 + c5 + pp
    x = n.avgpool(x, 7)
    return n.model(n.fc(x, 1024, 1000, relu=False), 1000)


def alexnet(seed=0):
    n = Net("alexnet", 227, seed)
    x = n.conv("input", 3, 96, 11, 4, 0)
    x = n.maxpool(x, 3, 2)
    x = n.conv(x, 96, 256, 5, 1, 2, group=2)
    x = n.maxpool(x, 3, 2)
    x = n.conv(x, 256, 384, 3, 1, 1)
    x = n.conv(x, 384, 384, 3, 1, 1, group=2)
    x = n.conv(x, 384, 256, 3, 1, 1, group=2)
    x = n.maxpool(x, 3, 2)
    x = n.fc(x, 256 * 6 * 6, 4096)
    x = n.fc(x, 4096, 4096)
    return n.model(n.fc(x, 4096, 1000, relu=False), 1000)


NETS = {"resnet50": resnet50, "googlenet": googlenet, "alexnet": alexnet}


def write_table(path, model):
    """A calibration table without calibrating (NVIDIA's JSON): every tensor
    at scale 1/16, the input at 1/127 (bench/seg_net.py's)."""
    scales = {"input": 1.0 / 127}
    for node in model.graph.node:
        for out in node.output:
            scales[out] = 1.0 / 16
    with open(path, "w") as f:
        json.dump({k: {"scale": v, "min": 0, "max": 0, "offset": 0} for k, v in scales.items()},
                  f, indent=0)


def measure(bindir, work, only, extra):
    import onnx
    os.makedirs(work, exist_ok=True)
    rows = []
    for name in only:
        path = os.path.join(work, name + ".onnx")
        if not os.path.exists(path):
            onnx.save(NETS[name](), path)
        table = os.path.join(work, name + ".table.json")
        if not os.path.exists(table):
            write_table(table, onnx.load(path))
        out = os.path.join(work, name + ".bundle")
        r = subprocess.run([os.path.join(bindir, "dla-compile"), path, *CONFIG_ARGS,
                            "--calibration-table", table, "--allow-host", "-o", out, *extra],
                           capture_output=True, text=True)
        if r.returncode:
            print("== %s: dla-compile failed\n%s" % (name, r.stderr[-3000:]))
            continue
        with open(os.path.join(out, "manifest.json")) as f:
            m = json.load(f)
        est = m["estimate"]
        ms = est["frame_seconds"] * 1e3
        rows.append((name, ms, IDEAL_MS[name], est))
        s = m["summary"]
        print("== %s: %.3f ms estimated, spreadsheet %.3f ms (%.2fx); %d accelerator layers, "
              "%d host; MAC utilization %.0f%%; long poles %s" % (
                  name, ms, IDEAL_MS[name], ms / IDEAL_MS[name], s["accelerator_layers"],
                  s["host_layers"], 100 * est["mac_utilization"], est["long_poles"]))
        if os.environ.get("SPREADSHEET_LAYERS"):
            for l in m["layers"]:
                e = l.get("estimate")
                if e and "cycles" in e:
                    hw = l["hardware"]
                    print("  %-28s %-12s %5sx%3sx%3s k%5s %s %9.0f %-6s %s" % (
                        l["name"][:28], hw["kind"], hw.get("channels"), hw.get("height"),
                        hw.get("width"), hw.get("kernels"), hw.get("kernel", ""), e["cycles"],
                        e["long_pole"], e["buffer_plan"]))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("model")
    m.add_argument("net", choices=list(NETS))
    m.add_argument("output")
    t = sub.add_parser("table")
    t.add_argument("model")
    t.add_argument("output")
    r = sub.add_parser("measure")
    r.add_argument("bindir", nargs="?", default="build/bin")
    r.add_argument("--work", default="/tmp/spreadsheet-nets")
    r.add_argument("--only", default=",".join(NETS))
    r.add_argument("extra", nargs="*", help="more dla-compile arguments (after --)")
    a = p.parse_args()
    if a.cmd == "model":
        import onnx
        onnx.save(NETS[a.net](), a.output)
    elif a.cmd == "table":
        import onnx
        write_table(a.output, onnx.load(a.model))
    else:
        measure(a.bindir, a.work, a.only.split(","), a.extra)


if __name__ == "__main__":
    sys.exit(main())
