#!/usr/bin/env python3
"""Stand-in for `dla-opt --dla-pack-weights`, used only to test check_packed.py.

Reads a module written by gen_module.py (hex literals), decodes each constant,
packs it with the *brute-force* reference (chunked_ref.pack_bruteforce or
nvdla_ref.pack_bruteforce; check_packed.py uses the numpy ones) and prints
what dla-opt is expected to print: one
`arith.constant dense_resource<NAME> : tensor<..., ENCODING>` per
function plus the `{-# dialect_resources ... #-}` section (4-byte
little-endian alignment header + blob bytes).  NVDLA encodings are printed
as written, or through an alias with --spelling alias / mixed.

#dla.weight cases (iota or random data, with or without arith.truncf) are
packed with weight_ref.pack_loops (the loop-nest implementation; the checker
uses the per-position one), alignment header 256; compressed ones become

  %0 = dla.weight_constant wgs = dense_resource<A> : tensor<Nxi8>,
         wmb = dense_resource<B> : tensor<Mxi8>, data = dense_resource<C> : tensor<Pxi8>
         : tensor<..., #dla.weight<..., compressed>>

(--corrupt-surface wgs|wmb|data picks the surface --corrupt hits).

  gen_module.py --random 10 --seed 3 | fake_pack.py [--spelling list|preset|alias|mixed]
                                                    [--corrupt BYTE] [--keep-relayout]
"""

from __future__ import annotations

import argparse
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean when run from lit

import numpy as np  # noqa: E402

import check_packed  # noqa: E402
import chunked_ref as ref  # noqa: E402
import nvdla_ref as nv  # noqa: E402
import weight_ref as wr  # noqa: E402

_WFUNC_RE = re.compile(r"func\.func @(\w+)\(\) -> (?P<ctype>tensor<[^\n]*#dla\.weight<[^\n]*>) \{\n")

_FUNC_RE = re.compile(
    r"func\.func @(\w+)\(\) -> (?P<ctype>tensor<.*>) \{\n"
    r"\s*%0 = arith\.constant dense<\"0x(?P<hex>[0-9A-Fa-f]*)\"> : (?P<ptype>tensor<[^\n]*>)\n"
    r"\s*%1 = dla\.relayout[^\n]*\n")


def parse_type(t: str):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)(?:, #dla\.chunked<(.*)>)?>", t)
    if m is None:
        return parse_nvdla_type(t)
    shape = tuple(int(x) for x in m.group(1).split("x") if x)
    return shape, m.group(2), (ref.parse_layout(m.group(3)) if m.group(3) else None)


def parse_nvdla_type(t: str):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+), (#dla\.\w+<.*>)>", t)
    shape = tuple(int(x) for x in m.group(1).split("x") if x)
    return shape, m.group(2), nv.parse_encoding(m.group(3))


def fake_weight(k: int, m, sources, style: str, aliases, blobs, corrupt,
                corrupt_surface: str, keep_relayout: bool) -> str:
    name = m.group(1)
    ctype = m.group("ctype")
    tm = re.fullmatch(r"tensor<((?:\d+x)*)(\w+), (#dla\.weight<.*>)>", ctype)
    elt, enc_text = tm.group(2), tm.group(3)
    enc = wr.parse_encoding(enc_text)
    data = sources[name].weights()
    packed = wr.pack_loops(data, enc, elt)
    if style == "alias":
        alias = aliases.setdefault(enc_text, f"#wenc{len(aliases) or ''}")
        ctype = f"tensor<{tm.group(1)}{elt}, {alias}>"
    res = "dla_packed" if k == 0 else f"dla_packed_{k}"
    lines = [f"  func.func @{name}() -> {ctype} {{"]
    if keep_relayout:
        ptype = f"tensor<{tm.group(1)}{elt}>"
        lines.append(f"    %cst = arith.constant dense<0> : {ptype}")
        lines.append(f"    %0 = dla.relayout %cst : {ptype} -> {ctype}")
    align = wr.BLOB_ALIGN.to_bytes(4, "little")
    if not enc.compressed:
        blob = bytearray(packed["weights"])
        if corrupt is not None and k == 0:
            blob[corrupt % len(blob)] ^= 0x5A
        blobs.append((res, align + bytes(blob)))
        lines.append(f"    %cst = arith.constant dense_resource<{res}> : {ctype}")
        lines.append(f"    return %cst : {ctype}")
    else:
        keys = []
        for surface in wr.SURFACES:
            blob = bytearray(packed[surface])
            if corrupt is not None and k == 0 and surface == corrupt_surface and blob:
                blob[corrupt % len(blob)] ^= 0x5A
            r = f"{res}_{surface}"
            blobs.append((r, align + bytes(blob)))
            keys.append(f"{surface} = dense_resource<{r}> : tensor<{len(blob)}xi8>")
        lines.append(f"    %w = dla.weight_constant {', '.join(keys)} : {ctype}")
        lines.append(f"    return %w : {ctype}")
    lines.append("  }")
    return "\n".join(lines)


def fake(text: str, spelling: str = "mixed", corrupt=None, keep_relayout=False,
         seed: int = 0, corrupt_surface: str = "data") -> str:
    rng = np.random.default_rng(seed)
    funcs = []
    blobs = []
    aliases = {}
    items = [(m.start(), m) for m in _FUNC_RE.finditer(text)
             if "#dla.weight<" not in m.group("ctype")]
    witems = [(m.start(), m) for m in _WFUNC_RE.finditer(text)]
    sources = check_packed.parse_source_module(text) if witems else {}
    items = sorted(items + witems, key=lambda x: x[0])
    for k, (_, m) in enumerate(items):
        if m.re is _WFUNC_RE:
            style = spelling if spelling != "mixed" else \
                ["list", "preset", "alias"][int(rng.integers(0, 3))]
            funcs.append(fake_weight(k, m, sources, style, aliases, blobs, corrupt,
                                     corrupt_surface, keep_relayout))
            continue
        name = m.group(1)
        shape, elt, pairs = parse_type(m.group("ctype"))
        dt = nv.element_dtype(elt)
        raw = bytes.fromhex(m.group("hex"))
        n = int(np.prod(shape))
        data = np.frombuffer(raw, dtype=dt)
        if data.size == 1 and n != 1:          # hex splat
            data = np.full(n, data[0], dtype=dt)
        data = data.reshape(shape)
        is_nv = isinstance(pairs, nv.Encoding)
        if is_nv:
            blob = bytearray(nv.pack_bruteforce(data, pairs, elt))
            align = 32                 # the NVDLA start-address alignment
        else:
            if n <= 20000:
                packed = ref.pack_bruteforce(data, pairs)
            else:
                packed = ref.pack_numpy(data, pairs)
            blob = bytearray(packed.astype(dt).tobytes())
            align = dt.itemsize
        if corrupt is not None and k == 0:
            blob[corrupt % len(blob)] ^= 0x5A
        res = "dla_packed" if k == 0 else f"dla_packed_{k}"
        blobs.append((res, align.to_bytes(4, "little") + bytes(blob)))
        style = spelling if spelling != "mixed" else \
            ["list", "preset", "alias"][int(rng.integers(0, 3))]
        pname = None if is_nv else ref.preset_name(pairs)
        if is_nv:
            enc = pairs.text()
        elif style == "preset" and pname:
            enc = f"#dla.chunked<{pname}>"
        else:
            enc = f"#dla.chunked<{ref.format_pairs(pairs, spaces=True)}>"
        if style == "alias":
            stem = "#nvdla" if is_nv else "#chunked"
            alias = aliases.setdefault(enc, f"{stem}{len(aliases) or ''}")
            enc = alias
        ctype = "tensor<" + "".join(f"{e}x" for e in shape) + elt + ", " + enc + ">"
        lines = [f"  func.func @{name}() -> {ctype} {{"]
        if keep_relayout:
            ptype = m.group("ptype")
            lines.append(f"    %cst = arith.constant dense<0> : {ptype}")
            lines.append(f"    %0 = dla.relayout %cst : {ptype} -> {ctype}")
        lines.append(f"    %cst = arith.constant dense_resource<{res}> : {ctype}")
        lines.append(f"    return %cst : {ctype}")
        lines.append("  }")
        funcs.append("\n".join(lines))
    out = []
    for enc, alias in aliases.items():
        out.append(f"{alias} = {enc}")
    out.append("module {")
    out.append("\n".join(funcs))
    out.append("}")
    out.append("")
    out.append("{-#\n  dialect_resources: {\n    builtin: {")
    out.append(",\n".join(f'      {r}: "0x{b.hex().upper()}"' for r, b in blobs))
    out.append("    }\n  }\n#-}")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", default="-")
    ap.add_argument("--spelling", choices=["list", "preset", "alias", "mixed"],
                    default="mixed")
    ap.add_argument("--corrupt", type=int, metavar="BYTE",
                    help="flip bits of this byte of the first blob")
    ap.add_argument("--corrupt-surface", choices=list(wr.SURFACES), default="data",
                    help="compressed weights: the surface --corrupt hits (default data)")
    ap.add_argument("--keep-relayout", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    sys.stdout.write(fake(text, args.spelling, args.corrupt, args.keep_relayout, args.seed,
                          args.corrupt_surface))
    return 0


if __name__ == "__main__":
    sys.exit(main())
