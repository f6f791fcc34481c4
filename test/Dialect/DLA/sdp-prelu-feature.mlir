// RUN: dla-opt %s | dla-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: dla-opt %s --dla-assign-layouts 2>/dev/null | FileCheck %s --check-prefix=LAYOUT --enable-var-scope
// RUN: dla-opt %s --dla-lower-to-reference | FileCheck %s --check-prefix=REF --enable-var-scope

// A squeeze-excitation's scaling: the gate, one layer's 1x24x1x1 result,
// is the product's per-channel operand (prelu) itself (issue 45).
// ROUNDTRIP-LABEL: func.func @gate
// ROUNDTRIP: dla.sdp offline %{{.*}} prelu %{{.*}} : tensor<1x24x1x1xi8> bn <mul_operand = prelu, mul_shift = 7>

// Layout assignment keeps the gate in feature layout: the product reads
// the surface the gate's SDP writes, no relayout between (a packed 1x1
// cube is the per-channel run the SDP's DMA reads).
// LAYOUT-LABEL: func.func @gate
// LAYOUT:       %[[G:.*]] = dla.sdp offline %{{.*}} : tensor<1x24x1x1xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x24x1x1xi8, #dla.feature<int8, config = nv_small>>
// LAYOUT-NOT:   dla.relayout %[[G]]
// LAYOUT:       dla.sdp offline %{{.*}} prelu %[[G]] : tensor<1x24x1x1xi8, #dla.feature<int8, config = nv_small>>

// The CPU execution broadcasts the 1x24x1x1 operand over H and W.
// REF-DAG:  #[[$GATE:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
// REF-DAG:  #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// REF-LABEL: func.func @gate
// REF:      linalg.generic {indexing_maps = [#[[$ID]], #[[$GATE]], #[[$ID]]]
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @gate(%x: tensor<1x24x4x4xi8>, %u: tensor<1x24x1x1xi8>) -> tensor<1x24x4x4xi8> {
  %g = dla.sdp offline %u bs <alu = max, alu_operand = 0> : tensor<1x24x1x1xi8> -> tensor<1x24x1x1xi8>
  %y = dla.sdp offline %x prelu %g : tensor<1x24x1x1xi8> bn <mul_operand = prelu, mul_shift = 7> : tensor<1x24x4x4xi8> -> tensor<1x24x4x4xi8>
  return %y : tensor<1x24x4x4xi8>
}
}
