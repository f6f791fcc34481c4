// dla.interleave: round trip, the precision table (an offline SDP's),
// layouts (feature data in and out) and the storage form, all from the
// interfaces' defaults. Its verifier in interleave-invalid.mlir; executed
// against numpy and NVIDIA's C model in test/NvdlaCModel/trace-interleave.test.
// RUN: dla-opt %s -split-input-file | dla-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: dla-opt %s -split-input-file --dla-check-precision | FileCheck %s --check-prefix=PREC
// RUN: dla-opt %s -split-input-file --dla-compile 2>/dev/null | dla-opt -split-input-file --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// ROUND-LABEL: func.func @fp16
// ROUND: dla.interleave %arg0, %arg1, %arg2, %arg3 factors [2, 2] : tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16> -> tensor<1x16x8x8xf16>
// PREC-LABEL: func.func @fp16
// PREC: dla.interleave {{.*}} {pipeline_precision = #dla.pipeline_precision<fp32>}
// Four phase surfaces of 16 x 16 pixels x 32 bytes (one fp16 atom) in, 64
// pixels out.
// MEMREF-LABEL: func.func @fp16
// MEMREF: dla.on_storage ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<512xi8>, memref<512xi8>, memref<512xi8>, memref<512xi8>) outs(%{{.*}} : memref<2048xi8>)
// MEMREF: dla.interleave %{{.*}} factors [2, 2] {{.*}}-> tensor<1x16x8x8xf16, #dla.feature<fp16>>
func.func @fp16(%a: tensor<1x16x4x4xf16>, %b: tensor<1x16x4x4xf16>, %c: tensor<1x16x4x4xf16>, %d: tensor<1x16x4x4xf16>) -> tensor<1x16x8x8xf16> {
  %y = dla.interleave %a, %b, %c, %d factors [2, 2] : tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// -----

// Three phases down, a crop at the end: 2 x 3 - 1 rows.
// ROUND-LABEL: func.func @int8_cropped
// ROUND: dla.interleave %arg0, %arg1, %arg2 factors [3, 1] : tensor<1x8x2x5xi8>, tensor<1x8x2x5xi8>, tensor<1x8x2x5xi8> -> tensor<1x8x5x5xi8>
// PREC-LABEL: func.func @int8_cropped
// PREC: dla.interleave {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @int8_cropped(%a: tensor<1x8x2x5xi8>, %b: tensor<1x8x2x5xi8>, %c: tensor<1x8x2x5xi8>) -> tensor<1x8x5x5xi8> {
  %y = dla.interleave %a, %b, %c factors [3, 1] : tensor<1x8x2x5xi8>, tensor<1x8x2x5xi8>, tensor<1x8x2x5xi8> -> tensor<1x8x5x5xi8>
  return %y : tensor<1x8x5x5xi8>
}
