"""Asserts that a screenshot of report.html shows a rendered layer graph
and rendered storage maps:

    check_screenshot.py SHOT.png ACCELERATOR_RGB HOST_RGB

Counts the pixels of the placement colours and of the storage maps'
padding hatch (#999 strokes on #eee). Inputs/net.mlir's graph has 2 layers
on the accelerator and 5 on the host, 16 x 12 pixel boxes: 384 and 960
pixels (the legend's two glyphs add about a hundred each). Prints the
verdicts for FileCheck.
"""
import sys

from PIL import Image

shot, accel, host = sys.argv[1], sys.argv[2], sys.argv[3]
rgb = lambda h: tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
im = Image.open(shot).convert("RGB")
counts = {c: n for n, c in im.getcolors(1 << 24)}
print("size %dx%d" % im.size)
for name, colour, least in (("accelerator boxes", rgb(accel), 2 * 16 * 12), ("host boxes", rgb(host), 5 * 16 * 12),
                            ("padding hatch", rgb("eeeeee"), 2000),
                            ("hatch strokes", rgb("999999"), 500)):
    n = counts.get(colour, 0)
    print("%s: %s" % (name, "rendered" if n >= least else "missing (%d pixels)" % n))
