"""Reading and patching NVDLA loadables (flatbuffers of NVIDIA's
loadable.fbs) without the flatbuffers package, for the tests of
test/NvdlaLoadable. Field slots as umd/core/src/common/include/priv/
loadable_generated.h numbers them: Loadable memory_list 8, blobs 14;
MemoryListEntry id 4, flags 8, contents 14, bind_id 18, tensor_desc_id 20;
Blob name 4, data 14."""
import struct

ALLOC, SET, INPUT = 1, 2, 4


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def u16(b, at):
    return struct.unpack_from("<H", b, at)[0]


def field(b, table, slot):
    """Position of a table's field, or None when absent (default value)."""
    vtable = table - struct.unpack_from("<i", b, table)[0]
    if slot >= u16(b, vtable):
        return None
    off = u16(b, vtable + slot)
    return table + off if off else None


def deref(b, at):
    return at + u32(b, at)


def vector(b, table, slot):
    """The tables of a vector-of-tables field."""
    at = field(b, table, slot)
    if at is None:
        return []
    v = deref(b, at)
    return [deref(b, v + 4 + 4 * i) for i in range(u32(b, v))]


def string(b, at):
    s = deref(b, at)
    return bytes(b[s + 4:s + 4 + u32(b, s)]).decode()


def root(b):
    return u32(b, 0)


def memory(b, mem_id):
    for m in vector(b, root(b), 8):
        at = field(b, m, 4)
        if (u16(b, at) if at is not None else 0) == mem_id:
            return m
    raise SystemExit("no memory %d" % mem_id)


def contents(b, mem):
    """The names of the blobs a memory is set from."""
    at = field(b, mem, 14)
    if at is None:
        return []
    v = deref(b, at)
    return [string(b, v + 4 + 4 * i) for i in range(u32(b, v))]


def blob_data(b, name):
    """(position, size) of a blob's bytes."""
    for blob in vector(b, root(b), 14):
        if string(b, field(b, blob, 4)) == name:
            data = deref(b, field(b, blob, 14))
            return data + 4, u32(b, data)
    raise SystemExit("no blob " + name)
