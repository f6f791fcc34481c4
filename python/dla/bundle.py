"""Deployable bundles: what dla-compile writes and how to read it back.

    import dla.bundle
    b = dla.bundle.load("out")          # out/manifest.json, out/weights/*.bin
    b.weights["dla_packed_3"]           # numpy uint8 view of the surface's bytes
    b.array("dla_packed_3")             # the same bytes as the storage element type
    b.manifest["layers"][0]             # {"op": "dla.conv", "unit": "CONV/CACC", ...}

`describe(module, remarks)` builds the manifest of a module compiled by
--dla-compile (tensor form: layer ops, encodings, packed constants): every
storage number in it (bytes, alignment, strides, plane offsets) is the
format library's storage description of the tensor's type, never computed
here. The manifest's schema is docs/bundle-manifest.schema.json.
"""

import json
import os
import re

import numpy as np

from . import DLAError, _natural_dtype, performance

MANIFEST = "manifest.json"
FORMAT_VERSION = 1

# A location "file":line:col (the innermost file location of an op).
# The reason of a host op that no --dla-convert-tosa remark explains: it moves
# or converts data, it computes no layer.
_DATA_REASON = "not a layer (data movement or an element type conversion)"
# --dla-convert-tosa's summary remark: its share of multiply-accumulates.
_MAC_SHARE = re.compile(r"\(([0-9.]+%) of the multiply-accumulates\)")
_FILE_LOC = re.compile(r'"([^"]*)":(\d+):(\d+)')
_REMARK = re.compile(r"^(.*?):(\d+):(\d+): remark: (.*)$")
# dla-opt names the ONNX node a location names (tools/dla-opt/
# ModelDiagnostics.h): "model.onnx: node 'conv1': remark: ..." or
# "nodes 'a', 'b'"; the ops carry loc("conv1"("model.onnx":0:0)).
_NODE_REMARK = re.compile(r"^(.*?): nodes? ((?:'[^']*'(?:, )?)+): remark: (.*)$")
_NODE_LOC = re.compile(r'^loc\("((?:[^"\\]|\\.)*)"\(')


def _loc_key(path, line, col):
    return (os.path.basename(path), int(line), int(col))


def _loc_text(key):
    """"model.onnx:3:5", "node 'conv1'" or None."""
    if not key:
        return None
    return "node '%s'" % key[1] if key[0] == "node" else "%s:%d:%d" % key


def parse_remarks(text):
    """[(location key or None, message)] of every `remark:` line."""
    remarks = []
    for line in text.splitlines():
        m = _REMARK.match(line)
        n = _NODE_REMARK.match(line)
        if m:
            remarks.append((_loc_key(m.group(1), m.group(2), m.group(3)), m.group(4)))
        elif n:
            for name in re.findall(r"'([^']*)'", n.group(2)):
                remarks.append((("node", name), n.group(3)))
        elif ": remark: " in line:
            remarks.append((None, line.split(": remark: ", 1)[1]))
    return remarks


def _inner(attr_text):
    """'#dla.pipeline_precision<fp16>' -> 'fp16'."""
    m = re.search(r"<(.*)>$", attr_text)
    return m.group(1) if m else attr_text


def _tensor_info(t):
    """Logical shape, element type, encoding and the format library's
    storage description of a tensor type."""
    layout = t.layout()
    enc = t.encoding
    return {
        "type": str(t),
        "shape": list(layout.shape),
        "element_type": str(t.element_type),
        "element_bytes": layout.element_bytes,
        "encoding": str(enc) if enc is not None else "row-major",
        "bytes": layout.storage_bytes,
        "storage": _storage(layout),
    }, layout


def _element_bytes(element_type):
    """Bytes of an integer or float element type (i8, f16, ...)."""
    m = re.search(r"(\d+)$", str(element_type))
    if not m or int(m.group(1)) % 8:
        raise DLAError("%s: no whole-byte storage width" % element_type)
    return int(m.group(1)) // 8


def _storage(layout):
    s = layout.storage()
    views = []
    for v in s["views"]:
        views.append({"name": v["name"], "buffer": v["buffer"], "element_bytes": v["element_bytes"],
                      "offset": v["offset"], "logical_base": list(v["logical_base"]),
                      "dims": v["dims"]})
    return {"buffers": s["buffers"], "views": views}


def _compressed_bytes(context, t, blob):
    """Bytes of WGS + WMB + data were these direct weights compressed (the
    packer --dla-pack-weights runs), or None where the encoding has no
    compressed form on its target."""
    text = str(t)
    if "#dla.weight<direct" not in text or "compressed" in text:
        return None
    try:
        ctype = context.parse_type(re.sub(r"(#dla\.weight<direct, [^,>]+)", r"\1, compressed", text))
        logical = t.layout().unpack(np.frombuffer(blob, np.uint8))
        return int(sum(s.size for s in ctype.pack_surfaces(logical).values()))
    except DLAError:
        return None


def describe(module, remarks_text="", **info):
    """(manifest, {file name: bytes}) of a module --dla-compile produced.
    `info` (model, target, precision, ...) goes into the manifest as is."""
    remarks = parse_remarks(remarks_text)
    by_loc = {}
    for key, message in remarks:
        by_loc.setdefault(key, []).append(message)
    ops = module.walk()
    types, producers = {}, {}
    weights, tensors, layers, relayouts, files = [], [], [], [], {}
    compressed_pairs = []  # (dense bytes, WGS + WMB + data) of compressed weights
    func, arg_types = None, []
    names = {}

    def loc_of(op):
        node = _NODE_LOC.match(op.location)
        if node:
            return ("node", node.group(1))
        m = _FILE_LOC.search(op.location)
        return _loc_key(*m.groups()) if m else None

    def value_name(vid, op=None):
        if op is not None and vid in op.arguments:
            return "%s.input%d" % (func, op.arguments[vid])
        return names.get(vid, "?")

    for op in ops:
        if op.name == "func.func":
            func = _inner_str(op.attributes["sym_name"])
            arg_types, results = op.attributes["function_type"].function_signature()
            public = "sym_visibility" not in op.attributes
            for role, list_ in (("input", arg_types), ("output", results)):
                for i, t in enumerate(list_ if public else []):
                    entry, layout = _tensor_info(t)
                    tensors.append(dict(name="%s.%s%d" % (func, role, i), role=role,
                                        alignment=_alignment(entry), **entry))
            continue
        for i, vid in enumerate(op.results):
            types[vid] = op.result_types[i]
            producers[vid] = op
        base = op.name.split(".", 1)[-1]
        index = sum(1 for n in names.values() if n.startswith(base + "_") and n.count(".") == 0)
        for i, vid in enumerate(op.results):
            names[vid] = "%s_%d" % (base, index) + ("" if len(op.results) == 1 else ".%d" % i)
        operand_types = [types.get(v) or arg_types[op.arguments[v]] for v in op.operands]
        # Packed constants, and host constants held in blobs (the module in
        # the bundle references every blob by name: each must be a file).
        value = op.attributes.get({"arith.constant": "value", "tosa.const": "values"}.get(op.name))
        if value is not None and value.is_dense_resource:
            key, blob = value.resource_blob()
            entry, layout = _tensor_info(op.result_types[0])
            if len(blob) != layout.storage_bytes:
                raise DLAError("%s: %d bytes, its type's storage is %d"
                               % (key, len(blob), layout.storage_bytes))
            files["weights/%s.bin" % key] = blob
            weights.append(dict(name=key, surface="storage", file="weights/%s.bin" % key,
                                alignment=_alignment(entry), value=names[op.results[0]],
                                compressed_bytes=_compressed_bytes(module.context,
                                                                   op.result_types[0], blob),
                                **entry))
            continue
        if op.name == "dla.weight_constant":
            # Compressed weights: no bound layout (their storage depends on
            # the values); the type describes the surfaces, the blobs size them.
            t = op.result_types[0]
            blobs = {s: op.attributes[s].resource_blob() for s in ("wgs", "wmb", "data")}
            storage = t.storage()
            for b in storage["buffers"]:
                b["bytes"] = len(blobs[b["name"]][1])
            entry = {"type": str(t), "shape": list(t.shape),
                     "element_type": str(t.element_type),
                     "element_bytes": _element_bytes(t.element_type),
                     "encoding": str(t.encoding), "storage": storage}
            dense = module.context.parse_type(str(t).replace(", compressed", ""))
            compressed_pairs.append((dense.layout().storage_bytes,
                                     sum(len(blob) for _, blob in blobs.values())))
            for b in storage["buffers"]:
                key, blob = blobs[b["name"]]
                files["weights/%s.bin" % key] = blob
                weights.append(dict(entry, name=key, surface=b["name"],
                                    file="weights/%s.bin" % key, bytes=len(blob),
                                    alignment=b["alignment"], value=names[op.results[0]],
                                    compressed_bytes=None))
            continue
        if op.name == "dla.relayout":
            src, dst = operand_types[0], op.result_types[0]
            (s_info, s_layout), (d_info, d_layout) = _tensor_info(src), _tensor_info(dst)
            relayouts.append({"name": names[op.results[0]], "from": s_info["encoding"],
                              "to": d_info["encoding"], "type": d_info["type"],
                              "input": value_name(op.operands[0], op),
                              "read_bytes": s_layout.storage_bytes,
                              "written_bytes": d_layout.storage_bytes,
                              "unit": op.unit or "host",
                              "crossings": _crossings(src, dst, op.unit)})
            # Where host and accelerator meet: the encoded side's storage.
            if (src.encoding is None) != (dst.encoding is None):
                encoded = d_info if src.encoding is None else s_info
                tensors.append(dict(name=names[op.results[0]],
                                    role="to_accelerator" if src.encoding is None else "to_host",
                                    alignment=_alignment(encoded), **encoded))
            continue
        # Constants, terminators, functions: no layer (Operation.computes).
        if not op.computes:
            continue
        layer = {"name": names[op.results[0]] if op.results else "%s_%d" % (base, index),
                 "op": op.name,
                 "inputs": [value_name(v, op) for v in op.operands],
                 "encodings": {"inputs": [_encoding(t) for t in operand_types],
                               "outputs": [_encoding(t) for t in op.result_types]},
                 "location": _loc_text(loc_of(op)) or op.location}
        if "mode" in op.attributes:
            # '#dla<sdp_mode on_the_fly>' -> 'on_the_fly'
            layer["mode"] = _inner(str(op.attributes["mode"])).split()[-1]
        if op.emulated:
            element = [str(t.element_type) for t in op.result_types if _is_tensor(t)]
            layer.update(placement="emulator", unit="EMU",
                         precision=_DATA_PRECISION.get(element[0]) if element else None,
                         reason="NVIDIA's runtime emulator runs it on the CPU, an EMU task "
                                "of the loadable (docs/Emulator.md)")
        elif op.unit is not None:
            # The precision of the data it reads and writes (the compile's);
            # its arithmetic where the unit computes wider (SDP's fp32
            # pipeline on fp16 data: --dla-check-precision's pipeline_precision).
            pipeline = op.attributes.get("pipeline_precision")
            pipeline = _inner(str(pipeline)) if pipeline is not None else None
            data = [t for t in operand_types if _is_tensor(t)]
            precision = _DATA_PRECISION.get(str(data[0].element_type)) if data else None
            layer.update(placement="accelerator", unit=op.unit, precision=precision or pipeline,
                         reason="an NVDLA layer: runs on the %s" % op.unit)
            # The shapes the performance model needs (dla.performance).
            producer = producers.get(op.operands[0]) if op.operands else None
            hardware = performance.hardware_layer(op, operand_types, producer)
            if hardware:
                if hardware.get("fused"):
                    hardware["fused_into"] = names[producer.results[0]]
                layer["hardware"] = hardware
            if pipeline and pipeline != layer["precision"]:
                layer["arithmetic"] = pipeline
        else:
            why = [m for m in by_loc.get(loc_of(op), []) if m.startswith("stays on the host")]
            element = [str(t.element_type) for t in op.result_types if _is_tensor(t)]
            layer.update(placement="host", unit="host",
                         precision=element[0] if element else None,
                         # No remark: --dla-convert-tosa offers layers only.
                         reason=why[0].split(": ", 1)[1] if why else _DATA_REASON)
        layers.append(layer)

    missing = sorted(set(module.resource_blobs()) - {w["name"] for w in weights})
    if missing:
        raise DLAError("blobs the bundle would lose (no weight file): %s" % ", ".join(missing))
    summary = _summary(remarks, layers, relayouts, weights, compressed_pairs)
    manifest = dict(format="dla-bundle", version=FORMAT_VERSION, **info)
    manifest.update(summary=summary, weights=weights, tensors=tensors, layers=layers,
                    relayouts=relayouts,
                    remarks=[{"location": _loc_text(k), "message": m}
                             for k, m in remarks])
    return manifest, files


# The element type of an offloaded layer's feature data -> its NVDLA precision.
_DATA_PRECISION = {"f16": "fp16", "i8": "int8", "i16": "int16"}


def _inner_str(attr):
    text = str(attr)
    return text[1:-1] if text.startswith('"') else text


def _is_tensor(t):
    return str(t).startswith("tensor<")


def _encoding(t):
    if t is None or not _is_tensor(t):
        return None
    return str(t.encoding) if t.encoding is not None else "row-major"


def _crossings(src, dst, unit):
    """How often a relayout's data crosses between accelerator memory (an
    encoded tensor) and the host: once where one side is row-major; twice
    where both are encoded and the host runs it (out to the host and back
    in: a copy no accelerator unit runs, e.g. on nv_small and nv_large,
    which have no BDMA); never where an accelerator unit runs it (`unit`,
    the C API's: "BDMA")."""
    encoded = (src.encoding is not None) + (dst.encoding is not None)
    return 1 if encoded == 1 else 0 if unit else encoded


def _alignment(entry):
    buffers = entry["storage"]["buffers"]
    return max([b["alignment"] for b in buffers] or [1])


def _summary(remarks, layers, relayouts, weights, compressed_pairs):
    """Compressible weights: the direct ones stored dense (compression would
    not save) and those stored compressed, each as dense and as compressed."""
    offload = [m for _, m in remarks if m.startswith("dla-convert-tosa: ")]
    dense = sum(w["bytes"] for w in weights)
    compressible = [(w["bytes"], w["compressed_bytes"]) for w in weights
                    if w.get("compressed_bytes") is not None] + compressed_pairs
    share = _MAC_SHARE.search(offload[0]) if offload else None
    host = [l for l in layers if l["placement"] == "host"]
    # Transitions: the encoded side of each tensor handed between host and
    # accelerator, and each relayout between encoded tensors the host runs
    # (its source read out, its result written back in).
    to_acc = [r for r in relayouts if r["crossings"] == 1 and r["from"] == "row-major"]
    to_host = [r for r in relayouts if r["crossings"] == 1 and r["to"] == "row-major"]
    inside = [r for r in relayouts if r["crossings"] == 2]
    inside_bytes = sum(r["read_bytes"] + r["written_bytes"] for r in inside)
    return {
        "layers": len(layers),
        "accelerator_layers": sum(1 for l in layers if l["placement"] == "accelerator"),
        "emulator_layers": sum(1 for l in layers if l["placement"] == "emulator"),
        "host_layers": sum(1 for l in host if l["reason"] != _DATA_REASON),
        "host_data_ops": sum(1 for l in host if l["reason"] == _DATA_REASON),
        "accelerator_macs": share.group(1) if share else None,
        "offload": offload[0].split(": ", 1)[1] if offload else None,
        "relayouts": len(relayouts),
        "relayout_bytes": sum(r["read_bytes"] + r["written_bytes"] for r in relayouts),
        "transitions": len(to_acc) + len(to_host) + 2 * len(inside),
        "transition_bytes": (sum(r["written_bytes"] for r in to_acc)
                             + sum(r["read_bytes"] for r in to_host) + inside_bytes),
        "to_accelerator": len(to_acc),
        "to_host": len(to_host),
        "host_relayouts": len(inside),
        "host_relayout_bytes": inside_bytes,
        "weight_surfaces": len(weights),
        "weight_bytes": dense,
        "compressible_weight_bytes": sum(d for d, _ in compressible),
        "compressed_weight_bytes": sum(c for _, c in compressible),
        "compressed_weights": len(compressed_pairs),
    }


def placement_text(summary):
    """Where the layers run, one line's worth: "243 on the accelerator, 6 on
    the host (99.1% of the multiply-accumulates on the accelerator); 49 host
    ops move or convert data". The same counts everywhere (dla-compile's
    summary, the report)."""
    text = "%d on the accelerator, " % summary["accelerator_layers"]
    if summary.get("emulator_layers"):
        text += "%d in NVIDIA's runtime emulator, " % summary["emulator_layers"]
    text += "%d on the host" % summary["host_layers"]
    if summary["accelerator_macs"]:
        text += " (%s of the multiply-accumulates on the accelerator)" % summary["accelerator_macs"]
    if summary["host_data_ops"]:
        text += "; %d host ops move or convert data" % summary["host_data_ops"]
    return text


def transitions_text(summary):
    """The accelerator <-> host crossings, one line's worth: "4 (1 to the
    accelerator + 1 to the host + 2 inside the network: 1 host relayout
    between encoded tensors, out and back in), 2880 bytes (1920 inside)".
    The same words everywhere (dla-compile's summary, the report)."""
    text = "%d (%d to the accelerator + %d to the host" % (
        summary["transitions"], summary["to_accelerator"], summary["to_host"])
    n = summary["host_relayouts"]
    if n:
        text += (" + %d inside the network: %d host relayout%s between encoded tensors, "
                 "out and back in" % (2 * n, n, "" if n == 1 else "s"))
    text += "), %d bytes" % summary["transition_bytes"]
    if n:
        text += " (%d inside)" % summary["host_relayout_bytes"]
    return text


def write(out_dir, manifest, files):
    """Writes manifest.json and every weight file under out_dir."""
    os.makedirs(os.path.join(out_dir, "weights"), exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
    with open(os.path.join(out_dir, MANIFEST), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


class Bundle:
    """A bundle on disk: its manifest and read-only numpy views of its
    weight surfaces by name (memory-mapped, exactly the files' bytes)."""

    def __init__(self, path, manifest):
        self.path = path
        self.manifest = manifest
        self.weights = {}
        self._entries = {}
        for w in manifest.get("weights", []):
            file = os.path.join(path, w["file"])
            if not os.path.isfile(file):
                raise DLAError("%s: the manifest's weight %s is missing" % (file, w["name"]))
            size = os.path.getsize(file)
            if size != w["bytes"]:
                raise DLAError("%s: %d bytes, the manifest says %d" % (file, size, w["bytes"]))
            self.weights[w["name"]] = (np.memmap(file, np.uint8, "r") if size
                                       else np.zeros(0, np.uint8))
            self._entries[w["name"]] = w

    def entry(self, name):
        """The manifest's entry of a weight surface."""
        return self._entries[name]

    def array(self, name):
        """A weight surface's bytes as its storage element type (the
        element width of the logical type: f16, i8, ...), little-endian."""
        w = self._entries[name]
        if w["surface"] != "storage":
            return self.weights[name]
        dtype = _natural_dtype(w["element_type"], w["element_bytes"]).newbyteorder("<")
        return self.weights[name].view(dtype)


def load(path):
    """Reads the bundle dla-compile wrote to `path`."""
    manifest_path = os.path.join(path, MANIFEST)
    try:
        with open(manifest_path) as f:
            manifest = json.load(f)
    except OSError as e:
        raise DLAError("%s: cannot read the manifest (%s)" % (manifest_path, e.strerror))
    except ValueError as e:
        raise DLAError("%s: not JSON (%s)" % (manifest_path, e))
    if manifest.get("format") != "dla-bundle" or manifest.get("version") != FORMAT_VERSION:
        raise DLAError("%s: not a version %d dla bundle manifest" % (manifest_path, FORMAT_VERSION))
    return Bundle(path, manifest)
