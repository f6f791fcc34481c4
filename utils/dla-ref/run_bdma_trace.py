#!/usr/bin/env python3
"""Random copies between NVDLA feature layouts (a dla.relayout of feature
data to the same precision with other strides, or into a channel
concatenation's view) run on NVIDIA's v1 C model as the BDMA programs
dla-translate --dla-to-nvdla-trace writes (DescribeBdma.cpp), each checked
twice: the CPU execution's result equals numpy's copy of the source
(elements read and written by the feature format's byte offsets, written
here from the format document: batch n, channel c, line h, column w at
n * batch_stride + (c // atom) * surface_stride + h * line_stride +
w * 32 + (c % atom) * element bytes), and the model's result bytes equal the
CPU execution's (the trace's CRC checks).

    PYTHONPATH=BUILD_DIR/python_packages \\
    run_bdma_trace.py --kind copy|slice|join|batches --count N --seed S --build BUILD_DIR
                      [--precision int8|int16|fp16] [--negative | --loadable] [--keep DIR]

copy: an argument of random strides (and batch stride, 1..3 inputs) copied
to a result of other random strides. slice: a channel view of an argument
(dla.channel_slice at a whole atom, the parent's strides) copied to a
result of its own. join: 2..3 arguments of their own strides copied into
the parts of a dla.channel_concat (the views the layout assignment's
relayouts write), whole atoms but the last, one part written in place by
an offline SDP instead when drawn, some parts an offline SDP's result
copied (a layer's result, as a value a second join reads is), the join
returned or read by an offline SDP (adding 0) whose result is returned. batches: 21..45
inputs, more transfers than one operation holds (or, both sides packed, one
transfer of every surface of the batch). cvsram: copies with an end in the
CV-SRAM (`dla.memory = "cvsram"` on the argument or the copy: DRAM to
CV-SRAM, CV-SRAM to DRAM, CV-SRAM to CV-SRAM, or DRAM to CV-SRAM and back),
the trace loading and checking the CV-SRAM's bytes (sec_mem). cvsram-conv:
a copy into the CV-SRAM read by a 1x1 direct convolution (CDMA's
DAIN_RAM_TYPE CV-SRAM) whose weights permute the channels, its SDP on the
fly multiplying by 1: numpy's expectation is the argument's channels
permuted. cvsram-sdp: an offline SDP adding 0 reading or writing the
CV-SRAM (or both), or a convolution's SDP on the fly writing it.

--wrong-memory (cvsram kinds): each program's BDMA CFG_CMD written with
both RAM types MC, the copies reading and writing DRAM at the CV-SRAM's
addresses (cvsram-conv: the convolution's CDMA D_DAIN_RAM_TYPE MCIF, its
input read from DRAM at the CV-SRAM's address; cvsram-sdp: the SDP's
SRC_RAM_TYPE and DST_RAM_TYPE MC): every program must fail (`N of M
programs with BDMA RAM types MC fail`, `... with CDMA DAIN_RAM_TYPE MC
fail`, `... with SDP RAM types MC fail`).

--negative: each program's first BDMA source line stride one atom (32
bytes) larger; the cases draw at least 2 lines, and every such program must
fail its checks. Prints `N of M copies: the CPU execution equals numpy`
and `N of M programs match the CPU execution on nv_full` (with
--negative: `N of M programs with a source line stride off by one atom
fail`); exits 1 when any check does not hold.

--loadable: each case written by dla-translate --dla-to-nvdla-loadable (its
first argument the runtime's input, the others constants) and run by
NVIDIA's runtime and nv_full firmware on the v1 model (dla-run-loadable
--config nv_full): `N of M loadables match the CPU execution on nv_full`,
every element of the output compared.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_trace as rt  # noqa: E402

ATOM = 32  # nv_full's memory atom in bytes
PRECISION = "int8"
ELT = {"int8": "i8", "int16": "i16", "fp16": "f16"}
DTYPE = {"int8": np.int8, "int16": np.int16, "fp16": np.float16}


def ebytes():
    return np.dtype(DTYPE[PRECISION]).itemsize


def per_atom():
    return ATOM // ebytes()


class Strides:
    def __init__(self, shape, line, surf, batch):
        self.shape, self.line, self.surf, self.batch = shape, line, surf, batch
        self.cvsram = False  # an argument the program holds in the CV-SRAM

    @classmethod
    def draw(cls, rng, shape, packed=False):
        n, c, h, w = shape
        surfaces = -(-c // per_atom())
        line = w * ATOM + (0 if packed else ATOM * int(rng.integers(0, 4)))
        surf = h * line + (0 if packed else ATOM * int(rng.integers(0, 6)))
        batch = surfaces * surf + (0 if packed or n == 1 else ATOM * int(rng.integers(0, 6)))
        return cls(shape, line, surf, batch)

    def enc(self):
        return (f"#dla.feature<{PRECISION}, line_stride = {self.line}, surface_stride = "
                f"{self.surf}, batch_stride = {self.batch}, config = nv_full>")

    def ttype(self, shape=None):
        return rt.ttype(shape or self.shape, self.enc(), ELT[PRECISION])

    def offsets(self, shape=None, first=0):
        """The byte offset of each element of `shape` (channels from
        `first`, a view's), an int64 array of that shape."""
        n, c, h, w = shape or self.shape
        N, C, H, W = np.meshgrid(np.arange(n), np.arange(first, first + c), np.arange(h),
                                 np.arange(w), indexing="ij")
        return (N * self.batch + (C // per_atom()) * self.surf + H * self.line + W * ATOM +
                (C % per_atom()) * ebytes())


def read(storage, offsets):
    """The elements at `offsets` of the bytes `storage` (little-endian)."""
    raw = np.frombuffer(storage, np.uint8)
    eb = ebytes()
    idx = offsets[..., None] + np.arange(eb)
    return raw[idx].copy().view(DTYPE[PRECISION]).reshape(offsets.shape)


class Copy:
    """A case: its function's text, arguments (name, Strides, data) and
    result, and per result part where its channels come from: (first
    result channel, channels, argument index, its first channel)."""

    def __init__(self, name, args, body, result, parts, perm=None):
        self.name, self.args, self.body, self.result, self.parts = name, args, body, result, parts
        # cvsram-conv: result channel k is argument channel perm[k].
        self.perm = perm

    def func(self, fname="layer"):
        params = ", ".join(f"%{n}: {s.ttype()}" + (' {dla.memory = "cvsram"}' if s.cvsram else "")
                           for n, s, _ in self.args)
        return (f"func.func @{fname}({params}) -> {self.result.ttype()} {{\n  {self.body}\n"
                f"  return %y : {self.result.ttype()}\n}}\n")


def draw_data(rng, shape):
    if PRECISION == "fp16":
        return (rng.standard_normal(shape) * 8).astype(np.float16)
    info = np.iinfo(DTYPE[PRECISION])
    return rng.integers(info.min, info.max + 1, size=shape).astype(DTYPE[PRECISION])


def _shape(rng, negative, max_c=80):
    n = int(rng.choice([1, 1, 2, 3]))
    return (n, int(rng.integers(1, max_c)), int(rng.integers(2 if negative else 1, 7)),
            int(rng.integers(1, 9)))


def copy_case(rng, k, negative):
    shape = _shape(rng, negative)
    src, dst = Strides.draw(rng, shape, packed=rng.random() < 0.3), Strides.draw(rng, shape)
    x = ("x", src, draw_data(rng, shape))
    body = f"%y = dla.relayout %x : {src.ttype()} -> {dst.ttype()}"
    return Copy(f"copy_{k}", [x], body, dst, [(0, shape[1], 0, 0)])


def slice_case(rng, k, negative):
    n, _, h, w = _shape(rng, negative)
    atoms = int(rng.integers(2, 5))
    parent = (n, atoms * per_atom() - int(rng.integers(0, per_atom())), h, w)
    first = per_atom() * int(rng.integers(0, atoms))
    c = int(rng.integers(1, parent[1] - first + 1))
    if first + c < parent[1]:  # a view holds whole atoms unless it ends with its parent
        c = min(parent[1] - first, -(-c // per_atom()) * per_atom())
    shape = (n, c, h, w)
    src, dst = Strides.draw(rng, parent), Strides.draw(rng, shape)
    x = ("x", src, draw_data(rng, parent))
    view = src.ttype(shape)
    body = (f"%v = dla.channel_slice %x [{first}] : {src.ttype()} -> {view}\n"
            f"  %y = dla.relayout %v : {view} -> {dst.ttype()}")
    return Copy(f"slice_{k}", [x], body, dst, [(0, c, 0, first)])


def join_case(rng, k, negative):
    n, _, h, w = _shape(rng, negative)
    count = int(rng.integers(2, 4))
    chans = [per_atom() * int(rng.integers(1, 3)) for _ in range(count - 1)] + \
        [int(rng.integers(1, per_atom() + 1))]
    joined = Strides.draw(rng, (n, sum(chans), h, w))
    args, lines, parts, names, at = [], [], [], [], 0
    # v1's SDP asserts a 1x1 cube's source and destination surface strides
    # are one atom (NV_NVDLA_sdp.cpp, is_1x1): no SDP part on 1x1 joins.
    sdp_part = int(rng.integers(0, count)) \
        if PRECISION != "fp16" and h * w > 1 and rng.random() < 0.5 else -1
    for g, c in enumerate(chans):
        shape = (n, c, h, w)
        src = Strides.draw(rng, shape, packed=rng.random() < 0.3)
        view = joined.ttype(shape)
        if g == sdp_part and n == 1:
            # A part an offline SDP (a plain copy: bs adds 0) writes in place.
            args.append((f"x{g}", src, draw_data(rng, shape)))
            lines.append(f"%p{g} = dla.sdp offline %x{g} bs <alu = sum, alu_operand = 0> : {src.ttype()} -> {view}")
        elif PRECISION != "fp16" and n == 1 and h * w > 1 and rng.random() < 0.4:
            # A layer's result copied (an SDP adding 0 writes it in its own
            # strides first), as layout assignment copies a value a second
            # join reads.
            mid = Strides.draw(rng, shape)
            args.append((f"x{g}", src, draw_data(rng, shape)))
            lines.append(f"%q{g} = dla.sdp offline %x{g} bs <alu = sum, alu_operand = 0> : "
                         f"{src.ttype()} -> {mid.ttype()}")
            lines.append(f"%p{g} = dla.relayout %q{g} : {mid.ttype()} -> {view}")
        else:
            args.append((f"x{g}", src, draw_data(rng, shape)))
            lines.append(f"%p{g} = dla.relayout %x{g} : {src.ttype()} -> {view}")
        parts.append((at, c, g, 0))
        names.append((f"%p{g}", view))
        at += c
    join = "%y"
    # A layer reading the join (an SDP adding 0): the BDMA copies before it
    # in the dependency graph.
    read_after = PRECISION != "fp16" and n == 1 and h * w > 1 and rng.random() < 0.4
    if read_after:
        join = "%j"
    lines.append(f"{join} = dla.channel_concat {', '.join(p for p, _ in names)} : "
                 f"{', '.join(t for _, t in names)} -> {joined.ttype()}")
    result = joined
    if read_after:
        result = Strides.draw(rng, joined.shape)
        lines.append(f"%y = dla.sdp offline %j bs <alu = sum, alu_operand = 0> : "
                     f"{joined.ttype()} -> {result.ttype()}")
    return Copy(f"join_{k}", args, "\n  ".join(lines), result, parts)


def batches_case(rng, k, negative):
    """21..45 inputs: one transfer each (more than the firmware's 20 per
    operation: 2 or 3 BDMA operations), or, both sides packed, one
    transfer of all the batch's surfaces."""
    n = int(rng.integers(21, 46))
    shape = (n, int(rng.integers(1, 70)), int(rng.integers(2 if negative else 1, 4)),
             int(rng.integers(1, 4)))
    packed = rng.random() < 0.3
    src, dst = Strides.draw(rng, shape, packed=packed), Strides.draw(rng, shape, packed=packed)
    if packed:  # other line strides, the batches still one run of surfaces
        surfaces = -(-shape[1] // per_atom())
        dst = Strides(shape, dst.line + ATOM, shape[2] * (dst.line + ATOM), 0)
        dst.batch = surfaces * dst.surf
    x = ("x", src, draw_data(rng, shape))
    body = f"%y = dla.relayout %x : {src.ttype()} -> {dst.ttype()}"
    return Copy(f"batches_{k}", [x], body, dst, [(0, shape[1], 0, 0)])


CVSRAM = '{dla.memory = "cvsram"}'


def cvsram_case(rng, k, negative):
    """A copy with an end in the CV-SRAM (or DRAM to CV-SRAM and back):
    random shapes, strides and batches as `copy`. No round trip for the
    negative controls: read and written at the same addresses in DRAM, it
    would not see its RAM types."""
    shape = _shape(rng, True)  # 2+ lines: --wrong-memory and --negative alike
    ways = ["to", "from", "within"] + ([] if negative else ["round"])
    way = ways[k % len(ways)]
    src, dst = Strides.draw(rng, shape, packed=rng.random() < 0.3), Strides.draw(rng, shape)
    src.cvsram = way in ("from", "within")
    x = ("x", src, draw_data(rng, shape))
    if way == "round":
        mid = Strides.draw(rng, shape)
        body = (f"%m = dla.relayout %x {CVSRAM} : {src.ttype()} -> {mid.ttype()}\n"
                f"  %y = dla.relayout %m : {mid.ttype()} -> {dst.ttype()}")
    else:
        attr = f" {CVSRAM}" if way in ("to", "within") else ""
        body = f"%y = dla.relayout %x{attr} : {src.ttype()} -> {dst.ttype()}"
    return Copy(f"cvsram_{way}_{k}", [x], body, dst, [(0, shape[1], 0, 0)])


class Weights:
    """1x1 direct weights (K = C) that pick input channel perm[k] for output
    channel k: an argument as the cases' Strides are."""

    def __init__(self, perm):
        c = len(perm)
        self.shape, self.cvsram = (c, c, 1, 1), False
        self.data = np.zeros(self.shape, DTYPE[PRECISION])
        self.data[np.arange(c), perm, 0, 0] = 1

    def ttype(self):
        return rt.ttype(self.shape, f"#dla.weight<direct, {PRECISION}, config = nv_full>",
                        ELT[PRECISION])


def permuting_conv(perm, source, source_type, dst, attr=""):
    """The weights and text of a 1x1 direct convolution of `source` picking
    input channel perm[k] for output channel k, its SDP on the fly
    multiplying by 1 and writing %y of `dst`'s layout (`attr` its memory)."""
    wt = Weights(perm)
    acc = rt.ttype(dst.shape, None, ELT[PRECISION])
    return wt, (f"%c = dla.conv direct {source}, %w : {source_type}, {wt.ttype()} -> {acc}\n"
                f"  %y = dla.sdp on_the_fly %c bs <mul_operand = 1>{attr} : {acc} -> "
                f"{dst.ttype()}")


def cvsram_conv_case(rng, k, negative):
    """DRAM to CV-SRAM by BDMA, then a 1x1 convolution reading the copy from
    the CV-SRAM: a channel permutation (its SDP on the fly multiplies by 1),
    the result in DRAM."""
    n, c, h, w = _shape(rng, True, max_c=70)
    shape = (1, c, h, w)  # a batch of one: the convolution's own batch mode aside
    src, mid, dst = (Strides.draw(rng, shape, packed=rng.random() < 0.3),
                     Strides.draw(rng, shape), Strides.draw(rng, shape, packed=True))
    perm = rng.permutation(c)
    wt, conv = permuting_conv(perm, "%m", mid.ttype(), dst)
    body = f"%m = dla.relayout %x {CVSRAM} : {src.ttype()} -> {mid.ttype()}\n  {conv}"
    return Copy(f"cvsram_conv_{k}", [("x", src, draw_data(rng, shape)), ("w", wt, wt.data)],
                body, dst, [], perm=perm)


def cvsram_sdp_case(rng, k, negative):
    """An SDP reading or writing the CV-SRAM (SDP_RDMA's SRC_RAM_TYPE, the
    WDMA's DST_RAM_TYPE): an offline SDP adding 0 from the CV-SRAM to the
    CV-SRAM, from the CV-SRAM to DRAM, from DRAM to the CV-SRAM, or a
    convolution's SDP on the fly writing the CV-SRAM (a channel permutation
    as cvsram-conv's)."""
    n, c, h, w = _shape(rng, True, max_c=70)  # 2+ lines: no 1x1 cube
    shape = (1, c, h, w)
    way = ["within", "from", "to", "conv"][k % 4]
    src, dst = Strides.draw(rng, shape, packed=rng.random() < 0.3), Strides.draw(rng, shape)
    src.cvsram = way in ("within", "from")
    attr = f" {CVSRAM}" if way in ("within", "to", "conv") else ""
    x = ("x", src, draw_data(rng, shape))
    if way == "conv":
        perm = rng.permutation(c)
        wt, body = permuting_conv(perm, "%x", src.ttype(), dst, attr)
        return Copy(f"cvsram_sdp_conv_{k}", [x, ("w", wt, wt.data)], body, dst, [], perm=perm)
    body = (f"%y = dla.sdp offline %x bs <alu = sum, alu_operand = 0>{attr} : {src.ttype()} -> "
            f"{dst.ttype()}")
    return Copy(f"cvsram_sdp_{way}_{k}", [x], body, dst, [(0, c, 0, 0)])


KINDS = {"copy": copy_case, "slice": slice_case, "join": join_case, "batches": batches_case,
         "cvsram": cvsram_case, "cvsram-conv": cvsram_conv_case, "cvsram-sdp": cvsram_sdp_case}


def storage_bytes(t):
    import dla
    return dla.default_context().parse_type(t).storage()["buffers"][0]["bytes"]


def cpu_run(cases, build, llvm_bin):
    """Each case's (argument storages, result storage) from the CPU
    execution (run_trace.cpu_run's way, the result of each case's own
    encoding)."""
    funcs, main, counts = [], [], []
    for k, c in enumerate(cases):
        funcs.append(c.func(f"layer_{k}"))
        names, printed = [], []
        for i, (_, s, x) in enumerate(c.args):
            plain = rt.ttype(s.shape, None, ELT[PRECISION])
            main.append(f"  %p{k}_{i} = arith.constant {rt.literal(x)} : {plain}\n"
                        f"  %a{k}_{i} = dla.relayout %p{k}_{i} : {plain} -> {s.ttype()}\n")
            names.append(f"%a{k}_{i}")
            printed.append((f"%a{k}_{i}", s.ttype()))
        types = ", ".join(s.ttype() for _, s, _ in c.args)
        main.append(f"  %y{k} = call @layer_{k}({', '.join(names)}) : ({types}) -> "
                    f"{c.result.ttype()}\n")
        printed.append((f"%y{k}", c.result.ttype()))
        counts.append(len(printed))
        for v, t in printed:
            nb, name = storage_bytes(t), v[1:]
            main.append(f"""  %s{name} = dla.to_storage {v} : {t} -> tensor<{nb}xi8>
  %w{name} = arith.extsi %s{name} : tensor<{nb}xi8> to tensor<{nb}xi32>
  %m{name} = bufferization.to_buffer %w{name} : tensor<{nb}xi32> to memref<{nb}xi32>
  %u{name} = memref.cast %m{name} : memref<{nb}xi32> to memref<*xi32>
  call @printMemrefI32(%u{name}) : (memref<*xi32>) -> ()
""")
    return rt.run_printed(funcs, main, counts, build, llvm_bin)


def numpy_equal(c, xs, y):
    """Whether the result's elements (in `y`, the CPU execution's storage)
    are the arguments' (in `xs`, their storages) by numpy's slicing (or,
    for cvsram-conv, channel permutation)."""
    if c.perm is not None:
        _, s, data = c.args[0]
        want = read(xs[0], s.offsets())
        if not np.array_equal(want.view(np.uint8), np.ascontiguousarray(data).view(np.uint8)):
            return False
        try:
            got = read(y, c.result.offsets())
        except IndexError:
            return False
        return np.array_equal(got.view(np.uint8),
                              np.ascontiguousarray(want[:, c.perm]).view(np.uint8))
    for first, n, arg, arg_first in c.parts:
        _, s, data = c.args[arg]
        shape = (c.result.shape[0], n) + c.result.shape[2:]
        want = read(xs[arg], s.offsets(shape, arg_first))
        # The drawn logical data too: the argument's storage holds it.
        if not np.array_equal(want.view(np.uint8),
                              np.ascontiguousarray(data[:, arg_first:arg_first + n])
                              .view(np.uint8)):
            return False
        try:
            got = read(y, c.result.offsets(shape, first))
        except IndexError:  # offsets beyond the storage (a wrong stride)
            return False
        if not np.array_equal(got.view(np.uint8), want.view(np.uint8)):
            return False
    return True


def write_program(c, xs, y, root, translate):
    data = os.path.join(root, c.name + ".data")
    os.makedirs(data, exist_ok=True)
    for i, x in enumerate(xs):
        with open(os.path.join(data, f"arg{i}.bin"), "wb") as f:
            f.write(x)
    with open(os.path.join(data, "result0.bin"), "wb") as f:
        f.write(y)
    tdir = os.path.join(root, c.name)
    tr = subprocess.run([translate, "--dla-to-nvdla-trace", f"--nvdla-trace-dir={tdir}",
                         f"--nvdla-trace-data={data}", "-"], input=rt.module([c.func()]),
                        capture_output=True, text=True)
    return tdir, tr


def loadable_text(c, xs):
    """The case as a loadable's function: its first argument the input the
    runtime binds, the others constants of their storage bytes `xs`
    (dense_resource blobs, as run_loadable.py writes them)."""
    consts, blobs = [], []
    for i, ((n, s, _), x) in enumerate(zip(c.args, xs)):
        if i:
            consts.append(f"  %{n} = arith.constant dense_resource<{c.name}_{n}> : {s.ttype()}\n")
            blobs.append(f'      {c.name}_{n}: "0x08000000{bytes(x).hex().upper()}"')
    n, s, _ = c.args[0]
    text = (f"func.func @{c.name}(%{n}: {s.ttype()}) -> {c.result.ttype()} {{\n" +
            "".join(consts) + f"  {c.body}\n  return %y : {c.result.ttype()}\n}}\n")
    res = ("{-#\n  dialect_resources: {\n    builtin: {\n" + ",\n".join(blobs) +
           "\n    }\n  }\n#-}\n") if blobs else ""
    return rt.module([text]) + res


def run_loadable(c, xs, y, root, build, env):
    """The case as a loadable (dla-translate --dla-to-nvdla-loadable) run by
    NVIDIA's runtime and nv_full firmware on the v1 model: None when its
    output equals the CPU execution's at every element, else why not."""
    d = os.path.join(root, c.name + ".loadable")
    os.makedirs(d, exist_ok=True)
    model = os.path.join(d, "model.nvdla")
    tr = subprocess.run([os.path.join(build, "bin", "dla-translate"), "--dla-to-nvdla-loadable",
                         "-o", model, "-"], input=loadable_text(c, xs), capture_output=True,
                        text=True)
    if tr.returncode:
        return "dla-translate failed: " + tr.stderr.strip()
    with open(os.path.join(d, "input.bin"), "wb") as f:
        f.write(xs[0])
    run = subprocess.run([os.path.join(build, "nvdla-runtime", "dla-run-loadable"), model,
                          "--config", "nv_full", "--input", os.path.join(d, "input.bin"),
                          "-o", os.path.join(d, "out")], capture_output=True, text=True, env=env)
    if run.returncode:
        return "the runtime failed: " + (run.stdout + run.stderr).strip()
    out = open(os.path.join(d, "out", "output0.bin"), "rb").read()
    offsets = c.result.offsets()
    if len(out) < len(y) or not np.array_equal(read(out, offsets).view(np.uint8),
                                               read(y, offsets).view(np.uint8)):
        return "the output differs from the CPU execution"
    return None


def off_by_one_atom(tdir):
    """The program's first BDMA source line stride 32 bytes larger."""
    cfg = os.path.join(tdir, os.path.basename(tdir) + ".cfg")
    text = open(cfg).read()
    m = re.search(r"reg_write\(NVDLA_BDMA\.CFG_SRC_LINE_0, (0x[0-9a-f]+)\);", text)
    if not m:
        sys.exit(f"{cfg}: no BDMA source line stride")
    text = text[:m.start(1)] + hex(int(m.group(1), 16) + ATOM) + text[m.end(1):]
    with open(cfg, "w") as f:
        f.write(text)


# --wrong-memory: per kind, the registers whose RAM types the program's
# CV-SRAM accesses take, and their value with every type MC.
MC_REGISTERS = {
    "cvsram": (r"NVDLA_BDMA\.CFG_CMD_0", "0x3"),  # source and destination
    "cvsram-conv": (r"NVDLA_CDMA\.D_DAIN_RAM_TYPE_0", "0x1"),  # its copy kept
    "cvsram-sdp": (r"NVDLA_SDP_RDMA\.D_SRC_DMA_CFG_0|NVDLA_SDP\.D_DST_DMA_CFG_0", "0x1"),
}
WRONG_MEMORY = {"cvsram": "BDMA RAM types", "cvsram-conv": "CDMA DAIN_RAM_TYPE",
                "cvsram-sdp": "SDP RAM types"}


def memories_mc(tdir, kind):
    """The program's RAM types MC (DBB), whatever memory the plan put the
    data in (MC_REGISTERS)."""
    cfg = os.path.join(tdir, os.path.basename(tdir) + ".cfg")
    reg, value = MC_REGISTERS[kind]
    text, n = re.subn(r"reg_write\((" + reg + r"), 0x[0-9a-f]+\);",
                      lambda m: f"reg_write({m.group(1)}, {value});", open(cfg).read())
    if not n:
        sys.exit(f"{cfg}: no {reg}")
    with open(cfg, "w") as f:
        f.write(text)


def main():
    global PRECISION
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    rt.add_case_arguments(p, KINDS, precisions=sorted(DTYPE), executions=False, configs=None)
    p.add_argument("--negative", action="store_true")
    p.add_argument("--wrong-memory", action="store_true",
                   help="cvsram kinds: the RAM types MC (BDMA's, or the convolution's "
                        "input's); every program must fail")
    p.add_argument("--loadable", action="store_true",
                   help="as loadables under NVIDIA's runtime and nv_full firmware instead")
    a = p.parse_args()
    PRECISION = a.precision
    if a.wrong_memory and a.kind not in MC_REGISTERS:
        p.error("--wrong-memory needs a cvsram kind (" + ", ".join(MC_REGISTERS) + ")")
    if a.kind in ("cvsram-conv", "cvsram-sdp") and PRECISION == "fp16":
        p.error(f"{a.kind} draws int8 and int16: its SDP's operands are integers")
    if a.kind.startswith("cvsram") and a.loadable:
        p.error("--loadable: a loadable holds DRAM surfaces only (NVIDIA's runtime gives "
                "SRAM memory no address; docs/NvdlaCModelV1.md)")
    rt.configure("nv_full", "int8")
    a.build = os.path.abspath(a.build)
    translate = os.path.join(a.build, "bin", "dla-translate")
    player = rt.player_path(a.build, "nv_full")
    rng = np.random.default_rng(a.seed)
    cases = [KINDS[a.kind](rng, k, a.negative or a.wrong_memory) for k in range(a.count)]
    results = cpu_run(cases, a.build, a.llvm_bin)
    same = sum(numpy_equal(c, xs, y) for c, (xs, y) in zip(cases, results))
    print(f"{same} of {len(cases)} copies: the CPU execution equals numpy")
    if a.negative:  # numpy's check read at a result line stride one atom off
        for c in cases:
            c.result.line += ATOM
        off = sum(not numpy_equal(c, xs, y) for c, (xs, y) in zip(cases, results))
        for c in cases:
            c.result.line -= ATOM
        print(f"{off} of {len(cases)} CPU executions differ from numpy read at a result line "
              "stride off by one atom")
        same -= len(cases) - off
    root = a.keep or tempfile.mkdtemp(prefix="dla-bdma-")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    good = 0
    if a.loadable:
        for c, (xs, y) in zip(cases, results):
            why = run_loadable(c, xs, y, root, a.build, env)
            if why:
                print(f"{c.name}: {why}\n  {c.body}")
            else:
                good += 1
        print(f"{good} of {len(cases)} loadables match the CPU execution on nv_full")
        sys.exit(0 if good == len(cases) and same == len(cases) else 1)
    for c, (xs, y) in zip(cases, results):
        tdir, tr = write_program(c, xs, y, root, translate)
        if tr.returncode:
            print(f"{c.name}: dla-translate failed: {tr.stderr.strip()}\n  {c.body}")
            continue
        if a.negative:
            off_by_one_atom(tdir)
        if a.wrong_memory:
            memories_mc(tdir, a.kind)
        fail = a.negative or a.wrong_memory
        run = subprocess.run([player, tdir], capture_output=True, text=True, cwd=tdir, env=env)
        if bool(run.returncode) == fail:
            good += 1
        elif a.wrong_memory:
            print(f"{c.name}: passes with the RAM types MC\n  {c.body}")
        elif not a.negative:
            print(f"{c.name}: C model differs: {(run.stdout + run.stderr).strip()}\n  {c.body}")
        else:
            print(f"{c.name}: passes with a source line stride off by one atom\n  {c.body}")
    if a.wrong_memory:
        print(f"{good} of {len(cases)} programs with {WRONG_MEMORY[a.kind]} MC fail")
    elif a.negative:
        print(f"{good} of {len(cases)} programs with a source line stride off by one atom fail")
    else:
        print(f"{good} of {len(cases)} programs match the CPU execution on nv_full")
    sys.exit(0 if good == len(cases) and same == len(cases) else 1)


if __name__ == "__main__":
    main()
