// What --dla-to-nvdla-trace cannot program yet, or cannot program at all,
// is a located error and a non-zero exit.
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t.dir --nvdla-trace-data=%t.data %s -split-input-file -verify-diagnostics

// expected-error @below {{a register program is written for one function, the module has 2}}
module {
func.func @a(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  return %x : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
func.func @b(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  return %x : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

// expected-error @below {{a surface of a register program must be NVDLA feature data (#dla.feature), got 'tensor<1x8x2x2xi8>'}}
func.func @plain(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  return %x : tensor<1x8x2x2xi8>
}

// -----

// int16 feature data is programmed on nv_full only (the configuration with
// int16; the format itself exists on every one).
// expected-error @below {{only int8 feature data (and fp16 or int16 on nv_full) is programmed yet, got 'tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_small>>'}}
func.func @int16(%x: tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_small>>) -> tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_small>> {
  return %x : tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_small>>
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{a program without layers has nothing to check}}
func.func @empty(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  return %x : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

// The weights are the first argument: they are checked first. int16 and
// fp16 direct and image weights are programmed on nv_full (the other
// configurations' weight encodings refuse them themselves); plain weights
// nowhere.
!img = tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_full>>
!w = tensor<2x3x2x2xi8>
!g = tensor<1x2x2x4xi8, #dla.feature<int8, config = nv_full>>
// expected-error @below {{weights of a register program must be int8 image NVDLA weights (fp16 or int16 direct and image ones on nv_full) (#dla.weight<image, int8, config = ...>), got 'tensor<2x3x2x2xi8>'}}
func.func @weights(%w: !w, %x: !img) -> !g {
  %y = dla.conv image %x, %w : !img, !w -> !g
  return %y : !g
}

// -----

// Compressed weights' sizes depend on their data: the program holds them.
// expected-error @below {{compressed weights of a register program must be a dla.weight_constant in its function (their compressed sizes are in its registers), got 'tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>>' as an argument}}
func.func @compressed_argument(%w: tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>>, %x: tensor<1x8x4x4xi8, #dla.feature<int8>>) -> tensor<1x8x2x2xi8, #dla.feature<int8>> {
  %y = dla.conv direct %x, %w : tensor<1x8x4x4xi8, #dla.feature<int8>>, tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x8x2x2xi8, #dla.feature<int8>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8>>
}

// -----

// A compressed surface's bytes must be present (and consistent).
func.func @compressed_all_zero(%x: tensor<1x8x4x4xi8, #dla.feature<int8>>) -> tensor<1x8x2x2xi8, #dla.feature<int8>> {
  // expected-error @below {{'dla.weight_constant' op holds only zero weights: NVDLA's CDMA reads at least one entry of compressed weight data; store them uncompressed}}
  %w = dla.weight_constant wgs = dense<0> : tensor<128xi8>, wmb = dense<0> : tensor<128xi8>, data = dense<0> : tensor<128xi8> : tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>>
  %y = dla.conv direct %x, %w : tensor<1x8x4x4xi8, #dla.feature<int8>>, tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x8x2x2xi8, #dla.feature<int8>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8>>
}

// -----

// A compressed mask longer than the WMB bank (256 x 256 x 3 x 3 weights,
// 73,728 mask bytes; WGS 73,728 = 0x12000 per group of 32 kernels).
func.func @compressed_mask(%x: tensor<1x256x8x8xi8, #dla.feature<int8>>) -> tensor<1x256x6x6xi8, #dla.feature<int8>> {
  %w = dla.weight_constant wgs = dense<[0, 32, 1, 0, 0, 32, 1, 0, 0, 32, 1, 0, 0, 32, 1, 0, 0, 32, 1, 0, 0, 32, 1, 0, 0, 32, 1, 0, 0, 32, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<128xi8>, wmb = dense<-1> : tensor<73728xi8>, data = dense<1> : tensor<589824xi8> : tensor<256x256x3x3xi8, #dla.weight<direct, int8, compressed>>
  // expected-error @below {{'dla.conv' op reads compressed weights: the compressed weights' mask (WMB) takes 73728 bytes, more than the one bank of 32768 bytes NVDLA streams it through}}
  %y = dla.conv direct %x, %w : tensor<1x256x8x8xi8, #dla.feature<int8>>, tensor<256x256x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x256x6x6xi8, #dla.feature<int8>>
  return %y : tensor<1x256x6x6xi8, #dla.feature<int8>>
}

// -----

func.func @compressed_inconsistent(%x: tensor<1x8x4x4xi8, #dla.feature<int8>>) -> tensor<1x8x2x2xi8, #dla.feature<int8>> {
  // expected-error @below {{'dla.weight_constant' op inconsistent compressed weights: weight surface 0, kernel group 0: WGS says 7 bytes but the WMB marks 0}}
  %w = dla.weight_constant wgs = dense<[7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<128xi8>, wmb = dense<0> : tensor<128xi8>, data = dense<0> : tensor<128xi8> : tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>>
  %y = dla.conv direct %x, %w : tensor<1x8x4x4xi8, #dla.feature<int8>>, tensor<8x8x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x8x2x2xi8, #dla.feature<int8>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8>>
}

// -----

!f = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @returns_weights(%x: !f, %w: !w) -> !w {
  %y = dla.conv direct %x, %w : !f, !w -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  // expected-error @below {{'func.return' op returns a value that is no feature surface of a layer or argument}}
  return %w : !w
}
}

// -----

!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @host(%x: !f) -> tensor<1x8x2x2xi8> {
  // expected-error @below {{'dla.relayout' op converts 'tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>' to 'tensor<1x8x2x2xi8>': a register program copies NVDLA feature data to feature data of the same precision and configuration only (BDMA)}}
  %y = dla.relayout %x : !f -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}
}

// -----

// A copy between two feature layouts is a BDMA operation: nv_large has none.
!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @copy_without_bdma(%x: !f) -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 128, surface_stride = 512, config = nv_large>> {
  // expected-error @below {{'dla.relayout' op copies feature data between two layouts: nv_large has no BDMA (BDMA_ENABLE), the unit that copies them; copy on the host (the relayout outside the program)}}
  %y = dla.relayout %x : !f -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 128, surface_stride = 512, config = nv_large>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 128, surface_stride = 512, config = nv_large>>
}
}

// -----

// BDMA copies bytes within one configuration's format.
!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @copy_converts(%x: !f) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>> {
  // expected-error @below {{'dla.relayout' op converts 'tensor<1x8x2x2xi8, #dla.feature<int8>>' to 'tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>': a register program copies NVDLA feature data to feature data of the same precision and configuration only (BDMA)}}
  %y = dla.relayout %x : !f -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>
}
}

// -----

!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @stages(%x: !f) -> !f {
  // expected-error @below {{'dla.sdp' op has no register stages (bs, bn, ew): only the stage form is programmed}}
  %y = dla.sdp offline %x relu : !f -> !f
  return %y : !f
}
}

// -----

!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{an SDP memory operand of a register program must be NVDLA operand data (#dla.bias, #dla.batchnorm, #dla.prelu, #dla.eltwise) or feature data, got 'tensor<1x8x2x2xi8>'}}
func.func @memory(%x: !f, %e: tensor<1x8x2x2xi8>) -> !f {
  %y = dla.sdp offline %x eltwise %e : tensor<1x8x2x2xi8> bs <alu = sum, alu_operand = eltwise> : !f -> !f
  return %y : !f
}
}

// -----

!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
!e = tensor<1x8x2x2xi16, #dla.eltwise<int16, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @int16_atoms(%x: !f, %e: !e) -> !f {
  // expected-error @below {{'dla.sdp' op reads eltwise per element in int16 atoms; an int8 SDP reads int8 atoms (two-byte components: data_size = two_byte)}}
  %y = dla.sdp offline %x eltwise %e : !e bn <alu = sum, alu_operand = eltwise> : !f -> !f
  return %y : !f
}
}

// -----

// An int16 SDP (nv_full) reads per-element data in its own atoms, 16 int16
// channels each: int8 atoms hold 32.
!f = tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_full>>
!e = tensor<1x8x2x2xi8, #dla.eltwise<int8, data_size = two_byte, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @int8_atoms(%x: !f, %e: !e) -> !f {
  // expected-error @below {{'dla.sdp' op reads eltwise per element in int8 atoms; an int16 SDP reads int16 atoms}}
  %y = dla.sdp offline %x eltwise %e : !e bs <alu = sum, alu_operand = eltwise> : !f -> !f
  return %y : !f
}
}

// -----

// An int16 SDP reads two-byte operand components (NVIDIA's v1 C model
// asserts it for NRDMA and ERDMA, and one-byte groups of 16 channels are
// half an atom).
!f = tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_full>>
!n = tensor<8x2xi8, #dla.batchnorm<per_channel, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @one_byte(%x: !f, %n: !n) -> !f {
  // expected-error @below {{'dla.sdp' op reads batchnorm in bn as one-byte components; an int16 SDP reads two-byte ones (int16 data, or int8 with data_size = two_byte)}}
  %y = dla.sdp offline %x batchnorm %n : !n bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm> : !f -> !f
  return %y : !f
}
}

// -----

// Cube dimensions beyond the 13-bit fields (at most 8192) would be
// programmed modulo 8192.
!f = tensor<1x8x1x9000xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @too_wide(%x: !f) -> !f {
  // expected-error @below {{'dla.sdp' op has a source cube of 9000 width: NVDLA's cube fields hold at most 8192}}
  %y = dla.sdp offline %x bs <mul_operand = 2> : !f -> !f
  return %y : !f
}
}

// -----

// A band of one row of a one-column result is a 1x1 cube, which CACC and
// the SDP write only packed.
!f = tensor<1x8x4x1xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @one_pixel_band(%x: !f, %w: !w) -> !f {
  // expected-error @below {{'dla.conv' op runs by bands of 3 output rows of a one-column result: a band of one row is a 1x1 cube, which NVDLA writes only packed, not into the whole result's surfaces}}
  %y = dla.conv direct %x, %w rows_per_part 3 : !f, !w -> !f
  return %y : !f
}
}

// -----

// Bands of output rows are programmed for feature data
// (test/NvdlaCModel/trace-conv-bands.test), not yet for images.
!img = tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_small>>
!w = tensor<2x3x2x2xi8, #dla.weight<image, int8, channels = 4, config = nv_small>>
!f = tensor<1x2x3x5xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @image_bands(%x: !img, %w: !w) -> !f {
  // expected-error @below {{'dla.conv' op runs by bands of 2 output rows (its image does not fit the convolution buffer beside its weights, or rows_per_part says so): bands of an image convolution are not programmed yet}}
  %y = dla.conv image %x, %w pad [1, 0, 1, 0] rows_per_part 2 : !img, !w -> !f
  return %y : !f
}
}


// -----

// One group of 8 kernels of 2048 x 3 x 3 bytes takes 36 banks, more than
// nv_small's 32: neither rows nor columns can be cut to fit (a row of
// 8192 columns of 8 channels now runs by columns).
!f = tensor<1x2048x4x4xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x2048x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @deep(%x: !f, %w: !w) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  // expected-error @below {{'dla.conv' op does not fit NVDLA nv_small: convolution buffer: one output row reads 3 input rows of 1024 entries, 6 banks beside the 36 banks of its weights; the buffer has 32 banks of 512 entries; nor does one output column's window (768 entries a line): cutting its input channels, with the SDP adding each part's sums to the previous part's, is programmed for fp16 pipelines only (an integer pipeline's parts would hand on int16 partial sums through offline SDP adds: not programmed)}}
  %y = dla.conv direct %x, %w : !f, !w -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

// weight_banks names none of the weights' allotments: 64 x 64 x 3 x 3
// bytes take 9 banks whole, a group of 8 kernels (4608 bytes) 2.
!f = tensor<1x64x8x8xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<64x64x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @banks(%x: !f, %w: !w) -> !f {
  // expected-error @below {{'dla.conv' op does not fit NVDLA nv_small: convolution buffer: 5 weight banks requested; its weights take 9 banks whole, 2 per kernel group: all, two groups or one group}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] weight_banks 5 : !f, !w -> !f
  return %y : !f
}
}

// -----

!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @eql(%x: !f) -> !f {
  // expected-error @below {{'dla.sdp' op compares in ew (alu = eql): NVDLA's SDP then writes no output, it only reports in D_STATUS whether any value differed}}
  %y = dla.sdp offline %x ew <alu = eql, alu_operand = 3> : !f -> !f
  return %y : !f
}
}

// -----

// nv_small (8 kernels per group, int8): a 1-row window keeps one line, so
// one pass takes 7 KiB * 8 / (1 * 8 * 14) = 512 output columns (NVIDIA's
// compiler, PDPNode.cpp calculateMaxWidth); at stride 3 the first of the
// two passes reads 511 * 3 + 8 = 1541 input columns, more than its 10-bit
// PARTIAL_WIDTH_IN field holds.
!f = tensor<1x8x1x1800xi8, #dla.feature<int8, config = nv_small>>
!g = tensor<1x8x1x598xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @wide(%x: !f) -> !g {
  // expected-error @below {{'dla.pool' op needs 2 passes by output width (PDP's line buffer holds 512 output columns at kernel height 1 and stride 1): a pass reads 1541 input columns, PARTIAL_WIDTH_IN holds at most 1024}}
  %y = dla.pool max %x kernel [1, 8] stride [1, 3] : !f -> !g
  return %y : !g
}
}

// -----

!img = tensor<1x4x6x6xui8, #dla.pixel<T_A8B8G8R8, config = nv_small>>
!w = tensor<8x3x3x3xi8, #dla.weight<image, int8, channels = 4, config = nv_small>>
!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @image_dilation(%x: !img, %w: !w) -> !f {
  // expected-error @below {{'dla.conv' op dilates an image convolution by [2, 2]: NVDLA's image input reads the kernel's rows whole (NVIDIA's compiler: no dilation with image convolution)}}
  %y = dla.conv image %x, %w dilation [2, 2] : !img, !w -> !f
  return %y : !f
}
}

// -----

// The UV plane's first pixel 10 * 2 = 20 bytes into its line, beyond the
// two 8-byte atoms from its atom-aligned address.
!img = tensor<1x3x4x4xui8, #dla.pixel<T_Y8___U8V8_N444, x_offset = 10, config = nv_small>>
!w = tensor<8x3x3x3xi8, #dla.weight<image, int8, channels = 3, config = nv_small>>
!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @uv_offset(%x: !img, %w: !w) -> !f {
  // expected-error @below {{'dla.conv' op reads T_Y8___U8V8_N444 from x offset 10: its UV plane's first pixel lies 20 bytes into the line, NVDLA's image DMA takes it within two 8-byte atoms of the plane's address}}
  %y = dla.conv image %x, %w : !img, !w -> !f
  return %y : !f
}
}


// -----

!f = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @fused_and_returned(%x: !f, %w: !w) -> (!f, tensor<1x8x4x4xi8>) {
  // expected-error @below {{'dla.conv' op result never reaches memory (its SDP reads it on the fly), but other ops use it}}
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : !f, !w -> tensor<1x8x4x4xi8>
  %y = dla.sdp on_the_fly %c relu : tensor<1x8x4x4xi8> -> !f
  return %y, %c : !f, tensor<1x8x4x4xi8>
}
}

// -----

// An fp16 LRN computes in fp16 in and out (the CDP's converters are
// integer-only): one from int8 to fp16 is refused, located.
func.func @lrn_int8_to_fp16(%x: tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_full>>) -> tensor<1x16x4x4xf16, #dla.feature<fp16>> {
  // expected-error @below {{'dla.lrn' op computes in fp16 from or to another precision: the CDP's fp16 LRN reads and writes fp16}}
  %y = dla.lrn %x size 5 : tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_full>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x4x4xf16, #dla.feature<fp16>>
}

// -----

// An int8 convolution whose SDP writes fp16 (an integer pipeline's
// output converter to fp16) keeps the integer meaning: it is not an fp16
// pipeline's X stages, and not programmed yet.
func.func @int8_to_fp16(%x: tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_full>>, %w: tensor<16x16x1x1xi8, #dla.weight<direct, int8, config = nv_full>>, %b: tensor<16xi16, #dla.bias<per_channel, int16, config = nv_full>>) -> tensor<1x16x4x4xf16, #dla.feature<fp16>> {
  // expected-error @below {{'dla.conv' op computes in fp16: the fp16 layers programmed yet are a direct or Winograd convolution (no input converter) or an image convolution (8- or 16-bit integer or fp16 pixels), without a padding value, alone or with an SDP on the fly of its X stages and Y stage's multiplier, ALU and LUT, an offline SDP of those stages (X stages: bs and bn, or the implicit form with at most two memory operands, three without relu; no out_cvt), pooling, LRN, upsampling and interleaves}}
  %c = dla.conv direct %x, %w : tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_full>>, tensor<16x16x1x1xi8, #dla.weight<direct, int8, config = nv_full>> -> tensor<1x16x4x4xi16>
  %y = dla.sdp on_the_fly %c bias %b : tensor<16xi16, #dla.bias<per_channel, int16, config = nv_full>> relu : tensor<1x16x4x4xi16> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x4x4xf16, #dla.feature<fp16>>
}

// -----

// An implicit fp16 SDP with three memory operands (bias, batchnorm,
// eltwise) and relu: each stage's DMA reads one, so the third goes to the Y
// stage, which has no ReLU to apply after it; it is not programmed.
func.func @fp16_three_operands(%x: tensor<1x8x4x4xf16, #dla.feature<fp16>>, %b: tensor<8xf16, #dla.bias<per_channel, fp16>>, %q: tensor<8x2xf16, #dla.batchnorm<per_channel, fp16>>, %e: tensor<1x8x4x4xf16, #dla.eltwise<fp16>>) -> tensor<1x8x4x4xf16, #dla.feature<fp16>> {
  // expected-error @below {{'dla.sdp' op computes in fp16: the fp16 layers programmed yet are a direct or Winograd convolution}}
  %y = dla.sdp offline %x bias %b : tensor<8xf16, #dla.bias<per_channel, fp16>> batchnorm %q : tensor<8x2xf16, #dla.batchnorm<per_channel, fp16>> eltwise %e : tensor<1x8x4x4xf16, #dla.eltwise<fp16>> relu : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x8x4x4xf16, #dla.feature<fp16>>
}

// -----

// A layer's 1x8x1x1 result read per channel (prelu, its surface the
// per-channel run) and per element (eltwise) by two SDPs: a surface holds
// one operand layout.
!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
!g = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @gate_both_ways(%x: !f, %u: !g) -> (!f, !g) {
  // expected-error @below {{a layer's result is read both per channel (an SDP's prelu) and per element (another SDP operand): its surface holds one of the two}}
  %g = dla.sdp offline %u bs <alu = max, alu_operand = 0> : !g -> !g
  %y = dla.sdp offline %x prelu %g : !g bn <mul_operand = prelu, mul_shift = 7> : !f -> !f
  %z = dla.sdp offline %u eltwise %g : !g bs <alu = sum, alu_operand = eltwise> : !g -> !g
  return %y, %z : !f, !g
}
}

// -----

// The emulator's ops are an EMU task of a loadable; a trace has no emulator.
!f = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @emulated(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> !f {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> !f
  // expected-error @below {{'dla.emu_softmax' op runs on NVIDIA's runtime emulator (an EMU task of a loadable), which a register trace does not have: the trace holds the hardware's register writes only}}
  %s = dla.emu_softmax %p {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : !f
  return %s : !f
}
}

// -----

// A layer cannot read what the emulator computes: the EMU task runs after
// the DLA task.
!f = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @layer_after_emulator(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> !f {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> !f
  %s = dla.emu_softmax %p {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : !f
  // expected-error @below {{'dla.sdp' op reads a value NVIDIA's runtime emulator computes, in an EMU task after the DLA task that runs the layers}}
  %q = dla.sdp offline %s relu : !f -> !f
  return %q : !f
}
}

// -----

// Between int16 and other precisions the plan programs an offline SDP
// between int16 and int8, an int8 pipeline's SDP on the fly writing int16
// (they process in int8: sdp.c map_proc_precision), an int16 pipeline's
// SDP writing fp16 and an fp16 pipeline's SDP writing int16. The latter
// processes in fp16 and reads its operands so: an int16 operand is the
// verifier's refusal before the plan's.
!f = tensor<1x8x2x2xf16, #dla.feature<fp16, config = nv_full>>
!g = tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @fp16_to_int16_int16_operand(%x: !f, %e: !g) -> !g {
  // expected-error @below {{'dla.sdp' op eltwise is an integer: an fp16 SDP's stages read fp16 operands}}
  %y = dla.sdp offline %x eltwise %e : !g bs <alu = sum, alu_operand = eltwise> : !f -> !g
  return %y : !g
}
}

// -----

// The SDP between int16 and int8 reads (or writes) int16 surfaces in pairs
// (NV_NVDLA_sdp.cpp): a view of an odd number of them would have it read
// its parent's next surface (a surface of its own is placed one larger).
!p = tensor<1x48x2x2xi16, #dla.feature<int16, config = nv_full>>
!v = tensor<1x16x2x2xi16, #dla.feature<int16, line_stride = 64, surface_stride = 128, batch_stride = 384, config = nv_full>>
!g = tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @int16_to_int8_view(%x: !p) -> !g {
  %v = dla.channel_slice %x [16] : !p -> !v
  // expected-error @below {{a view of 1 int16 surfaces is read or written by an SDP converting between int16 and int8, which moves int16 surfaces in pairs (NV_NVDLA_sdp.cpp): the one beyond would be its parent's}}
  %y = dla.sdp offline %v bs <alu = sum, alu_operand = 3> out_cvt <offset = 0, scale = 1, shift = 8> : !v -> !g
  return %y : !g
}
}

// -----

// Winograd (issue 47): int8, stride 1, an output of whole 4x4 tiles, no
// input converter, the layer whole (DescribeWinograd.cpp). Random layers
// that are programmed: test/NvdlaCModelV1/trace-winograd.test.
!f = tensor<1x32x5x5xi8, #dla.feature<int8, config = nv_full>>
!o = tensor<1x16x3x3xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<16x32x3x3xi8, #dla.weight<winograd, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_partial_tiles(%x: !f, %w: !w) -> !o {
  // expected-error @below {{'dla.conv' op is a Winograd convolution with a 3x3 output: NVDLA writes Winograd outputs in whole 4x4 tiles, so the output's height and width must be multiples of 4}}
  %y = dla.conv winograd %x, %w : !f, !w -> !o
  return %y : !o
}
}

// -----

!f = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_full>>
!g = tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @int8_to_int16(%x: !f, %w: !w) -> !g {
  // An int8 pipeline writes int16 through its SDP on the fly (v1's SDP
  // processes in int8, its WDMA writes int16: NvdlaConversion.h): the
  // convolution itself writes its pipeline's int8.
  // expected-error @below {{'dla.conv' op reads int8 data and writes int16: invalid precision conversion for convolution layer: int8 feature data -> int16 (valid: int8)}}
  %c = dla.conv direct %x, %w : !f, !w -> tensor<1x8x2x2xi16>
  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 3> : tensor<1x8x2x2xi16> -> !g
  return %y : !g
}
}

// -----

// The int16 cases (checkInt16Layer) recognise a pipeline by its operands'
// encodings: weights without one make the widening SDP above no int8
// pipeline's, and the layer gets the plan's list of what it programs
// between int16 and other precisions (the weights' own refusal,
// checkWeights, comes after the layers' precision checks).
!f = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_full>>
!g = tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @int8_to_int16_plain_weights(%x: !f, %w: tensor<8x8x3x3xi8>) -> !g {
  // expected-error @below {{'dla.conv' op reads int8 data and writes int16: between int16 and other precisions the register plan programs only an offline SDP between int16 and int8, an int8 pipeline's SDP on the fly writing int16 (they process in int8, sdp.c map_proc_precision), an image convolution into int16 image weights writing int16, and between int16 and fp16 an SDP (offline or on the fly) of an int16 pipeline writing fp16 or of an fp16 pipeline writing int16}}
  %c = dla.conv direct %x, %w : !f, tensor<8x8x3x3xi8> -> tensor<1x8x2x2xi8>
  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 3> : tensor<1x8x2x2xi8> -> !g
  return %y : !g
}
}

// -----

// And an offline SDP widening data with no encoding (no feature data's
// precision: the surfaces' refusal, featureLayout, comes later too).
!g = tensor<1x8x2x2xi16, #dla.feature<int16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @plain_to_int16(%x: tensor<1x8x2x2xi8>) -> !g {
  // expected-error @below {{'dla.sdp' op reads non-feature data and writes int16: between int16 and other precisions the register plan programs only}}
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 3> : tensor<1x8x2x2xi8> -> !g
  return %y : !g
}
}

// -----

// v1's SDP asserts WINOGRAD off on its int8-to-int16 path.
!f = tensor<1x32x4x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<16x32x3x3xi8, #dla.weight<winograd, int8, config = nv_full>>
!g = tensor<1x16x4x4xi16, #dla.feature<int16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_int8_to_int16(%x: !f, %w: !w) -> !g {
  %c = dla.conv winograd %x, %w pad [1, 1, 1, 1] : !f, !w -> tensor<1x16x4x4xi8>
  // expected-error @below {{'dla.sdp' op reads int8 data and writes int16: invalid precision conversion for on-the-fly SDP layer after Winograd convolution: int8 feature data -> int16 (valid: int8; SDP converts precision after direct convolution only)}}
  %y = dla.sdp on_the_fly %c : tensor<1x16x4x4xi8> -> !g
  return %y : !g
}
}

// -----

!f = tensor<1x32x11x11xi8, #dla.feature<int8, config = nv_full>>
!o = tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<16x32x5x5xi8, #dla.weight<winograd, int8, stride = 2, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_stride(%x: !f, %w: !w) -> !o {
  // expected-error @below {{'dla.conv' op is a Winograd convolution with stride [2, 2]: only stride 1 is programmed (NVIDIA's compiler takes Winograd at stride 1 only)}}
  %y = dla.conv winograd %x, %w stride [2, 2] : !f, !w -> !o
  return %y : !o
}
}

// -----

// An image convolution reads int8 pixels into an int8 pipeline (the
// precision rules would have int16 weights for an int16 result); an SDP on
// the fly widens its int8 to int16 (trace-int16-cvt-conv.test), int16
// image weights write int16 (trace-image16.test).
!img = tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_full>>
!w = tensor<2x3x2x2xi8, #dla.weight<image, int8, channels = 4, config = nv_full>>
!g = tensor<1x2x2x4xi16, #dla.feature<int16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @image_to_int16(%x: !img, %w: !w) -> !g {
  // expected-error @below {{'dla.conv' op reads an image and writes int16 through int8 weights: the convolution's own result is its pipeline's precision, its weights' (the convolution table: int16 weights)}}
  %y = dla.conv image %x, %w : !img, !w -> !g
  return %y : !g
}
}

// -----

// And int16 image weights (an int16 pipeline) write int16.
!img = tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_full>>
!w = tensor<2x3x2x2xi16, #dla.weight<image, int16, channels = 4, config = nv_full>>
!g = tensor<1x2x2x4xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @image16_to_int8(%x: !img, %w: !w) -> !g {
  // expected-error @below {{'dla.conv' op reads an image and writes int8 through int16 weights: the convolution's own result is its pipeline's precision, its weights' (the convolution table: int8 weights)}}
  %y = dla.conv image %x, %w : !img, !w -> !g
  return %y : !g
}
}

// -----

// An int16 image pipeline's SDP on the fly keeps int16: int16 -> int8 has
// no path (the int8 data path would take CACC's 16-channel atoms as
// 32-channel ones).
!img = tensor<1x4x3x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_full>>
!w = tensor<2x3x2x2xi16, #dla.weight<image, int16, channels = 4, config = nv_full>>
!c = tensor<1x2x2x4xi16>
!g = tensor<1x2x2x4xi8, #dla.feature<int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @image16_sdp_to_int8(%x: !img, %w: !w) -> !g {
  %c = dla.conv image %x, %w : !img, !w -> !c
  // expected-error @below {{'dla.sdp' op reads an image and writes int8: invalid precision conversion for on-the-fly SDP layer after image input convolution: int16 feature data -> int8 (valid: int16, fp16; on-the-fly SDP keeps the bit depth or widens int8 to int16)}}
  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 0> : !c -> !g
  return %y : !g
}
}

// -----

// CDMA pads the input to the ext cube: the layer's padding and 2 more
// columns, in its 6-bit PAD_RIGHT.
!f = tensor<1x32x4x4xi8, #dla.feature<int8, config = nv_full>>
!o = tensor<1x16x4x64xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<16x32x3x3xi8, #dla.weight<winograd, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_pad_right(%x: !f, %w: !w) -> !o {
  // expected-error @below {{'dla.conv' op is a Winograd convolution whose extended input takes 64 padding positions at the right (its padding and 2), more than CDMA's PAD_RIGHT holds (63)}}
  %y = dla.conv winograd %x, %w pad [1, 1, 0, 62] : !f, !w -> !o
  return %y : !o
}
}

// -----

!f = tensor<1x32x6x6xi8, #dla.feature<int8, config = nv_full>>
!o = tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<16x32x3x3xi8, #dla.weight<winograd, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_input_cvt(%x: !f, %w: !w) -> !o {
  // expected-error @below {{'dla.conv' op is a Winograd convolution with an input converter: NVDLA's Winograd input path has none (the v1 C model's CDMA converts direct and image input only)}}
  %y = dla.conv winograd %x, %w input_cvt <offset = 1, scale = 2, shift = 1> : !f, !w -> !o
  return %y : !o
}
}

// -----

!f = tensor<1x32x10x6xi8, #dla.feature<int8, config = nv_full>>
!o = tensor<1x16x8x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<16x32x3x3xi8, #dla.weight<winograd, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_bands(%x: !f, %w: !w) -> !o {
  // expected-error @below {{'dla.conv' op is a Winograd convolution by bands of 4 output rows: Winograd layers are programmed whole}}
  %y = dla.conv winograd %x, %w rows_per_part 4 : !f, !w -> !o
  return %y : !o
}
}

// -----

// fp16 Winograd is programmed (its PRA / CMAC / CACC steps are the CPU
// execution's hardware fp16 mode) and meets the Winograd plan's own
// refusals: a 6x6 output is no whole 4x4 tiles.
!f = tensor<1x16x8x8xf16, #dla.feature<fp16, config = nv_full>>
!o = tensor<1x16x6x6xf16, #dla.feature<fp16, config = nv_full>>
!w = tensor<16x16x3x3xf16, #dla.weight<winograd, fp16, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @winograd_fp16_6x6(%x: !f, %w: !w) -> !o {
  // expected-error @below {{'dla.conv' op is a Winograd convolution with a 6x6 output: NVDLA writes Winograd outputs in whole 4x4 tiles}}
  %y = dla.conv winograd %x, %w : !f, !w -> !o
  return %y : !o
}
}

// -----

// A 1x1 cube with gaps between its surfaces (a copy's strides): the SDP
// reads and writes 1x1 cubes packed only (the C models assert it).
!f = tensor<1x40x1x1xi8, #dla.feature<int8, config = nv_full>>
!g = tensor<1x40x1x1xi8, #dla.feature<int8, line_stride = 32, surface_stride = 64, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @sdp_1x1_gaps(%x: !f) -> !g {
  // expected-error @below {{'dla.sdp' op writes a 1x1 cube with surface stride 64: the SDP reads and writes a 1x1 cube only packed (surface stride one atom, 32 bytes)}}
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : !f -> !g
  return %y : !g
}
}

// -----

// fp16 pixels (T_R16_F, T_A16B16G16R16_F, T_A16Y16U16V16_F) are programmed
// into fp16 image weights only: at IN_PRECISION fp16 CDMA's converter
// passes them unchanged (cdma_cvt.cpp), so an int8 pipeline would read
// their fp16 bytes as integers. The precision rules refuse it (fp16 image
// input -> fp16 only), and so does the register plan.
func.func @fp16_pixels_int8_weights(%x: tensor<1x1x8x8xf16, #dla.pixel<T_R16_F, config = nv_full>>, %w: tensor<4x1x3x3xi8, #dla.weight<image, int8, channels = 1, config = nv_full>>) -> tensor<1x4x6x6xi8, #dla.feature<int8>> {
  // expected-error @below {{'dla.conv' op reads an image into int8 image weights: invalid precision conversion for convolution layer: fp16 image input -> int8 (valid: fp16)}}
  %y = dla.conv image %x, %w : tensor<1x1x8x8xf16, #dla.pixel<T_R16_F, config = nv_full>>, tensor<4x1x3x3xi8, #dla.weight<image, int8, channels = 1, config = nv_full>> -> tensor<1x4x6x6xi8, #dla.feature<int8>>
  return %y : tensor<1x4x6x6xi8, #dla.feature<int8>>
}
