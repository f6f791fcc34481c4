"""dimg-2018-format.py IN OUT: writes the DIMG file IN with its pixel-format
code (the 32-bit word at byte 8) in the numbering of NVIDIA's 2018 nv_full
goldens, every other byte unchanged, and prints the change.

NVIDIA's runtime app at the pinned nvdla/sw HEAD (umd/apps/runtime/
DlaImage.h, PixelFormat) numbers D_F8_CxHWx_x32_I 40, D_F8_CxHWx_x8_I 41,
D_F16_CxHWx_x16_I 42, D_F16_CxHWx_x16_F 43. The nv_full goldens
(regression/golden/*_<hash>/dla/o_000000.dimg without _small / _large)
carry 40 for int8 surfaces, 41 for int16 and 42 for fp16 ones: the
numbering without D_F8_CxHWx_x8_I (nv_small's 8-channel int8 format), one
lower from 41 on. The nv_small / nv_large goldens use HEAD's numbering."""
import struct
import sys

src, out = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
if data[:4] != b"DIMG":
    sys.exit("%s: not a DIMG file" % src)
(code,) = struct.unpack_from("<I", data, 8)
new = code - 1 if code >= 42 else code
if code == 41:
    sys.exit("%s: format 41 (D_F8_CxHWx_x8_I) has no 2018 number" % src)
struct.pack_into("<I", data, 8, new)
open(out, "wb").write(data)
print("pixel format %d -> %d" % (code, new))
