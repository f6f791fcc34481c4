"""The project's register table (include/dla/Format/NvdlaRegisterMap.h: the
registers and fields its programs write, transcribed from master's
opendla.h) against v1's arnvdla.h (the map NVIDIA's firmware uses for
nv_full): prints how each register's address differs and every field whose
position or width differs. Usage: register-map.py NvdlaRegisterMap.h arnvdla.h"""

import collections
import re
import sys

table, header = (open(p).read() for p in sys.argv[1:3])
addr = {m[1]: int(m[2], 16) for m in
        re.finditer(r"#define (NVDLA_\w+_0)\s+_MK_ADDR_CONST\((0x[0-9a-fA-F]+)\)", header)}
shift = {m[1]: int(m[2]) for m in
         re.finditer(r"#define (NVDLA_\w+)_SHIFT\s+_MK_SHIFT_CONST\((\d+)\)", header)}
mask = {m[1]: int(m[2], 16) for m in
        re.finditer(r"#define (NVDLA_\w+)_FIELD\s+_MK_FIELD_CONST\((0x[0-9a-fA-F]+)", header)}
regs = re.findall(r"X\((\w+), (\w+), (0x[0-9a-f]+)\)", table)
offsets = collections.Counter()
for block, reg, a in regs:
    name = f"NVDLA_{block}_{reg}_0"
    offsets["missing" if name not in addr else hex(addr[name] - int(a, 16))] += 1
print(f"{len(regs)} registers; address in arnvdla.h minus the table's: " +
      ", ".join(f"{k} ({n})" for k, n in sorted(offsets.items())))
by_enum = {f"{b}_{r}": (b, r) for b, r, _ in regs}
fields = re.findall(r"DLA_F\((\w+), (\w+), (\d+), (\d+)\)", table)
same = 0
for reg, field, s, w in fields:
    b, r = by_enum[reg]
    name = f"NVDLA_{b}_{r}_0_{field}"
    if name not in shift:
        print(f"field {b}.{r}.{field}: not in arnvdla.h")
        continue
    width = bin(mask[name]).count("1")
    if (shift[name], width) != (int(s), int(w)):
        print(f"field {b}.{r}.{field}: table bit {s} width {w}, arnvdla.h bit {shift[name]} width {width}")
    else:
        same += 1
print(f"{same} of {len(fields)} fields at the same bits")
