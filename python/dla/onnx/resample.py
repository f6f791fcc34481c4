"""ONNX Resize (opsets 10 to 18) along one axis as an interpolation matrix:
output element o is sum over i of M[o, i] * input[i] (or the
extrapolation value where tf_crop_and_resize reads outside the input).
Written from the operator's specification: the source coordinate of each
coordinate_transformation_mode, the neighbours of that coordinate with the
input extended by its edge values, and the coefficients of nearest (its
four rounding modes), linear and cubic (cubic_coeff_a, exclude_outside).
Every mode is separable, so an N-D Resize is one matrix per axis."""

import numpy as np

COORDINATE_MODES = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                    "tf_half_pixel_for_nn", "tf_crop_and_resize")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def source_coordinate(coord, o, in_size, out_size, scale, roi=(0.0, 1.0)):
    """The input coordinates output elements `o` (an array) read.
    `out_size` is the resized length in_size * scale, not floored (as
    ONNX's reference has it when scales are given)."""
    if coord == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if coord == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if out_size > 1 else 0.0 * o
    if coord == "align_corners":
        return 0.0 * o if out_size == 1 else o * (in_size - 1) / (out_size - 1)
    if coord == "asymmetric":
        return o / scale
    if coord == "tf_half_pixel_for_nn":
        return (o + 0.5) / scale
    if coord == "tf_crop_and_resize":
        start, end = roi
        if out_size == 1:
            return 0.0 * o + 0.5 * (start + end) * (in_size - 1)
        return start * (in_size - 1) + o * (end - start) * (in_size - 1) / (out_size - 1)
    raise ValueError(coord)


def _coefficients(mode, ratio, nearest_mode, cubic_a):
    """The weights of the neighbours left to right, one row per coordinate;
    ratio in (0, 1] is the distance from the left one of the two around
    the coordinate."""
    if mode == "nearest":
        right = {"round_prefer_floor": ratio > 0.5, "round_prefer_ceil": ratio >= 0.5,
                 "floor": ratio == 1.0, "ceil": np.ones_like(ratio, bool)}[nearest_mode] | (ratio == 1.0)
        return np.stack([~right, right], axis=1).astype(np.float64)
    if mode == "linear":
        return np.stack([1.0 - ratio, ratio], axis=1)
    a, r, s = cubic_a, ratio, 1.0 - ratio
    return np.stack([((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                     ((a + 2) * r - (a + 3)) * r * r + 1,
                     ((a + 2) * s - (a + 3)) * s * s + 1,
                     ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a], axis=1)


def axis_taps(in_size, out_size, scale, coord, mode, nearest_mode="round_prefer_floor", cubic_a=-0.75,
              exclude_outside=False, roi=(0.0, 1.0), length=None):
    """(idx, coeffs, outside) for one axis: output o is the sum over k of
    coeffs[o, k] * input[idx[o, k]], or the extrapolation value where
    outside[o]. `length` is the resized length the coordinate formulas use
    (in_size * scale, default out_size)."""
    length = out_size if length is None else length
    x = source_coordinate(coord, np.arange(out_size, dtype=np.float64), in_size, length, scale, roi)
    outside = (x < 0) | (x > in_size - 1) if coord == "tf_crop_and_resize" else np.zeros(out_size, bool)
    x = np.where(outside, 0.0, x)
    # The left neighbour is the one at or below x, except that an integer
    # x is the right one of (x - 1, x]: ratio in (0, 1].
    left = np.floor(x)
    ratio = x - left
    whole = ratio == 0.0
    left, ratio = np.where(whole, left - 1, left), np.where(whole, 1.0, ratio)
    coeffs = _coefficients(mode, ratio, nearest_mode, cubic_a)
    n = coeffs.shape[1]
    idx = left.astype(np.int64)[:, None] - (n // 2 - 1) + np.arange(n)
    if exclude_outside:
        coeffs = np.where((idx >= 0) & (idx < in_size), coeffs, 0.0)
        coeffs = coeffs / coeffs.sum(axis=1, keepdims=True)
    # The input extended by its edge values: outside indices read the edge.
    coeffs = np.where(outside[:, None], 0.0, coeffs)
    return np.clip(idx, 0, in_size - 1), coeffs, outside


def dense(idx, coeffs, in_size):
    """The (out, in) interpolation matrix of axis_taps' rows."""
    m = np.zeros((idx.shape[0], in_size), np.float64)
    np.add.at(m, (np.repeat(np.arange(idx.shape[0]), idx.shape[1]), idx.reshape(-1)), coeffs.reshape(-1))
    return m
