// dla.upsample: round trip, the precision table (an offline SDP's),
// layouts (feature data in and out) and the storage form, all from the
// interfaces' defaults. Its verifier in upsample-invalid.mlir; executed
// against numpy (ONNX Resize) and NVIDIA's C model in
// test/NvdlaCModel/trace-upsample.test.
// RUN: dla-opt %s -split-input-file | dla-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: dla-opt %s -split-input-file --dla-check-precision | FileCheck %s --check-prefix=PREC
// RUN: dla-opt %s -split-input-file --dla-compile 2>/dev/null | dla-opt -split-input-file --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// ROUND-LABEL: func.func @fp16
// ROUND: dla.upsample %arg0 factors [2, 3] : tensor<1x16x4x4xf16> -> tensor<1x16x8x12xf16>
// PREC-LABEL: func.func @fp16
// PREC: dla.upsample {{.*}} {pipeline_precision = #dla.pipeline_precision<fp32>}
// MEMREF-LABEL: func.func @fp16
// MEMREF: dla.on_storage ins(%{{.*}} : memref<512xi8>) outs(%{{.*}} : memref<3072xi8>)
// MEMREF: dla.upsample %{{.*}} factors [2, 3] {{.*}}: tensor<1x16x4x4xf16, #dla.feature<fp16>> -> tensor<1x16x8x12xf16, #dla.feature<fp16>>
func.func @fp16(%x: tensor<1x16x4x4xf16>) -> tensor<1x16x8x12xf16> {
  %y = dla.upsample %x factors [2, 3] : tensor<1x16x4x4xf16> -> tensor<1x16x8x12xf16>
  return %y : tensor<1x16x8x12xf16>
}

// -----

// PREC-LABEL: func.func @int8
// PREC: dla.upsample {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @int8(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x8x2xi8> {
  %y = dla.upsample %x factors [4, 1] : tensor<1x8x2x2xi8> -> tensor<1x8x8x2xi8>
  return %y : tensor<1x8x8x2xi8>
}

// -----

// With a replicated border (a bilinear resize's first layer): H 3 x 2 + 2,
// W 2 x 3 + 2 x 2.
// ROUND-LABEL: func.func @border
// ROUND: dla.upsample %arg0 factors [2, 3] border [1, 2] : tensor<1x8x3x2xi8> -> tensor<1x8x8x10xi8>
func.func @border(%x: tensor<1x8x3x2xi8>) -> tensor<1x8x8x10xi8> {
  %y = dla.upsample %x factors [2, 3] border [1, 2] : tensor<1x8x3x2xi8> -> tensor<1x8x8x10xi8>
  return %y : tensor<1x8x8x10xi8>
}
