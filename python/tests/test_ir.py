"""Contexts, parsing, printing, attributes and pass pipelines through the
Python package."""

import re

import numpy as np
import pytest

import dla

from test_layout import crouton_reference, iota


def relayout_module(x, encoding):
    shape = "x".join(map(str, x.shape))
    data = x.astype(np.uint8).tobytes().hex().upper()
    return (
        'func.func @f() -> tensor<{s}xi8, {e}> {{\n'
        '  %c = arith.constant dense<"0x{d}"> : tensor<{s}xi8>\n'
        '  %p = dla.relayout %c : tensor<{s}xi8> -> tensor<{s}xi8, {e}>\n'
        '  return %p : tensor<{s}xi8, {e}>\n'
        '}}\n').format(s=shape, e=encoding, d=data)


def blob(text, key="dla_packed"):
    m = re.search(key + r': "0x([0-9A-F]*)"', text)
    assert m, text
    return bytes.fromhex(m.group(1))


def test_parse_print_round_trip():
    with dla.Context() as ctx:
        text = relayout_module(iota((1, 3, 5, 30), np.int8), "#dla.chunked<crouton>")
        module = ctx.parse_module(text)
        printed = str(module)
        assert "dla.relayout" in printed
        assert "#dla.chunked<crouton>" in printed
        assert module.verify()
        assert str(ctx.parse_module(printed)) == printed


def test_bytecode_file_round_trip(tmp_path):
    # The constant's bytes and the op's location survive bytecode, in
    # another context (what dla-run-onnx hands dla-opt and reads back).
    x = iota((1, 3, 5, 30), np.int8)
    text = relayout_module(x, "#dla.chunked<crouton>").replace(
        " : tensor<1x3x5x30xi8>\n  %p", ' : tensor<1x3x5x30xi8> loc("conv1")\n  %p')
    path = str(tmp_path / "m.mlirbc")
    with dla.Context() as ctx:
        module = ctx.parse_module(text)
        module.write_bytecode(path)
        printed = module.text(debug_info=True)
    assert 'loc("conv1")' in printed
    with open(path, "rb") as f:
        assert f.read(4) == b"ML\xefR"  # the bytecode magic, not text
    with dla.Context() as other:
        again = other.parse_module_file(path)
        assert again.text(debug_info=True) == printed
        assert x.tobytes().hex().upper() in str(again)


def test_parse_module_file_errors(tmp_path):
    with dla.Context() as ctx:
        with pytest.raises(dla.DLAError, match="no such file"):
            ctx.parse_module_file(str(tmp_path / "missing.mlirbc"))
        bad = tmp_path / "bad.mlir"
        bad.write_text("func.func @f( {")
        with pytest.raises(dla.DLAError, match="bad.mlir: not a module this context parses"):
            ctx.parse_module_file(str(bad))


def test_pack_weights_pipeline_gives_the_reference_bytes():
    x = iota((1, 3, 5, 30), np.int8)
    with dla.Context() as ctx:
        module = ctx.parse_module(relayout_module(x, "#dla.chunked<crouton>"))
        module.run_pipeline("builtin.module(dla-pack-weights,canonicalize)")
        printed = str(module)
    assert "dla.relayout" not in printed
    assert "dense_resource<dla_packed>" in printed
    data = blob(printed)
    assert data[:4] == (64).to_bytes(4, "little")  # blob alignment header
    assert data[4:] == crouton_reference(x)
    # The same bytes as the layout query.
    assert data[4:] == dla.pack("tensor<1x3x5x30xi8, #dla.chunked<crouton>>", x)


def test_pipeline_errors_carry_the_diagnostics():
    with dla.Context() as ctx:
        module = ctx.parse_module(relayout_module(iota((2, 3), np.int8),
                                                  "#dla.chunked<[(0,0),(1,0),(0,4)]>"))
        with pytest.raises(dla.DLAError, match="'no-such-pass' does not refer to a registered pass"):
            module.run_pipeline("builtin.module(no-such-pass)")
        with pytest.raises(dla.DLAError, match="more than the limit of 4 bytes"):
            module.run_pipeline("builtin.module(dla-pack-weights{max-bytes=4})")
        # A failed run leaves the module usable.
        module.run_pipeline("builtin.module(dla-pack-weights)")
        assert blob(str(module))[4:] == bytes([0, 3, 0, 0, 1, 4, 0, 0, 2, 5, 0, 0])


def test_parse_errors():
    with dla.Context() as ctx:
        with pytest.raises(dla.DLAError, match=r"<input>:1:10: .*'@'-identifier"):
            ctx.parse_module("func.func(")
        with pytest.raises(dla.DLAError, match="unknown chunked layout preset"):
            ctx.parse_attribute("#dla.chunked<nope>")


def test_chunked_attributes():
    with dla.Context() as ctx:
        crouton = ctx.chunked("crouton")
        assert str(crouton) == "#dla.chunked<crouton>"
        assert crouton.preset == "crouton"
        assert crouton.rank == 4
        assert crouton.pairs == [(0, 0), (1, 0), (2, 0), (3, 0), (1, 8), (2, 8), (3, 32)]
        assert crouton.is_layout_encoding
        assert ctx.chunked(pairs=crouton.pairs) == crouton
        custom = ctx.chunked(pairs=[(0, 0), (1, 0), (0, 4)])
        assert custom.preset is None
        assert str(custom) == "#dla.chunked<[(0, 0), (1, 0), (0, 4)]>"
        parsed = ctx.parse_attribute("#dla.chunked<[(0,0),(1,0),(0,4)]>")
        assert isinstance(parsed, dla.ChunkedAttr) and parsed == custom
        t = ctx.parse_type("tensor<1x3x5x30xi8, #dla.chunked<crouton>>")
        assert t.encoding == crouton
        assert str(t.element_type) == "i8"
        assert ctx.parse_type("tensor<2xi8>").encoding is None
        with pytest.raises(dla.DLAError, match="invalid chunked layout"):
            ctx.chunked(pairs=[(0, 0), (0, 0)])
        with pytest.raises(dla.DLAError, match="unknown chunked layout preset 'nope'"):
            ctx.chunked("nope")


def test_closed_context():
    ctx = dla.Context()
    module = ctx.parse_module("module {}")
    layout = ctx.layout("tensor<1x3x5x30xi8, #dla.chunked<crouton>>")
    ctx.close()
    with pytest.raises(dla.DLAError, match="destroyed"):
        str(module)
    with pytest.raises(dla.DLAError, match="closed"):
        ctx.parse_module("module {}")
    # A bound layout does not depend on the context.
    assert layout.storage_bytes == 2048


def test_context_registers_what_dla_opt_registers():
    # linalg, memref, scf and bufferization: the dialects of a lowered module.
    text = """
func.func @f(%a: memref<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  }
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.copy ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = bufferization.to_buffer %r : tensor<4xf32> to memref<4xf32>
  return %r : tensor<4xf32>
}
"""
    with dla.Context() as ctx:
        module = ctx.parse_module(text)
        assert module.verify()
        names = [op.name for op in module.walk()]
    for name in ("scf.for", "memref.load", "linalg.copy", "bufferization.to_buffer"):
        assert name in names


def test_tosa_and_the_memref_lowering_run_as_in_dla_opt():
    # tosa parses, and --dla-encodings-to-memref (One-Shot Bufferize: needs the
    # upstream bufferization models) runs. 1x20x5x7 fp16 feature data: 20
    # channels in 2 atoms of 16 (32 bytes), 2 * 5 * 7 * 32 = 2240 bytes.
    text = """
func.func @f(%x: tensor<1x20x5x7xf16>) -> tensor<1x20x5x7xf16, #dla.feature<fp16>> {
  %n = tosa.abs %x : (tensor<1x20x5x7xf16>) -> tensor<1x20x5x7xf16>
  %y = dla.relayout %x : tensor<1x20x5x7xf16> -> tensor<1x20x5x7xf16, #dla.feature<fp16>>
  return %y : tensor<1x20x5x7xf16, #dla.feature<fp16>>
}
"""
    with dla.Context() as ctx:
        module = ctx.parse_module(text)
        assert "tosa.abs" in [op.name for op in module.walk()]
        module.run_pipeline("builtin.module(func.func(canonicalize),dla-encodings-to-memref)")
        printed = str(module)
    assert "(%arg0: memref<1x20x5x7xf16>) -> memref<2240xi8>" in printed
    assert "memref<1x2x5x7x16xf16, strided<[1120, 560, 112, 16, 1]>>" in printed
    assert "tensor<" not in printed


def test_walk_lists_operations_with_attributes_and_result_types():
    x = iota((1, 3, 5, 30), np.int8)
    with dla.Context() as ctx:
        module = ctx.parse_module(relayout_module(x, "#dla.chunked<crouton>"))
        ops = module.walk()
        assert [op.name for op in ops] == [
            "builtin.module", "func.func", "arith.constant", "dla.relayout", "func.return"]
        func = ops[1]
        assert str(func.attributes["sym_name"]) == '"f"'
        relayout = ops[3]
        assert [str(t) for t in relayout.result_types] == [
            "tensor<1x3x5x30xi8, #dla.chunked<crouton>>"]
        assert relayout.result_types[0].encoding == ctx.chunked("crouton")


def test_resource_blobs_are_the_packed_bytes_without_the_header():
    x = iota((1, 3, 5, 30), np.int8)
    with dla.Context() as ctx:
        module = ctx.parse_module(relayout_module(x, "#dla.chunked<crouton>"))
        module.run_pipeline("builtin.module(dla-pack-weights,canonicalize)")
        blobs = module.resource_blobs()
        assert list(blobs) == ["dla_packed"]
        # The independent reference, and the textual form minus its header.
        assert blobs["dla_packed"] == crouton_reference(x)
        assert blobs["dla_packed"] == blob(str(module))[4:]
        constant = [op for op in module.walk() if op.name == "arith.constant"][0]
        key, data = constant.attributes["value"].resource_blob()
        assert key == "dla_packed" and data == blobs["dla_packed"]
        with pytest.raises(dla.DLAError, match="not a dense_resource attribute"):
            ctx.chunked("crouton").resource_blob()
        # A module that names a blob but carries no data for it.
        bare = ctx.parse_module(
            "func.func @g() -> tensor<4xi8> {\n"
            "  %c = arith.constant dense_resource<missing> : tensor<4xi8>\n"
            "  return %c : tensor<4xi8>\n}\n")
        attr = [op for op in bare.walk() if op.name == "arith.constant"][0].attributes["value"]
        with pytest.raises(dla.DLAError, match=r"dense_resource<missing> has no data"):
            attr.resource_blob()
