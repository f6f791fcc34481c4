"""dla-calibrate: int8 activation scales of a float ONNX model from samples.

    dla-calibrate MODEL.onnx --data DIR -o TABLE.json [--method max|percentile|entropy]

Every activation (the graph inputs and the node outputs of float type that
depend on an input) becomes a result of the model, which is compiled once by
dla-run-onnx's machinery (dla.runner) on the host in the model's float types
(--no-offload: the float model's own values; its convolutions as vector
loops, see docs/Calibration.md) and run on every sample, --jobs samples at
once (threads; default the CPUs, at most 4), with the progress (seconds per
sample, time left) on stderr. Per tensor, in sample order (the tables do
not depend on --jobs), |x| is histogrammed over all samples (4096 bins;
the range doubles, merging bin pairs, when a sample exceeds it) and the
scale (real = scale * q, symmetric int8) is
  max:        max|x| / 127
  percentile: the --percentile of |x| (upper edge of its bin) / 127
  entropy:    TensorRT's entropy calibration (KL divergence between the
              histogram clipped at a threshold and its 128-level
              quantization; the least KL's threshold) / 127; tensors of
              fewer than 2048 values per sample keep max|x| / 127.
--asymmetric: the tensor's extremes clipped at that threshold T, [max(min,
-T), min(max, T)], on int8's 256 levels with a zero point (real = s (q -
zp)); --per-channel: also, for N x C x H x W tensors (channels on axis
1) and N x T x C tokens (a transformer's, channels on the last axis),
one scale per channel covering that channel's extremes clipped at T,
with the tensor's zero point. A Softmax's input, asymmetric, keeps
levels only down to the least maximum of its rows (over the calibration
samples) less ln(2 n / s), n a row's length and s the step of the
softmax's output on its range: the values of a row further below its
maximum have probabilities that add up to under half a step (exp(v - max)
/ sum each, sum >= 1), so clamping them there moves no probability by
half a step, and the levels go to the values the softmax tells apart
(PP-OCRv4's recognizer: its logits' step 0.22 -> 0.15;
docs/WholeNetworks.md). The
table is NVIDIA's JSON ({"t": {"scale": s, "min": 0,
"max": 0, "offset": 0}}; --asymmetric writes the range as "min" / "max"
and the zero point as "offset", --per-channel adds "channel_scales" and, for tokens,
"channel_axis": -1), or
a TensorRT calibration cache when -o ends in .cache (symmetric only).

Samples (--data DIR, sorted by name; models with one input):
  *.npy   the input's shape, or without its batch dimension, or N samples
          stacked on a batch dimension of 1;
  images  (.png .jpg .jpeg .bmp) for an input N x 3 x H x W: converted to
          RGB, resized to W x H (bilinear; no aspect-preserving padding),
          x / 255, then (x - mean) / std per channel (--mean, --std:
          default 0.5 0.5 0.5 as PaddleOCR's OCR models use), as CHW.

Example (PaddleOCR's direction classifier; utils/textlines.py renders
text-line images):
  dla-calibrate cls.onnx --input-shape x=1x3x48x192 --data lines/ -o cls.json
  dla-import-onnx cls.onnx --input-shape x=1x3x48x192 --calibration-table cls.json
"""

import collections
import concurrent.futures
import os
import sys
import tempfile
import time

import numpy as np
import onnx

from . import runner
from .onnx.calibration_table import Table
from .onnx.qdq import static_tensors

NBINS = 4096
# Entropy keeps max|x| for tensors of fewer values per sample (SE gates,
# pooled vectors, logits): the KL of so sparse a histogram picks far too low
# thresholds (PaddleOCR's classifier on 32 rendered lines: 50% correct,
# 94% with this rule, 91% in float).
SPARSE = 2048
# Rank -> (the channel axis, the axes reduced over) of per-channel
# extremes: feature maps N x C x H x W, tokens N x T x C (the recognizer's
# neck: channels of its residual stream span 25x, median 13.5x).
CHANNEL_AXES = {4: (1, (0, 2, 3)), 3: (-1, (0, 1))}
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".bmp")
MAX_JOBS = 4
TRT_HEADERS = {"max": "TRT-7000-MinMaxCalibration", "percentile": "TRT-7000-PercentileCalibration",
               "entropy": "TRT-7000-EntropyCalibration2"}


class Failure(Exception):
    """One line for the user, no traceback."""


def histogram_bins(a, top):
    """The bin of each value of `a` (float, >= 0) among NBINS equal bins of
    [0, top], as np.histogram(a, NBINS, (0, top)) assigns them (its edges,
    in its dtype, decide; the last bin is closed), and the mask of those in
    range (NaN is not). np.histogram, for one binning shared by two
    histograms and without its per-call edges and checks: the calibration's
    216 tensors x 32 samples spent 1.2 s in it."""
    edges = np.linspace(0.0, top, NBINS + 1, dtype=np.result_type(0.0, top, a))
    keep = (a >= 0.0) & (a <= top)
    if not keep.all():
        a = a[keep]
    i = (a * (NBINS / top)).astype(np.intp)  # a guess within one bin...
    np.clip(i, 0, NBINS - 1, out=i)
    i -= a < edges[i]  # ...which the edges settle
    i += (a >= edges[i + 1]) & (i != NBINS - 1)
    return i, keep


# Every float16 bit pattern's value (float32, exact) and which are NaN.
_F16_VALUES = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32)
_F16_NAN = np.isnan(_F16_VALUES)


class Histogram:
    """|x| over all samples: max and a histogram on [0, range); beside it
    the signed extremes and the histogram of the negative values' |x| on
    the same bins (asymmetric ranges: range_of)."""

    def __init__(self):
        self.amax, self.range, self.hist, self.count = 0.0, 0.0, np.zeros(NBINS, np.int64), 0
        self.neg = np.zeros(NBINS, np.int64)
        self.min, self.max = 0.0, 0.0
        # Per channel of rank-4 values (N x C x H x W: CHANNEL_AXES) and
        # rank-3 tokens (N x T x C), and that axis.
        self.channel_min = self.channel_max = self.channel_axis = None
        self.samples = 0
        # A Softmax's input: the least of its rows' maxima (add_rows), and
        # the softmax's output (make_table's lower bound).
        self.row_max_min = self.softmax_output = self.row_length = None

    def add(self, x):
        x = np.asarray(x)
        if x.dtype == np.float16 and x.size:
            # 65536 values at most: count each bit pattern in one pass and
            # bin the distinct values (a value's bin is a function of it).
            counts = np.bincount(x.view(np.uint16).ravel(), minlength=1 << 16)
            if not counts[_F16_NAN].any():  # NaN: the general path drops it
                self._add_counts(x, counts)
                return
        x = np.asarray(x, dtype=np.float32)
        self._channel_extremes(x)
        x = x.ravel()
        a = np.abs(x)
        self.samples += 1
        if not a.size:
            return
        self._extend(float(a.max()), float(x.min()), float(x.max()), a.size)
        if self.range == 0.0:
            self.hist[0] += a.size
        else:
            # One binning: the negatives' bins are some of all values' bins.
            bins, keep = histogram_bins(a, self.range)
            self.hist += np.bincount(bins, minlength=NBINS)
            below = x < 0
            if len(bins) != len(x):  # NaN dropped
                below = below[keep]
            self.neg += np.bincount(bins[below], minlength=NBINS)

    def add_rows(self, x, axes):
        """The least maximum of `x`'s rows (the values over `axes`, a
        Softmax's), joined with the earlier samples', and a row's length."""
        x = np.asarray(x, dtype=np.float32)
        if x.size:
            m = float(np.nanmin(np.max(x, axis=axes)))
            self.row_max_min = m if self.row_max_min is None else min(self.row_max_min, m)
            self.row_length = int(np.prod([x.shape[a] for a in axes]))

    def _add_counts(self, x, counts):
        """add() of a float16 array `x` without NaN from the count of each
        of its bit patterns: the same extremes and bins as its float32
        values get, on the distinct values only."""
        self._channel_extremes(x.astype(np.float32) if x.ndim in CHANNEL_AXES else x)
        self.samples += 1
        present = np.flatnonzero(counts)
        v = _F16_VALUES[present]  # float32, exact
        n = counts[present]
        a = np.abs(v)
        self._extend(float(a.max()), float(v.min()), float(v.max()), x.size)
        if self.range == 0.0:
            self.hist[0] += x.size
            return
        bins, keep = histogram_bins(a, self.range)
        n = n[keep] if len(bins) != len(a) else n
        below = (v < 0)[keep] if len(bins) != len(a) else v < 0
        # float64 sums of counts below 2^53: exact.
        self.hist += np.bincount(bins, weights=n, minlength=NBINS).astype(np.int64)
        self.neg += np.bincount(bins[below], weights=n[below], minlength=NBINS).astype(np.int64)

    def _channel_extremes(self, x):
        """Per channel of a float32 `x` of rank 4 (N x C x H x W) or 3
        (N x T x C tokens; CHANNEL_AXES): its extremes joined with the
        earlier samples' (and 0)."""
        if x.ndim in CHANNEL_AXES and x.size:
            axis, over = CHANNEL_AXES[x.ndim]
            lo, hi = x.min(axis=over), x.max(axis=over)
            if self.channel_min is None or self.channel_min.shape != lo.shape \
                    or self.channel_axis != axis:
                self.channel_min, self.channel_max = np.minimum(lo, 0), np.maximum(hi, 0)
                self.channel_axis = axis
            else:
                self.channel_min = np.minimum(self.channel_min, lo)
                self.channel_max = np.maximum(self.channel_max, hi)

    def _extend(self, m, lo, hi, size):
        """A sample of `size` values, max |x| `m`, extremes `lo` and `hi`:
        the totals, and the range doubled (pairs of bins merged) until it
        holds `m`."""
        self.amax = max(self.amax, m)
        self.min, self.max = min(self.min, lo), max(self.max, hi)
        self.count += size
        if self.range == 0.0:
            self.range = m if m > 0 else 0.0
        while m > self.range > 0:
            # Twice the range: pairs of bins merge exactly.
            half = np.zeros(NBINS // 2, np.int64)
            self.hist = np.concatenate([self.hist.reshape(-1, 2).sum(1), half])
            self.neg = np.concatenate([self.neg.reshape(-1, 2).sum(1), half])
            self.range *= 2

    def edge(self, i):
        return self.range * i / NBINS

    def percentile(self, p):
        if self.amax == 0.0:
            return 0.0
        cum = np.cumsum(self.hist)
        i = int(np.searchsorted(cum, cum[-1] * p / 100.0))
        return min(self.edge(i + 1), self.amax)

    def entropy(self, start=128, levels=128, max_steps=1024):
        """TensorRT's entropy calibration (as NVIDIA's pytorch-quantization
        writes it out): for each threshold bin i >= 128, P = hist[:i] with the
        outliers added to its last bin, Q = hist[:i] merged into 128 levels and
        spread back over its non-empty bins; the largest i of least KL(P||Q)."""
        if self.amax == 0.0:
            return 0.0
        if self.count < SPARSE * self.samples:
            return self.amax
        bins = self.hist.astype(np.float64)
        last = int(np.nonzero(bins)[0][-1]) + 1
        if last <= start:
            return self.amax
        bins = bins[:last].copy()
        bins[0] = bins[1]  # as pytorch-quantization: the zero spike (Relu) would dominate
        total = bins.sum()
        stride = max(1, (last - start) // max_steps)
        cands = np.arange(start, last + 1, stride)
        kl = self._kl(bins, total, cands, levels)
        # The largest threshold of least divergence (a loop over i would keep
        # the last i with kl <= best); a threshold whose Q is empty is skipped.
        usable = ~np.isnan(kl)
        if not usable.any():
            best_i = last
        else:
            least = kl[usable].min()
            best_i = int(cands[usable & (kl == least)][-1])
        return min(self.edge(best_i), self.amax)

    @staticmethod
    def _kl(bins, total, thresholds, levels):
        """KL(P||Q) of entropy() for each threshold bin i, NaN where Q is
        empty: P = bins[:i] / total with the outliers added to its last bin;
        Q = bins[:i] merged into `levels` levels, each level's sum spread
        evenly over its non-empty bins, normalized. Per level rather than per
        bin: with q_j = s_l / (c_l S_i) on the c_l non-empty bins of level l
        (sum s_l, S_i = sum of bins[:i]),
            KL = sum_j p_j log p_j - sum_l (mass of P in l) log(s_l / (c_l S_i)),
        the first sum from prefix sums of b log b; O(levels) per threshold
        instead of O(i). bins holds integer counts: every sum of them is
        exact."""
        i = np.asarray(thresholds)
        cum = np.concatenate([[0.0], np.cumsum(bins)])
        nonempty = np.concatenate([[0], np.cumsum(bins != 0)])
        blogb = np.concatenate([[0.0], np.cumsum(bins * np.log(np.where(bins > 0, bins, 1.0)))])
        # Level l of threshold i holds bins [ceil(l i / levels), ceil((l + 1) i / levels)).
        edges = -((-np.arange(levels + 1)[None, :] * i[:, None]) // levels)
        sums = cum[edges[:, 1:]] - cum[edges[:, :-1]]
        counts = nonempty[edges[:, 1:]] - nonempty[edges[:, :-1]]
        tail = total - cum[i]
        last = bins[i - 1] + tail  # P's last bin, outliers included
        plogp = (blogb[i - 1] - np.log(total) * cum[i - 1]) / total + np.where(
            last > 0, last / total * np.log(np.where(last > 0, last, 1.0) / total), 0.0)
        mass = sums.copy()
        mass[np.arange(len(i)), ((i - 1) * levels) // i] += tail
        s_i = cum[i]
        logq = np.log(np.where(counts > 0, sums, 1.0) /
                      (np.maximum(counts, 1) * np.where(s_i > 0, s_i, 1.0)[:, None]))
        plogq = np.where(counts > 0, mass * logq, 0.0).sum(1) / total
        # Outliers piled on an empty last bin meet q = 0 there.
        kl = np.where((bins[i - 1] == 0) & (tail > 0), np.inf, plogp - plogq)
        return np.where(s_i == 0, np.nan, kl)

    def threshold(self, method, percentile=99.99):
        return {"max": lambda: self.amax, "percentile": lambda: self.percentile(percentile),
                "entropy": self.entropy}[method]()

    def scale(self, method, percentile=99.99):
        return self.threshold(method, percentile) / 127.0

    def range_of(self, method, percentile=99.99):
        """(lo, hi), lo <= 0 <= hi: the signed extremes clipped at the
        method's threshold T of |x| (a ReLU's output: [0, T])."""
        t = self.threshold(method, percentile)
        return max(min(self.min, 0.0), -t), min(max(self.max, 0.0), t)

    def softmax_floor(self, output_scale):
        """The lower bound a Softmax's input needs: a row's n values more
        than ln(2 n / s) below its maximum have probabilities that add up
        to less than half a step s of the softmax's quantized output
        (exp(v - max) / sum each, sum >= 1), so clamping them at the bound
        moves no output by half a step, the row's sum included; the least
        row maximum seen less that. None: no rows, or no output step."""
        if self.row_max_min is None or not output_scale > 0:
            return None
        return self.row_max_min + float(np.log(output_scale / (2.0 * self.row_length)))

    def asymmetric(self, method, percentile=99.99):
        """(scale, zero point) of int8 with 256 levels on range_of:
        real = scale * (q - zero point), the zero point in [-128, 127] so
        that real 0 is exact (onnxruntime's asymmetric rule)."""
        return asymmetric_params(*self.range_of(method, percentile))

    def channel_scales(self, method, percentile=99.99, zero_point=0, floor=None):
        """Per-channel scales (None: not a rank-4 or rank-3 tensor; axis:
        channel_axis) with the shared
        `zero_point`: channel c's extremes clipped at the method's threshold
        T of the whole tensor, the least scale s_c whose levels
        s_c * (-128 - zp .. 127 - zp) cover them. Extremes, not percentiles,
        per channel: PP-OCRv4's recognizer in float fake-quantization over
        256 lines, realized as channel_scales.apply realizes them: 95.30% of
        the steps agree, 94.03% with each channel's 99.99th percentile of
        |x| (92.67% per tensor). `floor`: a lower bound of the tensor's
        range (a Softmax's input, make_table) that clips the channels'
        extremes too."""
        if self.channel_min is None:
            return None
        t = self.threshold(method, percentile)
        lo = np.maximum(self.channel_min.astype(np.float64), -t)
        if floor is not None:
            lo = np.minimum(np.maximum(lo, floor), 0.0)
        hi = np.minimum(self.channel_max.astype(np.float64), t)
        # No level on one side of the zero point (-128 or 127): that side
        # is clipped.
        up = hi / (127.0 - zero_point) if zero_point < 127 else np.zeros_like(hi)
        down = lo / (-128.0 - zero_point) if zero_point > -128 else np.zeros_like(lo)
        return np.maximum(np.maximum(up, down), 0.0)


def asymmetric_params(lo, hi):
    """(scale, zero point) of the range [lo, hi] (lo <= 0 <= hi) on int8's
    256 levels, as onnxruntime's compute_scale_zp: scale = (hi - lo) / 255,
    zero point = rint(-128 - lo / scale) within [-128, 127]; an empty
    range: (0, 0)."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi - lo <= 0.0:
        return 0.0, 0
    scale = (hi - lo) / 255.0
    return scale, int(np.clip(np.rint(-128.0 - lo / scale), -128, 127))


def activations(model):
    """Float graph inputs and the node outputs depending on an input, in
    graph order (types checked after the run)."""
    g = model.graph
    static = static_tensors(g)
    names = [i.name for i in g.input if i.name not in static]
    for node in g.node:
        names += [n for n in node.output if n and n not in static and node.op_type != "Constant"]
    return list(dict.fromkeys(names))


def softmax_rows(model):
    """{a Softmax's input: (rank -> the axes of its rows, its output)}:
    opset 13 on, the axis attribute (default -1); before, every axis from
    it on (default 1: the input coerced to 2-D)."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    rows = {}
    for node in model.graph.node:
        if node.op_type != "Softmax" or not node.input or not node.output:
            continue
        axis = next((a.i for a in node.attribute if a.name == "axis"), -1 if opset >= 13 else 1)
        if opset >= 13:
            axes = (lambda a: lambda rank: (a % rank,))(axis)
        else:
            axes = (lambda a: lambda rank: tuple(range(a % rank, rank)))(axis)
        rows[node.input[0]] = (axes, node.output[0])
    return rows


def input_shape(model, shapes, first_npy):
    g = model.graph
    inits = {i.name for i in g.initializer}
    inputs = [i for i in g.input if i.name not in inits]
    if len(inputs) != 1:
        raise Failure("the model has %d inputs: calibration takes models with one" % len(inputs))
    info = inputs[0]
    dims = [d.dim_value if d.HasField("dim_value") else None for d in info.type.tensor_type.shape.dim]
    if info.name in shapes:
        given = shapes.pop(info.name)
        if len(given) != len(dims) or any(d is not None and d != s for d, s in zip(dims, given)):
            raise Failure("--input-shape %s=%s does not match the model's %s"
                          % (info.name, "x".join(map(str, given)), ["?" if d is None else d for d in dims]))
        dims = given
    if shapes:
        raise Failure("--input-shape names no model input: %s" % ", ".join(sorted(shapes)))
    if dims and dims[0] is None:
        dims[0] = 1
    if None in dims and first_npy is not None:
        a = np.load(first_npy)
        if a.ndim == len(dims) - 1:
            a = a[None]
        if a.ndim == len(dims):
            dims = [d if d is not None else n for d, n in zip(dims, a.shape)]
    if None in dims:
        raise Failure("input '%s' has dynamic dimensions %s: fix them with --input-shape"
                      % (info.name, ["?" if d is None else d for d in dims]))
    return info, dims


def load_sample(path, shape, mean, std):
    """The samples (arrays of `shape`) of one file."""
    if path.lower().endswith(".npy"):
        try:
            a = np.load(path)
        except Exception as e:
            raise Failure("%s: cannot read: %s" % (path, e))
        shape = tuple(shape)
        if a.shape == shape[1:]:
            a = a[None]
        if a.shape == shape:
            return [a]
        if shape and shape[0] == 1 and a.shape[1:] == shape[1:]:
            return [a[i:i + 1] for i in range(a.shape[0])]
        raise Failure("%s: shape %s does not match the model input's %s"
                      % (path, "x".join(map(str, a.shape)), "x".join(map(str, shape))))
    if len(shape) != 4 or shape[1] != 3:
        raise Failure("%s: images need an input N x 3 x H x W, the model's is %s"
                      % (path, "x".join(map(str, shape))))
    try:
        from PIL import Image
        with Image.open(path) as im:
            im = im.convert("RGB").resize((shape[3], shape[2]), Image.BILINEAR)
            x = np.asarray(im, dtype=np.float32) / 255.0
    except Exception as e:  # PIL raises many types for bad files
        raise Failure("%s: cannot read the image: %s" % (path, e))
    x = (x - np.float32(mean)) / np.float32(std)
    return [np.ascontiguousarray(np.repeat(x.transpose(2, 0, 1)[None], shape[0], axis=0))]


class Progress:
    """Per sample on stderr: its number, name, the mean seconds per sample
    so far and the time left at that pace (a bar on a terminal, a line each
    otherwise)."""

    def __init__(self, total, quiet, clock=time.perf_counter):
        self.total, self.quiet, self.tty = total, quiet, sys.stderr.isatty()
        self.clock, self.start = clock, clock()

    def line(self, i, name):
        per = (self.clock() - self.start) / i
        return "%d/%d: %s (%.2f s per sample, %s left)" % (
            i, self.total, name, per, duration(per * (self.total - i)))

    def step(self, i, name):
        if self.quiet:
            return
        text = self.line(i, name)
        if self.tty:
            done = 30 * i // self.total
            sys.stderr.write("\rcalibrating [%s%s] %s\033[K" % ("#" * done, "." * (30 - done), text))
            if i == self.total:
                sys.stderr.write("\n")
        else:
            sys.stderr.write("calibrating %s\n" % text)
        sys.stderr.flush()


def duration(seconds):
    """`seconds` as 12 s, 3 min 05 s or 1 h 02 min."""
    s = int(round(seconds))
    if s < 60:
        return "%d s" % s
    if s < 3600:
        return "%d min %02d s" % (s // 60, s % 60)
    return "%d h %02d min" % (s // 3600, s % 3600 // 60)


def default_jobs():
    """Samples run at once by default: the CPUs this process may use, at
    most MAX_JOBS (each sample in flight holds all its activations: 0.2 GB
    for bench/seg_net.py's 320x320 network)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_JOBS))


def collect(model_path, data_dir, shapes, mean, std, opt_level=1, quiet=False,
            vector_host_convolutions=True, jobs=None):
    """({activation: Histogram}, number of samples, compile seconds) of the
    float model in `model_path` over the samples in `data_dir`, its input
    shape fixed by `shapes` ({input name: [sizes]}), images normalized by
    `mean` and `std` (per RGB channel); the JIT's LLVM `opt_level`.
    `vector_host_convolutions=False` runs the convolutions as scalar loops
    (bench/calibrate_speed.py's baseline: the same sums, so the same
    tables). `jobs` samples run at once (threads calling the compiled
    network, default_jobs() if None) while this thread histograms the
    finished ones in sample order: the histograms, hence the tables, do
    not depend on `jobs`."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise Failure("jobs must be a positive number of samples run at once, got %r" % (jobs,))
    if not os.path.isdir(data_dir):
        raise Failure("%s: no such directory" % data_dir)
    files = sorted(os.path.join(data_dir, f) for f in os.listdir(data_dir)
                   if f.lower().endswith((".npy",) + IMAGE_EXT))
    if not files:
        raise Failure("%s: no samples (.npy or %s files)" % (data_dir, " ".join(IMAGE_EXT)))
    from .onnx import ImportFailure, load_model
    try:
        # Sorted, a dynamically quantized model as its float model: the
        # tensors the importer quantizes.
        model = load_model(model_path)
    except ImportFailure as e:
        raise Failure(str(e))
    npys = [f for f in files if f.endswith(".npy")]
    info, shape = input_shape(model, dict(shapes), npys[0] if npys else None)
    samples = [(f, s) for f in files for s in load_sample(f, shape, mean, std)]
    for d, n in zip(info.type.tensor_type.shape.dim, shape):
        d.Clear()
        d.dim_value = n
    names = activations(model)
    rows = softmax_rows(model)
    outs = {o.name for o in model.graph.output}
    for n in names:
        if n not in outs:
            model.graph.output.append(onnx.helper.make_empty_tensor_value_info(n))
    results = [o.name for o in model.graph.output]
    # On the host in float32: the float model's own values.
    options = runner.CompileOptions(offload=False, compression=False, allow_host=True,
                                    opt_level=opt_level,
                                    vector_host_convolutions=vector_host_convolutions)
    stats = {}
    with tempfile.TemporaryDirectory(prefix="dla-calibrate-") as work:
        path = os.path.join(work, "calibrate.onnx")
        onnx.save(model, path)
        try:
            compiled = runner.Compiled(path, options, work, shown=model_path)
        except runner.Failure as e:
            raise Failure(str(e))
        (_, in_dtype), = compiled.arg_types
        floats = [i for i, (_, dt) in enumerate(compiled.result_types) if dt.kind == "f"]
        for i in floats:
            stats.setdefault(results[i], Histogram())
        progress = Progress(len(samples), quiet)

        def run(x):
            # ctypes lets go of the GIL for the call: the runs go in parallel.
            return compiled.engine.invoke(compiled.name, [x.astype(in_dtype)])

        with concurrent.futures.ThreadPoolExecutor(jobs or default_jobs()) as pool:
            # Every sample in the pool's queue at once would hold every
            # sample's activations: `jobs` ahead of the one histogrammed.
            ahead = jobs or default_jobs()
            pending = collections.deque(pool.submit(run, x) for _, x in samples[:ahead])
            for k, (f, _) in enumerate(samples, 1):
                ys = pending.popleft().result()
                if k + ahead <= len(samples):
                    pending.append(pool.submit(run, samples[k + ahead - 1][1]))
                for i in floats:
                    stats[results[i]].add(ys[i])
                    if results[i] in rows:
                        stats[results[i]].add_rows(ys[i], rows[results[i]][0](np.ndim(ys[i])))
                del ys
                progress.step(k, os.path.basename(f))
    for name, (_, out) in rows.items():
        if name in stats and out in stats:
            stats[name].softmax_output = out
    # Graph order, float activations only.
    return {n: stats[n] for n in names if n in stats}, len(samples), compiled.seconds


def make_table(stats, method, percentile=99.99, asymmetric=False, per_channel=False):
    """(calibration_table.Table, {name: (min, max)} of the asymmetric
    entries) of {name: Histogram}."""
    table, ranges = Table(), {}
    for name, h in stats.items():
        floor = None
        if asymmetric:
            lo, hi = h.range_of(method, percentile)
            out = stats.get(h.softmax_output)
            if out is not None:
                # A Softmax's input: only the values its output can tell
                # apart need levels (softmax_floor; PP-OCRv4's recognizer:
                # the head's logits from [-35, 21] to [-1.5, 21], a level
                # 0.22 -> 0.09, and ties of the top two broken by index
                # were ~17 of its 2560 steps in numpy).
                floor = h.softmax_floor(asymmetric_params(*out.range_of(method, percentile))[0])
                if floor is not None and lo < floor < hi:
                    lo = min(floor, 0.0)
                else:
                    floor = None
            table[name], zp = asymmetric_params(lo, hi)
            ranges[name] = (lo, hi)
            if zp:
                table.zero_points[name] = zp
        else:
            table[name] = h.scale(method, percentile)
        channels = h.channel_scales(method, percentile, table.zero_points.get(name, 0), floor) \
            if per_channel else None
        if channels is not None and channels.size > 1 and channels.max() > 0:
            table.channel_scales[name] = [float(c) for c in channels]
            if h.channel_axis != 1:
                table.channel_axes[name] = h.channel_axis
            table[name] = float(channels.max())
    return table, ranges

