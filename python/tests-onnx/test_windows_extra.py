"""The windows TOSA has no single op for (dla/onnx/windows_extra.py): 3-D
convolutions, 3-D transposed convolutions, 3-D pooling and dilated 2-D
(and 1-D) pooling, on small models with random data and uneven pads,
strides, dilations, groups and ceil_mode, executed by dla-run-onnx
against numpy loops written from the ONNX operator specs."""

import itertools
import re

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import run_cases

RNG = np.random.default_rng(31)
F = TensorProto.FLOAT


def randn(*shape):
    return (RNG.standard_normal(shape) * 2).astype(np.float32)


def make(node, x, inits=(), opset=13):
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", F, list(x.shape))],
                          [helper.make_tensor_value_info("y", F, None)],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


# -- numpy from the specs ---------------------------------------------------

def np_conv(x, w, bias, strides, pads, dilations, group=1):
    """y[n, o, p] = b[o] + sum over c, k of x[n, c, p * s + k * d - pad] w[o, c, k]."""
    n_sp = x.ndim - 2
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(pads[i], pads[i + n_sp]) for i in range(n_sp)])
    k = w.shape[2:]
    out = [(xp.shape[2 + i] - (k[i] - 1) * dilations[i] - 1) // strides[i] + 1 for i in range(n_sp)]
    y = np.zeros((x.shape[0], w.shape[0]) + tuple(out))
    cpg, kpg = w.shape[1], w.shape[0] // group
    for pos in itertools.product(*(range(o) for o in out)):
        window = tuple(slice(pos[i] * strides[i], pos[i] * strides[i] + (k[i] - 1) * dilations[i] + 1,
                             dilations[i]) for i in range(n_sp))
        for g in range(group):
            taps = xp[(slice(None), slice(g * cpg, (g + 1) * cpg)) + window]
            wg = w[g * kpg:(g + 1) * kpg]
            y[(slice(None), slice(g * kpg, (g + 1) * kpg)) + pos] = np.tensordot(
                taps, wg, axes=(list(range(1, taps.ndim)), list(range(1, wg.ndim))))
    return y + bias.reshape((1, -1) + (1,) * n_sp)


def np_conv_transpose(x, w, bias, strides, pads, dilations, output_padding):
    """Every input element scatters its kernel: y[n, o, i * s + k * d] +=
    x[n, c, i] w[c, o, k]; then pads are cut from both ends."""
    n_sp = x.ndim - 2
    k = w.shape[2:]
    full = [strides[i] * (x.shape[2 + i] - 1) + output_padding[i] + (k[i] - 1) * dilations[i] + 1
            for i in range(n_sp)]
    y = np.zeros((x.shape[0], w.shape[1]) + tuple(full))
    for pos in itertools.product(*(range(d) for d in x.shape[2:])):
        for tap in itertools.product(*(range(d) for d in k)):
            at = tuple(pos[i] * strides[i] + tap[i] * dilations[i] for i in range(n_sp))
            y[(slice(None), slice(None)) + at] += np.einsum("nc,co->no", x[(slice(None), slice(None)) + pos],
                                                            w[(slice(None), slice(None)) + tap])
    crop = tuple(slice(pads[i], full[i] - pads[i + n_sp]) for i in range(n_sp))
    return y[(slice(None), slice(None)) + crop] + bias.reshape((1, -1) + (1,) * n_sp)


def np_pool(x, kind, kernel, strides, pads, dilations, ceil_mode=False, include_pad=False):
    """ONNX MaxPool / AveragePool: windows over the padded input; ceil_mode
    adds a last window that starts inside the input or its begin pad; the
    average counts the real elements (count_include_pad: also the pads,
    never the rows beyond them)."""
    n_sp = x.ndim - 2
    spatial = x.shape[2:]
    out = []
    for i in range(n_sp):
        span = spatial[i] + pads[i] + pads[i + n_sp] - (kernel[i] - 1) * dilations[i] - 1
        count = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
        if ceil_mode and (count - 1) * strides[i] >= spatial[i] + pads[i]:
            count -= 1
        out.append(count)
    y = np.zeros(x.shape[:2] + tuple(out))
    for pos in itertools.product(*(range(o) for o in out)):
        idx = [np.arange(kernel[i]) * dilations[i] + pos[i] * strides[i] - pads[i] for i in range(n_sp)]
        real = [ix[(ix >= 0) & (ix < spatial[i])] for i, ix in enumerate(idx)]
        taps = x[np.ix_(range(x.shape[0]), range(x.shape[1]), *real)].astype(np.float64)
        taps = taps.reshape(x.shape[0], x.shape[1], -1)
        if kind == "max":
            y[(slice(None), slice(None)) + pos] = taps.max(axis=2)
        else:
            if include_pad:
                count = np.prod([((ix >= -pads[i]) & (ix < spatial[i] + pads[i + n_sp])).sum()
                                 for i, ix in enumerate(idx)])
            else:
                count = taps.shape[2]
            y[(slice(None), slice(None)) + pos] = taps.sum(axis=2) / count
    return y


# -- cases ----------------------------------------------------------------------

def _cases():
    c = {}
    x5 = randn(2, 4, 5, 6, 7)
    w = randn(6, 2, 2, 3, 2)
    b = randn(6)
    c["conv3d_groups_strides_pads_dilations"] = (
        make(helper.make_node("Conv", ["x", "w", "b"], ["y"], group=2, strides=[2, 1, 3], pads=[1, 0, 2, 0, 2, 1],
                              dilations=[1, 2, 1]), x5, [("w", w), ("b", b)]),
        x5, np_conv(x5, w, b, [2, 1, 3], [1, 0, 2, 0, 2, 1], [1, 2, 1], group=2))
    w1 = randn(3, 4, 3, 3, 3)
    c["conv3d_same_upper"] = (
        make(helper.make_node("Conv", ["x", "w"], ["y"], auto_pad="SAME_UPPER", strides=[2, 2, 2]), x5, [("w", w1)]),
        x5, np_conv(x5, w1, np.zeros(3, np.float32), [2, 2, 2], [1, 0, 1, 1, 1, 1], [1, 1, 1]))
    xt = randn(1, 3, 3, 4, 2)
    wt, bt = randn(3, 2, 3, 2, 3), randn(2)
    c["conv_transpose3d"] = (
        make(helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 3, 1], pads=[1, 0, 2, 0, 1, 1],
                              output_padding=[1, 2, 0], dilations=[1, 1, 2]), xt, [("w", wt), ("b", bt)]),
        xt, np_conv_transpose(xt, wt, bt, [2, 3, 1], [1, 0, 2, 0, 1, 1], [1, 1, 2], [1, 2, 0]))
    c["conv_transpose3d_output_shape"] = (
        make(helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2, 2], output_shape=[6, 8, 4]), xt,
             [("w", wt)]),
        # total pads 2 * (in - 1) + k - out = 1, 0, 1: SAME_LOWER-style split, the odd one at the start.
        xt, np_conv_transpose(xt, wt, np.zeros(2, np.float32), [2, 2, 2], [1, 0, 1, 0, 0, 0], [1, 1, 1],
                              [0, 0, 0]))
    xp = randn(2, 3, 7, 8, 6)
    for kind, op in (("max", "MaxPool"), ("avg", "AveragePool")):
        c["%spool3d_pads_ceil" % kind] = (
            make(helper.make_node(op, ["x"], ["y"], kernel_shape=[3, 2, 3], strides=[2, 3, 2], pads=[1, 0, 1, 1, 1, 0],
                                  ceil_mode=1), xp),
            xp, np_pool(xp, kind, [3, 2, 3], [2, 3, 2], [1, 0, 1, 1, 1, 0], [1, 1, 1], ceil_mode=True))
    c["avgpool3d_count_include_pad"] = (
        make(helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 3, 3], strides=[1, 2, 2],
                              pads=[1, 1, 0, 1, 2, 1], count_include_pad=1), xp),
        xp, np_pool(xp, "avg", [2, 3, 3], [1, 2, 2], [1, 1, 0, 1, 2, 1], [1, 1, 1], include_pad=True))
    x4 = randn(2, 3, 13, 11)
    # Dilated 2-D pooling: dilation dividing the stride, not dividing it,
    # stride 1 (four phase grids per axis), ceil_mode.
    for name, k, s, d, p, ceil in (("d2s4", [2, 3], [4, 4], [2, 2], [1, 0, 1, 2], 0),
                                   ("d3s2", [3, 2], [2, 1], [3, 2], [2, 1, 0, 2], 0),
                                   ("d4s1_ceil", [2, 2], [1, 3], [4, 3], [0, 1, 1, 1], 1)):
        c["maxpool2d_dilated_" + name] = (
            make(helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=k, strides=s, dilations=d, pads=p,
                                  ceil_mode=ceil), x4, opset=12),
            x4, np_pool(x4, "max", k, s, p, d, ceil_mode=bool(ceil)))
    # AveragePool's dilations came with opset 19, past the importer's 18: at
    # an earlier opset onnx.checker rejects them, and so does the importer.
    x3 = randn(2, 3, 17)
    c["maxpool1d_dilated"] = (
        make(helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3], strides=[2], dilations=[3], pads=[2, 1]),
             x3, opset=12),
        x3, np_pool(x3, "max", [3], [2], [2, 1], [3]))
    return c


CASES = _cases()


@pytest.fixture(scope="module")
def results(tmp_path_factory, tool_bin):
    """Every case run by one dla-run-onnx process; {case: its output lines}."""
    cases = {name: (m, x, [expected]) for name, (m, x, expected) in CASES.items()}
    return run_cases(tmp_path_factory.mktemp("windows"), tool_bin, cases, ["--opt-level", "0"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_numpy(results, name):
    got = results.get(name, [])
    checks = [l for l in got if re.search(r" output 0: max abs error", l)]
    assert len(checks) == 1 and checks[0].endswith(": ok"), "\n".join(got)


def test_references_see_the_dilation():
    """The dilated references differ from the undilated window (the cases
    can fail)."""
    x = randn(1, 1, 9, 9)
    assert not np.allclose(np_pool(x, "max", [2, 2], [1, 1], [0] * 4, [2, 2]),
                           np_pool(x, "max", [2, 2], [1, 1], [0] * 4, [1, 1])[:, :, :7, :7])


@pytest.mark.parametrize("node, shape, message", [
    (helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[40, 40], name="n"), (1, 2, 200, 200),
     r"dilations \[40, 40\] with strides \[1, 1\] need 1600 phase grids \(at most 1024 are written\)"),
    (helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2, 2], dilations=[1, 2, 1], name="n"), (1, 2, 5, 5, 5),
     r"dilated 3-D pooling is not supported"),
    (helper.make_node("ConvTranspose", ["x", "w"], ["y"], pads=[3, 3, 3, 3, 3, 3], name="n"), (1, 2, 2, 2, 2),
     r"the pads leave no output \[-3, -3, -3\]"),
])
def test_diagnostics_name_the_node(node, shape, message):
    from dla.onnx import ImportFailure, import_model
    inits = [("w", randn(2, 1, 2, 2, 2))] if node.op_type == "ConvTranspose" else []
    with pytest.raises(ImportFailure, match=r"^node 'n' \(%s\): %s$" % (node.op_type, message)):
        import_model(make(node, randn(*shape), inits, opset=12))
