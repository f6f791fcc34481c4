"""dla.pipelines, the one writer of textual pipelines, against the options
the C++ registers: every option name, type and enum value the helper can
emit is one `dla-opt --help` lists for that pipeline, and what it writes
parses (and runs) in-process. A renamed option or value fails here, not
when a tool runs."""

import itertools
import os
import re
import subprocess

import pytest

import dla
import dla.tools
from dla import pipelines

DLA_OPT = dla.tools.find("dla-opt")

#: `--name=<long>` and friends: the option types of MLIR's --help.
INT_TYPES = {"int", "long", "uint", "ulong"}


def registered_options():
    """{pass or pipeline: {option: (type or None for a flag, [enum values])}}
    from dla-opt --help (pipelines are not in --list-passes, nor in
    dla.registered_passes())."""
    # dla-opt without the sanitizer runtime the sanitizer run preloads into
    # Python (an instrumented dla-opt links its own).
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    text = subprocess.run([DLA_OPT, "--help"], capture_output=True, text=True, check=True,
                          env=env).stdout
    found, current, option = {}, None, None
    for line in text.splitlines():
        m = re.match(r"^ {6}--([a-z0-9-]+)\s", line)
        if m:
            current, option = found.setdefault(m.group(1), {}), None
            continue
        m = re.match(r"^ {8}--([a-z0-9-]+)(?:=<(\w+)>)?\s", line)
        if m and current is not None:
            option = current[m.group(1)] = (m.group(2), [])
            continue
        m = re.match(r"^ +=([A-Za-z0-9_:.-]+)\s", line)
        if m and option is not None:
            option[1].append(m.group(1))
            continue
        if not line.startswith("    "):
            current = option = None
    return found


needs_dla_opt = pytest.mark.skipif(DLA_OPT is None, reason="dla-opt is not built")


@pytest.fixture(scope="module")
def registered():
    return registered_options()


@needs_dla_opt
@pytest.mark.parametrize("pipeline", sorted(pipelines.OPTIONS))
def test_every_option_the_helper_writes_is_registered(registered, pipeline):
    assert pipeline in registered, "%s is not a registered pipeline" % pipeline
    options = registered[pipeline]
    for keyword, (name, kind) in pipelines.OPTIONS[pipeline].items():
        assert name in options, "%s has no option %s (%s: %s)" % (
            pipeline, name, keyword, sorted(options))
        type_, values = options[name]
        if kind is bool:
            assert type_ is None, (pipeline, name, type_)
        elif kind is int:
            assert type_ in INT_TYPES, (pipeline, name, type_)
        elif isinstance(kind, tuple):
            assert type_ == "value", (pipeline, name, type_)
            assert set(kind) <= set(values), (pipeline, name, kind, values)
        else:  # str, Target
            assert type_ == "string", (pipeline, name, type_)


@needs_dla_opt
def test_enums_are_the_registered_ones(registered):
    """The precisions and winograd policies Python offers (the tools'
    --precision choices) are every one the C++ has."""
    assert set(pipelines.PRECISIONS) == set(registered["dla-compile"]["precision"][1])
    assert set(pipelines.WINOGRAD) == set(registered["dla-compile"]["winograd"][1])


def _runs(pipeline, module="module {}"):
    with dla.Context() as ctx:
        ctx.parse_module(module).run_pipeline(pipeline)


@pytest.mark.parametrize("target", pipelines.TARGETS +
                         tuple("nvdla:" + c for c in pipelines.NVDLA_CONFIGS))
def test_every_target_runs(target):
    # nv_small and nv_large compute int8 only.
    _runs(pipelines.module(pipelines.compile(convert_tosa=target != "htp", target=target,
                                             precision="int8")))


@pytest.mark.parametrize("precision, layouts, winograd, compression, storage_layers",
                         itertools.product(pipelines.PRECISIONS, (False, True), (False, True),
                                           (False, True), (False, True)))
def test_compile_pipeline_parses_and_runs(precision, layouts, winograd, compression,
                                          storage_layers):
    _runs(pipelines.compile_pipeline("nv_full", precision, layouts=layouts, winograd=winograd,
                                     compression=compression, storage_layers=storage_layers,
                                     summary=True, cbuf_banks=8, cbuf_bank_entries=128))


def test_every_keyword_parses():
    """Each option of OPTIONS, given a value of its type, in a pipeline
    that parses in-process (the same registry as dla-opt's)."""
    sample = {bool: True, int: 1, str: "T_R8"}
    for pipeline, options in pipelines.OPTIONS.items():
        for keyword, (_, kind) in options.items():
            value = kind[-1] if isinstance(kind, tuple) else \
                "nv_small" if kind is pipelines.Target else sample[kind]
            text = pipelines.module(pipelines.pass_text(pipeline, **{keyword: value}))
            try:
                _runs(text)
            except dla.DLAError as e:  # may fail to run on an empty module; must parse
                assert "invalid pass pipeline" not in str(e) and "no such option" not in str(e), \
                    (text, str(e))


def test_text():
    assert pipelines.compile_pipeline() == (
        "builtin.module(dla-compile{convert-tosa=true target=nv_full precision=fp16 "
        "layouts=false compression=true},dla-lower-to-llvm{c-wrappers=true storage-layers=true})")
    assert pipelines.reference_pipeline() == \
        "builtin.module(dla-lower-to-llvm{c-wrappers=true storage-layers=false})"
    assert pipelines.compile_pipeline("nv_small", "int8", winograd=True, cbuf_banks=4) == (
        "builtin.module(dla-compile{convert-tosa=true target=nv_small precision=int8 "
        "layouts=false compression=true winograd=auto cbuf-banks=4},"
        "dla-lower-to-llvm{c-wrappers=true storage-layers=true})")
    assert pipelines.lower_to_memref() == "dla-lower-to-memref"


@pytest.mark.parametrize("call, error", [
    (lambda: pipelines.compile(precision="fp32"), ValueError),
    (lambda: pipelines.compile(target="nv_huge"), ValueError),
    (lambda: pipelines.compile(target="nvdla:htp"), ValueError),
    (lambda: pipelines.compile(layouts="true"), TypeError),
    (lambda: pipelines.compile(cbuf_banks=True), TypeError),
    (lambda: pipelines.compile(pixel_format="a b"), ValueError),
    (lambda: pipelines.compile(config="nv_full"), TypeError),
    (lambda: pipelines.lower_to_llvm(layouts=True), TypeError),
])
def test_wrong_values_fail_before_running(call, error):
    with pytest.raises(error):
        call()


def test_the_tools_write_no_pipeline_by_hand():
    """Every textual pipeline of the package comes from dla.pipelines."""
    package = os.path.dirname(os.path.abspath(dla.__file__))
    for folder, _, files in os.walk(package):
        for name in files:
            path = os.path.join(folder, name)
            if name.endswith(".py") and name != "pipelines.py":
                with open(path) as f:
                    text = f.read()
                assert not re.search(r"dla-(compile|lower-to-\w+|convert-tosa)\{", text), path
