#!/usr/bin/env python3
"""Transcribes NVIDIA's performance spreadsheet (nvdla/hw
perf/NVDLA_OpenSource_Performance.xlsx) into the line format the
performance model's tests read (unittests/Format/NvdlaPerformanceSheet.txt).

    read_perf_sheet.py [XLSX] [-o OUT]      (XLSX default: ../shared/
                                            nvdla-hw-v1/perf/ from the checkout)

Reads the .xlsx with zipfile + ElementTree only: shared strings, each
network sheet's cells, their formulas (shared formulas by their master's
text) and the cached values Excel stored. Every number written carries the
cell it came from (value@Sheet!Cell). Per layer it writes the inputs (the
sheet's columns E..T), the conventions the row's own formulas take (see
docs/PerformanceModel.md: they differ from row to row) and the results of
the DRAM-only scenario the "Performance Summary" sheet reports.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET
import zipfile

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "..", "shared", "nvdla-hw-v1", "perf",
                       "NVDLA_OpenSource_Performance.xlsx")

# Per network: the columns of the DRAM-only scenario (the one the summary
# sheet reports) and of the quantities the conventions are read from.
#   traffic: DRAM traffic (KB); dram: its cycles; mac: MAC cycles; max: the
#   layer's cycles; pole: its long pole; factor: reload factor (if any);
#   weight: the weight-size column; min_input: the min-input column;
#   totals: (cycles, ms, fps, hw util, network util) cells.
NETWORKS = {
    "AlexNet": dict(rows=range(11, 22), traffic="AO", dram="AP", mac="AQ", max="AR", pole="AS",
                    factor=None, side=None, weight="AA", min_weight="AB", min_input="Y",
                    wino="AC",
                    totals=("AR22", "AR23", "AR24", "AR25", "AR26")),
    "GoogLeNet": dict(rows=range(11, 85), traffic="AP", dram="AQ", mac="AR", max="AS",
                      pole="AT", factor="AO", side="AN", weight="AA", min_weight="AB",
                      min_input="Y", wino="AC",
                      totals=("AS85", "AS86", "AS87", "AT88", "AT89")),
    "ResNet50": dict(rows=range(11, 65), traffic="AO", dram="AQ", mac="AR", max="AS",
                     pole="AT", factor=None, side="AN", weight="AB", min_weight="AA",
                     min_input="Y", wino="AM",
                     totals=("AS65", "AS66", "AS67", "AS68", "AS69")),
}
# The layer inputs: sheet column -> key.
INPUTS = [("E", "C"), ("F", "H"), ("G", "W"), ("H", "K"), ("I", "R"), ("J", "S"),
          ("K", "same"), ("L", "sy"), ("M", "sx"), ("P", "pool"), ("Q", "pr"), ("R", "ps"),
          ("S", "psy"), ("T", "psx")]
CONFIG = [("B3", "feature_bytes"), ("C3", "weight_bytes"), ("D3", "cbuf_kb"), ("E3", "macs"),
          ("F3", "clock_mhz"), ("G3", "sram_read_gbps"), ("H3", "sram_write_gbps"),
          ("I3", "dram_gbps"), ("J3", "fc_batch")]


class SheetError(Exception):
    pass


class Workbook:
    def __init__(self, path):
        try:
            self.zip = zipfile.ZipFile(path)
        except (OSError, zipfile.BadZipFile) as e:
            raise SheetError("%s: not a readable .xlsx (%s)" % (path, e))
        self.path = path
        self.strings = [''.join(t.text or '' for t in si.iter(NS + "t"))
                        for si in self._xml("xl/sharedStrings.xml").findall(NS + "si")]
        rels = {r.get("Id"): r.get("Target") for r in self._xml("xl/_rels/workbook.xml.rels")}
        self.sheets = {s.get("name"): "xl/" + rels[s.get(REL)]
                       for s in self._xml("xl/workbook.xml").find(NS + "sheets")}
        self._cells = {}

    def _xml(self, name):
        try:
            return ET.fromstring(self.zip.read(name))
        except KeyError:
            raise SheetError("%s: no %s in the archive" % (self.path, name))

    def cells(self, sheet):
        """{cell: (value, formula text)}; a shared formula's text is its master's."""
        if sheet not in self._cells:
            if sheet not in self.sheets:
                raise SheetError("%s: no sheet %r" % (self.path, sheet))
            out, masters = {}, {}
            for c in self._xml(self.sheets[sheet]).iter(NS + "c"):
                v, f = c.find(NS + "v"), c.find(NS + "f")
                value = v.text if v is not None else None
                if value is not None and c.get("t") == "s":
                    value = self.strings[int(value)]
                formula = None
                if f is not None:
                    if f.get("t") == "shared" and f.text:
                        masters[f.get("si")] = f.text
                    formula = f.text or masters.get(f.get("si"))
                out[c.get("r")] = (value, formula)
            self._cells[sheet] = out
        return self._cells[sheet]


def _num(text):
    x = float(text)
    return repr(int(x)) if x == int(x) and abs(x) < 2 ** 53 else repr(x)


def transcribe(path):
    wb = Workbook(path)
    lines = ["# NVIDIA's NVDLA_OpenSource_Performance.xlsx, transcribed by",
             "# utils/nvdla-perf-sheet/read_perf_sheet.py: value@Sheet!Cell (cached values).",
             "# Read by unittests/Format/NvdlaPerformanceTest.cpp and",
             "# python/tests/test_performance_sheet.py; regenerate, do not edit."]
    conf = wb.cells("Configuration Input")
    lines.append("config " + " ".join("%s=%s@Configuration Input!%s" % (k, _num(conf[c][0]), c)
                                      for c, k in CONFIG).replace(" Input", "_Input"))
    for net, spec in NETWORKS.items():
        cells = wb.cells(net)
        get = lambda col, row: cells.get("%s%d" % (col, row), (None, None))
        for row in spec["rows"]:
            value, _ = get(spec["max"], row)
            if value is None:
                continue  # a row the sheet's total does not count (merged or empty)
            fields = ["layer", "net=%s" % net, "row=%d" % row,
                      "name=%s" % re.sub(r"\s+", "_", str(get("C", row)[0])),
                      "kind=%s" % re.sub(r"\s+", "_", str(get("D", row)[0]))]
            for col, key in INPUTS:
                v = get(col, row)[0]
                fields.append("%s=%s@%s!%s%d" % (key, _num(v) if v not in (None, "") else "0",
                                                 net, col, row))
            # The conventions this row's formulas take.
            weight_f = get(spec["weight"], row)[1] or ""
            mac_f = get(spec["mac"], row)[1] or ""
            traffic_f = get(spec["traffic"], row)[1] or ""
            min_f = get(spec["min_input"], row)[1] or ""
            # Which side stays in the buffer: IF(<input> < <weights>, "feature", ...)
            side_f = get(spec["side"], row)[1] or "" if spec["side"] else ""
            side = re.match(r'IF\(([A-Z]+)\d+<([A-Z]+)\d+, "feature"', side_f)
            if spec["side"] and (not side or side.group(1) not in ("X", spec["min_input"]) or
                                 side.group(2) not in (spec["weight"], spec["min_weight"])):
                raise SheetError("%s!%s%d: an unexpected buffer-side formula: %s"
                                 % (net, spec["side"], row, side_f))
            granule = re.search(r"CEILING\(H\d+\*IF\([^)]*\)\s*,\s*(\d+)\)", mac_f)
            if not granule or "2.25" not in mac_f:
                raise SheetError("%s!%s%d: an unexpected MAC-cycle formula: %s"
                                 % (net, spec["mac"], row, mac_f))
            fields += ["wino=%d@%s!%s%d" % (get(spec["wino"], row)[0] in ("1", "TRUE"), net,
                                             spec["wino"], row),
                       "kernel_granule=%s@%s!%s%d" % (granule.group(1), net, spec["mac"], row),
                       "wino_weights_expanded=%d@%s!%s%d" % ("16/9" in weight_f, net,
                                                             spec["weight"], row),
                       "fc_weights_amortized=%d@%s!%s%d" % ("$C$9" in traffic_f, net,
                                                            spec["traffic"], row),
                       "reloads=%d@%s!%s%d" % ("$C$3" in traffic_f, net, spec["traffic"], row),
                       "side_least_input=%d@%s!%s%d" % (bool(side) and side.group(1) != "X", net,
                                                        spec["side"] or spec["traffic"], row),
                       "side_all_weights=%d@%s!%s%d" % (bool(side) and
                                                        side.group(2) == spec["weight"], net,
                                                        spec["side"] or spec["traffic"], row),
                       "min_input_extra_rows=%d@%s!%s%d" % (bool(re.search(r"MIN\(I\d+\+1", min_f)), net,
                                                            spec["min_input"], row)]
            for key in ("traffic", "dram", "mac", "max", "factor"):
                if spec[key]:
                    fields.append("%s=%s@%s!%s%d" % (key, _num(get(spec[key], row)[0]), net,
                                                      spec[key], row))
            fields.append("pole=%s@%s!%s%d" % (get(spec["pole"], row)[0], net, spec["pole"], row))
            lines.append(" ".join(fields))
        t = spec["totals"]
        lines.append("total net=%s " % net + " ".join(
            "%s=%s@%s!%s" % (k, _num(cells[c][0]), net, c)
            for k, c in zip(("cycles", "ms", "fps", "hw_mac_util", "network_mac_util"), t)))
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("xlsx", nargs="?", default=DEFAULT)
    p.add_argument("-o", "--output")
    args = p.parse_args(argv)
    try:
        text = transcribe(args.xlsx)
    except SheetError as e:
        print("read_perf_sheet: error: %s" % e, file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
