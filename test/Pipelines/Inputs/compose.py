"""Runs a module through the public pipelines in every order a user may
chain them, one dla-opt process per stage (the text form between them),
with and without -canonicalize -cse between stages, and checks that every
chain prints what the pipelines print run together in one process.

    compose.py DLA_OPT LLVM_BIN MODULE COMPILE_OPTIONS

Prints one line per chain and "N chains, all equal"; exits 1 on the first
chain that fails or differs (with its command and the difference)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

dla_opt, llvm_bin, module, compile_options = sys.argv[1:5]
# libDLARuntime.so beside dla-opt's bin: what fp16 layers on nv_full call.
RUNTIME = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(
    shutil.which(dla_opt) or dla_opt))), "lib", "libDLARuntime.so")
RUNNER = [os.path.join(llvm_bin, "mlir-runner"), "-e", "main", "-entry-point-result=void",
          "-shared-libs=%s,%s,%s" % (os.path.join(llvm_bin, "..", "lib", "libmlir_c_runner_utils.so"),
                                     os.path.join(llvm_bin, "..", "lib", "libmlir_runner_utils.so"),
                                     RUNTIME)]
COMPILE = "--dla-compile=%s" % compile_options
MEMREF = "--dla-lower-to-memref"
LLVM = "--dla-lower-to-llvm"
CLEAN = ["-canonicalize", "-cse"]


def printed(text):
    """mlir-runner's output without the buffers' addresses."""
    return re.sub(rb"base@ = 0x[0-9a-f]+", b"base@", text)


def run(argv, stdin, what):
    p = subprocess.run(argv, input=stdin, capture_output=True)
    if p.returncode != 0:
        sys.exit("FAIL %s: %s exited %d:\n%s" % (what, " ".join(argv), p.returncode,
                                                 p.stderr.decode(errors="replace")[-4000:]))
    return p.stdout


def execute(stages, clean):
    """The module through `stages` (one process each), then mlir-runner."""
    text = open(module, "rb").read()
    for i, stage in enumerate(stages):
        argv = [dla_opt, "-", stage] + (CLEAN if clean and i + 1 < len(stages) else [])
        text = run(argv, text, " | ".join(stages))
    return printed(run(RUNNER, text, " | ".join(stages) + " | mlir-runner"))


def together(stages):
    """The same pipelines in one process and one pass manager."""
    names = [s[2:].replace("=", "{", 1) + ("}" if "=" in s else "") for s in stages]
    text = run([dla_opt, module, "--pass-pipeline=builtin.module(%s)" % ",".join(names)], None,
               "together")
    return printed(run(RUNNER, text, "together | mlir-runner"))


chains = [
    [COMPILE, MEMREF, LLVM],
    [COMPILE, LLVM],
    [MEMREF, LLVM],
    # A stage given its own output.
    [COMPILE, COMPILE, LLVM],
    [COMPILE, MEMREF, MEMREF, LLVM],
]
expected = {}
count = 0
for stages in chains:
    key = COMPILE in stages
    if key not in expected:
        expected[key] = together([COMPILE, LLVM] if key else [LLVM])
        if not expected[key].strip():
            sys.exit("FAIL: the module prints nothing; nothing would be compared")
    for clean in (False, True):
        got = execute(stages, clean)
        name = (" -canonicalize -cse | " if clean else " | ").join(s.split("=")[0] for s in stages)
        if got != expected[key]:
            sys.exit("FAIL %s: prints\n%s\nexpected\n%s" % (name, got.decode()[:2000],
                                                            expected[key].decode()[:2000]))
        print("equal: " + name)
        count += 1
print("%d chains, all equal" % count)
