"""Independent Python reference for the HTP ChunkedMemoryLayout.

Written from /work/shared/spec/htp/chunked-memory-layout.txt (plus errata 1
and 2 in /work/shared/spec/README.md) only; it does not look at the C++ code.

Semantics (the project's documented reading of the document)
------------------------------------------------------------
A chunked layout is a rank and a list of (dim, size) pairs, outermost first.
Read right to left, each pair takes the next more significant part ("digit")
of the index of its dimension:

* size > 0: a tile of ``size`` positions;
* size == 0: "all the rest", i.e. ceil(extent / T) positions where T is the
  product of all tile sizes of that dimension (wherever they appear).

Each dimension is padded up to a multiple of T (the padding holds zero) and
the storage is the dense row-major array whose axes are the pairs, in list
order.  Every dim appears exactly once with size 0.  A tile pair to the LEFT
of its dimension's size-0 pair follows the same right-to-left rule: it is
then more significant than the rest-pair.

Two independent implementations are provided and must agree:

* ``pack_bruteforce`` / ``offset``: for every logical index, peel the digits
  of each dimension right to left and accumulate the storage offset;
* ``pack_numpy``: pad, reshape every dimension into its digits, transpose
  into pair order, flatten.

``pack`` is ``pack_numpy``.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Iterable, Optional, Sequence, Tuple, Union

import numpy as np

Pair = Tuple[int, int]
Pairs = Tuple[Pair, ...]

# Rank-4 presets.  Dimension meaning for activations is NHWC
# (0 = batch, 1 = height, 2 = width, 3 = depth); for conv_weight it is
# (0 = filter height, 1 = filter width, 2 = input channels, 3 = output channels).
PRESETS: dict = {
    "flat": ((0, 0), (1, 0), (2, 0), (3, 0)),
    # The document's prose: ChunkedMemoryLayout<4, 0,0, 3,0, 1,0, 2,0> stores
    # NHWC-indexed data in N,C,H,W order.  (Its summary table row says
    # 0,0, 3,0, 2,0, 1,0 = N,C,W,H; we follow the prose.)
    "nchw": ((0, 0), (3, 0), (1, 0), (2, 0)),
    "depth32": ((0, 0), (1, 0), (3, 0), (2, 0), (2, 4), (3, 32)),
    "crouton": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 8), (2, 8), (3, 32)),
    "crouton4x1": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 8), (2, 2), (3, 32), (2, 4)),
    "crouton2x2": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 4), (2, 4), (3, 32), (1, 2), (2, 2)),
    "crouton2": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 8), (2, 2), (3, 32), (2, 2)),
    "conv_weight": ((3, 0), (2, 0), (0, 0), (1, 0), (2, 8), (3, 32), (2, 4)),
}

# MLIR element type -> little-endian numpy dtype.
ELEMENT_TYPES: dict = {
    "i8": "<i1",
    "i16": "<i2",
    "i32": "<i4",
    "i64": "<i8",
    "f16": "<f2",
    "f32": "<f4",
    "f64": "<f8",
}


# ---------------------------------------------------------------------------
# Layout description helpers
# ---------------------------------------------------------------------------

def layout_rank(pairs: Sequence[Pair]) -> int:
    """Rank implied by a pair list (number of size-0 pairs)."""
    return sum(1 for _, s in pairs if s == 0)


def resolve(layout: Union[str, Sequence[Pair]]) -> Pairs:
    """Preset name or pair list -> tuple of (dim, size) tuples."""
    if isinstance(layout, str):
        return parse_layout(layout)
    return tuple((int(d), int(s)) for d, s in layout)


def validate(pairs: Sequence[Pair], rank: Optional[int] = None) -> Pairs:
    """Check that ``pairs`` is a valid layout (of ``rank`` if given).

    Rules: every dim in [0, rank) appears exactly once with size 0, sizes are
    non-negative and no pair names a dim outside [0, rank).
    """
    pairs = resolve(pairs)
    if rank is None:
        rank = layout_rank(pairs)
    if rank < 1:
        raise ValueError("layout rank must be at least 1")
    rest_count = [0] * rank
    for d, s in pairs:
        if not 0 <= d < rank:
            raise ValueError(f"pair ({d},{s}) names dim {d} outside rank {rank}")
        if s < 0:
            raise ValueError(f"pair ({d},{s}) has a negative size")
        if s == 0:
            rest_count[d] += 1
    for d, n in enumerate(rest_count):
        if n != 1:
            raise ValueError(
                f"dim {d} has {n} size-0 pairs; exactly one is required")
    return pairs


def _check_shape(pairs: Pairs, shape: Sequence[int]) -> Tuple[int, ...]:
    shape = tuple(int(e) for e in shape)
    validate(pairs, len(shape))
    if any(e < 0 for e in shape):
        raise ValueError(f"negative extent in shape {shape}")
    return shape


def tile_products(pairs: Sequence[Pair], rank: int) -> Tuple[int, ...]:
    """T_d: product of the tile sizes (size > 0) of each dimension."""
    t = [1] * rank
    for d, s in pairs:
        if s > 0:
            t[d] *= s
    return tuple(t)


def rest_sizes(pairs: Sequence[Pair], shape: Sequence[int]) -> Tuple[int, ...]:
    """ceil(extent / T_d) for every dimension."""
    pairs = resolve(pairs)
    shape = _check_shape(pairs, shape)
    t = tile_products(pairs, len(shape))
    return tuple(-(-e // td) for e, td in zip(shape, t))


def padded_shape(pairs: Sequence[Pair], shape: Sequence[int]) -> Tuple[int, ...]:
    """Every extent padded up to a multiple of T_d."""
    pairs = resolve(pairs)
    t = tile_products(pairs, len(shape))
    return tuple(r * td for r, td in zip(rest_sizes(pairs, shape), t))


def storage_shape(pairs: Sequence[Pair], shape: Sequence[int]) -> Tuple[int, ...]:
    """Extent of each pair (size-0 pairs replaced by their rest size)."""
    pairs = resolve(pairs)
    rest = rest_sizes(pairs, shape)
    return tuple(s if s > 0 else rest[d] for d, s in pairs)


def storage_size(pairs: Sequence[Pair], shape: Sequence[int]) -> int:
    """Number of storage elements (including padding)."""
    return math.prod(storage_shape(pairs, shape))


# ---------------------------------------------------------------------------
# (a) Brute force: peel digits right to left, one index at a time
# ---------------------------------------------------------------------------

def offset(pairs: Union[str, Sequence[Pair]], shape: Sequence[int],
           index: Sequence[int]) -> int:
    """Storage offset (in elements) of logical ``index``.

    ``index`` may lie in the padded region (index < padded extent).
    """
    pairs = resolve(pairs)
    sizes = storage_shape(pairs, shape)
    remaining = [int(i) for i in index]
    if len(remaining) != len(shape):
        raise ValueError(f"index {tuple(index)} has wrong rank for {tuple(shape)}")
    if any(i < 0 for i in remaining):
        raise ValueError(f"negative index {tuple(index)}")
    off = 0
    stride = 1
    for p in range(len(pairs) - 1, -1, -1):  # right to left
        d = pairs[p][0]
        size = sizes[p]
        digit = remaining[d] % size
        remaining[d] //= size
        off += digit * stride
        stride *= size
    if any(remaining):
        raise ValueError(
            f"index {tuple(index)} is outside padded shape "
            f"{padded_shape(pairs, shape)}")
    return off


def index_at(pairs: Union[str, Sequence[Pair]], shape: Sequence[int],
             off: int) -> Optional[Tuple[int, ...]]:
    """Inverse of ``offset``: logical index stored at ``off``, or None for padding."""
    pairs = resolve(pairs)
    sizes = storage_shape(pairs, shape)
    total = math.prod(sizes)
    if not 0 <= off < total:
        raise ValueError(f"offset {off} outside storage [0, {total})")
    rank = len(shape)
    index = [0] * rank
    weight = [1] * rank
    rem = int(off)
    for p in range(len(pairs) - 1, -1, -1):  # right to left
        d = pairs[p][0]
        size = sizes[p]
        digit = rem % size
        rem //= size
        index[d] += digit * weight[d]
        weight[d] *= size
    if any(i >= e for i, e in zip(index, shape)):
        return None
    return tuple(index)


def pack_bruteforce(array, pairs: Union[str, Sequence[Pair]]) -> np.ndarray:
    """Reference (a): element-by-element scatter using ``offset``."""
    array = np.asarray(array)
    pairs = resolve(pairs)
    shape = _check_shape(pairs, array.shape)
    out = np.zeros(storage_size(pairs, shape), dtype=array.dtype)
    for idx in itertools.product(*(range(e) for e in shape)):
        out[offset(pairs, shape, idx)] = array[idx]
    return out


# ---------------------------------------------------------------------------
# (b) numpy: pad, split every dim into digits, transpose, flatten
# ---------------------------------------------------------------------------

def pack_numpy(array, pairs: Union[str, Sequence[Pair]]) -> np.ndarray:
    """Reference (b): pad, reshape each dim into its digits, transpose, ravel."""
    array = np.asarray(array)
    pairs = resolve(pairs)
    shape = _check_shape(pairs, array.shape)
    rank = len(shape)
    sizes = storage_shape(pairs, shape)
    padded = padded_shape(pairs, shape)
    a = np.pad(array, [(0, p - e) for e, p in zip(shape, padded)],
               mode="constant", constant_values=0)
    # Dimension d becomes the axes of its pairs, most significant (leftmost
    # pair) first; dims stay in order 0..rank-1.
    split_shape = []
    axis_of_pair = [None] * len(pairs)
    for d in range(rank):
        for p, (pd, _) in enumerate(pairs):
            if pd == d:
                axis_of_pair[p] = len(split_shape)
                split_shape.append(sizes[p])
    a = a.reshape(split_shape)
    a = a.transpose(axis_of_pair)
    return np.ascontiguousarray(a).reshape(-1)


def unpack(storage, pairs: Union[str, Sequence[Pair]], shape: Sequence[int]) -> np.ndarray:
    """Inverse of ``pack`` (drops the padding)."""
    storage = np.asarray(storage)
    pairs = resolve(pairs)
    shape = _check_shape(pairs, shape)
    rank = len(shape)
    sizes = storage_shape(pairs, shape)
    a = storage.reshape(sizes)
    # Axis order putting dims 0..rank-1 back, each with its digits msd first.
    order = [p for d in range(rank) for p, (pd, _) in enumerate(pairs) if pd == d]
    a = a.transpose(order).reshape(padded_shape(pairs, shape))
    return a[tuple(slice(0, e) for e in shape)]


pack = pack_numpy


def logical_map(pairs: Union[str, Sequence[Pair]], shape: Sequence[int]) -> np.ndarray:
    """For each storage offset, the row-major flat logical index stored there (-1 = padding)."""
    n = math.prod(shape)
    marks = np.arange(1, n + 1, dtype=np.int64).reshape(tuple(shape))
    return pack(marks, pairs) - 1


# ---------------------------------------------------------------------------
# Textual forms
# ---------------------------------------------------------------------------

_PAIR_RE = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def parse_layout(text: str) -> Pairs:
    """Parse ``crouton`` / ``[(0,0),(1,0)]`` / ``(0, 0), (1, 0)`` / ``0,0,1,0``."""
    t = text.strip()
    if t.startswith("#dla.chunked<") and t.endswith(">"):
        t = t[len("#dla.chunked<"):-1].strip()
    if t in PRESETS:
        return PRESETS[t]
    if re.fullmatch(r"[A-Za-z_][\w]*", t):
        raise ValueError(f"unknown chunked layout preset '{t}'")
    body = t
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    if "(" in body:
        pairs = _PAIR_RE.findall(body)
        leftover = _PAIR_RE.sub("", body).replace(",", "").strip()
        if leftover:
            raise ValueError(f"cannot parse chunked layout '{text}'")
        return tuple((int(d), int(s)) for d, s in pairs)
    nums = [x.strip() for x in body.split(",") if x.strip()]
    if len(nums) % 2 or not all(re.fullmatch(r"-?\d+", x) for x in nums):
        raise ValueError(f"cannot parse chunked layout '{text}'")
    return tuple((int(nums[i]), int(nums[i + 1])) for i in range(0, len(nums), 2))


def format_pairs(pairs: Sequence[Pair], spaces: bool = False) -> str:
    sep = ", " if spaces else ","
    return "[" + sep.join(f"({d}{sep}{s})" for d, s in pairs) + "]"


def preset_name(pairs: Sequence[Pair]) -> Optional[str]:
    pairs = resolve(pairs)
    for name, p in PRESETS.items():
        if p == pairs:
            return name
    return None


# ---------------------------------------------------------------------------
# Test data: iota and random layouts
# ---------------------------------------------------------------------------

def element_dtype(elt: str) -> np.dtype:
    try:
        return np.dtype(ELEMENT_TYPES[elt])
    except KeyError:
        raise ValueError(f"unsupported element type '{elt}'") from None


def iota(shape: Sequence[int], elt: str) -> np.ndarray:
    """Element k (row-major) holds k wrapped to the type.

    Integers: two's complement mod 2**bits.  Floats: float(k mod 2048), exact
    in f16.
    """
    dt = element_dtype(elt)
    n = math.prod(shape)
    k = np.arange(n, dtype=np.int64)
    if dt.kind == "i":
        bits = dt.itemsize * 8
        u = k % (1 << bits) if bits < 64 else k
        a = (u.astype(np.uint64)).astype(dt.newbyteorder("="))  # wraps
    else:
        a = (k % 2048).astype(dt.newbyteorder("="))
    return a.reshape(tuple(shape))


def to_le_bytes(a: np.ndarray, elt: str) -> bytes:
    return np.ascontiguousarray(a).astype(element_dtype(elt)).tobytes()


def random_pairs(rng, rank: int, max_tiles_per_dim: int = 3,
                 max_tile: int = 9) -> Pairs:
    """Random valid layout: one size-0 pair per dim plus 0..3 tiles (1..9) per dim,
    in a random order (tiles may land left of their rest pair)."""
    pairs = []
    for d in range(rank):
        pairs.append((d, 0))
        for _ in range(int(rng.integers(0, max_tiles_per_dim + 1))):
            pairs.append((d, int(rng.integers(1, max_tile + 1))))
    order = rng.permutation(len(pairs))
    return tuple(pairs[i] for i in order)
