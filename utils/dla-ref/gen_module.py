#!/usr/bin/env python3
"""Write an MLIR test module of iota constants relayouted to DLA encodings.

Each case is a function

  func.func @caseK() -> tensor<SHAPExTYPE, ENCODING> {
    %0 = arith.constant dense<...> : tensor<SHAPExTYPE>
    %1 = dla.relayout %0 : tensor<SHAPExTYPE> -> tensor<SHAPExTYPE, ENCODING>
    return %1 : tensor<SHAPExTYPE, ENCODING>
  }

where the constant is "iota": element k (row-major) holds k wrapped to the
element type (two's complement for integers, float(k mod 2048) for floats)
and ENCODING is #dla.chunked<LAYOUT> or one of the NVDLA encodings
#dla.feature / pixel / bias / prelu / batchnorm / eltwise / weight.

Weight cases (#dla.weight, see weight_ref.py) may hold "random-sparse" data
instead of iota (check_packed.py then needs --source, the module itself),
and an f16 weight may be made from an f32 constant through arith.truncf
(--truncf: no rounding mode attribute, i.e. ties to even;
--truncf to_nearest_away / to_nearest_even: that roundingmode):

  %0 = arith.constant dense<...> : tensor<KxCxRxSxf32>
  %1 = arith.truncf %0 to_nearest_away : tensor<KxCxRxSxf32> to tensor<KxCxRxSxf16>
  %2 = dla.relayout %1 : tensor<KxCxRxSxf16> -> tensor<KxCxRxSxf16, #dla.weight<...>>

or, for Winograd fp16 (--f32-straight), relayouted straight from f32 (the
transform of the f32 weights, rounded once):

  %0 = arith.constant dense<...> : tensor<KxCxRxSxf32>
  %1 = dla.relayout %0 : tensor<KxCxRxSxf32> -> tensor<KxCxRxSxf16, #dla.weight<winograd, ...>>

Usage:
  gen_module.py --layout crouton --shape 1x3x5x30 --type i8
  gen_module.py --layout '[(0,0),(1,0),(1,8)]' --shape 2x20 --type f16
  gen_module.py --random 20 --seed 1 [--max-bytes 65536]
  gen_module.py --encoding '#dla.feature<int8, line_stride = 96>' --shape 1x40x3x2 [--type i8]
  gen_module.py --random-nvdla 20 --seed 1 [--max-bytes 65536]
  gen_module.py --encoding '#dla.weight<direct, int8, compressed>' --shape 33x130x3x3
                [--data iota|random-sparse] [--seed S] [--truncf [to_nearest_away]]
  gen_module.py --random-weights 20 --seed 1 [--max-bytes 65536]
  add --literal nested to spell constants with nested brackets instead of hex
  (--type defaults to i8 for --layout and to the encoding's natural element
  type for --encoding)
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from typing import List, Optional, Tuple

sys.dont_write_bytecode = True  # keep the source tree clean when run from lit

import numpy as np  # noqa: E402

import chunked_ref as ref  # noqa: E402
import nvdla_ref as nv  # noqa: E402
import weight_ref as wr  # noqa: E402


@dataclass
class Case:
    shape: Tuple[int, ...]
    elt: str
    pairs: ref.Pairs
    preset: Optional[str] = None  # spell the layout by this name if set

    def layout_text(self) -> str:
        if self.preset is not None:
            return self.preset
        return ref.format_pairs(self.pairs)

    def plain_type(self) -> str:
        return "tensor<" + "".join(f"{e}x" for e in self.shape) + self.elt + ">"

    def chunked_type(self) -> str:
        return ("tensor<" + "".join(f"{e}x" for e in self.shape) + self.elt +
                f", #dla.chunked<{self.layout_text()}>>")

    def encoded_type(self) -> str:
        return self.chunked_type()

    def storage_bytes(self) -> int:
        return (ref.storage_size(self.pairs, self.shape) *
                ref.element_dtype(self.elt).itemsize)

    def describe(self, name: str) -> str:
        return (f"// {name}: shape {'x'.join(map(str, self.shape))} {self.elt}, "
                f"layout {ref.format_pairs(self.pairs)}"
                + (f" ({self.preset})" if self.preset else "")
                + f", storage {ref.storage_size(self.pairs, self.shape)} elements")


@dataclass
class NvdlaCase:
    """One NVDLA-encoded case; ``text`` is the encoding as spelled in the module."""
    shape: Tuple[int, ...]
    elt: str
    enc: nv.Encoding
    text: Optional[str] = None

    def encoding_text(self) -> str:
        return self.text if self.text is not None else self.enc.text()

    def plain_type(self) -> str:
        return "tensor<" + "".join(f"{e}x" for e in self.shape) + self.elt + ">"

    def encoded_type(self) -> str:
        return ("tensor<" + "".join(f"{e}x" for e in self.shape) + self.elt +
                f", {self.encoding_text()}>")

    def storage_bytes(self) -> int:
        return nv.storage_size(self.enc, self.shape, self.elt)

    def describe(self, name: str) -> str:
        try:
            what = nv.geometry(self.enc, self.shape, self.elt).describe()
        except ValueError as e:      # e.g. a deliberately invalid case
            what = f"invalid: {e}"
        return (f"// {name}: shape {'x'.join(map(str, self.shape)) or 'scalar'} "
                f"{self.elt}, {what}")


@dataclass
class WeightCase:
    """One #dla.weight case.  ``data`` is "iota" or "random-sparse" (drawn
    from ``seed``); ``truncf`` is None (an f16 constant), "" (arith.truncf
    without a rounding mode) or the roundingmode to spell."""
    shape: Tuple[int, ...]
    elt: str
    enc: wr.WeightEncoding
    text: Optional[str] = None
    data: str = "iota"
    seed: int = 0
    truncf: Optional[str] = None
    straight: bool = False   # f32 constant relayouted straight (Winograd fp16)

    def encoding_text(self) -> str:
        return self.text if self.text is not None else self.enc.text()

    def plain_type(self, elt: Optional[str] = None) -> str:
        return "tensor<" + "".join(f"{e}x" for e in self.shape) + (elt or self.elt) + ">"

    def encoded_type(self) -> str:
        return ("tensor<" + "".join(f"{e}x" for e in self.shape) + self.elt +
                f", {self.encoding_text()}>")

    def constant_elt(self) -> str:
        return "f32" if self.truncf is not None or self.straight else self.elt

    def values(self) -> np.ndarray:
        """The constant as written in the module (f32 before a truncf)."""
        return wr.make_data(self.data, self.shape, self.constant_elt(), self.seed,
                            winograd_safe=self.enc.format == "winograd")

    def weights(self) -> np.ndarray:
        """The f16 / i8 / i16 weights the packer sees."""
        v = self.values()
        return wr.truncf(v, self.truncf) if self.truncf is not None else v  # straight: f32

    def storage_bytes(self) -> int:
        sizes = {n: len(b) for n, b in self.packed().items()}
        return sum(sizes.values())

    def packed(self):
        return wr.pack(self.weights(), self.enc, self.elt)

    def describe(self, name: str) -> str:
        try:
            what = wr.plan(self.enc, self.shape, self.elt).describe()
        except ValueError as e:
            what = f"invalid: {e}"
        data = self.data + (f" (seed {self.seed})" if self.data != "iota" else "")
        if self.truncf is not None:
            data += " f32 -> arith.truncf" + (f" {self.truncf}" if self.truncf else "")
        if self.straight:
            data += " f32 straight"
        return (f"// {name}: shape {'x'.join(map(str, self.shape))} {self.elt}, {what}, "
                f"data {data}")

    def emit(self, name: str, style: str) -> str:
        celt = self.constant_elt()
        data = self.values()
        if style == "nested" and self.data != "iota":
            raise ValueError("--literal nested is only for iota data (floats are printed "
                             "with one decimal)")
        ct = self.encoded_type()
        lines = [self.describe(name), f"func.func @{name}() -> {ct} {{",
                 f"  %0 = arith.constant {dense_literal(data, celt, style)} : "
                 f"{self.plain_type(celt)}"]
        v = "%0"
        if self.truncf is not None:
            mode = f" {self.truncf}" if self.truncf else ""
            lines.append(f"  %1 = arith.truncf %0{mode} : {self.plain_type(celt)} to "
                         f"{self.plain_type()}")
            v = "%1"
        res = "%2" if self.truncf is not None else "%1"
        lines.append(f"  {res} = dla.relayout {v} : {self.plain_type(celt if self.straight else None)} -> {ct}")
        lines.append(f"  return {res} : {ct}")
        lines.append("}")
        return "\n".join(lines)


def natural_type(enc) -> str:
    """The element type a --encoding case uses when --type is not given."""
    if enc.kind == "weight":
        return enc.elt
    if enc.kind == "pixel":
        return nv.pixel_element_types(nv.PIXEL_FORMATS[enc.fmt])[0]
    if enc.kind == "feature" or enc.precision == "fp16":
        return nv.FEATURE_ELT[enc.precision]
    return "i8" if enc.bytes_per_component == 1 or enc.precision == "int8" else "i16"


def parse_shape(text: str) -> Tuple[int, ...]:
    try:
        shape = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"error: bad shape '{text}' (expected e.g. 1x3x5x30)")
    if not shape or any(e < 0 for e in shape):
        raise SystemExit(f"error: bad shape '{text}'")
    return shape


def dense_literal(a: np.ndarray, elt: str, style: str) -> str:
    """The ``dense<...>`` attribute for array ``a`` of MLIR type ``elt``."""
    if style == "hex":
        return 'dense<"0x' + nv.to_le_bytes(a, elt).hex().upper() + '">'
    is_float = elt.startswith("f")

    def fmt(v) -> str:
        return f"{float(v):.1f}" if is_float else str(int(v))

    def rec(x) -> str:
        if x.ndim == 0:
            return fmt(x)
        return "[" + ", ".join(rec(x[i]) for i in range(x.shape[0])) + "]"

    return "dense<" + rec(a) + ">"


def emit_case(name: str, case, style: str) -> str:
    if isinstance(case, WeightCase):
        return case.emit(name, style)
    data = nv.iota(case.shape, case.elt)
    pt, ct = case.plain_type(), case.encoded_type()
    return "\n".join([
        case.describe(name),
        f"func.func @{name}() -> {ct} {{",
        f"  %0 = arith.constant {dense_literal(data, case.elt, style)} : {pt}",
        f"  %1 = dla.relayout %0 : {pt} -> {ct}",
        f"  return %1 : {ct}",
        "}",
    ])


def random_shape(rng, pairs: ref.Pairs, rank: int, elt: str,
                 max_bytes: int) -> Optional[Tuple[int, ...]]:
    esize = ref.element_dtype(elt).itemsize
    t = ref.tile_products(pairs, rank)
    if math.prod(t) * esize > max_bytes:
        return None
    for _ in range(200):
        shape = []
        for d in range(rank):
            kind = rng.integers(0, 4)
            if kind == 0:          # small
                e = int(rng.integers(1, 5))
            elif kind == 1:        # around a tile boundary
                e = max(1, t[d] * int(rng.integers(1, 3)) + int(rng.integers(-1, 2)))
            elif kind == 2:        # exactly one tile or less
                e = int(rng.integers(1, t[d] + 1))
            else:                  # medium
                e = int(rng.integers(1, 41))
            shape.append(e)
        shape = tuple(shape)
        if ref.storage_size(pairs, shape) * esize <= max_bytes:
            return shape
    return tuple([1] * rank)


def random_cases(n: int, seed: int, max_bytes: int = 65536) -> List[Case]:
    rng = np.random.default_rng(seed)
    types = list(ref.ELEMENT_TYPES)
    cases = []
    while len(cases) < n:
        elt = types[int(rng.integers(0, len(types)))]
        kind = rng.random()
        preset = None
        if kind < 0.35:
            name = sorted(ref.PRESETS)[int(rng.integers(0, len(ref.PRESETS)))]
            pairs, rank = ref.PRESETS[name], 4
            # usually by name, sometimes the same layout spelled explicitly
            preset = name if rng.random() < 0.75 else None
        else:
            rank = int(rng.integers(1, 6))
            pairs = ref.random_pairs(rng, rank)
        shape = random_shape(rng, pairs, rank, elt, max_bytes)
        if shape is None:
            continue
        cases.append(Case(shape, elt, pairs, preset))
    return cases


def random_nvdla_cases(n: int, seed: int, max_bytes: int = 65536) -> List[NvdlaCase]:
    """Random feature, pixel and auxiliary cases (see nvdla_ref.random_case).

    Encodings are printed with or without spaces around '=' at random."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        enc, shape, elt = nv.random_case(rng, max_bytes)
        text = enc.text(spaces=bool(rng.random() < 0.7))
        cases.append(NvdlaCase(tuple(shape), elt, enc, text))
    return cases


def random_weight_cases(n: int, seed: int, max_bytes: int = 65536) -> List[WeightCase]:
    """Random #dla.weight cases (weight_ref.random_case) over all formats,
    precisions, configs and flags; data iota or random-sparse; f16 weights
    sometimes made by arith.truncf from f32 (all three spellings).  Encodings
    are printed with or without spaces around '=' at random."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        enc, shape = wr.random_case(rng, max_bytes)
        elt = enc.elt
        data = "iota" if rng.random() < 0.35 else "random-sparse"
        if enc.compressed and math.prod(shape) < 2:
            data = "random-sparse"       # iota of one element is all zero
        truncf = None
        if elt == "f16" and rng.random() < 0.35:
            truncf = ["", "to_nearest_even", "to_nearest_away"][int(rng.integers(0, 3))]
        text = enc.text(spaces=bool(rng.random() < 0.7))
        cases.append(WeightCase(tuple(shape), elt, enc, text, data,
                                int(rng.integers(0, 1 << 31)), truncf))
    return cases


def module_text(cases: List[Case], style: str, header: str = "") -> str:
    parts = []
    if header:
        parts.append(header)
    for i, c in enumerate(cases):
        parts.append(emit_case(f"case{i}", c, style))
    return "\n\n".join(parts) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout", help="preset name or pair list, e.g. crouton or "
                    "'[(0,0),(1,0),(1,8)]'")
    ap.add_argument("--shape", help="logical shape, e.g. 1x3x5x30")
    ap.add_argument("--type", default=None, help="element type: " +
                    " ".join(nv.ELEMENT_TYPES) + " (default: i8, or the "
                    "encoding's natural type with --encoding)")
    ap.add_argument("--encoding", help="an NVDLA encoding, e.g. "
                    "'#dla.feature<int8, line_stride = 96>'")
    ap.add_argument("--random", type=int, metavar="N", help="emit N random chunked cases")
    ap.add_argument("--random-nvdla", type=int, metavar="N",
                    help="emit N random NVDLA feature / pixel / auxiliary cases")
    ap.add_argument("--random-weights", type=int, metavar="N",
                    help="emit N random #dla.weight cases")
    ap.add_argument("--data", choices=list(wr.DATA_KINDS), default=None,
                    help="#dla.weight data: iota (default) or random-sparse (drawn "
                    "from --seed)")
    ap.add_argument("--truncf", nargs="?", const="", default=None,
                    choices=["", "to_nearest_even", "to_nearest_away"],
                    help="f16 #dla.weight: write an f32 constant and an arith.truncf "
                    "(optionally with this rounding mode) before the relayout")
    ap.add_argument("--f32-straight", action="store_true",
                    help="Winograd fp16 #dla.weight: relayout an f32 constant straight "
                    "into it (transformed in f32, rounded once)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-bytes", type=int, default=65536,
                    help="random mode: storage size limit per case (bytes)")
    ap.add_argument("--literal", choices=["hex", "nested"], default="hex",
                    help="spelling of the dense constant (default hex)")
    args = ap.parse_args(argv)

    modes = [m for m in (args.layout, args.encoding) if m] + \
        [m for m in (args.random, args.random_nvdla, args.random_weights) if m is not None]
    if len(modes) != 1:
        ap.error("need exactly one of --layout, --encoding, --random N, --random-nvdla N, "
                 "--random-weights N")
    weight_enc = bool(args.encoding) and wr.is_weight_encoding(args.encoding)
    if (args.data is not None or args.truncf is not None) and not weight_enc:
        ap.error("--data and --truncf apply to a #dla.weight --encoding only")
    if args.random_weights is not None:
        if args.shape:
            ap.error("random modes exclude --shape")
        cases = random_weight_cases(args.random_weights, args.seed, args.max_bytes)
        header = (f"// gen_module.py --random-weights {args.random_weights} "
                  f"--seed {args.seed}")
    elif weight_enc:
        if not args.shape:
            ap.error("need --shape KxCxRxS with --encoding")
        shape = parse_shape(args.shape)
        try:
            enc = wr.parse_encoding(args.encoding)
            elt = args.type or natural_type(enc)
            wr.plan(enc, shape, elt)
        except ValueError as e:
            ap.error(str(e))
        if args.truncf is not None and elt != "f16":
            ap.error("--truncf needs an fp16 weight encoding")
        if args.f32_straight and (args.truncf is not None or enc.format != "winograd" or
                                  (elt != "f16" and enc.scale is None)):
            ap.error("--f32-straight needs a Winograd fp16 encoding (or an int8 / int16 one "
                     "with a scale) and no --truncf")
        cases = [WeightCase(shape, elt, enc, args.encoding.strip(), args.data or "iota",
                            args.seed, args.truncf, args.f32_straight)]
        header = ""
    elif args.random is not None or args.random_nvdla is not None:
        if args.shape:
            ap.error("random modes exclude --shape")
        if args.random is not None:
            cases = random_cases(args.random, args.seed, args.max_bytes)
            header = f"// gen_module.py --random {args.random} --seed {args.seed}"
        else:
            cases = random_nvdla_cases(args.random_nvdla, args.seed, args.max_bytes)
            header = (f"// gen_module.py --random-nvdla {args.random_nvdla} "
                      f"--seed {args.seed}")
    elif args.encoding:
        if args.shape is None:
            ap.error("need --shape with --encoding")
        shape = parse_shape(args.shape) if args.shape.strip() else ()
        try:
            enc = nv.parse_encoding(args.encoding)
            elt = args.type or natural_type(enc)
            nv.geometry(enc, shape, elt)
        except ValueError as e:
            ap.error(str(e))
        cases = [NvdlaCase(shape, elt, enc, args.encoding.strip())]
        header = ""
    else:
        if not args.shape:
            ap.error("need --layout and --shape (or --random N)")
        shape = parse_shape(args.shape)
        elt = args.type or "i8"
        try:
            pairs = ref.parse_layout(args.layout)
            ref.validate(pairs, len(shape))
            ref.element_dtype(elt)
        except ValueError as e:
            ap.error(str(e))
        text = args.layout.strip()
        preset = text if text in ref.PRESETS else None
        cases = [Case(shape, elt, pairs, preset)]
        header = ""
    try:
        text = module_text(cases, args.literal, header)
    except ValueError as e:
        ap.error(str(e))
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
