//===- ConvProgram.cpp - dla.conv + on-the-fly dla.sdp as registers -------===//
//
// A direct convolution on int8 feature data, or an image convolution on
// int8 pixels, field by field as NVIDIA's firmware programs it
// (kmd/firmware/conv.c processor_conv_program) with the values NVIDIA's
// compiler computes (umd ConvolutionOp.cpp: whole input in CSC, release =
// input height, fetch grain 1, no reuse), the buffer's entries per slice and
// banks from planConvBuffer, then the SDP on the fly. Enabled consumer
// first: SDP, CACC, CMAC_A, CMAC_B, CSC, CDMA.
//
// Image input (ConvolutionOp.cpp's IMG case, ConvCoreNode.cpp's
// pre- / post-extension): CDMA reads the pixel planes pitch linear
// (PIXEL_FORMAT, PIXEL_X_OFFSET, line strides of the planes, no surface
// stride), converts each component (the converter always on: an absent
// input_cvt is the identity, which saturates unsigned pixels; MEAN_FORMAT
// and the four means from `mean`); CSC sees the pre-extended kernel
// (width 1, R rows of S * P channels, P the format's channels) and the
// weights' post-extension (POST_Y_EXTENSION = factor / 2).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaWeight.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

LogicalResult mlir::dla::regplan::programConv(Operation *o, Operation *sdp, const CubeAddress &in,
                                            const ImageAddress *image, uint64_t weightAddress,
                                            int64_t weightBytes, const CubeAddress &out,
                                            const SdpMemSurfaces &mem, LayerProgram &p) {
  auto op = cast<ConvOp>(o);
  // Direct or image mode; a bias operand became `sdp`'s
  // (splitConvolutionBiases).
  if (sdp && failed(checkSdpProgrammable(sdp, mem)))
    return failure();
  auto wType = cast<RankedTensorType>(op.getWeight().getType());
  ArrayRef<int64_t> w = wType.getShape(); // K C R S
  ArrayRef<int64_t> pad = op.getPadding(), stride = op.getStrides(), dil = op.getDilations();
  const int64_t k = w[0], c = w[1], r = w[2], s = w[3];

  std::optional<ConvBufferQuery> q = getConvBufferQuery(op, op.getMode());
  assert(q && "the translation checked: int8 encoded operands, static shapes");
  Attribute inEncoding = op.getInput().getType().getEncoding();
  const HardwareConfig &config = getHardwareConfig(
      image ? cast<PixelAttr>(inEncoding).getConfig() : cast<FeatureAttr>(inEncoding).getConfig());

  // What CSC reads of the kernel and the input (pre-extended for images).
  int64_t kernelW = s, kernelH = r, kernelC = c, inC = c, postExtension = 1, bytesPerKernel =
      c * r * s;
  const PixelFormatInfo *pixel = nullptr;
  if (image) {
    const PixelBoundLayout &layout = *image->layout;
    pixel = &layout.getInfo();
    // 16-bit and fp16 pixels the verifier refuses on int8-only
    // configurations (their input precision).
    if (dil[0] != 1 || dil[1] != 1)
      return op.emitOpError() << "dilates an image convolution by [" << dil[0] << ", " << dil[1]
                              << "]: NVDLA's image input reads the kernel's rows whole "
                                 "(NVIDIA's compiler: no dilation with image convolution)";
    auto weight = cast<WeightAttr>(wType.getEncoding());
    assert(weight.getChannels() == pixel->numChannels &&
           "the verifier checked: image weights for the image's channels");
    dlaformat::Expected<NvdlaWeightLayout> wl = NvdlaWeightLayout::create(weight.getParams(w));
    assert(wl && "weights the verifier accepted bind");
    // Semi-planar: the UV plane's DMA starts at the memory atom holding
    // pixel x and takes it within the next atom (cmod/cdma
    // ImageConvDataResponseSequencerCommon's planar1_pixel_idx).
    const int64_t atom = config.caps.memoryAtomBytes;
    const int64_t xOffset = layout.getConfig().xOffset;
    if (pixel->numPlanes == 2 && xOffset * pixel->bytesPerPixel[1] >= 2 * atom)
      return op.emitOpError() << "reads " << pixel->name << " from x offset " << xOffset
                              << ": its UV plane's first pixel lies "
                              << xOffset * pixel->bytesPerPixel[1] << " bytes into the line, "
                              << "NVDLA's image DMA takes it within two " << atom
                              << "-byte atoms of the plane's address";
    kernelW = 1;
    kernelC = s * pixel->numChannels;
    inC = pixel->numChannels;
    postExtension = wl->getPostExtensionFactor();
    bytesPerKernel = wl->getSurfaces().front().bytesPerKernel;
  } else if (op.getMode() != ConvMode::Direct) {
    return op.emitOpError() << "is a " << dlaformat::enumName(op.getMode())
                            << " convolution: only direct and image convolutions are "
                               "programmed yet";
  }

  dlaformat::Expected<ConvBufferPlan> plan = planConvBuffer(config, *q);
  if (!plan)
    return op.emitOpError() << "does not fit NVDLA " << config.name << ": " << plan.message();
  if (plan->mode == ConvBufferMode::PartialHeight)
    return op.emitOpError() << "needs " << plan->numParts
                            << " layers by input rows (its input does not fit the "
                               "convolution buffer beside its weights): not programmed yet";

  CvtAttr cvt = op.getInputCvtAttr();
  const int64_t padValue = op.getPadValue().value_or(0);
  const int64_t clip = op.getClipTruncate().value_or(0);
  const int64_t atom = config.caps.memoryAtomBytes;
  const int64_t surfaceStride = image ? 0 : in.surfaceStride; // IMGDesc::surfaceStride
  const bool linePacked = in.lineStride == in.width * atom;
  const bool surfPacked = surfaceStride == in.width * in.height * atom;
  const int64_t datainFormat = image ? kDatainPixel : kDatainFeature;

  // Every unit's done interrupt is awaited (as the firmware's handler
  // consumes them all): CDMA's two fetches, CACC's last accumulation, then
  // the SDP's last write, the layer's end.
  p.interrupts = {"CDMA_DAT", "CDMA_WT", "CACC", "SDP"};
  // CACC: the accumulator's output cube (to the SDP) and its clip.
  p.write(R::CACC_S_POINTER, 0);
  p.write(R::CACC_D_MISC_CFG, {{CACC_D_MISC_CFG_CONV_MODE, kConvDirect},
                               {CACC_D_MISC_CFG_PROC_PRECISION, kPrecisionInt8}});
  p.write(R::CACC_D_DATAOUT_SIZE_0, {{CACC_D_DATAOUT_SIZE_0_DATAOUT_WIDTH, out.width - 1},
                                     {CACC_D_DATAOUT_SIZE_0_DATAOUT_HEIGHT, out.height - 1}});
  p.write(R::CACC_D_DATAOUT_SIZE_1, {{CACC_D_DATAOUT_SIZE_1_DATAOUT_CHANNEL, out.channels - 1}});
  p.write(R::CACC_D_DATAOUT_ADDR, static_cast<uint32_t>(out.address));
  p.write(R::CACC_D_BATCH_NUMBER, {{CACC_D_BATCH_NUMBER_BATCHES, 0}});
  p.write(R::CACC_D_LINE_STRIDE, out.lineStride);
  p.write(R::CACC_D_SURF_STRIDE, out.surfaceStride);
  bool onePixel = out.width == 1 && out.height == 1;
  p.write(R::CACC_D_DATAOUT_MAP, {{CACC_D_DATAOUT_MAP_LINE_PACKED, onePixel},
                                  {CACC_D_DATAOUT_MAP_SURF_PACKED, onePixel}});
  p.write(R::CACC_D_CLIP_CFG, {{CACC_D_CLIP_CFG_CLIP_TRUNCATE, clip}});
  // CMAC.
  for (auto [ptr, misc, mode, prec] :
       {std::tuple{R::CMAC_A_S_POINTER, R::CMAC_A_D_MISC_CFG, CMAC_A_D_MISC_CFG_CONV_MODE,
                   CMAC_A_D_MISC_CFG_PROC_PRECISION},
        std::tuple{R::CMAC_B_S_POINTER, R::CMAC_B_D_MISC_CFG, CMAC_B_D_MISC_CFG_CONV_MODE,
                   CMAC_B_D_MISC_CFG_PROC_PRECISION}}) {
    p.write(ptr, 0);
    p.write(misc, {{mode, kConvDirect}, {prec, kPrecisionInt8}});
  }
  // CSC: the sequence of atomic operations over the buffer.
  p.write(R::CSC_S_POINTER, 0);
  p.write(R::CSC_D_MISC_CFG, {{CSC_D_MISC_CFG_CONV_MODE, kConvDirect},
                              {CSC_D_MISC_CFG_IN_PRECISION, kPrecisionInt8},
                              {CSC_D_MISC_CFG_PROC_PRECISION, kPrecisionInt8}});
  p.write(R::CSC_D_DATAIN_FORMAT, {{CSC_D_DATAIN_FORMAT_DATAIN_FORMAT, datainFormat}});
  p.write(R::CSC_D_DATAIN_SIZE_EXT_0, {{CSC_D_DATAIN_SIZE_EXT_0_DATAIN_WIDTH_EXT, in.width - 1},
                                       {CSC_D_DATAIN_SIZE_EXT_0_DATAIN_HEIGHT_EXT, in.height - 1}});
  p.write(R::CSC_D_DATAIN_SIZE_EXT_1, {{CSC_D_DATAIN_SIZE_EXT_1_DATAIN_CHANNEL_EXT, inC - 1}});
  p.write(R::CSC_D_BATCH_NUMBER, {{CSC_D_BATCH_NUMBER_BATCHES, 0}});
  p.write(R::CSC_D_POST_Y_EXTENSION, {{CSC_D_POST_Y_EXTENSION_Y_EXTENSION, postExtension / 2}});
  p.write(R::CSC_D_ENTRY_PER_SLICE, {{CSC_D_ENTRY_PER_SLICE_ENTRIES, plan->entriesPerLine - 1}});
  p.write(R::CSC_D_WEIGHT_FORMAT, {{CSC_D_WEIGHT_FORMAT_WEIGHT_FORMAT, 0}});
  p.write(R::CSC_D_WEIGHT_SIZE_EXT_0, {{CSC_D_WEIGHT_SIZE_EXT_0_WEIGHT_WIDTH_EXT, kernelW - 1},
                                       {CSC_D_WEIGHT_SIZE_EXT_0_WEIGHT_HEIGHT_EXT, kernelH - 1}});
  p.write(R::CSC_D_WEIGHT_SIZE_EXT_1, {{CSC_D_WEIGHT_SIZE_EXT_1_WEIGHT_CHANNEL_EXT, kernelC - 1},
                                       {CSC_D_WEIGHT_SIZE_EXT_1_WEIGHT_KERNEL, k - 1}});
  p.write(R::CSC_D_WEIGHT_BYTES, static_cast<uint32_t>(weightBytes));
  p.write(R::CSC_D_WMB_BYTES, 0);
  p.write(R::CSC_D_DATAOUT_SIZE_0, {{CSC_D_DATAOUT_SIZE_0_DATAOUT_WIDTH, out.width - 1},
                                    {CSC_D_DATAOUT_SIZE_0_DATAOUT_HEIGHT, out.height - 1}});
  p.write(R::CSC_D_DATAOUT_SIZE_1, {{CSC_D_DATAOUT_SIZE_1_DATAOUT_CHANNEL, k - 1}});
  p.write(R::CSC_D_ATOMICS, {{CSC_D_ATOMICS_ATOMICS, out.width * out.height - 1}});
  p.write(R::CSC_D_RELEASE, {{CSC_D_RELEASE_RLS_SLICES, in.height - 1}});
  p.write(R::CSC_D_CONV_STRIDE_EXT, {{CSC_D_CONV_STRIDE_EXT_CONV_X_STRIDE_EXT, stride[1] - 1},
                                     {CSC_D_CONV_STRIDE_EXT_CONV_Y_STRIDE_EXT, stride[0] - 1}});
  p.write(R::CSC_D_DILATION_EXT, {{CSC_D_DILATION_EXT_X_DILATION_EXT, dil[1] - 1},
                                  {CSC_D_DILATION_EXT_Y_DILATION_EXT, dil[0] - 1}});
  p.write(R::CSC_D_ZERO_PADDING, {{CSC_D_ZERO_PADDING_PAD_LEFT, pad[2]},
                                  {CSC_D_ZERO_PADDING_PAD_TOP, pad[0]}});
  p.write(R::CSC_D_ZERO_PADDING_VALUE, {{CSC_D_ZERO_PADDING_VALUE_PAD_VALUE, padValue}});
  p.write(R::CSC_D_BANK, {{CSC_D_BANK_DATA_BANK, plan->dataBanks - 1},
                          {CSC_D_BANK_WEIGHT_BANK, plan->allottedWeightBanks - 1}});
  p.write(R::CSC_D_PRA_CFG, {{CSC_D_PRA_CFG_PRA_TRUNCATE, 0}});
  // CDMA: input cube (or image) and weights into the buffer, the input
  // converter.
  p.write(R::CDMA_S_POINTER, 0);
  p.write(R::CDMA_D_MISC_CFG, {{CDMA_D_MISC_CFG_CONV_MODE, kConvDirect},
                               {CDMA_D_MISC_CFG_IN_PRECISION, kPrecisionInt8},
                               {CDMA_D_MISC_CFG_PROC_PRECISION, kPrecisionInt8}});
  if (image) {
    // The element type's signedness: signed pixels override the format's.
    auto elt = cast<IntegerType>(op.getInput().getType().getElementType());
    p.write(R::CDMA_D_DATAIN_FORMAT,
            {{CDMA_D_DATAIN_FORMAT_DATAIN_FORMAT, kDatainPixel},
             {CDMA_D_DATAIN_FORMAT_PIXEL_FORMAT, static_cast<int64_t>(pixel->format)},
             {CDMA_D_DATAIN_FORMAT_PIXEL_MAPPING, kPixelPitchLinear},
             {CDMA_D_DATAIN_FORMAT_PIXEL_SIGN_OVERRIDE, !elt.isUnsigned()}});
  } else {
    p.write(R::CDMA_D_DATAIN_FORMAT, {{CDMA_D_DATAIN_FORMAT_DATAIN_FORMAT, kDatainFeature}});
  }
  p.write(R::CDMA_D_DATAIN_SIZE_0, {{CDMA_D_DATAIN_SIZE_0_DATAIN_WIDTH, in.width - 1},
                                    {CDMA_D_DATAIN_SIZE_0_DATAIN_HEIGHT, in.height - 1}});
  p.write(R::CDMA_D_DATAIN_SIZE_1, {{CDMA_D_DATAIN_SIZE_1_DATAIN_CHANNEL, in.channels - 1}});
  p.write(R::CDMA_D_DATAIN_SIZE_EXT_0, {{CDMA_D_DATAIN_SIZE_EXT_0_DATAIN_WIDTH_EXT, in.width - 1},
                                        {CDMA_D_DATAIN_SIZE_EXT_0_DATAIN_HEIGHT_EXT, in.height - 1}});
  // The firmware leaves PIXEL_OFFSET at its reset value (NVIDIA's compiler
  // places every image at x = 0); an image at an x offset states it.
  if (image)
    p.write(R::CDMA_D_PIXEL_OFFSET,
            {{CDMA_D_PIXEL_OFFSET_PIXEL_X_OFFSET, image->layout->getConfig().xOffset},
             {CDMA_D_PIXEL_OFFSET_PIXEL_Y_OFFSET, 0}});
  p.write(R::CDMA_D_DAIN_RAM_TYPE, {{CDMA_D_DAIN_RAM_TYPE_DATAIN_RAM_TYPE, kRamTypeMc}});
  // Plane 1: a semi-planar image's UV plane from the memory atom holding
  // pixel x (the plane's own x offset is the remainder); otherwise plane 0
  // again, as the firmware writes it.
  uint64_t address1 = in.address;
  int64_t uvLineStride = 0;
  if (image && pixel->numPlanes == 2) {
    const int64_t xBytes = image->layout->getConfig().xOffset * pixel->bytesPerPixel[1];
    address1 = in.address + image->layout->getPlaneOffset(1) + xBytes / atom * atom;
    uvLineStride = image->layout->getLineStride(1);
  }
  p.write(R::CDMA_D_DAIN_ADDR_HIGH_0, static_cast<uint32_t>(in.address >> 32));
  p.write(R::CDMA_D_DAIN_ADDR_LOW_0, static_cast<uint32_t>(in.address));
  p.write(R::CDMA_D_DAIN_ADDR_HIGH_1, static_cast<uint32_t>(address1 >> 32));
  p.write(R::CDMA_D_DAIN_ADDR_LOW_1, static_cast<uint32_t>(address1));
  p.write(R::CDMA_D_LINE_STRIDE, in.lineStride);
  p.write(R::CDMA_D_SURF_STRIDE, surfaceStride);
  p.write(R::CDMA_D_LINE_UV_STRIDE, uvLineStride);
  p.write(R::CDMA_D_DAIN_MAP, {{CDMA_D_DAIN_MAP_LINE_PACKED, linePacked},
                               {CDMA_D_DAIN_MAP_SURF_PACKED, surfPacked}});
  p.write(R::CDMA_D_BATCH_NUMBER, {{CDMA_D_BATCH_NUMBER_BATCHES, 0}});
  p.write(R::CDMA_D_BATCH_STRIDE, 0);
  p.write(R::CDMA_D_ENTRY_PER_SLICE, {{CDMA_D_ENTRY_PER_SLICE_ENTRIES, plan->entriesPerLine - 1}});
  p.write(R::CDMA_D_FETCH_GRAIN, {{CDMA_D_FETCH_GRAIN_GRAINS, 0}});
  p.write(R::CDMA_D_WEIGHT_FORMAT, {{CDMA_D_WEIGHT_FORMAT_WEIGHT_FORMAT, 0}});
  p.write(R::CDMA_D_WEIGHT_SIZE_0, {{CDMA_D_WEIGHT_SIZE_0_BYTE_PER_KERNEL, bytesPerKernel - 1}});
  p.write(R::CDMA_D_WEIGHT_SIZE_1, {{CDMA_D_WEIGHT_SIZE_1_WEIGHT_KERNEL, k - 1}});
  p.write(R::CDMA_D_WEIGHT_RAM_TYPE, {{CDMA_D_WEIGHT_RAM_TYPE_WEIGHT_RAM_TYPE, kRamTypeMc}});
  p.write(R::CDMA_D_WEIGHT_ADDR_HIGH, static_cast<uint32_t>(weightAddress >> 32));
  p.write(R::CDMA_D_WEIGHT_ADDR_LOW, static_cast<uint32_t>(weightAddress));
  p.write(R::CDMA_D_WEIGHT_BYTES, static_cast<uint32_t>(weightBytes));
  std::optional<ArrayRef<int64_t>> mean = op.getMean();
  p.write(R::CDMA_D_MEAN_FORMAT, {{CDMA_D_MEAN_FORMAT_MEAN_FORMAT, mean.has_value()}});
  if (mean) {
    p.write(R::CDMA_D_MEAN_GLOBAL_0, {{CDMA_D_MEAN_GLOBAL_0_MEAN_RY, (*mean)[0]},
                                      {CDMA_D_MEAN_GLOBAL_0_MEAN_GU, (*mean)[1]}});
    p.write(R::CDMA_D_MEAN_GLOBAL_1, {{CDMA_D_MEAN_GLOBAL_1_MEAN_BV, (*mean)[2]},
                                      {CDMA_D_MEAN_GLOBAL_1_MEAN_AX, (*mean)[3]}});
  }
  if (cvt || image) {
    // An image's absent converter is the identity, on: pixels convert to
    // the pipeline's int8 (unsigned ones saturate), where CVT_EN = 0 would
    // pass their bits unchanged (cmod/cdma process_one_element_8).
    p.write(R::CDMA_D_CVT_CFG, {{CDMA_D_CVT_CFG_CVT_EN, 1},
                                {CDMA_D_CVT_CFG_CVT_TRUNCATE, cvt ? cvt.getShift() : 0}});
    p.write(R::CDMA_D_CVT_OFFSET, {{CDMA_D_CVT_OFFSET_CVT_OFFSET, cvt ? cvt.getOffset() : 0}});
    p.write(R::CDMA_D_CVT_SCALE, {{CDMA_D_CVT_SCALE_CVT_SCALE, cvt ? cvt.getScale() : 1}});
  } else {
    // Signed int8 feature data into the int8 pipeline: the identity.
    p.write(R::CDMA_D_CVT_CFG, {{CDMA_D_CVT_CFG_CVT_EN, 0}});
  }
  p.write(R::CDMA_D_CONV_STRIDE, {{CDMA_D_CONV_STRIDE_CONV_X_STRIDE, stride[1] - 1},
                                  {CDMA_D_CONV_STRIDE_CONV_Y_STRIDE, stride[0] - 1}});
  p.write(R::CDMA_D_ZERO_PADDING, {{CDMA_D_ZERO_PADDING_PAD_LEFT, pad[2]},
                                   {CDMA_D_ZERO_PADDING_PAD_RIGHT, pad[3]},
                                   {CDMA_D_ZERO_PADDING_PAD_TOP, pad[0]},
                                   {CDMA_D_ZERO_PADDING_PAD_BOTTOM, pad[1]}});
  p.write(R::CDMA_D_ZERO_PADDING_VALUE, {{CDMA_D_ZERO_PADDING_VALUE_PAD_VALUE, padValue}});
  p.write(R::CDMA_D_BANK, {{CDMA_D_BANK_DATA_BANK, plan->dataBanks - 1},
                           {CDMA_D_BANK_WEIGHT_BANK, plan->allottedWeightBanks - 1}});
  // The SDP on the fly, over the accumulator's cube.
  programSdpCore(sdp, /*onTheFly=*/true, out, out, p);
  const bool rdma = sdp && programSdpRdmaOnTheFly(sdp, out, mem, p);
  p.write(R::SDP_D_OP_ENABLE, 1);
  if (rdma)
    p.write(R::SDP_RDMA_D_OP_ENABLE, 1);
  p.write(R::CACC_D_OP_ENABLE, 1);
  p.write(R::CMAC_A_D_OP_ENABLE, 1);
  p.write(R::CMAC_B_D_OP_ENABLE, 1);
  p.write(R::CSC_D_OP_ENABLE, 1);
  p.write(R::CDMA_D_OP_ENABLE, 1);
  return success();
}
