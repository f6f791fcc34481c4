// dla-translate --dla-to-nvdla-trace on dla.interleave by [2, 2] of four
// 12-channel 3x5 int8 phases on nv_small, cropped at the end to 5x9: SDP
// pass-through passes as dla.upsample's (docs/Resize.md), each phase read
// from its own surface. Expected values composed by hand from the feature
// format (8-byte atoms of 8 channels; phase lines 5 atoms = 0x28,
// surfaces 3 lines = 0x78; output lines 9 atoms = 0x48, surfaces 5 lines =
// 0x168) and the table of docs/Resize.md: 2 groups x 4 phases = 8 passes,
// each a cube 1 wide, as many lines as the phase has columns within the
// output (5 for px = 0, 4 for px = 1: ceil((9 - px) / 2)), its rows within
// the output x 8 channels (3 rows for py = 0, 2 for py = 1) as channels;
// lines one atom apart in, 2 atoms out; surfaces one phase line apart in,
// 2 output lines out.
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "[open('%t/data/arg%%d.bin' %% i, 'wb').write(bytes(240)) for i in range(4)]; open('%t/data/result0.bin', 'wb').write(bytes(720))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// CHECK: arg0: 0x[[#%x,P0:]], 240 bytes
// CHECK: arg1: 0x[[#%x,P1:]], 240 bytes
// CHECK: arg2: 0x[[#%x,P2:]], 240 bytes
// CHECK: arg3: 0x[[#%x,P3:]], 240 bytes
// CHECK: layer0: 0x[[#%x,OUT:]], 720 bytes

// Group 0, phase (0, 0): 5 columns, 3 rows.
// CHECK: // layer 0 pass 1 of 8: dla.interleave
// CHECK: reg_write(NVDLA_SDP_RDMA.D_BRDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_NRDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_ERDMA_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_WIDTH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x4);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0x17);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,P0]]);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_LINE_STRIDE_0, 0x8);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_SURFACE_STRIDE_0, 0x28);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT]]);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_LINE_STRIDE_0, 0x10);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_SURFACE_STRIDE_0, 0x90);
// Phase (0, 1): its own input, 4 columns, one atom on.
// CHECK: // layer 0 pass 2 of 8: dla.interleave
// CHECK: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0x17);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,P1]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 8]]);
// Phase (1, 0): 5 columns, 2 rows, one output line on.
// CHECK: // layer 0 pass 3 of 8: dla.interleave
// CHECK: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x4);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0xf);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,P2]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x48]]);
// Phase (1, 1): 4 columns, 2 rows.
// CHECK: // layer 0 pass 4 of 8: dla.interleave
// CHECK: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_HEIGHT_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_DATA_CUBE_CHANNEL_0, 0xf);
// CHECK-NEXT: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,P3]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x50]]);
// Group 1, phase (1, 1): one surface on in, and out one surface, a line and an atom.
// CHECK: // layer 0 pass 8 of 8: dla.interleave
// CHECK: reg_write(NVDLA_SDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x[[#%x,P3 + 0x78]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#%x,OUT + 0x1b8]]);

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer(%a: tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>, %b: tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>, %c: tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>, %d: tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x12x5x9xi8, #dla.feature<int8, config = nv_small>> {
  %y = dla.interleave %a, %b, %c, %d factors [2, 2] : tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>, tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>, tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>>, tensor<1x12x3x5xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x12x5x9xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x12x5x9xi8, #dla.feature<int8, config = nv_small>>
}
}
