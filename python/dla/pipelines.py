"""Pass pipelines as text, from typed Python values: the one place the
package and the tools write a textual pipeline.

    from dla import pipelines
    pipelines.compile_pipeline(target="nv_small", precision="int8", layouts=True)
    # 'builtin.module(dla-compile{convert-tosa=true target=nv_small precision=int8
    #   layouts=true compression=true},dla-lower-to-llvm{c-wrappers=true storage-layers=true})'

The pipelines are the registered ones of lib/Pipelines (--dla-compile,
--dla-lower-to-memref, --dla-lower-to-llvm); OPTIONS lists, per pipeline,
the options Python may set, by keyword, with their C++ names and types. A
value of the wrong type, an enum value the C++ does not have and an
unknown keyword are errors here, before any pipeline runs;
python/tests/test_pipelines.py checks OPTIONS against the options the
C++ registers (dla.registered_passes()).
"""

from .errors import DLATypeError, DLAValueError

__all__ = ["FP16_ARITHMETIC", "NVDLA_CONFIGS", "OPTIONS", "PRECISIONS", "TARGETS", "WINOGRAD", "compile",
           "compile_pipeline", "lower_to_llvm", "lower_to_memref", "module", "pass_text",
           "reference_pipeline"]

#: NVDLA hardware configurations (target=NAME, or target=nvdla:NAME).
NVDLA_CONFIGS = ("nv_full", "nv_large", "nv_small")
#: Every target the pipelines take by short name.
TARGETS = NVDLA_CONFIGS + ("htp",)
#: The precisions the offloaded layers compute in.
PRECISIONS = ("fp16", "int8", "int16")
#: --dla-compile's winograd policies.
WINOGRAD = ("off", "auto", "fastest")
#: What fp16 layers on nv_full compute on the CPU (docs/NvdlaFp16.md): NVDLA's
#: arithmetic (the default) or the ideal one.
FP16_ARITHMETIC = ("hardware", "ideal")


class Target(str):
    """The type of a `target` option: a name of TARGETS or nvdla:CONFIG."""

    @staticmethod
    def check(value):
        if value not in TARGETS and not (value.startswith("nvdla:")
                                         and value[len("nvdla:"):] in NVDLA_CONFIGS):
            raise DLAValueError("target %r is none of %s or nvdla:CONFIG"
                             % (value, ", ".join(TARGETS)))


#: {pipeline: {Python keyword: (option name, type)}}: the type bool, int,
#: str, Target, or a tuple of the enum's values.
OPTIONS = {
    "dla-compile": {
        "convert_tosa": ("convert-tosa", bool),
        "target": ("target", Target),
        "precision": ("precision", PRECISIONS),
        "layouts": ("layouts", bool),
        "compression": ("compression", bool),
        "winograd": ("winograd", WINOGRAD),
        "summary": ("summary", bool),
        "emulator": ("emulator", bool),
        "cbuf_banks": ("cbuf-banks", int),
        "cbuf_bank_entries": ("cbuf-bank-entries", int),
        "pixel_format": ("pixel-format", str),
    },
    "dla-lower-to-memref": {
        "storage_layers": ("storage-layers", bool),
        "vector_host_convolutions": ("vector-host-convolutions", bool),
        "fp16_arithmetic": ("fp16-arithmetic", FP16_ARITHMETIC),
    },
    "dla-lower-to-llvm": {
        "c_wrappers": ("c-wrappers", bool),
        "storage_layers": ("storage-layers", bool),
        "vector_host_convolutions": ("vector-host-convolutions", bool),
        "fp16_arithmetic": ("fp16-arithmetic", FP16_ARITHMETIC),
    },
}


def _value(pipeline, keyword, kind, value):
    """The option value's text, checked against its type."""
    what = "%s option %s" % (pipeline, keyword)
    if kind is bool:
        if not isinstance(value, bool):
            raise DLATypeError("%s must be a bool, got %r" % (what, value))
        return "true" if value else "false"
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DLATypeError("%s must be an int, got %r" % (what, value))
        return str(value)
    if not isinstance(value, str):
        raise DLATypeError("%s must be a str, got %r" % (what, value))
    if isinstance(kind, tuple):
        if value not in kind:
            raise DLAValueError("%s is %r, not one of %s" % (what, value, ", ".join(kind)))
    elif kind is Target:
        Target.check(value)
    if not value or any(c.isspace() or c in "{}," for c in value):
        raise DLAValueError("%s %r is empty or holds a space, brace or comma" % (what, value))
    return value


def pass_text(pipeline, **options):
    """`pipeline{name=value ...}` with the options given (None: left out,
    the registered default), in the order given; `pipeline` alone without
    options."""
    table = OPTIONS[pipeline]
    fields = []
    for keyword, value in options.items():
        if keyword not in table:
            raise DLATypeError("%s has no option %r (it has %s)"
                            % (pipeline, keyword, ", ".join(sorted(table))))
        if value is not None:
            name, kind = table[keyword]
            fields.append("%s=%s" % (name, _value(pipeline, keyword, kind, value)))
    return "%s{%s}" % (pipeline, " ".join(fields)) if fields else pipeline


def module(*passes):
    """`builtin.module(p1,p2,...)`: the passes anchored on the module."""
    return "builtin.module(%s)" % ",".join(passes)


def compile(**options):
    """--dla-compile with `options` (keywords of OPTIONS["dla-compile"])."""
    return pass_text("dla-compile", **options)


def lower_to_memref(**options):
    """--dla-lower-to-memref with `options` (storage_layers)."""
    return pass_text("dla-lower-to-memref", **options)


def lower_to_llvm(**options):
    """--dla-lower-to-llvm with `options` (c_wrappers, storage_layers)."""
    return pass_text("dla-lower-to-llvm", **options)


def reference_pipeline(*, storage_layers=False, fp16_arithmetic=None):
    """A module of dla layer ops and TOSA host ops to the LLVM dialect, with
    a C interface wrapper for every function (for the ExecutionEngine). By
    default every layer op goes through --dla-lower-to-reference (the
    reference execution); `storage_layers` runs encoded layers on their
    storage. `fp16_arithmetic`: FP16_ARITHMETIC (None: hardware)."""
    return module(lower_to_llvm(c_wrappers=True, storage_layers=storage_layers,
                                fp16_arithmetic=fp16_arithmetic))


def compile_pipeline(target="nv_full", precision="fp16", *, offload=True, layouts=False,
                     storage_layers=True, summary=False, cbuf_banks=0, cbuf_bank_entries=0,
                     compression=True, winograd=False, vector_host_convolutions=True,
                     emulator=True, fp16_arithmetic=None):
    """Imported TOSA (and any dla layer ops already in the module) to the
    LLVM dialect: --dla-compile, then --dla-lower-to-llvm with C interface
    wrappers. `offload` runs --dla-convert-tosa first; with `layouts`, every
    tensor of the offloaded layers gets its accelerator format and the
    relayouts execute on the storage bytes; with `storage_layers` too, the
    encoded layer ops run on their storage (dla.on_storage) and only the
    rest goes through --dla-lower-to-reference. `summary` adds
    --dla-convert-tosa's remark of what runs where; `cbuf_banks` /
    `cbuf_bank_entries` (0: the target's) model a smaller convolution buffer
    (--dla-split-convolutions cuts what does not fit). With `compression`
    (where the target's hardware has it), constant weights that are smaller
    compressed are stored so and run from their WGS, WMB and data surfaces,
    decompressed by the generated code. With `winograd` (winograd=auto:
    where the target has it), eligible convolutions with constant weights
    become Winograd and run from their stored taps in the transformed
    domain. Without `vector_host_convolutions`, host convolutions keep the
    filters tosa-to-linalg-named writes (scalar loops: the baseline of
    bench/calibrate_speed.py). Without `emulator`, the softmax of int8
    logits stays on the host in float instead of dla.emu_softmax (NVIDIA's
    runtime emulator, int8 probabilities). `fp16_arithmetic` ("hardware",
    "ideal"; None: the default, hardware) is what fp16 layers on nv_full
    compute (docs/NvdlaFp16.md "The CPU execution")."""
    return module(
        compile(convert_tosa=offload, target=target, precision=precision, layouts=layouts,
                compression=compression, winograd="auto" if winograd else None,
                summary=True if summary else None, emulator=None if emulator else False,
                cbuf_banks=cbuf_banks or None,
                cbuf_bank_entries=cbuf_bank_entries or None),
        lower_to_llvm(c_wrappers=True, storage_layers=storage_layers,
                      vector_host_convolutions=None if vector_host_convolutions else False,
                      fp16_arithmetic=fp16_arithmetic))
