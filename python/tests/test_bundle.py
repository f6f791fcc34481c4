"""dla.bundle: a compiled module described, written and read back; the
walk's def-use edges and layer units it relies on."""

import json
import os

import numpy as np
import pytest

import dla
import dla.bundle
from dla import pipelines

from test_layout import crouton_reference, iota
from test_ir import relayout_module

# A convolution with a bias, in fp16 on nv_full: the op, its unit, its packed
# weights (direct: r, s, k, c order for K = 2, C = 3; bias zero to 32 bytes).
CONV = """
func.func @main(%x: tensor<1x3x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %w = arith.constant dense<[[[[0.0]], [[1.0]], [[2.0]]], [[[3.0]], [[4.0]], [[5.0]]]]> : tensor<2x3x1x1xf16>
  %b = arith.constant dense<[1.5, -2.0]> : tensor<2xf16>
  %y = dla.conv direct %x, %w, %b : tensor<1x3x4x4xf16>, tensor<2x3x1x1xf16>, tensor<2xf16> -> tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}
"""
PIPELINE = pipelines.module(pipelines.compile(target="nv_full", layouts=True, compression=False))


def compiled(ctx, text=CONV):
    module = ctx.parse_module(text)
    module.run_pipeline(PIPELINE)
    return module


def test_walk_edges_locations_units():
    with dla.Context() as ctx:
        ops = compiled(ctx).walk()
        conv = [o for o in ops if o.name == "dla.conv"][0]
        assert conv.unit == "CONV/CACC"
        assert [o.unit for o in ops if o.name == "func.return"] == [None]
        # Layers compute; constants, terminators, functions and modules do not.
        assert {o.name: o.computes for o in ops} == {
            "builtin.module": False, "func.func": False, "func.return": False,
            "arith.constant": False, "dla.relayout": True, "dla.conv": True}
        producers = {v: o.name for o in ops for v in o.results}
        # The input comes through a relayout of argument 0; the weights are
        # the packed constants.
        kinds = [producers[v] if v in producers else "argument %d" % conv.arguments[v]
                 for v in conv.operands]
        assert kinds == ["dla.relayout", "arith.constant", "arith.constant"]
        relayout = [o for o in ops if o.name == "dla.relayout"][0]
        assert list(relayout.arguments.values()) == [0]
        assert conv.location.startswith('loc("<input>":')


def test_describe_write_load(tmp_path):
    with dla.Context() as ctx:
        module = compiled(ctx)
        blobs = module.resource_blobs()
        manifest, files = dla.bundle.describe(module, "", model="conv.mlir", target="nv_full",
                                              precision="fp16", bytecode="model.mlirbc")
    dla.bundle.write(str(tmp_path), manifest, files)
    b = dla.bundle.load(str(tmp_path))
    assert sorted(b.weights) == sorted(blobs)
    for key, data in blobs.items():
        assert bytes(b.weights[key]) == data
    w = [e for e in b.manifest["weights"] if e["shape"] == [2, 3, 1, 1]][0]
    expected = np.zeros(64, np.float16)
    expected[:6] = np.arange(6, dtype=np.float16)  # r = s = 0: k, then c
    assert np.array_equal(b.array(w["name"]), expected)
    assert (w["bytes"], w["alignment"], w["encoding"]) == (128, 256, "#dla.weight<direct, fp16>")
    bias = [e for e in b.manifest["weights"] if e["shape"] == [2]][0]
    assert list(b.array(bias["name"])[:3]) == [1.5, -2.0, 0.0]
    assert [(t["role"], t["shape"], t["element_type"]) for t in b.manifest["tensors"]
            if t["role"] in ("input", "output")] == [("input", [1, 3, 4, 4], "f16"),
                                                     ("output", [1, 2, 4, 4], "f16")]
    layers = b.manifest["layers"]
    assert [(l["op"], l["placement"], l["unit"]) for l in layers] == \
        [("dla.conv", "accelerator", "CONV/CACC")]
    assert layers[0]["encodings"]["outputs"] == ["#dla.feature<fp16>"]
    s = b.manifest["summary"]
    # 1x3x4x4 and 1x2x4x4 f16 row-major (96, 64 bytes) to and from one
    # 16-channel surface of 4 x 4 32-byte atoms (512 bytes).
    assert (s["relayouts"], s["relayout_bytes"]) == (2, 96 + 512 + 512 + 64)
    # One tensor each way, counted by its encoded side; no host relayout.
    assert (s["transitions"], s["to_accelerator"], s["to_host"], s["host_relayouts"],
            s["transition_bytes"], s["host_relayout_bytes"]) == (2, 1, 1, 0, 512 + 512, 0)
    assert [(r["unit"], r["crossings"]) for r in b.manifest["relayouts"]] == [("host", 1)] * 2
    # No --dla-convert-tosa here: no share of multiply-accumulates to state.
    assert (s["accelerator_layers"], s["host_layers"], s["host_data_ops"],
            s["accelerator_macs"]) == (1, 0, 0, None)


def test_placement_text():
    # One line, one count per kind of op: layers on each side, data ops apart.
    s = {"accelerator_layers": 243, "host_layers": 6, "host_data_ops": 49,
         "accelerator_macs": "99.1%"}
    assert dla.bundle.placement_text(s) == (
        "243 on the accelerator, 6 on the host (99.1% of the multiply-accumulates on the "
        "accelerator); 49 host ops move or convert data")
    s.update(host_data_ops=0, accelerator_macs=None)
    assert dla.bundle.placement_text(s) == "243 on the accelerator, 6 on the host"


# A layer's result copied into a join's view (outline-nvdla-program.mlir's
# @copy_in_program): 32 int8 channels of 2 x 2, one surface of 2 x 2 32-byte
# atoms (128 bytes), into a view of a 64-channel parent (its batch: 2
# surfaces, 256 bytes).
COPY = """
#f = #dla.feature<int8, config = CONFIG>
#j = #dla.feature<int8, line_stride = 64, surface_stride = 128, batch_stride = 256, config = CONFIG>
module attributes {dla.target = #dla.target<nvdla, CONFIG>} {
func.func @copy(%x: tensor<1x32x4x4xi8>) -> tensor<1x64x1x1xi8> {
  %xf = dla.relayout %x : tensor<1x32x4x4xi8> -> tensor<1x32x4x4xi8, #f>
  %p = dla.pool max %xf kernel [2, 2] stride [2, 2] : tensor<1x32x4x4xi8, #f> -> tensor<1x32x2x2xi8, #f>
  %c = dla.relayout %p : tensor<1x32x2x2xi8, #f> -> tensor<1x32x2x2xi8, #j>
  %s = dla.sdp offline %p bs <alu = sum, alu_operand = 1> : tensor<1x32x2x2xi8, #f> -> tensor<1x32x2x2xi8, #j>
  %y = dla.channel_concat %c, %s : tensor<1x32x2x2xi8, #j>, tensor<1x32x2x2xi8, #j> -> tensor<1x64x2x2xi8, #f>
  %q = dla.pool max %y kernel [2, 2] stride [2, 2] : tensor<1x64x2x2xi8, #f> -> tensor<1x64x1x1xi8, #f>
  %r = dla.relayout %q : tensor<1x64x1x1xi8, #f> -> tensor<1x64x1x1xi8>
  return %r : tensor<1x64x1x1xi8>
}
}
"""


@pytest.mark.parametrize("config, unit, crossings", [("nv_full", "BDMA", 0), ("nv_large", "host", 2)])
def test_host_relayouts_cross(config, unit, crossings):
    # BDMA runs the copy on nv_full (the unit the C API gives it); nv_large
    # has none, so the host reads it out and writes it back. Transitions:
    # the input's 512 bytes (32 channels of 4 x 4: 16 atoms of 32 bytes),
    # the output's 64 (2 atoms), and the copy's 128 + 256 where the host
    # runs it.
    with dla.Context() as ctx:
        module = ctx.parse_module(COPY.replace("CONFIG", config))
        copy = [o for o in module.walk() if o.name == "dla.relayout"][1]
        assert copy.unit == (None if unit == "host" else unit)
        manifest, _ = dla.bundle.describe(module, "", model="m", target=config,
                                          precision="int8", bytecode="model.mlirbc")
    assert [(r["unit"], r["crossings"]) for r in manifest["relayouts"]] == \
        [("host", 1), (unit, crossings), ("host", 1)]
    s = manifest["summary"]
    inside = 128 + 256 if crossings else 0
    assert (s["transitions"], s["to_accelerator"], s["to_host"], s["host_relayouts"],
            s["transition_bytes"], s["host_relayout_bytes"]) == \
        (2 + crossings, 1, 1, crossings // 2, 512 + 64 + inside, inside)


def test_transitions_text():
    s = {"transitions": 2, "to_accelerator": 1, "to_host": 1, "host_relayouts": 0,
         "transition_bytes": 1024, "host_relayout_bytes": 0}
    assert dla.bundle.transitions_text(s) == "2 (1 to the accelerator + 1 to the host), 1024 bytes"
    s.update(transitions=66, host_relayouts=32, transition_bytes=42000, host_relayout_bytes=40960)
    assert dla.bundle.transitions_text(s) == (
        "66 (1 to the accelerator + 1 to the host + 64 inside the network: 32 host relayouts "
        "between encoded tensors, out and back in), 42000 bytes (40960 inside)")


def test_function_signature():
    with dla.Context() as ctx:
        func = [o for o in compiled(ctx).walk() if o.name == "func.func"][0]
        inputs, results = func.attributes["function_type"].function_signature()
        assert [str(t) for t in inputs + results] == ["tensor<1x3x4x4xf16>", "tensor<1x2x4x4xf16>"]
        with pytest.raises(dla.DLAError, match="is not a type attribute"):
            func.attributes["sym_name"].function_signature()
        with pytest.raises(dla.DLAError, match="is not a function type"):
            ctx.parse_attribute("i32").function_signature()


def test_load_errors(tmp_path):
    with pytest.raises(dla.DLAError, match="cannot read the manifest"):
        dla.bundle.load(str(tmp_path))
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(dla.DLAError, match="not JSON"):
        dla.bundle.load(str(tmp_path))
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(dla.DLAError, match="not a version 1 dla bundle manifest"):
        dla.bundle.load(str(tmp_path))
    with dla.Context() as ctx:
        module = ctx.parse_module(relayout_module(iota((1, 3, 5, 30), np.int8),
                                                  "#dla.chunked<crouton>"))
        module.run_pipeline("builtin.module(dla-pack-weights)")
        manifest, files = dla.bundle.describe(module, "", model="m", target="htp",
                                              precision="int8", bytecode="model.mlirbc")
    dla.bundle.write(str(tmp_path), manifest, files)
    b = dla.bundle.load(str(tmp_path))
    (name, view), = b.weights.items()
    assert bytes(view) == crouton_reference(iota((1, 3, 5, 30), np.int8))
    with open(os.path.join(str(tmp_path), "weights", name + ".bin"), "ab") as f:
        f.write(b"\0")
    with pytest.raises(dla.DLAError, match="2049 bytes, the manifest says 2048"):
        dla.bundle.load(str(tmp_path))
    os.remove(os.path.join(str(tmp_path), "weights", name + ".bin"))
    with pytest.raises(dla.DLAError, match="the manifest's weight %s is missing" % name):
        dla.bundle.load(str(tmp_path))


def test_host_blobs_are_weight_files(tmp_path):
    # A blob a host op reads is referenced by name like the packed ones:
    # it must be a file of the bundle too.
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {values = dense_resource<host_table> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
{-#
  dialect_resources: { builtin: { host_table: "0x040000000000803F0000004000004040000080C0" } }
#-}
"""
    with dla.Context() as ctx:
        module = ctx.parse_module(text)
        manifest, files = dla.bundle.describe(module, "", model="m", target="nv_full",
                                              precision="fp16", bytecode="model.mlirbc")
    dla.bundle.write(str(tmp_path), manifest, files)
    b = dla.bundle.load(str(tmp_path))
    assert list(b.array("host_table")) == [1.0, 2.0, 3.0, -4.0]
    assert b.entry("host_table")["encoding"] == "row-major"
    assert [(l["op"], l["placement"]) for l in b.manifest["layers"]] == [("tosa.add", "host")]
