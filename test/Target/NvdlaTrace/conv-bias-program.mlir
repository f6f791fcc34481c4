// A convolution's bias operand on nv_small: NVDLA's convolution pipeline
// adds no bias, so the layer is the convolution with its SDP on the fly,
// whose BS stage adds the per-channel bias read from memory by BRDMA
// (as NVIDIA's compiler fuses a bias layer). Values composed by hand from
// the register manual's fields (opendla.h of nv_small): D_BRDMA_CFG
// enabled, BRDMA_DATA_USE ALU (1 << 1), ONE_BYTE, PER_KERNEL, RAM_TYPE MC
// (1 << 5); D_DP_BS_CFG ALU SUM (2 << 2), MUL bypassed (1 << 4), ReLU
// bypassed (1 << 6); D_DP_BS_ALU_CFG source MEM (1), shift 0; the
// identity output converter. The per-channel int8 operand is one 1x1xC
// run read in groups of the 8-byte atom.
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 128), ('arg1.bin', 576), ('arg2.bin', 8), ('result0.bin', 128))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: arg2: {{0x[0-9a-f]+}}, 8 bytes, aligned {{[0-9]+}}, tensor<8xi8, #dla.bias<per_channel, int8, config = nv_small>>
// PLAN: wrote {{.*}}prog.cfg: 1 layers, 1 CRC checks

// CHECK: //   arg2: [[BIAS:0x[0-9a-f]+]], 8 bytes
// CHECK: mem_load(pri_mem, [[BIAS]], "arg2.dat");
// CHECK: // layer 0: dla.conv + dla.sdp
// The SDP core, then SDP_RDMA in flying mode reading the operand.
// CHECK: reg_write(NVDLA_SDP.D_DP_BS_CFG_0, 0x58);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_ALU_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_ALU_SRC_VALUE_0, 0x0);
// CHECK: reg_write(NVDLA_SDP.D_CVT_OFFSET_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SCALE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SHIFT_0, 0x0);
// CHECK: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x22);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_BASE_ADDR_LOW_0, [[BIAS]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_LINE_STRIDE_0, 0x8);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BS_SURFACE_STRIDE_0, 0x8);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_NRDMA_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1);

!f = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
!b = tensor<8xi8, #dla.bias<per_channel, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @conv(%x: !f, %w: !w, %b: !b) -> !f {
  %y = dla.conv direct %x, %w, %b pad [1, 1, 1, 1] : !f, !w, !b -> !f
  return %y : !f
}
}
