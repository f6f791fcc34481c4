"""The bundle's report.html: one self-contained page (inline SVG, CSS and
a small script, no network) from a manifest (dla.bundle.describe) and the
storage maps of its encodings: the layer graph with a labelled box per
layer (its op and name), the whole network's tables (every row on the
page; a click on a heading sorts, the layers filter by placement and by
text), the storage maps and the remarks.

The tables are lists of Column (heading, the cell of a manifest entry,
numeric or not): a new column of the manifest's layers (a per-layer time)
is one more Column in LAYER_COLUMNS.

Every storage map comes from the format library: `storage_maps` asks the
bound layout which logical element holds each byte (Layout.locate, the C
API's dlaBoundLayoutLocate) and never computes a layout itself.
"""

import html as _html

from . import bundle, performance

MAP_BYTES = 256      # bytes shown per encoding
ROW_BYTES = 32       # bytes per row of a map (an NVDLA atom on nv_full)
BOX_WIDTH, BOX_HEIGHT = 136, 30  # a layer in the graph: two lines of text, pixels
LABEL_CHARS = 21     # characters of a box's line (10 px monospace); longer: cut, with ...
GRAPH_WIDTH = 1400   # the graph's columns wrap into bands this wide
_PLACEMENT_COLOURS = {"accelerator": "#3b8e3b", "emulator": "#d19a2a", "host": "#c0504d"}


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
    w, h, gx, gy = BOX_WIDTH, BOX_HEIGHT, BOX_WIDTH + 28, BOX_HEIGHT + 8
    per_row = max(1, (GRAPH_WIDTH - 20) // gx)
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
    width = 20 + min(per_row, len(cols) or 1) * gx
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
        op = l["op"] + (" " + l["mode"] if l.get("mode") else "")
        out.append('<g class="node %s"><title>%s</title>'
                   '<rect x="%d" y="%d" width="%d" height="%d" rx="3" fill="%s"/>'
                   '<text x="%d" y="%d" class="op">%s</text>'
                   '<text x="%d" y="%d" class="name">%s</text></g>'
                   % (l["placement"], _e("%s: %s on %s (%s)" % (l["name"], op, l["unit"],
                                                                 l["reason"])),
                      x, yy, w, h, _PLACEMENT_COLOURS[l["placement"]],
                      x + 4, yy + 12, _e(_fit(op)), x + 4, yy + 25, _e(_fit(l["name"]))))
    out.append("</svg>")
    return "\n".join(out)


def _fit(text):
    """`text` cut to a box's line."""
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "\u2026"


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


class Column:
    """A column of a report table: its heading, the cell of a row (a
    manifest entry; None: empty) and whether it sorts as a number."""

    def __init__(self, heading, cell, numeric=False):
        self.heading, self.cell, self.numeric = heading, cell, numeric


def _precision(l):
    return (l["precision"] or "") + (" (%s arithmetic)" % l["arithmetic"]
                                     if "arithmetic" in l else "")


LAYER_COLUMNS = [
    Column("layer", lambda l: l["name"]),
    Column("op", lambda l: l["op"]),
    Column("mode", lambda l: l.get("mode", "")),
    Column("placement", lambda l: l["placement"]),
    Column("unit", lambda l: l["unit"]),
    Column("precision", _precision),
    Column("input encodings", lambda l: ", ".join(e or "" for e in l["encodings"]["inputs"])),
    Column("output encodings", lambda l: ", ".join(e or "" for e in l["encodings"]["outputs"])),
    Column("why", lambda l: l["reason"]),
]
RELAYOUT_COLUMNS = [
    Column("relayout", lambda r: r["name"]),
    Column("of", lambda r: r["input"]),
    Column("from", lambda r: r["from"]),
    Column("to", lambda r: r["to"]),
    Column("bytes read", lambda r: r["read_bytes"], numeric=True),
    Column("bytes written", lambda r: r["written_bytes"], numeric=True),
    Column("runs on", lambda r: r["unit"]),
    Column("crossings", lambda r: r["crossings"], numeric=True),
]
WEIGHT_COLUMNS = [
    Column("surface", lambda w: w["name"]),
    Column("file", lambda w: w["file"]),
    Column("bytes", lambda w: w["bytes"], numeric=True),
    Column("alignment", lambda w: w["alignment"], numeric=True),
    Column("encoding", lambda w: w["encoding"]),
    Column("shape", lambda w: "x".join(map(str, w["shape"]))),
    Column("compressed bytes", lambda w: w["compressed_bytes"], numeric=True),
]
REMARK_COLUMNS = [
    Column("count", lambda r: r[0], numeric=True),
    Column("remark", lambda r: r[1]),
]


def _table(table_id, columns, rows, row_attrs=lambda row: ""):
    """A sortable table of `rows` (each a manifest entry) by `columns`; a
    numeric cell keeps its number in data-value. `row_attrs(row)`: the
    attributes of its <tr>."""
    out = ['<table class="data" id="%s"><thead><tr>%s</tr></thead><tbody>' % (
        table_id, "".join('<th%s title="sort">%s</th>' % (' data-numeric="1"' if c.numeric else "",
                                                          _e(c.heading)) for c in columns))]
    for row in rows:
        cells = []
        for c in columns:
            v = c.cell(row)
            if v is None:
                cells.append("<td></td>")
            elif c.numeric:
                cells.append('<td data-value="%s">%s</td>' % (_e(v), _e(v)))
            else:
                cells.append("<td>%s</td>" % _e(v))
        out.append("<tr%s>%s</tr>" % (row_attrs(row), "".join(cells)))
    out.append("</tbody></table>")
    return "\n".join(out)


CSS = """
body { font-family: sans-serif; margin: 1em 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.8em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
th { background: #f2f2f2; cursor: pointer; user-select: none; position: sticky; top: 0; }
th[aria-sort=ascending]::after { content: " \\25B2"; }
th[aria-sort=descending]::after { content: " \\25BC"; }
td[data-value] { text-align: right; }
tr[data-placement=host] td:first-child { border-left: 4px solid #c0504d; }
tr[data-placement=accelerator] td:first-child { border-left: 4px solid #3b8e3b; }
tr[data-placement=emulator] td:first-child { border-left: 4px solid #d19a2a; }
.edge { stroke: #999; stroke-width: 0.7; }
.node text { font: 10px monospace; fill: #fff; pointer-events: none; }
.node .name { fill: #f4f4f4; }
.off { font: 8px monospace; } .idx { font: 7px monospace; }
.filters { margin: 0.5em 0; font-size: 0.9em; }
.filters input, .filters select { margin-right: 1em; }
"""

# Sorting (a click on a heading: ascending, again descending; numbers as
# numbers, text by code points, empty cells last, ties in their order) and the layer filters.
SCRIPT = """
(function () {
  function key(row, i, numeric) {
    var c = row.cells[i];
    if (!numeric) return c.textContent;
    var v = parseFloat(c.getAttribute('data-value'));
    return isNaN(v) ? null : v;
  }
  function sortBy(table, i, th) {
    var numeric = th.hasAttribute('data-numeric');
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a, i, numeric), y = key(b, i, numeric);
      if (x === y) return 0;
      if (x === null || x === '') return 1;
      if (y === null || y === '') return -1;
      if (numeric) return dir * (x - y);
      return dir * (x < y ? -1 : 1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.data'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener('click', function () { sortBy(table, i, th); });
    });
  });
  var layers = document.getElementById('layers');
  var placement = document.getElementById('placement-filter');
  var search = document.getElementById('layer-search');
  var shown = document.getElementById('layers-shown');
  function filter() {
    var p = placement.value, q = search.value.toLowerCase(), n = 0;
    Array.prototype.forEach.call(layers.tBodies[0].rows, function (r) {
      var ok = (!p || r.getAttribute('data-placement') === p) &&
               (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
      r.hidden = !ok;
      n += ok ? 1 : 0;
    });
    shown.textContent = n + ' of ' + layers.tBodies[0].rows.length + ' layers shown';
  }
  placement.addEventListener('change', filter);
  search.addEventListener('input', filter);
  filter();
})();
"""


def _layer_filters(layers):
    # The emulator's placement only where it runs something.
    counts = {p: sum(1 for l in layers if l["placement"] == p) for p in _PLACEMENT_COLOURS}
    if not counts["emulator"]:
        del counts["emulator"]
    options = ['<option value="">all (%d)</option>' % len(layers)] + [
        '<option value="%s">%s (%d)</option>' % (p, p, n) for p, n in counts.items()]
    return ('<p class="filters"><label>placement <select id="placement-filter">%s</select>'
            '</label><label>search <input id="layer-search" type="search" '
            'placeholder="name, op, unit, reason"></label><span id="layers-shown">%d of %d '
            'layers shown</span></p>' % ("".join(options), len(layers), len(layers)))


def _estimate_cell(field, fmt):
    def cell(l):
        e = l["estimate"]
        return None if field not in e else fmt(e[field])
    return cell


def _estimate_status(l):
    e = l["estimate"]
    if "fused_into" in e:
        return "part of %s" % e["fused_into"]
    if "error" in e:
        return "not estimated: %s" % e["error"]
    return e["long_pole"]


ESTIMATE_COLUMNS = [
    Column("layer", lambda l: l["name"]),
    Column("op", lambda l: l["op"]),
    Column("cycles", _estimate_cell("cycles", lambda v: "%.0f" % v), numeric=True),
    Column("time (us)", _estimate_cell("seconds", lambda v: "%.2f" % (v * 1e6)), numeric=True),
    Column("long pole", _estimate_status),
    Column("MAC utilization", _estimate_cell("mac_utilization", lambda v: "%.0f%%" % (100 * v))),
    Column("traffic (bytes)", _estimate_cell("traffic_bytes", lambda v: v), numeric=True),
    Column("buffer plan", _estimate_cell("buffer_plan", lambda v: v)),
]


def _estimate_section(manifest):
    """The performance model's estimate (dla.performance): the frame, then
    per hardware layer its time, long pole and MAC utilization."""
    est = manifest.get("estimate")
    if not est:
        return ""
    rows = [l for l in manifest["layers"] if l.get("estimate")]
    return ("<h2>Estimated time</h2><p id='estimate'>Frame: %s (docs/PerformanceModel.md; "
            "no software overhead; memory latency %g cycles).</p>%s"
            % (_e(performance.frame_text(est)), est["configuration"]["memory_latency_cycles"],
               _table("estimate", ESTIMATE_COLUMNS, rows)))


def html(manifest, maps):
    s = manifest["summary"]
    layers = manifest["layers"]
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>dla-compile: %s</title>"
             "<style>%s</style></head><body>" % (_e(manifest["model"]), CSS),
             "<h1>%s for %s %s</h1>" % (_e(manifest["model"]), _e(manifest["target"]),
                                        _e(manifest["precision"])),
             "<p id='summary'>Layers: %s; accelerator &lt;-&gt; host transitions: %s; "
             "%d relayouts moving %d bytes; %d weight surfaces, %d bytes.</p>"
             % (_e(bundle.placement_text(s)), _e(bundle.transitions_text(s)), s["relayouts"],
                s["relayout_bytes"], s["weight_surfaces"], s["weight_bytes"]),
             "<h2>Layer graph</h2><p class='legend'><b style='color:%s'>&#9632;</b> accelerator "
             "<b style='color:%s'>&#9632;</b> host; each box: the layer's op and name (hover "
             "for its unit and placement reason), columns by depth from the inputs</p>"
             % (_PLACEMENT_COLOURS["accelerator"], _PLACEMENT_COLOURS["host"]),
             "<div id='graph'>%s</div>" % _graph(layers, manifest["relayouts"]),
             "<h2>Layers</h2>", _layer_filters(layers),
             _table("layers", LAYER_COLUMNS, layers,
                    lambda l: ' data-placement="%s"' % _e(l["placement"])),
             _estimate_section(manifest),
             "<h2>Relayouts</h2><p>Crossings between accelerator memory and the host: one "
             "where one side is row-major; two where both sides are encoded and the host runs "
             "it (its source out, its result back in); none where BDMA runs it.</p>",
             _table("relayouts", RELAYOUT_COLUMNS, manifest["relayouts"]),
             "<h2>Weights</h2><p>%d bytes as packed; direct convolution weights %d "
             "bytes dense, %d compressed (WGS + WMB + data, the packer's sizes); %d stored "
             "compressed (where that is smaller).</p>"
             % (s["weight_bytes"], s["compressible_weight_bytes"], s["compressed_weight_bytes"],
                s["compressed_weights"]),
             _table("weights", WEIGHT_COLUMNS, manifest["weights"]),
             "<h2>Storage maps</h2><p>The first %d bytes of each encoding's storage, "
             "%d to a row: each byte shows the logical index of the element it holds "
             "(labelled at the element's first byte), padding hatched.</p>"
             % (MAP_BYTES, ROW_BYTES)]
    for m in maps:
        parts.append("<h3>%s</h3><p>%s: %d bytes of storage, %d per element</p>"
                     "<div class='map'>%s</div>"
                     % (_e(m["encoding"]), _e(m["type"]), m["bytes"], m["element_bytes"],
                        _map_svg(m)))
    counts = {}
    for r in manifest["remarks"]:
        counts[r["message"]] = counts.get(r["message"], 0) + 1
    parts.append("<h2>Remarks</h2>")
    parts.append(_table("remarks", REMARK_COLUMNS, sorted(((n, m) for m, n in counts.items()),
                                                         key=lambda x: -x[0])))
    parts.append("<script>%s</script></body></html>\n" % SCRIPT)
    return "\n".join(parts)
