"""Random dla.emu_softmax / dla.emu_power layers for `run_layers.py --kind emu`.

Softmax over 1..300 channels, power over small cubes; scale factors drawn
log-uniformly, plus ones whose products land exactly midway between two
fp16 values (where NVIDIA's half.h rounds away from zero and IEEE to even),
1/128 and 1/127 output steps, and powers whose base turns negative (NaN:
0). Expected values come from emulator_ref, the numpy model of NVIDIA's
Emulator.cpp.
"""

import numpy as np

import emulator_ref


def _scale(rng):
    r = rng.random()
    if r < 0.25:
        # x * s midway between fp16 values for odd x: s = (1 + 2^-11) 2^-k
        return float(np.float32((1 + 2.0 ** -11) * 2.0 ** -int(rng.integers(0, 8))))
    return float(np.float32(10.0 ** rng.uniform(-3, 0)))


def _out_scale(rng):
    r = rng.random()
    if r < 0.3:
        return float(np.float32(1 / 128))
    if r < 0.5:
        return float(np.float32(1 / 127))
    return float(np.float32(10.0 ** rng.uniform(-3, 0)))


def _softmax(rng, i, make_case, tensor_type):
    c = int(rng.choice([1, 2, 3, 7, 8, 9, 31, 32, 33, 100, 300])) if rng.random() < 0.5 \
        else int(rng.integers(1, 301))
    x = rng.integers(-128, 128, size=(1, c, 1, 1)).astype(np.int8)
    s_in, s_out = _scale(rng), _out_scale(rng)
    e = emulator_ref.softmax(x, s_in, s_out).reshape(x.shape)
    t = tensor_type(x.shape, "i8")
    op = f"dla.emu_softmax %a0 {{input_scale = {s_in!r} : f32, output_scale = {s_out!r} : f32}} : {t}"
    return make_case(f"int_emu_softmax_{i}", [(x, "i8")], op, x.shape, "i8", e)


def _power(rng, i, make_case, tensor_type):
    shape = (1, int(rng.integers(1, 20)), int(rng.integers(1, 6)), int(rng.integers(1, 6)))
    x = rng.integers(-128, 128, size=shape).astype(np.int8)
    p = float(np.float32(rng.choice([2.0, 3.0, 0.5, -1.0, 1.5, 0.75])))
    scale = float(np.float32(rng.uniform(-2, 2)))
    shift = float(np.float32(rng.uniform(-1, 3)))
    s_in, s_out = _scale(rng), _out_scale(rng)
    e = emulator_ref.power(x, p, scale, shift, s_in, s_out)
    t = tensor_type(shape, "i8")
    op = (f"dla.emu_power %a0 {{power = {p!r} : f32, scale = {scale!r} : f32, "
          f"shift = {shift!r} : f32, input_scale = {s_in!r} : f32, "
          f"output_scale = {s_out!r} : f32}} : {t}")
    return make_case(f"int_emu_power_{i}", [(x, "i8")], op, shape, "i8", e)


def emu_cases(rng, count, make_case, tensor_type):
    """`count` random layers, each made by make_case(name, args, op, shape,
    out_t, expected) (run_layers.Case); every other one reads and writes
    NVDLA feature data (the module's target, nv_full: 32-byte atoms), which
    needs run_layers' `--path llvm`."""
    cases = []
    for i in range(count):
        enc = "#dla.feature<int8>" if i % 2 else None
        typed = (lambda shape, t: tensor_type(shape, t, enc))
        case = (_softmax if i % 3 else _power)(rng, i, make_case, typed)
        if enc:
            case.encodings = {0: enc, "result": enc}
        cases.append(case)
    return cases
