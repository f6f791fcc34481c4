// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-lower-to-reference

func.func @dynamic(%x: tensor<?x8x4x4xf16>) -> tensor<?x8x2x2xf16> {
  // expected-error @+1 {{'dla.pool' op reference lowering needs static shapes, got 'tensor<?x8x4x4xf16>'}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<?x8x4x4xf16> -> tensor<?x8x2x2xf16>
  return %y : tensor<?x8x2x2xf16>
}

// -----

func.func @invalid_precision(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xf16> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: int8 feature data -> fp16 (valid: int8)}}
  %y = dla.lrn %x size 3 : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}

// -----

func.func @stated_pipeline_disagrees(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.lrn' op states pipeline_precision fp16 but the precision table gives int8}}
  %y = dla.lrn %x size 3 {pipeline_precision = #dla.pipeline_precision<fp16>} : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}
