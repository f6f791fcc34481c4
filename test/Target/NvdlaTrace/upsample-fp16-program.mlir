// dla-translate --dla-to-nvdla-trace on dla.upsample by [2, 1] of a
// 20-channel 2x3 fp16 map on nv_full (docs/Resize.md "fp16 and int16 on
// nv_full"). Expected values composed by hand from the feature format
// (32-byte atoms of 16 fp16 channels; input lines 3 atoms = 0x60, surfaces
// 2 lines = 0xc0, 2 channel groups = 384 bytes; output lines 0x60,
// surfaces 4 lines = 0x180, 768 bytes) and the table of docs/Resize.md:
// 2 groups x 2 x 1 phases = 4 passes, each a cube 1 wide, W = 3 high
// (lines: one atom apart in and out), H x 16 = 32 channels (surfaces: one
// input line apart in, 2 output lines out). fp16 in, processing and out
// (the RDMA's IN / PROC / OUT_PRECISION 2 at bits 2, 4, 6: 0xa8; the
// SDP's PROC / OUT_PRECISION 2 at bits 0, 2: 0xa), every stage bypassed.
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(384)); open('%t/data/result0.bin', 'wb').write(bytes(768))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// CHECK: arg0: 0x[[#%x,IN:]], 384 bytes
// CHECK: layer0: 0x[[#%x,OUT:]], 768 bytes

// CHECK: // layer 0 pass 1 of 4: dla.upsample
// CHECK: reg_write(NVDLA_SDP_RDMA.D_FEATURE_MODE_CFG_0, 0xa8);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_NRDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_ERDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_WIDTH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0x1f);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,IN]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_LINE_STRIDE_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_SURFACE_STRIDE_0, 0x60);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT]]);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_LINE_STRIDE_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_SURFACE_STRIDE_0, 0xc0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BS_CFG_0, 0x53);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_BN_CFG_0, 0x53);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DP_EW_CFG_0, 0x53);
// CHECK: reg_write(NVDLA_SDP.D_DATA_FORMAT_0, 0xa);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_OFFSET_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SCALE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_CVT_SHIFT_0, 0x0);
// Phase (1, 0): one output line on.
// CHECK: // layer 0 pass 2 of 4: dla.upsample
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x60]]);
// Group 1: one input surface on, one output surface on.
// CHECK: // layer 0 pass 3 of 4: dla.upsample
// CHECK: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,IN + 0xc0]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x180]]);
// CHECK: // layer 0 pass 4 of 4: dla.upsample
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x1e0]]);
// CHECK-NOT: pass 5

module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @layer(%x: tensor<1x20x2x3xf16, #dla.feature<fp16, config = nv_full>>) -> tensor<1x20x4x3xf16, #dla.feature<fp16, config = nv_full>> {
  %y = dla.upsample %x factors [2, 1] : tensor<1x20x2x3xf16, #dla.feature<fp16, config = nv_full>> -> tensor<1x20x4x3xf16, #dla.feature<fp16, config = nv_full>>
  return %y : tensor<1x20x4x3xf16, #dla.feature<fp16, config = nv_full>>
}
}
