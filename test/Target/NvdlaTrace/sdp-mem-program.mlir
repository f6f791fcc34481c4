// dla-translate --dla-to-nvdla-trace on an offline SDP whose stages read
// memory operands: BS a per-channel int16 batch-norm surface through BRDMA
// (ALU and MUL), BN a per-element int8 bias through NRDMA (ALU). Expected
// values composed by hand from the register manual's fields (opendla.h of
// nv_small: D_BRDMA_CFG BRDMA_DISABLE bit 0, BRDMA_DATA_USE bits 1-2 with
// MUL 0 / ALU 1 / BOTH 2, BRDMA_DATA_SIZE bit 3 (TWO_BYTE 1),
// BRDMA_DATA_MODE bit 4 (PER_ELEMENT 1), BRDMA_RAM_TYPE bit 5 (MC 1); the
// same for NRDMA; D_DP_BS_ALU_CFG BS_ALU_SRC bit 0 (MEM 1)) and the
// operand formats (NVDLA's in-memory format: per-channel data one 1x1xC
// run read in groups of 8 elements, here 8 x 2 components x 2 bytes = 32;
// per-element data in the feature format's 8-byte atoms).
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 96), ('arg1.bin', 64), ('arg2.bin', 96), ('result0.bin', 96))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// CHECK: //   arg1: [[BN:0x[0-9a-f]+]], 64 bytes, {{.*}}#dla.batchnorm
// CHECK: //   arg2: [[BIAS:0x[0-9a-f]+]], 96 bytes, {{.*}}#dla.bias
// CHECK: mem_load(pri_mem, [[BN]], "arg1.dat");
// CHECK: mem_load(pri_mem, [[BIAS]], "arg2.dat");
// CHECK: // layer 0: dla.sdp
// BRDMA: enabled, BOTH (2 << 1), TWO_BYTE (1 << 3), PER_KERNEL, MC (1 << 5).
// CHECK: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x2c);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_BASE_ADDR_LOW_0, [[BN]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_LINE_STRIDE_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_SURFACE_STRIDE_0, 0x20);
// NRDMA: enabled, ALU (1 << 1), ONE_BYTE, PER_ELEMENT (1 << 4), MC (1 << 5).
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_NRDMA_CFG_0, 0x32);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BN_BASE_ADDR_LOW_0, [[BIAS]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BN_BASE_ADDR_HIGH_0, 0x0);
// Lines of 3 atoms of 8 bytes, surfaces of 2 lines.
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BN_LINE_STRIDE_0, 0x18);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BN_SURFACE_STRIDE_0, 0x30);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_ERDMA_CFG_0, 0x1);
// BS: ALU SUM (2 << 2) from memory shifted by 3, MUL from memory with shift
// 7, ReLU on: nothing bypassed.
// CHECK: reg_write(NVDLA_SDP.D_DP_BS_CFG_0, 0x8);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_ALU_CFG_0, 0x301);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_ALU_SRC_VALUE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_MUL_CFG_0, 0x701);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_MUL_SRC_VALUE_0, 0x0);
// BN: ALU MAX from memory, MUL bypassed (1 << 4), ReLU bypassed (1 << 6).
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BN_CFG_0, 0x50);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BN_ALU_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_OP_ENABLE_0, 0x1);

!f = tensor<1x16x2x3xi8, #dla.feature<int8, config = nv_small>>
!bn = tensor<16x2xi16, #dla.batchnorm<per_channel, int16, config = nv_small>>
!b = tensor<1x16x2x3xi8, #dla.bias<per_element, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer(%x: !f, %q: !bn, %b: !b) -> !f {
  %y = dla.sdp offline %x bias %b : !b batchnorm %q : !bn
      bs <alu = sum, alu_operand = batchnorm, alu_shift = 3, mul_operand = batchnorm, mul_shift = 7, relu = true>
      bn <alu = max, alu_operand = bias>
      : !f -> !f
  return %y : !f
}
}
