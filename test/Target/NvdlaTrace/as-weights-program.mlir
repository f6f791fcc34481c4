// dla-translate --dla-to-nvdla-trace on attention's q k^T for one head
// (issue 45, docs/WholeNetworks.md): 40 tokens as a 5 x 8 map, 16 dims
// (15 padded) as channels; an offline SDP writes k in the weight stream's
// encoding and a direct convolution of q reads it as 40 kernels of 16
// channels (dla.as_weights), one score channel per key. Expected values by
// hand from the formats: k's lines hold both surfaces' lines (2 x 64 =
// 128 = 0x80 bytes), its surfaces one line of 8 atoms apart (0x40); the
// weights are k's 640 (0x280) bytes at k's address, 256-byte aligned.
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "[open('%t/data/arg%%d.bin' %% i, 'wb').write(bytes(640)) for i in range(2)]; open('%t/data/result0.bin', 'wb').write(bytes(1600))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// CHECK: layer0: 0x[[#%x,K:]], 640 bytes, aligned 256, tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK: view{{[0-9]+}}: 0x[[#K]], 640 bytes, aligned 256, tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
// CHECK: // layer 0: dla.sdp
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x[[#K]]);
// CHECK: reg_write(NVDLA_SDP.D_DST_LINE_STRIDE_0, 0x80);
// CHECK-NEXT: reg_write(NVDLA_SDP.D_DST_SURFACE_STRIDE_0, 0x40);
// CHECK: // layer 1: dla.conv + dla.sdp
// CHECK: reg_write(NVDLA_CSC.D_WEIGHT_BYTES_0, 0x280);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_ADDR_LOW_0, 0x[[#K]]);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_BYTES_0, 0x280);

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @prog(%q: tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>, %kin: tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x40x5x8xi8, #dla.feature<int8, config = nv_small>> {
  %k = dla.sdp offline %kin bs <alu = sum, alu_operand = 1> : tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
  %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  %s = dla.conv direct %q, %w clip_truncate 4 : tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>, tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x40x5x8xi8>
  %y = dla.sdp on_the_fly %s bs <alu = sum, alu_operand = 0> : tensor<1x40x5x8xi8> -> tensor<1x40x5x8xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x40x5x8xi8, #dla.feature<int8, config = nv_small>>
}
}
