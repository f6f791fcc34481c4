// dla-translate --dla-to-nvdla-trace on dla.upsample by [2, 3] of a
// 12-channel 3x5 int8 map on nv_small: SDP pass-through passes reading the
// input transposed in address space (docs/Resize.md). Expected values
// composed by hand from the feature format (8-byte atoms of 8 channels;
// input lines 5 atoms = 0x28, surfaces 3 lines = 0x78; output lines 15
// atoms = 0x78, surfaces 6 lines = 0x2d0) and the table of docs/Resize.md:
// 2 groups x 2 x 3 phases = 12 passes, each a cube 1 wide, W = 5 high
// (lines: one atom apart in, 3 atoms out), H x 8 = 24 channels (surfaces:
// one input line apart in, 2 output lines out). A one-column input reads
// its rows as lines.
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(240)); open('%t/data/result0.bin', 'wb').write(bytes(1440))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// CHECK: arg0: 0x[[#%x,IN:]], 240 bytes
// CHECK: layer0: 0x[[#%x,OUT:]], 1440 bytes

// CHECK: // layer 0 pass 1 of 12: dla.upsample
// CHECK: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_NRDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_ERDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_WIDTH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x4);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0x17);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,IN]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_LINE_STRIDE_0, 0x8);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_SURFACE_STRIDE_0, 0x28);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT]]);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_LINE_STRIDE_0, 0x18);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_SURFACE_STRIDE_0, 0xf0);
// Every stage bypassed (1 | 2 | 16 | 64), the identity converter.
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_CFG_0, 0x53);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BN_CFG_0, 0x53);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_CFG_0, 0x53);
// CHECK: reg_write(NVDLA_SDP.D_CVT_OFFSET_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SCALE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SHIFT_0, 0x0);
// Phase (0, 1): one atom on.
// CHECK: // layer 0 pass 2 of 12: dla.upsample
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 8]]);
// Phase (1, 0): one output line on.
// CHECK: // layer 0 pass 4 of 12: dla.upsample
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x78]]);
// Group 1, phase (1, 2): one surface on in, and out one surface, a line and 2 atoms.
// CHECK: // layer 0 pass 12 of 12: dla.upsample
// CHECK: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,IN + 0x78]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x358]]);

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer(%x: tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x12x6x15xi8, #dla.feature<int8, config = nv_small>> {
  %y = dla.upsample %x factors [2, 3] : tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x12x6x15xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x12x6x15xi8, #dla.feature<int8, config = nv_small>>
}
}
