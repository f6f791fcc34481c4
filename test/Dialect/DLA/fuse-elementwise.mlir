// RUN: dla-opt %s --split-input-file --dla-fuse-elementwise | FileCheck %s --enable-var-scope

// A QuantizeLinear's scale, clamp and cast: three element-wise generics of
// one reader each become one, the scalar ops in their order.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK-NEXT: %[[C:.*]] = arith.minimumf %[[M]], %{{.*}} : f32
// CHECK-NEXT: %[[I:.*]] = arith.fptosi %[[C]] : f32 to i8
// CHECK-NEXT: linalg.yield %[[I]] : i8
func.func @chain(%x: tensor<16xf32>) -> tensor<16xi8> {
  %k = arith.constant 8.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %k : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%m : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.minimumf %a, %hi : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e8 = tensor.empty() : tensor<16xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : tensor<16xf32>) outs(%e8 : tensor<16xi8>) {
  ^bb0(%a: f32, %o: i8):
    %r = arith.fptosi %a : f32 to i8
    linalg.yield %r : i8
  } -> tensor<16xi8>
  return %q : tensor<16xi8>
}

// -----

// A value two ops read stays a tensor of its own (fusing would compute it
// twice); so does the input of a reduction (--dla-vectorize-kernels
// recognizes reductions in the form tosa-to-linalg writes).

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.generic
func.func @kept(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %n1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%s : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %n2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%s : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %z = arith.constant 0.0 : f32
  %init = tensor.from_elements %z : tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%n1 : tensor<16xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %n1, %n2, %sum : tensor<16xf32>, tensor<16xf32>, tensor<f32>
}

// -----

// An unfolded batch normalization on the host: NCHW -> NHWC, scale and
// shift per channel, back to NCHW. The transposes become permuted maps of
// one generic, which compose to NCHW throughout.

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$CH]], #[[$ID]]]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x4x2x3xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<1x4x2x3xf32>)
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.transpose
func.func @transposed(%x: tensor<1x4x2x3xf32>, %g: tensor<4xf32>) -> tensor<1x4x2x3xf32> {
  %e1 = tensor.empty() : tensor<1x2x3x4xf32>
  %t = linalg.transpose ins(%x : tensor<1x4x2x3xf32>) outs(%e1 : tensor<1x2x3x4xf32>)
      permutation = [0, 2, 3, 1]
  %m = linalg.generic {indexing_maps = [#id4, #c, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t, %g : tensor<1x2x3x4xf32>, tensor<4xf32>) outs(%e1 : tensor<1x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x4xf32>
  %e2 = tensor.empty() : tensor<1x4x2x3xf32>
  %back = linalg.transpose ins(%m : tensor<1x2x3x4xf32>) outs(%e2 : tensor<1x4x2x3xf32>)
      permutation = [0, 3, 1, 2]
  return %back : tensor<1x4x2x3xf32>
}

// -----

// A reshape that adds a unit dimension between two steps (tosa.reshape
// to 1 x H x W) moves out of the chain: one generic on the expanded shape.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @reshaped
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [1, 4, 6] : tensor<4x6xf32> into tensor<1x4x6xf32>
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: arith.negf
// CHECK: arith.fptosi
func.func @reshaped(%x: tensor<4x6xf32>) -> tensor<1x4x6xi32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %row = tensor.expand_shape %n [[0, 1], [2]] output_shape [1, 4, 6] : tensor<4x6xf32> into tensor<1x4x6xf32>
  %ei = tensor.empty() : tensor<1x4x6xi32>
  %i = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%row : tensor<1x4x6xf32>) outs(%ei : tensor<1x4x6xi32>) {
  ^bb0(%a: f32, %o: i32):
    %r = arith.fptosi %a : f32 to i32
    linalg.yield %r : i32
  } -> tensor<1x4x6xi32>
  return %i : tensor<1x4x6xi32>
}
