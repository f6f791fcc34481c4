// --dla-outline-nvdla-program: a compiled network's layers (and channel
// views) move into one private function, the NVDLA program, called where
// they were; the host steps on either side stay; a host op between layers
// is an error at that op.
// RUN: dla-opt %s --dla-outline-nvdla-program -split-input-file -verify-diagnostics | FileCheck %s

// Host work before (a negate, the relayout into feature data) and after (a
// relayouts, a negate; constants not counted); the bias the SDP reads is
// cloned into the program (it travels with it). The order of
// the arguments is the order the layers first read them; the results
// follow the layers' order.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x4x4xi8>, %[[Z:.*]]: tensor<1x8x2x2xi8>)
// CHECK: %[[F:.*]] = dla.relayout
// CHECK: %[[G:.*]] = dla.relayout
// CHECK: %[[R:.*]]:2 = call @main_nvdla(%[[F]], %[[G]])
// CHECK-SAME: -> (tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>)
// CHECK-DAG: dla.relayout %[[R]]#0
// CHECK-DAG: dla.relayout %[[R]]#1
// CHECK: func.func private @main_nvdla(%{{.*}}: tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>, %{{.*}}: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> {{.*}} attributes {dla.nvdla_program}
// CHECK-NEXT: arith.constant
// CHECK-NEXT: dla.pool max
// CHECK-NEXT: dla.sdp offline
// CHECK-NEXT: return
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @main(%x: tensor<1x8x4x4xi8>, %z: tensor<1x8x2x2xi8>) -> (tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8>) {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %n = tosa.negate %x, %zp, %zp : (tensor<1x8x4x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x4xi8>
  %f = dla.relayout %n : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8, #f>
  %g = dla.relayout %z : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8, #f>
  %b = arith.constant dense<3> : tensor<8xi8>
  // expected-remark @+1 {{NVDLA program @main_nvdla: 2 layers; the host runs 3 ops before it and 3 after it}}
  %p = dla.pool max %f kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xi8, #f> -> tensor<1x8x2x2xi8, #f>
  %q = dla.sdp offline %p bias %b : tensor<8xi8> eltwise %g : tensor<1x8x2x2xi8, #f> : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8, #f>
  %yp = dla.relayout %p : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8>
  %yq = dla.relayout %q : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8>
  %m = tosa.negate %yq, %zp, %zp : (tensor<1x8x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x2x2xi8>
  return %yp, %m : tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8>
}
}

// -----

// A channel view is part of the program (an offset into its parent's
// storage, no host work).
// CHECK-LABEL: func.func @views
// CHECK: call @views_nvdla
// CHECK-NOT: dla.channel_slice
// CHECK: func.func private @views_nvdla
// CHECK: dla.channel_slice
// CHECK: dla.pool
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @views(%x: tensor<1x16x4x4xi8, #f>) -> tensor<1x8x2x2xi8, #f> {
  // expected-remark @+1 {{NVDLA program @views_nvdla: 2 layers; the host runs 0 ops before it and 0 after it}}
  %s = dla.channel_slice %x[8] : tensor<1x16x4x4xi8, #f> -> tensor<1x8x4x4xi8, #f>
  %p = dla.pool max %s kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xi8, #f> -> tensor<1x8x2x2xi8, #f>
  return %p : tensor<1x8x2x2xi8, #f>
}
}

// -----

// Host ops between two layers: not one program. The error names the
// model's op first, then (notes) the others between, relayouts last, at
// most three, and how many more.
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @between(%x: tensor<1x8x4x4xi8, #f>) -> tensor<1x8x2x2xi8, #f> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xi8, #f> -> tensor<1x8x2x2xi8, #f>
  // expected-note @+1 {{so does 'dla.relayout'}}
  %h = dla.relayout %p : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8>
  // expected-note @+2 {{1 more host ops between the layers}}
  // expected-error @+1 {{'tosa.negate' op runs on the host between accelerator layers (it reads a layer's result and a layer reads its own): the network is not one NVDLA program}}
  %n = tosa.negate %h, %zp, %zp : (tensor<1x8x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x2x2xi8>
  // expected-note @+1 {{so does 'tosa.negate'}}
  %n2 = tosa.negate %n, %zp, %zp : (tensor<1x8x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x2x2xi8>
  // expected-note @+1 {{so does 'tosa.negate'}}
  %n3 = tosa.negate %n2, %zp, %zp : (tensor<1x8x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x2x2xi8>
  %f = dla.relayout %n3 : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8, #f>
  %q = dla.sdp offline %f relu : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8, #f>
  return %q : tensor<1x8x2x2xi8, #f>
}
}

// -----

// A function without layers is left alone.
// CHECK-LABEL: func.func @host_only
// CHECK-NEXT: tosa.const
// CHECK-NEXT: tosa.negate
// CHECK-NEXT: return
// CHECK-NOT: nvdla_program
module {
func.func @host_only(%x: tensor<4xi8>) -> tensor<4xi8> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %n = tosa.negate %x, %zp, %zp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %n : tensor<4xi8>
}
}

// -----

// Ops of NVIDIA's runtime emulator reading the layers' results move into
// the program after its layers (an EMU task after the DLA task), chained
// ones too; the host's relayout of the result stays. The emulator op
// reading a host value stays on the host.
// CHECK-LABEL: func.func @emulated
// CHECK: %[[R:.*]]:2 = call @emulated_nvdla
// CHECK-NOT: dla.emu_
// CHECK: dla.relayout %[[R]]#1
// CHECK: dla.emu_power %{{.*}} {{{.*}}} : tensor<1x8x1x1xi8>
// CHECK: func.func private @emulated_nvdla
// CHECK-NEXT: dla.pool
// CHECK-NEXT: dla.emu_softmax
// CHECK-NEXT: dla.emu_power
// CHECK-NEXT: return
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @emulated(%x: tensor<1x8x2x2xi8, #f>, %h: tensor<1x8x1x1xi8>) -> (tensor<1x8x1x1xi8, #f>, tensor<1x8x1x1xi8>, tensor<1x8x1x1xi8>) {
  // expected-remark @+1 {{NVDLA program @emulated_nvdla: 1 layers and 2 ops for NVIDIA's runtime emulator (an EMU task after them); the host runs 0 ops before it and 1 after it}}
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #f> -> tensor<1x8x1x1xi8, #f>
  %s = dla.emu_softmax %p {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : tensor<1x8x1x1xi8, #f>
  %q = dla.emu_power %s {power = 2.0 : f32, scale = 1.0 : f32, shift = 0.0 : f32, input_scale = 0.0625 : f32, output_scale = 0.25 : f32} : tensor<1x8x1x1xi8, #f>
  %y = dla.relayout %q : tensor<1x8x1x1xi8, #f> -> tensor<1x8x1x1xi8>
  %e = dla.emu_power %h {power = 2.0 : f32, scale = 1.0 : f32, shift = 0.0 : f32, input_scale = 0.0625 : f32, output_scale = 0.25 : f32} : tensor<1x8x1x1xi8>
  return %s, %y, %e : tensor<1x8x1x1xi8, #f>, tensor<1x8x1x1xi8>, tensor<1x8x1x1xi8>
}
}

// -----

// A layer reading an emulator op's result: the EMU task runs after the
// DLA task, so the network is not one program.
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer_after_emulator(%x: tensor<1x8x2x2xi8, #f>) -> tensor<1x8x1x1xi8, #f> {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #f> -> tensor<1x8x1x1xi8, #f>
  // expected-error @+1 {{'dla.emu_softmax' op runs on NVIDIA's runtime emulator, an EMU task after the DLA task, but a layer reads its result: the network is not one NVDLA program}}
  %s = dla.emu_softmax %p {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : tensor<1x8x1x1xi8, #f>
  // expected-note @+1 {{read here}}
  %q = dla.sdp offline %s relu : tensor<1x8x1x1xi8, #f> -> tensor<1x8x1x1xi8, #f>
  return %q : tensor<1x8x1x1xi8, #f>
}
}

// -----

// A copy between two feature layouts (a layer's result that a join and
// another layer both read, copied into the join's view by the relayout
// layout assignment leaves) is a BDMA operation on nv_full: part of the
// program, which stays one.
// CHECK-LABEL: func.func @copy_in_program
// CHECK: call @copy_in_program_nvdla
// CHECK: func.func private @copy_in_program_nvdla
// CHECK: dla.pool
// CHECK: dla.relayout
// CHECK: dla.sdp
// CHECK: dla.channel_concat
// CHECK: dla.pool
#f = #dla.feature<int8, config = nv_full>
#j = #dla.feature<int8, line_stride = 64, surface_stride = 128, batch_stride = 256, config = nv_full>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @copy_in_program(%x: tensor<1x32x4x4xi8, #f>) -> tensor<1x64x1x1xi8, #f> {
  // expected-remark @+1 {{NVDLA program @copy_in_program_nvdla: 5 layers (1 of them copies between feature layouts, by BDMA); the host runs 0 ops before it and 0 after it}}
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x32x4x4xi8, #f> -> tensor<1x32x2x2xi8, #f>
  %c = dla.relayout %p : tensor<1x32x2x2xi8, #f> -> tensor<1x32x2x2xi8, #j>
  %s = dla.sdp offline %p bs <alu = sum, alu_operand = 1> : tensor<1x32x2x2xi8, #f> -> tensor<1x32x2x2xi8, #j>
  %y = dla.channel_concat %c, %s : tensor<1x32x2x2xi8, #j>, tensor<1x32x2x2xi8, #j> -> tensor<1x64x2x2xi8, #f>
  %q = dla.pool max %y kernel [2, 2] stride [2, 2] : tensor<1x64x2x2xi8, #f> -> tensor<1x64x1x1xi8, #f>
  return %q : tensor<1x64x1x1xi8, #f>
}
}

// -----

// nv_large has no BDMA: the same copy runs on the host, between layers.
#f = #dla.feature<int8, config = nv_large>
#j = #dla.feature<int8, line_stride = 64, surface_stride = 128, batch_stride = 256, config = nv_large>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @copy_on_host(%x: tensor<1x32x4x4xi8, #f>) -> tensor<1x64x1x1xi8, #f> {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x32x4x4xi8, #f> -> tensor<1x32x2x2xi8, #f>
  // expected-error @+1 {{'dla.relayout' op runs on the host between accelerator layers (it reads a layer's result and a layer reads its own): the network is not one NVDLA program}}
  %c = dla.relayout %p : tensor<1x32x2x2xi8, #f> -> tensor<1x32x2x2xi8, #j>
  %s = dla.sdp offline %p bs <alu = sum, alu_operand = 1> : tensor<1x32x2x2xi8, #f> -> tensor<1x32x2x2xi8, #j>
  %y = dla.channel_concat %c, %s : tensor<1x32x2x2xi8, #j>, tensor<1x32x2x2xi8, #j> -> tensor<1x64x2x2xi8, #f>
  %q = dla.pool max %y kernel [2, 2] stride [2, 2] : tensor<1x64x2x2xi8, #f> -> tensor<1x64x1x1xi8, #f>
  return %q : tensor<1x64x1x1xi8, #f>
}
}

// -----

// A channel view of a layer's result read on the host (an ONNX Split's
// half returned): the program returns the view's parent, a memory of its
// own (a loadable's outputs are), and the host takes the view of it after
// the call; the view a layer reads stays in the program.
// CHECK-LABEL: func.func @view_out
// CHECK: %[[R:.*]]:2 = call @view_out_nvdla(
// CHECK-SAME: -> (tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>)
// CHECK: %[[V:.*]] = dla.channel_slice %[[R]]#0[0] : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
// CHECK-DAG: dla.relayout %[[V]]
// CHECK-DAG: dla.relayout %[[R]]#1
// CHECK: func.func private @view_out_nvdla(
// CHECK-NEXT: dla.pool max
// CHECK-NEXT: dla.channel_slice %{{.*}}[8]
// CHECK-NEXT: dla.pool max
// CHECK-NEXT: return
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @view_out(%x: tensor<1x16x4x4xi8, #f>) -> (tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8>) {
  // expected-remark @+1 {{NVDLA program @view_out_nvdla: 4 layers; the host runs 0 ops before it and 3 after it}}
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #f> -> tensor<1x16x2x2xi8, #f>
  %a = dla.channel_slice %p [0] : tensor<1x16x2x2xi8, #f> -> tensor<1x8x2x2xi8, #f>
  %b = dla.channel_slice %p [8] : tensor<1x16x2x2xi8, #f> -> tensor<1x8x2x2xi8, #f>
  %q = dla.pool max %b kernel [1, 1] : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8, #f>
  %ya = dla.relayout %a : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8>
  %yq = dla.relayout %q : tensor<1x8x2x2xi8, #f> -> tensor<1x8x2x2xi8>
  return %ya, %yq : tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8>
}
}
