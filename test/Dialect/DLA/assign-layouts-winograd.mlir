// RUN: dla-opt %s -split-input-file --dla-assign-layouts='winograd=auto' -verify-diagnostics=only-expected 2>/dev/null | FileCheck %s --enable-var-scope
// RUN: not dla-opt %s -split-input-file --dla-assign-layouts='target=nv_small winograd=auto' 2>&1 | FileCheck %s --check-prefix=SMALL
// winograd=auto turns a 3x3 stride-1 convolution with constant weights
// (an arith.truncf of an f32 constant too: imported models' weights) into
// Winograd, and says why each other convolution stays direct; on a
// configuration without Winograd it says so once and changes nothing.

// The truncf-rounded f32 weights are relayouted from the f32 constant
// itself (transformed in f32, rounded once when packed); the truncf goes,
// its rounding (none: arith's ties to even) becomes the encoding's, stated
// since the encoding's default is NVIDIA's ties away.
// CHECK-LABEL: func.func @winograd
// CHECK-NOT: arith.truncf
// CHECK-DAG: %[[W:.*]] = dla.relayout %{{.*}} : tensor<16x16x3x3xf16> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
// CHECK-DAG: %[[T:.*]] = dla.relayout %{{.*}} : tensor<16x16x3x3xf32> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16, rounding = to_nearest_even>>
// CHECK-DAG: dla.conv winograd %{{.*}}, %[[W]] pad [1, 1, 1, 1]
// CHECK-DAG: dla.conv winograd %{{.*}}, %[[T]] pad [1, 1, 1, 1]
// CHECK: dla.conv direct
// CHECK: dla.conv direct
// CHECK: dla.conv direct
// The summary counts the Winograd convolutions (what tools report).
// expected-remark @+1 {{minimum cost (exact: no cycle of the graph passes through a choice); 2 Winograd convolutions, 0 compressed weights}}
func.func @winograd(%x: tensor<1x16x8x8xf16>, %wa: tensor<16x16x3x3xf16>) -> (tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x16x4x4xf16>) {
  %w = arith.constant dense<1.0> : tensor<16x16x3x3xf16>
  %w32 = arith.constant dense<0.5> : tensor<16x16x3x3xf32>
  %wt = arith.truncf %w32 : tensor<16x16x3x3xf32> to tensor<16x16x3x3xf16>
  %w1 = arith.constant dense<1.0> : tensor<16x16x1x1xf16>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=auto): 3x3 kernel, stride 1, constant weights}}
  %a = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x8x8xf16>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=auto): 3x3 kernel, stride 1, constant weights}}
  %t = dla.conv direct %x, %wt pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x8x8xf16>
  // expected-remark @+1 {{stays direct (winograd=auto): its weights are not a compile-time constant (Winograd weights are transformed when packed)}}
  %b = dla.conv direct %x, %wa pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x8x8xf16>
  // expected-remark @+1 {{stays direct (winograd=auto): its kernel is not 3x3 after channel extension for its stride}}
  %c = dla.conv direct %x, %w1 : tensor<1x16x8x8xf16>, tensor<16x16x1x1xf16> -> tensor<1x16x8x8xf16>
  // expected-remark @+1 {{stays direct (winograd=auto): it is dilated}}
  %d = dla.conv direct %x, %w dilation [2, 2] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x4x4xf16>
  return %a, %t, %b, %c, %d : tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x16x8x8xf16>, tensor<1x16x4x4xf16>
}

// -----

// The truncf's rounding becomes the encoding's (the one rounding of G g G^T):
// to_nearest_away is the default, not printed.
// CHECK-LABEL: func.func @away
// CHECK: dla.relayout %{{.*}} : tensor<16x16x3x3xf32> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
func.func @away(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %w32 = arith.constant dense<0.3> : tensor<16x16x3x3xf32>
  %wt = arith.truncf %w32 to_nearest_away : tensor<16x16x3x3xf32> to tensor<16x16x3x3xf16>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=auto): 3x3 kernel, stride 1, constant weights}}
  %t = dla.conv direct %x, %wt pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x8x8xf16>
  return %t : tensor<1x16x8x8xf16>
}

// -----

// On nv_small (int8 only, no Winograd) the fp16 function above is an error;
// this one stays direct, with the remark.
// SMALL-DAG: error: 'dla.conv' op fp16 data: nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)
// SMALL-DAG: remark: winograd=auto: nv_small has no Winograd convolution (WINOGRAD_DISABLE); every convolution stays direct
// SMALL-DAG: tensor<16x16x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
func.func @int8(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi8> {
  %w = arith.constant dense<1> : tensor<16x16x3x3xi8>
  %a = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x8x8xi8>
  return %a : tensor<1x16x8x8xi8>
}

// -----

// Winograd layers are not cut to fit the convolution buffer: 256 fp16
// channels at 64x64 outputs would take 73 of nv_full's 16 banks as
// Winograd input, so the convolution stays direct (where
// --dla-split-convolutions, before this pass in --dla-compile, cuts it by
// rows).
// CHECK-LABEL: func.func @too_large_for_winograd
// CHECK: dla.conv direct
func.func @too_large_for_winograd(%x: tensor<1x256x64x64xf16>) -> tensor<1x16x64x64xf16> {
  %w = arith.constant dense<1.0> : tensor<16x256x3x3xf16>
  // expected-remark @+1 {{stays direct (winograd=auto): convolution buffer: the Winograd input takes 73 banks and one kernel group of transformed weights 4, the buffer has 16; NVIDIA's compiler runs such a layer as a direct convolution}}
  %a = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x256x64x64xf16>, tensor<16x256x3x3xf16> -> tensor<1x16x64x64xf16>
  return %a : tensor<1x16x64x64xf16>
}

// -----

// Integer weights (quantized already, their f32 values gone) turn Winograd
// only where the taps round(G q G^T) are exact: G q G^T integral and within
// the precision's range. Else Winograd would round the weights a second
// time or saturate them, and compute something other than the direct
// convolution.
// CHECK-LABEL: func.func @integer
// CHECK: dla.conv winograd
// CHECK: dla.conv direct
// CHECK: dla.conv direct
// CHECK: dla.conv winograd
// CHECK: dla.conv direct
func.func @integer(%x: tensor<1x1x8x8xi8>, %y: tensor<1x1x8x8xi16>) -> (tensor<1x1x8x8xi8>, tensor<1x1x8x8xi8>, tensor<1x1x8x8xi8>, tensor<1x1x8x8xi16>, tensor<1x1x8x8xi8>) {
  %exact = arith.constant dense<[[[[0, 0, 0], [0, 4, 0], [0, 0, 0]]]]> : tensor<1x1x3x3xi8>
  %ones = arith.constant dense<1> : tensor<1x1x3x3xi8>
  %big = arith.constant dense<60> : tensor<1x1x3x3xi8>
  %big16 = arith.constant dense<60> : tensor<1x1x3x3xi16>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=auto)}}
  %a = dla.conv direct %x, %exact pad [1, 1, 1, 1] : tensor<1x1x8x8xi8>, tensor<1x1x3x3xi8> -> tensor<1x1x8x8xi8>
  // expected-remark @+1 {{stays direct (winograd=auto): its integer Winograd taps would not be exact (kernel 0, channel 0: a tap of G q G^T, 1.5, is not an integer (it would round again))}}
  %b = dla.conv direct %x, %ones pad [1, 1, 1, 1] : tensor<1x1x8x8xi8>, tensor<1x1x3x3xi8> -> tensor<1x1x8x8xi8>
  // expected-remark @+1 {{stays direct (winograd=auto): its integer Winograd taps would not be exact (kernel 0, channel 0: a tap of G q G^T, 135, is beyond int8 (it would saturate))}}
  %c = dla.conv direct %x, %big pad [1, 1, 1, 1] : tensor<1x1x8x8xi8>, tensor<1x1x3x3xi8> -> tensor<1x1x8x8xi8>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=auto)}}
  %d = dla.conv direct %y, %big16 pad [1, 1, 1, 1] : tensor<1x1x8x8xi16>, tensor<1x1x3x3xi16> -> tensor<1x1x8x8xi16>
  // An input converter (a quantized input's zero point) keeps it direct:
  // NVDLA's Winograd data path does not apply one.
  // expected-remark @+1 {{stays direct (winograd=auto): it has an input converter: NVDLA's Winograd input path has none (the v1 C model's CDMA converts direct and image input only)}}
  %e = dla.conv direct %x, %exact pad [1, 1, 1, 1] input_cvt <offset = 3, scale = 1, shift = 0> : tensor<1x1x8x8xi8>, tensor<1x1x3x3xi8> -> tensor<1x1x8x8xi8>
  return %a, %b, %c, %d, %e : tensor<1x1x8x8xi8>, tensor<1x1x8x8xi8>, tensor<1x1x8x8xi8>, tensor<1x1x8x8xi16>, tensor<1x1x8x8xi8>
}

// -----

// Stride 2: the taps are those of the channel-extended 3x3 planes. Weight
// (2, 2) of a 5x5 kernel is the centre of plane (dy, dx) = (0, 0): its G q
// G^T has 0.25 q at (1, 1) (a corner weight would give 0.5 q first).
// CHECK-LABEL: func.func @integer_stride2
// CHECK: dla.conv winograd
// CHECK: dla.conv direct
func.func @integer_stride2(%x: tensor<1x1x9x9xi8>) -> (tensor<1x1x3x3xi8>, tensor<1x1x3x3xi8>) {
  %four = arith.constant dense<[[[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 4, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]]]> : tensor<1x1x5x5xi8>
  %one = arith.constant dense<[[[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]]]> : tensor<1x1x5x5xi8>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=auto): 5x5 kernel, stride 2}}
  %a = dla.conv direct %x, %four stride [2, 2] : tensor<1x1x9x9xi8>, tensor<1x1x5x5xi8> -> tensor<1x1x3x3xi8>
  // expected-remark @+1 {{stays direct (winograd=auto): its integer Winograd taps would not be exact (kernel 0, channel 0: a tap of G q G^T, 0.25, is not an integer (it would round again))}}
  %b = dla.conv direct %x, %one stride [2, 2] : tensor<1x1x9x9xi8>, tensor<1x1x5x5xi8> -> tensor<1x1x3x3xi8>
  return %a, %b : tensor<1x1x3x3xi8>, tensor<1x1x3x3xi8>
}
