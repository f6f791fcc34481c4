"""Independent Python reference for the NVDLA weight formats (``#dla.weight``).

Written from /work/shared/spec/nvdla/format.rst (Weight Format: direct,
image input, Winograd, deconvolution; Weight Channel Post-extension; Sparse
Compression option; the alignment table), its figures, the "Facts from
NVIDIA's open-source NVDLA compiler" of /work/shared/spec/README.md and the
project's decisions about the encoding.  It does not use or read the C++ code.

Encoding
--------
``#dla.weight<FORMAT, PRECISION[, compressed][, channels = N]
[, post_extension = 2|4|auto][, stride = N | [sy, sx]]
[, config = nv_full|nv_large|nv_small][, rounding = to_nearest_even|to_nearest_away]>``
on ``tensor<K x C x R x S x T>`` (K kernels, C channels, R rows, S columns),
FORMAT direct | image | winograd | deconv, PRECISION int8 (i8) | int16 (i16) |
fp16 (f16).

Hardware configurations (atomic-C elements, atomic-K, weight-buffer entry):
nv_full 64 / 32 / 128 B (default), nv_large 64 / 32 / 64 B, nv_small 8 / 8 / 8 B.
Kernels per group (KPG) = atomic-K for int8, atomic-K / 2 for int16 / fp16.

The uncompressed stream (elements, no gaps)
-------------------------------------------
direct
    for each kernel group (KPG kernels, the last may be short), for each
    channel block (atomic-C channels, the last may be short), for r, for s,
    for each kernel of the group, the channels of the block.
    Zero padding at the very end to a multiple of the entry size.
image
    C is zero-padded to ``channels`` (default C) = Cp, then pre-extended:
    K x Cp x R x S -> K x (S*Cp) x R x 1 with c' = s*Cp + c, then laid out as
    direct.  With post-extension factor f (2 or 4): for each kernel group,
    for each row group (f rows, the last holds R mod f rows, not
    zero-filled), for each kernel of the group, the rows of the group, each
    row's C' = S*Cp channels (one super-atom of C'*f <= atomic-C elements;
    the figure's general order is row group -> s -> k -> row -> c).
    ``auto``: f = 4 if Cp*sx*3 + C' <= atomic-C and C' <= atomic-C/4, else 2
    if Cp*sx + C' <= atomic-C and C' <= atomic-C/2, else none; none if
    sx > S (sx = the stride's x component, default 1).
winograd
    stride st (default 1), R and S with ceil(R/st) = ceil(S/st) = 3.
    C zero-padded to 32 bytes (Cp = roundup(C, 32 int8 / 16 otherwise)),
    channel extension to C'' = st*st*Cp with
    ``E[k, (dy*st + dx)*Cp + c, i, j] = W[k, c, i*st + dy, j*st + dx]`` (zero
    out of range), then T = G E G^T per 3x3 slice computed in fp32 and
    converted once: fp16 with ``rounding`` (default ties away from zero, as
    NVIDIA's compiler's half.h; ``to_nearest_even`` ties to even), int8 /
    int16 rounded half away from zero and saturated.  Stream: for each
    kernel group (32 int8 / 16 otherwise, independent of the config), for
    each 4-channel block, for each kernel, the 4x4x4 cube (r, s, c; c
    fastest).  Zero padding to a multiple of 128 B.
deconv
    stride [sy, sx] (default [1, 1]).  Sets (y, x), y outer, x inner; set
    (y, x) is K x C x ceil(R/sy) x ceil(S/sx) with
    ``set[k, c, r, s] = W[k, c, y + r*sy, x + s*sx]`` (zero out of range),
    laid out as direct with r and s scanned in reverse, end-padded like a
    direct stream; each set starts 256-byte aligned (gaps zero); the size is
    the end of the last set.

Compression (``compressed``), per stream (per deconv set)
----------------------------------------------------------
WMB: one bit per stream element (end padding excluded), least significant
bit first, continuous across kernel groups; an element is zero only when all
its bytes are zero.  Data: the non-zero elements in stream order.  WGS: one
little-endian uint32 per kernel group: that group's compressed byte count.
Each surface zero-padded to 128 B.  Deconvolution: each set's three regions
are placed one after another in the three blobs, each region starting
256-byte aligned within its blob.

Two implementations must agree:

* ``pack`` / ``stream_sources``: for every position of the output stream,
  work out by mixed-radix division which source element lands there (see
  ``positions``); values are then gathered;
* ``pack_loops``: explicit loop nests that append the stream piece by piece
  (what a packer would write), with its own Winograd transform (batched
  float32 matmul) and its own compression loop.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

import nvdla_ref as nv

# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HwConfig:
    name: str
    atomic_c: int    # channels (elements) per direct-convolution channel cube
    atomic_k: int
    entry: int       # weight-buffer entry, bytes (end padding of the stream)
    # What the hardware has (nvdla/hw spec/defs/*.spec): nv_large and
    # nv_small are int8 only, without Winograd or weight compression.
    full: bool = False


CONFIGS: Dict[str, HwConfig] = {
    "nv_full": HwConfig("nv_full", 64, 32, 128, full=True),
    "nv_large": HwConfig("nv_large", 64, 32, 64),
    "nv_small": HwConfig("nv_small", 8, 8, 8),
}
DEFAULT_CONFIG = "nv_full"
FORMATS = ("direct", "image", "winograd", "deconv")
PRECISIONS = ("int8", "int16", "fp16")
PRECISION_ELT = {"int8": "i8", "int16": "i16", "fp16": "f16"}
PRECISION_BYTES = {"int8": 1, "int16": 2, "fp16": 2}
ROUNDINGS = ("to_nearest_even", "to_nearest_away")
# An encoding without ``rounding`` rounds as NVIDIA's compiler (nvdla/sw
# half.h: round to nearest, ties away from zero); the project's decision.
DEFAULT_ROUNDING = "to_nearest_away"
POST_EXTENSIONS = (2, 4, "auto")

WINOGRAD_PAD = 128          # Winograd streams pad to 128 B whatever the config
WINOGRAD_CHANNEL_BYTES = 32  # channels padded to 32 bytes
WINOGRAD_KPG = {1: 32, 2: 16}
SET_ALIGN = 256             # deconv set start / compressed region start
SURFACE_PAD = 128           # compressed surfaces (WGS, WMB, data)
BLOB_ALIGN = 256            # start-address alignment of every weight surface

# Winograd weight transform matrix (format.rst)
G = np.array([[1.0, 0.0, 0.0],
              [0.5, 0.5, 0.5],
              [0.5, -0.5, 0.5],
              [0.0, 0.0, 1.0]], dtype=np.float32)


def roundup(x: int, m: int) -> int:
    return -(-x // m) * m


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# ---------------------------------------------------------------------------
# fp32 -> fp16 and fp32 -> integer conversion
# ---------------------------------------------------------------------------

def f32_to_f16_bits(x, rounding: str = "to_nearest_even") -> np.ndarray:
    """IEEE binary32 -> binary16 bit patterns (uint16), round to nearest with
    ties to even or ties away from zero, done on the bits.

    Overflow gives infinity (both modes round to nearest), NaN stays a quiet
    NaN with the top payload bits, the sign of zero is kept."""
    if rounding not in ROUNDINGS:
        raise ValueError(f"unknown rounding '{rounding}'")
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.int64)
    sign = (b >> 31) & 1
    exp = (b >> 23) & 0xFF
    man = b & 0x7FFFFF
    # significand with the implicit bit; the value is m * 2**(max(exp, 1) - 150)
    m = np.where(exp > 0, man | 0x800000, man)
    # f16 normal (exp >= 113): keep 11 significant bits, the implicit bit
    # lands on the exponent's lowest bit, so add (exp - 113) << 10.
    # f16 subnormal / zero: count units of 2**-24: shift = 126 - exp.
    shift = np.where(exp >= 113, 13, np.where(exp == 0, 125, 126 - exp))
    shift = np.minimum(shift, 40)          # m < 2**24: larger shifts give 0
    base = np.where(exp >= 113, (exp - 113) << 10, 0)
    q = m >> shift
    rem = m - (q << shift)
    half = np.int64(1) << (shift - 1)
    if rounding == "to_nearest_even":
        up = (rem > half) | ((rem == half) & ((q & 1) == 1))
    else:
        up = rem >= half
    res = base + q + up.astype(np.int64)   # a carry may bump the exponent
    res = np.minimum(res, 0x7C00)          # overflow -> infinity
    special = exp == 255
    res = np.where(special & (man == 0), 0x7C00, res)
    res = np.where(special & (man != 0), 0x7E00 | (man >> 13), res)
    return (res | (sign << 15)).astype(np.uint16)


def f32_to_f16(x, rounding: str = "to_nearest_even") -> np.ndarray:
    return f32_to_f16_bits(x, rounding).view(np.float16)


def f32_to_int(x, bits: int) -> np.ndarray:
    """Round half away from zero, saturate to a signed ``bits``-bit integer."""
    v = np.asarray(x, dtype=np.float32).astype(np.float64)
    r = np.where(v >= 0, np.floor(v + 0.5), -np.floor(-v + 0.5))
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return np.clip(r, lo, hi).astype(np.int64)


def truncf(a, mode: Optional[str]) -> np.ndarray:
    """arith.truncf f32 -> f16; mode None or 'to_nearest_even' = ties to even."""
    return f32_to_f16(np.asarray(a, np.float32), mode or "to_nearest_even")


# ---------------------------------------------------------------------------
# Encoding: parse and print
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class WeightEncoding:
    format: str
    precision: str
    compressed: bool = False
    channels: Optional[int] = None
    post_extension: Optional[object] = None   # 2, 4 or "auto"
    stride: Optional[Tuple[int, ...]] = None  # (n,) or (sy, sx), as spelled
    config: Optional[str] = None
    rounding: Optional[str] = None
    scale: Optional[float] = None             # Winograd int8 / int16 taps' scale

    kind = "weight"

    @property
    def cfg(self) -> HwConfig:
        return CONFIGS[self.config or DEFAULT_CONFIG]

    @property
    def stride_yx(self) -> Tuple[int, int]:
        if self.stride is None:
            return (1, 1)
        if len(self.stride) == 1:
            return (self.stride[0], self.stride[0])
        return (self.stride[0], self.stride[1])

    @property
    def elt(self) -> str:
        return PRECISION_ELT[self.precision]

    def text(self, spaces: bool = True) -> str:
        eq = " = " if spaces else "="
        args = [self.format, self.precision]
        if self.compressed:
            args.append("compressed")
        if self.channels is not None:
            args.append(f"channels{eq}{self.channels}")
        if self.post_extension is not None:
            args.append(f"post_extension{eq}{self.post_extension}")
        if self.stride is not None:
            st = (str(self.stride[0]) if len(self.stride) == 1 else
                  "[" + ", ".join(map(str, self.stride)) + "]")
            args.append(f"stride{eq}{st}")
        if self.config is not None:
            args.append(f"config{eq}{self.config}")
        if self.rounding is not None:
            args.append(f"rounding{eq}{self.rounding}")
        if self.scale is not None:
            args.append(f"scale{eq}{self.scale!r}")
        return "#dla.weight<" + ", ".join(args) + ">"


def is_weight_encoding(text: Optional[str]) -> bool:
    return bool(text) and re.match(r"\s*#dla\.weight\s*<", text) is not None


def _split_top(text: str) -> List[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(<{":
            depth += 1
        elif ch in "])>}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _int(v: str, what: str) -> int:
    try:
        return int(v)
    except ValueError:
        raise ValueError(f"{what} needs an integer, got '{v}'") from None


def parse_encoding(text: str) -> WeightEncoding:
    """'#dla.weight<direct, int8, compressed>' -> WeightEncoding (ValueError if bad).

    Only the syntax and the parameter values are checked here; ``plan``
    checks the combination with a shape."""
    m = re.fullmatch(r"\s*#dla\.weight\s*<(.*)>\s*", text, re.S)
    if not m:
        raise ValueError(f"not a #dla.weight encoding: '{text}'")
    parts = _split_top(m.group(1))
    if len(parts) < 2 or "=" in parts[0] or "=" in parts[1]:
        raise ValueError(f"#dla.weight needs FORMAT and PRECISION first: '{text}'")
    fmt, prec = parts[0], parts[1]
    if fmt not in FORMATS:
        raise ValueError(f"unknown weight format '{fmt}'")
    if prec not in PRECISIONS:
        raise ValueError(f"unknown precision '{prec}'")
    kw: Dict[str, object] = {}
    seen = set()
    for p in parts[2:]:
        if "=" not in p:
            key, val = p, None
        else:
            key, val = (s.strip() for s in p.split("=", 1))
        if key in seen:
            raise ValueError(f"duplicate parameter '{key}' in '{text}'")
        seen.add(key)
        if key == "compressed":
            if val not in (None, "true", "false"):
                raise ValueError(f"compressed takes no value, got '{val}'")
            kw["compressed"] = val != "false"
        elif val is None:
            raise ValueError(f"unknown flag '{key}' in '{text}'")
        elif key == "channels":
            kw["channels"] = _int(val, "channels")
        elif key == "post_extension":
            kw["post_extension"] = "auto" if val == "auto" else _int(val, "post_extension")
            if kw["post_extension"] not in POST_EXTENSIONS:
                raise ValueError(f"post_extension is 2, 4 or auto, got '{val}'")
        elif key == "stride":
            if val.startswith("["):
                if not val.endswith("]"):
                    raise ValueError(f"bad stride '{val}'")
                items = [s.strip() for s in val[1:-1].split(",")]
                st = tuple(_int(s, "stride") for s in items)
                if len(st) != 2:
                    raise ValueError(f"stride list is [sy, sx], got '{val}'")
            else:
                st = (_int(val, "stride"),)
            if any(s < 1 for s in st):
                raise ValueError(f"stride must be positive, got '{val}'")
            kw["stride"] = st
        elif key == "config":
            if val not in CONFIGS:
                raise ValueError(f"unknown config '{val}'")
            kw["config"] = val
        elif key == "scale":
            try:
                kw["scale"] = float(val)
            except ValueError:
                raise ValueError(f"scale is a number, got '{val}'") from None
            if not (np.isfinite(kw["scale"]) and kw["scale"] > 0):
                raise ValueError(f"scale must be positive and finite, got '{val}'")
        elif key == "rounding":
            if val not in ROUNDINGS:
                raise ValueError(f"unknown rounding '{val}'")
            kw["rounding"] = val
        else:
            raise ValueError(f"unknown parameter '{key}' in '{text}'")
    return WeightEncoding(fmt, prec, **kw)


def resolve(enc) -> WeightEncoding:
    return parse_encoding(enc) if isinstance(enc, str) else enc


# ---------------------------------------------------------------------------
# Plan: geometry of the stream(s), with validation
# ---------------------------------------------------------------------------

@dataclass
class Segment:
    """One stream: the whole weight, or one deconvolution set."""
    offset: int                   # byte offset in the uncompressed blob
    nelems: int                   # stream elements (end padding excluded)
    nbytes: int                   # stream bytes with end padding
    groups: List[Tuple[int, int]]  # (first element, element count) per kernel group
    set_yx: Optional[Tuple[int, int]] = None


@dataclass
class Plan:
    enc: WeightEncoding
    shape: Tuple[int, int, int, int]
    elt: str
    esize: int
    cfg: HwConfig
    kpg: int                      # kernels per group
    atomic_c: int
    segments: List[Segment]
    size: int                     # uncompressed blob bytes
    cp: int = 0                   # image / winograd: padded channel count
    cx: int = 0                   # image: S*Cp; winograd: st*st*Cp
    factor: int = 0               # image: resolved post-extension (0 = none)
    stride: Tuple[int, int] = (1, 1)
    sets: Tuple[int, int] = (0, 0)    # deconv: ceil(R/sy), ceil(S/sx)
    notes: List[str] = field(default_factory=list)

    def describe(self) -> str:
        e = self.enc
        K, C, R, S = self.shape
        s = f"weight {e.format} {e.precision} {self.cfg.name}: {self.kpg} kernels per group"
        if e.format == "winograd":
            s += (f", Cp {self.cp}, {self.stride[0]}x{self.stride[0]} extension -> "
                  f"{self.cx} channels, 4x4x4 cubes, padded to {WINOGRAD_PAD} B")
        else:
            s += f", {self.atomic_c}-channel cubes"
            if e.format == "image":
                s += f", Cp {self.cp}, pre-extended to {self.cx} channels"
                s += (f", post-extension {self.factor}" if self.factor else
                      ", no post-extension")
            if e.format == "deconv":
                s += (f", {len(self.segments)} sets of {K}x{C}x{self.sets[0]}x"
                      f"{self.sets[1]} at {[g.offset for g in self.segments]}")
            s += f", padded to {self.cfg.entry} B"
        n = sum(g.nelems for g in self.segments)
        return s + f"; {n} stream elements, {self.size} bytes"


def _need(cond: bool, msg: str):
    if not cond:
        raise ValueError(msg)


def resolve_post_extension(enc: WeightEncoding, cp: int, S: int, atomic_c: int) -> int:
    """The post-extension factor (0 = none) for an image weight."""
    cx = S * cp
    pe = enc.post_extension
    if pe is None:
        return 0
    if pe == "auto":
        sx = enc.stride_yx[1]
        if sx > S:
            return 0
        if cp * sx * 3 + cx <= atomic_c and cx <= atomic_c // 4:
            return 4
        if cp * sx + cx <= atomic_c and cx <= atomic_c // 2:
            return 2
        return 0
    _need(cx * pe <= atomic_c,
          f"post_extension = {pe} needs S*Cp*{pe} = {cx * pe} <= atomic-C = {atomic_c}")
    return pe


def _groups(K: int, kpg: int, per_kernel: int) -> List[Tuple[int, int]]:
    """(first stream element, element count) of each kernel group."""
    return [(g0 * per_kernel, min(kpg, K - g0) * per_kernel) for g0 in range(0, K, kpg)]


def plan(enc, shape: Sequence[int], elt: str) -> Plan:
    """Resolve defaults and validate; raises ValueError if the type is invalid."""
    enc = resolve(enc)
    shape = tuple(int(x) for x in shape)
    _need(len(shape) == 4, f"weights are rank-4 KCRS, got rank {len(shape)}")
    _need(all(x >= 1 for x in shape), f"weight extents must be positive, got {shape}")
    K, C, R, S = shape
    want = PRECISION_ELT[enc.precision]
    _need(elt == want, f"{enc.precision} weights need {want} elements, got {elt}")
    esize = PRECISION_BYTES[enc.precision]
    cfg = enc.cfg
    kpg = cfg.atomic_k if esize == 1 else cfg.atomic_k // 2
    fmt = enc.format
    if fmt != "image":
        _need(enc.channels is None, "channels applies to image weights only")
        _need(enc.post_extension is None, "post_extension applies to image weights only")
    if fmt == "direct":
        _need(enc.stride is None, "direct weights take no stride")
    if enc.rounding is not None:
        # only the Winograd transform converts (fp32 -> fp16); other fp16
        # formats accept the parameter and store the weights unchanged; the
        # default spelled out is the default on any precision
        _need(enc.precision == "fp16" or enc.rounding == DEFAULT_ROUNDING,
              "rounding applies to fp16 weights only")
    p = Plan(enc, shape, elt, esize, cfg, kpg, cfg.atomic_c, [], 0,
             stride=enc.stride_yx)
    if fmt == "direct":
        n = K * C * R * S
        nb = roundup(n * esize, cfg.entry)
        p.segments = [Segment(0, n, nb, _groups(K, kpg, C * R * S))]
    elif fmt == "image":
        cp = enc.channels if enc.channels is not None else C
        _need(cp >= C, f"channels = {cp} is less than C = {C}")
        p.cp, p.cx = cp, S * cp
        p.factor = resolve_post_extension(enc, cp, S, cfg.atomic_c)
        n = K * p.cx * R
        p.segments = [Segment(0, n, roundup(n * esize, cfg.entry),
                              _groups(K, kpg, p.cx * R))]
    elif fmt == "winograd":
        _need(enc.scale is None or enc.precision != "fp16",
              "scale applies to int8 / int16 Winograd weights only")
        sy, sx = enc.stride_yx
        _need(sy == sx, f"Winograd needs equal x and y strides, got [{sy}, {sx}]")
        st = sy
        _need(ceil_div(R, st) == 3 and ceil_div(S, st) == 3,
              f"Winograd needs a kernel that is 3x3 after extension: ceil(R/{st}) = "
              f"{ceil_div(R, st)}, ceil(S/{st}) = {ceil_div(S, st)}")
        p.kpg = WINOGRAD_KPG[esize]
        p.cp = roundup(C, WINOGRAD_CHANNEL_BYTES // esize)
        p.cx = st * st * p.cp
        n = K * p.cx * 16
        p.segments = [Segment(0, n, roundup(n * esize, WINOGRAD_PAD),
                              _groups(K, p.kpg, p.cx * 16))]
    else:  # deconv
        sy, sx = enc.stride_yx
        rs, ss = ceil_div(R, sy), ceil_div(S, sx)
        p.sets = (rs, ss)
        off = 0
        for y in range(sy):
            for x in range(sx):
                off = roundup(off, SET_ALIGN)
                n = K * C * rs * ss
                seg = Segment(off, n, roundup(n * esize, cfg.entry),
                              _groups(K, kpg, C * rs * ss), (y, x))
                p.segments.append(seg)
                off += seg.nbytes
    last = p.segments[-1]
    p.size = last.offset + last.nbytes
    return p


def storage_size(enc, shape, elt) -> int:
    return plan(enc, shape, elt).size


# ---------------------------------------------------------------------------
# Per-position reference: stream position -> source element
# ---------------------------------------------------------------------------

def direct_positions(q: np.ndarray, K: int, C: int, R: int, S: int, kpg: int,
                     atomic_c: int):
    """Position q of the direct-convolution stream of a KxCxRxS cube ->
    (k, c, r, s), by mixed-radix division.  All groups before q's group are
    full (KPG kernels), all channel blocks before q's block are full."""
    q = np.asarray(q, dtype=np.int64)
    per_kernel = C * R * S
    g = q // (kpg * per_kernel)
    kg = np.minimum(kpg, K - g * kpg)              # kernels in this group
    q1 = q - g * kpg * per_kernel
    b = q1 // (kg * R * S * atomic_c)              # channel block
    cb = np.minimum(atomic_c, C - b * atomic_c)    # channels in this block
    q2 = q1 - b * kg * R * S * atomic_c
    rs, rem = np.divmod(q2, kg * cb)
    kk, cc = np.divmod(rem, cb)
    r, s = np.divmod(rs, S)
    return g * kpg + kk, b * atomic_c + cc, r, s


def post_extension_positions(q: np.ndarray, K: int, C: int, R: int, S: int,
                             kpg: int, f: int):
    """Position q of a post-extended stream of a KxCxRxS cube -> (k, c, r, s).

    The figure's order: kernel group, row group (f rows; the last one
    short), s, kernel, row within the group, channel (one super-atom of
    f*C channels; C*f <= atomic-C so there is a single channel block)."""
    q = np.asarray(q, dtype=np.int64)
    per_kernel = C * R * S
    g = q // (kpg * per_kernel)
    kg = np.minimum(kpg, K - g * kpg)
    q1 = q - g * kpg * per_kernel
    rg = q1 // (kg * S * f * C)                    # row group
    nr = np.minimum(f, R - rg * f)                 # rows in this group
    q2 = q1 - rg * kg * S * f * C
    s, rem = np.divmod(q2, kg * nr * C)
    kk, rem2 = np.divmod(rem, nr * C)
    rr, c = np.divmod(rem2, C)
    return g * kpg + kk, c, rg * f + rr, s


def winograd_positions(q: np.ndarray, K: int, CX: int, kpg: int):
    """Position q of the Winograd stream -> (k, c'', i, j) of the 4x4 transformed
    kernels: group, 4-channel block, kernel, then 4x4x4 (i, j, c; c fastest)."""
    q = np.asarray(q, dtype=np.int64)
    g = q // (kpg * CX * 16)
    kg = np.minimum(kpg, K - g * kpg)
    q1 = q - g * kpg * CX * 16
    cb, rem = np.divmod(q1, kg * 64)
    kk, e = np.divmod(rem, 64)
    i, e2 = np.divmod(e, 16)
    j, cc = np.divmod(e2, 4)
    return g * kpg + kk, cb * 4 + cc, i, j


@dataclass
class SegmentSources:
    """For each stream position of one segment: the source coordinates
    (k, c, r, s) in the logical weight (Winograd: (k, c'', i, j) of the
    transformed kernels) and whether a source exists (False = a zero the
    format inserts: padded channel, out-of-range tap)."""
    k: np.ndarray
    c: np.ndarray
    r: np.ndarray
    s: np.ndarray
    valid: np.ndarray


def positions(p: Plan, seg_no: int, q: Optional[np.ndarray] = None) -> SegmentSources:
    """Per-position reference for segment ``seg_no`` (all positions if q is None)."""
    seg = p.segments[seg_no]
    if q is None:
        q = np.arange(seg.nelems, dtype=np.int64)
    q = np.asarray(q, dtype=np.int64)
    K, C, R, S = p.shape
    fmt = p.enc.format
    if fmt == "direct":
        k, c, r, s = direct_positions(q, K, C, R, S, p.kpg, p.atomic_c)
        return SegmentSources(k, c, r, s, np.ones(q.shape, bool))
    if fmt == "image":
        if p.factor:
            k, cx, r, _ = post_extension_positions(q, K, p.cx, R, 1, p.kpg, p.factor)
        else:
            k, cx, r, _ = direct_positions(q, K, p.cx, R, 1, p.kpg, p.atomic_c)
        s, c = np.divmod(cx, p.cp)                 # c' = s*Cp + c
        return SegmentSources(k, c, r, s, c < C)
    if fmt == "winograd":
        k, cx, i, j = winograd_positions(q, K, p.cx, p.kpg)
        return SegmentSources(k, cx, i, j, np.ones(q.shape, bool))
    # deconv: direct on the set, r and s reversed, then back to W
    y, x = seg.set_yx
    sy, sx = p.stride
    rs, ss = p.sets
    k, c, r2, s2 = direct_positions(q, K, C, rs, ss, p.kpg, p.atomic_c)
    r = y + (rs - 1 - r2) * sy
    s = x + (ss - 1 - s2) * sx
    return SegmentSources(k, c, r, s, (r < R) & (s < S))


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

def winograd_extend(w: np.ndarray, p: Plan) -> np.ndarray:
    """K x C x R x S -> K x C'' x 3 x 3 (channel padding and stride extension),
    element by element: E[k, (dy*st+dx)*Cp + c, i, j] = W[k, c, i*st+dy, j*st+dx],
    zero where c >= C or the tap is outside the kernel."""
    K, C, R, S = p.shape
    st = p.stride[0]
    k, cx, i, j = np.meshgrid(np.arange(K), np.arange(p.cx), np.arange(3), np.arange(3),
                              indexing="ij")
    d, c = np.divmod(cx, p.cp)
    dy, dx = np.divmod(d, st)
    r, s = i * st + dy, j * st + dx
    ok = (c < C) & (r < R) & (s < S)
    src = np.asarray(w)[k, np.where(ok, c, 0), np.where(ok, r, 0), np.where(ok, s, 0)]
    return np.where(ok, src.astype(np.float32), np.float32(0))


def winograd_fp32(e: np.ndarray) -> np.ndarray:
    """G g G^T for every 3x3 slice of ``e`` (..., 3, 3), in float32, one
    element at a time in a fixed order: t = G g (sum over a = 0, 1, 2), then
    t G^T (sum over b = 0, 1, 2)."""
    e = np.asarray(e, np.float32)
    t = np.zeros(e.shape[:-2] + (4, 3), np.float32)
    for i in range(4):
        for j in range(3):
            acc = np.zeros(e.shape[:-2], np.float32)
            for a in range(3):
                acc = (acc + G[i, a] * e[..., a, j]).astype(np.float32)
            t[..., i, j] = acc
    out = np.zeros(e.shape[:-2] + (4, 4), np.float32)
    for i in range(4):
        for j in range(4):
            acc = np.zeros(e.shape[:-2], np.float32)
            for b in range(3):
                acc = (acc + t[..., i, b] * G[j, b]).astype(np.float32)
            out[..., i, j] = acc
    return out


def convert_winograd(t32: np.ndarray, precision: str, rounding: Optional[str],
                     scale: Optional[float] = None) -> np.ndarray:
    """The single fp32 -> weight precision conversion of the transform;
    integers with a scale: t32 / scale in float64, rounded half away from
    zero once, saturated."""
    if precision == "fp16":
        return f32_to_f16(t32, rounding or DEFAULT_ROUNDING)
    bits = 8 * PRECISION_BYTES[precision]
    dt = nv.element_dtype(PRECISION_ELT[precision])
    if scale is None:
        return f32_to_int(t32, bits).astype(dt)
    v = np.asarray(t32, dtype=np.float32).astype(np.float64) / scale
    r = np.where(v >= 0, np.floor(v + 0.5), -np.floor(-v + 0.5))
    return np.clip(r, -(1 << (bits - 1)), (1 << (bits - 1)) - 1).astype(dt)


def winograd_values(w: np.ndarray, p: Plan) -> np.ndarray:
    """K x C'' x 4 x 4 transformed kernels in the weight's element type."""
    return convert_winograd(winograd_fp32(winograd_extend(w, p)), p.enc.precision,
                            p.enc.rounding, p.enc.scale)


def element_bytes(a: np.ndarray, elt: str) -> np.ndarray:
    """(..., esize) little-endian bytes of each element."""
    dt = nv.element_dtype(elt)
    a = np.ascontiguousarray(np.asarray(a).astype(dt))
    return a.reshape(a.shape + (1,)).view(np.uint8).reshape(a.shape + (dt.itemsize,))


def segment_stream(vals: np.ndarray, p: Plan, seg_no: int) -> np.ndarray:
    """The element values of one segment's stream (no end padding), gathered
    with the per-position reference from ``vals``: the weights, or for
    Winograd the transformed kernels (``winograd_values``)."""
    src = positions(p, seg_no)
    dt = nv.element_dtype(p.elt)
    ok = src.valid
    z = np.zeros_like(src.k)
    got = vals[np.where(ok, src.k, z), np.where(ok, src.c, z), np.where(ok, src.r, z),
               np.where(ok, src.s, z)]
    return np.where(ok, got, np.zeros((), dt)).astype(dt)


def _check_data(w, p: Plan) -> np.ndarray:
    w = np.asarray(w)
    _need(tuple(w.shape) == p.shape, f"data shape {w.shape} is not {p.shape}")
    # f32 weights relayouted straight into Winograd fp16 stay f32: G g G^T
    # of the f32 values, rounded once (NVIDIA's compiler).
    # So do f32 weights relayouted into int8 / int16 Winograd with a scale.
    if p.enc.format == "winograd" and w.dtype == np.float32 and (
            p.elt == "f16" or p.enc.scale is not None):
        return w
    return w.astype(nv.element_dtype(p.elt))


def streams(w, enc, elt) -> Tuple[Plan, List[np.ndarray]]:
    p = plan(enc, np.asarray(w).shape, elt)
    w = _check_data(w, p)
    vals = winograd_values(w, p) if p.enc.format == "winograd" else w
    return p, [segment_stream(vals, p, i) for i in range(len(p.segments))]


def compress_segment(stream: np.ndarray, seg: Segment, elt: str) -> Dict[str, bytes]:
    """WMB / data / WGS of one stream, each zero-padded to 128 B."""
    eb = element_bytes(stream, elt)                  # (n, esize)
    nz = eb.any(axis=1)                              # zero only if all bytes are zero
    wmb = np.packbits(nz.astype(np.uint8), bitorder="little").tobytes()
    data = eb[nz].reshape(-1).tobytes()
    starts = np.array([s for s, _ in seg.groups], np.int64)
    counts = np.add.reduceat(nz.astype(np.int64), starts) if len(stream) else \
        np.zeros(0, np.int64)
    wgs = (counts * eb.shape[1]).astype("<u4").tobytes()

    def pad(b: bytes) -> bytes:
        return b + bytes(roundup(len(b), SURFACE_PAD) - len(b))

    return {"wgs": pad(wgs), "wmb": pad(wmb), "data": pad(data)}


SURFACES = ("wgs", "wmb", "data")


def region_offsets(sizes: Sequence[int]) -> Tuple[List[int], int]:
    """Deconvolution: regions one after another, each starting 256-B aligned."""
    offs, off = [], 0
    for n in sizes:
        off = roundup(off, SET_ALIGN)
        offs.append(off)
        off += n
    return offs, off


@dataclass
class Compressed:
    """The compressed surfaces plus where each deconvolution set's region is."""
    plan: Plan
    streams: List[np.ndarray]
    parts: List[Dict[str, bytes]]            # per segment, each surface padded
    offsets: Dict[str, List[int]]            # surface -> region offset per segment
    surfaces: Dict[str, bytes]


def compress(w, enc, elt) -> Compressed:
    p, ss = streams(w, enc, elt)
    parts = [compress_segment(st, seg, elt) for seg, st in zip(p.segments, ss)]
    offsets, surfaces = {}, {}
    for name in SURFACES:
        offs, total = region_offsets([len(x[name]) for x in parts])
        out = bytearray(total)
        for o, x in zip(offs, parts):
            out[o:o + len(x[name])] = x[name]
        offsets[name] = offs
        surfaces[name] = bytes(out)
    return Compressed(p, ss, parts, offsets, surfaces)


def pack(w, enc, elt) -> Dict[str, bytes]:
    """The reference packing: {'weights': blob} or {'wgs', 'wmb', 'data'}."""
    enc = resolve(enc)
    if enc.compressed:
        return compress(w, enc, elt).surfaces
    p, ss = streams(w, enc, elt)
    out = np.zeros(p.size, np.uint8)
    for seg, st in zip(p.segments, ss):
        b = element_bytes(st, elt).reshape(-1)
        out[seg.offset:seg.offset + b.size] = b
    return {"weights": out.tobytes()}


def describe_surface_byte(c: Compressed, surface: str, offset: int,
                          actual: Optional[bytes] = None) -> List[str]:
    """Report lines for byte ``offset`` of a compressed surface."""
    p = c.plan
    for t, (o, part) in enumerate(zip(c.offsets[surface], c.parts)):
        n = len(part[surface])
        if not o <= offset < o + n:
            continue
        seg = p.segments[t]
        where = (f"deconv set {seg.set_yx} region at byte {o}, " if seg.set_yx else "")
        rel = offset - o
        exp = part[surface]
        if surface == "wgs":
            g = rel // 4
            if g >= len(seg.groups):
                return [f"{where}padding after the {len(seg.groups)} WGS entries"]
            k0 = g * p.kpg
            k1 = min(p.shape[0], k0 + p.kpg) - 1
            e = int.from_bytes(exp[g * 4:g * 4 + 4], "little")
            line = f"{where}WGS of kernel group {g} (kernels {k0}..{k1}): expected {e}"
            if actual is not None and o + g * 4 + 4 <= len(actual):
                line += f", actual {int.from_bytes(actual[o + g * 4:o + g * 4 + 4], 'little')}"
            return [line]
        if surface == "wmb":
            diff = exp[rel] ^ (actual[offset] if actual is not None and
                               offset < len(actual) else exp[rel])
            bit = (diff & -diff).bit_length() - 1 if diff else 0
            q = rel * 8 + bit
            if q >= seg.nelems:
                return [f"{where}WMB padding (bit {bit}: past the {seg.nelems} "
                        f"stream elements)"]
            return [f"{where}WMB byte {rel} holds stream elements {rel * 8}..{rel * 8 + 7}; "
                    f"bit {bit} = {describe_source(p, t, q)}: expected "
                    f"{(exp[rel] >> bit) & 1}"]
        # data
        eb = element_bytes(c.streams[t], p.elt)
        nz = np.nonzero(eb.any(axis=1))[0]
        j, b = divmod(rel, p.esize)
        if j >= len(nz):
            return [f"{where}data padding (after the {len(nz)} non-zero elements)"]
        return [f"{where}non-zero element {j} = {describe_source(p, t, int(nz[j]))} "
                f"byte {b}"]
    return ["padding (gap before a 256-byte aligned region)"]


def decompress(surfaces: Dict[str, bytes], enc, shape, elt) -> bytes:
    """Rebuild the uncompressed blob from WGS / WMB / data (round trip)."""
    p = plan(enc, shape, elt)
    esize = p.esize
    out = bytearray(p.size)
    sizes = {n: [] for n in SURFACES}
    for seg in p.segments:
        sizes["wgs"].append(roundup(4 * len(seg.groups), SURFACE_PAD))
        sizes["wmb"].append(roundup(ceil_div(seg.nelems, 8), SURFACE_PAD))
    wgs_offs, _ = region_offsets(sizes["wgs"])
    wmb_offs, _ = region_offsets(sizes["wmb"])
    data_off = 0
    for t, seg in enumerate(p.segments):
        wgs = np.frombuffer(surfaces["wgs"], "<u4", len(seg.groups), wgs_offs[t])
        bits = np.unpackbits(np.frombuffer(surfaces["wmb"], np.uint8,
                                           ceil_div(seg.nelems, 8), wmb_offs[t]),
                             bitorder="little")[:seg.nelems]
        data_off = roundup(data_off, SET_ALIGN)
        pos = data_off
        for (g0, gn), gbytes in zip(seg.groups, wgs):
            gb = bits[g0:g0 + gn]
            assert int(gb.sum()) * esize == int(gbytes), "WGS disagrees with WMB"
            for e in np.nonzero(gb)[0]:
                o = seg.offset + (g0 + int(e)) * esize
                out[o:o + esize] = surfaces["data"][pos:pos + esize]
                pos += esize
        data_off += roundup(pos - data_off, SURFACE_PAD)
    return bytes(out)


# ---------------------------------------------------------------------------
# The loop-nest packer (the second implementation)
# ---------------------------------------------------------------------------

def _loops_direct(cube: np.ndarray, kpg: int, atomic_c: int) -> List[np.ndarray]:
    K, C, R, S = cube.shape
    parts = []
    for g0 in range(0, K, kpg):
        ks = slice(g0, min(K, g0 + kpg))
        for c0 in range(0, C, atomic_c):
            cs = slice(c0, min(C, c0 + atomic_c))
            for r in range(R):
                for s in range(S):
                    parts.append(cube[ks, cs, r, s].reshape(-1))   # k, then c
    return parts


def _loops_post_extension(cube: np.ndarray, kpg: int, f: int) -> List[np.ndarray]:
    K, C, R, S = cube.shape
    parts = []
    for g0 in range(0, K, kpg):
        for r0 in range(0, R, f):
            for s in range(S):
                for k in range(g0, min(K, g0 + kpg)):
                    for r in range(r0, min(R, r0 + f)):
                        parts.append(cube[k, :, r, s])
    return parts


def pre_extend(w: np.ndarray, cp: int) -> np.ndarray:
    """Image pre-extension: K x C x R x S -> K x (S*Cp) x R x 1, c' = s*Cp + c."""
    K, C, R, S = w.shape
    out = np.zeros((K, S * cp, R, 1), w.dtype)
    for s in range(S):
        out[:, s * cp:s * cp + C, :, 0] = w[:, :, :, s]
    return out


def winograd_loops_values(w: np.ndarray, p: Plan) -> np.ndarray:
    """Extension by slicing, then a batched float32 matmul G @ g @ G^T."""
    K, C, R, S = w.shape
    st = p.stride[0]
    padded = np.zeros((K, p.cp, 3 * st, 3 * st), np.float32)
    padded[:, :C, :R, :S] = w
    ext = np.zeros((K, p.cx, 3, 3), np.float32)
    for dy in range(st):
        for dx in range(st):
            d = dy * st + dx
            ext[:, d * p.cp:(d + 1) * p.cp] = padded[:, :, dy::st, dx::st]
    t = np.matmul(np.matmul(G, ext), G.T).astype(np.float32)
    return convert_winograd(t, p.enc.precision, p.enc.rounding)


def _compress_loops(stream: np.ndarray, groups, elt: str) -> Dict[str, bytes]:
    eb = element_bytes(stream, elt)
    esize = eb.shape[1]
    wmb = bytearray()
    bitbuf, nbits = 0, 0
    data = bytearray()
    wgs = bytearray()
    for g0, gn in groups:
        count = 0
        for e in range(g0, g0 + gn):
            el = bytes(eb[e])
            bit = 1 if any(el) else 0
            bitbuf |= bit << nbits
            nbits += 1
            if nbits == 8:
                wmb.append(bitbuf)
                bitbuf, nbits = 0, 0
            if bit:
                data += el
                count += esize
        wgs += count.to_bytes(4, "little")
    if nbits:
        wmb.append(bitbuf)
    return {n: bytes(b) + bytes(roundup(len(b), SURFACE_PAD) - len(b))
            for n, b in (("wgs", wgs), ("wmb", wmb), ("data", data))}


def pack_loops(w, enc, elt) -> Dict[str, bytes]:
    """The second implementation: loop nests, like a packer would write it."""
    w = np.asarray(w)
    p = plan(enc, w.shape, elt)
    w = _check_data(w, p)
    fmt = p.enc.format
    seg_values: List[np.ndarray] = []
    if fmt == "direct":
        seg_values.append(np.concatenate(_loops_direct(w, p.kpg, p.atomic_c)))
    elif fmt == "image":
        x = pre_extend(w, p.cp)
        parts = (_loops_post_extension(x, p.kpg, p.factor) if p.factor else
                 _loops_direct(x, p.kpg, p.atomic_c))
        seg_values.append(np.concatenate(parts))
    elif fmt == "winograd":
        t = winograd_loops_values(w, p)
        parts = []
        K = p.shape[0]
        for g0 in range(0, K, p.kpg):
            for c0 in range(0, p.cx, 4):
                for k in range(g0, min(K, g0 + p.kpg)):
                    parts.append(t[k, c0:c0 + 4].transpose(1, 2, 0).reshape(-1))
        seg_values.append(np.concatenate(parts))
    else:
        K, C, R, S = w.shape
        sy, sx = p.stride
        rs, ss = p.sets
        for y in range(sy):
            for x in range(sx):
                st = np.zeros((K, C, rs, ss), w.dtype)
                for r in range(rs):
                    for s in range(ss):
                        if y + r * sy < R and x + s * sx < S:
                            st[:, :, r, s] = w[:, :, y + r * sy, x + s * sx]
                rot = st[:, :, ::-1, ::-1]
                seg_values.append(np.concatenate(_loops_direct(rot, p.kpg, p.atomic_c)))
    if not p.enc.compressed:
        out = bytearray()
        for seg, v in zip(p.segments, seg_values):
            out += bytes(seg.offset - len(out))
            b = element_bytes(v, elt).tobytes()
            out += b + bytes(seg.nbytes - len(b))
        assert len(out) == p.size
        return {"weights": bytes(out)}
    result = {n: bytearray() for n in SURFACES}
    for seg, v in zip(p.segments, seg_values):
        c = _compress_loops(v, seg.groups, elt)
        for n in SURFACES:
            result[n] += bytes(roundup(len(result[n]), SET_ALIGN) - len(result[n]))
            result[n] += c[n]
    return {n: bytes(b) for n, b in result.items()}


# ---------------------------------------------------------------------------
# Describing a byte (for the checker's reports)
# ---------------------------------------------------------------------------

def _idx(*v) -> str:
    return "(" + ",".join(str(int(x)) for x in v) + ")"


def describe_source(p: Plan, seg_no: int, q: int) -> str:
    """What stream element q of segment seg_no holds."""
    src = positions(p, seg_no, np.array([q]))
    k, c, r, s, ok = (int(src.k[0]), int(src.c[0]), int(src.r[0]), int(src.s[0]),
                      bool(src.valid[0]))
    seg = p.segments[seg_no]
    K, C, R, S = p.shape
    where = f"stream element {q}"
    if seg.set_yx is not None:
        where = f"deconv set {seg.set_yx} " + where
    if p.enc.format == "winograd":
        st, cp = p.stride[0], p.cp
        d, cc = divmod(c, cp)
        dy, dx = divmod(d, st)
        what = (f"Winograd T{_idx(k, c, r, s)} = (G g G^T)[{r},{s}] of g = W[{k}, {cc}, "
                f"{dy}::{st}, {dx}::{st}]" if cc < C else
                f"Winograd T{_idx(k, c, r, s)}: zero (padded channel {cc} >= C = {C})")
        return f"{where}: {what}"
    if ok:
        return f"{where}: {_idx(k, c, r, s)}"
    if p.enc.format == "image":
        return f"{where}: zero (channel {c} of {_idx(k, c, r, s)} padded, C = {C})"
    return f"{where}: zero (tap {_idx(k, c, r, s)} outside the {R}x{S} kernel)"


def describe_byte(p: Plan, offset: int) -> Tuple[str, Optional[Tuple[int, int]]]:
    """Uncompressed blob byte -> (description, (segment, stream element) or None)."""
    for t, seg in enumerate(p.segments):
        if seg.offset <= offset < seg.offset + seg.nelems * p.esize:
            q, b = divmod(offset - seg.offset, p.esize)
            return describe_source(p, t, q) + f" byte {b}", (t, q)
        if seg.offset <= offset < seg.offset + seg.nbytes:
            return "padding (end of stream)", None
    return "padding (gap before a 256-byte aligned set)", None


# ---------------------------------------------------------------------------
# Test data
# ---------------------------------------------------------------------------

def iota(shape, elt: str) -> np.ndarray:
    return nv.iota(shape, elt)


def _f16_safe_values(rng, n: int, winograd_safe: bool) -> np.ndarray:
    """Non-zero fp16 values.  Winograd-safe ones (|v| in [2, 2048), so a step
    of at least 2**-9) keep G g G^T exact in fp32: the order of the fp32
    operations cannot matter.  Otherwise any finite fp16 value (subnormals
    included) except the largest."""
    sign = rng.integers(0, 2, n).astype(np.uint16) << 15
    man = rng.integers(0, 1024, n).astype(np.uint16)
    if winograd_safe:
        exp = rng.integers(16, 26, n).astype(np.uint16)       # 2**1 .. 2**10
    else:
        exp = rng.integers(0, 31, n).astype(np.uint16)        # no inf / NaN
        man = np.where((exp == 30) & (man == 1023), 1022, man).astype(np.uint16)
        man = np.where((exp == 0) & (man == 0), 1, man).astype(np.uint16)
    return (sign | (exp << 10) | man).view(np.float16)


def _f32_tie_values(rng, n: int, winograd_safe: bool) -> np.ndarray:
    """f32 values for arith.truncf: fp16 values, exact halfway points between
    an fp16 value and its neighbour away from zero, one f32 ulp either side
    of such a point, and other values of the same binade."""
    base = _f16_safe_values(rng, n, winograd_safe)
    nxt = (base.view(np.uint16) + np.uint16(1)).view(np.float16)  # away from zero
    mid = ((base.astype(np.float64) + nxt.astype(np.float64)) / 2).astype(np.float32)
    m = mid.view(np.uint32)
    kind = rng.integers(0, 5, n)
    out = np.where(kind == 0, base.astype(np.float32), mid)
    out = np.where(kind == 2, (m + np.uint32(1)).view(np.float32), out)
    out = np.where(kind == 3, (m - np.uint32(1)).view(np.float32), out)
    # anything between base and nxt
    frac = rng.random(n)
    between = (base.astype(np.float64) * (1 - frac) + nxt.astype(np.float64) * frac)
    out = np.where(kind == 4, between.astype(np.float32), out)
    return out.astype(np.float32)


def random_sparse(shape, elt: str, rng, winograd_safe: bool = True) -> np.ndarray:
    """Random data with many zeros: a random density, sometimes whole zero
    kernels / channels (empty kernel groups: WGS 0); -0.0 among the fp16
    values (stored as 0x8000: not a zero for the compression)."""
    shape = tuple(shape)
    n = math.prod(shape)
    density = float(rng.uniform(0.15, 0.8))
    dt = nv.element_dtype(elt)
    if dt.kind == "i":
        bits = dt.itemsize * 8
        v = rng.integers(-(1 << (bits - 1)), 1 << (bits - 1), n)
        v = np.where(v == 0, 1, v).astype(dt)
    elif elt == "f16":
        v = _f16_safe_values(rng, n, winograd_safe)
        v = np.where(v == 0, np.float16(3), v).astype(np.float16)
    elif elt == "f32":
        v = _f32_tie_values(rng, n, winograd_safe)
        v = np.where(v == 0, np.float32(5), v).astype(np.float32)
    else:
        raise ValueError(f"no random weights of type {elt}")
    keep = rng.random(n) < density
    out = np.where(keep, v, np.zeros((), dt)).astype(dt).reshape(shape)
    if len(shape) == 4 and shape[0] > 2 and rng.random() < 0.4:
        K = shape[0]
        k0 = int(rng.integers(0, K))
        out[k0:k0 + int(rng.integers(1, max(2, K // 2)))] = 0   # zero kernels
    if len(shape) == 4 and shape[1] > 2 and rng.random() < 0.3:
        C = shape[1]
        c0 = int(rng.integers(0, C))
        out[:, c0:c0 + int(rng.integers(1, max(2, C // 3)))] = 0  # zero channels
    if elt == "f16" and n > 3 and rng.random() < 0.5:
        out.reshape(-1)[int(rng.integers(0, n))] = np.float16(-0.0)
    if not np.any(out.reshape(-1).view(np.uint8)):
        out.reshape(-1)[0] = v[0] if v[0] != 0 else 1
    return out


DATA_KINDS = ("iota", "random-sparse")


def make_data(kind: str, shape, elt: str, seed: int, winograd_safe: bool = True):
    if kind == "iota":
        return iota(shape, elt)
    if kind == "random-sparse":
        return random_sparse(shape, elt, np.random.default_rng(seed), winograd_safe)
    raise ValueError(f"unknown data kind '{kind}'")


# ---------------------------------------------------------------------------
# Random configurations (for gen_module.py --random-weights)
# ---------------------------------------------------------------------------

def _pick(rng, seq):
    return seq[int(rng.integers(0, len(seq)))]


def _around(rng, unit: int, lo: int = 1, hi: int = 3) -> int:
    """A count near a multiple of unit (one less, equal, one more) or random."""
    if rng.random() < 0.6:
        return max(1, unit * int(rng.integers(lo, hi)) + int(rng.integers(-1, 2)))
    return int(rng.integers(1, unit * 2 + 3))


def random_case(rng, max_bytes: int = 65536):
    """(encoding, shape) for one random case over all formats, precisions,
    configs and flags; the uncompressed size is at most max_bytes."""
    for _ in range(200):
        fmt = _pick(rng, FORMATS)
        prec = _pick(rng, PRECISIONS)
        esize = PRECISION_BYTES[prec]
        config = None if rng.random() < 0.25 else _pick(rng, tuple(CONFIGS))
        cfg = CONFIGS[config or DEFAULT_CONFIG]
        if not cfg.full and (prec != "int8" or fmt == "winograd"):
            continue           # an encoding the configuration cannot run
        kpg = cfg.atomic_k if esize == 1 else cfg.atomic_k // 2
        kw: Dict[str, object] = {"compressed": cfg.full and bool(rng.random() < 0.4),
                                 "config": config}
        K = _around(rng, kpg)
        if fmt == "direct":
            C = _around(rng, cfg.atomic_c)
            R, S = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        elif fmt == "image":
            C = int(rng.integers(1, 5))
            kw["channels"] = int(_pick(rng, [c for c in (1, 3, 4) if c >= C]))
            cp = kw["channels"]
            R, S = int(rng.integers(1, 8)), int(rng.integers(1, 8))
            r = rng.random()
            if r < 0.3:
                kw["post_extension"] = "auto"
            elif r < 0.65:
                f = int(_pick(rng, [2, 4]))
                smax = cfg.atomic_c // (f * cp)
                if smax < 1:
                    f = 2
                    smax = cfg.atomic_c // (f * cp)
                if smax >= 1:
                    S = int(rng.integers(1, min(smax, 7) + 1))
                    kw["post_extension"] = f
            if rng.random() < 0.6:
                sx = int(rng.integers(1, 4))
                kw["stride"] = (sx,) if rng.random() < 0.8 else (int(rng.integers(1, 4)), sx)
        elif fmt == "winograd":
            st = int(_pick(rng, [1, 1, 1, 2, 3]))
            R = int(rng.integers(2 * st + 1, 3 * st + 1))
            S = int(rng.integers(2 * st + 1, 3 * st + 1))
            C = _around(rng, 32 // esize) if st == 1 else int(rng.integers(1, 20))
            if st > 1 or rng.random() < 0.3:
                kw["stride"] = (st,)
            if prec == "fp16" and rng.random() < 0.6:
                kw["rounding"] = _pick(rng, ROUNDINGS)
            K = _around(rng, WINOGRAD_KPG[esize])
        else:
            sy, sx = int(rng.integers(1, 4)), int(rng.integers(1, 4))
            R, S = int(rng.integers(sy, 8)), int(rng.integers(sx, 8))
            if rng.random() < 0.15:            # sets with no tap at all
                R, S = int(rng.integers(1, sy + 1)), int(rng.integers(1, sx + 1))
            C = _around(rng, cfg.atomic_c) if rng.random() < 0.5 else int(rng.integers(1, 20))
            if (sy, sx) != (1, 1) or rng.random() < 0.5:
                kw["stride"] = (sy, sx) if rng.random() < 0.85 or sy != sx else (sy,)
        if prec == "fp16" and fmt != "winograd" and rng.random() < 0.15:
            kw["rounding"] = _pick(rng, ROUNDINGS)     # no effect: nothing converts
        enc = WeightEncoding(fmt, prec, **kw)
        shape = (K, C, R, S)
        try:
            p = plan(enc, shape, PRECISION_ELT[prec])
        except ValueError:
            continue
        if p.size <= max_bytes:
            return enc, shape
    return WeightEncoding("direct", "int8"), (4, 4, 1, 1)
