// A semi-planar image convolution on nv_small: T_Y8___U8V8_N444 of signed
// pixels five pixels into its lines, image weights post-extended by 2, no
// input_cvt (the identity converter, on). Values composed by hand from the
// register manual's fields (opendla.h of nv_small) and the layouts'
// geometry (NvdlaPixel.h, NvdlaWeight.h):
//
// - the Y plane: lines of roundup((5 + 6) * 1, 8) = 16 bytes, 4 lines; the
//   UV plane at 64, lines of roundup((5 + 6) * 2, 8) = 24 bytes: 160 bytes
//   in all;
// - CDMA D_DATAIN_FORMAT: PIXEL (1), T_Y8___U8V8_N444 (28 << 8), pitch
//   linear, PIXEL_SIGN_OVERRIDE (1 << 20) for i8 pixels; PIXEL_X_OFFSET 5;
//   plane 1 read from the 8-byte atom holding its pixel 5 (byte 10 of the
//   line): 64 + 8 = 72 bytes past the image; line strides 16 and 24;
// - CVT_EN with scale 1, shift 0, offset 0;
// - entries per line ceil(6 * 3 / 8) = 3; the kernel: width 1, R = 3 rows
//   of S * P = 3 channels, 9 bytes per kernel, 3 kernels: 27 bytes padded
//   to the 8-byte entry, 32; POST_Y_EXTENSION 2 / 2 = 1;
// - output 6 x 2: 12 atomics; release 4 lines.
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 160), ('arg1.bin', 32), ('result0.bin', 96))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: arg0: {{0x[0-9a-f]+}}, 160 bytes, aligned {{[0-9]+}}, tensor<1x3x4x6xi8, #dla.pixel<T_Y8___U8V8_N444, x_offset = 5, config = nv_small>>
// PLAN: arg1: {{0x[0-9a-f]+}}, 32 bytes, aligned 256, tensor<3x2x3x1xi8, #dla.weight<image, int8, channels = 3, post_extension = 2, config = nv_small>>
// PLAN: wrote {{.*}}prog.cfg: 1 layers, 12 CRC checks

// The largest surface, placed first.
// CHECK: //   arg0: 0x80000000, 160 bytes
// CHECK: // layer 0: dla.conv
// CHECK: reg_write(NVDLA_CSC.D_DATAIN_SIZE_EXT_0_0, 0x30005);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAIN_SIZE_EXT_1_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_BATCH_NUMBER_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_POST_Y_EXTENSION_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ENTRY_PER_SLICE_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_FORMAT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_0_0, 0x20000);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_1_0, 0x20002);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WEIGHT_BYTES_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_WMB_BYTES_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAOUT_SIZE_0_0, 0x10005);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_DATAOUT_SIZE_1_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_ATOMICS_0, 0xb);
// CHECK-NEXT: reg_write(NVDLA_CSC.D_RELEASE_0, 0x3);
// CHECK: reg_write(NVDLA_CDMA.D_DATAIN_FORMAT_0, 0x101c01);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_0_0, 0x30005);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_1_0, 0x2);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_SIZE_EXT_0_0, 0x30005);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_PIXEL_OFFSET_0, 0x5);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_RAM_TYPE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_HIGH_0_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x80000000);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_HIGH_1_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_1_0, 0x80000048);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_LINE_STRIDE_0, 0x10);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_SURF_STRIDE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_LINE_UV_STRIDE_0, 0x18);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_MAP_0, 0x0);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_0_0, 0x8);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_SIZE_1_0, 0x2);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_BYTES_0, 0x20);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_MEAN_FORMAT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_CFG_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_OFFSET_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_SCALE_0, 0x1);

!img = tensor<1x3x4x6xi8, #dla.pixel<T_Y8___U8V8_N444, x_offset = 5, config = nv_small>>
!w = tensor<3x2x3x1xi8, #dla.weight<image, int8, channels = 3, post_extension = 2, config = nv_small>>
!f = tensor<1x3x2x6xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @conv(%x: !img, %w: !w) -> !f {
  %y = dla.conv image %x, %w : !img, !w -> !f
  return %y : !f
}
}
