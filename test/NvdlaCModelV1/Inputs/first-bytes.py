"""first-bytes.py IN N OUT: writes the first N data bytes of one of NVIDIA's
v1 byte files (a header, lines of ' 0xNN' only, a trailer) as such a file:
what a copy of that data must produce."""
import re
import sys

src, n, out = sys.argv[1], int(sys.argv[2], 0), sys.argv[3]
data = []
for line in open(src):
    words = line.split()
    if words and all(re.fullmatch(r"0x[0-9a-fA-F]{2}", w) for w in words):
        data += words
assert len(data) >= n, "%s holds %d bytes, fewer than %d" % (src, len(data), n)
with open(out, "w") as f:
    f.write("copied from %s\n" % src)
    for i in range(0, n, 32):
        f.write(" " + " ".join(data[i:i + 32]) + "\n")
