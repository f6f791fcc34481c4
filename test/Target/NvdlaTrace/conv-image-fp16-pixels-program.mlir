// An image convolution of fp16 pixels on nv_full: T_A16Y16U16V16_F (its
// memory order V, U, Y, A; CDMA reorders), fp16 image weights. Values
// composed by hand from the register manual's fields (arnvdla.h of v1)
// and the layouts' geometry (NvdlaPixel.h, NvdlaWeight.h):
//
// - the image: 3 pixels of 8 bytes, lines of roundup(24, 32) = 32 bytes,
//   2 lines: 64 bytes; the weights: 2 kernels of S * P = 2 * 4 = 8 fp16
//   elements (32 bytes), in the 128-byte weight granule; the result: 2
//   channels in one 32-byte atom per position, 2 x 2 positions: 128 bytes;
// - CDMA D_MISC_CFG: IN_PRECISION fp16 (2 << 8: the pixel table's input
//   precision), PROC_PRECISION fp16 (2 << 12: the weights'); CSC likewise,
//   CMAC and CACC PROC_PRECISION fp16 (2 << 12);
// - D_DATAIN_FORMAT: DATAIN_FORMAT PIXEL (1), PIXEL_FORMAT
//   T_A16Y16U16V16_F (11 << 8), no PIXEL_SIGN_OVERRIDE (fp16 pixels have
//   no sign to override);
// - no mean (MEAN_FORMAT 0) and CVT_EN 0: at IN_PRECISION fp16 CDMA's
//   converter passes the pixels unchanged (cmod/hls/cdma_libs/cdma_cvt.cpp);
//   NAN_FLUSH_TO_ZERO is not written (reset 0, as NVIDIA's firmware);
// - CSC's kernel: 8 channels (7), 2 kernels (1 << 16).
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 64), ('arg1.bin', 128), ('result0.bin', 128))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: arg0: {{0x[0-9a-f]+}}, 64 bytes, aligned {{[0-9]+}}, tensor<1x4x2x3xf16, #dla.pixel<T_A16Y16U16V16_F>>
// PLAN: arg1: {{0x[0-9a-f]+}}, 128 bytes, aligned 256, tensor<2x3x1x2xf16, #dla.weight<image, fp16, channels = 4>>
// PLAN: wrote {{.*}}prog.cfg: 1 layers

// CHECK-NOT: NAN_FLUSH_TO_ZERO
// CHECK: reg_write(NVDLA_CACC.D_MISC_CFG_0, 0x2000);
// CHECK: reg_write(NVDLA_CMAC_A.D_MISC_CFG_0, 0x2000);
// CHECK: reg_write(NVDLA_CSC.D_MISC_CFG_0, 0x2200);
// CHECK: reg_write(NVDLA_CSC.D_WEIGHT_SIZE_EXT_1_0, 0x10007);
// CHECK: reg_write(NVDLA_CDMA.D_MISC_CFG_0, 0x2200);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DATAIN_FORMAT_0, 0xb01);
// CHECK: reg_write(NVDLA_CDMA.D_LINE_STRIDE_0, 0x20);
// CHECK: reg_write(NVDLA_CDMA.D_MEAN_FORMAT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_CVT_CFG_0, 0x0);
// CHECK-NOT: NAN_FLUSH_TO_ZERO
func.func @main(%x: tensor<1x4x2x3xf16, #dla.pixel<T_A16Y16U16V16_F, config = nv_full>>, %w: tensor<2x3x1x2xf16, #dla.weight<image, fp16, channels = 4, config = nv_full>>) -> tensor<1x2x2x2xf16, #dla.feature<fp16, config = nv_full>> {
  %y = dla.conv image %x, %w : tensor<1x4x2x3xf16, #dla.pixel<T_A16Y16U16V16_F, config = nv_full>>, tensor<2x3x1x2xf16, #dla.weight<image, fp16, channels = 4, config = nv_full>> -> tensor<1x2x2x2xf16, #dla.feature<fp16, config = nv_full>>
  return %y : tensor<1x2x2x2xf16, #dla.feature<fp16, config = nv_full>>
}
