#!/usr/bin/env python3
"""Prints what an NVDLA loadable (NVIDIA's loadable.fbs, 0.7.0) holds: its
tasks, memories, addresses, tensors, blobs and submits, and for each DLA
task the network descriptor and the dependency graph the firmware walks
(kmd/firmware/include/dla_interface.h: struct dla_network_desc,
struct dla_common_op_desc). Standard library only (no flatbuffers
package); field slots as loadable_generated.h numbers them.

usage: loadable_summary.py MODEL.nvdla [--descriptors]
(--descriptors: each CONV, SDP and PDP operation's descriptor fields and
surfaces as well)
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


CUBE = "<HhIIHHHHIII"  # struct dla_data_cube
CVT = "<hBBi"  # struct dla_cvt_param
SDP_OP = ["enable", "alu_type", "type", "mode", "act", "shift_value", "truncate", "precision",
          "alu_operand", "mul_operand"]
OP_DESC_SIZE, SURF_DESC_SIZE = 116, 644  # union dla_operation_container, dla_surface_container


def cube(d, at):
    f = struct.unpack_from(CUBE, d, at)
    return dict(type=f[0], address=f[1], offset=f[2], size=f[3], width=f[4], height=f[5], channel=f[6],
                line_stride=f[8], surf_stride=f[9])


def cvt(d, at):
    scale, truncate, enable, offset = struct.unpack_from(CVT, d, at)
    return dict(scale=scale, truncate=truncate, enable=enable, offset=offset)


def conv_op(d):
    """struct dla_conv_op_desc (the fields the anchor compares)."""
    f = dict(zip(["conv_mode", "data_reuse", "weight_reuse", "skip_data_rls", "skip_weight_rls"], d[0:5]))
    f["entry_per_slice"], = struct.unpack_from("<H", d, 6)
    f["data_format"], f["fetch_grain"] = d[8], struct.unpack_from("<H", d, 10)[0]
    f["batch"], f["weight_format"], f["data_bank"], f["weight_bank"] = d[20:24]
    f["release"], = struct.unpack_from("<H", d, 30)
    names = ["input_width_csc", "input_height_csc", "input_channel_csc", "kernel_width_csc",
             "kernel_height_csc", "kernel_channel_csc", "input_width_cmac", "input_height_cmac"]
    f.update(zip(names, struct.unpack_from("<8H", d, 32)))
    f["bytes_per_kernel"], = struct.unpack_from("<I", d, 48)
    f.update(zip(["mean_format", "conv_stride_x", "conv_stride_y", "pad_x_left", "pad_x_right",
                  "pad_y_top", "pad_y_bottom", "dilation_x", "dilation_y"], d[60:69]))
    f["pra_truncate"], f["in_precision"], f["out_precision"] = d[71], d[72], d[73]
    f["pad_val"], = struct.unpack_from("<h", d, 74)
    f["in_cvt"], f["out_cvt"] = cvt(d, 76), cvt(d, 84)
    return f


def sdp_op(d):
    """struct dla_sdp_op_desc"""
    f = dict(src_precision=d[0], dst_precision=d[1], lut_index=struct.unpack_from("<h", d, 2)[0],
             out_cvt=cvt(d, 4), conv_mode=d[12], batch_num=d[13])
    for k, name in enumerate(("x1_op", "x2_op", "y_op")):
        at = 20 + 32 * k
        op = dict(zip(SDP_OP, tuple(d[at:at + 8]) + struct.unpack_from("<ii", d, at + 8)))
        op["alu_cvt"], op["mul_cvt"] = cvt(d, at + 16), cvt(d, at + 24)
        f[name] = op
    return f


def pdp_op(d):
    """struct dla_pdp_op_desc"""
    f = dict(zip(["partial_in_width_first", "partial_in_width_mid", "partial_in_width_last",
                  "partial_width_first", "partial_width_mid", "partial_width_last"],
                 struct.unpack_from("<6H", d, 0)))
    f.update(zip(["split_num", "pool_mode", "pool_width", "pool_height", "stride_x", "stride_y", "pad_left",
                  "pad_right", "pad_top", "pad_bottom", "precision"], d[12:23]))
    f["padding_value"] = list(struct.unpack_from("<7i", d, 24))
    return f


def surfaces(op_type, d):
    names = {"CONV": ["weight_data", "wmb_data", "wgs_data", "src_data", "dst_data"],
             "SDP": ["src_data", "x1_data", "x2_data", "y_data", "dst_data"],
             "PDP": ["src_data", "dst_data"]}.get(op_type, [])
    return dict((n, cube(d, 32 * k)) for k, n in enumerate(names))


def flags(f):
    return "|".join(n for bit, n in FLAGS if f & bit) or "NONE"


def descriptors(path):
    """The DLA task's operations: [(op_type, op_desc fields, surfaces,
    dependency entry)], and addr_bytes(address id[, size]) for the
    SET contents behind an address."""
    return _read(path, quiet=True)


def main(path):
    _read(path, quiet=False, detail="--descriptors" in sys.argv)


def _read(path, quiet, detail=False):
    print_ = (lambda *a: None) if quiet else print
    b = open(path, "rb").read()
    L = Table(b, struct.unpack_from("<I", b, 0)[0])
    vp = L.pos(0)
    print_("loadable %s: %d bytes, version %d.%d.%d" % (path.split("/")[-1], len(b), *b[vp:vp + 3]))
    tasks, mems, addrs = L.tables(1), L.tables(2), L.tables(3)
    events, blobs, tensors = L.tables(4), L.tables(5), L.tables(6)
    submits = L.tables(8)
    blob = {t.string(0): t for t in blobs}
    mem_by_id = {m.scalar(0, "H"): m for m in mems}
    addr_by_id = {a.scalar(0, "H"): a for a in addrs}
    print_("tasks %d, memories %d, addresses %d, events %d, blobs %d, tensors %d, submits %d" %
          (len(tasks), len(mems), len(addrs), len(events), len(blobs), len(tensors), len(submits)))
    for t in tasks:
        print_("task %d: %s, %d addresses" % (t.scalar(0, "H"), INTERFACES.get(t.scalar(1, "I"), "?"),
                                             len(t.scalars(3, "H"))))
    for s in submits:
        print_("submit %d: tasks %s" % (s.scalar(0, "H"), s.scalars(1, "H")))
    total = 0
    for m in mems:
        fl = m.scalar(2, "H")
        size = m.scalar(3, "Q")
        total += size
        extra = ""
        if fl & 12:
            extra = " bind_id %d tensor_desc_id %d" % (m.scalar(7, "H"), m.scalar(8, "H"))
        print_("memory %d: %s size %d alignment %d contents %s%s" % (
            m.scalar(0, "H"), flags(fl), size, m.scalar(4, "I"),
            ",".join(m.strings(5)) or "-", extra))
    print_("memory total %d bytes" % total)
    for t in tensors:
        print_("tensor %d %s: mem %d size %d %s %s %s %dx%dx%dx%d strides %s" % (
            t.scalar(1, "H"), t.string(0), t.scalar(2, "H"), t.scalar(3, "Q"),
            DATA_FORMATS.get(t.scalar(5, "B"), "?"), DATA_TYPES[t.scalar(6, "B")],
            PIXEL_FORMATS.get(t.scalar(8, "B"), str(t.scalar(8, "B"))),
            t.scalar(10, "i"), t.scalar(11, "i"), t.scalar(12, "i"), t.scalar(13, "i"),
            [t.scalar(14 + k, "I") for k in range(3)]))
    for bl in blobs:
        vp = bl.pos(4)
        ver = "%d.%d.%d" % tuple(b[vp:vp + 3]) if vp else "-"
        print_("blob %s: %d bytes, %s sub %d, version %s" % (
            bl.string(0), bl.scalar(1, "Q"), INTERFACES.get(bl.scalar(2, "I"), "?"), bl.scalar(3, "I"), ver))

    result = []
    al = []

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
        print_("task %d network: %d operations, %d luts, %d rois, %d addresses, op_head %s, input_layer %d" % (
            t.scalar(0, "H"), num_ops, num_luts, num_rois, num_addresses,
            dict((OPS[k], h) for k, h in enumerate(heads) if h >= 0), f[18]))
        dep = addr_bytes(al[dep_i], 36 * num_ops)
        ops_b = addr_bytes(al[op_i], OP_DESC_SIZE * num_ops)
        surf_b = addr_bytes(al[surf_i], SURF_DESC_SIZE * num_ops)
        counts = {}
        for k in range(num_ops):
            d = dep[36 * k:36 * (k + 1)]
            index, roi, op_type, count = struct.unpack_from("<hbBB", d, 0)
            cons = [struct.unpack_from("<hBB", d, 8 + 4 * u) for u in range(6)]
            parent = struct.unpack_from("<hBB", d, 32)
            counts[OPS[op_type]] = counts.get(OPS[op_type], 0) + 1
            od = ops_b[OP_DESC_SIZE * k:OP_DESC_SIZE * (k + 1)]
            decode = {"CONV": conv_op, "SDP": sdp_op, "PDP": pdp_op}.get(OPS[op_type])
            fields = decode(od) if decode else {}
            surf = surfaces(OPS[op_type], surf_b[SURF_DESC_SIZE * k:SURF_DESC_SIZE * (k + 1)])
            result.append((OPS[op_type], fields, surf))
            print_("  op %d: %s dependency_count %d consumers %s fused_parent %s" % (
                index, OPS[op_type], count,
                {OPS[u]: c[0] for u, c in enumerate(cons) if c[0] >= 0} or "-",
                parent[0] if parent[0] >= 0 else "-"))
        print_("task %d hardware layers: %s" % (t.scalar(0, "H"),
                                               ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()))))
        if detail:
            for k, (op, fields, surf) in enumerate(result):
                print_("op %d %s desc: %s" % (k, op, fields))
                for name, c in surf.items():
                    if c["address"] >= 0:
                        a = addr_by_id[al[c["address"]]]
                        print_("op %d %s %s: address %d (memory %d + %d) offset %d size %d %dx%dx%d line %d surf %d" % (
                            k, op, name, c["address"], a.scalar(1, "H"), a.scalar(2, "Q"), c["offset"], c["size"],
                            c["width"], c["height"], c["channel"], c["line_stride"], c["surf_stride"]))
    return result, lambda aid, size=None: addr_bytes(aid, size), al


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--descriptors"):
        sys.exit(__doc__)
    main(sys.argv[1])
