"""Prints the structure of a loadable as NVIDIA's schema reads it, for
writer.test: the file decoded by flatc with umd/core/src/common/loadable.fbs
(flatc -t --raw-binary), the DLA task's network descriptor and dependency
graph unpacked by their layout in kmd/firmware/include/dla_interface.h
(dla_network_desc: 8 int16 indices, op_head[6], 4 uint16 counts, int16,
2 uint8; dla_common_op_desc: int16 index, int8 roi, uint8 op_type, uint8
dependency_count, 3 reserved, 7 dla_consumer {int16 index, uint8 event,
uint8 res}); an EMU task's blobs by umd/core/src/common/include/priv/emu/
emu1/A/emu_interface.h (emu_network_desc: int16, int16, uint16, aligned to
256; union emu_operation_container: 24 bytes, uint8 op_type, 3 padding, two
floats, then power/scale/shift floats or the softmax's uint8 axis;
union emu_operation_buffer_container: src and dst emu_buffer_desc, packed
{int16 addressIndex, uint32 offset, uint32 size, uint16 format, width,
height, channel, uint32 line_stride, surf_stride} aligned to 256).

    describe_loadable.py FLATC LOADABLE.fbs MODEL.nvdla SCRATCH_DIR
"""
import json
import os
import struct
import subprocess
import sys

flatc, schema, model, scratch = sys.argv[1:5]
subprocess.run([flatc, "-t", "--strict-json", "--raw-binary", "-o", scratch, schema, "--",
                model], check=True)
d = json.load(open(os.path.join(scratch, os.path.splitext(os.path.basename(model))[0] + ".json")))
v = d["version"]
print("loadable version %d.%d.%d" % (v.get("major", 0), v.get("minor", 0), v.get("sub_minor", 0)))
blobs = {}
for b in d["blobs"]:
    bv = b.get("version", {})
    blobs[b["name"]] = bytes(b.get("data", []))
    print("blob %s: %d bytes, interface %s, sub-interface %d, version %d.%d.%d" % (
        b["name"], b.get("size", 0), b.get("interface", "NONE"), b.get("sub_interface", 0),
        bv.get("major", 0), bv.get("minor", 0), bv.get("sub_minor", 0)))
for m in d["memory_list"]:
    print("memory %d: flags %s, %d bytes, aligned %d, contents %s, bind %d, tensor %d" % (
        m.get("id", 0), m.get("flags", 0), m.get("size", 0), m.get("alignment", 0),
        m.get("contents", []), m.get("bind_id", 0), m.get("tensor_desc_id", 0)))
for a in d["address_list"]:
    print("address %d: memory %d + %d, %d bytes" % (a.get("id", 0), a.get("mem_id", 0),
                                                   a.get("offset", 0), a.get("size", 0)))
for t in d["tensor_desc_list"]:
    print("tensor %s: memory %d, %s %s %s %s, %dx%dx%dx%d, strides %d %d %d" % (
        t["name"], t.get("mem_id", 0), t.get("data_format"), t.get("data_type"),
        t.get("data_category"), t.get("pixel_format"), t.get("n", 0), t.get("c", 0),
        t.get("h", 0), t.get("w", 0), t.get("stride_0", 0), t.get("stride_1", 0),
        t.get("stride_2", 0)))
for t in d["task_list"]:
    pre = ", pre actions %s" % t["pre_actions"] if t.get("pre_actions") else ""
    print("task %d: %s, addresses %s%s, post actions %s" % (t.get("id", 0), t.get("interface"),
                                                            t.get("address_list"), pre,
                                                            t.get("post_actions")))
print("submit %s" % [s.get("task_id") for s in d["submit_list"]])
print("events %s" % d["event_list"])
nd = struct.unpack("<8h6h4Hh2B", blobs["task-0-addr0"][:40])
print("network: op desc %d, surf desc %d, dep graph %d, lut %d, roi %d; op_head %s; "
      "rois %d, operations %d, luts %d, addresses %d" % (nd[0], nd[1], nd[2], nd[3], nd[4],
                                                        list(nd[8:14]), *nd[14:18]))
dg = blobs["task-0-dep_graph"]
for i in range(len(dg) // 36):
    r = dg[i * 36:(i + 1) * 36]
    index, roi, op_type, deps = struct.unpack("<hbBB", r[:5])
    cons = [struct.unpack("<hB", r[8 + 4 * k:11 + 4 * k]) for k in range(7)]
    print("op %d: type %d, dependency_count %d, consumers %s, fused_parent %s" % (
        index, op_type, deps, [c for c in cons[:6]], cons[6]))
# Each operation's source and destination cubes in the surface list
# (union dla_surface_container, one per operation): dla_data_cube is
# {uint16 type, int16 address, [uint32 offset: HEAD's only, 0.12], uint32
# size, ...}; conv_surface holds weight, wmb, wgs, src, dst; sdp_surface
# src, x1, x2, y, dst; pdp_surface and cdp_surface src, dst.
ops = len(dg) // 36
sl = blobs["task-0-surf_list"]
head = d["blobs"][0].get("version", {}).get("minor", 0) >= 12
cube = 32 if head else 28
where = {1: (3, 4), 2: (0, 4), 3: (0, 1), 4: (0, 1)}
for i in range(ops):
    op_type = dg[i * 36 + 3]
    if op_type not in where:
        continue
    r = sl[i * (len(sl) // ops):]
    parts = []
    for name, k in zip(("src", "dst"), where[op_type]):
        c = r[k * cube:(k + 1) * cube]
        mem_type, address = struct.unpack("<Hh", c[:4])
        offset = struct.unpack("<I", c[4:8])[0] if head else None
        parts.append("%s type %d address %d%s" % (name, mem_type, address,
                                                  "" if offset is None else " + %d" % offset))
    print("surface %d: %s" % (i, ", ".join(parts)))
if "task-1-addr0" in blobs:
    n_op, n_buf, n = struct.unpack("<hhH", blobs["task-1-addr0"][:6])
    print("emu network: op list %d, buffer list %d, operations %d" % (n_op, n_buf, n))
    ol, bl = blobs["task-1-op_list"], blobs["task-1-op_buf_list"]
    for i in range(n):
        o = ol[24 * i:24 * (i + 1)]
        op_type = o[0]
        si, so = struct.unpack("<ff", o[4:12])
        what = ("power %r scale %r shift %r" % struct.unpack("<fff", o[12:24]) if op_type == 0
                else "axis %d" % o[12])
        print("emu op %d: type %d, input scale %r, output scale %r, %s" % (i, op_type, si, so, what))
        for k, name in enumerate(("src", "dst")):
            b = bl[512 * i + 256 * k:][:26]
            print("  %s: address %d + %d, %d bytes, format %d, %dx%dx%d (WxHxC), strides %d %d" %
                  ((name,) + struct.unpack("<hIIHHHHII", b)))
