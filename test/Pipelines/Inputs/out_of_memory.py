"""dla-opt running out of memory while printing packed weights as text:
one error line and exit 1, the partial output file removed (it was an
uncaught std::bad_alloc: abort, exit 134).

    out_of_memory.py DLA_OPT WORKDIR [MIB]

Writes a module of one MIB MiB fp16 convolution weight (dense_resource) as
bytecode, measures dla-opt's address space once started (blocked reading
an empty stdin), then runs `dla-opt --dla-pack-weights` with textual
output under RLIMIT_AS = that + 2.5 x the weight bytes: the input, its
packed copy and the hex of the printer cannot all fit. Prints the exit
code, the last line of stderr and whether the output file is gone.
"""
import os
import resource
import subprocess
import sys
import time

import numpy as np


def vm_after_start(dla_opt):
    """dla-opt's VmSize (bytes) once initialized, waiting on stdin."""
    proc = subprocess.Popen([dla_opt, "-", "--mlir-disable-threading", "-o", os.devnull],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        size, last = 0, -1
        for _ in range(200):  # stable for a few polls: initialized, blocked in read
            time.sleep(0.05)
            with open("/proc/%d/status" % proc.pid) as f:
                size = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
            if size == last:
                break
            last = size
        return size
    finally:
        proc.stdin.close()
        proc.wait()


def main():
    dla_opt, work = sys.argv[1], sys.argv[2]
    mib = int(sys.argv[3]) if len(sys.argv) > 3 else 48
    os.makedirs(work, exist_ok=True)
    k, c = 256, mib * 2 ** 20 // (256 * 9 * 2)
    shape = "%dx%dx3x3xf16" % (k, c)
    plain, packed = "tensor<%s>" % shape, "tensor<%s, #dla.weight<direct, fp16>>" % shape
    raw = np.random.default_rng(0).standard_normal(k * c * 9).astype(np.float16).tobytes()
    text = os.path.join(work, "w.mlir")
    with open(text, "w") as f:
        f.write("module {\n  func.func @w() -> %s {\n"
                "    %%w = arith.constant dense_resource<w> : %s\n"
                "    %%p = dla.relayout %%w : %s -> %s\n    return %%p : %s\n  }\n}\n"
                "{-#\n  dialect_resources: {\n    builtin: {\n      w: \"0x02000000%s\"\n"
                "    }\n  }\n#-}\n" % (packed, plain, plain, packed, packed, raw.hex().upper()))
    bc = os.path.join(work, "w.mlirbc")
    subprocess.run([dla_opt, text, "--emit-bytecode", "-o", bc], check=True)
    os.remove(text)
    limit = vm_after_start(dla_opt) + int(2.5 * len(raw))
    out = os.path.join(work, "packed.mlir")

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    proc = subprocess.run([dla_opt, bc, "--dla-pack-weights", "--mlir-disable-threading",
                           "-o", out], preexec_fn=limited, capture_output=True, text=True)
    lines = proc.stderr.strip().splitlines()
    print("exit %d" % proc.returncode)
    print("stderr lines %d, last: %s" % (len(lines), lines[-1] if lines else ""))
    print("output file left: %s" % os.path.exists(out))


if __name__ == "__main__":
    main()
