#!/usr/bin/env python3
"""A compiled network's accelerator segments, each written as ONE NVDLA
loadable (every hardware layer of the segment in one DLA task, the
firmware scheduling them by their dependencies) and run by NVIDIA's
unchanged runtime and firmware on NVIDIA's C model (dla-run-loadable), each
output compared bit for bit with the CPU execution of the whole network
(issue 44 part 4).

    PYTHONPATH=BUILD_DIR/python_packages \\
    run_network_loadable.py COMPILED.mlir --input X.npy [X1.npy ...] --build BUILD_DIR
                            [--keep DIR] [--llvm-bin DIR] [--firmware head|c906fc6] [-j JOBS]

COMPILED.mlir is the network after --dla-compile with layouts (as
run_network_trace.py takes it). The CPU execution runs the whole network
once and prints the storage bytes of every layer's operands and result
(run_network_trace.instrumented). The hardware layers are then cut into
segments: a segment grows in program order until a layer reads a value
that a host operation computed from the segment's own results (a
hard-swish, an excitation's scaling between two layers); host operations
that do not depend on the segment run before it. Each segment becomes a
function whose arguments are the feature data it reads from outside (the
runtime binds them: the CPU execution's bytes, --input in order), whose
constants (weights, SDP operand data) are its own and whose results are
every value of it read outside it (by a host op, a later segment or the
return; a channel view's parent instead of the view). Channel views
(dla.channel_slice / dla.channel_concat), dla.reshape_view and
dla.as_weights are no host operations and cut nothing: a view of the
segment's own values is in it, and so is a slice or reshape_view it reads
of an outside value, which is then its argument whole. An op of
NVIDIA's runtime emulator (dla.emu_softmax, dla.emu_power) reading the
segment's values is in it too (the loadable's EMU task, after its DLA
task); a layer reading its result starts a new segment.
dla-translate --dla-to-nvdla-loadable writes it; dla-run-loadable
runs it; every element of every output (the layout from the spec:
nvdla_ref.element_offsets) must equal the CPU execution's. A network
without host operations between its layers is one segment: one loadable.

Each layer is first written alone (not with --whole): a layer the writer refuses (a located
error: what NVIDIA's firmware cannot express) is counted by its reason and
the segments are cut around it as around a host operation (it would run
outside the loadables). --refusals prints only those counts.

Prints the refusals, one line per segment (its layers, inputs, outputs,
loadable size, the run) and `N of M segments (L of K layers) run as
loadables equal to the CPU execution ...; R layers refused by the writer`;
exits 1 when a segment differs or fails.
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

import nvdla_ref
import run_network_trace as rnt

NAME = re.compile(r"%[\w.$-]+")
DEFINES = re.compile(r"^\s*(%[\w.$-]+)(?::(\d+))? = ")
TYPE = re.compile(r"tensor<([0-9x]+)x(i8|i16|f16), (#dla\.[a-z]+<.*>)>$")


def defined(line):
    """The values a generic op line defines (%v, or %v#0.. for %v:N)."""
    m = DEFINES.match(line)
    if not m:
        return []
    if m.group(2):
        return [f"{m.group(1)}#{i}" for i in range(int(m.group(2)))] + [m.group(1)]
    return [m.group(1)]


def used(line):
    """The values a generic op line reads (its operand list and regions)."""
    head = line.split(" = ", 1)[1] if DEFINES.match(line) else line
    return set(NAME.findall(head))


# dla.as_weights is a view too: a layer's result read as a convolution's
# weights (NetworkPlan.cpp places it at its source's memory).
VIEW = re.compile(r'^\s*(%[\w.$-]+) = "dla\.(channel_slice|channel_concat|as_weights|reshape_view)"\(([^)]*)\)')
EMULATED = re.compile(r'^\s*(%[\w.$-]+) = "dla\.emu_(softmax|power)"\(([^)]*)\)')


class Segment:
    def __init__(self):
        # views: the channel views of the segment's values (line indices);
        # emulated: its ops of NVIDIA's runtime emulator (line indices).
        self.layers, self.values, self.views, self.emulated = [], set(), [], []


def segments_of(lines, layers, outside=()):
    """The layers cut into segments (see the module's docstring); the
    layers in `outside` (the writer refuses them) count as host
    operations. A channel view (dla.channel_slice / dla.channel_concat) of
    the current segment's values belongs to it (the loadable holds it as an
    offset into its parent's memory) and cuts nothing; a slice of anything
    else is taken into each segment that reads it (segment_arguments)."""
    first = {}
    members = set()
    for layer in layers:
        if id(layer) in outside:
            continue
        idx = [i for i, l in enumerate(lines) if l in layer.lines]
        first[min(idx)] = layer
        members.update(idx)
    segs, cur, tainted = [], None, set()
    for i, line in enumerate(lines):
        if i in first:
            layer = first[i]
            if cur is None or any(v in tainted for v in layer.operands):
                cur, tainted = Segment(), set()
                segs.append(cur)
            cur.layers.append(layer)
            for l in layer.lines:
                cur.values.update(defined(l))
            continue
        if i in members or cur is None:
            continue
        if VIEW.match(line) and used(line) <= cur.values:
            cur.views.append(i)
            cur.values.update(defined(line))
            continue
        if EMULATED.match(line) and used(line) <= cur.values:
            # An EMU task after the DLA task: a layer reading it cuts.
            cur.emulated.append(i)
            cur.values.update(defined(line))
            tainted.update(defined(line))
            continue
        if used(line) & (cur.values | tainted):
            tainted.update(defined(line))
    return segs


def view_parents(seg, lines):
    """{view: the value whose storage it is a part of} for the segment's
    views: a slice's source, a concatenation's inputs' result (as
    NetworkPlan.cpp places them)."""
    parent = {}
    for i in seg.views:
        m = VIEW.match(lines[i])
        operands = [n.strip() for n in m.group(3).split(",") if n.strip()]
        if m.group(2) in ("channel_slice", "as_weights", "reshape_view"):
            parent[m.group(1)] = operands[0]
        else:
            for v in operands:
                parent[v] = m.group(1)
    return parent


def segment_results(seg, lines):
    """[(value, type, index of its defining line)]: what the segment
    returns. Every value of it read outside it, or the tensor it is a
    channel view of (a loadable returns whole tensors: a view lives in its
    parent's memory)."""
    inside = {l for layer in seg.layers for l in layer.lines} | \
        {lines[i] for i in seg.views + seg.emulated}
    outside = set()
    for line in lines:
        if line not in inside:
            outside |= used(line)
    parent = view_parents(seg, lines)
    where = {}
    for i, line in enumerate(lines):
        if line in inside:
            for v in defined(line):
                where[v] = (rnt.signature(line)[1], i)
    results = []
    for i in sorted(where[v][1] for v in seg.values if v in outside and v in where):
        for v in defined(lines[i]):
            if v not in outside or v not in seg.values:
                continue
            while v in parent:
                v = parent[v]
            if all(r[0] != v for r in results):
                results.append((v, *where[v]))
    return results


def segment_arguments(seg, lines, consts):
    """(arguments, their types, constant lines, slices taken in) of a
    segment: the values its layers and views read from outside it. A
    dla.channel_slice or dla.reshape_view of an outside value is taken into the segment, its
    source an argument (the loadable reads the INPUT memory at the slice's
    offset) unless the source is the network's own argument."""
    define = {v: i for i, line in enumerate(lines) for v in defined(line)}
    args, arg_types, const_lines, taken = [], [], [], []

    def operands(i):
        names = [n.strip() for n in VIEW.match(lines[i]).group(3).split(",") if n.strip()]
        return list(zip(names, rnt.signature(lines[i])[0]))

    reads = [(v, t) for layer in seg.layers for v, t in zip(layer.operands, layer.types)]
    # Compressed weights are no operand (run_network_trace.hold_constants).
    for layer in seg.layers:
        const_lines += [c for c in layer.constants if c not in const_lines]
    for i in seg.views:
        reads += operands(i)
    while reads:
        v, t = reads.pop(0)
        if v in seg.values or v in args:
            continue
        if v in consts:
            if consts[v] not in const_lines:
                const_lines.append(consts[v])
            continue
        i = define.get(v)
        m = VIEW.match(lines[i]) if i is not None else None
        if m and m.group(2) in ("channel_slice", "reshape_view") and operands(i)[0][0] in define:
            if i not in taken:
                taken.append(i)
                reads += operands(i)
            continue
        args.append(v)
        arg_types.append(t)
    return args, arg_types, const_lines, taken


def segment_function(seg, lines, consts, target, resources):
    """(module text, argument names, result names, result types) of a
    segment: its layers and views with the constants they read, external
    values as arguments (segment_arguments), values read outside it as
    results."""
    args, arg_types, const_lines, taken = segment_arguments(seg, lines, consts)
    returned = segment_results(seg, lines)
    results = [v for v, _, _ in returned]
    result_types = [t for _, t, _ in returned]
    names = {v: f"%a{i}" for i, v in enumerate(args)}

    def rename(text):
        return NAME.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    body = [f"    {c.strip()}" for c in const_lines]
    at = {l: i for i, l in enumerate(lines)}
    ops = sorted([at[l] for layer in seg.layers for l in layer.lines] + seg.views + taken +
                 seg.emulated)
    body.extend(f"    {rename(lines[i].strip())}" for i in ops)
    params = ", ".join(f"{names[v]}: {t}" for v, t in zip(args, arg_types))
    rets = ", ".join(results)
    text = (f"module attributes {{dla.target = {target}}} {{\n"
            f"  func.func @segment({params}) -> ({', '.join(result_types)}) {{\n" +
            "\n".join(body) +
            f"\n    return {rets} : {', '.join(result_types)}\n  }}\n}}\n" + resources)
    return text, args, results, result_types


def element_view(data, result_type):
    """The logical elements of storage bytes `data` of `result_type`
    (int8 / int16 / fp16 NVDLA feature data), by the spec's layout."""
    m = TYPE.match(result_type.strip())
    if not m:
        return None
    shape = tuple(int(d) for d in m.group(1).split("x"))
    offsets = nvdla_ref.element_offsets(m.group(3), shape, m.group(2))
    keys = sorted(offsets)
    at = np.array([offsets[k] for k in keys], np.int64)
    raw = np.frombuffer(data, np.uint8)
    if m.group(2) in ("i16", "f16"):  # fp16: compared as bit patterns
        return raw[at].astype(np.int32) | (raw[at + 1].astype(np.int32) << 8)
    return raw[at]


def refusals(a, lines, layers, consts, target, resources, bin_dir):
    """Each layer alone through dla-translate --dla-to-nvdla-loadable: the
    writer's refusal of each (its first error, numbers as N), or None."""
    define = {v: i for i, line in enumerate(lines) for v in defined(line)}

    def write(layer):
        # Weights read from another layer's result (dla.as_weights) are
        # that layer's memory: the writer judges them in the segment that
        # holds both, not alone (where they would be an input).
        for v in layer.operands:
            m = VIEW.match(lines[define[v]]) if v in define else None
            if m and m.group(2) == "as_weights":
                return None
        seg = Segment()
        seg.layers.append(layer)
        for l in layer.lines:
            seg.values.update(defined(l))
        text = segment_function(seg, lines, consts, target, resources)[0]
        tr = subprocess.run([os.path.join(bin_dir, "dla-translate"), "--dla-to-nvdla-loadable",
                             f"--nvdla-firmware={a.firmware}", "-", "-o", os.devnull],
                            input=text, capture_output=True, text=True)
        if not tr.returncode:
            return None
        err = re.search(r"error: (.*)", tr.stderr)
        return re.sub(r"[0-9]+", "N", err.group(1) if err else tr.stderr.strip())

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        return list(pool.map(write, layers))


def print_refusals(layers, whys, what):
    import collections
    reasons = collections.Counter(w for w in whys if w)
    for why, n in sorted(reasons.items(), key=lambda r: -r[1]):
        print(f"  refused ({n}): {why}")
    print(f"{len(layers) - sum(reasons.values())} of {len(layers)} hardware layers {what}, "
          f"{sum(reasons.values())} refused by the writer")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("compiled", help="the network after --dla-compile with layouts")
    p.add_argument("--input", nargs="+",
                   help="the network's inputs (.npy, f32 or int8), in order")
    p.add_argument("--build", required=True, help="the build directory (bin/, nvdla-runtime/)")
    p.add_argument("--keep", help="write each segment's directory here (default: a scratch dir)")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin", help="LLVM's bin (mlir-runner)")
    p.add_argument("--firmware", choices=["head", "c906fc6"], default="head",
                   help="the firmware the loadables are written for (and run on)")
    p.add_argument("--jobs", "-j", type=int, default=len(os.sched_getaffinity(0)),
                   help="loadables run at once (default: the usable cores)")
    p.add_argument("--whole", action="store_true",
                   help="the network as ONE loadable: no layer is written alone first, and "
                        "exit 1 unless the layers form one segment")
    p.add_argument("--refusals", action="store_true",
                   help="only write each hardware layer alone as a loadable and count the "
                        "writer's refusals by reason (nothing runs; no --input needed)")
    a = p.parse_args()
    if a.jobs < 1:
        p.error("--jobs must be at least 1")
    build = os.path.abspath(a.build)
    bin_dir = os.path.join(build, "bin")

    generic = subprocess.run([os.path.join(bin_dir, "dla-opt"), a.compiled,
                              "--mlir-print-op-generic"], capture_output=True, text=True)
    if generic.returncode:
        sys.exit("dla-opt failed:\n" + generic.stderr)
    text, sep, resources = generic.stdout.partition("{-#")
    resources = sep + resources  # the constants' blobs, each segment's too
    lines = generic.stdout.split("\n")
    target = re.search(r"dla\.target = (#dla\.target<[^>]*>)", text).group(1)
    # nv_full, the default, is not printed.
    named = re.search(r"(nv_small|nv_large|nv_full)", target)
    config = named.group(1) if named else "nv_full"
    layers = rnt.find_layers(lines)
    if not layers:
        sys.exit("no layer ops in " + a.compiled)
    consts = {}
    for line in lines:
        if '"arith.constant"' in line or '"tosa.const"' in line:
            for v in defined(line):
                consts[v] = line
    whys = ([None] * len(layers) if a.whole
            else refusals(a, lines, layers, consts, target, resources, bin_dir))
    if a.refusals:
        print_refusals(layers, whys, "written alone as loadables")
        sys.exit(0)
    if not a.input:
        p.error("--input is required (but with --refusals)")
    # A layer the writer refuses alone runs outside the loadables: the
    # segments are cut around it as around a host operation.
    refused = {id(layer) for layer, why in zip(layers, whys) if why}
    segs = segments_of(lines, layers, refused)
    if a.whole and len(segs) != 1:
        sys.exit(f"--whole: host operations cut the {len(layers)} layers into {len(segs)} "
                 f"segments")

    xs = [np.load(path) for path in a.input]
    xs = [x if x.dtype == np.int8 else x.astype(np.float32) for x in xs]
    root = a.keep or tempfile.mkdtemp(prefix="dla-net-loadable-")
    os.makedirs(root, exist_ok=True)
    t0 = time.time()
    # The segments' arguments and results that are no layer's operand or
    # result (the source of a slice, a concatenation of layer results) are
    # printed too.
    define = {v: i for i, line in enumerate(lines) for v in defined(line)}
    extra = []
    for seg in segs:
        args, types, _, _ = segment_arguments(seg, lines, consts)
        extra += [(v, t, define[v]) for v, t in zip(args, types) if v in define]
        extra += segment_results(seg, lines)
    storage, _ = rnt.cpu_storage(lines, layers, xs, bin_dir, a.llvm_bin, root, extra)
    print(f"CPU execution: {len(layers)} hardware layers, {time.time() - t0:.0f} s", flush=True)
    print_refusals(layers, whys, "fit a loadable")
    print(f"{len(layers) - len(refused)} layers in {len(segs)} segments", flush=True)

    translate = os.path.join(bin_dir, "dla-translate")
    runner = os.path.join(build, "nvdla-runtime", "dla-run-loadable")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")

    def run_segment(i, seg):
        """(the segment's line, whether it matched)."""
        name = f"segment_{i:03d}"
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        text, args, results, types = segment_function(seg, lines, consts, target, resources)
        emulated = f", {len(seg.emulated)} emulator ops" if seg.emulated else ""
        what = (f"{name}: {len(seg.layers)} layers{emulated}, {len(args)} inputs, "
                f"{len(results)} outputs")
        with open(os.path.join(d, "segment.mlir"), "w") as f:
            f.write(text)
        model = os.path.join(d, "model.nvdla")
        tr = subprocess.run([translate, "--dla-to-nvdla-loadable",
                             f"--nvdla-firmware={a.firmware}", "-", "-o", model],
                            input=text, capture_output=True, text=True)
        if tr.returncode:
            err = re.search(r"error: (.*)", tr.stderr)
            return f"{what}: refused: {err.group(1) if err else tr.stderr.strip()}", False
        cmd = [runner, model, "--config", config, "--firmware", a.firmware,
               "-o", os.path.join(d, "out")]
        for k, v in enumerate(args):
            path = os.path.join(d, f"input{k}.bin")
            with open(path, "wb") as f:
                f.write(storage[v])
            cmd += ["--input", path]
        run = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if run.returncode:
            return f"{what}: the runtime failed: {(run.stdout + run.stderr).strip()[:2000]}", False
        # The runner's line (NVIDIA's emulator prints its own lines first).
        summary = next(l for l in run.stdout.splitlines()
                       if l.startswith(model + ": ")).split(": ", 1)[1]
        bad = []
        for k, (v, t) in enumerate(zip(results, types)):
            with open(os.path.join(d, "out", f"output{k}.bin"), "rb") as f:
                got = element_view(f.read(), t)
            want = element_view(storage[v], t)
            if got is None or want is None:
                bad.append(f"output {k} ({t}): not feature data")
            elif len(got) != len(want) or np.any(got != want):
                n = int(np.count_nonzero(got != want)) if len(got) == len(want) else -1
                bad.append(f"output {k}: {n} of {len(want)} elements differ")
        size = os.path.getsize(model)
        if bad:
            return f"{what}, loadable {size} bytes: {'; '.join(bad)}", False
        return f"{what}, loadable {size} bytes: match; {summary}", True

    good = layers_ok = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for seg, (line, ok) in zip(segs, pool.map(run_segment, range(len(segs)), segs)):
            print(line, flush=True)
            if ok:
                good += 1
                layers_ok += len(seg.layers)
    print(f"{good} of {len(segs)} segments ({layers_ok} of {len(layers) - len(refused)} "
          f"layers) run as loadables equal to the CPU execution on {config} (firmware "
          f"{a.firmware}); {len(refused)} layers refused by the writer")
    sys.exit(0 if good == len(segs) else 1)


if __name__ == "__main__":
    main()
