// RUN: dla-opt %s | FileCheck %s
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --mlir-print-op-generic | dla-opt | FileCheck %s

// Every pixel format of the NVDLA pixel-format table (36 rows), with the
// document's channel count; 16-bit and 10-bit components use 16-bit elements.

// CHECK-LABEL: func.func @t_r8
// CHECK-SAME: tensor<1x1x4x4xui8, #dla.pixel<T_R8>>
func.func @t_r8(%a: tensor<1x1x4x4xui8, #dla.pixel<T_R8>>) { return }

// CHECK-LABEL: func.func @t_r10
// CHECK-SAME: tensor<1x1x4x4xui16, #dla.pixel<T_R10>>
func.func @t_r10(%a: tensor<1x1x4x4xui16, #dla.pixel<T_R10>>) { return }

// CHECK-LABEL: func.func @t_r12
// CHECK-SAME: tensor<1x1x4x4xui16, #dla.pixel<T_R12>>
func.func @t_r12(%a: tensor<1x1x4x4xui16, #dla.pixel<T_R12>>) { return }

// CHECK-LABEL: func.func @t_r16
// CHECK-SAME: tensor<1x1x4x4xui16, #dla.pixel<T_R16>>
func.func @t_r16(%a: tensor<1x1x4x4xui16, #dla.pixel<T_R16>>) { return }

// CHECK-LABEL: func.func @t_r16_i
// CHECK-SAME: tensor<1x1x4x4xui16, #dla.pixel<T_R16_I>>
func.func @t_r16_i(%a: tensor<1x1x4x4xui16, #dla.pixel<T_R16_I>>) { return }

// CHECK-LABEL: func.func @t_r16_f
// CHECK-SAME: tensor<1x1x4x4xf16, #dla.pixel<T_R16_F>>
func.func @t_r16_f(%a: tensor<1x1x4x4xf16, #dla.pixel<T_R16_F>>) { return }

// CHECK-LABEL: func.func @t_a16b16g16r16
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_A16B16G16R16>>
func.func @t_a16b16g16r16(%a: tensor<1x4x4x4xui16, #dla.pixel<T_A16B16G16R16>>) { return }

// CHECK-LABEL: func.func @t_x16b16g16r16
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_X16B16G16R16>>
func.func @t_x16b16g16r16(%a: tensor<1x4x4x4xui16, #dla.pixel<T_X16B16G16R16>>) { return }

// CHECK-LABEL: func.func @t_a16b16g16r16_f
// CHECK-SAME: tensor<1x4x4x4xf16, #dla.pixel<T_A16B16G16R16_F>>
func.func @t_a16b16g16r16_f(%a: tensor<1x4x4x4xf16, #dla.pixel<T_A16B16G16R16_F>>) { return }

// CHECK-LABEL: func.func @t_a16y16u16v16
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_A16Y16U16V16>>
func.func @t_a16y16u16v16(%a: tensor<1x4x4x4xui16, #dla.pixel<T_A16Y16U16V16>>) { return }

// CHECK-LABEL: func.func @t_v16u16y16a16
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_V16U16Y16A16>>
func.func @t_v16u16y16a16(%a: tensor<1x4x4x4xui16, #dla.pixel<T_V16U16Y16A16>>) { return }

// CHECK-LABEL: func.func @t_a16y16u16v16_f
// CHECK-SAME: tensor<1x4x4x4xf16, #dla.pixel<T_A16Y16U16V16_F>>
func.func @t_a16y16u16v16_f(%a: tensor<1x4x4x4xf16, #dla.pixel<T_A16Y16U16V16_F>>) { return }

// CHECK-LABEL: func.func @t_a8b8g8r8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_A8B8G8R8>>
func.func @t_a8b8g8r8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_A8B8G8R8>>) { return }

// CHECK-LABEL: func.func @t_a8r8g8b8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_A8R8G8B8>>
func.func @t_a8r8g8b8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_A8R8G8B8>>) { return }

// CHECK-LABEL: func.func @t_b8g8r8a8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_B8G8R8A8>>
func.func @t_b8g8r8a8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_B8G8R8A8>>) { return }

// CHECK-LABEL: func.func @t_r8g8b8a8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_R8G8B8A8>>
func.func @t_r8g8b8a8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_R8G8B8A8>>) { return }

// CHECK-LABEL: func.func @t_x8b8g8r8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_X8B8G8R8>>
func.func @t_x8b8g8r8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_X8B8G8R8>>) { return }

// CHECK-LABEL: func.func @t_x8r8g8b8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_X8R8G8B8>>
func.func @t_x8r8g8b8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_X8R8G8B8>>) { return }

// CHECK-LABEL: func.func @t_b8g8r8x8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_B8G8R8X8>>
func.func @t_b8g8r8x8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_B8G8R8X8>>) { return }

// CHECK-LABEL: func.func @t_r8g8b8x8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_R8G8B8X8>>
func.func @t_r8g8b8x8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_R8G8B8X8>>) { return }

// CHECK-LABEL: func.func @t_a2b10g10r10
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_A2B10G10R10>>
func.func @t_a2b10g10r10(%a: tensor<1x4x4x4xui16, #dla.pixel<T_A2B10G10R10>>) { return }

// CHECK-LABEL: func.func @t_a2r10g10b10
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_A2R10G10B10>>
func.func @t_a2r10g10b10(%a: tensor<1x4x4x4xui16, #dla.pixel<T_A2R10G10B10>>) { return }

// CHECK-LABEL: func.func @t_b10g10r10a2
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_B10G10R10A2>>
func.func @t_b10g10r10a2(%a: tensor<1x4x4x4xui16, #dla.pixel<T_B10G10R10A2>>) { return }

// CHECK-LABEL: func.func @t_r10g10b10a2
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_R10G10B10A2>>
func.func @t_r10g10b10a2(%a: tensor<1x4x4x4xui16, #dla.pixel<T_R10G10B10A2>>) { return }

// CHECK-LABEL: func.func @t_a2y10u10v10
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_A2Y10U10V10>>
func.func @t_a2y10u10v10(%a: tensor<1x4x4x4xui16, #dla.pixel<T_A2Y10U10V10>>) { return }

// CHECK-LABEL: func.func @t_v10u10y10a2
// CHECK-SAME: tensor<1x4x4x4xui16, #dla.pixel<T_V10U10Y10A2>>
func.func @t_v10u10y10a2(%a: tensor<1x4x4x4xui16, #dla.pixel<T_V10U10Y10A2>>) { return }

// CHECK-LABEL: func.func @t_a8y8u8v8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_A8Y8U8V8>>
func.func @t_a8y8u8v8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_A8Y8U8V8>>) { return }

// CHECK-LABEL: func.func @t_v8u8y8a8
// CHECK-SAME: tensor<1x4x4x4xui8, #dla.pixel<T_V8U8Y8A8>>
func.func @t_v8u8y8a8(%a: tensor<1x4x4x4xui8, #dla.pixel<T_V8U8Y8A8>>) { return }

// CHECK-LABEL: func.func @t_y8___u8v8_n444
// CHECK-SAME: tensor<1x3x4x4xui8, #dla.pixel<T_Y8___U8V8_N444>>
func.func @t_y8___u8v8_n444(%a: tensor<1x3x4x4xui8, #dla.pixel<T_Y8___U8V8_N444>>) { return }

// CHECK-LABEL: func.func @t_y8___v8u8_n444
// CHECK-SAME: tensor<1x3x4x4xui8, #dla.pixel<T_Y8___V8U8_N444>>
func.func @t_y8___v8u8_n444(%a: tensor<1x3x4x4xui8, #dla.pixel<T_Y8___V8U8_N444>>) { return }

// CHECK-LABEL: func.func @t_y10___u10v10_n444
// CHECK-SAME: tensor<1x3x4x4xui16, #dla.pixel<T_Y10___U10V10_N444>>
func.func @t_y10___u10v10_n444(%a: tensor<1x3x4x4xui16, #dla.pixel<T_Y10___U10V10_N444>>) { return }

// CHECK-LABEL: func.func @t_y10___v10u10_n444
// CHECK-SAME: tensor<1x3x4x4xui16, #dla.pixel<T_Y10___V10U10_N444>>
func.func @t_y10___v10u10_n444(%a: tensor<1x3x4x4xui16, #dla.pixel<T_Y10___V10U10_N444>>) { return }

// CHECK-LABEL: func.func @t_y12___u12v12_n444
// CHECK-SAME: tensor<1x3x4x4xui16, #dla.pixel<T_Y12___U12V12_N444>>
func.func @t_y12___u12v12_n444(%a: tensor<1x3x4x4xui16, #dla.pixel<T_Y12___U12V12_N444>>) { return }

// CHECK-LABEL: func.func @t_y12___v12u12_n444
// CHECK-SAME: tensor<1x3x4x4xui16, #dla.pixel<T_Y12___V12U12_N444>>
func.func @t_y12___v12u12_n444(%a: tensor<1x3x4x4xui16, #dla.pixel<T_Y12___V12U12_N444>>) { return }

// CHECK-LABEL: func.func @t_y16___u16v16_n444
// CHECK-SAME: tensor<1x3x4x4xui16, #dla.pixel<T_Y16___U16V16_N444>>
func.func @t_y16___u16v16_n444(%a: tensor<1x3x4x4xui16, #dla.pixel<T_Y16___U16V16_N444>>) { return }

// CHECK-LABEL: func.func @t_y16___v16u16_n444
// CHECK-SAME: tensor<1x3x4x4xui16, #dla.pixel<T_Y16___V16U16_N444>>
func.func @t_y16___v16u16_n444(%a: tensor<1x3x4x4xui16, #dla.pixel<T_Y16___V16U16_N444>>) { return }

// CHECK-LABEL: func.func @spellings
// CHECK-SAME: tensor<1x64x56x56xf16, #dla.feature<fp16>>
// CHECK-SAME: tensor<1x64x56x56xi8, #dla.feature<int8, line_stride = 2048, surface_stride = 131072>>
// CHECK-SAME: tensor<2x16x4x4xi16, #dla.feature<int16, batch_stride = 2048>>
// CHECK-SAME: tensor<1x4x224x224xui8, #dla.pixel<T_A8B8G8R8>>
// CHECK-SAME: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R8, line_stride = 64, x_offset = 3>>
// CHECK-SAME: tensor<1x3x16x16xui8, #dla.pixel<T_Y8___U8V8_N444, line_stride = 64, x_offset = 2, uv_line_stride = 64, uv_offset = 1024>>
// CHECK-SAME: tensor<64xi16, #dla.bias<per_channel, int16>>
// CHECK-SAME: tensor<i8, #dla.bias<per_layer, int8>>
// CHECK-SAME: tensor<64x28x28xi8, #dla.bias<per_element, int8, data_size = two_byte>>
// CHECK-SAME: tensor<1x64x2x2xi8, #dla.bias<per_element, int8, line_stride = 64, surface_stride = 128>>
// CHECK-SAME: tensor<64xi8, #dla.prelu<int8>>
// CHECK-SAME: tensor<64xi8, #dla.prelu<int8, data_size = two_byte>>
// CHECK-SAME: tensor<64x2xf16, #dla.batchnorm<per_channel, fp16>>
// CHECK-SAME: tensor<2xi16, #dla.batchnorm<per_layer, int16>>
// CHECK-SAME: tensor<16x8x8xi8, #dla.eltwise<int8>>
// CHECK-SAME: tensor<16x8x8x2xi8, #dla.eltwise<int8, components = 2>>
// CHECK-SAME: tensor<2x16x8x8xf16, #dla.eltwise<fp16, components = 1, data_size = two_byte>>
// CHECK-SAME: tensor<?x64x?x?xi8, #dla.feature<int8>>
func.func @spellings(
  %a: tensor<1x64x56x56xf16, #dla.feature<fp16>>,
  %b: tensor<1x64x56x56xi8, #dla.feature<int8, line_stride = 2048, surface_stride = 131072>>,
  %c: tensor<2x16x4x4xi16, #dla.feature<int16, batch_stride = 2048>>,
  %d: tensor<1x4x224x224xui8, #dla.pixel<T_A8B8G8R8>>,
  %e: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R8, line_stride = 64, x_offset = 3>>,
  %f: tensor<1x3x16x16xui8, #dla.pixel<T_Y8___U8V8_N444, line_stride = 64, x_offset = 2, uv_line_stride = 64, uv_offset = 1024>>,
  %g: tensor<64xi16, #dla.bias<per_channel, int16>>,
  %h: tensor<i8, #dla.bias<per_layer, int8>>,
  %i: tensor<64x28x28xi8, #dla.bias<per_element, int8, data_size = two_byte>>,
  %j: tensor<1x64x2x2xi8, #dla.bias<per_element, int8, line_stride = 64, surface_stride = 128>>,
  %k: tensor<64xi8, #dla.prelu<int8>>,
  %l: tensor<64xi8, #dla.prelu<int8, data_size = two_byte>>,
  %m: tensor<64x2xf16, #dla.batchnorm<per_channel, fp16>>,
  %n: tensor<2xi16, #dla.batchnorm<per_layer, int16>>,
  %o: tensor<16x8x8xi8, #dla.eltwise<int8>>,
  %p: tensor<16x8x8x2xi8, #dla.eltwise<int8, components = 2>>,
  %q: tensor<2x16x8x8xf16, #dla.eltwise<fp16, components = 1, data_size = two_byte>>,
  %r: tensor<?x64x?x?xi8, #dla.feature<int8>>) {
  return
}

// nv_small's 8-byte memory atom on every non-weight encoding; nv_full, the
// default, is not printed.
// CHECK-LABEL: func.func @nv_small_atoms
// CHECK-SAME: tensor<1x20x3x5xi8, #dla.feature<int8, config = nv_small>>
// CHECK-SAME: tensor<1x20x3x5xi8, #dla.feature<int8, line_stride = 48, config = nv_small>>
// CHECK-SAME: tensor<1x4x2x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_small>>
// CHECK-SAME: tensor<11xi8, #dla.bias<per_channel, int8, config = nv_small>>
// CHECK-SAME: tensor<11xi8, #dla.prelu<int8, config = nv_small>>
// CHECK-SAME: tensor<5x2xi16, #dla.batchnorm<per_channel, int16, config = nv_small>>
// CHECK-SAME: tensor<3x1x1xi8, #dla.eltwise<int8, config = nv_small>>
// CHECK-SAME: tensor<1x8x1x1xi8, #dla.feature<int8>>
func.func @nv_small_atoms(
    %f: tensor<1x20x3x5xi8, #dla.feature<int8, config = nv_small>>,
    %g: tensor<1x20x3x5xi8, #dla.feature<int8, line_stride = 48, config = nv_small>>,
    %p: tensor<1x4x2x5xui8, #dla.pixel<T_A8B8G8R8, config = nv_small>>,
    %b: tensor<11xi8, #dla.bias<per_channel, int8, config = nv_small>>,
    %r: tensor<11xi8, #dla.prelu<int8, config = nv_small>>,
    %n: tensor<5x2xi16, #dla.batchnorm<per_channel, int16, config = nv_small>>,
    %e: tensor<3x1x1xi8, #dla.eltwise<int8, config = nv_small>>,
    %d: tensor<1x8x1x1xi8, #dla.feature<int8, config = nv_full>>) { return }
