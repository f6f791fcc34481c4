// A direct 3x3 convolution with its on-the-fly SDP on nv_small: the
// registers NVIDIA's firmware writes (kmd conv.c), with values composed by
// hand from the layer and the register manual's fields (opendla.h), the
// buffer's entries per slice from the CBUF geometry (nv_small: 8-byte bank
// entries = one 8-channel atom, so one entry per pixel of a line: EPS = W).
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(128)); open('%t/data/arg1.bin', 'wb').write(bytes(576)); open('%t/data/result0.bin', 'wb').write(bytes(128))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// Weights first (largest), at the weight alignment.
// PLAN: arg0: 0x80000240, 128 bytes, aligned 8,
// PLAN-NEXT: arg1: 0x80000000, 576 bytes, aligned 256,
// PLAN-NEXT: layer0: 0x800002c0, 128 bytes, aligned 8,

// CHECK: mem_load(pri_mem, 0x80000240, "arg0.dat");
// CHECK-NEXT: mem_load(pri_mem, 0x80000000, "arg1.dat");
// CHECK: // layer 0: dla.conv + dla.sdp
// CHECK: reg_write(NVDLA_CACC.D_DATAOUT_SIZE_0_0, 0x30003);
// CHECK-NEXT: reg_write(NVDLA_CACC.D_DATAOUT_SIZE_1_0, 0x7);
// CHECK-NEXT: reg_write(NVDLA_CACC.D_DATAOUT_ADDR_0, 0x800002c0);
// CHECK: reg_write(NVDLA_CACC.D_CLIP_CFG_0, 0x5);
// CHECK: reg_write(NVDLA_CSC.D_ENTRY_PER_SLICE_0, 0x3);
// CHECK: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_0_0, 0x20002);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_1_0, 0x70007);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_BYTES_0, 0x240);
// CHECK: reg_write(NVDLA_CSC.D_ATOMICS_0, 0xf);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_RELEASE_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_CONV_STRIDE_EXT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DILATION_EXT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ZERO_PADDING_0, 0x10001);
// -5 in 16 bits.
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ZERO_PADDING_VALUE_0, 0xfffb);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_BANK_0, 0x0);
// CHECK: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_0_0, 0x30003);
// CHECK: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x80000240);
// CHECK: reg_write(NVDLA_CDMA.D_LINE_STRIDE_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_SURF_STRIDE_0, 0x80);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_LINE_UV_STRIDE_0, 0x0);
// Packed lines and surfaces: LINE_PACKED bit 0, SURF_PACKED bit 16.
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_MAP_0, 0x10001);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_0_0, 0x47);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_1_0, 0x7);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_ADDR_LOW_0, 0x80000000);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_BYTES_0, 0x240);
// CVT_EN 1, CVT_TRUNCATE 2 at bit 4; offset -1; scale 3.
// CHECK: reg_write(NVDLA_CDMA.D_CVT_CFG_0, 0x21);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_OFFSET_0, 0xffff);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_SCALE_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CONV_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_ZERO_PADDING_0, 0x1010101);
// The SDP on the fly (FLYING_MODE 1), its BS stage: MUL only (ALU bypassed).
// CHECK: reg_write(NVDLA_SDP.D_DP_BS_CFG_0, 0x42);
// CHECK: reg_write(NVDLA_SDP.D_FEATURE_MODE_CFG_0, 0x1);
// The consumer first.
// CHECK: reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CACC.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CMAC_A.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CMAC_B.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_OP_ENABLE_0, 0x1);
// CHECK-NEXT: intr_notify(CDMA_DAT_0, layer_0_cdma_dat);
// CHECK-NEXT: intr_notify(CDMA_WT_0, layer_0_cdma_wt);
// CHECK-NEXT: intr_notify(CACC_0, layer_0_cacc);
// CHECK-NEXT: intr_notify(SDP_0, layer_0_sdp);

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @conv(%x: tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>, %w: tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>) -> tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>> {
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] input_cvt <offset = -1, scale = 3, shift = 2> clip_truncate 5 pad_value -5 : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>, tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x8x4x4xi8>
  %y = dla.sdp on_the_fly %c bs <mul_operand = 7, mul_shift = 3> : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
}
}
