// Surfaces in the CV-SRAM (dla.memory, NetworkPlan.cpp) where the register
// plan does not program them: located errors, nothing written.
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t.dir --nvdla-trace-data=%t.data %s -split-input-file -verify-diagnostics

!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!s = tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @unknown_memory(%x: !d) -> !s {
  // expected-error @below {{dla.memory must be "dram" or "cvsram", got "sram"}}
  %y = dla.relayout %x {dla.memory = "sram"} : !d -> !s
  return %y : !s
}
}

// -----

!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!s = tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
// expected-error @below {{dla.memory must be "dram" or "cvsram", got 1 : i64}}
func.func @not_a_name(%x: !d {dla.memory = 1}) -> !s {
  %y = dla.relayout %x : !d -> !s
  return %y : !s
}
}

// -----

// nv_small has no second memory interface.
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{arg0 is placed in the CV-SRAM (dla.memory): nv_small has no CV-SRAM (SECONDARY_MEMIF_DISABLE)}}
func.func @nv_small(%x: !d {dla.memory = "cvsram"}) -> !d {
  %y = dla.sdp offline %x relu : !d -> !d
  return %y : !d
}
}

// -----

// The PDP's, the CDP's and the SDP operand DMAs' RAM type registers are
// written MC.
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!p = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @pdp_reads(%x: !d {dla.memory = "cvsram"}) -> !p {
  // expected-error @below {{'dla.pool' op reads operand #0 from the CV-SRAM (dla.memory): the register plan programs CV-SRAM reads for BDMA copies and the feature input of a direct convolution or an SDP only}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : !d -> !p
  return %y : !p
}
}

// -----

!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!p = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @pdp_writes(%x: !d) -> !p {
  // expected-error @below {{'dla.pool' op writes its result to the CV-SRAM (dla.memory): the register plan programs CV-SRAM writes for BDMA copies and SDPs only}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] {dla.memory = "cvsram"} : !d -> !p
  return %y : !p
}
}

// -----

// An SDP reads its input from the CV-SRAM, not its per-element operand.
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @sdp_operand(%x: !d, %e: !d {dla.memory = "cvsram"}) -> !d {
  // expected-error @below {{'dla.sdp' op reads operand #1 from the CV-SRAM (dla.memory): the register plan programs CV-SRAM reads for BDMA copies and the feature input of a direct convolution or an SDP only}}
  %y = dla.sdp offline %x eltwise %e : !d bs <alu = sum, alu_operand = eltwise> : !d -> !d
  return %y : !d
}
}

// -----

// A convolution's weights come from DRAM (CDMA's WEIGHT_RAM_TYPE is MC).
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @weights(%x: !d, %w: !w {dla.memory = "cvsram"}) -> !d {
  // expected-error @below {{'dla.conv' op reads operand #1 from the CV-SRAM (dla.memory): the register plan programs CV-SRAM reads for BDMA copies and the feature input of a direct convolution or an SDP only}}
  %c = dla.conv direct %x, %w : !d, !w -> tensor<1x8x2x2xi8>
  %y = dla.sdp on_the_fly %c bs <mul_operand = 1> : tensor<1x8x2x2xi8> -> !d
  return %y : !d
}
}

// -----

// A result its SDP reads on the fly is in no memory.
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @on_the_fly(%x: !d, %w: !w) -> !d {
  // expected-error @below {{'dla.conv' op has dla.memory, but its result is no surface of its own: a channel view lies in its parent's memory, a result its SDP reads on the fly in none}}
  %c = dla.conv direct %x, %w {dla.memory = "cvsram"} : !d, !w -> tensor<1x8x2x2xi8>
  %y = dla.sdp on_the_fly %c bs <mul_operand = 1> : tensor<1x8x2x2xi8> -> !d
  return %y : !d
}
}

// -----

// A channel view lies where its parent does.
!p = tensor<1x64x2x2xi8, #dla.feature<int8, config = nv_full>>
!v = tensor<1x32x2x2xi8, #dla.feature<int8, line_stride = 64, surface_stride = 128, config = nv_full>>
!d = tensor<1x32x2x2xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @view(%x: !p) -> !d {
  // expected-error @below {{'dla.channel_slice' op has dla.memory, but its result is no surface of its own: a channel view lies in its parent's memory, a result its SDP reads on the fly in none}}
  %v = dla.channel_slice %x [32] {dla.memory = "cvsram"} : !p -> !v
  %y = dla.relayout %v : !v -> !d
  return %y : !d
}
}
