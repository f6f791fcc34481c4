"""Turns a memory of an NVDLA loadable into a bindable input, for
test/NvdlaLoadable/input.test: NVIDIA's regression loadables carry their
input inside (a memory ALLOC | SET from a blob), so nothing of them tests
binding an input. This patches, in place in the flatbuffer, the memory's
flags to ALLOC | INPUT (the runtime then skips its SET contents and binds a
buffer of the caller's instead; its bind id and tensor descriptor id, both
absent, read 0) and writes the blob it was set from, the bytes to give as
that input.

usage: bind-input.py IN OUT MEMORY_ID BLOB_OUT
Field slots: loadable.fbs as umd/core/src/common/include/priv/
loadable_generated.h numbers them (Loadable: memory_list 8, blobs 14;
MemoryListEntry: id 4, flags 8, contents 14; Blob: name 4, data 14)."""
import struct
import sys

ALLOC, SET, INPUT = 1, 2, 4


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def field(b, table, slot):
    """Position of a table's field, or None when absent."""
    vtable = table - struct.unpack_from("<i", b, table)[0]
    vsize = struct.unpack_from("<H", b, vtable)[0]
    if slot >= vsize:
        return None
    off = struct.unpack_from("<H", b, vtable + slot)[0]
    return table + off if off else None


def deref(b, at):
    return at + u32(b, at)


def vector(b, table, slot):
    at = field(b, table, slot)
    if at is None:
        return []
    v = deref(b, at)
    return [deref(b, v + 4 + 4 * i) for i in range(u32(b, v))]


def string(b, at):
    s = deref(b, at)
    return bytes(b[s + 4:s + 4 + u32(b, s)]).decode()


def main():
    src, dst, mem_id, blob_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    b = bytearray(open(src, "rb").read())
    root = u32(b, 0)
    mems = vector(b, root, 8)
    mem = next(m for m in mems if struct.unpack_from("<H", b, field(b, m, 4) or 0)[0] == mem_id)
    flags_at = field(b, mem, 8)
    flags = struct.unpack_from("<H", b, flags_at)[0]
    if flags != ALLOC | SET:
        sys.exit("memory %d has flags %d, not ALLOC | SET" % (mem_id, flags))
    if field(b, mem, 18) is not None or field(b, mem, 20) is not None:
        sys.exit("memory %d names a bind id or tensor descriptor" % mem_id)
    cv = deref(b, field(b, mem, 14))  # [string]: the blobs it is set from
    contents = [string(b, cv + 4 + 4 * i) for i in range(u32(b, cv))]
    if len(contents) != 1:
        sys.exit("memory %d is set from %d blobs" % (mem_id, len(contents)))
    struct.pack_into("<H", b, flags_at, ALLOC | INPUT)
    for blob in vector(b, root, 14):
        if string(b, field(b, blob, 4)) == contents[0]:
            data = deref(b, field(b, blob, 14))
            open(blob_out, "wb").write(bytes(b[data + 4:data + 4 + u32(b, data)]))
            break
    else:
        sys.exit("no blob " + contents[0])
    open(dst, "wb").write(bytes(b))
    print("memory %d: flags ALLOC | SET -> ALLOC | INPUT; input 0 = blob %s" % (mem_id, contents[0]))


main()
