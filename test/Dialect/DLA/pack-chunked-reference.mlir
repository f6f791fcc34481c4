// Packed bytes checked against an independent numpy implementation of the
// HTP document (utils/dla-ref/chunked_ref.py), on the document's examples,
// every preset and element type, and random layouts and shapes.
//
// The document's examples, iota data:
// RUN: %python %dla_ref/gen_module.py --layout crouton --shape 1x3x5x30 --type i8 > %t.crouton1.mlir
// RUN: dla-opt %t.crouton1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --layout crouton --shape 2x9x20x50 --type i32 > %t.crouton2.mlir
// RUN: dla-opt %t.crouton2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --layout depth32 --shape 2x9x20x50 --type i8 > %t.depth32.mlir
// RUN: dla-opt %t.depth32.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --layout conv_weight --shape 3x3x64x96 --type f16 > %t.convw.mlir
// RUN: dla-opt %t.convw.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --layout conv_weight --shape 3x3x32x50 --type i8 > %t.convw50.mlir
// RUN: dla-opt %t.convw50.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
//
// Random presets and random valid pair lists on random shapes and types:
// RUN: %python %dla_ref/gen_module.py --random 60 --seed 1 > %t.random1.mlir
// RUN: dla-opt %t.random1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 60
// RUN: %python %dla_ref/gen_module.py --random 60 --seed 20261121 > %t.random2.mlir
// RUN: dla-opt %t.random2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 60
//
// The checker itself must fail on a corrupted byte:
// RUN: dla-opt %t.crouton1.mlir --dla-pack-weights | sed -e 's/"0x400000000001/"0x400000000101/' | not %python %dla_ref/check_packed.py 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: dla_packed: packed bytes differ from the reference
// CORRUPT: first differing byte: 0 (element 0, byte 0)
// CORRUPT: reference puts there: (0,0,0,0)
