#!/usr/bin/env python3
"""Prints what an NVDLA loadable (NVIDIA's loadable.fbs, 0.7.0) holds: its
tasks, memories, addresses, tensors, blobs and submits, and for each DLA
task the network descriptor and the dependency graph the firmware walks
(kmd/firmware/include/dla_interface.h: struct dla_network_desc,
struct dla_common_op_desc). Standard library only (no flatbuffers
package); field slots as loadable_generated.h numbers them.

usage: loadable_summary.py MODEL.nvdla
"""
import struct
import sys

OPS = ["BDMA", "CONV", "SDP", "PDP", "CDP", "RUBIK"]
FLAGS = [(1, "ALLOC"), (2, "SET"), (4, "INPUT"), (8, "OUTPUT")]
INTERFACES = {0: "NONE", 1: "DLA1", 2: "EMU1"}
PIXEL_FORMATS = {12: "A8B8G8R8", 36: "FEATURE", 37: "FEATURE_X8"}
DATA_TYPES = ["UNKNOWN", "FLOAT", "HALF", "INT16", "INT8"]
DATA_FORMATS = {0: "UNKNOWN", 1: "NCHW", 2: "NHWC", 3: "NCxHWx"}


class Table:
    def __init__(self, b, at):
        self.b, self.at = b, at
        vt = at - struct.unpack_from("<i", b, at)[0]
        self.vlen = struct.unpack_from("<H", b, vt)[0]
        self.vt = vt

    def pos(self, i):
        slot = 4 + 2 * i
        if slot >= self.vlen:
            return None
        off = struct.unpack_from("<H", self.b, self.vt + slot)[0]
        return self.at + off if off else None

    def scalar(self, i, fmt, default=0):
        p = self.pos(i)
        return default if p is None else struct.unpack_from("<" + fmt, self.b, p)[0]

    def _vec(self, i):
        p = self.pos(i)
        if p is None:
            return None, 0
        v = p + struct.unpack_from("<I", self.b, p)[0]
        return v + 4, struct.unpack_from("<I", self.b, v)[0]

    def tables(self, i):
        v, n = self._vec(i)
        return [Table(self.b, v + 4 * k + struct.unpack_from("<I", self.b, v + 4 * k)[0]) for k in range(n)]

    def scalars(self, i, fmt):
        v, n = self._vec(i)
        size = struct.calcsize("<" + fmt)
        return [struct.unpack_from("<" + fmt, self.b, v + size * k)[0] for k in range(n)]

    def bytes(self, i):
        v, n = self._vec(i)
        return bytes(self.b[v:v + n]) if v else b""

    def string(self, i):
        return self.bytes(i).decode()

    def strings(self, i):
        v, n = self._vec(i)
        out = []
        for k in range(n):
            s = v + 4 * k + struct.unpack_from("<I", self.b, v + 4 * k)[0]
            out.append(bytes(self.b[s + 4:s + 4 + struct.unpack_from("<I", self.b, s)[0]]).decode())
        return out


def flags(f):
    return "|".join(n for bit, n in FLAGS if f & bit) or "NONE"


def main(path):
    b = open(path, "rb").read()
    L = Table(b, struct.unpack_from("<I", b, 0)[0])
    vp = L.pos(0)
    print("loadable %s: %d bytes, version %d.%d.%d" % (path.split("/")[-1], len(b), *b[vp:vp + 3]))
    tasks, mems, addrs = L.tables(1), L.tables(2), L.tables(3)
    events, blobs, tensors = L.tables(4), L.tables(5), L.tables(6)
    submits = L.tables(8)
    blob = {t.string(0): t for t in blobs}
    mem_by_id = {m.scalar(0, "H"): m for m in mems}
    addr_by_id = {a.scalar(0, "H"): a for a in addrs}
    print("tasks %d, memories %d, addresses %d, events %d, blobs %d, tensors %d, submits %d" %
          (len(tasks), len(mems), len(addrs), len(events), len(blobs), len(tensors), len(submits)))
    for t in tasks:
        print("task %d: %s, %d addresses" % (t.scalar(0, "H"), INTERFACES.get(t.scalar(1, "I"), "?"),
                                             len(t.scalars(3, "H"))))
    for s in submits:
        print("submit %d: tasks %s" % (s.scalar(0, "H"), s.scalars(1, "H")))
    total = 0
    for m in mems:
        fl = m.scalar(2, "H")
        size = m.scalar(3, "Q")
        total += size
        extra = ""
        if fl & 12:
            extra = " bind_id %d tensor_desc_id %d" % (m.scalar(7, "H"), m.scalar(8, "H"))
        print("memory %d: %s size %d alignment %d contents %s%s" % (
            m.scalar(0, "H"), flags(fl), size, m.scalar(4, "I"),
            ",".join(m.strings(5)) or "-", extra))
    print("memory total %d bytes" % total)
    for t in tensors:
        print("tensor %d %s: mem %d size %d %s %s %s %dx%dx%dx%d strides %s" % (
            t.scalar(1, "H"), t.string(0), t.scalar(2, "H"), t.scalar(3, "Q"),
            DATA_FORMATS.get(t.scalar(5, "B"), "?"), DATA_TYPES[t.scalar(6, "B")],
            PIXEL_FORMATS.get(t.scalar(8, "B"), str(t.scalar(8, "B"))),
            t.scalar(10, "i"), t.scalar(11, "i"), t.scalar(12, "i"), t.scalar(13, "i"),
            [t.scalar(14 + k, "I") for k in range(3)]))
    for bl in blobs:
        vp = bl.pos(4)
        ver = "%d.%d.%d" % tuple(b[vp:vp + 3]) if vp else "-"
        print("blob %s: %d bytes, %s sub %d, version %s" % (
            bl.string(0), bl.scalar(1, "Q"), INTERFACES.get(bl.scalar(2, "I"), "?"), bl.scalar(3, "I"), ver))

    def addr_bytes(aid, size=None):
        """The SET contents of an address-list entry (as the runtime fills them)."""
        a = addr_by_id[aid]
        m = mem_by_id[a.scalar(1, "H")]
        image = bytearray(m.scalar(3, "Q"))
        for name, off in zip(m.strings(5), m.scalars(6, "Q")):
            data = blob[name].bytes(5)
            image[off:off + len(data)] = data
        start = a.scalar(2, "Q")
        return bytes(image[start:start + (size or a.scalar(3, "Q"))])

    for t in tasks:
        if t.scalar(1, "I") != 1:
            continue
        al = t.scalars(3, "H")
        net = addr_bytes(al[0], 40)
        f = struct.unpack("<8h6h4HhBB", net)
        op_i, surf_i, dep_i, lut_i, roi_i, surface_i = f[0:6]
        heads = f[8:14]
        num_rois, num_ops, num_luts, num_addresses = f[14:18]
        print("task %d network: %d operations, %d luts, %d rois, %d addresses, op_head %s, input_layer %d" % (
            t.scalar(0, "H"), num_ops, num_luts, num_rois, num_addresses,
            dict((OPS[k], h) for k, h in enumerate(heads) if h >= 0), f[18]))
        dep = addr_bytes(al[dep_i], 36 * num_ops)
        counts = {}
        for k in range(num_ops):
            d = dep[36 * k:36 * (k + 1)]
            index, roi, op_type, count = struct.unpack_from("<hbBB", d, 0)
            cons = [struct.unpack_from("<hBB", d, 8 + 4 * u) for u in range(6)]
            parent = struct.unpack_from("<hBB", d, 32)
            counts[OPS[op_type]] = counts.get(OPS[op_type], 0) + 1
            print("  op %d: %s dependency_count %d consumers %s fused_parent %s" % (
                index, OPS[op_type], count,
                {OPS[u]: c[0] for u, c in enumerate(cons) if c[0] >= 0} or "-",
                parent[0] if parent[0] >= 0 else "-"))
        print("task %d hardware layers: %s" % (t.scalar(0, "H"),
                                               ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()))))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
