"""One call from a model to a deployable bundle: dla-compile's stages (its
command line is dla.cli.compile).

    from dla import compiler
    manifest = compiler.compile_bundle("cls.onnx", "out", compiler.BundleOptions(
        target="nv_full", precision="fp16", input_shapes={"x": [1, 3, 48, 192]}))

Stages (one process each at most):
  import    ONNX to TOSA (dla.onnx, in this process; a --calibration-table
            from dla-calibrate quantizes to int8 first); a .mlir module is
            read as it is
  compile   dla-opt --dla-compile (offload, layouts, precisions, packed
            weights), its remarks kept
  describe  manifest.json and weights/*.bin from the compiled module (every
            storage number from the format library)
  loadable  nv_small / nv_large int8 with every layer on the accelerator:
            OUT_DIR/model.nvdla, NVIDIA's loadable of the whole network
            (dla-translate --dla-to-nvdla-loadable; nvdla_runtime --loadable
            runs it); the manifest's `loadable` says which file, or why none
  lower     dla-opt --dla-lower-to-memref: OUT_DIR/model.mlirbc, memref
            form, the weights referenced by name (dense_resource<NAME> with
            the bytes in weights/NAME.bin, not in the module)
  report    OUT_DIR/report.html (self-contained)
"""

import dataclasses
import os
import re
import subprocess
import tempfile
from typing import Dict, List, Optional

from . import Context, DLAError, bundle, offload, performance, pipelines, report, tools

__all__ = ["STAGES", "BundleOptions", "Failure", "Refused", "Progress", "compile_bundle",
           "summary_lines", "diagnostics"]

#: The stages, in order.
STAGES = ("import", "compile", "describe", "loadable", "lower", "report")

LOADABLE_FILE = "model.nvdla"
# --dla-outline-nvdla-program's remark on the program it outlined.
PROGRAM_REMARK = re.compile(r"remark: NVDLA program @\S+: (\d+) layers(?: and (\d+) ops for "
                            r"NVIDIA's runtime emulator \(an EMU task after them\))?; the host "
                            r"runs (\d+) ops before it and (\d+) after it")


class Failure(Exception):
    """A stage failed; the message is for the user."""


class Refused(Failure):
    """The network compiled, but offloads less than asked (nothing, or less
    than BundleOptions.min_offload): no bundle is written."""


@dataclasses.dataclass
class BundleOptions:
    """What dla-compile compiles for."""
    target: str                          #: pipelines.TARGETS
    precision: str                       #: pipelines.PRECISIONS
    calibration_table: Optional[str] = None   #: int8 scales: quantize the float model first
    input_shapes: Dict[str, List[int]] = dataclasses.field(default_factory=dict)
    compression: bool = True             #: compressed weights where that is smaller
    emulator: bool = True                #: int8 softmax in NVIDIA's runtime emulator (an EMU task)
    allow_host: bool = False             #: write the bundle however little is offloaded
    min_offload: Optional[float] = None  #: least share of the multiply-accumulates offloaded (%)
    remarks: str = "summary"             #: on a failing compile: "summary" counts them, "all" lists them
    #: The performance estimate's configuration: the target's, changed by these
    #: (dla.performance.custom_config; None keeps the target's / the default).
    clock_mhz: Optional[float] = None
    dram_gbps: Optional[float] = None
    macs: Optional[int] = None
    conv_buffer_kb: Optional[float] = None
    memory_latency_cycles: Optional[float] = None

    def changes_config(self):
        """Whether any of the estimate's numbers differ from the target's."""
        return any(v is not None for v in (self.clock_mhz, self.dram_gbps, self.macs,
                                           self.conv_buffer_kb, self.memory_latency_cycles))

    def perf_config(self, target=None):
        """The performance model's configuration for `target` (default: the
        compile's) with these changes; DLAError when it cannot be built."""
        return performance.custom_config(
            target or self.target, self.precision, macs=self.macs,
            conv_buffer_kb=self.conv_buffer_kb, clock_mhz=self.clock_mhz,
            dram_gbps=self.dram_gbps, memory_latency_cycles=self.memory_latency_cycles)


def import_stage(model, options, work, remark=None):
    """The TOSA (or dla) module file of `model`."""
    if model.endswith(".mlir"):
        if options.calibration_table or options.input_shapes:
            raise Failure("--calibration-table and --input-shape apply to ONNX models only")
        return model
    if not model.endswith(".onnx"):
        raise Failure("%s: the model is a .onnx or a .mlir file" % model)
    from .onnx import ImportFailure
    from .onnx_import import import_onnx_text
    try:
        text = import_onnx_text(model, options.input_shapes,
                                calibration_table=options.calibration_table, remark=remark)
    except ImportFailure as e:
        raise Failure(str(e))
    out = os.path.join(work, "imported.mlir")
    with open(out, "w") as f:
        f.write(text)
    return out


def compile_stage(source, options, work):
    """dla-opt --dla-compile; locations printed so that the remarks (on
    the input's lines) find their ops. (compiled file, remarks)"""
    out = os.path.join(work, "compiled.mlir")
    convert = options.target != "htp"
    # Weights are compressed where WGS + WMB + data are smaller than the
    # dense stream, on configurations that read compressed weights.
    pipeline = pipelines.module(pipelines.compile(
        convert_tosa=convert, target=options.target, precision=options.precision, layouts=True,
        compression=options.compression, summary=convert,
        emulator=None if options.emulator else False))
    proc = subprocess.run([tools.tool("dla-opt"), source, "--pass-pipeline=" + pipeline,
                           "--mlir-print-debuginfo", "-o", out], capture_output=True, text=True)
    if proc.returncode:
        errors, remarks = diagnostics(proc.stderr)
        shown = errors + (remarks if options.remarks == "all" else [])
        if remarks and options.remarks != "all":
            shown.append("(%d remark%s not shown: --remarks=all lists them)"
                         % (len(remarks), "s" if len(remarks) > 1 else ""))
        raise Failure("dla-opt --dla-compile failed:\n%s" % "\n".join(shown))
    return out, proc.stderr


DIAGNOSTIC = re.compile(r"^\S.*?: (error|warning|remark|note): ")


def diagnostics(stderr):
    """dla-opt's standard error as (errors and warnings with their notes,
    remarks), each a diagnostic with its source lines, in order, each
    printed once (the remarks without repeats)."""
    blocks = []
    for line in stderr.rstrip().splitlines():
        m = DIAGNOSTIC.match(line)
        if m and m.group(1) != "note" or not blocks:
            blocks.append([m.group(1) if m else "error", line])
        else:
            blocks[-1].append(line)
    errors = ["\n".join(b[1:]) for b in blocks if b[0] != "remark"]
    remarks = list(dict.fromkeys("\n".join(b[1:]) for b in blocks if b[0] == "remark"))
    return errors, remarks


def lower_stage(compiled_text, out_dir):
    """The memref form, weights by name: the compiled module without its
    resource section (every blob is a weights/*.bin file), lowered."""
    stripped = re.sub(r"\{-#\s*dialect_resources:.*?#-\}\s*$", "", compiled_text, flags=re.S)
    out = os.path.join(out_dir, "model.mlirbc")
    proc = subprocess.run([tools.tool("dla-opt"), "-", "--dla-lower-to-memref",
                           # Locations name a temporary file.
                           "--strip-debuginfo", "--emit-bytecode",
                           "-o", out], input=stripped, capture_output=True, text=True)
    if proc.returncode:
        raise Failure("dla-opt --dla-lower-to-memref failed:\n%s" % proc.stderr.rstrip())
    return out


def loadable_stage(compiled, manifest, options, out_dir):
    """OUT_DIR/model.nvdla when NVIDIA's runtime can run the whole network;
    the manifest's `loadable` entry either way (the file, or why none: the
    translation's first error, which names the op it cannot hold)."""
    entry = dict(file=None, firmware="head")
    path = os.path.join(out_dir, LOADABLE_FILE)
    if os.path.exists(path):
        os.remove(path)  # never a stale loadable beside a new manifest
    # Every configuration and precision: what the register plan does not
    # program is the translation's located error. The layers outlined into
    # one function (the host steps before and after them stay outside:
    # quantizing the input, a head, softmax).
    program = os.path.join(os.path.dirname(compiled), "nvdla-program.mlir")
    outline = subprocess.run([tools.tool("dla-opt"), compiled, "--dla-outline-nvdla-program",
                              "-o", program], capture_output=True, text=True)
    errors = re.findall(r"^(.*error: .*)$", outline.stderr, re.M)
    if outline.returncode:
        entry["reason"] = ("its layers are not one NVDLA program: "
                           + (errors or [outline.stderr.strip()])[0])
        manifest["loadable"] = entry
        return entry
    around = PROGRAM_REMARK.search(outline.stderr)
    proc = subprocess.run([tools.tool("dla-translate"), program, "--dla-to-nvdla-loadable",
                           "-o", path], capture_output=True, text=True)
    if proc.returncode:
        errors = re.findall(r"^(.*error: .*)$", proc.stderr, re.M) or [proc.stderr.strip()]
        entry["reason"] = "dla-translate --dla-to-nvdla-loadable refused it: " + errors[0]
        if os.path.exists(path):
            os.remove(path)
    else:
        before, after = (int(around.group(3)), int(around.group(4))) if around else (0, 0)
        emulated = int(around.group(2) or 0) if around else 0
        # Ops of NVIDIA's runtime emulator: an EMU task after the DLA task.
        emu = (" and an EMU task of %d op%s (NVIDIA's runtime emulator)"
               % (emulated, "" if emulated == 1 else "s") if emulated else "")
        entry.update(file=LOADABLE_FILE, bytes=os.path.getsize(path),
                     host_before=before, host_after=after, emulator_ops=emulated,
                     reason="every layer runs on the accelerator: one DLA task of %s "
                            "layers%s; the host runs %d ops before it and %d after it"
                            % (around.group(1) if around else "its", emu, before, after))
    manifest["loadable"] = entry
    return entry


def estimate_stage(manifest, options):
    """The manifest's "estimate" (dla.performance) on the compile's target
    and the options' changes; None for a target the model does not know."""
    if options.target not in performance.CONFIGURATIONS:
        return None
    try:
        config = options.perf_config()
    except DLAError as e:
        raise Failure("the performance estimate: %s" % e)
    return performance.estimate_bundle(manifest, config)


def estimate_table(manifest, options):
    """dla-compile --estimate: the frame time on nv_small, nv_large, nv_full
    (each at its defaults) and, when the options change any number, on the
    compile's target so changed."""
    configs = []
    for name in performance.CONFIGURATIONS:
        try:
            configs.append(performance.hardware_config(name, options.precision))
        except DLAError as e:
            configs.append((name, str(e)))
    if options.changes_config():
        configs.append(options.perf_config())
    return performance.table(manifest, configs)


def summary_lines(manifest, out_dir):
    s = manifest["summary"]
    lines = ["dla-compile: %s for %s %s -> %s" % (os.path.basename(manifest["model"]),
                                                  manifest["target"], manifest["precision"], out_dir),
             "  layers: " + bundle.placement_text(s),
             "  transitions: " + bundle.transitions_text(s),
             "  relayouts: %d, %d bytes moved" % (s["relayouts"], s["relayout_bytes"]),
             "  weights: %d surfaces, %d bytes" % (s["weight_surfaces"], s["weight_bytes"])]
    if s["compressible_weight_bytes"]:
        lines[-1] += (" (direct convolution weights: %d bytes dense, %d compressed; "
                      "%d stored compressed)" % (s["compressible_weight_bytes"],
                                                 s["compressed_weight_bytes"],
                                                 s["compressed_weights"]))
    loadable = manifest.get("loadable")
    if loadable:
        lines.append("  loadable: %s" % (
            "%s, %d bytes (the host runs %d ops before it, %d after it)"
            % (os.path.join(out_dir, loadable["file"]), loadable["bytes"],
               loadable.get("host_before", 0), loadable.get("host_after", 0))
            if loadable["file"] else "none (%s)" % loadable["reason"]))
    if manifest.get("estimate"):
        lines.append("  estimated frame: " + performance.frame_text(manifest["estimate"]))
    lines.append("  report: %s" % os.path.join(out_dir, "report.html"))
    return lines


class Progress:
    """What compile_bundle tells of its stages: start(stage, what) when one
    starts, done(note) when it ends (the note "" or a few words). This one
    says nothing."""

    def start(self, stage, what):
        pass

    def done(self, note=""):
        pass


def compile_bundle(model, output, options, *, progress=None, remark=None):
    """Compiles `model` (.onnx, or a .mlir module of TOSA and/or dla layer
    ops) into the bundle directory `output` with BundleOptions `options`;
    returns its manifest. `progress` (a Progress) hears of each stage,
    `remark(text)` the importer's remarks. Failures are Failure
    (dla.DLAError from the C API)."""
    progress = progress or Progress()
    if not os.path.isfile(model):
        raise Failure("%s: no such file" % model)
    try:
        os.makedirs(output, exist_ok=True)
        probe = os.path.join(output, ".dla-compile-write-test")
        open(probe, "w").close()
        os.remove(probe)
    except OSError as e:
        raise Failure("%s: cannot write the bundle there (%s)" % (output, e.strerror))
    with tempfile.TemporaryDirectory(prefix="dla-compile-") as work:
        progress.start("import", os.path.basename(model))
        source = import_stage(model, options, work, remark)
        progress.done()
        progress.start("compile", "dla-opt --dla-compile for %s %s"
                       % (options.target, options.precision))
        compiled, remarks = compile_stage(source, options, work)
        progress.done()
        why = None if options.allow_host else offload.refusal(
            remarks, model, options.target, options.precision, options.min_offload,
            anyway="writes the bundle anyway", macs=True)
        if why:
            raise Refused(why)
        progress.start("describe", "manifest.json, weights/*.bin")
        with open(compiled) as f:
            text = f.read()
        with Context() as ctx:
            module = ctx.parse_module(text)
            manifest, files = bundle.describe(
                module, remarks, model=os.path.basename(model), target=options.target,
                precision=options.precision, bytecode="model.mlirbc")
            maps = report.storage_maps(ctx, manifest)
        manifest["estimate"] = estimate_stage(manifest, options)
        progress.done("%d weight files" % len(files))
        progress.start("loadable", "dla-translate --dla-to-nvdla-loadable -> %s" % LOADABLE_FILE)
        entry = loadable_stage(compiled, manifest, options, output)
        bundle.write(output, manifest, files)
        progress.done("%d bytes" % entry["bytes"] if entry["file"] else "none")
        progress.start("lower", "dla-opt --dla-lower-to-memref -> model.mlirbc")
        lower_stage(text, output)
        progress.done()
        progress.start("report", "report.html")
        with open(os.path.join(output, "report.html"), "w") as f:
            f.write(report.html(manifest, maps))
        progress.done()
    return manifest
