"""Turns a memory of an NVDLA loadable into a bindable input, for
test/NvdlaLoadable/input.test: NVIDIA's regression loadables carry their
input inside (a memory ALLOC | SET from a blob), so nothing of them tests
binding an input. This patches, in place in the flatbuffer, the memory's
flags to ALLOC | INPUT (the runtime then skips its SET contents and binds a
buffer of the caller's instead; its bind id and tensor descriptor id, both
absent, read 0) and writes the blob it was set from, the bytes to give as
that input.

usage: bind-input.py IN OUT MEMORY_ID BLOB_OUT"""
import struct
import sys

import loadable_fb as fb


def main():
    src, dst, mem_id, blob_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    b = bytearray(open(src, "rb").read())
    mem = fb.memory(b, mem_id)
    flags_at = fb.field(b, mem, 8)
    if fb.u16(b, flags_at) != fb.ALLOC | fb.SET:
        sys.exit("memory %d has flags %d, not ALLOC | SET" % (mem_id, fb.u16(b, flags_at)))
    if fb.field(b, mem, 18) is not None or fb.field(b, mem, 20) is not None:
        sys.exit("memory %d names a bind id or tensor descriptor" % mem_id)
    names = fb.contents(b, mem)
    if len(names) != 1:
        sys.exit("memory %d is set from %d blobs" % (mem_id, len(names)))
    at, size = fb.blob_data(b, names[0])
    open(blob_out, "wb").write(bytes(b[at:at + size]))
    struct.pack_into("<H", b, flags_at, fb.ALLOC | fb.INPUT)
    open(dst, "wb").write(bytes(b))
    print("memory %d: flags ALLOC | SET -> ALLOC | INPUT; input 0 = blob %s" % (mem_id, names[0]))


main()
