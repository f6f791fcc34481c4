"""The importer on small hand-built graphs: shape folding, NHWC islands,
resource blobs, errors that name the node, input shapes, bytecode."""

import os
import re
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import ImportFailure, import_model, parse_input_shape

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, inits=(), opset=11):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def dyn_input(name="x", dims=("N", 3, "H", "W")):
    return helper.make_tensor_value_info(name, F, list(dims))


def test_shape_subgraph_folds_into_reshape(verify):
    # Reshape(x, Concat(Slice(Shape(x), 0, 2), [-1])): the classic flatten.
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Slice", ["s", "st", "en"], ["s2"]),
        helper.make_node("Concat", ["s2", "m1"], ["t"], axis=0),
        helper.make_node("Reshape", ["x", "t"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array([0], np.int64), "st"),
             numpy_helper.from_array(np.array([2], np.int64), "en"),
             numpy_helper.from_array(np.array([-1], np.int64), "m1")]
    m = model(nodes, [dyn_input()], [helper.make_tensor_value_info("y", F, None)], inits)
    text = verify(import_model(m, {"x": [1, 3, 4, 5]}))
    ops = re.findall(r"= (tosa\.[a-z_]+)", text)
    assert ops == ["tosa.const_shape", "tosa.reshape"], ops
    assert "-> tensor<1x3x20xf32>" in text


def test_dynamic_input_needs_a_shape():
    m = model([helper.make_node("Relu", ["x"], ["y"])], [dyn_input()],
              [helper.make_tensor_value_info("y", F, None)])
    with pytest.raises(ImportFailure, match=r"input 'x' has dynamic dimensions \['\?', 3, '\?', '\?'\]: "
                                            r"fix them with --input-shape x=Dx3xDxD"):
        import_model(m)
    with pytest.raises(ImportFailure, match=r"--input-shape x=1x4x2x2 does not match the model's"):
        import_model(m, {"x": [1, 4, 2, 2]})
    with pytest.raises(ImportFailure, match=r"--input-shape names no model input: z"):
        import_model(m, {"x": [1, 3, 2, 2], "z": [1]})
    # A wrong name alone: the error is about it (and names the model's
    # inputs), not about the input left dynamic.
    with pytest.raises(ImportFailure, match=r"^--input-shape names no model input: y \(the model's "
                                            r"inputs: x\)$"):
        import_model(m, {"y": [1, 3, 2, 2]})


def test_zero_dimension_is_its_own_error():
    with pytest.raises(ImportFailure, match=r"^--input-shape 'x=1x3x0x192': a dimension of size 0 "
                                            r"\(an empty tensor, which TOSA cannot hold\)$"):
        parse_input_shape("x=1x3x0x192")


def test_parse_input_shape():
    assert parse_input_shape("x=1x3x48x192") == ("x", [1, 3, 48, 192])
    assert parse_input_shape("a=b=2") == ("a=b", [2])
    for bad in ("x", "x=1xQ", "=3", "x=-1"):
        with pytest.raises(ImportFailure):
            parse_input_shape(bad)


def test_unsupported_operator_names_the_node():
    m = model([helper.make_node("Einsum", ["x", "x"], ["y"], name="mix", equation="ij,ij->ij")],
              [helper.make_tensor_value_info("x", F, [2, 2])], [helper.make_tensor_value_info("y", F, None)])
    with pytest.raises(ImportFailure, match=r"^node 'mix' \(Einsum\): operator Einsum is not supported$"):
        import_model(m)


def test_opset_range():
    # Below opset 9 a model is converted by onnx.version_converter
    # (BatchNormalization-7 becomes -9); past the newest opset it is refused.
    # (tests/test_new_ops.py: the converter failing.)
    stats = [numpy_helper.from_array(np.ones((1,), np.float32), n) for n in ("s", "b", "m", "v")]
    bn = model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn")],
               [helper.make_tensor_value_info("x", F, [1, 1, 1, 1])],
               [helper.make_tensor_value_info("y", F, None)], stats, opset=8)
    said = []
    assert "tosa.mul" in import_model(bn, remark=said.append)
    assert said == ["opset 8 converted to opset 9 by onnx.version_converter"]
    bn.opset_import[0].version = 22
    with pytest.raises(ImportFailure, match="opset 22 is outside the supported 1 to 21"):
        import_model(bn)


def test_conv_relu_in_nhwc_with_resource_weights(verify):
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["y"])]
    m = model(nodes, [helper.make_tensor_value_info("x", F, [1, 3, 6, 6])],
              [helper.make_tensor_value_info("y", F, None)], [numpy_helper.from_array(w, "w")])
    text = import_model(m)
    # The 216-element weight is a resource blob holding OHWI bytes.
    blob = re.search(r'weight: "0x([0-9A-F]+)"', text).group(1)
    data = bytes.fromhex(blob)[4:]
    assert data == w.transpose(0, 2, 3, 1).tobytes()
    assert "dense<\"0x" not in text
    printed = verify(text, "-canonicalize")
    ops = re.findall(r"= (tosa\.[a-z_0-9]+)", printed)
    # NCHW -> NHWC -> conv -> NCHW -> NHWC -> clamp -> NCHW: the middle pair cancels.
    assert [o for o in ops if o != "tosa.const"] == ["tosa.transpose", "tosa.conv2d", "tosa.clamp",
                                                     "tosa.transpose"], ops


def test_batchnorm_folds_statistics(verify):
    c = 4
    scale, bias = np.arange(1, c + 1, dtype=np.float32), np.arange(c, dtype=np.float32)
    mean, var = np.full(c, 0.5, np.float32), np.full(c, 3.0, np.float32)
    inits = [numpy_helper.from_array(a, n) for a, n in ((scale, "s"), (bias, "b"), (mean, "m"), (var, "v"))]
    m = model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], epsilon=1.0)],
              [helper.make_tensor_value_info("x", F, [1, c, 2, 2])], [helper.make_tensor_value_info("y", F, None)],
              inits)
    text = import_model(m)
    a = scale / 2.0  # sqrt(3 + 1)
    assert "dense<[[[[%s]]]]> : tensor<1x1x1x4xf32>" % ", ".join(repr(float(v)) for v in a) in text
    assert "dense<[[[[%s]]]]> : tensor<1x1x1x4xf32>" % ", ".join(
        repr(float(v)) for v in (bias - mean * a)) in text
    verify(text)


def test_cli_text_and_bytecode(tmp_path, dla_opt):
    m = model([helper.make_node("Relu", ["x"], ["y"])], [dyn_input()], [helper.make_tensor_value_info("y", F, None)])
    src = tmp_path / "m.onnx"
    onnx.save(m, str(src))
    env = dict(os.environ, PATH=os.path.dirname(dla_opt) + os.pathsep + os.environ["PATH"])
    tool = [sys.executable, "-m", "dla.cli.import_onnx"]
    out = tmp_path / "m.mlirbc"
    proc = subprocess.run(tool + [str(src), "--input-shape", "x=1x3x2x2", "--emit-bytecode", "-o", str(out)],
                          env=env, capture_output=True)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:4] == b"ML\xefR"
    proc = subprocess.run(tool + [str(src)], env=env, capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith("dla-import-onnx: error: input 'x' has dynamic dimensions")


def _fails(nodes, inputs, outputs, inits=(), match=""):
    with pytest.raises(ImportFailure, match=match):
        import_model(model(nodes, inputs, outputs, inits))


def test_unsupported_modes_are_diagnosed():
    x = helper.make_tensor_value_info("x", F, [1, 2, 3, 3])
    y = helper.make_tensor_value_info("y", F, None)
    stats = [numpy_helper.from_array(np.ones((2,), np.float32), n) for n in ("s", "b", "m", "v")]
    _fails([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "rm", "rv"],
                             name="bn")], [x], [y], stats,
           r"^node 'bn' \(BatchNormalization\): training mode \(batch statistics, running-mean "
           r"outputs\) is not supported$")
    drop = [numpy_helper.from_array(np.array(0.5, np.float32), "r"),
            numpy_helper.from_array(np.array(True), "t")]
    m = helper.make_model(helper.make_graph(
        [helper.make_node("Dropout", ["x", "r", "t"], ["y"], name="drop")], "g", [x], [y], drop),
        opset_imports=[helper.make_opsetid("", 13)])
    with pytest.raises(ImportFailure, match=r"^node 'drop' \(Dropout\): training mode \(random "
                                            r"dropout\) is not supported$"):
        import_model(m)
    # bfloat16 is computed in float32 (builder.onnx_dtype): an input of it
    # is a float32 argument.
    bf = helper.make_tensor_value_info("x", onnx.TensorProto.BFLOAT16, [2])
    m = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [bf], [y]),
                          opset_imports=[helper.make_opsetid("", 13)])
    assert "(%arg0: tensor<2xf32>)" in import_model(m)
    _fails([helper.make_node("Relu", ["x"], ["z"])], [x], [y], (),
           r"^graph output 'y' is defined by no node$")
    u8 = helper.make_tensor_value_info("x", onnx.TensorProto.UINT8, [1, 1, 2, 2])
    # (Add takes uint8 from opset 14, MaxPool from 12: before, the schema refuses it.)
    _fails([helper.make_node("Add", ["x", "x"], ["y"], name="add")], [u8], [y], (),
           r"^node 'add' \(Add\): input 0 \(A\) is tensor\(uint8\); the operator takes ")
    m14 = model([helper.make_node("Add", ["x", "x"], ["y"], name="add")], [u8], [y])
    m14.opset_import[0].version = 14
    with pytest.raises(ImportFailure, match=r"^node 'add' \(Add\): unsigned uint8 arithmetic is not "
                                            r"supported \(TOSA's integers are signed\)$"):
        import_model(m14)
    mp = model([helper.make_node("MaxPool", ["x"], ["y"], name="mp", kernel_shape=[2, 2])], [u8], [y])
    mp.opset_import[0].version = 14
    with pytest.raises(ImportFailure, match=r"^node 'mp' \(MaxPool\): unsigned uint8 pooling is not "
                                            r"supported"):
        import_model(mp)
    roi = numpy_helper.from_array(np.zeros((8,), np.float32), "roi")
    sizes = numpy_helper.from_array(np.array([1, 2, 2, 2], np.int64), "sizes")
    _fails([helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="rs", mode="linear",
                             coordinate_transformation_mode="tf_crop_and_resize")], [x], [y],
           [sizes], r"^node 'rs' \(Resize\): tf_crop_and_resize needs a roi$")
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs", mode="cubic",
                             coordinate_transformation_mode="tf_crop_and_resize")], [x], [y],
           [numpy_helper.from_array(np.zeros((3,), np.float32), "roi"), sizes],
           r"^node 'rs' \(Resize\): roi \[0.0, 0.0, 0.0\]: 8 finite values expected$")
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs", mode="area")], [x], [y],
           [roi, sizes], r"^node 'rs' \(Resize\): Resize mode area is not supported$")
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs",
                             coordinate_transformation_mode="half_pixel_symmetric")], [x], [y],
           [roi, sizes], r"^node 'rs' \(Resize\): coordinate_transformation_mode half_pixel_symmetric / "
                         r"nearest_mode round_prefer_floor is not supported$")
    # (At opset 11 antialias is no attribute of Resize: onnx.checker's error.)
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs", antialias=1)], [x], [y],
           [roi, sizes], r"^node 'rs' \(Resize\): 'antialias' is not an attribute of Resize at opset 11")
    with pytest.raises(ImportFailure, match=r"^node 'rs' \(Resize\): antialias, axes and "
                                            r"keep_aspect_ratio_policy \(opset 18\) are not supported$"):
        import_model(model([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs",
                                             antialias=1)], [x], [y], [roi, sizes], opset=18))
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs")], [x], [y],
           [roi, numpy_helper.from_array(np.array([1, 2, 0, 2], np.int64), "sizes")],
           r"^node 'rs' \(Resize\): sizes \[1.0, 2.0, 0.0, 2.0\]: 4 positive finite values expected$")
    _fails([helper.make_node("Resize", ["x", "roi", "scales"], ["y"], name="rs")], [x], [y],
           [roi, numpy_helper.from_array(np.array([1, 1, 0.1, 1], np.float32), "scales")],
           r"^node 'rs' \(Resize\): an output of shape \[1, 2, 0, 3\]: TOSA has no empty tensors$")
    wide = helper.make_tensor_value_info("x", F, [1, 1, 1, 5000])
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs", mode="linear",
                             coordinate_transformation_mode="tf_half_pixel_for_nn")], [wide], [y],
           [roi, numpy_helper.from_array(np.array([1, 1, 1, 5000], np.int64), "sizes")],
           r"^node 'rs' \(Resize\): a linear Resize of axis 3 from 5000 to 5000 needs a 5000 x 5000 "
           r"interpolation matrix \(at most 16777216 entries\)$")
    i32 = helper.make_tensor_value_info("x", onnx.TensorProto.INT32, [1, 2, 3, 3])
    _fails([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="rs", mode="cubic")], [i32], [y],
           [roi, sizes], r"^node 'rs' \(Resize\): int32 Resize in mode cubic / half_pixel is not supported "
                         r"\(float inputs are\)$")
