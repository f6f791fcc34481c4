// An int8 Winograd convolution with its on-the-fly SDP on nv_full: the
// registers NVIDIA's firmware writes (kmd conv.c, sdp.c) for the values
// NVIDIA's compiler gives (ConvCoreNode.cpp determineWinogradParams,
// calculateEPS; ConvolutionOp.cpp's CONV_WINOGRAD branch), composed by hand:
// 8x8x40 input, pad 1, 20 kernels: output 8x8 (whole 4x4 tiles), C' = 64
// (40 rounded up to 32 bytes), the ext cube (8 + 4) x (8 + 4) x 64, pad
// right / bottom 12 - 8 - 1 = 3, kernels 4x4x64 = 1024 bytes, 20480 in all;
// EPS = 12 / 4 * 64 / 32 = 6, one data bank (6 * 12 entries) and one
// weight bank (20480 of 32768 bytes).
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(4096)); open('%t/data/arg1.bin', 'wb').write(bytes(20480)); open('%t/data/result0.bin', 'wb').write(bytes(2048))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: arg1: {{0x[0-9a-f]+}}, 20480 bytes, aligned 256,

// CHECK: // layer 0: dla.conv + dla.sdp
// CHECK: reg_write(NVDLA_CACC.D_MISC_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CACC.D_DATAOUT_SIZE_0_0, 0x70007);
// CHECK-NEXT: reg_write(NVDLA_CACC.D_DATAOUT_SIZE_1_0, 0x13);
// CHECK: reg_write(NVDLA_CMAC_A.D_MISC_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_CMAC_B.D_MISC_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_CSC.D_MISC_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_CSC.D_DATAIN_SIZE_EXT_0_0, 0xb000b);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAIN_SIZE_EXT_1_0, 0x3f);
// CHECK: reg_write(NVDLA_CSC.D_ENTRY_PER_SLICE_0, 0x5);
// CHECK: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_0_0, 0x30003);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_1_0, 0x13003f);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_BYTES_0, 0x5000);
// CHECK: reg_write(NVDLA_CSC.D_DATAOUT_SIZE_0_0, 0x70007);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAOUT_SIZE_1_0, 0x13);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ATOMICS_0, 0x3f);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_RELEASE_0, 0xb);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_CONV_STRIDE_EXT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DILATION_EXT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ZERO_PADDING_0, 0x0);
// CHECK: reg_write(NVDLA_CSC.D_BANK_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_PRA_CFG_0, 0x0);
// CHECK: reg_write(NVDLA_CDMA.D_MISC_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_0_0, 0x70007);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_1_0, 0x27);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_EXT_0_0, 0xb000b);
// CHECK: reg_write(NVDLA_CDMA.D_ENTRY_PER_SLICE_0, 0x5);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_0_0, 0x3ff);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_1_0, 0x13);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_BYTES_0, 0x5000);
// CHECK: reg_write(NVDLA_CDMA.D_CVT_CFG_0, 0x0);
// CHECK: reg_write(NVDLA_CDMA.D_CONV_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_ZERO_PADDING_0, 0x3010301);
// CHECK: reg_write(NVDLA_CDMA.D_BANK_0, 0x0);
// The SDP in Winograd mode (FLYING_MODE 1, WINOGRAD bit 2).
// CHECK: reg_write(NVDLA_SDP.D_FEATURE_MODE_CFG_0, 0x5);

!x = tensor<1x40x8x8xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<20x40x3x3xi8, #dla.weight<winograd, int8, config = nv_full>>
!c = tensor<1x20x8x8xi8>
!y = tensor<1x20x8x8xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @prog(%x: !x, %w: !w) -> !y {
  %c = dla.conv winograd %x, %w pad [1, 1, 1, 1] : !x, !w -> !c
  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 3> : !c -> !y
  return %y : !y
}
}
