// dla-translate --dla-to-nvdla-trace on an offline SDP on nv_large whose
// Y (EW) stage multiplies by a per-element int8 surface read through ERDMA,
// converted by the EW MUL converter, then takes the max with a register
// operand. Expected values composed by hand from the register manual's
// fields (opendla.h of nv_large: D_ERDMA_CFG ERDMA_DISABLE bit 0,
// ERDMA_DATA_USE bits 1-2 (MUL 0), ERDMA_DATA_SIZE bit 3 (ONE_BYTE 0),
// ERDMA_DATA_MODE bit 4 (PER_ELEMENT 1), ERDMA_RAM_TYPE bit 5 (MC 1);
// D_DP_EW_CFG EW_BYPASS bit 0, EW_ALU_BYPASS 1, EW_ALU_ALGO 2-3 (MAX 0),
// EW_MUL_BYPASS 4, EW_MUL_PRELU 5, EW_LUT_BYPASS 6; D_DP_EW_ALU_CFG /
// D_DP_EW_MUL_CFG: SRC bit 0 (MEM 1), CVT_BYPASS bit 1; the converter's
// OFFSET 32 bits, SCALE 16 bits, TRUNCATE 6 bits) and the element-wise
// format (nv_large: 32-byte atoms of 32 int8 channels; lines of 3 atoms,
// surfaces of 2 lines).
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(192)) for n in ('arg0.bin', 'arg1.bin', 'result0.bin')]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// CHECK: //   arg1: [[EW:0x[0-9a-f]+]], 192 bytes, {{.*}}#dla.eltwise
// CHECK: mem_load(pri_mem, [[EW]], "arg1.dat");
// CHECK: // layer 0: dla.sdp
// CHECK: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_SDP_RDMA.D_NRDMA_CFG_0, 0x1);
// ERDMA: enabled, MUL, ONE_BYTE, PER_ELEMENT (1 << 4), MC (1 << 5).
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_ERDMA_CFG_0, 0x30);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_EW_BASE_ADDR_LOW_0, [[EW]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_EW_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_EW_LINE_STRIDE_0, 0x60);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_EW_SURFACE_STRIDE_0, 0xc0);
// EW: ALU MAX, MUL on, LUT bypassed (1 << 6).
// CHECK: reg_write(NVDLA_SDP.D_DP_EW_CFG_0, 0x40);
// ALU: register operand -20, converter bypassed (1 << 1).
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_ALU_CFG_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_ALU_SRC_VALUE_0, 0xffffffec);
// MUL: from memory through its converter: offset -4, scale 300, truncate 5.
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_MUL_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_MUL_SRC_VALUE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_MUL_CVT_OFFSET_VALUE_0, 0xfffffffc);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_MUL_CVT_SCALE_VALUE_0, 0x12c);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_MUL_CVT_TRUNCATE_VALUE_0, 0x5);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_TRUNCATE_VALUE_0, 0x3);
// CHECK: reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_OP_ENABLE_0, 0x1);

!f = tensor<1x32x2x3xi8, #dla.feature<int8, config = nv_large>>
!e = tensor<1x32x2x3xi8, #dla.eltwise<int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @layer(%x: !f, %e: !e) -> !f {
  %y = dla.sdp offline %x eltwise %e : !e
      ew <mul_operand = eltwise, mul_cvt = <offset = -4, scale = 300, shift = 5>, truncate = 3, alu = max, alu_operand = -20>
      : !f -> !f
  return %y : !f
}
}
