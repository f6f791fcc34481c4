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
