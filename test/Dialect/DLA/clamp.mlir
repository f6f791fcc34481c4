// dla.clamp: round trip, its verifier, the precision table (an offline
// SDP's), layouts (feature data in and out) and the storage form, all from
// the interfaces' defaults. Executed against numpy in
// test/Execution/reference-layers.mlir (SDP cases clamp_*); its verifier
// and precision messages in clamp-invalid.mlir.
// RUN: dla-opt %s -split-input-file | dla-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: dla-opt %s -split-input-file --dla-check-precision | FileCheck %s --check-prefix=PREC
// RUN: dla-opt %s -split-input-file --dla-compile 2>/dev/null | dla-opt -split-input-file --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// ROUND-LABEL: func.func @relu6
// ROUND: dla.clamp %arg0 min 0.000000e+00 max 6.000000e+00 : tensor<1x16x4x4xf16> -> tensor<1x16x4x4xf16>
// PREC-LABEL: func.func @relu6
// PREC: dla.clamp {{.*}} {pipeline_precision = #dla.pipeline_precision<fp32>}
// MEMREF-LABEL: func.func @relu6
// MEMREF: dla.on_storage ins(%{{.*}} : memref<512xi8>) outs(%{{.*}} : memref<512xi8>)
// MEMREF: dla.clamp %{{.*}} : tensor<1x16x4x4xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
func.func @relu6(%x: tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16> {
  %y = dla.clamp %x min 0.0 max 6.0 : tensor<1x16x4x4xf16> -> tensor<1x16x4x4xf16>
  return %y : tensor<1x16x4x4xf16>
}

// -----

// PREC-LABEL: func.func @int8
// PREC: dla.clamp {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @int8(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  %y = dla.clamp %x min -20.0 max 35.0 : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

