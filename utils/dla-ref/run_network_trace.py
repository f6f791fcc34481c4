#!/usr/bin/env python3
"""A compiled network's hardware layers run one by one on NVIDIA's C model
from the register programs dla-translate --dla-to-nvdla-trace writes, each
compared bit for bit with the CPU execution (issue 28 part 4).

    PYTHONPATH=BUILD_DIR/python_packages \
    run_network_trace.py COMPILED.mlir --input X.npy [X1.npy ...] --build BUILD_DIR
                         [--keep DIR] [--llvm-bin DIR] [--limit N] [-j JOBS]

COMPILED.mlir is the network after --dla-compile with layouts (every layer
op on NVDLA-encoded tensors). The CPU execution runs the whole network on
the input once, printing the storage bytes (dla.to_storage) of every
layer's operands and result and the network's output. Each hardware layer
(a direct convolution with its on-the-fly SDP, an offline SDP, a clamp, a
PDP, a CDP, an upsampling's SDP passes)
then becomes a one-layer function whose arguments take those bytes; its
program is written, run on the model by the trace player, and passes when
every result byte the checks cover equals the CPU execution's. Prints one
line per layer (its kind, result type, the model's run time) and a summary with
the CPU execution's top class; exits 1 when a layer differs or cannot be
programmed.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import run_layers
import run_trace
from weight_ref import _split_top

LAYER = re.compile(r'^\s*(%[\w.$-]+) = "dla\.(conv|sdp|clamp|pool|lrn|upsample|interleave)"\(([^)]*)\)')


def signature(line):
    """(operand types, result type) of a generic op line."""
    head, result = line.rsplit(") -> ", 1)
    return _split_top(head[head.rindex(" : (") + 4:]), result.strip()


class Layer:
    def __init__(self, lines, last):
        self.lines, self.last = lines, last  # the op lines (a fused SDP last), its line index
        self.result = LAYER.match(lines[-1]).group(1)
        self.kind = "+".join(LAYER.match(l).group(2) for l in lines)
        self.result_type = signature(lines[-1])[1]
        inner = {LAYER.match(l).group(1) for l in lines[:-1]}
        self.operands, self.types = [], []
        for l in lines:
            names = [n.strip() for n in LAYER.match(l).group(3).split(",") if n.strip()]
            for n, t in zip(names, signature(l)[0]):
                if n not in inner and n not in self.operands:
                    self.operands.append(n)
                    self.types.append(t)


CONSTANT = re.compile(r'^\s*(%[\w.$-]+) = "dla\.weight_constant"\(\)')
RESOURCE = re.compile(r'^\s*([\w.$-]+): "0x[0-9A-Fa-f]*",?$')


def hold_constants(lines, layers):
    """Compressed weights (dla.weight_constant) stay in the layer's
    function, their blobs with it: their sizes are in the program's
    registers, so they are no argument. Moves them from each layer's
    operands to its `constants` (the op lines) and `blobs` (the resource
    lines they name)."""
    consts = {m.group(1): l for l in lines if (m := CONSTANT.match(l))}
    blobs = {m.group(1): l.strip().rstrip(",") for l in lines if (m := RESOURCE.match(l))}
    for layer in layers:
        layer.constants, layer.blobs = [], []
        for v in [v for v in layer.operands if v in consts]:
            i = layer.operands.index(v)
            del layer.operands[i], layer.types[i]
            layer.constants.append(consts[v])
            layer.blobs += [blobs[k] for k in re.findall(r"dense_resource<([\w.$-]+)>", consts[v])]


def find_layers(lines):
    """The hardware layers in program order: each layer op, a direct
    convolution joined by the on-the-fly SDP reading it."""
    layers, fused = [], set()
    for i, line in enumerate(lines):
        m = LAYER.match(line)
        if not m or i in fused:
            continue
        group, last = [line], i
        if m.group(2) == "conv":
            for j in range(i + 1, len(lines)):
                n = LAYER.match(lines[j])
                if n and n.group(2) == "sdp" and "sdp_mode on_the_fly" in lines[j] and \
                        n.group(3).split(",")[0].strip() == m.group(1):
                    group.append(lines[j])
                    fused.add(j)
                    last = j
                    break
        layers.append(Layer(group, last))
    hold_constants(lines, layers)
    return layers


def literal(a):
    return 'dense<"0x' + np.ascontiguousarray(a).tobytes().hex().upper() + '">'


def print_storage(k, v, t, n):
    return f"""    %ts{k} = dla.to_storage {v} : {t} -> tensor<{n}xi8>
    %tw{k} = arith.extsi %ts{k} : tensor<{n}xi8> to tensor<{n}xi32>
    %tm{k} = bufferization.to_buffer %tw{k} : tensor<{n}xi32> to memref<{n}xi32>
    %tu{k} = memref.cast %tm{k} : memref<{n}xi32> to memref<*xi32>
    func.call @printMemrefI32(%tu{k}) : (memref<*xi32>) -> ()"""


def instrumented(lines, layers, xs, storage_bytes, extra=()):
    """The network as @network, printing the storage of every layer's
    operands and result once, after the layer, and of each `extra` value
    (value, type, index of the line defining it) after its line; @main runs
    it on the inputs xs (f32 or int8 arrays) and prints its output (the
    first of several). Returns (module text, printed values in order)."""
    seen, values = set(), {}  # line index: [(value, type)] printed after it
    for layer in layers:
        for v, t in list(zip(layer.operands, layer.types)) + [(layer.result, layer.result_type)]:
            if v not in seen:
                seen.add(v)
                values.setdefault(layer.last, []).append((v, t))
    for v, t, i in extra:
        if v not in seen:
            seen.add(v)
            values.setdefault(i, []).append((v, t))
    # Numbered in the order they print: the program's.
    printed, after = [], {}
    for i in sorted(values):
        after[i] = []
        for v, t in values[i]:
            after[i].append(print_storage(len(printed), v, t, storage_bytes(t)))
            printed.append(v)
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        out.extend(after.get(i, []))
    text = "\n".join(out).replace('sym_name = "main"', 'sym_name = "network"', 1)
    elt = {np.dtype(np.float32): "f32", np.dtype(np.int8): "i8"}
    xts = [f"tensor<{'x'.join(map(str, x.shape))}x{elt[x.dtype]}>" for x in xs]
    consts = "".join(f"    %x{i} = arith.constant {literal(x)} : {t}\n"
                     for i, (x, t) in enumerate(zip(xs, xts)))
    names = ", ".join(f"%x{i}" for i in range(len(xs)))
    # The network's results (one, or a parenthesized list): the first printed.
    rets = re.findall(r"tensor<[^>]*>", re.search(
        r'function_type = \([^)]*\) -> (\([^)]*\)|tensor<[^>]*>)', text).group(1))
    ret, results = rets[0], "%y" if len(rets) == 1 else f"%ys:{len(rets)}"
    driver = f"""  func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
  func.func @main() {{
{consts}    {results} = func.call @network({names}) : ({", ".join(xts)}) -> ({", ".join(rets)})
{print_output(ret, "%y" if len(rets) == 1 else "%ys#0")}
    return
  }}"""
    end = text.rstrip().rindex("\n}")
    return text[:end] + "\n" + driver + text[end:], printed


def print_output(ret, y="%y"):
    """@main's lines printing the network's output `y` of type `ret`: f32
    as it is, a signless integer output (a QDQ model's int8) widened to
    i32."""
    shape, elt = ret[7:-1].rsplit("x", 1)
    if elt == "f32":
        return (f"    %m = bufferization.to_buffer {y} : {ret} to memref<{shape}xf32>\n"
                f"    %u = memref.cast %m : memref<{shape}xf32> to memref<*xf32>\n"
                f"    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()")
    if elt not in ("i8", "i16"):
        sys.exit(f"the network's output is {ret}: only f32, i8 and i16 are printed")
    return (f"    %w = arith.extsi {y} : {ret} to tensor<{shape}xi32>\n"
            f"    %m = bufferization.to_buffer %w : tensor<{shape}xi32> to memref<{shape}xi32>\n"
            f"    %u = memref.cast %m : memref<{shape}xi32> to memref<*xi32>\n"
            f"    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()")


def cpu_storage(lines, layers, xs, bin_dir, llvm_bin, root, extra=()):
    """The CPU execution of the network (`lines`, generic form) on the
    inputs xs: ({value: the storage bytes of every layer's operand and
    result and of the `extra` values (instrumented's)}, the network's
    printed output). Writes ROOT/instrumented.mlir."""
    import dla  # BUILD's: PYTHONPATH=BUILD/python_packages (lit sets it)
    module, printed = instrumented(lines, layers, xs, dla.storage_bytes, extra)
    with open(os.path.join(root, "instrumented.mlir"), "w") as f:
        f.write(module)
    llvm = subprocess.run([os.path.join(bin_dir, "dla-opt"),
                           "--dla-lower-to-llvm=storage-layers=true", "-"],
                          input=module, capture_output=True, text=True)
    if llvm.returncode:
        sys.exit("dla-opt failed:\n" + llvm.stderr[:4000])
    # libDLARuntime.so: nv_full's fp16 layers call NVDLA's arithmetic there.
    libs = ",".join([os.path.join(os.path.dirname(llvm_bin), "lib", lib)
                     for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")]
                    + [run_layers.runtime_library(os.path.join(bin_dir, "dla-opt"))])
    ran = subprocess.run([os.path.join(llvm_bin, "mlir-runner"), "-e", "main", "-O0",
                          "-entry-point-result=void", f"-shared-libs={libs}"],
                         input=llvm.stdout, capture_output=True, text=True)
    if ran.returncode:
        sys.exit("mlir-runner failed:\n" + ran.stderr[:4000])
    chunks = ran.stdout.split("Unranked Memref")[1:]
    if len(chunks) != len(printed) + 1:
        sys.exit(f"expected {len(printed) + 1} printed buffers, got {len(chunks)}")
    storage = {v: np.array([int(t) for t in re.findall(r"-?\d+", ch.split("data =", 1)[1])],
                           np.int64).astype(np.int8).tobytes()
               for v, ch in zip(printed, chunks)}
    return storage, chunks[-1].split("data =", 1)[1]


def one_layer(layer, target):
    """The layer as the one function of a module, its operands arguments."""
    names = {v: f"%a{i}" for i, v in enumerate(layer.operands)}
    body = [f"    {l.strip()}" for l in layer.constants]
    for l in layer.lines:
        head, rest = l.split(" = ", 1)
        rest = re.sub(r"%[\w.$-]+", lambda m: names.get(m.group(0), m.group(0)), rest)
        body.append(f"    {head.strip()} = {rest}")
    params = ", ".join(f"{names[v]}: {t}" for v, t in zip(layer.operands, layer.types))
    return (f"module attributes {{dla.target = {target}}} {{\n"
            f"  func.func @layer({params}) -> {layer.result_type} {{\n" + "\n".join(body) +
            f"\n    return {layer.result} : {layer.result_type}\n  }}\n}}\n" +
            ("{-#\n  dialect_resources: {\n    builtin: {\n      " +
             ",\n      ".join(layer.blobs) + "\n    }\n  }\n#-}\n" if layer.blobs else ""))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("compiled", help="the network after --dla-compile with layouts")
    p.add_argument("--input", required=True, nargs="+",
                   help="the network's inputs (.npy, f32 or int8), in order")
    p.add_argument("--build", required=True, help="the build directory (bin/, nvdla-cmod/)")
    p.add_argument("--keep", help="write the test directories here (default: a scratch dir)")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin", help="LLVM's bin (mlir-runner)")
    p.add_argument("--limit", type=int, help="run only the first N layers on the model")
    p.add_argument("--jobs", "-j", type=int, default=len(os.sched_getaffinity(0)),
                   help="players run at once (default: the usable cores)")
    a = p.parse_args()
    if a.jobs < 1:
        p.error("--jobs must be at least 1")
    build = os.path.abspath(a.build)
    bin_dir = os.path.join(build, "bin")

    generic = subprocess.run([os.path.join(bin_dir, "dla-opt"), a.compiled,
                              "--mlir-print-op-generic"], capture_output=True, text=True)
    if generic.returncode:
        sys.exit("dla-opt failed:\n" + generic.stderr)
    lines = generic.stdout.split("\n")
    target = re.search(r"dla\.target = (#dla\.target<[^>]*>)", generic.stdout).group(1)
    # nv_full, the default, is not printed.
    named = re.search(r"(nv_small|nv_large|nv_full)", target)
    config = named.group(1) if named else "nv_full"
    layers = find_layers(lines)
    if not layers:
        sys.exit("no layer ops in " + a.compiled)
    xs = [np.load(path) for path in a.input]
    xs = [x if x.dtype == np.int8 else x.astype(np.float32) for x in xs]

    root = a.keep or tempfile.mkdtemp(prefix="dla-net-trace-")
    os.makedirs(root, exist_ok=True)
    t0 = time.time()
    storage, output = cpu_storage(lines, layers, xs, bin_dir, a.llvm_bin, root)
    scores = [float(t) for t in re.findall(r"-?[\d.]+(?:e[-+]?\d+)?", output)]
    shown = (f"scores {scores}, top class {int(np.argmax(scores))}" if len(scores) <= 16 else
             f"{len(scores)} output values")
    print(f"CPU execution: {len(layers)} hardware layers, {time.time() - t0:.0f} s; {shown}",
          flush=True)

    translate = os.path.join(bin_dir, "dla-translate")
    player = run_trace.player_path(build, config)
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")

    def run_layer(i, layer):
        """(the layer's line, the model's run time or None when it failed)."""
        name = f"layer_{i:03d}"
        data = os.path.join(root, name + ".data")
        os.makedirs(data, exist_ok=True)
        for k, v in enumerate(layer.operands):
            with open(os.path.join(data, f"arg{k}.bin"), "wb") as f:
                f.write(storage[v])
        with open(os.path.join(data, "result0.bin"), "wb") as f:
            f.write(storage[layer.result])
        tdir = os.path.join(root, name)
        text = one_layer(layer, target)
        with open(os.path.join(root, name + ".mlir"), "w") as f:
            f.write(text)
        tr = subprocess.run([translate, "--dla-to-nvdla-trace", f"--nvdla-trace-dir={tdir}",
                             f"--nvdla-trace-data={data}", "-"], input=text,
                            capture_output=True, text=True)
        what = f"{name} {layer.kind} -> {layer.result_type.split(',')[0]}>"
        if tr.returncode:
            return f"{what}: not programmed: {tr.stderr.strip().splitlines()[0]}", None
        run = subprocess.run([player, tdir], capture_output=True, text=True, cwd=tdir, env=env)
        if run.returncode:
            return f"{what}: C model differs: {(run.stdout + run.stderr).strip()[:2000]}", None
        # The model is untimed (it reports 1 ns simulated): its time is the
        # player's run time, as the player measures it.
        secs = float(re.search(r"CRC checks, ([\d.]+) s", run.stdout).group(1))
        return f"{what}: match, {secs:.1f} s on the model", secs

    chosen = layers[:a.limit] if a.limit else layers
    good, total = 0, 0.0
    # Layers are independent programs: the players run side by side, the
    # lines print in layer order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for line, secs in pool.map(run_layer, range(len(chosen)), chosen):
            print(line, flush=True)
            if secs is not None:
                good += 1
                total += secs
    print(f"{good} of {len(chosen)} layers match the CPU execution on {config}; "
          f"{total:.0f} s on the model in all")
    sys.exit(0 if good == len(chosen) else 1)


if __name__ == "__main__":
    main()
