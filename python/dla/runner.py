"""Compile an ONNX model for an NVDLA target, run it on the CPU and compare
its outputs: dla-run-onnx's machinery (its command line is dla.cli.run_onnx),
and dla-calibrate's (dla.calibrate).

    from dla import runner
    options = runner.RunOptions(compile=runner.CompileOptions(target="nv_small",
                                                              precision="int8", layouts=True))
    status = runner.run_models(["model_test_dir"], options)

The model is imported to TOSA (dla.onnx, in this process; or a given TOSA
file), its function type recorded for the checks of each call, compiled by
dla-opt (--dla-compile for the target and precision, then
--dla-lower-to-llvm; one `dla-opt --batch` process for every model compiled
with the same options; the verifier runs where the modules are parsed, not
after every pass unless `verify_each`), JIT-compiled once through MLIR's
ExecutionEngine and run on every input set. Progress and results are
printed as dla-run-onnx prints them; errors are Failure (one line for the
user).
"""

import dataclasses
import glob
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import List, Optional

import numpy as np

from . import DLAError, execution, offload, pipelines, tools

__all__ = ["DEFAULT_RTOL", "CompileOptions", "Compiled", "DlaOpt", "Failure", "RunOptions",
           "compare", "load_array", "report", "run_model", "run_models"]

#: The default tolerance: 2^-7 (16 fp16 ulps); see dla-run-onnx --help.
DEFAULT_RTOL = 2.0 ** -7


class Failure(Exception):
    """An error to report without a traceback."""


@dataclasses.dataclass
class CompileOptions:
    """How a model is compiled and JIT-compiled."""
    target: str = "nv_full"              #: pipelines.NVDLA_CONFIGS
    precision: str = "fp16"              #: pipelines.PRECISIONS
    offload: bool = True                 #: --dla-convert-tosa first
    layouts: bool = False                #: accelerator formats, executed on storage
    reference_layers: bool = False       #: with layouts: layer ops by --dla-lower-to-reference
    compression: bool = True             #: with layouts: compressed weights where smaller
    winograd: bool = False               #: with layouts: winograd=auto
    cbuf_banks: int = 0                  #: convolution-buffer banks (0: all)
    cbuf_bank_entries: int = 0           #: entries per bank (0: the target's)
    allow_host: bool = False             #: no error when nothing runs on the accelerator
    opt_level: int = 2                   #: LLVM's, of the JIT
    vector_host_convolutions: bool = True  #: host convolutions vectorized (False: the baseline)
    fp16_arithmetic: Optional[str] = None  #: pipelines.FP16_ARITHMETIC (None: hardware)
    verify_each: bool = False            #: the verifier after every pass
    print_pipeline: bool = False         #: print the dla-opt command
    save_mlir: Optional[str] = None      #: write the LLVM-dialect module here
    tosa: Optional[str] = None           #: this TOSA module instead of importing the model

    def pipeline(self):
        """The textual pipeline dla-opt runs."""
        return pipelines.compile_pipeline(
            self.target, self.precision, offload=self.offload, layouts=self.layouts,
            storage_layers=not self.reference_layers, summary=self.offload,
            cbuf_banks=self.cbuf_banks, cbuf_bank_entries=self.cbuf_bank_entries,
            compression=self.compression, winograd=self.winograd,
            vector_host_convolutions=self.vector_host_convolutions,
            fp16_arithmetic=self.fp16_arithmetic)


@dataclasses.dataclass
class RunOptions:
    """What is run and compared, beside how it is compiled."""
    compile: CompileOptions = dataclasses.field(default_factory=CompileOptions)
    inputs: List[str] = dataclasses.field(default_factory=list)   #: .npy / .pb, model order
    expect: List[str] = dataclasses.field(default_factory=list)   #: expected outputs
    output_dir: Optional[str] = None     #: write outputs as output_<i>.npy here (output_dir())
    rtol: float = DEFAULT_RTOL
    #: keep the first N inputs as inputs, the others compiled in as constants
    #: (None: 1 for a test directory, none for a model)
    freeze: Optional[int] = None
    repeat: int = 0                      #: run each set this many more times, timed


class DlaOpt:
    """dla-opt runs, one process for every model of a run compiled with the
    same options (`dla-opt --batch`): a process per model spent most of a
    small model's compile starting (loading libMLIR.so, registering every
    dialect and pass). A crash ends only its model: the next starts a new
    process."""

    def __init__(self):
        self.procs = {}

    def run(self, src, out, options, work):
        """(exit code, standard error) of `dla-opt SRC -o OUT OPTIONS`."""
        key = tuple(options)
        proc = self.procs.get(key)
        if proc is None or proc.poll() is not None:
            proc = subprocess.Popen([tools.tool("dla-opt"), "--batch"] + options,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.procs[key] = proc
        diagnostics = os.path.join(work, "dla-opt.stderr")
        if os.path.exists(diagnostics):
            os.remove(diagnostics)  # never an earlier model's
        try:
            proc.stdin.write("%s\t%s\t%s\n" % (src, out, diagnostics))
            proc.stdin.flush()
            line = proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        stderr = ""
        if os.path.exists(diagnostics):
            with open(diagnostics, errors="replace") as f:
                stderr = f.read()
        if line.strip():
            return int(line), stderr
        del self.procs[key]  # it died with this model: its status (a signal is negative)
        return proc.wait() or 1, stderr

    def close(self):
        for proc in self.procs.values():
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass
            proc.wait()
        self.procs = {}


#: The dla-opt processes of this process's runs.
DLA_OPT = DlaOpt()


def load_array(path):
    if not os.path.isfile(path):
        raise Failure("%s: no such input file" % path)
    if path.endswith(".npy"):
        try:
            return np.load(path)
        except (ValueError, OSError, EOFError) as e:
            raise Failure("%s: not a readable .npy file (%s)" % (path, e))
    if path.endswith(".pb"):
        import onnx
        from onnx import numpy_helper
        tensor = onnx.TensorProto()
        try:
            with open(path, "rb") as f:
                tensor.ParseFromString(f.read())
            return numpy_helper.to_array(tensor)
        except Exception as e:  # DecodeError, unknown element types, short raw data
            raise Failure("%s: not a readable TensorProto (%s)" % (path, str(e).splitlines()[0]
                                                                   if str(e) else type(e).__name__))
    raise Failure("%s: inputs and expected outputs are .npy or .pb files" % path)


def import_model(model, tosa_file, prefix="", shown=None, source=None):
    """The TOSA text of `model` (a path); errors name `shown`, the user's
    file, rather than a prepared temporary copy, and the ops' locations
    `source` (the user's model file; `model` may be a copy with inputs
    frozen). The importer's remarks (an opset converted or not) go to
    stdout with the other lines of this model."""
    shown = shown or model
    if tosa_file:
        try:
            with open(tosa_file) as f:
                return f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise Failure("%s: cannot read the TOSA module (%s)" % (tosa_file, e))
    from .onnx import ImportFailure, import_model as import_onnx, load_model as load_onnx
    remark = lambda t: print("%sremark: %s" % (prefix, t), flush=True)
    try:
        return import_onnx(load_onnx(model, remark), source=source or shown, remark=remark)
    except ImportFailure as e:
        why = str(e).replace(model, shown)
        raise Failure(why if why.startswith(shown) else "%s: %s" % (shown, why))


def check_offload(remarks, options, model, prefix=""):
    """Prints --dla-convert-tosa's summary; nothing on the accelerator of a
    network with multiply-accumulates is an error unless allow_host."""
    s = offload.summary(remarks)
    if s is None:
        return
    on, total, share = s
    print("%soffload: %d of %d layers on %s %s%s" % (
        prefix, on, total, options.target, options.precision,
        " (%s%% of the multiply-accumulates)" % share if share is not None else ""), flush=True)
    why = None if options.allow_host else offload.refusal(remarks, model, options.target,
                                                          options.precision)
    if why:
        raise Failure(why)


WEIGHT_FORMATS = re.compile(r"remark: layouts assigned to .*; (\d+) Winograd convolutions, "
                            r"(\d+) compressed weights")


def report_weight_formats(remarks, options, prefix=""):
    """With layouts: how many convolutions run Winograd and how many
    weights are stored compressed (--dla-assign-layouts' summaries, over the
    module's functions), so a run shows winograd / compression applied."""
    found = WEIGHT_FORMATS.findall(remarks)
    if options.layouts and found:
        print("%sweight formats: %d convolution(s) Winograd, %d weight(s) compressed" % (
            prefix, sum(int(w) for w, _ in found), sum(int(c) for _, c in found)),
            flush=True)


def compile_model(tosa_text, options, shown, work, prefix="", dla_opt=None):
    """The JIT-compiled engine and entry function of a TOSA module: its
    function types recorded for invoke's checks (in this process), the
    pipeline run by dla-opt (a crash there stays an error of this tool;
    in-process, the dla layer ops of storage layers do not verify yet,
    see the C API notes), the result JIT-compiled here."""
    dla_opt = dla_opt or DLA_OPT
    dla_options = ["--pass-pipeline=%s" % options.pipeline()]
    # The verifier runs where a module is parsed: the imported module here,
    # the lowered one before the JIT. After each of the pipeline's ~100
    # passes it took 30% of dla-opt's time (the int8 classifier on nv_small
    # with layouts: 5.5 -> 3.8 s; node-nn-layouts' 49 models: 3.8 -> 2.7 s);
    # verify_each restores it, to find the pass that breaks the IR.
    if not options.verify_each:
        dla_options.append("--verify-each=0")
    if options.print_pipeline:
        print("pipeline: dla-opt %s" % " ".join("'%s'" % o for o in dla_options))
    # Bytecode both ways: the weights cross as raw bytes, never as text
    # (the recognizer's lowered module is 100+ MB of hex printed and parsed
    # again), and the ONNX node locations go with it. Each module in a
    # context of its own, closed after use: a context keeps every constant
    # it ever parsed (uniqued attributes).
    src = os.path.join(work, "input.mlirbc")
    lowered = os.path.join(work, "lowered.mlirbc")
    with execution.ExecutionContext() as ctx:
        try:
            module = ctx.parse_module(tosa_text)
        except DLAError as e:
            raise Failure("%s: the imported module does not parse: %s" % (shown, e))
        del tosa_text
        entries = execution.public_functions(module)
        if not entries:
            raise Failure("%s: the imported module has no public function" % shown)
        execution.record_signatures(module)
        module.write_bytecode(src)
    code, stderr = dla_opt.run(src, lowered, ["--emit-bytecode"] + dla_options, work)
    if code:
        errors = [l for l in stderr.splitlines() if ": remark: " not in l and l.strip()]
        errors = [l.replace(src, "<input>") for l in errors if ": note: see current operation" not in l]
        raise Failure("%s: compiling failed (dla-opt exit %d): %s" % (
            shown, code, "; ".join(errors[:5]) or "no message"))
    check_offload(stderr, options, shown, prefix)
    report_weight_formats(stderr, options, prefix)
    # What the machine changed: layers run by bands to fit the convolution
    # buffer.
    splits = re.findall(r"remark: (runs as \d+ hardware layers of .*)", stderr)
    if splits:
        print("%s%d convolution(s) run by bands of output rows to fit the convolution buffer; "
              "the first: %s" % (
            prefix, len(splits), splits[0]), flush=True)
    # The engine holds the LLVM IR: its context can go.
    try:
        with execution.ExecutionContext() as jit_ctx:
            module = jit_ctx.parse_module_file(lowered)
            if options.save_mlir:
                with open(options.save_mlir, "w") as f:
                    f.write(module.text())
            engine = execution.ExecutionEngine(module, opt_level=options.opt_level)
    except DLAError as e:
        raise Failure("%s: %s" % (shown, e))
    return engine, entries[0]


def compare(got, expected, rtol):
    """(max abs error, max rel error, ok) of one output."""
    g = got.astype(np.float64)
    e = expected.astype(np.float64)
    if g.shape != e.shape:
        raise Failure("output shape %s differs from the expected %s" % (g.shape, e.shape))
    if g.size == 0:
        return 0.0, 0.0, True
    diff = np.abs(g - e)
    diff = np.where(np.isnan(g) & np.isnan(e), 0.0, diff)
    scale = np.max(np.abs(e[np.isfinite(e)])) if np.isfinite(e).any() else 0.0
    rel = diff / np.maximum(np.abs(e), np.finfo(np.float64).tiny)
    # NaN where NaN is expected (sqrt of a negative) is right.
    ok = bool(np.all((diff <= rtol * (np.abs(e) + scale)) | (np.isnan(g) & np.isnan(e))))
    return float(np.nanmax(diff)), float(np.nanmax(np.where(diff == 0, 0.0, rel))), ok


def data_sets(model, options):
    """[(name, [input paths], [expected paths])] of `model` (a test
    directory's test_data_set_*, else the given inputs)."""
    if os.path.isdir(model):
        sets = sorted(glob.glob(os.path.join(model, "test_data_set_*")))
        if not sets:
            raise Failure("%s has no test_data_set_* directories" % model)
        by_number = lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])
        return [(os.path.basename(d), sorted(glob.glob(os.path.join(d, "input_*.pb")), key=by_number),
                 sorted(glob.glob(os.path.join(d, "output_*.pb")), key=by_number)) for d in sets]
    return [("inputs", list(options.inputs), list(options.expect))]


def load_model(path):
    """The ONNX model in `path`; a Failure naming it when it is unreadable."""
    from .onnx import ImportFailure, load_model as load
    try:
        return load(path)
    except ImportFailure as e:
        raise Failure(str(e))


def prepare_model(model, input_paths, keep, path, count=True):
    """Writes to `path` a copy of `model` for one input set: graph inputs
    after the first `keep` (keep >= 0) become initializers holding that set's
    values, and the dynamic dimensions of the remaining inputs take the
    shapes of the set's arrays (the import needs static shapes). Returns
    `model` itself when nothing changes. The given inputs are checked
    against the model's first: their number (unless not `count`: a TOSA
    module of its own has its own), and the ranks and static sizes of
    their shapes."""
    import onnx
    from onnx import numpy_helper
    m = load_model(model)
    initialized = {i.name for i in m.graph.initializer}
    inputs = [i for i in m.graph.input if i.name not in initialized]
    if count and len(input_paths) != len(inputs):
        raise Failure("%s: the model takes %d inputs (%s), %d given"
                      % (model, len(inputs), ", ".join(i.name for i in inputs), len(input_paths)))
    changed = False
    if keep >= 0:
        for info, value_path in zip(inputs[keep:], input_paths[keep:]):
            try:
                m.graph.initializer.append(numpy_helper.from_array(load_array(value_path),
                                                                   info.name))
            except (TypeError, ValueError) as e:  # numpy types ONNX has not
                raise Failure("%s: cannot be a constant of the model (%s)" % (value_path, e))
            m.graph.input.remove(info)
            changed = True
        inputs, input_paths = inputs[:keep], input_paths[:keep]
    for info, value_path in zip(inputs, input_paths):
        dims = info.type.tensor_type.shape.dim
        shape = load_array(value_path).shape
        want = ["?" if not d.HasField("dim_value") else d.dim_value for d in dims]
        if len(shape) != len(dims) or any(w != "?" and w != n for w, n in zip(want, shape)):
            raise Failure("%s: shape %s, the model's input '%s' has shape %s"
                          % (value_path, list(shape), info.name, want))
        if all(d.HasField("dim_value") for d in dims):
            continue
        for d, n in zip(dims, shape):
            d.dim_value = n
        changed = True
    if not changed:
        return model
    onnx.save(m, path)
    return path


class Compiled:
    """One imported, compiled and JIT-compiled model: `model` (a path), the
    user's `shown` (errors and the ops' locations name it; a test
    directory or the model file), with CompileOptions `options`, temporary
    files in `work`."""

    def __init__(self, model, options, work, shown=None, prefix="", dla_opt=None):
        t0 = time.perf_counter()
        shown = shown or model
        source = os.path.join(shown, "model.onnx") if os.path.isdir(shown) else shown
        # The text is compile_model's alone: it drops it once parsed.
        self.engine, self.name = compile_model(
            import_model(model, options.tosa, prefix, shown, source), options, shown, work,
            prefix, dla_opt)
        self.engine.generate_code(self.name)
        signature = self.engine.signature(self.name)
        self.arg_types = [(s.shape, s.dtype) for s in signature.inputs]
        self.result_types = [(s.shape, s.dtype) for s in signature.results]
        self.seconds = time.perf_counter() - t0


def run_set(compiled, set_name, input_paths, expected_paths, options, model, prefix=""):
    """Runs one input set of `model`; True when every output is within the
    tolerance."""
    if len(input_paths) != len(compiled.arg_types):
        raise Failure("%s: the model takes %d inputs, %d given"
                      % (set_name, len(compiled.arg_types), len(input_paths)))
    inputs = []
    for path, (shape, dtype) in zip(input_paths, compiled.arg_types):
        a = load_array(path)
        if a.shape != shape:
            raise Failure("%s: shape %s, the model expects %s" % (path, a.shape, shape))
        inputs.append(a.astype(dtype))
    outputs = compiled.engine.invoke(compiled.name, inputs)
    if options.repeat:
        t1, c1 = time.perf_counter(), time.process_time()
        for _ in range(options.repeat):
            compiled.engine.invoke(compiled.name, inputs)
        # CPU time too: on a loaded machine the wall time is mostly waiting.
        print("%s: %.6f s per run (mean of %d; CPU %.6f s per run)"
              % (set_name, (time.perf_counter() - t1) / options.repeat, options.repeat,
                 (time.process_time() - c1) / options.repeat))
    out_dir = output_dir(model, options, expected_paths)
    if out_dir:
        if os.path.isdir(model):
            out_dir = os.path.join(out_dir, set_name)
        os.makedirs(out_dir, exist_ok=True)
        for i, o in enumerate(outputs):
            np.save(os.path.join(out_dir, "output_%d.npy" % i), o)
    ok = True
    if expected_paths:
        if len(expected_paths) != len(outputs):
            raise Failure("%s: %d expected outputs for %d results"
                          % (set_name, len(expected_paths), len(outputs)))
        for i, (got, path) in enumerate(zip(outputs, expected_paths)):
            abs_err, rel_err, good = compare(got, load_array(path), options.rtol)
            ok &= good
            print("%s%s output %d: max abs error %.3g, max rel error %.3g: %s"
                  % (prefix, set_name, i, abs_err, rel_err,
                     "ok" if good else "FAIL (rtol %g)" % options.rtol))
    elif not options.output_dir:
        for i, o in enumerate(outputs):
            print("%s output %d: shape %s, %s -> %s" % (set_name, i, o.shape, o.dtype,
                                                      os.path.join(out_dir, "output_%d.npy" % i)))
    return ok


def output_dir(model, options, expected_paths=True):
    """Where the outputs are written: --output-dir, else (nothing to
    compare them with) MODEL_STEM.outputs in the working directory; None
    when they are only compared."""
    if options.output_dir:
        return options.output_dir
    if expected_paths:
        return None
    stem = os.path.splitext(os.path.basename(os.path.normpath(model)))[0]
    return stem + ".outputs"


def check_output_dir(path):
    """--output-dir before anything is compiled: a directory, or a path one
    can be made at."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise Failure("--output-dir %s: a file, not a directory" % path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise Failure("--output-dir %s: cannot make the directory (%s)" % (path, e.strerror or e))


def run_models(models, options):
    """Runs every model (a model file, or test directories); the worst
    status: 0 every output within the tolerance, 1 some not, 2 errors.
    With several models, each model's lines start with its name and its
    error is reported and the next one run; one model's error is raised."""
    if len(models) == 1:
        return run_model(models[0], options)
    status = 0
    for model in models:
        prefix = os.path.basename(os.path.normpath(model)) + " "
        if not os.path.isdir(model):
            print("dla-run-onnx: %s: several models must be test directories" % model, file=sys.stderr)
            status = 2
            continue
        try:
            status = max(status, run_model(model, options, prefix))
        except Exception as e:  # as one model's: one line, then the next model
            print("%s: error: %s" % (prefix.strip(), report(e, model)))
            status = 2
    return status


def run_model(model, options, prefix=""):
    """Compiles and runs `model` (a model file or a test directory) on its
    input sets; 0 when every output is within the tolerance, else 1."""
    path = os.path.join(model, "model.onnx") if os.path.isdir(model) else model
    if not os.path.isfile(path):
        raise Failure("%s: no such model" % path)
    sets = data_sets(model, options)
    if options.output_dir:
        check_output_dir(options.output_dir)
    compile_options = options.compile
    freeze = options.freeze
    if freeze is None:
        freeze = 1 if os.path.isdir(model) else -1
    with tempfile.TemporaryDirectory(prefix="dla-run-onnx-") as work:
        all_ok = True
        compiled = None
        for set_name, input_paths, expected_paths in sets:
            if freeze >= 0:
                # Each set's values become the constants of its own compile.
                prepared = prepare_model(path, input_paths, freeze,
                                         os.path.join(work, "%s.onnx" % set_name),
                                         not compile_options.tosa)
                compiled = Compiled(prepared, compile_options, work, model, prefix)
                input_paths = input_paths[:freeze]
            elif compiled is None:
                # Dynamic dimensions take the first set's shapes.
                prepared = prepare_model(path, input_paths, -1, os.path.join(work, "static.onnx"),
                                         not compile_options.tosa)
                compiled = Compiled(prepared, compile_options, work, model, prefix)
            print("%s%s: compiled %s %s in %.2f s"
                  % (prefix, set_name, os.path.basename(path),
                     "for %s %s" % (compile_options.target, compile_options.precision)
                     if compile_options.offload else "for the host (--no-offload)",
                     compiled.seconds))
            all_ok &= run_set(compiled, set_name, input_paths, expected_paths, options, model,
                              prefix)
    return 0 if all_ok else 1


def report(error, model):
    """One line naming the user's model: every failure's message."""
    text = str(error)
    if not isinstance(error, (Failure, DLAError)):
        text = "internal error (%s: %s)" % (type(error).__name__, text)
    text = "; ".join(line.strip() for line in text.splitlines() if line.strip())
    return text if model in text else "%s: %s" % (model, text)
