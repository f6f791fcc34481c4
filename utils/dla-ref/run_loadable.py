#!/usr/bin/env python3
"""Random hardware layers and chains written as NVDLA loadables by
dla-translate --dla-to-nvdla-loadable and run by NVIDIA's unchanged runtime
and firmware on NVIDIA's C model (dla-run-loadable), each output compared
bit for bit with the project's CPU execution of the same function (issue 44
part 4).

    PYTHONPATH=BUILD_DIR/python_packages \\
    run_loadable.py --kind KIND (run_trace.py's kinds: conv, conv-bands, sdp, sdp-mem, ..., chain,
                                 groups, views; emu-softmax, emu-power)
                    --count N --seed S --build BUILD_DIR [--config nv_small|nv_large]
                    [--firmware head|c906fc6] [--keep DIR]
    run_loadable.py --from-execution int-conv|int-sdp|int-pool|int-lrn|int-lrn-wrap ...

The cases, their inputs and the CPU execution are run_trace.py's (the same
--kind, --count and --seed draw the same functions; here --kind chain draws
2 to 6 layers, and average pools keep the firmware's reciprocals). Each case becomes a module whose weights and SDP operands
are constants (dense_resource blobs of the storage bytes the CPU execution
printed) and whose one input is the feature data the runtime binds (the
CPU execution's storage bytes of it, --input); the loadable's output
buffer is compared with the CPU execution's result at every element of the
result (nvdla_ref.element_offsets: the layout from the spec, not from the
code under test). The writer's located refusals (what the firmware's
descriptors cannot express: the project's extensions, what the firmware
refuses) are counted as not fitting, with their reasons (numbers as N).
Prints one line per failing case and `N of M loadables match the CPU
execution on CONFIG`; exits 1 on any mismatch.

--kind emu-softmax / emu-power: a layer, then an op of NVIDIA's runtime
emulator on its result (the loadable's EMU task); the expected output is
the CPU execution of the whole function, itself checked against
emulator_ref.py (numpy, from Emulator.cpp) applied to the CPU execution of
the layer alone. A case fails when the runner reports no EMU task;
`N of M emulator results differ from their layer's` says how many outputs
a skipped EMU task could not have produced.
"""

import argparse
import copy
import functools
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import emulator_ref
import nvdla_ref
import run_trace
import run_winograd_trace

RECIPROCALS = re.compile(r" recip_kernel_(width|height) -?[0-9]+")


def firmware_reciprocals(kind):
    """run_trace.py's draw of `kind` with the average pools' stated
    reciprocals left out: NVIDIA's firmware writes its own table's
    (recip_kernel_size), so a stated one is refused; the CPU execution then
    uses the same default."""
    def draw(*args, **kwargs):
        case = kind(*args, **kwargs)
        case.body = RECIPROCALS.sub("", case.body)
        return case
    return draw


def pdp_average(rw, rh, s):
    """The PDP's integer average of window sum s (NVDLA_PDP.rdl: the sum
    times RECIP_KERNEL_WIDTH, rounded half away from zero at 16 fraction
    bits, then times RECIP_KERNEL_HEIGHT, rounded again)."""
    def rha(v):
        return (v + (1 << 15)) >> 16 if v >= 0 else -((-v + (1 << 15)) >> 16)
    return rha(rha(s * rw) * rh)


def one_rounding_fits(kh, kw, stride, pad_values):
    """Whether a loadable can carry an int8 average pool that states one
    rounding (2^16, then 2^16 / (kh kw) rounded): the firmware writes its
    table, floor(2^16 / k) per dimension (dla_pdp.c recip_kernel_size), so
    the two must agree on every window sum: sums of int8 data, or, where
    padded positions add PAD_VALUE_nX registers, every value of the int16
    line buffer. And its validate_strides takes strides up to 8."""
    n = kh * kw
    one = (1 << 16, ((1 << 17) // n + 1) // 2)
    table = ((1 << 16) // kw, (1 << 16) // kh)
    sums = range(-32768, 32768) if pad_values else range(-128 * n, 127 * n + 1)
    return max(stride) <= 8 and all(pdp_average(*one, s) == pdp_average(*table, s)
                                    for s in sums)


ONE_ROUNDING = {"expected": 0, "stated": 0}


def one_rounding(kind):
    """run_trace.py's draw of `kind` with the average pools stating one
    rounding, as --dla-convert-tosa writes a single integer average pool;
    counts the cases the writer should take (one_rounding_fits)."""
    def draw(*args, **kwargs):
        case = kind(*args, **kwargs)
        body = RECIPROCALS.sub("", case.body)
        m = re.match(r"%y = dla.pool (\w+) %x kernel \[(\d+), (\d+)\] stride \[(\d+), (\d+)\] "
                     r"pad \[([0-9, ]*)\]", body)
        kh, kw, sh, sw = (int(v) for v in m.group(2, 3, 4, 5))
        padded = any(int(v) for v in m.group(6).split(","))
        values = re.search(r"pad_values \[([-0-9, ]*)\]", body)
        pad_values = padded and values and any(int(v) for v in values.group(1).split(","))
        if m.group(1) == "average":
            n = kh * kw
            body = (body[:m.end()] + f" recip_kernel_width {1 << 16} recip_kernel_height "
                    f"{((1 << 17) // n + 1) // 2}" + body[m.end():])
        if m.group(1) != "average" or one_rounding_fits(kh, kw, (sh, sw), pad_values):
            ONE_ROUNDING["expected"] += max(sh, sw) <= 8
            # Taken although the stated pair differs from the table's.
            n = kh * kw
            ONE_ROUNDING["stated"] += (m.group(1) == "average" and max(sh, sw) <= 8 and
                                       (1 << 16, ((1 << 17) // n + 1) // 2) !=
                                       ((1 << 16) // kw, (1 << 16) // kh))
        case.body = body
        return case
    return draw


ACTIVATIONS = re.compile(r"<[^<>]*prelu = true[^<>]*>")


def one_activation(kind):
    """run_trace.py's draw of `kind` with no SDP stage applying a ReLU
    after its PReLU multiplier (the firmware's dla_sdp_op.act holds one
    activation: the writer refuses the pair, FirmwareLimits.cpp)."""
    def draw(*args, **kwargs):
        case = kind(*args, **kwargs)
        case.body = ACTIVATIONS.sub(lambda m: m.group(0).replace(", relu = true", ""), case.body)
        return case
    return draw


def fc_case(rng, n):
    """A fully connected layer: a direct convolution whose kernel covers its
    1..4 x 1..4 input, to 1xKx1x1 with K within one atom of channels (what
    the emulator's softmax reads as consecutive bytes), with its on-the-fly
    SDP (register operands, int_cases_sdp's draws) or alone."""
    atom = 8 if run_trace.CONFIG == "nv_small" else 32
    c, h, w = int(rng.integers(1, 25)), int(rng.integers(1, 5)), int(rng.integers(1, 5))
    k = int(rng.integers(2, atom + 1))
    shape, wshape, out = (1, c, h, w), (k, c, h, w), (1, k, 1, 1)
    attrs = f" stride [1, 1] pad [0, 0, 0, 0] clip_truncate {int(rng.integers(0, 17))}"
    body = run_trace.conv_body(rng, attrs, shape, wshape, out)
    return run_trace.Case(f"fc_{n}", shape, body, out, weight=wshape)


def scale_factor(rng):
    """A scale factor: 2^-7..2^0 times 1..2 (a float32 value)."""
    return float(np.float32(2.0 ** -int(rng.integers(0, 8)) * rng.uniform(1, 2)))


def emulated(kind):
    """A layer (fc_case for softmax, run_trace.py's convolution or pool for
    power) followed by an op of NVIDIA's runtime emulator reading its
    result: the loadable's EMU task. `case.emu` holds the op's name, its
    attributes and what emulator_ref.py computes of the layer's result;
    with_emulator(case) is the whole function."""
    def draw(rng, n):
        if kind == "softmax":
            case = one_activation(fc_case)(rng, n)
            si, so = scale_factor(rng), float(np.float32(2.0 ** -int(rng.integers(5, 8))))
            attrs = f"input_scale = {si!r} : f32, output_scale = {so!r} : f32"
            fn = functools.partial(lambda y, si, so: emulator_ref.softmax(
                y.ravel(), si, so).reshape(y.shape), si=si, so=so)
        else:
            case = (one_activation(run_trace.conv_case) if rng.random() < 0.5 else
                    firmware_reciprocals(run_trace.pool_case))(rng, n)
            pw = float(rng.choice([1.0, 2.0, 3.0]))
            sc = float(np.float32(rng.uniform(-2, 2)))
            sh = float(np.float32(rng.uniform(-1, 1)))
            si, so = scale_factor(rng), scale_factor(rng)
            attrs = (f"power = {pw!r} : f32, scale = {sc!r} : f32, shift = {sh!r} : f32, "
                     f"input_scale = {si!r} : f32, output_scale = {so!r} : f32")
            fn = functools.partial(emulator_ref.power, power_=pw, scale=sc, shift=sh,
                                   input_scale=si, output_scale=so)
        case.name = f"emu_{kind}_{n}"
        case.emu = (f"dla.emu_{kind}", attrs, fn)
        return case
    return draw


def with_emulator(case):
    """The case's function with its emulator op: the layer's result %l,
    the emulator's %y (the function's result)."""
    full = copy.copy(case)
    assert case.body.count("%y = ") == 1
    op, attrs, _ = case.emu
    full.body = (case.body.replace("%y = ", "%l = ") +
                 f"\n  %y = {op} %l {{{attrs}}} : {run_trace.ttype(case.out_shape)}")
    return full


# Chains of 2..6 layers (run_trace.py's draw 2..5).
KINDS = dict(run_trace.KINDS,
             chain=firmware_reciprocals(functools.partial(run_trace.chain_case, max_layers=6)),
             pool=firmware_reciprocals(run_trace.pool_case),
             **{"pool-one-rounding": one_rounding(run_trace.pool_case)},
             **{"pool-wide": firmware_reciprocals(run_trace.pool_wide_case)},
             views=one_activation(run_trace.views_case),
             **{"emu-softmax": emulated("softmax"), "emu-power": emulated("power")},
             # nv_full's int8 Winograd layers (run_winograd_trace.py's draws).
             **{f"winograd-{k}": functools.partial(
                 lambda k, rng, n: run_winograd_trace.winograd_case(rng, n, k)[0], k)
                for k in ("conv", "mem", "big")})


def loadable_module(case, xs):
    """The case's function with every argument but the first (the input)
    a constant holding the storage bytes `xs` give it."""
    consts, blobs = [], []
    for i, ((name, shape, enc), elt, x) in enumerate(zip(case.args, case.elts, xs)):
        if i == 0:
            continue
        key = f"{case.name}_{name}"
        consts.append(f"  %{name} = arith.constant dense_resource<{key}> : "
                      f"{run_trace.ttype(shape, enc, elt)}\n")
        # A dense_resource blob: its alignment (4 bytes, little endian), then the bytes.
        blobs.append(f'      {key}: "0x08000000{bytes(x).hex().upper()}"')
    name, shape, enc = case.args[0]
    param = f"%{name}: {run_trace.ttype(shape, enc, case.elts[0])}"
    out = case.out_type()
    text = (f"func.func @{case.name}({param}) -> {out} {{\n" + "".join(consts) +
            f"  {case.body}\n  return %y : {out}\n}}\n")
    resources = ""
    if blobs:
        resources = ("{-#\n  dialect_resources: {\n    builtin: {\n" + ",\n".join(blobs) +
                     "\n    }\n  }\n#-}\n")
    return run_trace.module([text]) + resources


def emulated_result(case, ys):
    """The storage bytes of what the emulator computes of the layer's result
    `ys` (emulator_ref.py, at every element's offset), and whether it differs
    from the layer's at some element (else a skipped EMU task would pass)."""
    offsets = nvdla_ref.element_offsets(run_trace.ENC, case.out_shape, "i8")
    layer = np.frombuffer(ys, np.int8)
    y = np.zeros(case.out_shape, np.int8)
    for index, offset in offsets.items():
        y[index] = layer[offset]
    e = case.emu[2](y)
    out = bytearray(ys)
    for index, offset in offsets.items():
        out[offset] = int(e[index]) & 0xFF
    return bytes(out), bool(np.any(e != y))


def paired_surface(elt, shape, stored):
    """The bytes of an int16 tensor (element type `elt`, logical `shape`,
    `stored` its own storage bytes, packed) an SDP between int16 and int8
    reads or writes in pairs of surfaces: one surface more for an odd count
    (the loadable's bufferSize, planNetwork's pairedSurface), else
    `stored`."""
    surfaces = -(-shape[1] // 16)
    if elt != "i16" or surfaces % 2 == 0:
        return stored
    return stored + stored // surfaces


def bound_input(case, x):
    """Input bytes `x` as the loadable binds them: zero-filled to its
    bufferSize where an SDP between int16 and int8 reads them in pairs."""
    if (getattr(case, "out_elt", None) or run_trace.FELT) != "i8":
        return x
    return x + bytes(paired_surface(case.elts[0], case.args[0][1], len(x)) - len(x))


def differences(case, out, expected):
    """The result's elements whose bytes differ: [(index, got, expected)]
    (int8 or int16 elements: run_trace.FELT, or the case's own result's).
    An int16 result written in pairs of surfaces (from int8) has its
    bufferSize: the surface beyond is not the tensor's."""
    elt = getattr(case, "out_elt", None) or run_trace.FELT
    enc = getattr(case, "out_enc", None) or run_trace.ENC
    offsets = nvdla_ref.element_offsets(enc, case.out_shape, elt)
    if elt == "i16" and case.elts[0] != "i16" and \
            len(out) == paired_surface(elt, case.out_shape, len(expected)):
        out = out[:len(expected)]
    if len(out) != len(expected):
        return [("size", len(out), len(expected))]
    n = 2 if elt == "i16" else 1
    value = lambda b, o: int.from_bytes(b[o:o + n], "little", signed=True)
    return [(i, value(out, o), value(expected, o)) for i, o in sorted(offsets.items())
            if out[o:o + n] != expected[o:o + n]]


def run_network(a):
    """--network: the module compiled by dla-compile for the configuration
    in int8; its bundle's model.nvdla run on a random input (packed into
    feature data by nvdla_ref.pack, from the spec), its output unpacked
    (nvdla_ref.element_offsets) and compared with the CPU execution of the
    same compiled module (dla-opt --dla-compile, --dla-lower-to-llvm,
    mlir-runner). Prints the loadable's and the bundle's sizes."""
    import json
    from dla import pipelines
    root = a.keep or tempfile.mkdtemp(prefix="dla-loadable-net-")
    out = os.path.join(root, "bundle")
    bin_dir = os.path.join(a.build, "bin")
    comp = subprocess.run([os.path.join(bin_dir, "dla-compile"), a.network, "--target",
                           run_trace.CONFIG, "--precision", "int8", "-o", out],
                          capture_output=True, text=True)
    if comp.returncode:
        sys.exit("dla-compile failed:\n" + comp.stderr)
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    if not manifest["loadable"]["file"]:
        sys.exit("no loadable: " + manifest["loadable"]["reason"])
    model = os.path.join(out, manifest["loadable"]["file"])
    tensors = {t["role"]: t for t in manifest["tensors"]}
    plain_in, feat_in = tensors["input"], tensors["to_accelerator"]
    plain_out, feat_out = tensors["output"], tensors["to_host"]
    rng = np.random.default_rng(a.seed)
    x = rng.integers(-128, 128, size=plain_in["shape"]).astype(np.int8)
    # NHWC at the boundary when the shapes say so (TOSA's transposes).
    to_nchw = (0, 3, 1, 2) if list(plain_in["shape"]) != list(feat_in["shape"]) else (0, 1, 2, 3)
    enc_in = feat_in["type"].split(", ", 1)[1].rsplit(">", 1)[0]
    with open(os.path.join(root, "input.bin"), "wb") as f:
        f.write(nvdla_ref.pack(x.transpose(to_nchw), enc_in, "i8"))
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    run = subprocess.run([os.path.join(a.build, "nvdla-runtime", "dla-run-loadable"), model,
                          "--config", run_trace.CONFIG, "--input", os.path.join(root, "input.bin"),
                          "-o", os.path.join(root, "out")], capture_output=True, text=True,
                         env=env)
    if run.returncode:
        sys.exit("the runtime failed: " + run.stdout + run.stderr)
    got_bytes = np.frombuffer(open(os.path.join(root, "out", "output0.bin"), "rb").read(), np.int8)
    enc_out = feat_out["type"].split(", ", 1)[1].rsplit(">", 1)[0]
    y = np.zeros(feat_out["shape"], np.int8)
    for index, offset in nvdla_ref.element_offsets(enc_out, feat_out["shape"], "i8").items():
        y[index] = got_bytes[offset]
    from_nchw = (0, 2, 3, 1) if list(plain_out["shape"]) != list(feat_out["shape"]) \
        else (0, 1, 2, 3)
    y = y.transpose(from_nchw)

    # The CPU execution of the same compiled module.
    pipeline = pipelines.module(pipelines.compile(
        convert_tosa=True, target=run_trace.CONFIG, precision="int8", layouts=True,
        compression=False))
    compiled = subprocess.run([os.path.join(bin_dir, "dla-opt"), a.network,
                               "--pass-pipeline=" + pipeline], capture_output=True, text=True)
    if compiled.returncode:
        sys.exit("dla-opt failed:\n" + compiled.stderr)
    text = compiled.stdout.replace("func.func @main(", "func.func @net(")
    t_in = f"tensor<{'x'.join(map(str, plain_in['shape']))}xi8>"
    t_out = f"tensor<{'x'.join(map(str, plain_out['shape']))}xi8>"
    n = int(np.prod(plain_out["shape"]))
    main = f"""  func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
  func.func @main() {{
    %x = arith.constant {run_trace.literal(x)} : {t_in}
    %y = call @net(%x) : ({t_in}) -> {t_out}
    %w = arith.extsi %y : {t_out} to {t_out.replace('i8>', 'i32>')}
    %m = bufferization.to_buffer %w : {t_out.replace('i8>', 'i32>')} to {t_out.replace('i8>', 'i32>').replace('tensor', 'memref')}
    %u = memref.cast %m : {t_out.replace('i8>', 'i32>').replace('tensor', 'memref')} to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }}
}}
"""
    body, sep, resources = text.partition("{-#")
    text = body[:body.rstrip().rindex("}")] + main + sep + resources
    llvm = subprocess.run([os.path.join(bin_dir, "dla-opt"), "--dla-lower-to-llvm", "-"],
                          input=text, capture_output=True, text=True)
    if llvm.returncode:
        sys.exit("dla-opt --dla-lower-to-llvm failed:\n" + llvm.stderr)
    runtime = run_trace.run_layers.runtime_library(os.path.join(bin_dir, "dla-opt"))
    printed = run_trace.run_layers.run_main(llvm.stdout, a.llvm_bin, runtime).split("data =", 1)[1]
    want = np.array([int(v) for v in re.findall(r"-?\d+", printed)][:n],
                    np.int64).astype(np.int8).reshape(plain_out["shape"])
    weights = sum(w["bytes"] for w in manifest["weights"])
    mlirbc = os.path.getsize(os.path.join(out, manifest["bytecode"]))
    print(f"{os.path.basename(a.network)}: loadable {os.path.getsize(model)} bytes; bundle "
          f"weights {weights} bytes, {manifest['bytecode']} {mlirbc} bytes; "
          f"{next(l for l in run.stdout.splitlines() if l.startswith(model + ': ')).split(': ', 1)[1]}")
    diff = int(np.count_nonzero(y != want))
    print(f"{os.path.basename(a.network)}: {y.size - diff} of {y.size} output elements equal the "
          f"CPU execution on {run_trace.CONFIG}")
    sys.exit(1 if diff else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    run_trace.add_case_arguments(p, KINDS)
    p.add_argument("--firmware", choices=["head", "c906fc6"], default="head",
                   help="the firmware the loadables are written for (and run on)")
    p.add_argument("--network", metavar="MODULE.mlir",
                   help="a whole int8 network (TOSA or dla) through dla-compile's loadable "
                        "instead of random cases (with --kind chain, which it ignores)")
    a = p.parse_args()
    if a.network:
        run_trace.configure(a.config)
        a.build = os.path.abspath(a.build)
        run_network(a)
    if (error := run_trace.kind_option_error(a.kind, a.config, a.precision)):
        p.error(error)
    run_trace.configure(a.config, a.precision, a.fp16_arithmetic)
    a.build = os.path.abspath(a.build)
    translate = os.path.join(a.build, "bin", "dla-translate")
    runner = os.path.join(a.build, "nvdla-runtime", "dla-run-loadable")

    rng = np.random.default_rng(a.seed)
    cases, unfit, inputs = run_trace.draw(a, rng, KINDS)
    results = run_trace.cpu_run(cases, inputs, a.build, a.llvm_bin)
    emulated_cases = [with_emulator(c) if getattr(c, "emu", None) else c for c in cases]
    if any(getattr(c, "emu", None) for c in cases):
        full = run_trace.cpu_run(emulated_cases, inputs, a.build, a.llvm_bin)
        results = [(xs, (ys, full_ys)) for (xs, ys), (_, full_ys) in zip(results, full)]

    root = a.keep or tempfile.mkdtemp(prefix="dla-loadable-")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    good = refused = changed = 0
    for c, full_case, (xs, ys) in zip(cases, emulated_cases, results):
        differs = False
        if getattr(c, "emu", None):
            layer_ys, ys = ys
            want, differs = emulated_result(c, layer_ys)
            diff = differences(c, ys, want)
            if diff:
                print(f"{c.name}: the CPU execution differs from emulator_ref.py at "
                      f"{len(diff)} elements, first {diff[:4]} (index, CPU, numpy)\n  "
                      f"{full_case.body}")
                continue
        d = os.path.join(root, c.name)
        os.makedirs(d, exist_ok=True)
        text = loadable_module(full_case, xs)
        with open(os.path.join(d, "module.mlir"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "input.bin"), "wb") as f:
            f.write(bound_input(c, xs[0]))
        model = os.path.join(d, "model.nvdla")
        tr = subprocess.run([translate, "--dla-to-nvdla-loadable",
                             f"--nvdla-firmware={a.firmware}", "-", "-o", model],
                            input=text, capture_output=True, text=True)
        if tr.returncode:
            refusal = re.search(r"error: (.*)", tr.stderr)
            if refusal and "' op " in refusal.group(1):
                unfit["refused: " + re.sub(r"[0-9]+", "N", refusal.group(1))] += 1
                refused += 1
                continue
            print(f"{c.name}: dla-translate failed: {tr.stderr.strip()}\n  {c.body}")
            continue
        run = subprocess.run([runner, model, "--config", run_trace.CONFIG, "--firmware",
                              a.firmware, "--input", os.path.join(d, "input.bin"),
                              "-o", os.path.join(d, "out")],
                             capture_output=True, text=True, env=env)
        if run.returncode:
            print(f"{c.name}: the runtime failed: {(run.stdout + run.stderr).strip()}\n"
                  f"  {c.body}")
            continue
        changed += differs
        if getattr(c, "emu", None) and " EMU task (NVIDIA's emulator)" not in run.stdout:
            print(f"{c.name}: the runtime ran no EMU task: {run.stdout.strip()}")
            continue
        with open(os.path.join(d, "out", "output0.bin"), "rb") as f:
            out = f.read()
        diff = differences(c, out, ys)
        if diff:
            print(f"{c.name}: {len(diff)} elements differ from the CPU execution, first "
                  f"{diff[:4]} (index, loadable, CPU)\n  {c.body}")
            continue
        good += 1
    print(f"{a.from_execution or a.kind}: {len(cases) - refused} of {a.count} cases fit "
          f"{run_trace.CONFIG} and NVIDIA's firmware")
    for reason, n in sorted(unfit.items()):
        print(f"  does not fit ({n}): {reason}")
    if a.kind == "pool-one-rounding":
        print(f"{ONE_ROUNDING['expected']} of them by the PDP's formula (windows where one "
              f"rounding computes as the firmware's table, strides up to 8), "
              f"{ONE_ROUNDING['stated']} average pools stating a pair unlike the table's")
    if a.kind and a.kind.startswith("emu-"):
        print(f"{changed} of {len(cases) - refused} emulator results differ from their layer's")
    print(f"{good} of {len(cases) - refused} loadables match the CPU execution on "
          f"{run_trace.CONFIG} (firmware {a.firmware})")
    sys.exit(0 if good == len(cases) - refused else 1)


if __name__ == "__main__":
    main()
