// The address plan refuses what NVDLA or NVIDIA's runtime cannot address,
// naming the surface, its size and the bound, located at the value that
// owns it (an argument: the function). The bounds are the format library's
// (NvdlaHardware.h): nv_small's DMA addresses are 32 bits
// (MEM_ADDRESS_WIDTH_32), so from 0x80000000 2^31 bytes remain; NVIDIA's
// runtime allocates at most INT32_MAX bytes (NvDlaAllocMem's size mapped as
// an int); stride registers hold 32 bits, CACC's 24. Sizes below are
// ceil(C / atom) * H * W * atom bytes (atom 8 on nv_small, 32 on nv_large).
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t.dir --nvdla-trace-data=%t.data %s -split-input-file -verify-diagnostics

// 34 GiB on nv_small: 34816 * 1024 * 1024 bytes, far beyond 32 bits.
!t = tensor<1x34816x1024x1024xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{surface 'arg0' (36507222016 bytes, aligned 8) would occupy bytes [0, 36507222016) from 0x80000000, beyond nv_small's 32-bit address space (last address 0xffffffff)}}
func.func @huge(%x: !t) -> !t {
  %y = dla.sdp offline %x bs <mul_operand = 2> : !t -> !t
  return %y : !t
}
}

// -----

// Two live surfaces of 2^30 bytes each fit nv_small's 2^31 bytes from
// 0x80000000, but not the runtime's 2^31 - 1: the second placed is named.
!t = tensor<1x16x8192x8192xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @together(%x: !t) -> !t {
  // expected-error @below {{surface 'layer0' (1073741824 bytes, aligned 8) would make the plan 2147483648 bytes, beyond the 2147483647 bytes NVIDIA's runtime (NvDlaAllocMem, umd/port/linux) allocates}}
  %y = dla.sdp offline %x bs <mul_operand = 2> : !t -> !t
  return %y : !t
}
}

// -----

// Each surface alone fits the runtime's bound (32 * 8191 * 8192 =
// 2^31 - 2^18 bytes), but the input and the result live together: the plan
// would be twice that, refused at the layer. nv_large's 64-bit space is not
// the bound.
!t = tensor<1x32x8191x8192xi8, #dla.feature<int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @large(%x: !t) -> !t {
  // expected-error @below {{surface 'layer0' (2147221504 bytes, aligned 32) would make the plan 4294443008 bytes, beyond the 2147483647 bytes NVIDIA's runtime (NvDlaAllocMem, umd/port/linux) allocates}}
  %y = dla.sdp offline %x bs <mul_operand = 2> : !t -> !t
  return %y : !t
}
}

// -----

// The issue's six 2^61-byte surfaces, all live to the end: once their sums
// overflowed int64_t and two of them shared an address; now the first
// placed is refused before any sum. (2^61 channels of 1x1: each stride one
// 32-byte atom.)
!t = tensor<1x2305843009213693952x1x1xi8, #dla.feature<int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
// expected-error @below {{surface 'arg0' (2305843009213693952 bytes, aligned 32) would make the plan 2305843009213693952 bytes, beyond the 2147483647 bytes NVIDIA's runtime (NvDlaAllocMem, umd/port/linux) allocates}}
func.func @six(%x: !t) -> (!t, !t, !t, !t, !t, !t) {
  %a = dla.sdp offline %x bs <mul_operand = 2> : !t -> !t
  %b = dla.sdp offline %a bs <mul_operand = 2> : !t -> !t
  %c = dla.sdp offline %b bs <mul_operand = 2> : !t -> !t
  %d = dla.sdp offline %c bs <mul_operand = 2> : !t -> !t
  %e = dla.sdp offline %d bs <mul_operand = 2> : !t -> !t
  return %x, %a, %b, %c, %d, %e : !t, !t, !t, !t, !t, !t
}
}

// -----

// A line stride the 32-bit stride registers cannot hold.
!t = tensor<1x8x1x1xi8, #dla.feature<int8, line_stride = 4294967296, config = nv_small>>
!u = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{surface 'arg0' has a line stride of 4294967296 bytes, beyond the 4294967295 a DMA stride register (32 bits) holds}}
func.func @line(%x: !t) -> !u {
  %y = dla.sdp offline %x bs <mul_operand = 2> : !t -> !u
  return %y : !u
}
}

// -----

!t = tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_small>>
!u = tensor<1x8x1x1xi8, #dla.feature<int8, surface_stride = 4294967296, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @surface(%x: !t) -> !u {
  // expected-error @below {{surface 'layer0' has a surface stride of 4294967296 bytes, beyond the 4294967295 a DMA stride register (32 bits) holds}}
  %y = dla.sdp offline %x bs <mul_operand = 2> : !t -> !u
  return %y : !u
}
}

// -----

// An SDP memory operand's strides go to the SDP RDMA's stride registers.
!f = tensor<1x32x1x1xi8, #dla.feature<int8, config = nv_large>>
!e = tensor<1x32x1x1xi8, #dla.eltwise<int8, line_stride = 4294967296, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
// expected-error @below {{surface 'arg1' has a line stride of 4294967296 bytes, beyond the 4294967295 a DMA stride register (32 bits) holds}}
func.func @operand(%x: !f, %e: !e) -> !f {
  %y = dla.sdp offline %x eltwise %e : !e ew <mul_operand = eltwise> : !f -> !f
  return %y : !f
}
}

// -----

// A semi-planar image's UV line stride goes to CDMA's D_LINE_UV_STRIDE.
!img = tensor<1x3x4x6xi8, #dla.pixel<T_Y8___U8V8_N444, uv_line_stride = 4294967296, config = nv_small>>
!w = tensor<3x2x3x1xi8, #dla.weight<image, int8, channels = 3, post_extension = 2, config = nv_small>>
!f = tensor<1x3x2x6xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// expected-error @below {{surface 'arg0' has a second plane's line stride of 4294967296 bytes, beyond the 4294967295 a DMA stride register (32 bits) holds}}
func.func @uv(%x: !img, %w: !w) -> !f {
  %y = dla.conv image %x, %w : !img, !w -> !f
  return %y : !f
}
}

// -----

// A convolution's output strides go to CACC's 24-bit stride registers as
// well (the firmware writes them), whatever SDP follows.
!x = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
!y = tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 16777216, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @cacc_line(%x: !x, %w: !w) -> !y {
  // expected-error @below {{surface 'layer0' has a line stride of 16777216 bytes, beyond the 16777215 CACC's D_LINE_STRIDE (24 bits) holds}}
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : !x, !w -> tensor<1x8x4x4xi8>
  %y = dla.sdp on_the_fly %c bs <mul_operand = 7, mul_shift = 3> : tensor<1x8x4x4xi8> -> !y
  return %y : !y
}
}

// -----

!x = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
!y = tensor<1x8x4x4xi8, #dla.feature<int8, surface_stride = 16777216, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @cacc_surface(%x: !x, %w: !w) -> !y {
  // expected-error @below {{surface 'layer0' has a surface stride of 16777216 bytes, beyond the 16777215 CACC's D_SURF_STRIDE (24 bits) holds}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] : !x, !w -> !y
  return %y : !y
}
}
