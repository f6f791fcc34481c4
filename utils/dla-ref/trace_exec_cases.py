"""The integer execution tests' layers as register programs (issue 28 part 3:
"every integer execution test that fits the configuration").

run_trace.py --from-execution KIND --count N --seed S draws exactly the
cases `run_layers.py --kind KIND --count N --seed S` draws (the same
generators, int_cases_*.py, the same order), keeps the ones a register
program for the configuration can hold, and gives each the encodings of
that configuration: feature data for the layer's input and result, direct
weights, NVDLA operand data for the SDP's memory operands; an image
convolution's image in a pixel format of its channels and component width
(image_encoding), its weights as image weights. Every other case gets the
reason it does not fit, counted by reason in the summary.
"""

import re

import numpy as np

import run_layers

# The execution tests' kinds this mode takes: run_layers' int-* kinds.
KINDS = ("int-conv", "int-sdp", "int-pool", "int-lrn", "int-lrn-wrap")

TYPE = re.compile(r"tensor<([^<>]*)>")
OPERAND = re.compile(r"\b(bias|batchnorm|eltwise|prelu) (%a\d+) : (tensor<[^<>]*>)")


def draw(kind, rng, count):
    """The cases run_layers.py --kind `kind` draws from `rng`."""
    if kind in ("int-lrn", "int-lrn-wrap"):
        import int_cases_lrn
        return int_cases_lrn.int_lrn_cases(rng, count, wrap=kind == "int-lrn-wrap")
    if kind == "int-sdp":
        import int_cases_sdp
        return int_cases_sdp.cases(rng, count, run_layers.Case, run_layers.tensor_type)
    import int_cases_conv
    import int_cases_pool
    make = {"int-pool": int_cases_pool.int_pool_cases, "int-conv": int_cases_conv.int_conv_cases}
    return make[kind](rng, count, run_layers.Case, run_layers.tensor_type)


def _encode(type_text, enc):
    """`tensor<...>` with the encoding `enc` (None: as it is)."""
    return type_text if enc is None else type_text[:-1] + f", {enc}>"


def _retype(sig, encs):
    """The signature `T0, T1 -> Tout` with encs[i] on its i-th type."""
    types = TYPE.findall(sig)
    assert len(types) == len(encs), (sig, encs)
    it = iter(encs)
    return TYPE.sub(lambda m: _encode(m.group(0), next(it)), sig)


def operand_encoding(name, prec, per_element, config, two_byte=False):
    """An SDP memory operand's encoding: `prec` (int8, int16) data, per
    channel or per element (bias), int8 in two-byte components or not."""
    tail = f"{prec}{', data_size = two_byte' if two_byte else ''}, config = {config}"
    if name == "bias":
        return f"#dla.bias<{'per_element' if per_element else 'per_channel'}, {tail}>"
    if name == "batchnorm":
        return f"#dla.batchnorm<per_channel, {tail}>"
    if name == "prelu":
        return f"#dla.prelu<{tail}>"
    return f"#dla.eltwise<{tail}>"


def _split(op):
    head, sig = op.rsplit(" : ", 1)
    return head, sig


NAMES = {"i8": "int8", "i16": "int16", "f16": "fp16"}
ELEMENT_PRECISION = {"int8": "int8", "int16": "int16", "float16": "fp16"}


# The configurations whose register plan programs int16 and fp16 feature
# data (NetworkPlan.cpp programsPrecision): there the int8 run's layers
# that read or write another precision are the plan's to refuse.
PLANS_OTHER_PRECISIONS = ("nv_full",)


def mixes_precisions(case):
    """Whether `case` reads or writes feature data other than int8 (the
    int8 run's layers of another precision: SDP memory operands excepted,
    the emitter decides which it reads)."""
    if case.out_t != "i8":
        return True
    if case.op.startswith("dla.sdp"):
        operands = {m.group(2) for m in OPERAND.finditer(case.op)}
        elts = [t for i, (_, t) in enumerate(case.args) if f"%a{i}" not in operands]
    elif case.op.startswith("dla.conv image"):
        # Pixels are ui8, i8 or i16: the verifier says what the
        # configuration reads (nv_small and nv_large: 8-bit pixels only).
        elts = [t for _, t in case.args[1:]]
    else:
        elts = [t for _, t in case.args]
    return any(t != "i8" for t in elts)


def writes_fp16_from_int16(case):
    """Whether `case` is an SDP of int16 data writing fp16 (offline, or on
    the fly after an int16 convolution): it processes in int16 (sdp.c
    map_proc_precision), the int16 run's on nv_full (NetworkPlan.cpp
    int16PipelineWritesFp16), its operands as an int16 SDP reads them."""
    return case.op.startswith("dla.sdp") and case.out_t == "f16" and case.args[0][1] == "i16"


def why_not(case, precision="int8", config=None):
    """The reason `case` cannot be written as layers of `precision` (int8;
    int16 on nv_full) for the emitter, or None. What the configuration
    lacks the verifier says, what the emitter does not program yet its
    refusals say (run_trace.py). On nv_full the int8 run takes the layers
    of other precisions too (mixes_precisions: each value in its own
    precision, to_trace), and the register plan says which it programs
    (the offline SDPs between int16 and int8) and why it
    refuses the others (run_trace.plan_refusals); nv_small and nv_large
    program int8 feature data only."""
    op = case.op
    if config in PLANS_OTHER_PRECISIONS and precision == "int8" and mixes_precisions(case):
        # A layer of one other precision is its own run's (an image
        # convolution's pixels have none: its weights' and result's, the
        # int16 run's when int16; others the plan's to say).
        image = op.startswith("dla.conv image")
        own = {t for _, t in case.args[image:]} | {case.out_t}
        if len(own) == 1 and (not image or case.out_t == "i16"):
            return f"{NAMES[case.out_t]} layer: the int8 layers are run"
        if writes_fp16_from_int16(case):
            return "int16 layer writing fp16: the int8 layers are run"
        return None
    elt = "i8" if precision == "int8" else "i16"
    if precision != "int8":
        if case.out_t != elt and not writes_fp16_from_int16(case):
            return f"{NAMES[case.out_t]} result: the {precision} layers are run"
        # An image convolution's pixels are of their own format (CDMA
        # converts them to the pipeline's int16).
        image = op.startswith("dla.conv image")
        operands = {m.group(2) for m in OPERAND.finditer(op)}
        if any(t != elt for i, (_, t) in enumerate(case.args)
               if f"%a{i}" not in operands and not (image and i == 0)):
            return f"{NAMES[next(t for _, t in case.args if t != elt)]} input: the " \
                   f"{precision} layers are run"
        return None
    if case.out_t != "i8":
        name = NAMES[case.out_t]
        return f"{name} result: only int8 feature data is programmed"
    if mixes_precisions(case):
        return "int16 input: only int8 feature data is programmed"
    return None


# Pixel formats by component bytes and the image's channels (NvdlaPixel.h's
# table): an image of 2 or 3 channels is filled up to a format's 3 or 4 with
# channels the weights do not read (image weights are zero-padded there).
FORMATS = {
    (1, 1): ["T_R8"],
    (1, 3): ["T_Y8___U8V8_N444", "T_Y8___V8U8_N444", "T_A8B8G8R8", "T_X8R8G8B8"],
    (1, 4): ["T_A8B8G8R8", "T_A8R8G8B8", "T_B8G8R8A8", "T_R8G8B8A8", "T_X8B8G8R8",
             "T_X8R8G8B8", "T_B8G8R8X8", "T_R8G8B8X8", "T_A8Y8U8V8", "T_V8U8Y8A8"],
    (2, 1): ["T_R16_I", "T_R16"],
    (2, 3): ["T_Y16___U16V16_N444"],
    (2, 4): ["T_A16B16G16R16", "T_A16Y16U16V16"],
}
FORMATS[(1, 2)] = FORMATS[(1, 4)]
FORMATS[(2, 2)] = FORMATS[(2, 4)]
ATOMIC_C = {"nv_small": 8, "nv_large": 64, "nv_full": 64}
MEMORY_ATOM = {"nv_small": 8, "nv_large": 32, "nv_full": 32}


def image_encoding(case, config):
    """The pixel format, its placement and the image weights' encoding for
    image case `case` (case.args[0] the image, [1] the weights): drawn from
    a generator of its own, seeded by the case's index, so the execution
    test's draws stay as they are. Returns (pixel encoding, channels P of
    the format, the image filled up to P channels, weight encoding)."""
    x, xt = case.args[0]
    w = case.args[1][0]
    index = int(case.name.rsplit("_", 1)[1])
    rng = np.random.default_rng(1000 + index)
    nbytes = 1 if xt in ("ui8", "i8") else 2
    fmt = str(rng.choice(FORMATS[(nbytes, x.shape[1])]))
    semi = fmt.endswith("_N444")
    p = 3 if semi else (1 if x.shape[1] == 1 else 4)
    if p > x.shape[1]:  # channels the weights do not read: any values
        fill = rng.integers(np.iinfo(x.dtype).min, int(np.iinfo(x.dtype).max) + 1,
                            size=(1, p - x.shape[1]) + x.shape[2:]).astype(x.dtype)
        x = np.concatenate([x, fill], axis=1)
    parts = [fmt]
    x_offset = int(rng.choice([0, 0, 1, 2, 3]))
    if x_offset:
        parts.append(f"x_offset = {x_offset}")
    if rng.random() < 0.3:  # a line stride beyond the default
        bpp = nbytes * (1 if semi else p)
        atom = MEMORY_ATOM[config]
        least = -(-(x.shape[3] + x_offset) * bpp // atom) * atom
        parts.append(f"line_stride = {least + 32 * int(rng.integers(1, 3))}")
    parts.append(f"config = {config}")
    pixel = f"#dla.pixel<{', '.join(parts)}>"
    # Post-extension: none, NVIDIA's choice, or a stated factor the weights'
    # channel cube holds (S * P <= atomic-C / factor).
    post = str(rng.choice(["none", "auto", "2", "4"]))
    sy, sx = (int(v) for v in re.search(r"stride \[(\d+), (\d+)\]", case.op).groups())
    if post in ("2", "4") and w.shape[3] * p > ATOMIC_C[config] // int(post):
        post = "none"
    wparts = ["image", ELEMENT_PRECISION[case.args[1][0].dtype.name], f"channels = {p}"]
    if post != "none":
        wparts.append(f"post_extension = {post}")
        wparts.append(f"stride = [{sy}, {sx}]")
    wparts.append(f"config = {config}")
    return pixel, p, x, f"#dla.weight<{', '.join(wparts)}>"


def to_trace(case, config, trace_case, precision="int8"):
    """`case` as a run_trace Case (`trace_case(name, args, body, out_shape)`
    with args (name, data, encoding, element type)) in the encodings of
    `config` and `precision`; its arguments' data the execution test's."""
    feat = f"#dla.feature<{precision}, config = {config}>"
    weight = f"#dla.weight<direct, {precision}, config = {config}>"
    op = case.op
    # Another precision in the int8 run (why_not): the input's and the
    # result's own precisions (between int16 and int8, operands as the SDP
    # processing in int8 reads them).
    out_feat = feat
    if writes_fp16_from_int16(case):  # the int16 run's (why_not)
        out_feat = f"#dla.feature<fp16, config = {config}>"
    mixed = precision == "int8" and mixes_precisions(case)
    if mixed:
        if not op.startswith("dla.conv image"):
            feat = f"#dla.feature<{NAMES[case.args[0][1]]}, config = {config}>"
        out_feat = f"#dla.feature<{NAMES[case.out_t]}, config = {config}>"
        if op.startswith("dla.conv") or case.prelude:  # (an on-the-fly SDP's convolution)
            weight = f"#dla.weight<direct, {NAMES[case.args[1][1]]}, config = {config}>"
    encs = [feat] + [None] * (len(case.args) - 1)
    datas = [a for a, _ in case.args]
    if op.startswith("dla.conv image"):
        pixel, p, datas[0], weight = image_encoding(case, config)
        encs[0] = pixel
        # The image's type with the format's channels.
        t0 = TYPE.search(op.rsplit(" : ", 1)[1]).group(0)
        dims = t0[len("tensor<"):-1].split("x")
        dims[1] = str(p)
        op = op.replace(t0, "tensor<" + "x".join(dims) + ">", 1)
    prelude = case.prelude
    if prelude:  # an on-the-fly SDP's convolution %p = dla.conv direct %a0, %a1
        head, sig = _split(prelude)
        prelude = f"{head} : {_retype(sig, [feat, weight, None])}\n  "
        encs[1] = weight
    elif op.startswith("dla.conv"):
        encs[1] = weight
        if len(case.args) == 3:  # the bias, which the convolution's SDP reads
            bias = case.args[2][0]
            encs[2] = operand_encoding("bias", "int8" if bias.dtype == np.int8 else "int16",
                                       False, config,
                                       precision == "int16" and bias.dtype == np.int8)
    for m in OPERAND.finditer(op):
        i = int(m.group(2)[2:])
        data = case.args[i][0]
        # An int16 SDP reads int8 operands in two-byte components.
        encs[i] = operand_encoding(m.group(1), ELEMENT_PRECISION[data.dtype.name],
                                   data.ndim == 4, config,
                                   precision == "int16" and data.dtype == np.int8)
    op = OPERAND.sub(lambda m: f"{m.group(1)} {m.group(2)} : "
                     f"{_encode(m.group(3), encs[int(m.group(2)[2:])])}", op)
    head, sig = _split(op)
    if op.startswith("dla.conv"):
        sig = _retype(sig, encs[:len(case.args)] + [out_feat])
    else:
        sig = _retype(sig, [None if prelude else feat, out_feat])
    body = f"{prelude}%y = {head} : {sig}"
    args = [(f"a{i}", d, e, t) for i, ((_, t), d, e) in enumerate(zip(case.args, datas, encs))]
    trace = trace_case(case.name, args, body, case.out_shape)
    if mixed or out_feat != feat:
        trace.out_elt, trace.out_enc = case.out_t, out_feat
    return trace
