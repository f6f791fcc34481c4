// What --dla-to-nvdla-loadable cannot write: a located error and a
// non-zero exit, nothing written. The preparation of the function
// (NvdlaModule.h), the memories and the firmware's limits
// (LoadableWriter.cpp); the descriptor extensions one by one are pinned by
// unittests/Target on hand-made descriptors, two of them here on ops.
// REQUIRES: nvdla-loadable-writer
// RUN: dla-translate --dla-to-nvdla-loadable %s -split-input-file -verify-diagnostics -o /dev/null

// expected-error @below {{a register program is written for one function, the module has 2}}
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @a(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  return %x : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
func.func @b(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  return %x : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @host(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'tosa.const' op runs on the host: a loadable holds NVDLA layers and, after them, ops of NVIDIA's runtime emulator (an EMU task) only}}
  %k = "tosa.const"() {values = dense<1> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @unpacked(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'arith.constant' op is not packed storage of an NVDLA encoding: a program's constants are dense_resource storage bytes of an encoded tensor (--dla-pack-weights), got 'tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>'}}
  %w = arith.constant dense<1> : tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  %y = dla.conv direct %x, %w : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @inside(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  %a = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'dla.relayout' op converts between layouts inside the program: only the inputs' and results' relayouts (host layout <-> NVDLA feature data) stay outside it, and copies between two feature layouts (BDMA); the NVDLA units do not convert other layouts}}
  %p = dla.relayout %a : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8>
  %q = dla.relayout %p : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  %y = dla.sdp offline %q bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @passthrough(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> (tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) {
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'func.return' op returns argument 0 unchanged: a loadable's outputs are written by its layers}}
  return %y, %x : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @twice(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> (tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) {
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'func.return' op returns the same value twice: each output of a loadable is a memory of its own}}
  return %y, %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{input 1 ('tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>') is read as weights or SDP operand data: the runtime binds feature data and images, the loadable carries the others as constants}}
func.func @weights(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, %w: tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>) -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>> {
  %y = dla.conv direct %x, %w : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @stride(%x: tensor<1x8x2x20xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x1x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'dla.pool' op pools with stride 1 x 16 (height x width): NVIDIA's firmware accepts PDP strides 1 to 8 (pdp.c validate_strides) and refuses the task}}
  %y = dla.pool max %x kernel [2, 2] stride [1, 16] pad [0, 0, 0, 0] : tensor<1x8x2x20xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x1x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x1x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @reciprocal(%x: tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'dla.pool' op states the reciprocal of its window's width (100, ext.recip_kernel_width): the firmware writes its own table's reciprocal (recip_kernel_size)}}
  %y = dla.pool average %x kernel [2, 2] stride [2, 2] pad [0, 0, 0, 0] recip_kernel_width 100 : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @short(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'arith.constant' op holds 3 bytes, the storage of 'tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>' is 32}}
  %w = arith.constant dense_resource<w> : tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  %y = dla.conv direct %x, %w : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x08000000010203"
    }
  }
#-}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @elided(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'arith.constant' op holds resource 'gone' without data (elided?)}}
  %w = arith.constant dense_resource<gone> : tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  %y = dla.conv direct %x, %w : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<4x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x4x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @compressed(%x: tensor<1x8x2x2xi8, #dla.feature<int8>>) -> tensor<1x4x2x2xi8, #dla.feature<int8>> {
  // expected-error @below {{'dla.weight_constant' op holds its surfaces by name only (elided, or in a bundle's weights/*.bin): a register program carries their bytes}}
  %w = dla.weight_constant wgs = dense_resource<dla_wgs> : tensor<128xi8>, wmb = dense_resource<dla_wmb> : tensor<128xi8>, data = dense_resource<dla_data> : tensor<128xi8> : tensor<4x8x1x1xi8, #dla.weight<direct, int8, compressed>>
  %y = dla.conv direct %x, %w : tensor<1x8x2x2xi8, #dla.feature<int8>>, tensor<4x8x1x1xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x4x2x2xi8, #dla.feature<int8>>
  return %y : tensor<1x4x2x2xi8, #dla.feature<int8>>
}
}

// -----

// A channel view shares its parent's memory: neither a part of a returned
// concatenation nor a slice of the input is an output of its own.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @part(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> (tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>) {
  %a = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %b = dla.sdp offline %x bs <alu = sum, alu_operand = 2> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %y = dla.channel_concat %a, %b : tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>> -> tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'func.return' op returns operand 1, a channel view of 'tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>': a loadable's output is a memory of its own, a view lives in its parent's}}
  return %y, %b : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @slice(%x: tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>) -> (tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>) {
  %hi = dla.channel_slice %x [8] : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'func.return' op returns operand 1, a channel view of 'tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>': a loadable's output is a memory of its own, a view lives in its parent's}}
  return %y, %hi : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
}
}

// -----

// A view computes nothing: prepareProgramFunction admits it, and still
// refuses the host ops beside it with the same message.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @host_beside_view(%x: tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  %hi = dla.channel_slice %x [8] : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  // expected-error @below {{'tosa.const' op runs on the host: a loadable holds NVDLA layers and, after them, ops of NVIDIA's runtime emulator (an EMU task) only}}
  %k = "tosa.const"() {values = dense<1> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = dla.sdp offline %hi bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

// The emulator's buffer descriptors hold 16-bit dimensions
// (emu_buffer_desc.width): a wider cube is refused at its op.
!w = tensor<1x8x1x70000xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @emulator_wide(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, %v: !w) -> (tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>, !w) {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'dla.emu_power' op cannot be written for NVIDIA's runtime emulator: emu_power_buffer_descs.src_data.width = 70000 does not fit the emulator's field (16-bit unsigned)}}
  %q = dla.emu_power %v {power = 2.0 : f32, scale = 1.0 : f32, shift = 0.0 : f32, input_scale = 0.0625 : f32, output_scale = 0.25 : f32} : !w
  return %p, %q : tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>, !w
}
}

// -----

// A layer cannot read what the emulator computes: the EMU task runs after
// the DLA task.
!f = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer_after_emulator(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> !f {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> !f
  %s = dla.emu_softmax %p {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : !f
  // expected-error @below {{'dla.sdp' op reads a value NVIDIA's runtime emulator computes, in an EMU task after the DLA task that runs the layers}}
  %q = dla.sdp offline %s relu : !f -> !f
  return %q : !f
}
}

// -----

// NVIDIA's runtime gives a loadable's SRAM-domain memory no address
// (Runtime.cpp: handle 0, offset 0; loadMemory allocates system memory only).
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!s = tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @cvsram(%x: !d) -> !s {
  // expected-error @below {{layer0 lies in the CV-SRAM (dla.memory): NVIDIA's runtime gives a loadable's SRAM memory no address (Runtime.cpp binds it as handle 0, offset 0), so a loadable holds DRAM surfaces only}}
  %y = dla.relayout %x {dla.memory = "cvsram"} : !d -> !s
  return %y : !s
}
}

// -----

// The emulator works on the CPU's mapping of DRAM buffers.
!f = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @emulator_cvsram(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>) -> !f {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>> -> !f
  // expected-error @below {{'dla.emu_softmax' op runs on NVIDIA's runtime emulator, which works on DRAM buffers: a value it reads or writes lies in the CV-SRAM (dla.memory)}}
  %s = dla.emu_softmax %p {dla.memory = "cvsram", input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : !f
  return %s : !f
}
}
