"""ONNX to execution in one process: dla.import_onnx, execution.compile
with the pipeline dla-run-onnx uses, invoke, compared with ONNX's own
expected outputs; and the example the README gives, run as written."""

import os
import subprocess
import sys

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import dla
from dla import execution

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = "/usr/share/libonnx-testdata/data"
needs_data = pytest.mark.skipif(not os.path.isdir(DATA), reason="libonnx-testdata not installed")


def _read(path):
    t = TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def _run_and_compare(engine, entry, d):
    """Runs test_data_set_0 of ONNX backend test `d`; within dla-run-onnx's
    default tolerance of ONNX's expected output."""
    x = _read(os.path.join(d, "test_data_set_0", "input_0.pb"))
    want = _read(os.path.join(d, "test_data_set_0", "output_0.pb"))
    (y,) = engine.invoke(entry, [x])
    assert y.shape == want.shape and y.dtype == want.dtype
    assert np.all(np.abs(y - want) <= 2.0 ** -7 * (np.abs(want) + np.abs(want).max()))
    assert np.abs(want).max() > 0


@needs_data
def test_import_compile_run_compare():
    d = os.path.join(DATA, "pytorch-converted", "test_Conv2d_strided")
    module = dla.import_onnx(os.path.join(d, "model.onnx"))
    assert [r.severity for r in module.remarks] == ["remark"]
    assert "converted to opset 9" in module.remarks[0].message
    (entry,) = execution.public_functions(module)
    engine = execution.compile(module, pipeline=execution.compile_pipeline(summary=True))
    assert any("1 of 1 layers on nv_full fp16" in r.message for r in engine.remarks), engine.remarks
    _run_and_compare(engine, entry, d)


@needs_data
def test_layouts_on_storage_in_process():
    # The accelerator's formats, each layer run on its storage bytes inside a
    # dla.on_storage: through the C API, dla.yield was not a terminator
    # (libDLACAPI.so held its own op trait TypeIDs) and this failed to verify.
    d = os.path.join(DATA, "pytorch-converted", "test_Conv2d_strided")
    module = dla.import_onnx(os.path.join(d, "model.onnx"))
    (entry,) = execution.public_functions(module)
    engine = execution.compile(module, pipeline=execution.compile_pipeline(layouts=True))
    _run_and_compare(engine, entry, d)


@needs_data
def test_compile_takes_compile_pipelines_options():
    """As README.md has it: execution.compile(module, layouts=True) is
    compile_pipeline(layouts=True); with a pipeline too, or an option
    compile_pipeline has not, a DLAError names them."""
    d = os.path.join(DATA, "pytorch-converted", "test_Conv2d_strided")
    module = dla.import_onnx(os.path.join(d, "model.onnx"))
    (entry,) = execution.public_functions(module)
    with pytest.raises(dla.DLAError, match=r"^execution.compile: give a pipeline or "
                                           r"compile_pipeline's options \(layouts\), not both$"):
        execution.compile(module, layouts=True, pipeline=execution.compile_pipeline())
    with pytest.raises(dla.DLAError, match=r"^execution.compile: .*'layout'"):
        execution.compile(module, layout=True)
    engine = execution.compile(module, layouts=True, summary=True)
    assert any("1 of 1 layers on nv_full fp16" in r.message for r in engine.remarks), engine.remarks
    _run_and_compare(engine, entry, d)


def _relu_model(path, dims):
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="act")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, dims)])
    with open(path, "wb") as f:
        f.write(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
                .SerializeToString())


def test_input_shapes(tmp_path):
    path = str(tmp_path / "relu.onnx")
    _relu_model(path, ["N", 3])
    with pytest.raises(dla.DLAError, match=r"relu.onnx: input 'x' has dynamic dimensions"):
        dla.import_onnx(path)
    module = dla.import_onnx(path, input_shapes={"x": (2, 3)})
    engine = execution.compile(module)
    (y,) = engine.invoke("main", [np.array([[-1, 2, -3], [4, -5, 6]], np.float32)])
    np.testing.assert_array_equal(y, [[0, 2, 0], [4, 0, 6]])


def test_import_errors_name_the_file_and_node(tmp_path):
    path = tmp_path / "empty.onnx"
    path.write_bytes(b"")
    with pytest.raises(dla.DLAError, match="^%s: the file is empty, not an ONNX model$" % path):
        dla.import_onnx(str(path))
    graph = helper.make_graph([helper.make_node("Hardmax", ["x"], ["y"], name="hm")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    path = tmp_path / "hardmax.onnx"
    path.write_bytes(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
                     .SerializeToString())
    with pytest.raises(dla.DLAError, match=r"^%s: node 'hm' \(Hardmax\): operator Hardmax is not "
                                           r"supported$" % path):
        dla.import_onnx(str(path))


@needs_data
def test_readme_example():
    """The command README.md gives, as written there (PYTHONPATH: this
    run's package, build/python_packages in the README)."""
    packages = os.path.dirname(os.path.dirname(os.path.abspath(dla.__file__)))
    proc = subprocess.run([sys.executable, "python/examples/onnx_end_to_end.py"], cwd=ROOT,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=packages))
    assert proc.returncode == 0, proc.stderr
    assert "remark: opset 6 converted to opset 9 by onnx.version_converter" in proc.stdout
    assert "2 of 2 layers on nv_full fp16" in proc.stdout
    assert "test_data_set_0 output 0 [2, 6, 4, 4]: max abs error" in proc.stdout
    assert proc.stdout.rstrip().endswith(": ok")


@needs_data
def test_example_fails_on_a_wrong_answer(tmp_path):
    """The example's comparison can fail: expected outputs doubled."""
    src = os.path.join(DATA, "pytorch-converted", "test_Conv2d_groups")
    d = tmp_path / "t"
    (d / "test_data_set_0").mkdir(parents=True)
    os.symlink(os.path.join(src, "model.onnx"), d / "model.onnx")
    os.symlink(os.path.join(src, "test_data_set_0", "input_0.pb"), d / "test_data_set_0" / "input_0.pb")
    want = _read(os.path.join(src, "test_data_set_0", "output_0.pb"))
    (d / "test_data_set_0" / "output_0.pb").write_bytes(
        numpy_helper.from_array(want * 2).SerializeToString())
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "python/examples/onnx_end_to_end.py"),
                           str(d)], capture_output=True, text=True)
    assert proc.returncode == 1 and ": FAIL" in proc.stdout, proc.stdout + proc.stderr
