"""Every ```python block of README.md runs as written, from the source
tree's root (PYTHONPATH: this run's package, build/python_packages in the
README); a bare expression whose comment is a Python literal
(`layout.storage_bytes, ...   # 2048, 32`) must equal it."""

import os
import re
import subprocess
import sys

import pytest

import dla

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(ROOT, os.environ.get("DLA_BUILD_DIR", "build"))
DEMO_BUNDLE = os.path.join(ROOT, "build", "demo", "cls-nv_full")
MODEL = os.path.join(BUILD, "models", "ch_ppocr_mobile_v2.0_cls_infer.onnx")

# Runs one block statement by statement; checks the commented values.
HARNESS = r'''
import ast, sys
source = open(sys.argv[1]).read()
lines = source.splitlines()
scope = {"__name__": "__readme__"}
for stmt in ast.parse(source).body:
    code = ast.Module(body=[stmt], type_ignores=[])
    if isinstance(stmt, ast.Expr):
        line = lines[stmt.end_lineno - 1]
        comment = line.split("#", 1)[1].strip() if "#" in line else None
        try:
            expected = ast.literal_eval(comment) if comment else None
            checked = comment is not None
        except (ValueError, SyntaxError):
            checked = False
        value = eval(compile(ast.Expression(stmt.value), "README.md", "eval"), scope)
        if checked and value != expected:
            sys.exit("README.md: %r is %r, the README says %r" % (lines[stmt.lineno - 1], value, expected))
        continue
    exec(compile(code, "README.md", "exec"), scope)
'''


def blocks():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    return [(text[:m.start()].count("\n") + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```$", text, re.S | re.M)]


def test_the_readme_has_python_blocks():
    assert len(blocks()) >= 3


@pytest.mark.parametrize("line,code", blocks(), ids=lambda v: "line%d" % v if isinstance(v, int) else "")
def test_readme_python_block_runs(line, code, tmp_path):
    if "build/demo/cls-nv_full" in code and not os.path.isdir(DEMO_BUNDLE):
        if not os.path.exists(MODEL):
            pytest.skip("the demo's bundle needs the PaddleOCR models (scripts/fetch-models.sh)")
        # What the README's first command leaves there.
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "demo.sh")], check=True,
                       capture_output=True, env=dict(os.environ, DLA_DEMO_SKIP_SETUP="1",
                                                     BUILD_DIR=BUILD))
    path = tmp_path / "block.py"
    path.write_text(code)
    packages = os.path.dirname(os.path.dirname(os.path.abspath(dla.__file__)))
    proc = subprocess.run([sys.executable, "-c", HARNESS, str(path)], cwd=ROOT, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=packages))
    assert proc.returncode == 0, "README.md line %d: %s" % (line, proc.stderr)


SAN_BIN = os.path.join(ROOT, "build-san", "bin")


def fuzz_lines():
    """The fuzzing commands of the README's "Sanitizers and fuzzing" block:
    (line number, command) of each line that makes a directory or runs a
    dla-fuzz harness."""
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text[text.index("## Sanitizers and fuzzing"):]
    block = re.search(r"^```sh\n(.*?)^```$", section, re.S | re.M)
    first = text[:text.index("## Sanitizers and fuzzing") + block.start(1)].count("\n") + 1
    return [(first + i, line.split("#")[0].strip()) for i, line in enumerate(block.group(1).splitlines())
            if "dla-fuzz-" in line or line.startswith("mkdir")]


def test_the_readme_has_fuzzing_commands():
    assert len([c for _, c in fuzz_lines() if "dla-fuzz-" in c]) >= 2


@pytest.mark.skipif(not os.path.exists(os.path.join(SAN_BIN, "dla-fuzz-pipeline")),
                    reason="build-san is not built (scripts/setup-sanitizers.sh)")
def test_readme_fuzzing_commands_run_as_written(tmp_path):
    """Each command as written, from the root, in a plain environment (no
    ASAN_OPTIONS, no preloaded runtime: a user's shell); only its length is
    cut (-max_total_time and -runs) and /tmp's directories are the test's
    own. The audit's finding: the harness stopped on its own seed corpus
    with a use-after-poison in libMLIR unless ASAN_OPTIONS had
    allow_user_poisoning=0."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ASAN_OPTIONS", "LD_PRELOAD", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    for line, command in fuzz_lines():
        command = re.sub(r"-max_total_time=\d+", "-max_total_time=5", command)
        command = re.sub(r"-runs=\d+", "-runs=300", command)
        command = command.replace("/tmp/", str(tmp_path) + "/")
        # Forked by the shell as a user's shell does: a `bash -c` of one
        # command execs it in the process Python forked, whose peak RSS
        # (getrusage's, which libFuzzer's -rss_limit_mb reads) is this
        # test process's, 2.8 GB under ASan after the other tests.
        proc = subprocess.run(["bash", "-c", command + "\nexit $?"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, "README.md line %d: %s\n%s" % (line, command, proc.stderr[-3000:])
        assert "ERROR: AddressSanitizer" not in proc.stderr, proc.stderr[-3000:]
