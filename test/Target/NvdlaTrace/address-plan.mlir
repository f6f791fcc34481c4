// Three chained SDP layers on 12 channels (two surfaces, the second with 4
// of its 8 channels): the address plan places the largest surfaces first at
// the lowest aligned gap among the surfaces live at the same time, so the
// second layer's result reuses the dead input and the third the first
// layer's; each layer uses the SDP's other register group (S_POINTER,
// intr_notify(SDP_1, ...)); a reused result is not zeroed (memory commands
// apply before the first layer); the partial surface is checked atom by
// atom on its 4 channels.
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(64)); open('%t/data/result0.bin', 'wb').write(bytes(range(64)))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: address plan of @chain: 4 surfaces, 128 bytes
// PLAN-NEXT: arg0: 0x80000000, 64 bytes
// PLAN-NEXT: layer0: 0x80000040, 64 bytes
// PLAN-NEXT: layer1: 0x80000000, 64 bytes
// PLAN-NEXT: layer2: 0x80000040, 64 bytes
// PLAN-NEXT: wrote {{.*}}: 3 layers, 5 CRC checks

// CHECK: mem_load(pri_mem, 0x80000000, "arg0.dat");
// CHECK-NOT: mem_init
// CHECK: // layer 0: dla.sdp
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.S_POINTER_0, 0x0);
// CHECK: reg_write(NVDLA_SDP.S_POINTER_0, 0x0);
// CHECK: intr_notify(SDP_0, layer_0_sdp);
// CHECK-NEXT: check_nothing(layer_0_sdp);
// CHECK-NEXT: // layer 1: dla.sdp
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.S_POINTER_0, 0x1);
// CHECK: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x80000040);
// CHECK: reg_write(NVDLA_SDP.S_POINTER_0, 0x1);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000000);
// CHECK: intr_notify(SDP_1, layer_1_sdp);
// CHECK-NEXT: check_nothing(layer_1_sdp);
// CHECK-NEXT: // layer 2: dla.sdp
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.S_POINTER_0, 0x0);
// CHECK: intr_notify(SDP_0, layer_2_sdp);
// CHECK-NEXT: check_nothing(layer_2_sdp);
// CHECK-NEXT: // result 0: 5 checks, the channels beyond C in the last surface's atoms (and any gaps between lines, surfaces or inputs) left out
// The first surface whole (zlib.crc32(bytes(range(32))) = 0x91267e8a), then
// 4 bytes of each atom of the second.
// CHECK-NEXT: check_crc(layer_2_sdp, pri_mem, 0x80000040, 0x20, 0x91267e8a);
// CHECK-NEXT: check_crc(layer_2_sdp, pri_mem, 0x80000060, 0x4,
// CHECK-NEXT: check_crc(layer_2_sdp, pri_mem, 0x80000068, 0x4,
// CHECK-NEXT: check_crc(layer_2_sdp, pri_mem, 0x80000070, 0x4,
// CHECK-NEXT: check_crc(layer_2_sdp, pri_mem, 0x80000078, 0x4,

!t = tensor<1x12x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @chain(%x: !t) -> !t {
  %a = dla.sdp offline %x bs <mul_operand = 2> : !t -> !t
  %b = dla.sdp offline %a bs <alu = max, alu_operand = 0> : !t -> !t
  %c = dla.sdp offline %b bn <mul_operand = 3, mul_shift = 1> : !t -> !t
  return %c : !t
}
}
