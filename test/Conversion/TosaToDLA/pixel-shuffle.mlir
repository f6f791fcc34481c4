// A convolution read by a pixel shuffle (a transposed convolution as
// --tosa-optional-decompositions writes it: reshape [N, H, W, fy, fx, C],
// transpose [0, 1, 3, 2, 4, 5], reshape [N, H fy, W fx, C]) becomes one
// dla.conv per output phase and dla.interleave (docs/Resize.md "Pixel
// shuffles"): the bias added after it goes into each phase's convolution,
// a crop of it (the ONNX pads) and the input's zero padding into each
// phase's padding. Values: test/ONNX/node-convtranspose-offload.test.
// RUN: dla-opt %s --dla-convert-tosa -split-input-file 2>/dev/null | FileCheck %s
// RUN: dla-opt %s --dla-convert-tosa -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=SMALL

// 2x2, stride 2 (the detector's head): four 1x1 convolutions of 3 kernels
// each, the bias [1, 2, 3] in each, one interleave; nothing of the shuffle
// stays.
// CHECK-LABEL: func.func @stride_2
// CHECK: %[[X:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 3, 1, 2>}
// CHECK-NOT: tosa.transpose %arg0
// CHECK: %[[XH:.*]] = tosa.cast %[[X]]
// CHECK: %[[P0:.*]] = dla.conv direct %[[XH]], {{.*}} : tensor<1x2x3x3xf16>, tensor<3x2x1x1xf16>, tensor<3xf16> -> tensor<1x3x3x3xf16>
// CHECK: %[[P1:.*]] = dla.conv direct %[[XH]],
// CHECK: %[[P2:.*]] = dla.conv direct %[[XH]],
// CHECK: %[[P3:.*]] = dla.conv direct %[[XH]],
// CHECK: %[[Y:.*]] = dla.interleave %[[P0]], %[[P1]], %[[P2]], %[[P3]] factors [2, 2] : tensor<1x3x3x3xf16>, tensor<1x3x3x3xf16>, tensor<1x3x3x3xf16>, tensor<1x3x3x3xf16> -> tensor<1x3x6x6xf16>
// CHECK-NOT: tosa.reshape
// CHECK-NOT: tosa.add
// CHECK-NOT: tosa.conv2d
// CHECK: return
// SMALL-LABEL: func.func @stride_2
// SMALL: tosa.conv2d
// SMALL: tosa.reshape
// SMALL-NOT: dla.interleave
func.func @stride_2(%x: tensor<1x3x3x2xf32>) -> tensor<1x6x6x3xf32> {
  %w = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0]> : tensor<24xf32>}> : () -> tensor<24xf32>
  %ws = tosa.const_shape {values = dense<[12, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w4 = tosa.reshape %w, %ws : (tensor<24xf32>, !tosa.shape<4>) -> tensor<12x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<12xf32>}> : () -> tensor<12xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w4, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf32>, tensor<12x1x1x2xf32>, tensor<12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x12xf32>
  %s1 = tosa.const_shape {values = dense<[1, 3, 3, 2, 2, 3]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %r1 = tosa.reshape %c, %s1 : (tensor<1x3x3x12xf32>, !tosa.shape<6>) -> tensor<1x3x3x2x2x3xf32>
  %t = tosa.transpose %r1 {perms = array<i32: 0, 1, 3, 2, 4, 5>} : (tensor<1x3x3x2x2x3xf32>) -> tensor<1x3x2x3x2x3xf32>
  %s2 = tosa.const_shape {values = dense<[1, 6, 6, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r2 = tosa.reshape %t, %s2 : (tensor<1x3x2x3x2x3xf32>, !tosa.shape<4>) -> tensor<1x6x6x3xf32>
  %bias = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %bs = tosa.const_shape {values = dense<[1, 1, 1, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %bias4 = tosa.reshape %bias, %bs : (tensor<3xf32>, !tosa.shape<4>) -> tensor<1x1x1x3xf32>
  %y = tosa.add %r2, %bias4 : (tensor<1x6x6x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x6x6x3xf32>
  return %y : tensor<1x6x6x3xf32>
}

// -----

// Kernel 3x3, stride 2, ONNX pads 1 (TOSA's out_pad -1): the weight padded
// to 4x4 (2x2 per phase), the input padded by 1, the shuffled 8x8 cropped
// from (1, 1) to 5x5. Output phase 0 of an axis is the convolution's phase
// 1 from its row 0 (padding 1 before, 0 after), output phase 1 its phase 0
// from row 1 (0 before, 1 after): 3 rows each, the interleave writes 5.
// CHECK-LABEL: func.func @cropped
// CHECK: %[[P0:.*]] = dla.conv direct {{.*}} pad [1, 0, 1, 0] {{.*}}: tensor<1x2x3x3xf16>, tensor<3x2x2x2xf16>, tensor<3xf16> -> tensor<1x3x3x3xf16>
// CHECK: %[[P1:.*]] = dla.conv direct {{.*}} pad [1, 0, 0, 1]
// CHECK: %[[P2:.*]] = dla.conv direct {{.*}} pad [0, 1, 1, 0]
// CHECK: %[[P3:.*]] = dla.conv direct {{.*}} pad [0, 1, 0, 1]
// CHECK: dla.interleave %[[P0]], %[[P1]], %[[P2]], %[[P3]] factors [2, 2] : {{.*}} -> tensor<1x3x5x5xf16>
// CHECK-NOT: tosa.pad
// CHECK-NOT: tosa.slice
// CHECK-NOT: tosa.conv2d
// CHECK: return
func.func @cropped(%arg0: tensor<1x3x3x2xf32>) -> tensor<1x5x5x3xf32> {
  %0 = "tosa.const"() <{values = dense<[[[[5.000000e-01, -1.000000e+00, 2.000000e+00]]]]> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %1 = tosa.const_shape  {values = dense<[1, 5, 5, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %2 = tosa.const_shape  {values = dense<[0, 1, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %3 = tosa.const_shape  {values = dense<[1, 8, 8, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %4 = tosa.const_shape  {values = dense<[1, 4, 4, 2, 2, 3]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<12xf32>}> : () -> tensor<12xf32>
  %6 = tosa.const_shape  {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %7 = tosa.const_shape  {values = dense<[12, 2, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %8 = tosa.const_shape  {values = dense<[3, 2, 2, 2, 2, 2]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %9 = "tosa.const"() <{values = dense<[[[[-3.000000e+00, -2.000000e+00], [-1.000000e+00, 0.000000e+00], [1.000000e+00, 2.000000e+00]], [[3.000000e+00, -3.000000e+00], [-2.000000e+00, -1.000000e+00], [0.000000e+00, 1.000000e+00]], [[2.000000e+00, 3.000000e+00], [-3.000000e+00, -2.000000e+00], [-1.000000e+00, 0.000000e+00]]], [[[1.000000e+00, 2.000000e+00], [3.000000e+00, -3.000000e+00], [-2.000000e+00, -1.000000e+00]], [[0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00], [-3.000000e+00, -2.000000e+00]], [[-1.000000e+00, 0.000000e+00], [1.000000e+00, 2.000000e+00], [3.000000e+00, -3.000000e+00]]], [[[-2.000000e+00, -1.000000e+00], [0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]], [[-3.000000e+00, -2.000000e+00], [-1.000000e+00, 0.000000e+00], [1.000000e+00, 2.000000e+00]], [[3.000000e+00, -3.000000e+00], [-2.000000e+00, -1.000000e+00], [0.000000e+00, 1.000000e+00]]]]> : tensor<3x3x3x2xf32>}> : () -> tensor<3x3x3x2xf32>
  %10 = tosa.const_shape  {values = dense<[0, 0, 0, 1, 0, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %11 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %12 = tosa.pad %9, %10, %11 : (tensor<3x3x3x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<3x4x4x2xf32>
  %13 = tosa.reshape %12, %8 : (tensor<3x4x4x2xf32>, !tosa.shape<6>) -> tensor<3x2x2x2x2x2xf32>
  %14 = tosa.transpose %13 {perms = array<i32: 2, 4, 0, 1, 3, 5>} : (tensor<3x2x2x2x2x2xf32>) -> tensor<2x2x3x2x2x2xf32>
  %15 = tosa.reshape %14, %7 : (tensor<2x2x3x2x2x2xf32>, !tosa.shape<4>) -> tensor<12x2x2x2xf32>
  %16 = tosa.reverse %15 {axis = 1 : i32} : (tensor<12x2x2x2xf32>) -> tensor<12x2x2x2xf32>
  %17 = tosa.reverse %16 {axis = 2 : i32} : (tensor<12x2x2x2xf32>) -> tensor<12x2x2x2xf32>
  %18 = tosa.pad %arg0, %6, %11 : (tensor<1x3x3x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x5x5x2xf32>
  %19 = tosa.conv2d %18, %17, %5, %11, %11 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<12x2x2x2xf32>, tensor<12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x12xf32>
  %20 = tosa.reshape %19, %4 : (tensor<1x4x4x12xf32>, !tosa.shape<6>) -> tensor<1x4x4x2x2x3xf32>
  %21 = tosa.transpose %20 {perms = array<i32: 0, 1, 3, 2, 4, 5>} : (tensor<1x4x4x2x2x3xf32>) -> tensor<1x4x2x4x2x3xf32>
  %22 = tosa.reshape %21, %3 : (tensor<1x4x2x4x2x3xf32>, !tosa.shape<4>) -> tensor<1x8x8x3xf32>
  %23 = tosa.slice %22, %2, %1 : (tensor<1x8x8x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x5x5x3xf32>
  %24 = tosa.add %23, %0 : (tensor<1x5x5x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x5x5x3xf32>
  return %24 : tensor<1x5x5x3xf32>
}

// -----

// A weight that is not a constant: the convolution stays on the host with
// its own reason, the shuffle with it (no interleave).
// REMARK: remark: stays on the host: its weight is not a constant
// CHECK-LABEL: func.func @weight_argument
// CHECK: tosa.conv2d
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 0, 1, 3, 2, 4, 5>}
// CHECK-NOT: dla.interleave
func.func @weight_argument(%x: tensor<1x3x3x2xf32>, %w: tensor<12x1x1x2xf32>) -> tensor<1x6x6x3xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<12xf32>}> : () -> tensor<12xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf32>, tensor<12x1x1x2xf32>, tensor<12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x12xf32>
  %s1 = tosa.const_shape {values = dense<[1, 3, 3, 2, 2, 3]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %r1 = tosa.reshape %c, %s1 : (tensor<1x3x3x12xf32>, !tosa.shape<6>) -> tensor<1x3x3x2x2x3xf32>
  %t = tosa.transpose %r1 {perms = array<i32: 0, 1, 3, 2, 4, 5>} : (tensor<1x3x3x2x2x3xf32>) -> tensor<1x3x2x3x2x3xf32>
  %s2 = tosa.const_shape {values = dense<[1, 6, 6, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r2 = tosa.reshape %t, %s2 : (tensor<1x3x2x3x2x3xf32>, !tosa.shape<4>) -> tensor<1x6x6x3xf32>
  return %r2 : tensor<1x6x6x3xf32>
}
