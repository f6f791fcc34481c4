// An image convolution on nv_small: a T_A8B8G8R8 image of unsigned pixels
// one pixel into its lines (x_offset = 1), the converter with the four
// mean registers, image weights (pre-extended, no post-extension). Values
// composed by hand from the register manual's fields (opendla.h of
// nv_small) and the layouts' geometry (NvdlaPixel.h, NvdlaWeight.h):
//
// - the image: 5 pixels of 4 bytes after 1 pixel of offset, lines of
//   roundup(6 * 4, 8) = 24 bytes, 3 lines: 72 bytes;
// - CDMA D_DATAIN_FORMAT: DATAIN_FORMAT PIXEL (1), PIXEL_FORMAT
//   T_A8B8G8R8 (12 << 8), PITCH_LINEAR (0), no sign override (ui8);
//   PIXEL_X_OFFSET 1; surface stride 0 (NVIDIA's IMGDesc), the line
//   not packed (24 != 5 * 8);
// - entries per line ceil((1 + 5 + 0) * 4 / 8) = 3 (calculateEPS, pixel
//   case); the kernel as CSC reads it: width 1, R = 2 rows of S * P =
//   2 * 4 = 8 channels, 16 bytes per kernel, 2 kernels: 32 bytes;
// - MEAN_FORMAT enabled, MEAN_RY 10 | MEAN_GU 20 << 16, MEAN_BV 30 |
//   MEAN_AX 40 << 16; CVT_EN | CVT_TRUNCATE 1 << 4, scale 3;
// - output 5 x 3: 15 atomics; release 3 lines.
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 72), ('arg1.bin', 32), ('result0.bin', 120))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: arg0: [[IMG:0x[0-9a-f]+]], 72 bytes, aligned {{[0-9]+}}, tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, x_offset = 1, config = nv_small>>
// PLAN: arg1: {{0x[0-9a-f]+}}, 32 bytes, aligned 256, tensor<2x3x2x2xi8, #dla.weight<image, int8, channels = 4, config = nv_small>>
// PLAN: wrote {{.*}}prog.cfg: 1 layers, 15 CRC checks

// CHECK: //   arg0: [[IMG:0x[0-9a-f]+]], 72 bytes
// CHECK: //   arg1: [[W:0x[0-9a-f]+]], 32 bytes
// CHECK: // layer 0: dla.conv
// CHECK: reg_write(NVDLA_CSC.D_DATAIN_FORMAT_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAIN_SIZE_EXT_0_0, 0x20004);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAIN_SIZE_EXT_1_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_BATCH_NUMBER_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_POST_Y_EXTENSION_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ENTRY_PER_SLICE_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_FORMAT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_0_0, 0x10000);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_1_0, 0x10007);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_BYTES_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WMB_BYTES_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAOUT_SIZE_0_0, 0x20004);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAOUT_SIZE_1_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ATOMICS_0, 0xe);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_RELEASE_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_CONV_STRIDE_EXT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DILATION_EXT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ZERO_PADDING_0, 0x10001);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ZERO_PADDING_VALUE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_BANK_0, 0x0);
// CHECK: reg_write(NVDLA_CDMA.D_MISC_CFG_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_FORMAT_0, 0xc01);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_0_0, 0x20004);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_1_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_EXT_0_0, 0x20004);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_PIXEL_OFFSET_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_RAM_TYPE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_HIGH_0_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, [[IMG]]);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_HIGH_1_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_1_0, [[IMG]]);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_LINE_STRIDE_0, 0x18);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_SURF_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_LINE_UV_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_MAP_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_BATCH_NUMBER_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_BATCH_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_ENTRY_PER_SLICE_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_FETCH_GRAIN_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_FORMAT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_0_0, 0xf);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_1_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_RAM_TYPE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_ADDR_LOW_0, [[W]]);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_BYTES_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_MEAN_FORMAT_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_MEAN_GLOBAL_0_0, 0x14000a);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_MEAN_GLOBAL_1_0, 0x28001e);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_CFG_0, 0x11);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_OFFSET_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_SCALE_0, 0x3);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CONV_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_ZERO_PADDING_0, 0x10001);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_ZERO_PADDING_VALUE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_BANK_0, 0x0);
// CHECK: reg_write(NVDLA_CDMA.D_OP_ENABLE_0, 0x1);

!img = tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, x_offset = 1, config = nv_small>>
!w = tensor<2x3x2x2xi8, #dla.weight<image, int8, channels = 4, config = nv_small>>
!f = tensor<1x2x3x5xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @conv(%x: !img, %w: !w) -> !f {
  %y = dla.conv image %x, %w pad [1, 0, 1, 0] input_cvt <offset = 0, scale = 3, shift = 1> mean [10, 20, 30, 40] : !img, !w -> !f
  return %y : !f
}
}
