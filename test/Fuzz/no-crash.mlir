// Random, mostly malformed modules (encodings with extreme parameters,
// layer ops with random modes, types and shapes, relayouts of constants):
// dla-opt must end every one with success or diagnostics, never a crash.
// RUN: %python %dla_src/utils/fuzz/fuzz_dla_opt.py dla-opt --seed 1 --count 1000 | FileCheck %s
// RUN: %python %dla_src/utils/fuzz/fuzz_dla_opt.py dla-opt --seed 20261121 --count 1000 | FileCheck %s
// CHECK: 1000 passed, 0 failed
