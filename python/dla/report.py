"""The bundle's report.html: one self-contained page (inline SVG and CSS,
no script, no network) from a manifest (dla.bundle.describe) and the
storage maps of its encodings.

Every storage map comes from the format library: `storage_maps` asks the
bound layout which logical element holds each byte (Layout.locate, the C
API's dlaBoundLayoutLocate) and never computes a layout itself.
"""

import html as _html

from . import bundle, performance

MAP_BYTES = 256      # bytes shown per encoding
ROW_BYTES = 32       # bytes per row of a map (an NVDLA atom on nv_full)
BOX_WIDTH, BOX_HEIGHT = 16, 12   # a layer in the graph, pixels
_PLACEMENT_COLOURS = {"accelerator": "#3b8e3b", "host": "#c0504d"}


def storage_maps(context, manifest):
    """[{encoding, type, bytes, cells: [[index..., byte_in_element] | None]}],
    one per distinct encoding of the manifest's weights and tensors (the
    first tensor that has it), the first MAP_BYTES bytes of its storage."""
    seen, maps = set(), []
    for entry in manifest["weights"] + manifest["tensors"]:
        enc = entry["encoding"]
        if enc == "row-major" or enc in seen or entry.get("surface", "storage") != "storage":
            continue
        seen.add(enc)
        layout = context.parse_type(entry["type"]).layout()
        n = min(layout.storage_bytes, MAP_BYTES)
        cells = []
        for b in range(n):
            hit = layout.locate(b)
            cells.append(None if hit is None else list(hit[0]) + [hit[1]])
        maps.append({"encoding": enc, "type": entry["type"], "bytes": layout.storage_bytes,
                     "element_bytes": layout.element_bytes, "cells": cells})
    return maps


def _e(text):
    return _html.escape(str(text), quote=True)


def _graph(layers, relayouts):
    """An SVG of the layers, each a box coloured by placement, columns by
    depth (longest path from an input), edges from producer to consumer
    (through relayouts)."""
    through = {r["name"]: r["input"] for r in relayouts}

    def producers(layer):
        for p in layer["inputs"]:
            while p in through:
                p = through[p]
            yield p

    depth = {}
    for l in layers:
        ds = [depth[p] + 1 for p in producers(l) if p in depth]
        depth[l["name"]] = max(ds or [0])
    cols = {}
    pos = {}
    per_row = 48
    w, h, gx, gy = BOX_WIDTH, BOX_HEIGHT, 22, 16
    row_heights = {}
    for l in layers:
        d = depth[l["name"]]
        slot = cols.setdefault(d, 0)
        cols[d] = slot + 1
        row = d // per_row
        row_heights[row] = max(row_heights.get(row, 0), slot + 1)
        pos[l["name"]] = (row, d % per_row, slot)
    offsets, y = {}, 10
    for row in sorted(row_heights):
        offsets[row] = y
        y += row_heights[row] * gy + 24
    coords = {n: (10 + c * gx, offsets[r] + s * gy) for n, (r, c, s) in pos.items()}
    width = 20 + per_row * gx
    out = ['<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">'
           % (width, y)]
    for l in layers:
        x1, y1 = coords[l["name"]]
        for p in producers(l):
            if p in coords:
                x0, y0 = coords[p]
                out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" class="edge"/>'
                           % (x0 + w, y0 + h // 2, x1, y1 + h // 2))
    for l in layers:
        x, yy = coords[l["name"]]
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="2" class="node %s" '
                   'fill="%s"><title>%s</title></rect>'
                   % (x, yy, w, h, l["placement"], _PLACEMENT_COLOURS[l["placement"]],
                      _e("%s: %s%s on %s (%s)" % (l["name"], l["op"],
                                                  " " + l["mode"] if l.get("mode") else "",
                                                  l["unit"], l["reason"]))))
    out.append("</svg>")
    return "\n".join(out)


def _map_svg(m):
    """One storage map: a cell per byte, ROW_BYTES to a row, labelled with
    the logical index of the element it holds; padding hatched."""
    cw, ch = 34, 26
    labels = []
    rows = (len(m["cells"]) + ROW_BYTES - 1) // ROW_BYTES
    out = ['<svg class="map" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">'
           % (60 + ROW_BYTES * cw, 10 + rows * ch),
           '<defs><pattern id="pad" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/>'
           '<line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>']
    for r in range(rows):
        out.append('<text x="2" y="%d" class="off">%d</text>' % (5 + r * ch + ch // 2 + 4,
                                                                   r * ROW_BYTES))
    for b, cell in enumerate(m["cells"]):
        x, y = 56 + (b % ROW_BYTES) * cw, 5 + (b // ROW_BYTES) * ch
        if cell is None:
            out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="url(#pad)" '
                       'class="cell padding"><title>byte %d: padding</title></rect>'
                       % (x, y, cw - 1, ch - 1, b))
            continue
        index, byte = cell[:-1], cell[-1]
        # Hue by the innermost logical index, lightness by the next one.
        hue = (index[-1] * 47) % 360 if index else 0
        light = 80 - 10 * ((index[-2] if len(index) > 1 else 0) % 3)
        label = ",".join(str(i) for i in index)
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="hsl(%d,60%%,%d%%)" '
                   'class="cell element"><title>byte %d: element (%s) byte %d</title></rect>'
                   % (x, y, cw - 1, ch - 1, hue, light, b, label, byte))
        if byte == 0:
            labels.append('<text x="%d" y="%d" class="idx">%s</text>'
                       % (x + 1, y + ch // 2 + 3, _e(label)))
    # Labels after every cell: an element's label spans its bytes.
    out += labels
    out.append("</svg>")
    return "\n".join(out)


def _table(headers, rows):
    out = ["<table><tr>%s</tr>" % "".join("<th>%s</th>" % _e(h) for h in headers)]
    for r in rows:
        out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % _e(c) for c in r))
    out.append("</table>")
    return "\n".join(out)


CSS = """
body { font-family: sans-serif; margin: 1em 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.8em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
.edge { stroke: #999; stroke-width: 0.7; }
.off { font: 8px monospace; } .idx { font: 7px monospace; }
.scroll { overflow-x: auto; max-height: 40em; }
"""


def _estimate_section(manifest):
    """The performance model's estimate (dla.performance): the frame, then
    per hardware layer its time, long pole and MAC utilization."""
    est = manifest.get("estimate")
    if not est:
        return ""
    rows = []
    for l in manifest["layers"]:
        e = l.get("estimate")
        if not e:
            continue
        if "fused_into" in e:
            rows.append((l["name"], l["op"], "", "part of %s" % e["fused_into"], "", "", "", ""))
        elif "error" in e:
            rows.append((l["name"], l["op"], "", "not estimated: %s" % e["error"], "", "", "", ""))
        else:
            rows.append((l["name"], l["op"], "%.0f" % e["cycles"], "%.2f" % (e["seconds"] * 1e6),
                         e["long_pole"], "%.0f%%" % (100 * e["mac_utilization"]),
                         e["traffic_bytes"], e["buffer_plan"]))
    return ("<h2>Estimated time</h2><p id='estimate'>Frame: %s (docs/PerformanceModel.md; "
            "no software overhead; memory latency %g cycles a layer).</p><div class='scroll'>%s"
            "</div>" % (_e(performance.frame_text(est)),
                        est["configuration"]["memory_latency_cycles"],
                        _table(["layer", "op", "cycles", "time (us)", "long pole", "MAC utilization",
                                "traffic (bytes)", "buffer plan"], rows)))


def html(manifest, maps):
    s = manifest["summary"]
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>dla-compile: %s</title>"
             "<style>%s</style></head><body>" % (_e(manifest["model"]), CSS),
             "<h1>%s for %s %s</h1>" % (_e(manifest["model"]), _e(manifest["target"]),
                                        _e(manifest["precision"])),
             "<p id='summary'>Layers: %s; %d relayouts moving %d bytes; %d weight surfaces, "
             "%d bytes.</p>"
             % (_e(bundle.placement_text(s)), s["relayouts"], s["relayout_bytes"],
                s["weight_surfaces"], s["weight_bytes"]),
             "<h2>Layer graph</h2><p class='legend'><b style='color:%s'>&#9632;</b> accelerator "
             "<b style='color:%s'>&#9632;</b> host (hover a layer for its op, unit and "
             "placement reason)</p>" % (_PLACEMENT_COLOURS["accelerator"],
                                            _PLACEMENT_COLOURS["host"]),
             "<div class='scroll' id='graph'>%s</div>" % _graph(manifest["layers"], manifest["relayouts"]),
             "<h2>Layers</h2><div class='scroll'>",
             _table(["layer", "op", "mode", "placement", "unit", "precision", "input encodings",
                     "output encodings", "why"],
                    [(l["name"], l["op"], l.get("mode", ""), l["placement"], l["unit"],
                      (l["precision"] or "") + (" (%s arithmetic)" % l["arithmetic"]
                                                 if "arithmetic" in l else ""),
                      ", ".join(e or "" for e in l["encodings"]["inputs"]),
                      ", ".join(e or "" for e in l["encodings"]["outputs"]), l["reason"])
                     for l in manifest["layers"]]),
             "</div>", _estimate_section(manifest),
             "<h2>Relayouts</h2><div class='scroll'>",
             _table(["relayout", "of", "from", "to", "bytes read", "bytes written"],
                    [(r["name"], r["input"], r["from"], r["to"], r["read_bytes"],
                      r["written_bytes"]) for r in manifest["relayouts"]]),
             "</div><h2>Weights</h2><p>%d bytes as packed; direct convolution weights %d "
             "bytes dense, %d compressed (WGS + WMB + data, the packer's sizes); %d stored "
             "compressed (where that is smaller).</p>"
             % (s["weight_bytes"], s["compressible_weight_bytes"], s["compressed_weight_bytes"],
                s["compressed_weights"]),
             "<div class='scroll'>",
             _table(["surface", "file", "bytes", "alignment", "encoding", "shape",
                     "compressed bytes"],
                    [(w["name"], w["file"], w["bytes"], w["alignment"], w["encoding"],
                      "x".join(map(str, w["shape"])), w["compressed_bytes"]
                      if w["compressed_bytes"] is not None else "")
                     for w in manifest["weights"]]),
             "</div><h2>Storage maps</h2><p>The first %d bytes of each encoding's storage, "
             "%d to a row: each byte shows the logical index of the element it holds "
             "(labelled at the element's first byte), padding hatched.</p>"
             % (MAP_BYTES, ROW_BYTES)]
    for m in maps:
        parts.append("<h3>%s</h3><p>%s: %d bytes of storage, %d per element</p>"
                     "<div class='scroll'>%s</div>"
                     % (_e(m["encoding"]), _e(m["type"]), m["bytes"], m["element_bytes"],
                        _map_svg(m)))
    counts = {}
    for r in manifest["remarks"]:
        counts[r["message"]] = counts.get(r["message"], 0) + 1
    parts.append("<h2>Remarks</h2><div class='scroll'>")
    parts.append(_table(["count", "remark"], sorted(((n, m) for m, n in counts.items()),
                                                    key=lambda x: -x[0])))
    parts.append("</div></body></html>\n")
    return "\n".join(parts)
