"""Independent Python reference for the NVDLA activation and auxiliary formats.

Written from /work/shared/spec/nvdla/format.rst (sections Feature Data
Format, Pixel Format, Bias / PReLU / Batch Normalization / Element-Wise Data
Format, BytesPerAtom, Alignment), its figures, the "Facts from NVIDIA's
compiler" of /work/shared/spec/README.md and the project's spelling of the
encodings.  It does not use or read the C++ code.

Encodings (logical shapes, then the storage rules)
--------------------------------------------------
``#dla.feature<P[, line_stride = L, surface_stride = S, batch_stride = B]>``
    tensor<N x C x H x W x T>, P in int8 (i8), int16 (i16), fp16 (f16).  A
    32-byte atom holds EPA = 32 (int8) or 16 (int16/fp16) channels.  Element
    (n, c, h, w) is at byte
    ``n*B + (c // EPA)*S + h*L + w*32 + (c % EPA)*esize``.
    Defaults: L = W*32, S = H*L, B = ceil(C/EPA)*S.  Size N*B.
    ``config = nv_small`` (every NVDLA encoding here takes it): the atom is
    nv_small's MEMORY_ATOMIC_SIZE of 8 bytes instead of 32, everywhere 32
    appears in these rules (EPA 8 or 4; strides and sizes 8-byte aligned).

``#dla.pixel<FMT[, line_stride = L, x_offset = X, uv_line_stride = U, uv_offset = O]>``
    tensor<1 x C x H x W x T>, a pitch-linear image.  Logical channels are
    R,G,B,(A|X) for RGB formats, Y,U,V,(A) for YUV formats, R for T_R*.
    Names are read most significant component first in a little-endian
    word.  Plane 0 pixel (h, w) is at ``h*L + (X + w)*bpp``.  Semi-planar
    (``___``) formats: plane 0 is Y, plane 1 holds the two chroma components
    of each pixel, at ``O + h*U + (X + w)*2*bpe``.  Defaults
    L = roundup((W + X)*bpp, 32), U = roundup((W + X)*2*bpe, 32),
    O = roundup(H*L, 32).  Size: H*L for one plane, O + H*U for two (the end
    of the last plane's last line, line padding included).

``#dla.bias<per_layer|per_channel|per_element, P[, data_size = one_byte|two_byte, strides]>``,
``#dla.prelu<P[, data_size]>`` (per channel), ``#dla.batchnorm<per_layer|per_channel, P[, data_size]>``,
``#dla.eltwise<P[, components = 1|2, data_size, strides]>`` (per element)
    BytesPerAtom BPA = EPA * components * bytes-per-component.  Components:
    bias 1, prelu 1, batchnorm 2 (add, mul), eltwise 1 or 2 (ALU, MUL).
    data_size defaults to the precision's width; a 1-byte element stored
    in two bytes is sign-extended.
    per_layer:   shape [] (bias) or [2] (batchnorm): the register image,
                 the components only, no padding.
    per_channel: shape [C] or [C, 2] (batchnorm): channel after channel,
                 components interleaved, zero-padded to a whole last atom.
    per_element: shape [C, H, W] or [N, C, H, W] (+ [2] for 2 components):
                 the feature-data ordering with BPA-byte atoms:
                 ``n*B + (c // EPA)*S + h*L + w*BPA + (c % EPA)*comps*bpc + k*bpc``,
                 L = roundup(W*BPA, 32), S = roundup(H*L, 32),
                 B = ceil(C/EPA)*S.  Size N*B, rounded up to 32 bytes for
                 element-wise data.

Everything not written is zero.

Two implementations must agree: ``pack_bruteforce`` (a loop over every
logical element and component, using the offset formulas above, see
``placements``) and ``pack`` (numpy: pad, reshape, transpose, then copy
whole lines into a strided view of the output).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field, replace
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

import chunked_ref

# ---------------------------------------------------------------------------
# Element types and test data
# ---------------------------------------------------------------------------

# chunked_ref's types plus the unsigned integer types used for pixels.
ELEMENT_TYPES: Dict[str, str] = dict(chunked_ref.ELEMENT_TYPES,
                                     ui8="<u1", ui16="<u2", ui32="<u4", ui64="<u8")


def element_dtype(elt: str) -> np.dtype:
    try:
        return np.dtype(ELEMENT_TYPES[elt])
    except KeyError:
        raise ValueError(f"unsupported element type '{elt}'") from None


def iota(shape: Sequence[int], elt: str) -> np.ndarray:
    """Element k (row-major) holds k wrapped to the type (as chunked_ref.iota;
    unsigned integers: k mod 2**bits)."""
    dt = element_dtype(elt)
    if dt.kind != "u":
        return chunked_ref.iota(shape, elt)
    n = math.prod(shape)
    k = np.arange(n, dtype=np.uint64)
    bits = dt.itemsize * 8
    if bits < 64:
        k = k % np.uint64(1 << bits)
    return k.astype(dt.newbyteorder("=")).reshape(tuple(shape))


def to_le_bytes(a: np.ndarray, elt: str) -> bytes:
    return np.ascontiguousarray(a).astype(element_dtype(elt)).tobytes()


def roundup(x: int, m: int) -> int:
    return -(-x // m) * m


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# ---------------------------------------------------------------------------
# Precisions
# ---------------------------------------------------------------------------

PRECISIONS = ("int8", "int16", "fp16")
# Feature data: channels per 32-byte atom; SDP aux data: ElementPerAtom.
ELEMENTS_PER_ATOM = {"int8": 32, "int16": 16, "fp16": 16}
# Natural width in bytes (the default DATA_SIZE).
PRECISION_BYTES = {"int8": 1, "int16": 2, "fp16": 2}
FEATURE_ELT = {"int8": "i8", "int16": "i16", "fp16": "f16"}
DATA_SIZES = {"one_byte": 1, "two_byte": 2}
ATOM = 32  # the format document's memory atom, bytes
# MEMORY_ATOMIC_SIZE of nvdla/hw's spec/defs/*.spec: the atom feature, pixel
# and auxiliary data are cut into and aligned to ("config = nv_small").
MEMORY_ATOM = {None: 32, "nv_full": 32, "nv_large": 32, "nv_small": 8}

# ---------------------------------------------------------------------------
# The pixel-format table of format.rst, transcribed row by row:
# (name, number of planes, valid channel size, input precision, max x offset)
# The x offset range is 0..max.
# ---------------------------------------------------------------------------

PIXEL_TABLE: Tuple[Tuple[str, int, int, str, int], ...] = (
    ("T_R8", 1, 1, "int8", 31),
    ("T_R10", 1, 1, "int16", 15),
    ("T_R12", 1, 1, "int16", 15),
    ("T_R16", 1, 1, "int16", 15),
    ("T_R16_I", 1, 1, "int16", 15),
    ("T_R16_F", 1, 1, "int16", 15),     # erratum 5: treated as fp16, see below
    ("T_A16B16G16R16", 1, 4, "int16", 3),
    ("T_X16B16G16R16", 1, 4, "int16", 3),
    ("T_A16B16G16R16_F", 1, 4, "fp16", 3),
    ("T_A16Y16U16V16", 1, 4, "int16", 3),
    ("T_V16U16Y16A16", 1, 4, "int16", 3),
    ("T_A16Y16U16V16_F", 1, 4, "fp16", 3),
    ("T_A8B8G8R8", 1, 4, "int8", 7),
    ("T_A8R8G8B8", 1, 4, "int8", 7),
    ("T_B8G8R8A8", 1, 4, "int8", 7),
    ("T_R8G8B8A8", 1, 4, "int8", 7),
    ("T_X8B8G8R8", 1, 4, "int8", 7),
    ("T_X8R8G8B8", 1, 4, "int8", 7),
    ("T_B8G8R8X8", 1, 4, "int8", 7),
    ("T_R8G8B8X8", 1, 4, "int8", 7),
    ("T_A2B10G10R10", 1, 4, "int16", 7),
    ("T_A2R10G10B10", 1, 4, "int16", 7),
    ("T_B10G10R10A2", 1, 4, "int16", 7),
    ("T_R10G10B10A2", 1, 4, "int16", 7),
    ("T_A2Y10U10V10", 1, 4, "int16", 7),
    ("T_V10U10Y10A2", 1, 4, "int16", 7),
    ("T_A8Y8U8V8", 1, 4, "int8", 7),
    ("T_V8U8Y8A8", 1, 4, "int8", 7),
    ("T_Y8___U8V8_N444", 2, 3, "int8", 31),
    ("T_Y8___V8U8_N444", 2, 3, "int8", 31),
    ("T_Y10___U10V10_N444", 2, 3, "int16", 15),
    ("T_Y10___V10U10_N444", 2, 3, "int16", 15),
    ("T_Y12___U12V12_N444", 2, 3, "int16", 15),
    ("T_Y12___V12U12_N444", 2, 3, "int16", 15),
    ("T_Y16___U16V16_N444", 2, 3, "int16", 15),
    ("T_Y16___V16U16_N444", 2, 3, "int16", 15),
)

# Erratum 5: the table lists T_R16_F with int16; NVIDIA's compiler treats it
# as fp16 and so does this reference (f16 elements).  The bytes are the same
# 16 bits either way.
PIXEL_PRECISION_OVERRIDE = {"T_R16_F": "fp16"}


@dataclass(frozen=True)
class Field:
    channel: int   # logical channel (index into the C dimension)
    lo: int        # lowest bit inside the plane's little-endian pixel word
    width: int     # bits


@dataclass(frozen=True)
class Plane:
    bytes_per_pixel: int
    fields: Tuple[Field, ...]
    bit_packed: bool   # fields are not whole bytes (A2B10G10R10 family)


@dataclass(frozen=True)
class PixelFormat:
    name: str
    planes: Tuple[Plane, ...]
    channels: int
    channel_names: Tuple[str, ...]
    precision: str
    x_offset_max: int
    container_bytes: int   # bytes of one component container (8- or 16-bit)


def _components(text: str) -> List[Tuple[str, int]]:
    comps = re.findall(r"([RGBAXYUV])(\d+)", text)
    if "".join(c + w for c, w in comps) != text:
        raise ValueError(f"cannot read components of '{text}'")
    return [(c, int(w)) for c, w in comps]


def _pixel_format(name: str, planes: int, channels: int, precision: str,
                  xmax: int) -> PixelFormat:
    """Derive the component placement from the name (MSB first)."""
    precision = PIXEL_PRECISION_OVERRIDE.get(name, precision)
    body = name[2:]
    for suffix in ("_N444", "_F", "_I"):
        if body.endswith(suffix):
            body = body[:-len(suffix)]
    plane_texts = body.split("___")
    assert len(plane_texts) == planes, name
    comps = [_components(t) for t in plane_texts]
    letters = {c for pl in comps for c, _ in pl}
    if planes == 2 or "Y" in letters:
        order = ["Y", "U", "V", "A"]
    else:
        order = ["R", "G", "B", "A" if "A" in letters else "X"]
    order = order[:channels]
    assert letters == set(order), (name, letters, order)
    out_planes = []
    cbytes = 0
    for pl in comps:
        widths = {w for _, w in pl}
        packed = len(widths) > 1          # e.g. A2B10G10R10: one 32-bit word
        fields = []
        lo = 0
        for c, w in reversed(pl):         # the last-named component is lowest
            cw = w if packed else roundup(w, 8)   # 10/12-bit -> 16-bit container
            fields.append(Field(order.index(c), lo, cw))
            lo += cw
            if not packed:
                cbytes = cw // 8
        assert lo % 8 == 0, name
        out_planes.append(Plane(lo // 8, tuple(fields), packed))
    if cbytes == 0:                        # bit-packed formats: 16-bit elements
        cbytes = 2
    return PixelFormat(name, tuple(out_planes), channels, tuple(order), precision,
                       xmax, cbytes)


PIXEL_FORMATS: Dict[str, PixelFormat] = {
    row[0]: _pixel_format(*row) for row in PIXEL_TABLE}


def pixel_element_types(fmt: PixelFormat) -> Tuple[str, ...]:
    if fmt.precision == "fp16":
        return ("f16",)
    return ("ui8", "i8") if fmt.container_bytes == 1 else ("ui16", "i16")


# ---------------------------------------------------------------------------
# Encodings: parse and print
# ---------------------------------------------------------------------------

KINDS = ("feature", "pixel", "bias", "prelu", "batchnorm", "eltwise")
AUX_KINDS = ("bias", "prelu", "batchnorm", "eltwise")
MODES = ("per_layer", "per_channel", "per_element")
_INT_KEYS = ("line_stride", "surface_stride", "batch_stride", "x_offset",
             "uv_line_stride", "uv_offset", "components")
# Keyword parameters each kind accepts, in the order they are printed.
KEYS = {
    "feature": ("line_stride", "surface_stride", "batch_stride", "config"),
    "pixel": ("line_stride", "x_offset", "uv_line_stride", "uv_offset", "config"),
    "bias": ("data_size", "line_stride", "surface_stride", "batch_stride", "config"),
    "prelu": ("data_size", "config"),
    "batchnorm": ("data_size", "config"),
    "eltwise": ("components", "data_size", "line_stride", "surface_stride",
                "batch_stride", "config"),
}


@dataclass(frozen=True)
class Encoding:
    kind: str
    precision: Optional[str] = None      # all but pixel
    fmt: Optional[str] = None            # pixel
    mode: Optional[str] = None           # bias, batchnorm (prelu: per_channel,
                                         # eltwise: per_element)
    data_size: Optional[str] = None      # 'one_byte' / 'two_byte' / None
    components: Optional[int] = None     # eltwise (None = 1)
    line_stride: Optional[int] = None
    surface_stride: Optional[int] = None
    batch_stride: Optional[int] = None
    x_offset: Optional[int] = None
    uv_line_stride: Optional[int] = None
    uv_offset: Optional[int] = None
    config: Optional[str] = None         # None = nv_full

    @property
    def atom_bytes(self) -> int:
        """The configuration's memory atom."""
        return MEMORY_ATOM[self.config]

    @property
    def epa(self) -> int:
        """Elements per atom: the memory atom over the precision's width."""
        return self.atom_bytes // PRECISION_BYTES[self.precision]

    @property
    def is_aux(self) -> bool:
        return self.kind in AUX_KINDS

    @property
    def aux_mode(self) -> str:
        if self.kind == "prelu":
            return "per_channel"
        if self.kind == "eltwise":
            return "per_element"
        return self.mode

    @property
    def ncomponents(self) -> int:
        if self.kind == "batchnorm":
            return 2
        if self.kind == "eltwise":
            return self.components or 1
        return 1

    @property
    def bytes_per_component(self) -> int:
        if self.data_size is not None:
            return DATA_SIZES[self.data_size]
        return PRECISION_BYTES[self.precision]

    @property
    def bytes_per_atom(self) -> int:
        """BytesPerAtom = ElementPerAtom * ComponentsPerElement * BytesPerComponent."""
        return self.epa * self.ncomponents * self.bytes_per_component

    def text(self, spaces: bool = True) -> str:
        eq = " = " if spaces else "="
        if self.kind == "pixel":
            args = [self.fmt]
        elif self.kind in ("bias", "batchnorm"):
            args = [self.mode, self.precision]
        else:
            args = [self.precision]
        for k in KEYS[self.kind]:
            v = getattr(self, k)
            if v is not None:
                args.append(f"{k}{eq}{v}")
        return f"#dla.{self.kind}<" + ", ".join(args) + ">"


_ENC_RE = re.compile(r"\s*#dla\.(\w+)\s*<(.*)>\s*", re.S)


def is_nvdla_encoding(text: Optional[str]) -> bool:
    if text is None:
        return False
    m = re.match(r"\s*#dla\.(\w+)\s*<", text)
    return bool(m and m.group(1) in KINDS)


def parse_encoding(text: str) -> Encoding:
    """'#dla.feature<int8, line_stride = 64>' -> Encoding.  Raises ValueError."""
    m = _ENC_RE.fullmatch(text)
    if not m or m.group(1) not in KINDS:
        raise ValueError(f"not an NVDLA encoding: '{text}'")
    kind = m.group(1)
    parts = [p.strip() for p in m.group(2).split(",")] if m.group(2).strip() else []
    pos = [p for p in parts if "=" not in p]
    kw = [p for p in parts if "=" in p]
    if parts[:len(pos)] != pos:
        raise ValueError(f"positional parameter after a keyword in '{text}'")
    args: Dict[str, object] = {"kind": kind}
    if kind == "pixel":
        want = ["fmt"]
    elif kind in ("bias", "batchnorm"):
        want = ["mode", "precision"]
    else:
        want = ["precision"]
    if len(pos) != len(want):
        raise ValueError(f"#dla.{kind} takes {len(want)} positional parameter(s) "
                         f"({', '.join(want)}), got {len(pos)} in '{text}'")
    for k, v in zip(want, pos):
        args[k] = v
    for p in kw:
        k, v = (s.strip() for s in p.split("=", 1))
        if k not in KEYS[kind] or k in args:
            raise ValueError(f"unknown or duplicate parameter '{k}' in '{text}'")
        if k in _INT_KEYS:
            try:
                args[k] = int(v)
            except ValueError:
                raise ValueError(f"parameter {k} needs an integer, got '{v}'") from None
        else:
            args[k] = v
    enc = Encoding(**args)
    if enc.kind == "pixel":
        if enc.fmt not in PIXEL_FORMATS:
            raise ValueError(f"unknown pixel format '{enc.fmt}'")
    else:
        if enc.precision not in PRECISIONS:
            raise ValueError(f"unknown precision '{enc.precision}'")
    if enc.config is not None and enc.config not in MEMORY_ATOM:
        raise ValueError(f"unknown configuration '{enc.config}'")
    if enc.mode is not None and enc.mode not in MODES:
        raise ValueError(f"unknown mode '{enc.mode}'")
    if enc.data_size is not None and enc.data_size not in DATA_SIZES:
        raise ValueError(f"unknown data size '{enc.data_size}'")
    return enc


def resolve(enc) -> Encoding:
    return parse_encoding(enc) if isinstance(enc, str) else enc


# ---------------------------------------------------------------------------
# Layout geometry (with validation)
# ---------------------------------------------------------------------------

@dataclass
class Geometry:
    """Everything the offset formulas need, defaults resolved."""
    enc: Encoding
    shape: Tuple[int, ...]
    elt: str
    size: int                        # storage bytes
    # feature / per-element aux
    n: int = 1
    c: int = 1
    h: int = 1
    w: int = 1
    epa: int = 0
    atom: int = 0                    # bytes per atom
    line: int = 0
    surface: int = 0
    batch: int = 0
    comps: int = 1
    bpc: int = 0                     # stored bytes per component
    # pixel
    fmt: Optional[PixelFormat] = None
    x_offset: int = 0
    plane_start: Tuple[int, ...] = ()
    plane_line: Tuple[int, ...] = ()
    notes: List[str] = field(default_factory=list)

    def describe(self) -> str:
        e = self.enc
        if e.kind == "feature":
            return (f"feature {e.precision}: {self.epa} channels per {self.atom}-byte atom, "
                    f"line stride {self.line}, surface stride {self.surface}, batch "
                    f"stride {self.batch}, {self.size} bytes")
        if e.kind == "pixel":
            pl = ", ".join(f"plane {i} at {s} line stride {ls}" for i, (s, ls) in
                           enumerate(zip(self.plane_start, self.plane_line)))
            return f"pixel {e.fmt}: x offset {self.x_offset}, {pl}, {self.size} bytes"
        s = (f"{e.kind} {e.aux_mode} {e.precision}: {self.comps} component(s) of "
             f"{self.bpc} bytes, {self.atom} bytes per atom")
        if e.aux_mode == "per_element":
            s += (f", line stride {self.line}, surface stride {self.surface}, "
                  f"batch stride {self.batch}")
        return s + f", {self.size} bytes"


def _need(cond: bool, msg: str):
    if not cond:
        raise ValueError(msg)


def _check_stride(what: str, value: int, minimum: int, align: int = 32):
    _need(value >= 0, f"{what} must not be negative, got {value}")
    _need(value % align == 0, f"{what} {value} is not a multiple of {align} bytes")
    _need(value >= minimum, f"{what} {value} is smaller than the {minimum} bytes needed")


def geometry(enc, shape: Sequence[int], elt: str) -> Geometry:
    """Resolve defaults and validate; raises ValueError if the type is invalid."""
    enc = resolve(enc)
    shape = tuple(int(e) for e in shape)
    _need(all(e >= 0 for e in shape), f"negative extent in {shape}")
    element_dtype(elt)
    if enc.kind == "feature":
        return _feature_geometry(enc, shape, elt)
    if enc.kind == "pixel":
        return _pixel_geometry(enc, shape, elt)
    return _aux_geometry(enc, shape, elt)


def _feature_geometry(enc: Encoding, shape, elt) -> Geometry:
    _need(len(shape) == 4, f"feature data is rank-4 NCHW, got rank {len(shape)}")
    want = FEATURE_ELT[enc.precision]
    _need(elt == want, f"{enc.precision} feature data needs {want} elements, got {elt}")
    N, C, H, W = shape
    atom = enc.atom_bytes
    epa = enc.epa
    surfaces = ceil_div(C, epa)
    line = enc.line_stride if enc.line_stride is not None else W * atom
    _check_stride("line stride", line, W * atom, atom)
    surface = enc.surface_stride if enc.surface_stride is not None else H * line
    # A surface stride below H lines interleaves the surfaces line by line:
    # each line then holds every surface's line side by side (the C model
    # reads and writes a cube line by line at base + s * surface + h * line;
    # a 1x1 direct weight stream on nv_small is such a cube).
    interleaved = surface < H * line and H > 1 and surfaces > 1
    if interleaved:
        _check_stride("surface stride", surface, W * atom, atom)
        _need(line >= surfaces * surface,
              f"surface stride {surface} is below {H} lines of {line} bytes, and a line of "
              f"{line} bytes does not hold {surfaces} surfaces of {surface} bytes side by side")
    else:
        _check_stride("surface stride", surface, H * line, atom)
    packed_batch = H * line if interleaved else surfaces * surface
    batch = enc.batch_stride if enc.batch_stride is not None else packed_batch
    _check_stride("batch stride", batch, packed_batch, atom)
    return Geometry(enc, shape, elt, N * batch, N, C, H, W, epa, atom, line,
                    surface, batch, 1, element_dtype(elt).itemsize)


def _pixel_geometry(enc: Encoding, shape, elt) -> Geometry:
    fmt = PIXEL_FORMATS[enc.fmt]
    _need(len(shape) == 4, f"pixel data is rank-4 NCHW, got rank {len(shape)}")
    N, C, H, W = shape
    _need(N == 1, f"pixel data holds one image, N must be 1, got {N}")
    _need(C == fmt.channels, f"{fmt.name} has {fmt.channels} channels, got C = {C}")
    _need(elt in pixel_element_types(fmt),
          f"{fmt.name} needs {' or '.join(pixel_element_types(fmt))} elements, got {elt}")
    xo = enc.x_offset or 0
    _need(0 <= xo <= fmt.x_offset_max,
          f"x offset {xo} outside {fmt.name}'s range 0..{fmt.x_offset_max}")
    p0 = fmt.planes[0]
    a = MEMORY_ATOM[enc.config]
    line = enc.line_stride if enc.line_stride is not None else \
        roundup((W + xo) * p0.bytes_per_pixel, a)
    _check_stride("line stride", line, (W + xo) * p0.bytes_per_pixel, a)
    starts, lines = [0], [line]
    if len(fmt.planes) == 2:
        p1 = fmt.planes[1]
        uvl = enc.uv_line_stride if enc.uv_line_stride is not None else \
            roundup((W + xo) * p1.bytes_per_pixel, a)
        _check_stride("UV line stride", uvl, (W + xo) * p1.bytes_per_pixel, a)
        uvo = enc.uv_offset if enc.uv_offset is not None else roundup(H * line, a)
        _check_stride("UV plane offset", uvo, H * line, a)
        starts.append(uvo)
        lines.append(uvl)
    else:
        _need(enc.uv_line_stride is None and enc.uv_offset is None,
              f"{fmt.name} has one plane: no UV line stride or offset")
    size = starts[-1] + H * lines[-1]
    return Geometry(enc, shape, elt, size, N, C, H, W, fmt=fmt, x_offset=xo,
                    plane_start=tuple(starts), plane_line=tuple(lines))


def aux_shape_kind(enc: Encoding, shape) -> str:
    """Check the logical shape of aux data; returns the mode."""
    mode = enc.aux_mode
    comps = enc.ncomponents
    _need(mode in MODES, f"{enc.kind}: unknown mode {mode}")
    if enc.kind == "batchnorm":
        _need(mode != "per_element", "batch-norm data is per layer or per channel")
    if enc.kind == "eltwise":
        _need(comps in (1, 2), f"element-wise data has 1 or 2 components, got {comps}")
    tail = (2,) if comps == 2 else ()
    if mode == "per_layer":
        _need(shape == tail, f"per_layer {enc.kind} data needs shape {list(tail)}, got {shape}")
    elif mode == "per_channel":
        _need(len(shape) == 1 + len(tail) and shape[1:] == tail,
              f"per_channel {enc.kind} data needs shape [C{', 2' if tail else ''}], got {shape}")
    else:
        _need(len(shape) in (3 + len(tail), 4 + len(tail)) and
              shape[len(shape) - len(tail):] == tail,
              f"per_element {enc.kind} data needs [(N,) C, H, W{', 2' if tail else ''}], "
              f"got {shape}")
    return mode


def _aux_geometry(enc: Encoding, shape, elt) -> Geometry:
    mode = aux_shape_kind(enc, shape)
    esize = element_dtype(elt).itemsize
    bpc = enc.bytes_per_component
    if enc.precision == "fp16":
        _need(elt == "f16", f"fp16 {enc.kind} data needs f16 elements, got {elt}")
        _need(bpc == 2, "fp16 data needs the two_byte data size")
    else:
        _need(elt in ("i8", "i16"), f"{enc.precision} {enc.kind} data needs i8 or i16 "
              f"elements, got {elt}")
        _need(esize <= bpc, f"{esize}-byte elements do not fit the {bpc}-byte data size")
    if mode != "per_element":
        _need(enc.line_stride is None and enc.surface_stride is None and
              enc.batch_stride is None, "strides apply to per-element data only")
    comps = enc.ncomponents
    epa = enc.epa
    bpa = enc.bytes_per_atom
    a = enc.atom_bytes
    g = Geometry(enc, shape, elt, 0, epa=epa, atom=bpa, comps=comps, bpc=bpc)
    if mode == "per_layer":
        g.size = comps * bpc
    elif mode == "per_channel":
        g.c = shape[0]
        g.size = roundup(shape[0] * comps * bpc, bpa)
    else:
        dims = shape[:len(shape) - (1 if comps == 2 else 0)]
        if len(dims) == 3:
            dims = (1,) + tuple(dims)
        N, C, H, W = dims
        g.n, g.c, g.h, g.w = dims
        g.line = enc.line_stride if enc.line_stride is not None else roundup(W * bpa, a)
        _check_stride("line stride", g.line, W * bpa, a)
        g.surface = enc.surface_stride if enc.surface_stride is not None else \
            roundup(H * g.line, a)
        # The alignment table: bias line and surface strides 32 bytes,
        # element-wise line stride 32 bytes, surface stride "NA"; neither has
        # a planar/cube (batch) stride alignment.  Only minimums are checked
        # where the table says NA.
        _check_stride("surface stride", g.surface, H * g.line,
                      align=1 if enc.kind == "eltwise" else a)
        surfaces = ceil_div(C, epa)
        g.batch = enc.batch_stride if enc.batch_stride is not None else surfaces * g.surface
        _check_stride("batch stride", g.batch, surfaces * g.surface, align=1)
        g.size = N * g.batch
        if enc.kind == "eltwise":
            g.size = roundup(g.size, a)    # alignment of element-wise data size
    return g


def storage_size(enc, shape, elt) -> int:
    return geometry(enc, shape, elt).size


# ---------------------------------------------------------------------------
# Component values -> stored bytes
# ---------------------------------------------------------------------------

def stored_bytes(a: np.ndarray, elt: str, nbytes: int) -> np.ndarray:
    """Little-endian stored bytes of each element, shape a.shape + (nbytes,).

    A 1-byte integer stored in 2 bytes is sign-extended (zero-extended if it
    is unsigned); wider elements never shrink."""
    dt = element_dtype(elt)
    a = np.asarray(a).astype(dt)
    if nbytes == dt.itemsize:
        raw = a.astype(dt.newbyteorder("<"))
    elif dt.kind in "iu" and nbytes > dt.itemsize:
        wide = np.dtype(f"<{dt.kind}{nbytes}")
        raw = a.astype(wide)
    else:
        raise ValueError(f"cannot store {elt} in {nbytes} bytes")
    return raw.reshape(a.shape + (1,)).view(np.uint8).reshape(a.shape + (nbytes,))


def bit_pattern(a: np.ndarray, elt: str) -> np.ndarray:
    """The raw bits of each element as uint64 (f16: its IEEE pattern)."""
    dt = element_dtype(elt)
    a = np.asarray(a).astype(dt)
    u = a.view(np.dtype(f"u{dt.itemsize}"))
    return u.astype(np.uint64)


# ---------------------------------------------------------------------------
# Per-element placements (the brute force reference)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
    index: Tuple[int, ...]   # logical index
    offset: int              # first byte (pixel: first byte of the pixel word)
    nbytes: int              # bytes written (pixel: bytes of the pixel word)
    shift: int = 0           # bit-packed pixels: lowest bit inside the word
    width: int = 0           # bit-packed pixels: field width in bits (0: whole bytes)


def feature_offset(g: Geometry, n: int, c: int, h: int, w: int) -> int:
    """Byte offset of feature element (n, c, h, w): C' -> W -> H -> C -> N."""
    esize = g.bpc
    return (n * g.batch + (c // g.epa) * g.surface + h * g.line + w * g.atom +
            (c % g.epa) * esize)


def placements(enc, shape, elt) -> Iterator[Placement]:
    """Where each logical element goes, one loop iteration per element."""
    g = geometry(enc, shape, elt)
    e = g.enc
    shape = g.shape
    if e.kind == "feature":
        for idx in itertools.product(*map(range, shape)):
            yield Placement(idx, feature_offset(g, *idx), g.bpc)
    elif e.kind == "pixel":
        fmt = g.fmt
        _, C, H, W = shape
        for plane_no, plane in enumerate(fmt.planes):
            start, line = g.plane_start[plane_no], g.plane_line[plane_no]
            bpp = plane.bytes_per_pixel
            for h in range(H):
                for w in range(W):
                    base = start + h * line + (g.x_offset + w) * bpp
                    for f in plane.fields:
                        idx = (0, f.channel, h, w)
                        if plane.bit_packed:
                            yield Placement(idx, base, bpp, f.lo, f.width)
                        else:
                            yield Placement(idx, base + f.lo // 8, f.width // 8)
    else:
        mode = e.aux_mode
        comps, bpc, epa = g.comps, g.bpc, g.epa
        if mode == "per_layer":
            for k in range(comps):
                idx = (k,) if comps == 2 else ()   # batchnorm [2] / bias []
                yield Placement(idx, k * bpc, bpc)
        elif mode == "per_channel":
            for c in range(shape[0]):
                for k in range(comps):
                    idx = (c, k) if comps == 2 else (c,)
                    yield Placement(idx, (c * comps + k) * bpc, bpc)
        else:
            has_n = len(shape) - (1 if comps == 2 else 0) == 4
            for n, c, h, w in itertools.product(range(g.n), range(g.c), range(g.h),
                                                range(g.w)):
                for k in range(comps):
                    off = (n * g.batch + (c // epa) * g.surface + h * g.line +
                           w * g.atom + (c % epa) * comps * bpc + k * bpc)
                    idx = ((n,) if has_n else ()) + (c, h, w) + ((k,) if comps == 2 else ())
                    yield Placement(idx, off, bpc)


def pack_bruteforce(array, enc, elt) -> bytes:
    """Pack with one loop iteration per logical element (see placements)."""
    a = np.asarray(array)
    g = geometry(enc, a.shape, elt)
    out = bytearray(g.size)
    if g.enc.kind == "pixel":
        bits = bit_pattern(a, elt)
        for p in placements(g.enc, a.shape, elt):
            v = int(bits[p.index])
            if p.width:                       # bit field in a little-endian word
                word = int.from_bytes(out[p.offset:p.offset + p.nbytes], "little")
                word |= (v & ((1 << p.width) - 1)) << p.shift
                out[p.offset:p.offset + p.nbytes] = word.to_bytes(p.nbytes, "little")
            else:
                out[p.offset:p.offset + p.nbytes] = v.to_bytes(p.nbytes, "little")
        return bytes(out)
    for p in placements(g.enc, a.shape, elt):
        v = a[p.index]
        dt = element_dtype(elt)
        if dt.kind == "f":
            b = np.asarray(v, dtype=dt).astype(dt.newbyteorder("<")).tobytes()
        else:
            b = int(v).to_bytes(p.nbytes, "little", signed=True) if dt.kind == "i" \
                else int(v).to_bytes(p.nbytes, "little")
        assert len(b) == p.nbytes
        out[p.offset:p.offset + p.nbytes] = b
    return bytes(out)


# ---------------------------------------------------------------------------
# numpy packing
# ---------------------------------------------------------------------------

def _strided_view(buf: np.ndarray, offset: int, shape, strides) -> np.ndarray:
    """A writable view of byte buffer ``buf`` with byte strides."""
    return np.lib.stride_tricks.as_strided(buf[offset:], shape=tuple(shape),
                                           strides=tuple(strides), writeable=True)


def _atoms_to_lines(cube: np.ndarray, epa: int) -> np.ndarray:
    """(N, C, H, W, B) element bytes -> (N, S, H, W*epa*B) line bytes, C padded."""
    N, C, H, W, B = cube.shape
    S = ceil_div(C, epa)
    padded = np.zeros((N, S * epa, H, W, B), np.uint8)
    padded[:, :C] = cube
    t = padded.reshape(N, S, epa, H, W, B).transpose(0, 1, 3, 4, 2, 5)
    return t.reshape(N, S, H, W * epa * B)


def pack(array, enc, elt) -> bytes:
    """numpy packing (pad, reshape, transpose, copy lines into strided views)."""
    a = np.asarray(array)
    g = geometry(enc, a.shape, elt)
    e = g.enc
    out = np.zeros(g.size, np.uint8)
    if e.kind == "feature":
        lines = _atoms_to_lines(stored_bytes(a, elt, g.bpc), g.epa)
        N, S, H, L = lines.shape
        if lines.size:
            _strided_view(out, 0, lines.shape, (g.batch, g.surface, g.line, 1))[...] = lines
    elif e.kind == "pixel":
        bits = bit_pattern(a, elt)[0]           # (C, H, W)
        _, C, H, W = a.shape
        for pno, plane in enumerate(g.fmt.planes):
            bpp = plane.bytes_per_pixel
            if plane.bit_packed:
                word = np.zeros((H, W), np.uint64)
                for f in plane.fields:
                    word |= (bits[f.channel] & np.uint64((1 << f.width) - 1)) << \
                        np.uint64(f.lo)
                px = word.astype(f"<u{bpp}").reshape(H, W, 1).view(np.uint8)
            else:
                px = np.zeros((H, W, bpp), np.uint8)
                for f in plane.fields:
                    nb = f.width // 8
                    comp = bits[f.channel].astype(f"<u{nb}").reshape(H, W, 1).view(np.uint8)
                    px[:, :, f.lo // 8:f.lo // 8 + nb] = comp
            if px.size:
                start = g.plane_start[pno] + g.x_offset * bpp
                _strided_view(out, start, (H, W * bpp), (g.plane_line[pno], 1))[...] = \
                    px.reshape(H, W * bpp)
    else:
        mode = e.aux_mode
        sb = stored_bytes(a, elt, g.bpc)       # shape + (bpc,)
        if mode in ("per_layer", "per_channel"):
            flat = sb.reshape(-1)
            out[:flat.size] = flat
        else:
            comps = g.comps
            cube = sb.reshape(g.n, g.c, g.h, g.w, comps * g.bpc)
            lines = _atoms_to_lines(cube, g.epa)
            if lines.size:
                _strided_view(out, 0, lines.shape, (g.batch, g.surface, g.line, 1))[...] = lines
    return out.tobytes()


def byte_owners(enc, shape, elt) -> List[List[Tuple[Tuple[int, ...], str]]]:
    """For each storage byte, the logical elements (and which of their bytes or
    bits) the reference puts there; empty = padding."""
    g = geometry(enc, shape, elt)
    owners: List[List[Tuple[Tuple[int, ...], str]]] = [[] for _ in range(g.size)]
    for p in placements(g.enc, shape, elt):
        if p.width:
            for bit in range(p.shift, p.shift + p.width):
                b = p.offset + bit // 8
                lo = bit - p.shift
                lst = owners[b]
                if lst and lst[-1][0] == p.index:
                    continue
                hi = min(p.shift + p.width, (bit // 8 + 1) * 8) - p.shift - 1
                lst.append((p.index, f"bits {lo}..{hi}"))
        else:
            for k in range(p.nbytes):
                owners[p.offset + k].append((p.index, f"byte {k}"))
    return owners


def element_offsets(enc, shape, elt) -> Dict[Tuple[int, ...], int]:
    """Logical index -> byte offset of its first stored byte (whole-byte layouts)."""
    return {p.index: p.offset for p in placements(enc, shape, elt) if not p.width}


# ---------------------------------------------------------------------------
# Random configurations (for gen_module.py --random-nvdla)
# ---------------------------------------------------------------------------

def _maybe(rng, p: float) -> bool:
    return bool(rng.random() < p)


def random_feature(rng, max_bytes: int) -> Tuple[Encoding, Tuple[int, ...], str]:
    for _ in range(100):
        prec = PRECISIONS[int(rng.integers(0, 3))]
        kw = {}
        if _maybe(rng, 0.25):
            kw["config"] = "nv_small"
        atom = MEMORY_ATOM[kw.get("config")]
        epa = atom // PRECISION_BYTES[prec]
        N = int(rng.choice([1, 1, 1, 2, 3]))
        kindc = rng.integers(0, 3)
        C = int(rng.integers(1, 9) if kindc == 0 else
                max(1, epa * int(rng.integers(1, 3)) + int(rng.integers(-1, 2))) if kindc == 1
                else rng.integers(1, 2 * epa + 8))
        H = int(rng.integers(1, 6))
        W = int(rng.integers(1, 9))
        line, surf = W * atom, None
        if _maybe(rng, 0.4):
            line = W * atom + atom * int(rng.integers(0, 3))
            kw["line_stride"] = line
        surf = H * line
        if _maybe(rng, 0.4):
            surf = H * line + atom * int(rng.integers(0, 3))
            kw["surface_stride"] = surf
        batch = ceil_div(C, epa) * surf
        if _maybe(rng, 0.3):
            batch += atom * int(rng.integers(0, 3))
            kw["batch_stride"] = batch
        if N * batch > max_bytes:
            continue
        return Encoding("feature", precision=prec, **kw), (N, C, H, W), FEATURE_ELT[prec]
    return Encoding("feature", precision="int8"), (1, 3, 2, 2), "i8"


def random_pixel(rng, max_bytes: int, fmt_name: Optional[str] = None):
    for _ in range(100):
        name = fmt_name or PIXEL_TABLE[int(rng.integers(0, len(PIXEL_TABLE)))][0]
        fmt = PIXEL_FORMATS[name]
        if _maybe(rng, 0.25):     # big enough for iota to exceed 10 bits / 8-bit wrap
            H, W = int(rng.integers(4, 13)), int(rng.integers(40, 101))
        else:
            H, W = int(rng.integers(1, 7)), int(rng.integers(1, 21))
        kw = {}
        if _maybe(rng, 0.25):
            kw["config"] = "nv_small"
        a = MEMORY_ATOM[kw.get("config")]
        xo = 0
        if _maybe(rng, 0.7):
            xo = int(rng.integers(0, fmt.x_offset_max + 1))
            if _maybe(rng, 0.8):
                xo = int(rng.choice([0, fmt.x_offset_max, xo]))
            kw["x_offset"] = xo
        bpp0 = fmt.planes[0].bytes_per_pixel
        line = roundup((W + xo) * bpp0, a)
        if _maybe(rng, 0.35):
            line += a * int(rng.integers(0, 3))
            kw["line_stride"] = line
        if len(fmt.planes) == 2:
            uvl = roundup((W + xo) * fmt.planes[1].bytes_per_pixel, a)
            if _maybe(rng, 0.35):
                uvl += a * int(rng.integers(0, 3))
                kw["uv_line_stride"] = uvl
            if _maybe(rng, 0.35):
                kw["uv_offset"] = roundup(H * line, a) + a * int(rng.integers(0, 4))
        elts = pixel_element_types(fmt)
        elt = elts[int(rng.integers(0, len(elts)))]
        enc = Encoding("pixel", fmt=name, **kw)
        shape = (1, fmt.channels, H, W)
        if storage_size(enc, shape, elt) <= max_bytes:
            return enc, shape, elt
    raise RuntimeError("no pixel case fits")


def random_aux(rng, max_bytes: int):
    for _ in range(100):
        kind = AUX_KINDS[int(rng.integers(0, 4))]
        prec = PRECISIONS[int(rng.integers(0, 3))]
        kw: Dict[str, object] = {}
        if kind == "bias":
            kw["mode"] = MODES[int(rng.integers(0, 3))]
        elif kind == "batchnorm":
            kw["mode"] = MODES[int(rng.integers(0, 2))]
        elif kind == "eltwise":
            comps = int(rng.integers(1, 3))
            if comps == 2 or _maybe(rng, 0.3):
                kw["components"] = comps
        # data size and element type
        if prec == "fp16":
            elt = "f16"
            if _maybe(rng, 0.3):
                kw["data_size"] = "two_byte"
        else:
            ds = ["one_byte", "two_byte"][int(rng.integers(0, 2))]
            natural = "one_byte" if prec == "int8" else "two_byte"
            if ds != natural or _maybe(rng, 0.3):
                kw["data_size"] = ds
            elt = "i8" if ds == "one_byte" else ["i8", "i16"][int(rng.integers(0, 2))]
        if _maybe(rng, 0.25):
            kw["config"] = "nv_small"
        enc = Encoding(kind, precision=prec, **kw)
        mode = enc.aux_mode
        comps = enc.ncomponents
        tail = (2,) if comps == 2 else ()
        epa = enc.epa
        a = enc.atom_bytes
        if mode == "per_layer":
            shape = tail
        elif mode == "per_channel":
            cmax = 3 * epa if _maybe(rng, 0.7) else 300   # > 128: negative i8 iota
            shape = (int(rng.integers(1, cmax)),) + tail
        else:
            C = int(rng.integers(1, 2 * epa + 5))
            H, W = int(rng.integers(1, 5)), int(rng.integers(1, 6))
            dims = (C, H, W)
            if _maybe(rng, 0.4):
                dims = (int(rng.integers(1, 4)),) + dims
            shape = dims + tail
            bpa = enc.bytes_per_atom
            line = roundup(W * bpa, a)
            skw = {}
            if _maybe(rng, 0.3):
                line += a * int(rng.integers(0, 3))
                skw["line_stride"] = line
            surf = roundup(H * line, a)
            # the alignment table requires no element-wise surface stride and
            # no bias / element-wise batch stride alignment: sometimes use 8
            step_s = 8 if kind == "eltwise" and _maybe(rng, 0.3) else a
            if _maybe(rng, 0.3):
                surf += step_s * int(rng.integers(0, 3))
                skw["surface_stride"] = surf
            if len(dims) == 4 and _maybe(rng, 0.3):
                step_b = 8 if _maybe(rng, 0.3) else a
                skw["batch_stride"] = ceil_div(C, epa) * surf + step_b * int(rng.integers(0, 3))
            enc = replace(enc, **skw)
        if storage_size(enc, shape, elt) <= max_bytes:
            return enc, shape, elt
    raise RuntimeError("no aux case fits")


def random_case(rng, max_bytes: int = 65536):
    r = rng.random()
    if r < 0.3:
        return random_feature(rng, max_bytes)
    if r < 0.6:
        return random_pixel(rng, max_bytes)
    return random_aux(rng, max_bytes)
