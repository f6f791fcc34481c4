// RUN: dla-opt %s --dla-vectorize-kernels --canonicalize | FileCheck %s --enable-var-scope

// A strided convolution: 8 output channels at a time (20 = 2 * 8 + 4 one at
// a time), tiles of 16 output columns (40 = 2 * 16 unmasked, then 8 under a
// mask), the reductions (c, r, s) in the op's order inside with the 8
// accumulators carried in vectors; the input read along the columns with
// stride 2 is a gather shared by the 8, each weight a broadcast scalar.

// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[OFFSETS:.*]] = arith.constant dense<[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]> : vector<16xi32>
// CHECK-DAG: %[[ALL:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK: scf.for %[[OH:.*]] = %c0 to %c12 step %c1 {
// CHECK: scf.for %[[F:.*]] = %c0 to %c16 step %c8 {
// CHECK: scf.for %[[OW:.*]] = %c0 to %c32 step %c16 {
// CHECK: %[[ACC0:.*]] = vector.load %{{.*}}[%c0, %[[F]], %[[OH]], %[[OW]]] : memref<1x20x12x40xf32>, vector<16xf32>
// CHECK-COUNT-7: vector.load
// CHECK: %[[SUMS:.*]]:8 = scf.for %[[C:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ACC0]],
// CHECK: scf.for %[[R:.*]] = %c0 to %c3
// CHECK: scf.for %[[S:.*]] = %c0 to %c3
// CHECK: %[[X:.*]] = vector.gather %{{.*}}[%c0, %[[C]], %{{.*}}, %{{.*}}] [%[[OFFSETS]]], %[[ALL]]
// CHECK: %[[W0:.*]] = memref.load %{{.*}}[%[[F]], %[[C]], %[[R]], %[[S]]]
// CHECK: %[[B0:.*]] = vector.broadcast %[[W0]] : f32 to vector<16xf32>
// CHECK: %[[P0:.*]] = arith.mulf %[[X]], %[[B0]] : vector<16xf32>
// CHECK: arith.addf %{{.*}}, %[[P0]] : vector<16xf32>
// CHECK-COUNT-7: arith.mulf %[[X]]
// CHECK: vector.store %[[SUMS]]#0, %{{.*}}[%c0, %[[F]], %[[OH]], %[[OW]]]
// CHECK: %[[MASK:.*]] = vector.constant_mask [8] : vector<16xi1>
// CHECK: vector.maskedload %{{.*}}[%c0, %[[F]], %[[OH]], %c32], %[[MASK]]
// CHECK: vector.gather %{{.*}} [%[[OFFSETS]]], %[[MASK]]
// CHECK: vector.maskedstore %{{.*}}[%c0, %[[F]], %[[OH]], %c32], %[[MASK]]
// CHECK: scf.for %{{.*}} = %c16 to %c20 step %c1 {
// CHECK: scf.for %{{.*}} -> (vector<16xf32>) {
func.func @conv(%x: memref<1x3x26x82xf32>, %w: memref<20x3x3x3xf32>, %y: memref<1x20x12x40xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x3x26x82xf32>, memref<20x3x3x3xf32>) outs(%y : memref<1x20x12x40xf32>)
  return
}

// An NHWC convolution in f16 (--dla-vector-friendly-convolutions' HWCF
// filter): the vector runs along the output channels (32: two whole tiles,
// no mask), the filter row is the vector input. Of the output dimensions
// the filter does not read (batch, row, column) the innermost, the column,
// is blocked: a batch of 1 would leave every tile one accumulator.
// CHECK-LABEL: func.func @conv_nhwc
// (The loops of one iteration, batch and the first 8 columns, fold.)
// CHECK: scf.for %[[OH:.*]] = %c0 to %c6 step %c1 {
// CHECK: scf.for %[[F:.*]] = %c0 to %c32 step %c16 {
// CHECK: %[[ACC0:.*]] = vector.load %{{.*}}[%c0, %[[OH]], %c0, %[[F]]] : memref<1x6x10x32xf16>, vector<16xf16>
// CHECK: vector.load %{{.*}}[%c0, %[[OH]], %c1, %[[F]]]
// CHECK-COUNT-6: vector.load
// CHECK: scf.for %[[R:.*]] = %c0 to %c3
// CHECK: scf.for %[[S:.*]] = %c0 to %c3
// CHECK: scf.for %[[C:.*]] = %c0 to %c4
// CHECK: %[[W:.*]] = vector.load %{{.*}}[%[[R]], %[[S]], %[[C]], %[[F]]] : memref<3x3x4x32xf16>, vector<16xf16>
// CHECK: memref.load %{{.*}}[%c0, %{{.*}}, %{{.*}}, %[[C]]] : memref<1x8x12x4xf16>
// CHECK-COUNT-8: arith.mulf %{{.*}}, %[[W]] : vector<16xf16>
// CHECK-COUNT-8: vector.store
// CHECK-NOT: vector.mask
// CHECK: scf.for %{{.*}} = %c8 to %c10 step %c1 {
// CHECK-NOT: vector.mask
// CHECK-LABEL: func.func @depthwise
func.func @conv_nhwc(%x: memref<1x8x12x4xf16>, %w: memref<3x3x4x32xf16>, %y: memref<1x6x10x32xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x12x4xf16>, memref<3x3x4x32xf16>) outs(%y : memref<1x6x10x32xf16>)
  return
}

// A depthwise int8 convolution: no dimension to block (every input reads
// the channel), one accumulator; the body is applied to vectors as it is.
// 19 columns: one whole tile, then 3 under a mask.
// CHECK: vector.load %{{.*}}[%c0, %{{.*}}, %{{.*}}, %c0] : memref<1x8x2x19xi32>, vector<16xi32>
// CHECK: vector.load %{{.*}} : memref<1x8x4x20xi8>, vector<16xi8>
// CHECK: vector.store
// CHECK: %[[MASK:.*]] = vector.constant_mask [3] : vector<16xi1>
// CHECK: scf.for {{.*}} -> (vector<16xi32>) {
// CHECK: %[[X:.*]] = vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<1x8x4x20xi8>, vector<16xi1>, vector<16xi8> into vector<16xi8>
// CHECK: %[[W:.*]] = vector.broadcast %{{.*}} : i8 to vector<16xi8>
// CHECK: arith.extsi %[[X]] : vector<16xi8> to vector<16xi32>
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: vector.maskedstore
func.func @depthwise(%x: memref<1x8x4x20xi8>, %w: memref<8x3x2xi8>, %y: memref<1x8x2x19xi32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w, r, s) -> (n, c, h + r, w + s)>,
                                   affine_map<(n, c, h, w, r, s) -> (c, r, s)>,
                                   affine_map<(n, c, h, w, r, s) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<1x8x4x20xi8>, memref<8x3x2xi8>) outs(%y : memref<1x8x2x19xi32>) {
  ^bb0(%in: i8, %k: i8, %out: i32):
    %a = arith.extsi %in : i8 to i32
    %b = arith.extsi %k : i8 to i32
    %m = arith.muli %a, %b : i32
    %s = arith.addi %out, %m : i32
    linalg.yield %s : i32
  }
  return
}

// Left as they are: an integer division (the masked-off lanes would divide
// by zero), a reduction into the output's innermost dimension, and no
// reduction at all (LLVM vectorizes those loops itself).
// CHECK-LABEL: func.func @divides
// CHECK: linalg.generic
// CHECK-LABEL: func.func @inner_reduction
// CHECK: linalg.generic
// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.generic
func.func @divides(%x: memref<4x16xi32>, %y: memref<16xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<4x16xi32>) outs(%y : memref<16xi32>) {
  ^bb0(%in: i32, %out: i32):
    %d = arith.divsi %out, %in : i32
    linalg.yield %d : i32
  }
  return
}
func.func @inner_reduction(%x: memref<4x16xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x16xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %out, %in : f32
    linalg.yield %d : f32
  }
  return
}
func.func @elementwise(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %out, %in : f32
    linalg.yield %d : f32
  }
  return
}

// Booleans are left too: an i1 buffer holds a byte per element, a vector
// of i1 loads bits.
// CHECK-LABEL: func.func @booleans
// CHECK: linalg.generic
func.func @booleans(%x: memref<4x16xi1>, %y: memref<16xi1>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<4x16xi1>) outs(%y : memref<16xi1>) {
  ^bb0(%in: i1, %out: i1):
    %d = arith.ori %out, %in : i1
    linalg.yield %d : i1
  }
  return
}
