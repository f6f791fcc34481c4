// The SDP's output converter (#dla.cvt, CVT_OFFSET / SCALE / SHIFT) on
// dla.sdp and dla.clamp: round trip, kept on storage; every verifier
// message in sdp-output-converter-invalid.mlir; executed bit-exactly in
// test/Execution/reference-layers.mlir.
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// CHECK-LABEL: func.func @sdp
// CHECK: dla.sdp offline %arg0 bias %arg1 : tensor<8xi16> out_cvt <offset = -7, scale = 27307, shift = 16> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
// MEMREF-LABEL: func.func @sdp
// MEMREF: dla.on_storage
// MEMREF: dla.sdp offline {{.*}} out_cvt <offset = -7, scale = 27307, shift = 16>
func.func @sdp(%x: tensor<1x8x2x2xi16>, %b: tensor<8xi16>) -> tensor<1x8x2x2xi8> {
  %y = dla.sdp offline %x bias %b : tensor<8xi16> out_cvt <offset = -7, scale = 27307, shift = 16> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// CHECK-LABEL: func.func @clamp
// CHECK: dla.clamp %arg0 min 0.000000e+00 max 9.600000e+01 out_cvt <offset = 0, scale = 21845, shift = 15> : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
func.func @clamp(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  %y = dla.clamp %x min 0.0 max 96.0 out_cvt <offset = 0, scale = 21845, shift = 15> : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// The generic form names the attribute in full.
// CHECK-LABEL: func.func @generic
// CHECK: dla.sdp offline %arg0 relu out_cvt <offset = 1, scale = 2, shift = 3>
func.func @generic(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  %y = "dla.sdp"(%x) <{mode = #dla<sdp_mode offline>, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>, relu, out_cvt = #dla.cvt<offset = 1, scale = 2, shift = 3>}> : (tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}
