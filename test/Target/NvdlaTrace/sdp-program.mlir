// dla-translate --dla-to-nvdla-trace on one offline SDP layer: the address
// plan, the memory file, the register writes and the CRC check. Expected
// register values are composed by hand from the register manual's fields
// (opendla.h of nv_small: D_DP_BS_CFG BS_BYPASS bit 0, BS_ALU_BYPASS 1,
// BS_ALU_ALGO 2-3 with SUM = 2, BS_MUL_BYPASS 4, BS_MUL_PRELU 5,
// BS_RELU_BYPASS 6; D_DP_BS_MUL_CFG BS_MUL_SHIFT_VALUE bits 8-15; ...), the
// strides from the feature format (nv_small: 8-byte atoms, 8 int8 channels
// each), the CRC from zlib (python3 -c "import zlib;
// print(hex(zlib.crc32(bytes(320))))").
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(range(64)) * 5); open('%t/data/result0.bin', 'wb').write(bytes(320))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg
// RUN: FileCheck %s --input-file=%t/prog/arg0.dat --check-prefix=DAT

// PLAN: address plan of @layer: 2 surfaces, 640 bytes
// PLAN-NEXT: arg0: 0x80000000, 320 bytes, aligned 8, tensor<1x16x4x5xi8
// PLAN-NEXT: layer0: 0x80000140, 320 bytes, aligned 8, tensor<1x16x4x5xi8
// PLAN-NEXT: wrote {{.*}}prog.cfg: 1 layers, 1 CRC checks

// CHECK: mem_load(pri_mem, 0x80000000, "arg0.dat");
// CHECK-NEXT: mem_init(pri_mem, 0x80000140, 0x140, ALL_ZERO);
// CHECK-NEXT: // layer 0: dla.sdp
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.S_POINTER_0, 0x0);
// CHECK: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_WIDTH_0, 0x4);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0xf);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x80000000);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_HIGH_0, 0x0);
// Lines of 5 atoms of 8 bytes, surfaces of 4 lines.
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_LINE_STRIDE_0, 0x28);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_SURFACE_STRIDE_0, 0xa0);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000140);
// ALU SUM (2 << 2), ReLU on (RELU_BYPASS 0), MUL used: 0x8.
// CHECK: reg_write(NVDLA_SDP.D_DP_BS_CFG_0, 0x8);
// ALU operand from the register, shifted left by 2 (bits 8-13).
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_ALU_CFG_0, 0x200);
// -3 in 16 bits.
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_ALU_SRC_VALUE_0, 0xfffd);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_MUL_CFG_0, 0x100);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_MUL_SRC_VALUE_0, 0x5);
// BN bypassed, MUL_PRELU 0, every unit bypassed: 1 | 2 | 16 | 64.
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BN_CFG_0, 0x53);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_CFG_0, 0x53);
// CHECK: reg_write(NVDLA_SDP.D_CVT_OFFSET_0, 0xfffffffe);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SCALE_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SHIFT_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: intr_notify(SDP_0, layer_0_sdp);
// CHECK-NEXT: check_nothing(layer_0_sdp);
// CHECK-NEXT: check_crc(layer_0_sdp, pri_mem, 0x80000140, 0x140, 0xadc7574d);

// DAT: {
// DAT-NEXT: {offset:0x0, size:32, payload:0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08
// DAT: {offset:0x120, size:32, payload:0x20 0x21
// DAT-NEXT: {{^}}}{{$}}

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer(%x: tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>> {
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = -3, alu_shift = 2, mul_operand = 5, mul_shift = 1, relu = true> out_cvt <offset = -2, scale = 3, shift = 1> : tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>
}
}
