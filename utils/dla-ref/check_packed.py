#!/usr/bin/env python3
"""Check the packed constants in dla-opt output against the Python references.

Input: the output of `dla-opt ... --dla-pack-weights` (a file or stdin) for a
module written by gen_module.py.  Every packed constant

  %cst = arith.constant dense_resource<NAME> : tensor<SHAPExT, ENCODING>

with ENCODING one of #dla.chunked<L> (reference: chunked_ref.py), the NVDLA
encodings #dla.feature, #dla.pixel, #dla.bias, #dla.prelu, #dla.batchnorm,
#dla.eltwise (reference: nvdla_ref.py) or an uncompressed #dla.weight
(reference: weight_ref.py), and every compressed weight

  %0 = dla.weight_constant wgs = dense_resource<A> : tensor<Nxi8>,
         wmb = dense_resource<B> : tensor<Mxi8>, data = dense_resource<C> : tensor<Pxi8>
         : tensor<KxCxRxSxT, #dla.weight<..., compressed>>

must have its blob(s) in the trailing

  {-#
    dialect_resources: {
      builtin: {
        NAME: "0x<4-byte little-endian alignment><blob bytes>"
      }
    }
  #-}

section, and the blob must equal, byte for byte, the reference packing of
the iota tensor (element k holds k wrapped to the type; floats k mod 2048).
With --source FILE (the module gen_module.py wrote), #dla.weight constants
are checked against the data of the same function in FILE instead (needed
for --data random-sparse and --truncf); weight blobs must also declare an
alignment that is a multiple of 256 bytes.

Fails (exit 1) on: a byte mismatch (first differing byte offset, the logical
index or "padding" the reference puts there, expected vs. actual), a size
mismatch, a missing blob, an encoded constant that is not a dense_resource,
no packed constant at all, a remaining dla.relayout, or a count different
from --expect-count.  On success prints "checked N constants, M bytes".
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Dict, List, Optional, Tuple

sys.dont_write_bytecode = True  # keep the source tree clean when run from lit

import numpy as np  # noqa: E402

import chunked_ref as ref  # noqa: E402
import nvdla_ref as nv  # noqa: E402
import weight_ref as wr  # noqa: E402

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


# ---------------------------------------------------------------------------
# #dla.weight
# ---------------------------------------------------------------------------

_FUNC_HEAD = re.compile(r"func\.func\s+(?:(?:private|public|nested)\s+)?@(" + _ID + r")")


def function_spans(body: str) -> List[Tuple[int, str]]:
    """(start offset, name) of every func.func, in order."""
    return [(m.start(), unquote(m.group(1))) for m in _FUNC_HEAD.finditer(body)]


def enclosing_function(spans: List[Tuple[int, str]], pos: int) -> Optional[str]:
    name = None
    for start, n in spans:
        if start > pos:
            break
        name = n
    return name


def decode_dense(literal: str, shape, elt: str) -> np.ndarray:
    """The value of a dense<...> literal (hex or nested numbers)."""
    dt = nv.element_dtype(elt)
    n = int(np.prod(shape)) if shape else 1
    m = re.fullmatch(r'dense<\s*"0x([0-9A-Fa-f]*)"\s*>', literal.strip())
    if m:
        raw = bytes.fromhex(m.group(1))
        a = np.frombuffer(raw, dtype=dt)
        if a.size == 1 and n != 1:
            a = np.full(n, a[0], dtype=dt)
    else:
        inner = literal.strip()[len("dense<"):-1]
        nums = re.findall(r"[-+]?(?:0x[0-9A-Fa-f]+|inf|nan|\d+\.?\d*(?:[eE][-+]?\d+)?)", inner)
        vals = [float(x) if not x.lower().lstrip("+-").startswith("0x") else int(x, 16)
                for x in nums]
        a = np.array(vals, dtype=np.float64)
        if a.size == 1 and n != 1:
            a = np.full(n, a[0])
        a = a.astype(dt)
    if a.size != n:
        raise CheckError(f"dense literal has {a.size} elements, type needs {n}")
    return a.reshape(tuple(shape))


class SourceFunc:
    def __init__(self, name: str, values: np.ndarray, elt: str, truncf: Optional[str]):
        self.name = name
        self.values = values            # as written (f32 before a truncf)
        self.elt = elt
        self.truncf = truncf            # None, "" (no mode) or the rounding mode
        # An f32 constant relayouted straight into fp16 weights (Winograd):
        # the f32 values are the weights, transformed then rounded once.
        self.straight = truncf is None and values.dtype == np.float32

    def weights(self) -> np.ndarray:
        if self.truncf is None:
            return self.values
        if self.truncf not in ("", "to_nearest_even", "to_nearest_away"):
            raise CheckError(f"@{self.name}: unsupported truncf rounding mode "
                             f"'{self.truncf}'")
        return wr.truncf(self.values, self.truncf)


def parse_source_module(text: str) -> Dict[str, SourceFunc]:
    """The functions of a gen_module.py module: name -> its constant (and truncf)."""
    body, _ = split_resources(text)
    aliases = parse_aliases(body)
    spans = function_spans(body)
    out: Dict[str, SourceFunc] = {}
    for i, (start, name) in enumerate(spans):
        end = spans[i + 1][0] if i + 1 < len(spans) else len(body)
        fn = body[start:end]
        m = re.search(r"arith\.constant\s+(dense<)", fn)
        if not m:
            continue
        lit_end = balanced(fn, m.start(1) + len("dense"))
        literal = fn[m.start(1):lit_end]
        tm = re.match(r"\s*:\s*", fn[lit_end:])
        if not tm:
            continue
        type_text, _ = read_type_at(fn, lit_end + tm.end())
        shape, elt, _ = parse_tensor_type(type_text, aliases)
        values = decode_dense(literal, shape, elt)
        t = re.search(r"arith\.truncf\s+%[\w$.\-]+\s*([A-Za-z_]\w*)?\s*(?:\{[^}]*\})?\s*:", fn)
        out[name] = SourceFunc(name, values, elt, (t.group(1) or "") if t else None)
    return out


def weight_blob(name: str, hexdata: str, out) -> Tuple[Optional[bytes], int]:
    """blob_bytes plus the 256-byte start alignment of weight surfaces."""
    actual, n = blob_bytes(name, hexdata, out)
    if actual is None:
        return None, n
    align = int.from_bytes(bytes.fromhex(hexdata[:8]), "little")
    if align % wr.BLOB_ALIGN:
        print(f"error: {name}: alignment header {align} is not a multiple of "
              f"{wr.BLOB_ALIGN} (weight surfaces start 256-byte aligned)", file=out)
        return None, n
    return actual, n


def weight_data(fname: Optional[str], shape, elt: str, sources, what: str,
                enc: Optional[wr.WeightEncoding] = None):
    """The weights of the function holding a constant: from --source, else iota.
    ``enc``: the packed encoding (a scaled integer Winograd one reads f32)."""
    if sources is None:
        return wr.iota(shape, elt), "iota"
    if fname is None or fname not in sources:
        raise CheckError(f"{what}: function @{fname} not found in the --source module")
    src = sources[fname]
    w = src.weights()
    if tuple(w.shape) != tuple(shape):
        raise CheckError(f"{what}: @{fname}'s source constant has shape "
                         f"{'x'.join(map(str, w.shape))}, the packed type "
                         f"{'x'.join(map(str, shape))}")
    if src.straight and (elt == "f16" or (enc is not None and enc.scale is not None)):
        # Where transforming the f32 weights and rounding once differs from
        # transforming their fp16 roundings (arith.truncf first).
        return w, f"@{fname} of the source, f32 straight"
    if w.dtype != nv.element_dtype(elt):
        raise CheckError(f"{what}: @{fname}'s source weights are {w.dtype}, the packed "
                         f"type needs {elt}")
    how = f"@{fname} of the source" + (f" through arith.truncf {src.truncf or ''}".rstrip()
                                       if src.truncf is not None else "")
    return w, how


def _size_lines(expected: bytes, actual: bytes) -> List[str]:
    n = min(len(actual), len(expected))
    lines = [f"  size mismatch: expected {len(expected)} bytes, got {len(actual)} "
             f"(common prefix of {n} bytes matches)"]
    tail = actual[n:] if len(actual) > n else expected[n:]
    lines.append(f"  the {'extra' if len(actual) > n else 'missing'} bytes are "
                 + ("all zero" if not any(tail) else "not all zero"))
    return lines


def _where_actual_belongs(p, streams, elt: str, act: bytes) -> Optional[str]:
    """Where the reference puts an element with the bytes ``act``."""
    if not any(act):
        return None
    hits = []
    for t, st in enumerate(streams):
        eb = wr.element_bytes(st, elt)
        ok = np.all(eb == np.frombuffer(act, np.uint8), axis=1)
        for q in np.nonzero(ok)[0][:3 - len(hits)]:
            off = p.segments[t].offset + int(q) * p.esize
            hits.append(f"{wr.describe_source(p, t, int(q))} at byte {off}")
        if len(hits) >= 3:
            break
    if not hits:
        return "  (the reference puts that element value nowhere)"
    return "  (actual element is what the reference puts at " + "; ".join(hits) + \
        (", ..." if len(hits) == 3 else "") + ")"


def check_one_weight(name: str, type_text: str, shape, elt, enc, hexdata: str,
                     data, how: str, out) -> Tuple[bool, int]:
    """Compare one uncompressed #dla.weight blob."""
    try:
        p = wr.plan(enc, shape, elt)
    except ValueError as e:
        print(f"error: {name}: {type_text}: {e}", file=out)
        return False, 0
    if enc.compressed:
        print(f"error: {name}: {type_text}: a compressed weight must be a "
              f"dla.weight_constant, not an arith.constant", file=out)
        return False, 0
    actual, nbytes = weight_blob(name, hexdata, out)
    if actual is None:
        return False, nbytes
    _, streams = wr.streams(data, enc, elt)
    expected = wr.pack(data, enc, elt)["weights"]
    if actual == expected:
        return True, len(actual)
    n = min(len(actual), len(expected))
    diff = next((i for i in range(n) if actual[i] != expected[i]), None)
    lines = [f"error: {name}: packed bytes differ from the reference",
             f"  type: {type_text}",
             f"  layout: {p.describe()}; blob has {len(actual)} bytes",
             f"  data: {how}"]
    if diff is None:
        lines += _size_lines(expected, actual)
    else:
        what, pos = wr.describe_byte(p, diff)
        lines.append(f"  first differing byte: {diff}")
        lines.append(f"  reference puts there: {what}")
        lines.append(f"  expected byte 0x{expected[diff]:02x}, actual 0x{actual[diff]:02x}")
        if pos is not None:
            t, q = pos
            lo = p.segments[t].offset + q * p.esize
            hi = lo + p.esize
            dt = nv.element_dtype(elt)
            ev = np.frombuffer(expected[lo:hi], dt)[0]
            av = np.frombuffer(actual[lo:hi], dt)[0] if hi <= len(actual) else None
            lines.append(f"  expected element {ev!r} ({expected[lo:hi].hex()}), "
                         f"actual {av!r} ({actual[lo:hi].hex()})")
            if av is not None:
                w = _where_actual_belongs(p, streams, elt, actual[lo:hi])
                if w:
                    lines.append(w)
        if len(actual) != len(expected):
            lines.append(f"  also size mismatch: expected {len(expected)} bytes, "
                         f"got {len(actual)}")
    print("\n".join(lines), file=out)
    return False, len(actual)


_KEY_RE = re.compile(r"\b(wgs|wmb|data)\s*=\s*dense_resource<(" + _ID + r")>")


def parse_weight_constant(stmt: str, aliases) -> Tuple[Dict[str, Tuple[str, Optional[str]]], str]:
    """'dla.weight_constant wgs = dense_resource<A> : tensor<Nxi8>, ... : T' ->
    ({surface: (resource, declared type or None)}, result type)."""
    keys: Dict[str, Tuple[str, Optional[str]]] = {}
    result = None
    pos = 0
    for m in _KEY_RE.finditer(stmt):
        if m.group(1) in keys:
            raise CheckError(f"dla.weight_constant: '{m.group(1)}' given twice")
        decl = None
        tm = re.match(r"\s*:\s*", stmt[m.end():])
        pos = m.end()
        if tm:
            ttext, tend = read_type_at(stmt, m.end() + tm.end())
            _, _, enc = parse_tensor_type(ttext, aliases)
            if wr.is_weight_encoding(enc):
                result = ttext
            else:
                decl = ttext
            pos = tend
        keys[m.group(1)] = (unquote(m.group(2)), decl)
    missing = [k for k in wr.SURFACES if k not in keys]
    if missing:
        raise CheckError(f"dla.weight_constant without {', '.join(missing)}: "
                         f"{stmt.strip()[:200]}")
    if result is None:
        # the last type of the statement after the keys
        cands = [mm.start() for mm in re.finditer(r"tensor<|![A-Za-z_]", stmt[pos:])]
        for c in reversed(cands):
            try:
                ttext, _ = read_type_at(stmt, pos + c)
                _, _, enc = parse_tensor_type(ttext, aliases)
            except CheckError:
                continue
            if wr.is_weight_encoding(enc):
                result = ttext
                break
    if result is None:
        raise CheckError(f"dla.weight_constant without a #dla.weight result type: "
                         f"{stmt.strip()[:200]}")
    return keys, result


_NEXT_STMT = re.compile(r"\n\s*(?:%|return\b|\}|func\.|dla\.|arith\.|\"|\^|module\b)")


def weight_constant_spans(body: str) -> List[Tuple[int, int]]:
    """(start, end) of every dla.weight_constant statement; a statement ends
    where the next line starts another statement."""
    out = []
    for m in re.finditer(r'"?dla\.weight_constant"?', body):
        nxt = _NEXT_STMT.search(body, m.end())
        out.append((m.start(), nxt.start() if nxt else len(body)))
    return out


def check_weight_constant(stmt: str, fname: Optional[str], aliases, blobs, sources,
                          out) -> Tuple[bool, int]:
    """Compare the three surfaces of one dla.weight_constant."""
    where = f"dla.weight_constant in @{fname}"
    try:
        keys, type_text = parse_weight_constant(stmt, aliases)
        shape, elt, enc_text = parse_tensor_type(type_text, aliases)
        enc = wr.parse_encoding(enc_text)
        p = wr.plan(enc, shape, elt)
        data, how = weight_data(fname, shape, elt, sources, where, enc)
    except (CheckError, ValueError) as e:
        print(f"error: {where}: {e}", file=out)
        return False, 0
    if not enc.compressed:
        print(f"error: {where}: {type_text}: dla.weight_constant of an uncompressed "
              f"weight (no 'compressed' flag)", file=out)
        return False, 0
    ref = wr.compress(data, enc, elt)
    ok, total = True, 0
    for surface in wr.SURFACES:
        res, decl = keys[surface]
        label = f"{res} ({surface} of the {where})"
        if res not in blobs:
            print(f"error: resource {res} ({surface} of the {where}) has no blob in the "
                  f"builtin dialect_resources section", file=out)
            ok = False
            continue
        actual, nbytes = weight_blob(label, blobs[res], out)
        total += nbytes
        if actual is None:
            ok = False
            continue
        if decl is not None:
            dshape, delt, denc = parse_tensor_type(decl, aliases)
            if denc is not None or len(dshape) != 1 or delt not in ("i8", "ui8", "si8") \
                    or dshape[0] != len(actual):
                print(f"error: {label}: declared type {decl} does not match its "
                      f"{len(actual)}-byte blob (expected tensor<{len(actual)}xi8>)", file=out)
                ok = False
        expected = ref.surfaces[surface]
        if actual == expected:
            continue
        ok = False
        n = min(len(actual), len(expected))
        diff = next((i for i in range(n) if actual[i] != expected[i]), None)
        lines = [f"error: {label}: packed bytes differ from the reference",
                 f"  type: {type_text}",
                 f"  layout: {p.describe()}; compressed surfaces expected "
                 + ", ".join(f"{s} {len(ref.surfaces[s])}" for s in wr.SURFACES)
                 + f" bytes; this {surface} blob has {len(actual)} bytes",
                 f"  data: {how}"]
        if diff is None:
            lines += _size_lines(expected, actual)
        else:
            lines.append(f"  first differing byte: {diff}")
            for d in wr.describe_surface_byte(ref, surface, diff, actual):
                lines.append(f"  reference puts there: {d}")
            lines.append(f"  expected byte 0x{expected[diff]:02x}, "
                         f"actual 0x{actual[diff]:02x}")
            if len(actual) != len(expected):
                lines.append(f"  also size mismatch: expected {len(expected)} bytes, "
                             f"got {len(actual)}")
        print("\n".join(lines), file=out)
    return ok, total


def check_text(text: str, expect_count: Optional[int] = None,
               verbose: bool = False, out=sys.stdout, err=sys.stderr,
               source: Optional[str] = None) -> int:
    try:
        body, section = split_resources(text)
        blobs = parse_builtin_blobs(section)
        aliases = parse_aliases(body)
        spans = function_spans(body)
        sources = parse_source_module(source) if source is not None else None
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
    wc_spans = weight_constant_spans(body)
    for m in re.finditer(r"dense_resource<(" + _ID + r")>\s*:", body):
        if any(s <= m.start() < e for s, e in wc_spans):
            continue          # a surface of a dla.weight_constant, checked below
        name = unquote(m.group(1))
        try:
            type_text, _ = read_type_at(body, m.end())
            shape, elt, enc = parse_tensor_type(type_text, aliases)
            pairs = chunked_layout(enc)
            nv_enc = nvdla_encoding(enc) if pairs is None else None
            w_enc = wr.parse_encoding(enc) if wr.is_weight_encoding(enc) else None
        except (CheckError, ValueError) as e:
            print(f"error: resource {name}: {e}", file=err)
            ok = False
            continue
        if w_enc is not None:
            count += 1
            if name not in blobs:
                print(f"error: resource {name} ({type_text}) has no blob in the "
                      f"builtin dialect_resources section", file=err)
                ok = False
                continue
            fname = enclosing_function(spans, m.start())
            try:
                data, how = weight_data(fname, shape, elt, sources, f"resource {name}", w_enc)
            except CheckError as e:
                print(f"error: {e}", file=err)
                ok = False
                continue
            good, nbytes = check_one_weight(name, type_text, shape, elt, w_enc,
                                            blobs[name], data, how, err)
            total += nbytes
            ok &= good
            if verbose and good:
                print(f"ok: {name}: {type_text}: {nbytes} bytes", file=out)
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

    # Compressed weights: dla.weight_constant (pretty or generic form).
    for start, end in wc_spans:
        stmt = body[start:end]
        fname = enclosing_function(spans, start)
        count += 1
        good, nbytes = check_weight_constant(stmt, fname, aliases, blobs, sources, err)
        total += nbytes
        ok &= good
        if verbose and good:
            print(f"ok: dla.weight_constant in @{fname}: {nbytes} bytes", file=out)

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
        elif wr.is_weight_encoding(enc):
            print(f"error: #dla.weight constant not packed into a dense_resource: "
                  f"{type_text}", file=err)
            ok = False

    if count == 0:
        print("error: no packed constant (dense_resource with a #dla.chunked or NVDLA "
              "encoding, or a dla.weight_constant) found",
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
    ap.add_argument("--source", metavar="FILE",
                    help="the gen_module.py module that was packed: #dla.weight "
                    "constants are checked against its data (default: iota)")
    args = ap.parse_args(argv)
    if args.input == "-":
        text = sys.stdin.read()
    else:
        with open(args.input, encoding="utf-8") as f:
            text = f.read()
    source = None
    if args.source:
        with open(args.source, encoding="utf-8") as f:
            source = f.read()
    return check_text(text, args.expect_count, args.verbose, source=source)


if __name__ == "__main__":
    sys.exit(main())
