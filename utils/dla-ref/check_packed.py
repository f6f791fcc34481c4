#!/usr/bin/env python3
"""Check the packed constants in dla-opt output against the Python references.

Input: the output of `dla-opt ... --dla-pack-weights` (a file or stdin) for a
module written by gen_module.py.  Every packed constant

  %cst = arith.constant dense_resource<NAME> : tensor<SHAPExT, ENCODING>

with ENCODING one of #dla.chunked<L> (reference: chunked_ref.py) or the NVDLA
encodings #dla.feature, #dla.pixel, #dla.bias, #dla.prelu, #dla.batchnorm,
#dla.eltwise (reference: nvdla_ref.py) must have its blob in the trailing

  {-#
    dialect_resources: {
      builtin: {
        NAME: "0x<4-byte little-endian alignment><blob bytes>"
      }
    }
  #-}

section, and the blob must equal, byte for byte, the reference packing of
the iota tensor (element k holds k wrapped to the type; floats k mod 2048).

Fails (exit 1) on: a byte mismatch (first differing byte offset, the logical
index or "padding" the reference puts there, expected vs. actual), a size
mismatch, a missing blob, an encoded constant that is not a dense_resource,
no packed constant at all, a remaining dla.relayout, or a count different
from --expect-count.  On success prints "checked N constants, M bytes".
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Dict, List, Optional, Tuple

sys.dont_write_bytecode = True  # keep the source tree clean when run from lit
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import chunked_ref as ref  # noqa: E402
import nvdla_ref as nv  # noqa: E402

_ID = r'(?:"(?:[^"\\]|\\.)*"|[A-Za-z_][\w$.\-]*)'


class CheckError(Exception):
    pass


def unquote(name: str) -> str:
    if name.startswith('"') and name.endswith('"'):
        return bytes(name[1:-1], "utf-8").decode("unicode_escape")
    return name


def balanced(text: str, start: int, open_ch: str = "<", close_ch: str = ">") -> int:
    """Index just past the bracket matching text[start] (== open_ch).

    Skips quoted strings; ignores '->' arrows.
    """
    assert text[start] == open_ch
    depth = 0
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == open_ch:
            depth += 1
        elif c == close_ch and not (close_ch == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise CheckError(f"unbalanced '{open_ch}' at offset {start}")


def split_resources(text: str) -> Tuple[str, str]:
    i = text.find("{-#")
    if i < 0:
        return text, ""
    j = text.find("#-}", i)
    if j < 0:
        raise CheckError("unterminated '{-#' resource section")
    return text[:i] + text[j + 3:], text[i + 3:j]


def parse_builtin_blobs(section: str) -> Dict[str, str]:
    """NAME -> hex string (without 0x) from the builtin dialect resources."""
    blobs: Dict[str, str] = {}
    if not section:
        return blobs
    m = re.search(r"\bbuiltin\s*:\s*\{", section)
    if not m:
        return blobs
    start = m.end() - 1
    end = balanced(section, start, "{", "}")
    body = section[start + 1:end - 1]
    for m in re.finditer(r"(" + _ID + r")\s*:\s*\"0x([0-9A-Fa-f]*)\"", body):
        blobs[unquote(m.group(1))] = m.group(2)
    return blobs


def parse_aliases(body: str) -> Dict[str, str]:
    """Top-level '#alias = attr' / '!alias = type' definitions."""
    aliases = {}
    for m in re.finditer(r"^([#!][A-Za-z_][\w$.\-]*)\s*=\s*(.+?)\s*$", body, re.M):
        aliases[m.group(1)] = m.group(2)
    return aliases


def resolve_alias(text: str, aliases: Dict[str, str]) -> str:
    seen = set()
    text = text.strip()
    while text in aliases and text not in seen:
        seen.add(text)
        text = aliases[text].strip()
    return text


def parse_tensor_type(text: str, aliases: Dict[str, str]):
    """'tensor<1x3xi8, #dla.chunked<crouton>>' -> (shape, elt, encoding-or-None)."""
    text = resolve_alias(text, aliases)
    if not text.startswith("tensor<"):
        raise CheckError(f"expected a tensor type, got '{text}'")
    inner = text[len("tensor<"):-1]
    # split at the first top-level comma
    depth = 0
    cut = None
    for i, c in enumerate(inner):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            cut = i
            break
    head = inner if cut is None else inner[:cut]
    enc = None if cut is None else inner[cut + 1:].strip()
    m = re.fullmatch(r"\s*((?:\d+x)*)([A-Za-z_]\w*)\s*", head)
    if not m:
        raise CheckError(f"cannot parse tensor type '{text}'")
    shape = tuple(int(x) for x in m.group(1).split("x") if x)
    if enc is not None:
        enc = resolve_alias(enc, aliases)
    return shape, m.group(2), enc


def read_type_at(body: str, pos: int) -> Tuple[str, int]:
    """Read a type (tensor<...> or !alias) starting at pos (whitespace skipped)."""
    while pos < len(body) and body[pos].isspace():
        pos += 1
    if body.startswith("tensor<", pos):
        end = balanced(body, pos + len("tensor"))
        return body[pos:end], end
    m = re.compile(r"![A-Za-z_][\w$.\-]*").match(body, pos)
    if m:
        return m.group(0), m.end()
    raise CheckError(f"cannot read a type at: {body[pos:pos + 60]!r}")


def chunked_layout(enc: Optional[str]) -> Optional[ref.Pairs]:
    if enc is None or not enc.startswith("#dla.chunked<"):
        return None
    return ref.parse_layout(enc)


def describe_index(idx) -> str:
    return "padding" if idx is None else "(" + ",".join(map(str, idx)) + ")"


def blob_bytes(name: str, hexdata: str, out) -> Tuple[Optional[bytes], int]:
    """Strip and check the 4-byte alignment header; (None, n) on error."""
    if len(hexdata) % 2:
        print(f"error: {name}: odd number of hex digits", file=out)
        return None, 0
    raw = bytes.fromhex(hexdata)
    if len(raw) < 4:
        print(f"error: {name}: blob shorter than its 4-byte alignment header", file=out)
        return None, 0
    align = int.from_bytes(raw[:4], "little")
    actual = raw[4:]
    if align == 0 or align & (align - 1):
        print(f"error: {name}: alignment header {align} is not a power of two", file=out)
        return None, len(actual)
    return actual, len(actual)


def nvdla_encoding(enc: Optional[str]) -> Optional["nv.Encoding"]:
    """The parsed NVDLA encoding, None for other encodings (ValueError if bad)."""
    if not nv.is_nvdla_encoding(enc):
        return None
    return nv.parse_encoding(enc)


def check_one(name: str, type_text: str, shape, elt, pairs, hexdata: str,
              out) -> Tuple[bool, int]:
    """Compare one blob; returns (ok, number of blob bytes)."""
    try:
        dt = ref.element_dtype(elt)
        ref.validate(pairs, len(shape))
    except ValueError as e:
        print(f"error: {name}: {type_text}: {e}", file=out)
        return False, 0
    actual, nbytes = blob_bytes(name, hexdata, out)
    if actual is None:
        return False, nbytes
    expected = ref.to_le_bytes(ref.pack(ref.iota(shape, elt), pairs), elt)
    if actual == expected:
        return True, len(actual)
    esize = dt.itemsize
    n = min(len(actual), len(expected))
    diff = next((i for i in range(n) if actual[i] != expected[i]), None)
    lines = [f"error: {name}: packed bytes differ from the reference",
             f"  type: {type_text}",
             f"  layout: {ref.format_pairs(pairs)}, storage "
             f"{ref.storage_size(pairs, shape)} elements x {esize} bytes = "
             f"{len(expected)} bytes; blob has {len(actual)} bytes"]
    if diff is None:
        lines.append(f"  size mismatch: expected {len(expected)} bytes, got "
                     f"{len(actual)} (common prefix of {n} bytes matches)")
    else:
        e = diff // esize
        idx = ref.index_at(pairs, shape, e)
        lo, hi = e * esize, (e + 1) * esize
        exp_v = np.frombuffer(expected[lo:hi], dtype=dt)[0]
        act_v = (np.frombuffer(actual[lo:hi], dtype=dt)[0]
                 if hi <= len(actual) else None)
        lines.append(f"  first differing byte: {diff} (element {e}, byte {diff - lo})")
        lines.append(f"  reference puts there: {describe_index(idx)}")
        lines.append(f"  expected byte 0x{expected[diff]:02x}, actual 0x{actual[diff]:02x}")
        lines.append(f"  expected element {exp_v!r} ({expected[lo:hi].hex()}), "
                     f"actual {act_v!r} ({actual[lo:hi].hex()})")
        # where the reference would have put the element actually found there
        if act_v is not None:
            lmap = ref.logical_map(pairs, shape)
            iot = ref.iota(shape, elt).reshape(-1)
            hits = np.nonzero(iot == act_v)[0][:3]
            if len(hits):
                where = ", ".join(
                    describe_index(np.unravel_index(int(h), shape)) + " at element "
                    + str(int(np.nonzero(lmap == h)[0][0])) for h in hits)
                lines.append(f"  (actual value is iota of {where}"
                             + (", ..." if len(hits) == 3 else "") + ")")
        if len(actual) != len(expected):
            lines.append(f"  also size mismatch: expected {len(expected)} bytes, "
                         f"got {len(actual)}")
    print("\n".join(lines), file=out)
    return False, len(actual)


def _decode(raw: bytes, elt: str):
    """Value of a stored component of elt (sign-extended integers widen)."""
    dt = nv.element_dtype(elt)
    if dt.kind == "f":
        return np.frombuffer(raw, dtype=dt)[0] if len(raw) == dt.itemsize else None
    return int.from_bytes(raw, "little", signed=(dt.kind == "i"))


def describe_owners(owners) -> str:
    if not owners:
        return "padding"
    return ", ".join(f"{describe_index(i)} {what}" for i, what in owners)


def check_one_nvdla(name: str, type_text: str, shape, elt, enc, hexdata: str,
                    out) -> Tuple[bool, int]:
    """Compare one blob of an NVDLA encoding; returns (ok, number of blob bytes)."""
    try:
        geo = nv.geometry(enc, shape, elt)
    except ValueError as e:
        print(f"error: {name}: {type_text}: {e}", file=out)
        return False, 0
    actual, nbytes = blob_bytes(name, hexdata, out)
    if actual is None:
        return False, nbytes
    data = nv.iota(shape, elt)
    expected = nv.pack(data, enc, elt)
    if actual == expected:
        return True, len(actual)
    n = min(len(actual), len(expected))
    diff = next((i for i in range(n) if actual[i] != expected[i]), None)
    lines = [f"error: {name}: packed bytes differ from the reference",
             f"  type: {type_text}",
             f"  layout: {geo.describe()}; blob has {len(actual)} bytes"]
    if diff is None:
        lines.append(f"  size mismatch: expected {len(expected)} bytes, got "
                     f"{len(actual)} (common prefix of {n} bytes matches)")
        tail = actual[n:] if len(actual) > n else expected[n:]
        lines.append(f"  the {'extra' if len(actual) > n else 'missing'} bytes are "
                     + ("all zero" if not any(tail) else "not all zero"))
    else:
        owners = nv.byte_owners(enc, shape, elt)[diff]
        lines.append(f"  first differing byte: {diff}")
        lines.append(f"  reference puts there: {describe_owners(owners)}")
        lines.append(f"  expected byte 0x{expected[diff]:02x}, actual 0x{actual[diff]:02x}")
        whole = [p for p in nv.placements(enc, shape, elt)
                 if not p.width and p.offset <= diff < p.offset + p.nbytes]
        if len(whole) == 1:
            p = whole[0]
            lo, hi = p.offset, p.offset + p.nbytes
            exp_v = data[p.index]
            act_v = _decode(actual[lo:hi], elt) if hi <= len(actual) else None
            lines.append(f"  expected element {exp_v!r} ({expected[lo:hi].hex()}), "
                         f"actual {act_v!r} ({actual[lo:hi].hex()})")
            if act_v is not None:
                flat = data.reshape(-1)
                hits = np.nonzero(flat == act_v)[0][:3]
                if len(hits):
                    offs = nv.element_offsets(enc, shape, elt)
                    where = ", ".join(
                        describe_index(tuple(int(x) for x in np.unravel_index(int(h), shape)))
                        + " at byte " + str(offs[tuple(int(x) for x in
                                                       np.unravel_index(int(h), shape))])
                        for h in hits)
                    lines.append(f"  (actual value is iota of {where}"
                                 + (", ..." if len(hits) == 3 else "") + ")")
        if len(actual) != len(expected):
            lines.append(f"  also size mismatch: expected {len(expected)} bytes, "
                         f"got {len(actual)}")
    print("\n".join(lines), file=out)
    return False, len(actual)


def check_text(text: str, expect_count: Optional[int] = None,
               verbose: bool = False, out=sys.stdout, err=sys.stderr) -> int:
    try:
        body, section = split_resources(text)
        blobs = parse_builtin_blobs(section)
        aliases = parse_aliases(body)
    except CheckError as e:
        print(f"error: {e}", file=err)
        return 1
    ok = True
    if "dla.relayout" in body:
        line = next(i + 1 for i, l in enumerate(body.splitlines()) if "dla.relayout" in l)
        print(f"error: a dla.relayout remains (line {line})", file=err)
        ok = False

    count = 0
    total = 0
    for m in re.finditer(r"dense_resource<(" + _ID + r")>\s*:", body):
        name = unquote(m.group(1))
        try:
            type_text, _ = read_type_at(body, m.end())
            shape, elt, enc = parse_tensor_type(type_text, aliases)
            pairs = chunked_layout(enc)
            nv_enc = nvdla_encoding(enc) if pairs is None else None
        except (CheckError, ValueError) as e:
            print(f"error: resource {name}: {e}", file=err)
            ok = False
            continue
        if pairs is None and nv_enc is None:
            if verbose:
                print(f"note: skipping resource constant {name} of another type: "
                      f"{type_text}", file=out)
            continue
        count += 1
        if name not in blobs:
            print(f"error: resource {name} ({type_text}) has no blob in the "
                  f"builtin dialect_resources section", file=err)
            ok = False
            continue
        if pairs is not None:
            good, nbytes = check_one(name, type_text, shape, elt, pairs, blobs[name], err)
        else:
            good, nbytes = check_one_nvdla(name, type_text, shape, elt, nv_enc,
                                           blobs[name], err)
        total += nbytes
        ok &= good
        if verbose and good:
            print(f"ok: {name}: {type_text}: {nbytes} bytes", file=out)

    # Chunked-typed constants that are not dense_resource cannot be checked.
    for m in re.finditer(r"arith\.constant\s+dense<", body):
        end = balanced(body, m.end() - 1)
        rest = body[end:end + 2000]
        tm = re.match(r"\s*:\s*", rest)
        if not tm:
            continue
        try:
            type_text, _ = read_type_at(rest, tm.end())
            _, _, enc = parse_tensor_type(type_text, aliases)
        except CheckError:
            continue
        if chunked_layout(enc) is not None:
            print(f"error: chunked constant not packed into a dense_resource: "
                  f"{type_text}", file=err)
            ok = False
        elif nv.is_nvdla_encoding(enc):
            print(f"error: NVDLA constant not packed into a dense_resource: "
                  f"{type_text}", file=err)
            ok = False

    if count == 0:
        print("error: no packed constant (dense_resource with a #dla.chunked or NVDLA "
              "encoding) found",
              file=err)
        ok = False
    if expect_count is not None and count != expect_count:
        print(f"error: expected {expect_count} packed constants, found {count}", file=err)
        ok = False
    if not ok:
        return 1
    print(f"checked {count} constants, {total} bytes", file=out)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", default="-", help="dla-opt output (default stdin)")
    ap.add_argument("--expect-count", type=int, metavar="N",
                    help="require exactly N packed constants")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.input == "-":
        text = sys.stdin.read()
    else:
        with open(args.input, encoding="utf-8") as f:
            text = f.read()
    return check_text(text, args.expect_count, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
