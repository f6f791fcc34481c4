"""Calibration tables: per-tensor activation scales (real = scale * q, int8,
symmetric), read and written in two formats:

  - NVIDIA's JSON (what its open compiler reads):
        {"tensor": {"scale": 0.0123, "min": 0, "max": 0, "offset": 0}, ...}
    An entry with a non-zero "offset" is asymmetric: real = scale *
    (q - offset), the offset an int8 zero point, "min" / "max" the
    calibrated range (dla-calibrate --asymmetric; NVIDIA's compiler reads
    only "scale", as its entries all have offset 0); "channel_scales": a
    list of one scale per channel (axis 1, or "channel_axis" where
    given: -1 for a transformer's N x T x C tokens; dla-calibrate
    --per-channel), "scale" then being the largest, which covers every
    channel;
  - TensorRT's text calibration cache:
        TRT-7000-EntropyCalibration2
        tensor: 3c010a14
    the hex being the big-endian bits of the float32 scale.
"""

import json
import math
import struct

from .builder import ImportError_


def _check_scale(path, name, scale):
    if not isinstance(scale, (int, float)) or isinstance(scale, bool) \
            or not math.isfinite(scale) or scale < 0:
        raise ImportError_("%s: tensor '%s' has scale %r (a finite number >= 0 is needed)"
                           % (path, name, scale))
    return float(scale)


class Table(dict):
    """{tensor name: scale}, `zero_points` {tensor name: int8 zero point} of
    the asymmetric entries, `channel_scales` {tensor name: [scale per
    channel]} of the per-channel ones and `channel_axes` {tensor name:
    axis} of those whose channels are not axis 1 (tokens: -1)."""

    def __init__(self, scales=(), zero_points=None, channel_scales=None, channel_axes=None):
        super().__init__(scales)
        self.zero_points = dict(zero_points or {})
        self.channel_scales = dict(channel_scales or {})
        self.channel_axes = dict(channel_axes or {})

    def channel_axis(self, name):
        return self.channel_axes.get(name, 1)


def _check_offset(path, name, offset):
    if isinstance(offset, float) and offset.is_integer():
        offset = int(offset)
    if not isinstance(offset, int) or isinstance(offset, bool) or not -128 <= offset <= 127:
        raise ImportError_("%s: tensor '%s' has offset %r (an int8 zero point, -128..127, "
                           "is needed)" % (path, name, offset))
    return offset


def _parse_json(path, text):
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ImportError_("%s: not valid JSON: %s" % (path, e))
    if not isinstance(data, dict):
        raise ImportError_("%s: the table must be a JSON object of tensor names" % path)
    table = Table()
    for name, entry in data.items():
        if not isinstance(entry, dict) or "scale" not in entry:
            raise ImportError_("%s: tensor '%s' has no \"scale\"" % (path, name))
        table[name] = _check_scale(path, name, entry["scale"])
        offset = _check_offset(path, name, entry.get("offset", 0))
        if offset:
            table.zero_points[name] = offset
        if "channel_scales" in entry:
            scales = entry["channel_scales"]
            if not isinstance(scales, list) or not scales:
                raise ImportError_("%s: tensor '%s' has channel_scales %r (a list of scales is "
                                   "needed)" % (path, name, scales))
            table.channel_scales[name] = [_check_scale(path, name, v) for v in scales]
        if "channel_axis" in entry:
            axis = entry["channel_axis"]
            if axis not in (1, -1) or isinstance(axis, bool) or "channel_scales" not in entry:
                raise ImportError_("%s: tensor '%s' has channel_axis %r (1 or -1 beside "
                                   "channel_scales is needed)" % (path, name, axis))
            if axis != 1:
                table.channel_axes[name] = axis
    return table


def parse_trt_cache(path, text):
    """{name: scale} of a TensorRT calibration cache's text."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("TRT-"):
        raise ImportError_("%s: a TensorRT calibration cache starts with a line like "
                           "TRT-7000-EntropyCalibration2" % path)
    table = Table()
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        name, sep, value = line.rpartition(":")
        value = value.strip()
        try:
            if not sep or len(value) != 8:
                raise ValueError
            (scale,) = struct.unpack(">f", bytes.fromhex(value))
        except ValueError:
            raise ImportError_("%s:%d: expected 'name: <8 hex digits>', got '%s'" % (path, n, line))
        table[name.strip()] = _check_scale("%s:%d" % (path, n), name.strip(), scale)
    return table


def read_table(path):
    """{tensor name: scale} of a JSON table or a TensorRT cache (by content)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ImportError_("cannot read calibration table %s: %s" % (path, e))
    if text.lstrip().startswith("{"):
        return _parse_json(path, text)
    return parse_trt_cache(path, text)


def trt_hex(scale):
    return struct.pack(">f", scale).hex()


def write_table(path, table, trt_header=None, ranges=None):
    """Writes {name: scale} as NVIDIA's JSON, or as a TensorRT cache with
    `trt_header` (e.g. TRT-7000-EntropyCalibration2) as its first line.
    The zero points of a Table (JSON only) are written as "offset", with
    `ranges` {name: (min, max)} as "min" / "max" where given."""
    zero_points = getattr(table, "zero_points", {})
    channel_scales = getattr(table, "channel_scales", {})
    channel_axes = getattr(table, "channel_axes", {})
    ranges = ranges or {}
    if trt_header:
        if any(zero_points.values()) or channel_scales:
            raise ValueError("a TensorRT calibration cache holds no zero points or channel scales")
        text = trt_header + "\n" + "".join("%s: %s\n" % (k, trt_hex(v)) for k, v in table.items())
    else:
        def entry(k, v):
            lo, hi = (float(r) for r in ranges[k]) if k in ranges else (0, 0)
            e = {"scale": float(v), "min": lo, "max": hi, "offset": int(zero_points.get(k, 0))}
            if k in channel_scales:
                e["channel_scales"] = [float(c) for c in channel_scales[k]]
                if channel_axes.get(k, 1) != 1:
                    e["channel_axis"] = int(channel_axes[k])
            return e
        text = json.dumps({k: entry(k, v) for k, v in table.items()}, indent=1) + "\n"
    with open(path, "w") as f:
        f.write(text)


def check_names(path, table, needed, known):
    """Every `needed` tensor has a scale and every name of the table is a
    tensor of the model (`known`); else one error listing the names."""
    missing = [n for n in needed if n not in table]
    extra = sorted(n for n in table if n not in known)
    problems = []
    if missing:
        problems.append("no scale for %d tensor%s the quantization needs: %s"
                        % (len(missing), "s" * (len(missing) > 1), ", ".join(missing)))
    if extra:
        problems.append("%d name%s of no tensor of the model: %s"
                        % (len(extra), "s" * (len(extra) > 1), ", ".join(extra)))
    if problems:
        raise ImportError_("calibration table %s: %s" % (path, "; ".join(problems)))
