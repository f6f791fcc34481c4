#!/usr/bin/python3
"""Mutation fuzzer of dla-import-onnx over ONNX protobufs, in-process.

    PYTHONPATH=build/python_packages fuzz/onnx_import_fuzz.py [-n 100000] [--seed 1]
                             [--verify-every 50] [--save-dir DIR]

Small models built with onnx.helper (one per family of operators the
importer reads) are mutated: attribute values (zero, negative, huge,
NaN, wrong lengths and types), initializer dims, element types and data
(truncated raw data), graph input shapes and types, node inputs (removed,
renamed, empty), operator types, opsets, and the serialized bytes. Each
mutant goes through dla.onnx.load_model / import_model in this process.
The importer's own error (ImportFailure) is the expected answer to bad
input; any other exception, or an import running longer than --timeout
seconds, is a finding. Every --verify-every'th module an import returns
is parsed and verified through the dla package (the dialects dla-opt
has): a module that does not verify is a finding too.

Prints the number of executions, their rate, and each kind of finding
(exception type and the importer's frame) with a count and one example;
--save-dir keeps one model per kind. Exit status 1 when anything was
found.
"""

import argparse
import collections
import copy
import os
import random
import signal
import sys
import time
import traceback

import numpy as np

import onnx
from onnx import TensorProto, helper, numpy_helper

import dla
from dla.onnx import ImportFailure, import_model, load_model

F = TensorProto.FLOAT


def _model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _t(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def _w(name, shape, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array(rng.standard_normal(shape).astype(dtype), name)


def seeds():
    """One small model per family of operators."""
    x4 = [_t("x", [1, 4, 6, 6])]
    y = [_t("y", None)]
    yield _model([helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", kernel_shape=[3, 3],
                                   pads=[1, 1, 1, 1], strides=[1, 1], dilations=[1, 1], group=1)],
                 x4, y, [_w("w", (8, 4, 3, 3)), _w("b", (8,))])
    yield _model([helper.make_node("Conv", ["x", "w"], ["y"], name="gconv", kernel_shape=[3, 3],
                                   group=2, strides=[2, 2], auto_pad="SAME_UPPER")],
                 x4, y, [_w("w", (4, 2, 3, 3))])
    yield _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv1d", kernel_shape=[3],
                                   pads=[1, 1])],
                 [_t("x", [1, 4, 8])], y, [_w("w", (2, 4, 3))])
    yield _model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv",
                                   kernel_shape=[2, 2], strides=[2, 2], output_padding=[0, 0])],
                 x4, y, [_w("w", (4, 3, 2, 2))])
    yield _model([helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2],
                                   strides=[2, 2], pads=[0, 0, 0, 0], ceil_mode=0)], x4, y)
    yield _model([helper.make_node("AveragePool", ["x"], ["y"], name="avg", kernel_shape=[3, 3],
                                   strides=[1, 1], pads=[1, 1, 1, 1], count_include_pad=1)], x4, y)
    yield _model([helper.make_node("GlobalAveragePool", ["x"], ["y"], name="gap")], x4, y)
    # The windows written from several TOSA ops (dla/onnx/windows_extra.py).
    x5 = [_t("x", [1, 4, 5, 6, 4])]
    yield _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv3d", kernel_shape=[2, 3, 2],
                                   pads=[1, 0, 1, 0, 1, 1], strides=[2, 1, 1], dilations=[1, 1, 2], group=2)],
                 x5, y, [_w("w", (4, 2, 2, 3, 2))])
    yield _model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv3d", kernel_shape=[2, 2, 2],
                                   strides=[2, 1, 2], pads=[0, 1, 0, 1, 0, 0], output_padding=[1, 0, 0])],
                 x5, y, [_w("w", (4, 3, 2, 2, 2))])
    yield _model([helper.make_node("AveragePool", ["x"], ["y"], name="avg3d", kernel_shape=[2, 3, 2],
                                   strides=[1, 2, 2], pads=[1, 1, 0, 0, 1, 1], ceil_mode=1)], x5, y)
    yield _model([helper.make_node("MaxPool", ["x"], ["y"], name="dpool", kernel_shape=[2, 2],
                                   strides=[1, 2], dilations=[2, 3], pads=[1, 0, 1, 1])], x4, y, opset=12)
    yield _model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn",
                                   epsilon=1e-5)], x4, y,
                 [_w("s", (4,)), _w("b", (4,), seed=1), _w("m", (4,), seed=2),
                  numpy_helper.from_array(np.ones(4, np.float32), "v")])
    yield _model([helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1, alpha=1.0,
                                   beta=1.0)], [_t("x", [2, 8])], y, [_w("w", (3, 8)), _w("b", (3,))])
    yield _model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], [_t("x", [2, 3, 8])], y,
                 [_w("w", (8, 5))])
    yield _model([helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=[0, 2, 3, 1])], x4, y)
    yield _model([helper.make_node("Clip", ["x", "lo", "hi"], ["y"], name="clip")], x4, y,
                 [numpy_helper.from_array(np.array(-1.0, np.float32), "lo"),
                  numpy_helper.from_array(np.array(1.0, np.float32), "hi")])
    yield _model([helper.make_node("Clip", ["x"], ["y"], name="clip6", min=0.0, max=6.0)], x4, y,
                 opset=6)
    yield _model([helper.make_node("Reshape", ["x", "s"], ["y"], name="rs")], x4, y,
                 [numpy_helper.from_array(np.array([1, -1, 6], np.int64), "s")])
    yield _model([helper.make_node("Flatten", ["x"], ["f"], name="fl", axis=1),
                  helper.make_node("Softmax", ["f"], ["y"], name="sm", axis=-1)], x4, y)
    yield _model([helper.make_node("Concat", ["x", "x"], ["y"], name="cat", axis=1)], x4, y)
    yield _model([helper.make_node("Split", ["x", "sp"], ["y", "z"], name="split", axis=1)], x4,
                 [_t("y", None), _t("z", None)],
                 [numpy_helper.from_array(np.array([1, 3], np.int64), "sp")])
    yield _model([helper.make_node("Slice", ["x", "st", "en", "ax", "stp"], ["y"], name="slice")], x4, y,
                 [numpy_helper.from_array(np.array([1, 0], np.int64), "st"),
                  numpy_helper.from_array(np.array([3, 6], np.int64), "en"),
                  numpy_helper.from_array(np.array([1, 2], np.int64), "ax"),
                  numpy_helper.from_array(np.array([1, 2], np.int64), "stp")])
    yield _model([helper.make_node("Pad", ["x", "p", "c"], ["y"], name="pad", mode="reflect")], x4, y,
                 [numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "p"),
                  numpy_helper.from_array(np.array(0.0, np.float32), "c")])
    yield _model([helper.make_node("Add", ["x", "c"], ["a"], name="add"),
                  helper.make_node("Mul", ["a", "c"], ["m"], name="mul"),
                  helper.make_node("Relu", ["m"], ["y"], name="relu")], x4, y,
                 [_w("c", (4, 1, 1))])
    yield _model([helper.make_node("LeakyRelu", ["x"], ["l"], name="lrelu", alpha=0.1),
                  helper.make_node("Sigmoid", ["l"], ["s"], name="sig"),
                  helper.make_node("HardSigmoid", ["s"], ["y"], name="hs", alpha=0.2, beta=0.5)], x4, y)
    yield _model([helper.make_node("ReduceMean", ["x"], ["y"], name="rm", axes=[2, 3], keepdims=1)], x4, y)
    yield _model([helper.make_node("Gather", ["x", "i"], ["y"], name="gather", axis=1)], x4, y,
                 [numpy_helper.from_array(np.array([0, 2], np.int64), "i")])
    yield _model([helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2, mode="CRD")],
                 x4, y)
    yield _model([helper.make_node("LRN", ["x"], ["y"], name="lrn", size=3, alpha=1e-4, beta=0.75)], x4, y)
    yield _model([helper.make_node("Resize", ["x", "", "sc"], ["y"], name="resize", mode="nearest")], x4, y,
                 [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "sc")])
    yield _model([helper.make_node("Unsqueeze", ["x", "ax"], ["u"], name="unsq"),
                  helper.make_node("Squeeze", ["u", "ax"], ["y"], name="sq")], x4, y,
                 [numpy_helper.from_array(np.array([0], np.int64), "ax")])
    yield _model([helper.make_node("Cast", ["x"], ["c"], name="cast", to=TensorProto.FLOAT16),
                  helper.make_node("Tile", ["c", "r"], ["y"], name="tile")], x4, y,
                 [numpy_helper.from_array(np.array([1, 1, 2, 1], np.int64), "r")])
    yield _model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="q"),
                  helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], name="dq")], x4, y,
                 [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
                  numpy_helper.from_array(np.array(0, np.int8), "z")])
    yield _model([helper.make_node("Shape", ["x"], ["s"], name="shape"),
                  helper.make_node("Gather", ["s", "i"], ["g"], name="g0", axis=0),
                  helper.make_node("Unsqueeze", ["g", "a"], ["u"], name="u0"),
                  helper.make_node("Concat", ["u", "m"], ["t"], name="c0", axis=0),
                  helper.make_node("Reshape", ["x", "t"], ["y"], name="rs0")], x4, y,
                 [numpy_helper.from_array(np.array(0, np.int64), "i"),
                  numpy_helper.from_array(np.array([0], np.int64), "a"),
                  numpy_helper.from_array(np.array([-1], np.int64), "m")])


INTS = [0, -1, 1, 2, 3, 7, -7, 2 ** 31, 2 ** 40, -2 ** 40, 2 ** 62]
FLOATS = [0.0, -1.0, 1e-30, 1e30, float("nan"), float("inf"), -float("inf")]
OPS = ["Conv", "MaxPool", "Relu", "Gemm", "Transpose", "Clip", "Reshape", "Pad", "Concat", "Split",
       "Slice", "Gather", "Add", "BatchNormalization", "Softmax", "ConvTranspose", "Resize",
       "DepthToSpace", "Squeeze", "Unsqueeze", "Tile", "Cast", "Flatten", "Nope", "Expand",
       "ReduceSum", "Where", "TopK", "Einsum"]


def mutate_attribute(rng, node):
    if not node.attribute or rng.random() < 0.15:
        name = rng.choice(["kernel_shape", "pads", "strides", "dilations", "group", "perm", "axis",
                           "axes", "min", "max", "epsilon", "blocksize", "to", "mode", "auto_pad",
                           "output_shape", "output_padding", "keepdims", "split", "alpha", "size"])
        kind = rng.random()
        if kind < 0.4:
            node.attribute.append(helper.make_attribute(name, [rng.choice(INTS) for _ in range(rng.randint(0, 5))]))
        elif kind < 0.7:
            node.attribute.append(helper.make_attribute(name, rng.choice(INTS)))
        elif kind < 0.9:
            node.attribute.append(helper.make_attribute(name, rng.choice(FLOATS)))
        else:
            node.attribute.append(helper.make_attribute(name, rng.choice(["NOTSET", "VALID", "xx", "DCR", ""])))
        return
    a = rng.choice(node.attribute)
    r = rng.random()
    if r < 0.1:
        node.attribute.remove(a)
    elif a.type == onnx.AttributeProto.INTS:
        vals = list(a.ints)
        op = rng.random()
        if op < 0.3 and vals:
            vals[rng.randrange(len(vals))] = rng.choice(INTS)
        elif op < 0.5:
            vals.append(rng.choice(INTS))
        elif op < 0.7 and vals:
            vals.pop()
        else:
            vals = [rng.choice(INTS) for _ in range(rng.randint(0, 6))]
        del a.ints[:]
        a.ints.extend(vals)
    elif a.type == onnx.AttributeProto.INT:
        a.i = rng.choice(INTS)
    elif a.type == onnx.AttributeProto.FLOAT:
        a.f = rng.choice(FLOATS)
    elif a.type == onnx.AttributeProto.STRING:
        a.s = rng.choice([b"", b"xx", b"SAME_LOWER", b"VALID", b"edge", b"wrap", b"CRD", b"linear"])
    else:
        # Another type under the same name.
        node.attribute.remove(a)
        node.attribute.append(helper.make_attribute(a.name, rng.choice([1.5, 3, [1, 2], "s"])))


def mutate_initializer(rng, graph):
    if not graph.initializer:
        return mutate_input(rng, graph)
    t = rng.choice(graph.initializer)
    r = rng.random()
    if r < 0.25:
        dims = list(t.dims)
        if dims and rng.random() < 0.6:
            dims[rng.randrange(len(dims))] = rng.choice([0, -1, 1, 2, 3, 5, 2 ** 40])
        else:
            dims = [rng.choice([0, 1, 2, 3, 4, 8]) for _ in range(rng.randint(0, 5))]
        del t.dims[:]
        t.dims.extend(dims)
    elif r < 0.45:
        # Raw data cut short, or one element too many.
        if not t.raw_data:
            a = numpy_helper.to_array(t)
            t.ClearField("float_data")
            t.ClearField("int64_data")
            t.ClearField("int32_data")
            t.raw_data = a.tobytes()
        cut = rng.randint(0, len(t.raw_data))
        t.raw_data = t.raw_data[:cut] if rng.random() < 0.8 else t.raw_data + b"\0" * 4
    elif r < 0.65:
        t.data_type = rng.choice([0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 16, 17, 21, 23, 99])
        if rng.random() < 0.5 and not t.raw_data:
            t.raw_data = b"\1\2\3\4\5\6\7\x08"
    elif r < 0.75:
        graph.initializer.remove(t)
    elif r < 0.85:
        try:
            a = numpy_helper.to_array(t).copy() if t.data_type in (1, 6, 7, 10, 11) else None
        except Exception:  # an earlier mutation broke it
            a = None
        if a is not None and a.size:
            flat = a.reshape(-1)
            flat[rng.randrange(flat.size)] = rng.choice(
                [np.nan, np.inf, -1, 0, 1e30] if a.dtype.kind == "f" else [-1, 0, 2 ** 31 - 1, -2 ** 31])
            t.CopyFrom(numpy_helper.from_array(a, t.name))
    else:
        t.name = rng.choice(["x", "y", "", "w2"])


def mutate_input(rng, graph):
    if not graph.input:
        return
    i = rng.choice(graph.input)
    tt = i.type.tensor_type
    r = rng.random()
    if r < 0.5 and tt.shape.dim:
        d = rng.choice(tt.shape.dim)
        v = rng.choice([0, -1, 1, 2, 3, 7, 2 ** 33, None])
        if v is None:
            d.Clear()
            d.dim_param = "N"
        else:
            d.dim_value = v
    elif r < 0.65:
        dims = [rng.choice([1, 2, 3, 4, 6]) for _ in range(rng.randint(0, 6))]
        tt.shape.Clear()
        for v in dims:
            tt.shape.dim.add().dim_value = v
    elif r < 0.85:
        tt.elem_type = rng.choice([0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 16, 17, 99])
    elif r < 0.9:
        tt.ClearField("shape")
    else:
        graph.input.remove(i)


def mutate_node(rng, graph):
    if not graph.node:
        return
    node = rng.choice(graph.node)
    r = rng.random()
    if r < 0.25 and node.input:
        k = rng.randrange(len(node.input))
        node.input[k] = rng.choice(["", "nothing", "x", node.output[0] if node.output else "y"])
    elif r < 0.4 and node.input:
        del node.input[rng.randrange(len(node.input))]
    elif r < 0.5:
        node.input.append(rng.choice(["", "x", "w", "nothing"]))
    elif r < 0.65:
        node.op_type = rng.choice(OPS)
    elif r < 0.75 and node.output:
        node.output.append(rng.choice(["", "extra"]))
    elif r < 0.85:
        node.domain = rng.choice(["", "ai.onnx", "com.microsoft"])
    elif r < 0.92:
        graph.node.remove(node)
    else:
        node.name = rng.choice(["", "n" * 300, "weird name\n"])


def mutate_model(rng, model):
    r = rng.random()
    if r < 0.4 and model.graph.node:
        mutate_attribute(rng, rng.choice(model.graph.node))
    elif r < 0.6:
        mutate_initializer(rng, model.graph)
    elif r < 0.75:
        mutate_input(rng, model.graph)
    elif r < 0.9:
        mutate_node(rng, model.graph)
    elif r < 0.96:
        model.opset_import[0].version = rng.choice([1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 18, 19, 21, 25, 0])
    else:
        o = model.graph.output
        if o:
            o[0].name = rng.choice(["", "x", "nothing"])


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.4 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif r < 0.7:
            data = data[:rng.randint(0, len(data))]
        else:
            k = rng.randint(0, len(data))
            data[k:k] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


class Timeout(BaseException):  # not an Exception: the importer must not catch it
    pass


def _alarm(signum, frame):
    raise Timeout()


def kind_of(exc):
    """Exception type and the deepest frame in the importer: one finding."""
    importer = os.path.join("dla", "onnx", "")
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if importer in f.filename]
    where = "%s:%d" % (os.path.basename(frames[-1].filename), frames[-1].lineno) if frames else "?"
    return "%s at %s" % (type(exc).__name__, where)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=100000, help="executions (default 100000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per import")
    p.add_argument("--verify-every", type=int, default=50,
                   help="verify every Nth imported module through the dla package (0: never)")
    p.add_argument("--save-dir", help="write one model per finding here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    ctx = None
    if args.verify_every:
        ctx = dla.Context()
    import warnings
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    base = [m.SerializeToString() for m in seeds()]
    findings = collections.OrderedDict()
    counts = collections.Counter()
    signal.signal(signal.SIGALRM, _alarm)
    t0 = time.perf_counter()
    imported = 0
    for n in range(1, args.n + 1):
        data = rng.choice(base)
        model = onnx.ModelProto.FromString(data)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            try:
                mutate_model(rng, model)
            except Exception:  # a mutation reading what an earlier one broke
                pass
        raw = model.SerializeToString()
        via_bytes = rng.random() < 0.08
        if via_bytes:
            raw = mutate_bytes(rng, raw)
        kind = None
        signal.setitimer(signal.ITIMER_REAL, args.timeout)
        try:
            if via_bytes:
                path = "/tmp/onnx-import-fuzz-%d.onnx" % os.getpid()
                with open(path, "wb") as f:
                    f.write(raw)
                model = load_model(path)
            text = import_model(model)
            imported += 1
            counts["imported"] += 1
            if ctx is not None and imported % args.verify_every == 0:
                try:
                    module = ctx.parse_module(text)
                    if not module.verify():
                        kind = "module does not verify"
                except dla.DLAError as e:
                    kind = "module does not parse/verify: %s" % str(e).splitlines()[0][:120]
                if kind:
                    exc_text = kind
        except ImportFailure as e:
            counts["ImportFailure"] += 1
            if "does not check yet" in str(e):
                # Reported without a traceback, but by the safety net: a
                # check to add.
                kind = "unchecked: " + str(e).split("check yet (", 1)[1].split(":")[0] + \
                    " in " + str(e).split(": ", 1)[0].split("(")[-1]
                exc_text = str(e)[:240]
        except Timeout:
            kind = "hang (> %g s)" % args.timeout
            exc_text = kind
        except Exception as e:  # the findings
            kind = kind_of(e)
            exc_text = "%s: %s" % (type(e).__name__, str(e)[:200])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if kind:
            counts["finding"] += 1
            if kind not in findings:
                findings[kind] = [0, exc_text, raw]
                if args.save_dir:
                    os.makedirs(args.save_dir, exist_ok=True)
                    with open(os.path.join(args.save_dir, "finding-%d.onnx" % len(findings)), "wb") as f:
                        f.write(raw)
            findings[kind][0] += 1
        if not args.quiet and n % 10000 == 0:
            print("%d executions, %.0f/s, %d imported, %d findings of %d kinds"
                  % (n, n / (time.perf_counter() - t0), counts["imported"], counts["finding"],
                     len(findings)), flush=True)
    seconds = time.perf_counter() - t0
    print("executions: %d in %.0f s (%.0f/s); imported %d, ImportFailure %d, findings %d"
          % (args.n, seconds, args.n / seconds, counts["imported"], counts["ImportFailure"],
             counts["finding"]))
    for kind, (count, example, _) in findings.items():
        print("  %6d  %s\n          e.g. %s" % (count, kind, example))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
