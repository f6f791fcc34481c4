// RUN: dla-opt %s --dla-integer-resize-borders | FileCheck %s

// An i8 bilinear 2x upsampling with ONNX's half-pixel coordinates (offset
// -1 of numerator 4 on each axis, border 1): the input padded by its edge
// rows, then columns (4x4 -> 6x4 -> 6x6), the offset one pixel on (3), the
// border one back (-3); the output keeps its size. Non-negative offsets
// and float resizes are left alone.
// CHECK-LABEL: func.func @half_pixel
// CHECK-DAG: %[[OFF:.*]] = tosa.const_shape {values = dense<3> : tensor<2xindex>}
// CHECK-DAG: %[[BOR:.*]] = tosa.const_shape {values = dense<-3> : tensor<2xindex>}
// CHECK: %[[R:.*]] = tosa.concat %{{.*}}, %arg0, %{{.*}} {axis = 1 : i32} : (tensor<1x1x4x2xi8>, tensor<1x4x4x2xi8>, tensor<1x1x4x2xi8>) -> tensor<1x6x4x2xi8>
// CHECK: %[[C:.*]] = tosa.concat %{{.*}}, %[[R]], %{{.*}} {axis = 2 : i32} : (tensor<1x6x1x2xi8>, tensor<1x6x4x2xi8>, tensor<1x6x1x2xi8>) -> tensor<1x6x6x2xi8>
// CHECK: tosa.resize %[[C]], %{{.*}}, %[[OFF]], %[[BOR]] {mode = BILINEAR} : (tensor<1x6x6x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi32>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tosa.concat
func.func @half_pixel(%x: tensor<1x4x4x2xi8>) -> tensor<1x8x8x2xi32> {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<-1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi32>
  return %y : tensor<1x8x8x2xi32>
}
func.func @left_alone(%x: tensor<1x4x4x2xi8>, %f: tensor<1x4x4x2xf32>) -> (tensor<1x8x8x2xi32>, tensor<1x8x8x2xf32>) {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %zero = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<2> : tensor<2xindex>} : () -> !tosa.shape<2>
  %offset = tosa.const_shape {values = dense<-1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b1 = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %zero, %border {mode = BILINEAR} : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xi32>
  %g = tosa.resize %f, %scale, %offset, %b1 {mode = BILINEAR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y, %g : tensor<1x8x8x2xi32>, tensor<1x8x8x2xf32>
}
