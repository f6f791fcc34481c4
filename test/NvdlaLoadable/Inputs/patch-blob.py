"""Sets one byte of a blob of an NVDLA loadable, for test/NvdlaLoadable:
e.g. an operation's dependency_count in the dependency graph (struct
dla_common_op_desc of kmd/firmware/include/dla_interface.h: byte 4 of each
36-byte entry), so that the firmware waits for an event that never comes.

usage: patch-blob.py IN OUT BLOB_NAME OFFSET VALUE"""
import sys

import loadable_fb as fb


def main():
    src, dst, name, offset, value = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    b = bytearray(open(src, "rb").read())
    at, size = fb.blob_data(b, name)
    if not 0 <= offset < size:
        sys.exit("blob %s has %d bytes, no byte %d" % (name, size, offset))
    old = b[at + offset]
    b[at + offset] = value
    open(dst, "wb").write(bytes(b))
    print("blob %s byte %d: %d -> %d" % (name, offset, old, value))


main()
