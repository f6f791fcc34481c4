"""JIT execution through MLIR's ExecutionEngine (dla.execution): numpy in,
numpy out, checked against the independent numpy layer reference."""

import os

import numpy as np
import pytest

import dla
from dla import execution

import fp_nvdla  # utils/dla-ref (pytest.ini)
import layer_ref

NET = """
func.func @forward(%x: tensor<1x3x6x5xf16>, %w: tensor<4x3x3x3xf16>, %b: tensor<4xf16>)
    -> (tensor<1x4x3x3xf16>, tensor<1x4x3x3xf32>) {
  %c = dla.conv direct %x, %w stride [2, 2] pad [1, 0, 1, 1]
      : tensor<1x3x6x5xf16>, tensor<4x3x3x3xf16> -> tensor<1x4x3x3xf16>
  %y = dla.sdp on_the_fly %c bias %b : tensor<4xf16> relu : tensor<1x4x3x3xf16> -> tensor<1x4x3x3xf16>
  %z = tosa.cast %y : (tensor<1x4x3x3xf16>) -> tensor<1x4x3x3xf32>
  return %y, %z : tensor<1x4x3x3xf16>, tensor<1x4x3x3xf32>
}
func.func @pool(%x: tensor<2x3x5x5xi8>) -> tensor<2x3x2x2xi8> {
  %y = dla.pool average %x kernel [3, 3] stride [2, 2] : tensor<2x3x5x5xi8> -> tensor<2x3x2x2xi8>
  return %y : tensor<2x3x2x2xi8>
}
"""


@pytest.fixture(scope="module")
def engine():
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        yield execution.compile(module)


def test_layers_and_host_op_two_results(engine):
    """nv_full's fp16 arithmetic (the default): the on-the-fly SDP adds the
    bias to CACC's fp32 in NVDLA's fp32 (fp_nvdla.py, the numpy model of
    NVIDIA's v1 C model), bit for bit."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 3, 6, 5)).astype(np.float16)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    b = rng.standard_normal(4).astype(np.float16)
    y, z = engine.invoke("forward", [x, w, b])
    assert (y.shape, y.dtype, z.shape, z.dtype) == ((1, 4, 3, 3), np.float16, (1, 4, 3, 3), np.float32)
    acc = fp_nvdla.conv_fp16(x[0].view(np.uint16), w.view(np.uint16), stride=(2, 2),
                             pad=(1, 0, 1, 1))
    v = fp_nvdla.fp32_add(acc, fp_nvdla.fp16_to_fp32(b.view(np.uint16))[:, None, None])
    expected = fp_nvdla.fp32_to_fp16(fp_nvdla.fp32_relu(v))[None].view(np.float16)
    assert y.tobytes() == expected.tobytes()
    assert np.any(y > 0) and np.any(y == 0)  # relu did something, not all zero
    np.testing.assert_array_equal(z, y.astype(np.float32))


def test_ideal_fp16_arithmetic():
    """fp16_arithmetic="ideal": exact products summed in f32, the
    convolution rounded to fp16, the SDP's bias in f32, one rounding: within
    one fp16 ulp of layer_ref.py."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 3, 6, 5)).astype(np.float16)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    b = rng.standard_normal(4).astype(np.float16)
    with execution.ExecutionContext() as ctx:
        ideal = execution.compile(ctx.parse_module(NET), pipeline=execution.reference_pipeline(
            fp16_arithmetic="ideal"))
    y, _ = ideal.invoke("forward", [x, w, b])
    conv = layer_ref.conv(x, w, stride=(2, 2), pad=(1, 0, 1, 1))
    expected = layer_ref.sdp(conv, bias=b, relu=True)
    ulp = np.spacing(np.abs(expected)).astype(np.float64)
    assert np.all(np.abs(y.astype(np.float64) - expected.astype(np.float64)) <= ulp)


def test_fp16_lut_after_the_y_multiplier():
    """The JIT resolves the runtime's float LUT (dla_nvdla_sdp_lut_float_fp16):
    an fp16 SDP whose Y stage multiplies by 1.5 (an fp32 register) and then
    looks up sigmoid's program (lut_float_tables.py) on the product's fp32,
    not on an fp16 rounding of it, equals fp_nvdla.sdp_y_fp16 bit for bit."""
    import fp16_cases_lut
    import lut_float_tables
    program = lut_float_tables.lut_program("sigmoid")
    le, lo = program.pop("lut_le_table"), program.pop("lut_lo_table")
    t = "tensor<1x4x8x8xf16>"
    net = (f"func.func @f(%x: {t}) -> {t} {{\n  %y = dla.sdp offline %x ew <mul_operand = "
           f"1069547520, lut = {fp16_cases_lut.lut_text(le, lo, program)}> : {t} -> {t}\n"
           f"  return %y : {t}\n}}\n")
    rng = np.random.default_rng(47)
    x = (rng.standard_normal((1, 4, 8, 8)) * 4).astype(np.float16)
    with execution.ExecutionContext() as ctx:
        (y,) = execution.compile(ctx.parse_module(net)).invoke("f", [x])
    lut = dict(lut_le_table=le, lut_lo_table=lo, **program)
    v = fp_nvdla.sdp_y_fp16(fp_nvdla.fp16_to_fp32(x.view(np.uint16)), mul_bypass=0,
                            mul_src=fp_nvdla.SRC_REG, mul_op=0x3FC00000, lut=lut)
    assert y.tobytes() == fp_nvdla.sdp_cvt_fp16(v).astype(np.uint16).tobytes()
    # The product's fp32 matters: the LUT on it rounded to fp16 differs.
    rounded = fp_nvdla.fp16_to_fp32(fp_nvdla.fp32_to_fp16(fp_nvdla.sdp_y_fp16(
        fp_nvdla.fp16_to_fp32(x.view(np.uint16)), mul_bypass=0, mul_src=fp_nvdla.SRC_REG,
        mul_op=0x3FC00000)))
    import lut_float_ref
    other = fp_nvdla.fp32_to_fp16(lut_float_ref.sdp_lut_float(rounded, **lut))
    assert y.tobytes() != other.astype(np.uint16).tobytes()


def test_integer_pool_non_contiguous_input(engine):
    rng = np.random.default_rng(8)
    big = rng.integers(-128, 128, size=(2, 3, 5, 10)).astype(np.int8)
    x = big[:, :, :, ::2]  # strided view: copied to a contiguous buffer
    (y,) = engine.invoke("pool", [x])
    np.testing.assert_array_equal(y, layer_ref.pool(np.ascontiguousarray(x), "average",
                                                    (3, 3), (2, 2)))


@pytest.mark.parametrize("opt_level", [0, 1, 3])
def test_every_opt_level_computes_the_same_bits(engine, opt_level):
    """opt_level sets LLVM's IR pipeline and its code generator (fast
    instruction selection at 0, dla-c/Execution.h): the same results,
    bit for bit, as the default level's, which the tests above hold to the
    numpy reference."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((1, 3, 6, 5)).astype(np.float16)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    b = rng.standard_normal(4).astype(np.float16)
    p = rng.integers(-128, 128, size=(2, 3, 5, 5)).astype(np.int8)
    with execution.ExecutionContext() as ctx:
        other = execution.compile(ctx.parse_module(NET), opt_level=opt_level)
    for name, inputs in (("forward", [x, w, b]), ("pool", [p])):
        for got, want in zip(other.invoke(name, inputs), engine.invoke(name, inputs)):
            assert got.tobytes() == want.tobytes(), (name, opt_level)
    np.testing.assert_array_equal(other.invoke("pool", [p])[0],
                                  layer_ref.pool(p, "average", (3, 3), (2, 2)))


def test_unknown_function(engine):
    with pytest.raises(dla.DLAError, match="no function @missing"):
        engine.invoke("missing", [])
    with pytest.raises(dla.DLAError, match="no function @missing"):
        engine.generate_code("missing")
    engine.generate_code("pool")  # the machine code now; invoke finds it


# Each mistake of a call, and its message: nothing reaches the function.
ZERO_POOL = np.zeros((2, 3, 5, 5), np.int8)
MISTAKES = [
    ([], r"@pool takes 1 inputs \[tensor<2x3x5x5xi8>\], 0 given"),
    ([ZERO_POOL, ZERO_POOL], r"@pool takes 1 inputs \[tensor<2x3x5x5xi8>\], 2 given"),
    ([ZERO_POOL.astype(np.float64)],
     r"@pool: input 0 has dtype float64, the function takes int8 \(tensor<2x3x5x5xi8>\)"),
    ([ZERO_POOL.astype(np.uint8)], r"@pool: input 0 has dtype uint8, the function takes int8"),
    ([np.zeros((2, 3, 5, 4), np.int8)],
     r"@pool: input 0 has shape \[2, 3, 5, 4\], the function takes tensor<2x3x5x5xi8>"),
    ([np.zeros((2, 3, 25), np.int8)], r"@pool: input 0 has shape \[2, 3, 25\]"),
    ([ZERO_POOL.tolist()], r"@pool: input 0 is a list, not a numpy array \(tensor<2x3x5x5xi8>\)"),
]


@pytest.mark.parametrize("inputs,message", MISTAKES)
def test_call_mistakes(engine, inputs, message):
    with pytest.raises(dla.DLAError, match=message):
        engine.invoke("pool", inputs)


def test_byte_order(engine):
    x = np.zeros((1, 3, 6, 5), ">f2")
    w, b = np.zeros((4, 3, 3, 3), np.float16), np.zeros(4, np.float16)
    with pytest.raises(dla.DLAError, match=r"@forward: input 0 is big-endian float16; the function "
                                           r"reads the host's byte order"):
        engine.invoke("forward", [x, w, b])
    # The same values in the host's order run.
    y, _ = engine.invoke("forward", [x.astype(np.float16), w, b])
    assert not y.any()


def test_inputs_not_a_list(engine):
    with pytest.raises(dla.DLAError, match="@pool: inputs must be a list of numpy arrays, got a "
                                           "ndarray"):
        engine.invoke("pool", ZERO_POOL)


def test_no_recorded_signature():
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        module.run_pipeline(execution.reference_pipeline())
        engine = execution.ExecutionEngine(module)
        with pytest.raises(dla.DLAError, match=r"@pool has no recorded signature"):
            engine.invoke("pool", [ZERO_POOL])


def test_signature_recorded_before_an_own_lowering():
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        execution.record_signatures(module)
        module.run_pipeline(execution.reference_pipeline())
        engine = execution.ExecutionEngine(module)
        (y,) = engine.invoke("pool", [np.full((2, 3, 5, 5), 9, np.int8)])
        np.testing.assert_array_equal(y, np.full((2, 3, 2, 2), 9, np.int8))


IDENTITIES = """
func.func @same(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
func.func @twice(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %y = tosa.add %x, %x : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %y, %y : tensor<2x3xi32>, tensor<2x3xi32>
}
func.func @constant() -> tensor<4xi16> {
  %c = "tosa.const"() {values = dense<[1, -2, 3, -4]> : tensor<4xi16>} : () -> tensor<4xi16>
  return %c : tensor<4xi16>
}
func.func @flags(%x: tensor<3xi1>) -> tensor<3xi1> {
  %y = tosa.logical_not %x : (tensor<3xi1>) -> tensor<3xi1>
  return %y : tensor<3xi1>
}
"""


def test_results_that_are_arguments_or_constants():
    """A function returning its argument, one value twice and a constant
    compile and run; the results are the caller's (each freed once, none
    aliasing the input)."""
    with execution.ExecutionContext() as ctx:
        engine = execution.compile(ctx.parse_module(IDENTITIES))
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        for _ in range(3):
            (y,) = engine.invoke("same", [x])
            np.testing.assert_array_equal(y, x)
            assert not np.shares_memory(x, y)
            a, b = engine.invoke("twice", [np.arange(6, dtype=np.int32).reshape(2, 3)])
            np.testing.assert_array_equal(a, 2 * np.arange(6).reshape(2, 3))
            np.testing.assert_array_equal(b, a)
            (c,) = engine.invoke("constant", [])
            np.testing.assert_array_equal(c, np.array([1, -2, 3, -4], np.int16))
            (f,) = engine.invoke("flags", [np.array([True, False, True])])
            np.testing.assert_array_equal(f, [False, True, False])


BIG = """
func.func @big(%x: tensor<1xf32>) -> tensor<1048576xf32> {
  %s = tosa.const_shape {values = dense<[1048576]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %y = tosa.tile %x, %s : (tensor<1xf32>, !tosa.shape<1>) -> tensor<1048576xf32>
  return %y : tensor<1048576xf32>
}
"""


def _rss_kib():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


# ASan (scripts/test-sanitizers.sh preloads its runtime) keeps freed memory
# in its quarantine (256 MB) to catch uses after free: RSS cannot show frees.
@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="ASan's quarantine holds freed memory")
def test_results_are_freed():
    """1,000 calls returning 4 MiB each: the process does not grow (the
    results leaked 4 GB before invoke freed them)."""
    with execution.ExecutionContext() as ctx:
        engine = execution.compile(ctx.parse_module(BIG))
        x = np.array([2.5], np.float32)
        for _ in range(20):
            engine.invoke("big", [x])
        before = _rss_kib()
        for i in range(1000):
            (y,) = engine.invoke("big", [np.array([i], np.float32)])
        growth = _rss_kib() - before
        assert y.shape == (1048576,) and np.all(y == 999)
        assert growth < 32 * 1024, "%d KiB growth over 1000 calls" % growth


ADD = """func.func @add(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = tosa.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
"""


def test_compile_returns_the_pipeline_remarks():
    with execution.ExecutionContext() as ctx:
        engine = execution.compile(ctx.parse_module(ADD),
                                   pipeline="builtin.module(dla-convert-tosa{summary=true},"
                                            "dla-lower-to-llvm{c-wrappers=true})")
        assert engine.remarks == [
            ("<input>:2:8", "remark", "stays on the host: it does not add rank-4 feature maps"),
            ("<input>:0:0", "remark", "dla-convert-tosa: 0 of 1 layers on nv_full fp16; 1 stay on "
                                      "the host")]
        assert engine.remarks[0].location == "<input>:2:8"
        (y,) = engine.invoke("add", [np.ones((2, 3), np.float32)])
        np.testing.assert_array_equal(y, np.full((2, 3), 2, np.float32))


def test_failing_pass_message_is_capped():
    """A pass failing on the module names its error, not the module."""
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(ADD)
        with pytest.raises(dla.DLAError) as e:
            module.run_pipeline("builtin.module(dla-encodings-to-memref)")
        assert str(e.value) == ("pass pipeline 'builtin.module(dla-encodings-to-memref)' failed: "
                                "<input>:2:8: op was not bufferized")
        assert e.value.diagnostics == [("<input>:2:8", "error", "op was not bufferized")]
        # Asked for, the operation comes with the error.
        module = ctx.parse_module(ADD)
        with pytest.raises(dla.DLAError, match="see current operation"):
            module.run_pipeline("builtin.module(dla-encodings-to-memref)", print_ops=True)


def test_module_not_lowered():
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        with pytest.raises(dla.DLAError, match="must be lowered to the LLVM dialect"):
            execution.ExecutionEngine(module)


def test_unsupported_signature_types():
    """A scalar or bf16 boundary is refused by name, not read as memory."""
    text = """func.func @scalar(%x: f32) -> f32 { return %x : f32 }
func.func @bf(%x: tensor<2xbf16>) -> tensor<2xbf16> { return %x : tensor<2xbf16> }"""
    with execution.ExecutionContext() as ctx:
        engine = execution.compile(ctx.parse_module(text))
        with pytest.raises(dla.DLAError, match=r"^@scalar: input 0 has type f32; invoke passes ranked "
                                               r"tensors and memrefs of f16, f32"):
            engine.invoke("scalar", [np.float32(1)])
        with pytest.raises(dla.DLAError, match=r"^@bf: input 0 has type tensor<2xbf16>"):
            engine.invoke("bf", [np.zeros(2, np.uint16)])
