//===- NvdlaDescriptors.h - A hardware layer as the firmware's descriptors ===//
//
// The per-layer register plan, in the form NVIDIA's firmware reads it: the
// operation and surface descriptors of kmd/firmware/include/dla_interface.h
// (nvdla/sw 79538ba), field for field under NVIDIA's names. describeNetwork
// (NvdlaProgram.h) makes every decision once, here; the register trace
// derives the registers from these descriptors as the firmware's
// processor_*_program does, and the loadable writer serializes them into
// NVIDIA's structs. Neither computes a field of its own.
//
// Where this differs from dla_interface.h:
// - a data cube names its surface (NetworkPlan::surfaces) and a byte offset
//   into it, not an address-list index: each writer places surfaces itself;
// - fields of the project's register programs that the firmware's
//   descriptors cannot express are grouped at the end of a descriptor as
//   `Extensions`; the trace honours them, the loadable writer refuses a
//   descriptor whose extensions are not the firmware's behaviour
//   (Extensions::firmwareExpressible says why not).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLADESCRIPTORS_H
#define DLA_TARGET_NVDLADESCRIPTORS_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::dla::regplan {

/// DLA_OP_* (the firmware's processor order).
enum class DescOpType : uint8_t { Bdma = 0, Conv = 1, Sdp = 2, Pdp = 3, Cdp = 4, Rubik = 5 };
inline constexpr int kDescOpTypes = 6;

/// DLA_MEM_*: external DRAM, CV-SRAM, or another unit on the fly.
enum class DescMemType : uint8_t { Mc = 0, Cv = 1, Hw = 2 };

/// dla_data_cube.
struct DescDataCube {
  DescMemType type = DescMemType::Hw;
  /// Index into NetworkPlan::surfaces; -1 for none (on the fly, unused).
  int32_t surface = -1;
  /// Bytes from the surface's start.
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t width = 0, height = 0, channel = 0;
  uint32_t line_stride = 0, surf_stride = 0, plane_stride = 0;
};

/// dla_cvt_param.
struct DescCvt {
  int32_t scale = 0;
  uint8_t truncate = 0, enable = 0;
  int32_t offset = 0;
};

// dla_conv_op_desc enumerations.
inline constexpr uint8_t kDescConvDirect = 0, kDescConvWinograd = 1;
inline constexpr uint8_t kDescPrecisionInt8 = 0, kDescPrecisionInt16 = 1, kDescPrecisionFp16 = 2;
inline constexpr uint8_t kDescWeightUncompressed = 0, kDescWeightCompressed = 1;
/// FORMAT_T_* is dlaformat::nvdla::PixelFormat's value; feature data:
inline constexpr uint8_t kDescFormatFeature = 36;

/// dla_conv_surface_desc + dla_conv_op_desc.
struct ConvDesc {
  DescDataCube weight_data, wmb_data, wgs_data, src_data, dst_data;
  int64_t offset_u = 0;
  uint32_t in_line_uv_stride = 0;

  uint8_t conv_mode = kDescConvDirect;
  uint8_t data_reuse = 0, weight_reuse = 0, skip_data_rls = 0, skip_weight_rls = 0;
  uint16_t entry_per_slice = 0;
  uint8_t data_format = kDescFormatFeature;
  uint8_t pixel_mapping = 0; // MAP_PITCH_LINEAR
  uint16_t fetch_grain = 1;
  uint8_t batch = 1;
  uint8_t weight_format = 0; // WEIGHT_FORMAT_UNCOMPRESSED
  uint8_t data_bank = 0, weight_bank = 0;
  uint32_t batch_stride = 0;
  uint8_t post_extension = 0, pixel_override = 0;
  uint16_t release = 0;
  uint16_t input_width_csc = 0, input_height_csc = 0, input_channel_csc = 0;
  uint16_t kernel_width_csc = 0, kernel_height_csc = 0, kernel_channel_csc = 0;
  uint16_t input_width_cmac = 0, input_height_cmac = 0;
  uint32_t bytes_per_kernel = 0;
  int16_t mean_ry = 0, mean_gu = 0, mean_bv = 0, mean_ax = 0;
  uint8_t mean_format = 0;
  uint8_t conv_stride_x = 1, conv_stride_y = 1;
  uint8_t pad_x_left = 0, pad_x_right = 0, pad_y_top = 0, pad_y_bottom = 0;
  uint8_t dilation_x = 1, dilation_y = 1;
  uint8_t pra_truncate = 0, in_precision = kDescPrecisionInt8, out_precision = kDescPrecisionInt8;
  int16_t pad_val = 0;
  DescCvt in_cvt, out_cvt{1, 0, 0, 0};

  struct Extensions {
    /// CDMA_D_PIXEL_OFFSET's x: the firmware leaves the register at its
    /// reset value 0 (NVIDIA's compiler places images at x = 0).
    uint16_t pixel_x_offset = 0;
  } ext;
};

// dla_sdp_op enumerations.
inline constexpr uint8_t kDescSdpOpNone = 0, kDescSdpOpMul = 1, kDescSdpOpAdd = 2,
                         kDescSdpOpBoth = 3;
inline constexpr uint8_t kDescSdpPerLayer = 0, kDescSdpPerKernel = 1, kDescSdpPerPoint = 2;
inline constexpr uint8_t kDescActNone = 0, kDescActRelu = 1, kDescActLut = 2, kDescActPrelu = 3;

/// dla_sdp_op: one stage (x1 = BS, x2 = BN, y = EW).
struct DescSdpStage {
  uint8_t enable = 0;
  uint8_t alu_type = 0; // SDP_ALU_OP_MAX, MIN, SUM, EQL
  uint8_t type = kDescSdpOpNone;
  uint8_t mode = kDescSdpPerLayer;
  uint8_t act = kDescActNone;
  uint8_t shift_value = 0; // ALU operand's left shift
  uint8_t truncate = 0;    // MUL's right shift (y: EW_TRUNCATE)
  uint8_t precision = kDescPrecisionInt8; // memory operand's element size
  int32_t alu_operand = 0, mul_operand = 0;
  DescCvt alu_cvt, mul_cvt;

  struct Extensions {
    /// Which of the stage's operands come from memory (the register
    /// program's *_SRC), and whether they differ: the firmware takes both
    /// from the one source its `mode` names, so only mixedSources is
    /// beyond it.
    bool aluFromMemory = false, mulFromMemory = false, mixedSources = false;
    /// ReLU after a PReLU multiplier, or PReLU before the lookup table
    /// (the firmware's `act` holds one of them).
    bool reluAfterPrelu = false, preluBeforeLut = false;
    /// SDP_RDMA's DATA_USE when the memory surface holds both operands.
    bool dataUseBoth = false;
  } ext;
};

/// dla_sdp_surface_desc + dla_sdp_op_desc.
struct SdpDesc {
  DescDataCube src_data, x1_data, x2_data, y_data, dst_data;
  uint8_t src_precision = kDescPrecisionInt8, dst_precision = kDescPrecisionInt8;
  /// Index into NetworkDescs::luts, -1 for none.
  int16_t lut_index = -1;
  DescCvt out_cvt;
  uint8_t conv_mode = kDescConvDirect;
  uint8_t batch_num = 1;
  uint32_t batch_stride = 0;
  DescSdpStage x1_op, x2_op, y_op;
};

// dla_pdp_op_desc enumerations.
inline constexpr uint8_t kDescPoolAvg = 0, kDescPoolMax = 1, kDescPoolMin = 2;

/// dla_pdp_surface_desc + dla_pdp_op_desc.
struct PdpDesc {
  DescDataCube src_data, dst_data;
  uint16_t partial_in_width_first = 0, partial_in_width_mid = 0, partial_in_width_last = 0;
  uint16_t partial_width_first = 0, partial_width_mid = 0, partial_width_last = 0;
  uint8_t split_num = 1;
  uint8_t pool_mode = kDescPoolAvg;
  /// POOL_SIZE_*: the window's width and height minus one.
  uint8_t pool_width = 0, pool_height = 0;
  uint8_t stride_x = 1, stride_y = 1;
  uint8_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
  uint8_t precision = kDescPrecisionInt8;
  std::array<int32_t, 7> padding_value{};

  struct Extensions {
    /// RECIP_KERNEL_WIDTH / HEIGHT: the firmware writes its own table's
    /// (recip_kernel_size); set when the op states other values.
    std::optional<uint32_t> recip_kernel_width, recip_kernel_height;
  } ext;
};

/// dla_lut_param: a lookup table as the firmware loads it (update_lut).
struct DescLut {
  std::array<int16_t, 65> linear_exp_table{};
  std::array<int16_t, 257> linear_only_table{};
  int8_t linear_exp_offset = 0, linear_only_offset = 0;
  uint64_t linear_exp_start = 0, linear_exp_end = 0;
  uint64_t linear_only_start = 0, linear_only_end = 0;
  /// dla_float_data {scale, shifter} of each slope (int8 / int16 tables).
  struct Slope {
    int16_t scale = 0;
    int8_t shifter = 0;
  };
  Slope linear_exp_underflow_slope, linear_exp_overflow_slope;
  Slope linear_only_underflow_slope, linear_only_overflow_slope;
  uint8_t hybrid_priority = 0, underflow_priority = 0, overflow_priority = 0;
  /// LUT_METHOD_EXPONENTIAL (0) or LUT_METHOD_LINEAR (1): the LE table's.
  uint8_t method = 0;
};

/// dla_cdp_surface_desc + dla_cdp_op_desc.
struct CdpDesc {
  DescDataCube src_data, dst_data;
  uint8_t in_precision = kDescPrecisionInt8, out_precision = kDescPrecisionInt8;
  int16_t lut_index = -1;
  DescCvt in_cvt, out_cvt;
  uint8_t local_size = 3;
  uint8_t bypass_sqsum = 0, bypass_out_mul = 0;
};

/// dla_bdma_transfer_desc: `surface_repeat` surfaces of `line_repeat`
/// lines of `line_size` bytes (a multiple of 32), read at the source's line
/// and surface strides and written at the destination's. The firmware's
/// source_address / destination_address are address-list indices without
/// an offset: here the cubes name surface and offset as everywhere.
struct DescBdmaTransfer {
  DescDataCube src, dst; // surface, offset and type only
  uint32_t line_size = 0, line_repeat = 0;
  uint32_t source_line = 0, destination_line = 0;
  uint32_t surface_repeat = 0;
  uint32_t source_surface = 0, destination_surface = 0;
};

/// dla_bdma_surface_desc (+ dla_bdma_op_desc's num_transfers): at most
/// NUM_MAX_BDMA_OPS transfers, between memories of one type each.
struct BdmaDesc {
  DescMemType source_type = DescMemType::Mc, destination_type = DescMemType::Mc;
  std::vector<DescBdmaTransfer> transfers;
};

/// One firmware operation: its common part's type and one descriptor pair.
struct DescOp {
  DescOpType type;
  ConvDesc conv;
  SdpDesc sdp;
  PdpDesc pdp;
  CdpDesc cdp;
  BdmaDesc bdma;
};

/// One hardware layer: one operation, or a convolution and the SDP it
/// feeds on the fly (the SDP's fused_parent is the convolution); a
/// convolution that runs by bands of output rows (ConvOp's rows_per_part)
/// is such a pair per band, in row order, over offsets into the same
/// surfaces.
struct LayerDescs {
  std::vector<DescOp> ops;
};

/// Every hardware layer of a NetworkPlan, in its order, and the lookup
/// tables the SDP and CDP operations name by lut_index.
struct NetworkDescs {
  /// The configuration's memory atom in bytes (the firmware's
  /// config_data->atom_size).
  uint32_t atom_size = 0;
  std::vector<LayerDescs> layers;
  std::vector<DescLut> luts;
};

} // namespace mlir::dla::regplan

#endif // DLA_TARGET_NVDLADESCRIPTORS_H
