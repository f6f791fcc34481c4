//===- ConvProgram.cpp - A convolution layer's registers from descriptors -===//
//
// Field by field as NVIDIA's firmware programs a convolution
// (kmd/firmware/conv.c processor_conv_program) from its descriptors, then
// the SDP on the fly (sdp.c). Enabled consumer first: SDP, CACC, CMAC_A,
// CMAC_B, CSC, CDMA.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

void mlir::dla::regplan::programConvLayer(const NetworkPlan &plan, const NetworkDescs &descs,
                                        const ConvDesc &d, const SdpDesc &sdp,
                                        LayerProgram &p) {
  const DescDataCube &in = d.src_data, &out = d.dst_data;
  const uint64_t input = addressOf(plan, in), output = addressOf(plan, out),
                 weights = addressOf(plan, d.weight_data);
  const bool image = d.data_format != kDescFormatFeature;
  const uint32_t atom = descs.atom_size;
  const int64_t datainFormat = image ? kDatainPixel : kDatainFeature;

  // Every unit's done interrupt is awaited (as the firmware's handler
  // consumes them all): CDMA's two fetches, CACC's last accumulation, then
  // the SDP's last write, the layer's end.
  p.interrupts = {"CDMA_DAT", "CDMA_WT", "CACC", "SDP"};
  // CACC: the accumulator's output cube (to the SDP) and its clip.
  p.write(R::CACC_S_POINTER, 0);
  p.write(R::CACC_D_MISC_CFG, {{CACC_D_MISC_CFG_CONV_MODE, d.conv_mode},
                               {CACC_D_MISC_CFG_PROC_PRECISION, d.out_precision}});
  p.write(R::CACC_D_DATAOUT_SIZE_0, {{CACC_D_DATAOUT_SIZE_0_DATAOUT_WIDTH, out.width - 1},
                                     {CACC_D_DATAOUT_SIZE_0_DATAOUT_HEIGHT, out.height - 1}});
  p.write(R::CACC_D_DATAOUT_SIZE_1, {{CACC_D_DATAOUT_SIZE_1_DATAOUT_CHANNEL, out.channel - 1}});
  p.write(R::CACC_D_DATAOUT_ADDR, static_cast<uint32_t>(output));
  p.write(R::CACC_D_BATCH_NUMBER, {{CACC_D_BATCH_NUMBER_BATCHES, d.batch - 1}});
  p.write(R::CACC_D_LINE_STRIDE, out.line_stride);
  p.write(R::CACC_D_SURF_STRIDE, out.surf_stride);
  bool onePixel = out.width == 1 && out.height == 1;
  p.write(R::CACC_D_DATAOUT_MAP, {{CACC_D_DATAOUT_MAP_LINE_PACKED, onePixel},
                                  {CACC_D_DATAOUT_MAP_SURF_PACKED, onePixel}});
  p.write(R::CACC_D_CLIP_CFG, {{CACC_D_CLIP_CFG_CLIP_TRUNCATE, d.out_cvt.truncate}});
  // CMAC.
  for (auto [ptr, misc, mode, prec] :
       {std::tuple{R::CMAC_A_S_POINTER, R::CMAC_A_D_MISC_CFG, CMAC_A_D_MISC_CFG_CONV_MODE,
                   CMAC_A_D_MISC_CFG_PROC_PRECISION},
        std::tuple{R::CMAC_B_S_POINTER, R::CMAC_B_D_MISC_CFG, CMAC_B_D_MISC_CFG_CONV_MODE,
                   CMAC_B_D_MISC_CFG_PROC_PRECISION}}) {
    p.write(ptr, 0);
    p.write(misc, {{mode, d.conv_mode}, {prec, d.out_precision}});
  }
  // CSC: the sequence of atomic operations over the buffer.
  p.write(R::CSC_S_POINTER, 0);
  p.write(R::CSC_D_MISC_CFG, {{CSC_D_MISC_CFG_CONV_MODE, d.conv_mode},
                              {CSC_D_MISC_CFG_IN_PRECISION, d.out_precision},
                              {CSC_D_MISC_CFG_PROC_PRECISION, d.out_precision},
                              {CSC_D_MISC_CFG_DATA_REUSE, d.data_reuse},
                              {CSC_D_MISC_CFG_WEIGHT_REUSE, d.weight_reuse},
                              {CSC_D_MISC_CFG_SKIP_DATA_RLS, d.skip_data_rls},
                              {CSC_D_MISC_CFG_SKIP_WEIGHT_RLS, d.skip_weight_rls}});
  p.write(R::CSC_D_DATAIN_FORMAT, {{CSC_D_DATAIN_FORMAT_DATAIN_FORMAT, datainFormat}});
  p.write(R::CSC_D_DATAIN_SIZE_EXT_0,
          {{CSC_D_DATAIN_SIZE_EXT_0_DATAIN_WIDTH_EXT, d.input_width_csc - 1},
           {CSC_D_DATAIN_SIZE_EXT_0_DATAIN_HEIGHT_EXT, d.input_height_csc - 1}});
  p.write(R::CSC_D_DATAIN_SIZE_EXT_1,
          {{CSC_D_DATAIN_SIZE_EXT_1_DATAIN_CHANNEL_EXT, d.input_channel_csc - 1}});
  p.write(R::CSC_D_BATCH_NUMBER, {{CSC_D_BATCH_NUMBER_BATCHES, d.batch - 1}});
  p.write(R::CSC_D_POST_Y_EXTENSION, {{CSC_D_POST_Y_EXTENSION_Y_EXTENSION, d.post_extension}});
  p.write(R::CSC_D_ENTRY_PER_SLICE, {{CSC_D_ENTRY_PER_SLICE_ENTRIES, d.entry_per_slice - 1}});
  p.write(R::CSC_D_WEIGHT_FORMAT, {{CSC_D_WEIGHT_FORMAT_WEIGHT_FORMAT, d.weight_format}});
  p.write(R::CSC_D_WEIGHT_SIZE_EXT_0,
          {{CSC_D_WEIGHT_SIZE_EXT_0_WEIGHT_WIDTH_EXT, d.kernel_width_csc - 1},
           {CSC_D_WEIGHT_SIZE_EXT_0_WEIGHT_HEIGHT_EXT, d.kernel_height_csc - 1}});
  p.write(R::CSC_D_WEIGHT_SIZE_EXT_1,
          {{CSC_D_WEIGHT_SIZE_EXT_1_WEIGHT_CHANNEL_EXT, d.kernel_channel_csc - 1},
           {CSC_D_WEIGHT_SIZE_EXT_1_WEIGHT_KERNEL, out.channel - 1}});
  p.write(R::CSC_D_WEIGHT_BYTES, static_cast<uint32_t>(d.weight_data.size));
  p.write(R::CSC_D_WMB_BYTES, static_cast<uint32_t>(d.wmb_data.size));
  p.write(R::CSC_D_DATAOUT_SIZE_0,
          {{CSC_D_DATAOUT_SIZE_0_DATAOUT_WIDTH, d.input_width_cmac - 1},
           {CSC_D_DATAOUT_SIZE_0_DATAOUT_HEIGHT, d.input_height_cmac - 1}});
  p.write(R::CSC_D_DATAOUT_SIZE_1, {{CSC_D_DATAOUT_SIZE_1_DATAOUT_CHANNEL, out.channel - 1}});
  p.write(R::CSC_D_ATOMICS, {{CSC_D_ATOMICS_ATOMICS, int64_t(out.width) * out.height - 1}});
  p.write(R::CSC_D_RELEASE, {{CSC_D_RELEASE_RLS_SLICES, d.release - 1}});
  // Winograd programs neither stride nor padding here (conv.c).
  const bool direct = d.conv_mode == kDescConvDirect;
  p.write(R::CSC_D_CONV_STRIDE_EXT,
          {{CSC_D_CONV_STRIDE_EXT_CONV_X_STRIDE_EXT, direct ? d.conv_stride_x - 1 : 0},
           {CSC_D_CONV_STRIDE_EXT_CONV_Y_STRIDE_EXT, direct ? d.conv_stride_y - 1 : 0}});
  p.write(R::CSC_D_DILATION_EXT, {{CSC_D_DILATION_EXT_X_DILATION_EXT, d.dilation_x - 1},
                                  {CSC_D_DILATION_EXT_Y_DILATION_EXT, d.dilation_y - 1}});
  p.write(R::CSC_D_ZERO_PADDING, {{CSC_D_ZERO_PADDING_PAD_LEFT, direct ? d.pad_x_left : 0},
                                  {CSC_D_ZERO_PADDING_PAD_TOP, direct ? d.pad_y_top : 0}});
  p.write(R::CSC_D_ZERO_PADDING_VALUE, {{CSC_D_ZERO_PADDING_VALUE_PAD_VALUE, d.pad_val}});
  p.write(R::CSC_D_BANK, {{CSC_D_BANK_DATA_BANK, d.data_bank - 1},
                          {CSC_D_BANK_WEIGHT_BANK, d.weight_bank - 1}});
  p.write(R::CSC_D_PRA_CFG, {{CSC_D_PRA_CFG_PRA_TRUNCATE, d.pra_truncate}});
  // CDMA: input cube (or image) and weights into the buffer, the input
  // converter.
  p.write(R::CDMA_S_POINTER, 0);
  p.write(R::CDMA_D_MISC_CFG, {{CDMA_D_MISC_CFG_CONV_MODE, d.conv_mode},
                               {CDMA_D_MISC_CFG_IN_PRECISION, d.in_precision},
                               {CDMA_D_MISC_CFG_PROC_PRECISION, d.out_precision},
                               {CDMA_D_MISC_CFG_DATA_REUSE, d.data_reuse},
                               {CDMA_D_MISC_CFG_WEIGHT_REUSE, d.weight_reuse},
                               {CDMA_D_MISC_CFG_SKIP_DATA_RLS, d.skip_data_rls},
                               {CDMA_D_MISC_CFG_SKIP_WEIGHT_RLS, d.skip_weight_rls}});
  if (image)
    p.write(R::CDMA_D_DATAIN_FORMAT,
            {{CDMA_D_DATAIN_FORMAT_DATAIN_FORMAT, kDatainPixel},
             {CDMA_D_DATAIN_FORMAT_PIXEL_FORMAT, d.data_format},
             {CDMA_D_DATAIN_FORMAT_PIXEL_MAPPING, d.pixel_mapping},
             {CDMA_D_DATAIN_FORMAT_PIXEL_SIGN_OVERRIDE, d.pixel_override}});
  else
    p.write(R::CDMA_D_DATAIN_FORMAT, {{CDMA_D_DATAIN_FORMAT_DATAIN_FORMAT, kDatainFeature}});
  p.write(R::CDMA_D_DATAIN_SIZE_0, {{CDMA_D_DATAIN_SIZE_0_DATAIN_WIDTH, in.width - 1},
                                    {CDMA_D_DATAIN_SIZE_0_DATAIN_HEIGHT, in.height - 1}});
  p.write(R::CDMA_D_DATAIN_SIZE_1, {{CDMA_D_DATAIN_SIZE_1_DATAIN_CHANNEL, in.channel - 1}});
  p.write(R::CDMA_D_DATAIN_SIZE_EXT_0,
          {{CDMA_D_DATAIN_SIZE_EXT_0_DATAIN_WIDTH_EXT, d.input_width_csc - 1},
           {CDMA_D_DATAIN_SIZE_EXT_0_DATAIN_HEIGHT_EXT, d.input_height_csc - 1}});
  // The firmware leaves PIXEL_OFFSET at its reset value (NVIDIA's compiler
  // places every image at x = 0); an image at an x offset states it.
  if (image)
    p.write(R::CDMA_D_PIXEL_OFFSET, {{CDMA_D_PIXEL_OFFSET_PIXEL_X_OFFSET, d.ext.pixel_x_offset},
                                     {CDMA_D_PIXEL_OFFSET_PIXEL_Y_OFFSET, 0}});
  p.write(R::CDMA_D_DAIN_RAM_TYPE,
          {{CDMA_D_DAIN_RAM_TYPE_DATAIN_RAM_TYPE, ramTypeOf(d.src_data.type)}});
  const uint64_t input1 = input + static_cast<uint64_t>(d.offset_u);
  p.write(R::CDMA_D_DAIN_ADDR_HIGH_0, static_cast<uint32_t>(input >> 32));
  p.write(R::CDMA_D_DAIN_ADDR_LOW_0, static_cast<uint32_t>(input));
  p.write(R::CDMA_D_DAIN_ADDR_HIGH_1, static_cast<uint32_t>(input1 >> 32));
  p.write(R::CDMA_D_DAIN_ADDR_LOW_1, static_cast<uint32_t>(input1));
  p.write(R::CDMA_D_LINE_STRIDE, in.line_stride);
  p.write(R::CDMA_D_SURF_STRIDE, in.surf_stride);
  p.write(R::CDMA_D_LINE_UV_STRIDE, d.in_line_uv_stride);
  p.write(R::CDMA_D_DAIN_MAP,
          {{CDMA_D_DAIN_MAP_LINE_PACKED, in.line_stride == in.width * atom},
           {CDMA_D_DAIN_MAP_SURF_PACKED, in.surf_stride == in.width * in.height * atom}});
  p.write(R::CDMA_D_BATCH_NUMBER, {{CDMA_D_BATCH_NUMBER_BATCHES, d.batch - 1}});
  p.write(R::CDMA_D_BATCH_STRIDE, d.batch_stride);
  p.write(R::CDMA_D_ENTRY_PER_SLICE, {{CDMA_D_ENTRY_PER_SLICE_ENTRIES, d.entry_per_slice - 1}});
  p.write(R::CDMA_D_FETCH_GRAIN, {{CDMA_D_FETCH_GRAIN_GRAINS, d.fetch_grain - 1}});
  p.write(R::CDMA_D_WEIGHT_FORMAT, {{CDMA_D_WEIGHT_FORMAT_WEIGHT_FORMAT, d.weight_format}});
  p.write(R::CDMA_D_WEIGHT_SIZE_0,
          {{CDMA_D_WEIGHT_SIZE_0_BYTE_PER_KERNEL, int64_t(d.bytes_per_kernel) - 1}});
  p.write(R::CDMA_D_WEIGHT_SIZE_1, {{CDMA_D_WEIGHT_SIZE_1_WEIGHT_KERNEL, out.channel - 1}});
  p.write(R::CDMA_D_WEIGHT_RAM_TYPE, {{CDMA_D_WEIGHT_RAM_TYPE_WEIGHT_RAM_TYPE, kRamTypeMc}});
  p.write(R::CDMA_D_WEIGHT_ADDR_HIGH, static_cast<uint32_t>(weights >> 32));
  p.write(R::CDMA_D_WEIGHT_ADDR_LOW, static_cast<uint32_t>(weights));
  p.write(R::CDMA_D_WEIGHT_BYTES, static_cast<uint32_t>(d.weight_data.size));
  if (d.weight_format == kDescWeightCompressed) {
    const uint64_t wgs = addressOf(plan, d.wgs_data), wmb = addressOf(plan, d.wmb_data);
    p.write(R::CDMA_D_WGS_ADDR_HIGH, static_cast<uint32_t>(wgs >> 32));
    p.write(R::CDMA_D_WGS_ADDR_LOW, static_cast<uint32_t>(wgs));
    p.write(R::CDMA_D_WMB_ADDR_HIGH, static_cast<uint32_t>(wmb >> 32));
    p.write(R::CDMA_D_WMB_ADDR_LOW, static_cast<uint32_t>(wmb));
    p.write(R::CDMA_D_WMB_BYTES, static_cast<uint32_t>(d.wmb_data.size));
  }
  p.write(R::CDMA_D_MEAN_FORMAT, {{CDMA_D_MEAN_FORMAT_MEAN_FORMAT, d.mean_format}});
  if (d.mean_format) {
    p.write(R::CDMA_D_MEAN_GLOBAL_0, {{CDMA_D_MEAN_GLOBAL_0_MEAN_RY, d.mean_ry},
                                      {CDMA_D_MEAN_GLOBAL_0_MEAN_GU, d.mean_gu}});
    p.write(R::CDMA_D_MEAN_GLOBAL_1, {{CDMA_D_MEAN_GLOBAL_1_MEAN_BV, d.mean_bv},
                                      {CDMA_D_MEAN_GLOBAL_1_MEAN_AX, d.mean_ax}});
  }
  if (d.in_cvt.enable) {
    p.write(R::CDMA_D_CVT_CFG,
            {{CDMA_D_CVT_CFG_CVT_EN, 1}, {CDMA_D_CVT_CFG_CVT_TRUNCATE, d.in_cvt.truncate}});
    p.write(R::CDMA_D_CVT_OFFSET, {{CDMA_D_CVT_OFFSET_CVT_OFFSET, d.in_cvt.offset}});
    p.write(R::CDMA_D_CVT_SCALE, {{CDMA_D_CVT_SCALE_CVT_SCALE, d.in_cvt.scale}});
  } else {
    p.write(R::CDMA_D_CVT_CFG, {{CDMA_D_CVT_CFG_CVT_EN, 0}});
  }
  p.write(R::CDMA_D_CONV_STRIDE, {{CDMA_D_CONV_STRIDE_CONV_X_STRIDE, d.conv_stride_x - 1},
                                  {CDMA_D_CONV_STRIDE_CONV_Y_STRIDE, d.conv_stride_y - 1}});
  p.write(R::CDMA_D_ZERO_PADDING, {{CDMA_D_ZERO_PADDING_PAD_LEFT, d.pad_x_left},
                                   {CDMA_D_ZERO_PADDING_PAD_RIGHT, d.pad_x_right},
                                   {CDMA_D_ZERO_PADDING_PAD_TOP, d.pad_y_top},
                                   {CDMA_D_ZERO_PADDING_PAD_BOTTOM, d.pad_y_bottom}});
  p.write(R::CDMA_D_ZERO_PADDING_VALUE, {{CDMA_D_ZERO_PADDING_VALUE_PAD_VALUE, d.pad_val}});
  p.write(R::CDMA_D_BANK, {{CDMA_D_BANK_DATA_BANK, d.data_bank - 1},
                           {CDMA_D_BANK_WEIGHT_BANK, d.weight_bank - 1}});
  // The SDP on the fly, over the accumulator's cube.
  programSdpCore(plan, descs, sdp, p);
  const bool rdma = programSdpRdma(plan, sdp, p);
  p.write(R::SDP_D_OP_ENABLE, 1);
  if (rdma)
    p.write(R::SDP_RDMA_D_OP_ENABLE, 1);
  p.write(R::CACC_D_OP_ENABLE, 1);
  p.write(R::CMAC_A_D_OP_ENABLE, 1);
  p.write(R::CMAC_B_D_OP_ENABLE, 1);
  p.write(R::CSC_D_OP_ENABLE, 1);
  p.write(R::CDMA_D_OP_ENABLE, 1);
}
