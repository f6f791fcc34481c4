//===- DescribeConv.cpp - dla.conv as the firmware's conv descriptors -----===//
//
// A direct convolution on int8 feature data, or an image convolution on
// int8 pixels, with the values NVIDIA's compiler computes (umd
// ConvolutionOp.cpp: whole input in CSC, release = input height, fetch
// grain 1) and the buffer's entries per slice and banks from
// planConvBuffer. A convolution cut into bands whose weights all stay in
// the buffer loads them once (ConvCoreNode.cpp's split convolutions): the
// first band keeps them (skip_weight_rls), the others reuse them
// (weight_reuse), every band with the same banks, as CDMA and CSC require
// to reuse.
//
// Image input (ConvolutionOp.cpp's IMG case, ConvCoreNode.cpp's
// pre- / post-extension): CDMA reads the pixel planes pitch linear (no
// surface stride), converts each component (the converter always on: an
// absent input_cvt is the identity, which saturates unsigned pixels);
// CSC sees the pre-extended kernel (width 1, R rows of S * P channels, P
// the format's channels) and the weights' post-extension.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaWeight.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;

DescDataCube mlir::dla::regplan::describeCube(const NetworkPlan &plan, Value v, DescMemType type) {
  CubeAddress c = plan.cube(v);
  DescDataCube cube;
  cube.type = type == DescMemType::Hw ? type : plan.memoryOf(v);
  cube.surface = static_cast<int32_t>(plan.surfaceOf.at(v));
  // A channel view: its parent's placement from the view's offset on.
  cube.offset = static_cast<uint64_t>(plan.surface(v).viewOffset);
  cube.size = static_cast<uint64_t>(plan.placed(v).bytes) - cube.offset;
  cube.width = static_cast<uint32_t>(c.width);
  cube.height = static_cast<uint32_t>(c.height);
  cube.channel = static_cast<uint32_t>(c.channels);
  cube.line_stride = static_cast<uint32_t>(c.lineStride);
  cube.surf_stride = static_cast<uint32_t>(c.surfaceStride);
  return cube;
}

static DescCvt cvtOf(CvtAttr cvt) {
  DescCvt d;
  d.enable = 1;
  d.scale = cvt ? cvt.getScale() : 1;
  d.truncate = cvt ? cvt.getShift() : 0;
  d.offset = cvt ? cvt.getOffset() : 0;
  return d;
}

/// The convolution of `layer` whole, and the bands of output rows (and
/// columns) its hardware layers take (0: one layer; whole rows).
static LogicalResult describeWhole(const NetworkPlan &plan, const HardwareLayer &layer,
                                   ConvDesc &d, int64_t &rowsPerPart, int64_t &colsPerPart,
                                   bool &weightsStay, ConvBufferQuery &query,
                                   const HardwareConfig *&bandConfig) {
  auto op = cast<ConvOp>(layer.op);
  const Surface &input = plan.surface(op.getInput());
  const auto *pixelLayout = static_cast<const PixelBoundLayout *>(input.pixel.get());
  const bool image = pixelLayout != nullptr;
  auto wType = cast<RankedTensorType>(op.getWeight().getType());
  ArrayRef<int64_t> w = wType.getShape(); // K C R S
  ArrayRef<int64_t> pad = op.getPadding(), stride = op.getStrides(), dil = op.getDilations();
  const int64_t c = w[1], r = w[2], s = w[3];

  std::optional<ConvBufferQuery> q = getConvBufferQuery(op, op.getMode());
  assert(q && "the translation checked: int8 encoded operands, static shapes");
  Attribute inEncoding = op.getInput().getType().getEncoding();
  const HardwareConfig &config = getHardwareConfig(
      image ? cast<PixelAttr>(inEncoding).getConfig() : cast<FeatureAttr>(inEncoding).getConfig());
  const int64_t atom = config.caps.memoryAtomBytes;

  d.src_data = describeCube(plan, op.getInput());
  d.weight_data.type = DescMemType::Mc;
  d.weight_data.surface = static_cast<int32_t>(plan.surfaceOf.at(op.getWeight()));
  d.weight_data.size = static_cast<uint64_t>(plan.placed(op.getWeight()).bytes);
  // Compressed weights: the three parts of their surface (NetworkPlan).
  if (const Surface &w = plan.surface(op.getWeight()); w.compressed()) {
    d.weight_format = kDescWeightCompressed;
    for (auto [cube, part] : {std::pair{&d.weight_data, &w.data}, std::pair{&d.wmb_data, &w.wmb},
                              std::pair{&d.wgs_data, &w.wgs}}) {
      cube->type = DescMemType::Mc;
      cube->surface = d.weight_data.surface;
      cube->offset = static_cast<uint64_t>(part->offset);
      cube->size = static_cast<uint64_t>(part->bytes);
    }
  }
  // The convolution's result goes to the SDP on the fly; its cube is the
  // accumulator's output (CACC's registers), in the layer's result shape.
  d.dst_data = describeCube(plan, layer.result(), DescMemType::Hw);

  // What CSC reads of the kernel and the input (pre-extended for images).
  int64_t kernelW = s, kernelC = c, inC = c, postExtension = 1,
          bytesPerKernel = c * r * s * getBytesPerElement(cast<WeightAttr>(wType.getEncoding()).getPrecision());
  if (image) {
    const PixelFormatInfo &pixel = pixelLayout->getInfo();
    // 16-bit and fp16 pixels the verifier refuses on int8-only
    // configurations (their input precision).
    if (dil[0] != 1 || dil[1] != 1)
      return op.emitOpError() << "dilates an image convolution by [" << dil[0] << ", " << dil[1]
                              << "]: NVDLA's image input reads the kernel's rows whole "
                                 "(NVIDIA's compiler: no dilation with image convolution)";
    auto weight = cast<WeightAttr>(wType.getEncoding());
    assert(weight.getChannels() == pixel.numChannels &&
           "the verifier checked: image weights for the image's channels");
    dlaformat::Expected<NvdlaWeightLayout> wl = NvdlaWeightLayout::create(weight.getParams(w));
    assert(wl && "weights the verifier accepted bind");
    // Semi-planar: the UV plane's DMA starts at the memory atom holding
    // pixel x and takes it within the next atom (cmod/cdma
    // ImageConvDataResponseSequencerCommon's planar1_pixel_idx).
    const int64_t xOffset = pixelLayout->getConfig().xOffset;
    if (pixel.numPlanes == 2 && xOffset * pixel.bytesPerPixel[1] >= 2 * atom)
      return op.emitOpError() << "reads " << pixel.name << " from x offset " << xOffset
                              << ": its UV plane's first pixel lies "
                              << xOffset * pixel.bytesPerPixel[1] << " bytes into the line, "
                              << "NVDLA's image DMA takes it within two " << atom
                              << "-byte atoms of the plane's address";
    kernelW = 1;
    kernelC = s * pixel.numChannels;
    inC = pixel.numChannels;
    postExtension = wl->getPostExtensionFactor();
    bytesPerKernel = wl->getSurfaces().front().bytesPerKernel;
    d.data_format = static_cast<uint8_t>(pixel.format);
    // The element type's signedness: signed pixels override the format's.
    // fp16 pixels have none to override (CDMA reads them as fp16 whatever
    // PIXEL_SIGN_OVERRIDE says: process_one_element_16).
    auto pixelInt = dyn_cast<IntegerType>(op.getInput().getType().getElementType());
    d.pixel_override = pixelInt && !pixelInt.isUnsigned();
    d.src_data.surf_stride = 0; // IMGDesc::surfaceStride
    if (pixel.numPlanes == 2) {
      const int64_t xBytes = xOffset * pixel.bytesPerPixel[1];
      d.offset_u = pixelLayout->getPlaneOffset(1) + xBytes / atom * atom;
      d.in_line_uv_stride = static_cast<uint32_t>(pixelLayout->getLineStride(1));
    }
    d.ext.pixel_x_offset = static_cast<uint16_t>(xOffset);
  } else if (op.getMode() == ConvMode::Winograd && failed(checkWinogradConv(op))) {
    return failure();
  }

  // A batch in NVDLA's batch mode runs as one layer (runsInBatchMode): all
  // its inputs in the buffer; else this describes one input's operation.
  const int64_t batches = runsInBatchMode(layer) ? batchInputs(layer) : 1;
  q->batches = batches;
  if (q->compressedWeights)
    if (std::string why = whyNotCompressedMask(config, *q); !why.empty())
      return op.emitOpError() << "reads compressed weights: " << why;
  dlaformat::Expected<ConvBufferPlan> buffer = planConvBuffer(config, *q);
  if (!buffer)
    return op.emitOpError() << "does not fit NVDLA " << config.name << ": " << buffer.message();
  // Bands of output rows: the ones --dla-split-convolutions recorded (for
  // a buffer it may have been told is smaller), else the buffer's own;
  // columns: the buffer's own (where one row's window does not fit beside
  // a kernel group, NvdlaConvBuffer.h's partial width), with the rows the
  // pass recorded for them.
  rowsPerPart = colsPerPart = 0;
  weightsStay = buffer->allottedWeightBanks == buffer->weightBanks;
  if (buffer->mode == ConvBufferMode::PartialHeight) {
    rowsPerPart = buffer->outputRowsPerPart;
    colsPerPart = buffer->outputColsPerPart;
  }
  if (std::optional<int64_t> recorded = op.getRowsPerPart())
    rowsPerPart = rowsPerPart ? std::min(rowsPerPart, *recorded) : *recorded;
  assert(!(rowsPerPart && q->batches > 1) && "runsInBatchMode: a batch whole in the buffer");
  if (rowsPerPart && image)
    return op.emitOpError() << "runs by bands of " << rowsPerPart
                            << " output rows (its image does not fit the convolution buffer "
                               "beside its weights, or rows_per_part says so): bands of an "
                               "image convolution are not programmed yet";
  query = *q;
  bandConfig = &config;

  d.conv_mode = kDescConvDirect;
  // The input's precision (int8; int16 and fp16 on nv_full: NetworkPlan's
  // featureLayout and checkFp16Layer), the pipeline's too: no converter
  // between feature precisions is programmed.
  // Image input: the pixels' precision (8- or 16-bit components: CDMA's
  // convert_8to16 / convert_16to8 and its element size follow it) into
  // the weights' pipeline, int8 or fp16 (CDMA's converter writes fp16).
  d.in_precision = d.out_precision =
      image ? describePrecision(pixelLayout->getInfo().inputPrecision)
            : describePrecision(cast<FeatureAttr>(inEncoding).getPrecision());
  if (image)
    d.out_precision = describePrecision(cast<WeightAttr>(wType.getEncoding()).getPrecision());
  d.entry_per_slice = static_cast<uint16_t>(buffer->entriesPerLine);
  d.fetch_grain = 1;
  // A batch in batch mode: CDMA reads input b at b batch strides; CSC
  // releases every input's rows at the end.
  d.batch = static_cast<uint8_t>(batches);
  if (!image)
    d.batch_stride = static_cast<uint32_t>(input.feature->getBatchStride());
  d.data_bank = static_cast<uint8_t>(buffer->dataBanks);
  d.weight_bank = static_cast<uint8_t>(buffer->allottedWeightBanks);
  d.post_extension = static_cast<uint8_t>(postExtension / 2);
  d.release = static_cast<uint16_t>(d.src_data.height * d.batch);
  d.input_width_csc = static_cast<uint16_t>(d.src_data.width);
  d.input_height_csc = static_cast<uint16_t>(d.src_data.height);
  d.input_channel_csc = static_cast<uint16_t>(inC);
  d.kernel_width_csc = static_cast<uint16_t>(kernelW);
  d.kernel_height_csc = static_cast<uint16_t>(r);
  d.kernel_channel_csc = static_cast<uint16_t>(kernelC);
  d.input_width_cmac = static_cast<uint16_t>(d.dst_data.width);
  d.input_height_cmac = static_cast<uint16_t>(d.dst_data.height);
  d.bytes_per_kernel = static_cast<uint32_t>(bytesPerKernel);
  assert(d.dst_data.channel == static_cast<uint32_t>(w[0]) && "one output channel per kernel");
  if (std::optional<ArrayRef<int64_t>> mean = op.getMean()) {
    d.mean_format = 1;
    d.mean_ry = static_cast<int16_t>((*mean)[0]);
    d.mean_gu = static_cast<int16_t>((*mean)[1]);
    d.mean_bv = static_cast<int16_t>((*mean)[2]);
    d.mean_ax = static_cast<int16_t>((*mean)[3]);
  }
  d.conv_stride_x = static_cast<uint8_t>(stride[1]);
  d.conv_stride_y = static_cast<uint8_t>(stride[0]);
  d.pad_y_top = static_cast<uint8_t>(pad[0]);
  d.pad_y_bottom = static_cast<uint8_t>(pad[1]);
  d.pad_x_left = static_cast<uint8_t>(pad[2]);
  d.pad_x_right = static_cast<uint8_t>(pad[3]);
  d.dilation_x = static_cast<uint8_t>(dil[1]);
  d.dilation_y = static_cast<uint8_t>(dil[0]);
  d.pad_val = static_cast<int16_t>(op.getPadValue().value_or(0));
  // An image's absent converter is the identity, on: pixels convert to the
  // pipeline's int8 (unsigned ones saturate), where CVT_EN = 0 would pass
  // their bits unchanged (cmod/cdma process_one_element_8). Signed int8
  // feature data into the int8 pipeline needs none. fp16 pixels: CVT_EN
  // off, as NVIDIA's model says for fp16 ("If FP16, cvt_en should be
  // false", NV_NVDLA_cdma.cpp); at IN_PRECISION fp16 the converter passes
  // them unchanged either way (cdma_cvt.cpp), and they take no mean or
  // input_cvt (the verifier).
  CvtAttr cvt = op.getInputCvtAttr();
  const bool fp16Pixels =
      image && pixelLayout->getInfo().inputPrecision == dlaformat::nvdla::Precision::Fp16;
  if (cvt || (image && !fp16Pixels))
    d.in_cvt = cvtOf(cvt);
  // The firmware takes CACC's clip from out_cvt.truncate (scale 1, offset 0).
  d.out_cvt = DescCvt{1, static_cast<uint8_t>(op.getClipTruncate().value_or(0)), 0, 0};
  if (op.getMode() == ConvMode::Winograd)
    describeWinograd(op, d);
  return success();
}

/// Output rows [o0, o1) and columns [x0, x1) of the whole convolution `d`
/// and its SDP `sdp` as one hardware layer: the input rows and columns
/// their windows cover (padding only at the edges, getConvRowBand /
/// getConvColBand), the output at its offsets in the same buffers (a
/// column at x times the memory atom into each line).
static void describeBand(const ConvDesc &whole, const SdpDesc &wholeSdp, int64_t o0, int64_t o1,
                         int64_t x0, int64_t x1, const ConvBufferQuery &q,
                         const HardwareConfig &config, ConvDesc &d, SdpDesc &sdp) {
  d = whole;
  sdp = wholeSdp;
  const ConvRowBand band = getConvRowBand(q, o0, o1);
  const ConvColBand cols = getConvColBand(q, x0, x1);
  const uint64_t atom = static_cast<uint64_t>(config.caps.memoryAtomBytes);
  const uint32_t rows = static_cast<uint32_t>(band.rows()), outRows = static_cast<uint32_t>(o1 - o0);
  const uint32_t inCols = static_cast<uint32_t>(cols.cols()), outCols = static_cast<uint32_t>(x1 - x0);
  // On top of a channel view's own offset (describeCube).
  const uint64_t srcOffset = static_cast<uint64_t>(band.first) * whole.src_data.line_stride +
                             static_cast<uint64_t>(cols.first) * atom;
  d.src_data.offset += srcOffset;
  d.src_data.size = whole.src_data.size - srcOffset;
  d.src_data.height = rows;
  d.src_data.width = inCols;
  d.pad_y_top = static_cast<uint8_t>(band.padTop);
  d.pad_y_bottom = static_cast<uint8_t>(band.padBottom);
  d.pad_x_left = static_cast<uint8_t>(cols.padLeft);
  d.pad_x_right = static_cast<uint8_t>(cols.padRight);
  d.input_height_csc = static_cast<uint16_t>(rows);
  d.input_width_csc = static_cast<uint16_t>(inCols);
  d.release = static_cast<uint16_t>(rows);
  // The part's entries a line (the whole plan's may be another part's).
  d.entry_per_slice = static_cast<uint16_t>(getConvEntriesPerLine(config, q, inCols));
  d.data_bank = static_cast<uint8_t>(getConvDataBanks(config, d.entry_per_slice, rows));
  d.input_height_cmac = static_cast<uint16_t>(outRows);
  d.input_width_cmac = static_cast<uint16_t>(outCols);
  // The part's place in the result, and in its per-element operands.
  auto partOf = [&](DescDataCube &cube) {
    const uint64_t offset =
        static_cast<uint64_t>(o0) * cube.line_stride + static_cast<uint64_t>(x0) * atom;
    cube.offset += offset;
    cube.size -= offset;
    cube.height = outRows;
    cube.width = outCols;
  };
  partOf(d.dst_data);
  partOf(sdp.src_data);
  partOf(sdp.dst_data);
  for (auto [stage, data] : {std::pair{&sdp.x1_op, &sdp.x1_data}, {&sdp.x2_op, &sdp.x2_data},
                             {&sdp.y_op, &sdp.y_data}})
    if (stage->enable && stage->mode == kDescSdpPerPoint)
      partOf(*data);
}

/// The bands `ops` (convolution, SDP, convolution, ...) of one convolution
/// whose weights all fit their banks: loaded by the first band, kept to the
/// last. CDMA reuses only when the banks are those of the band before
/// (cmod/cdma NV_NVDLA_cdma.cpp WeightReadRequestSequenceThread), so every
/// band takes the most data banks any takes.
static void reuseWeights(std::vector<DescOp> &ops) {
  uint8_t dataBanks = 0;
  for (const DescOp &op : ops)
    if (op.type == DescOpType::Conv)
      dataBanks = std::max(dataBanks, op.conv.data_bank);
  for (size_t i = 0; i < ops.size(); i += 2) {
    ConvDesc &d = ops[i].conv;
    d.data_bank = dataBanks;
    d.weight_reuse = i > 0;
    d.skip_weight_rls = i + 2 < ops.size();
  }
}

LogicalResult mlir::dla::regplan::describeConvLayer(const NetworkPlan &plan,
                                                  const HardwareLayer &layer,
                                                  std::vector<DescLut> &luts,
                                                  std::vector<DescOp> &ops) {
  DescOp conv, sdp;
  conv.type = DescOpType::Conv;
  sdp.type = DescOpType::Sdp;
  int64_t rowsPerPart = 0, colsPerPart = 0;
  bool weightsStay = false;
  ConvBufferQuery query;
  const HardwareConfig *config = nullptr;
  if (failed(describeWhole(plan, layer, conv.conv, rowsPerPart, colsPerPart, weightsStay, query,
                           config)) ||
      failed(describeSdp(plan, layer.fused, /*onTheFly=*/true, layer.op->getResult(0),
                         layer.result(), sdp.sdp, luts)))
    return failure();
  const int64_t outRows = conv.conv.dst_data.height, outCols = conv.conv.dst_data.width;
  if (colsPerPart >= outCols)
    colsPerPart = 0;
  // sdp.c programs the SDP's Winograd mode from the convolution's, and
  // the SDP on the fly writes the batch the convolution computes.
  sdp.sdp.conv_mode = conv.conv.conv_mode;
  sdp.sdp.batch_num = conv.conv.batch;
  if ((!rowsPerPart || rowsPerPart >= outRows) && !colsPerPart) {
    ops = {conv, sdp};
    return success();
  }
  // NVDLA writes a one-pixel cube only packed (CACC and the SDP check its
  // strides are one atom): a band of one row of a one-column result
  // cannot land in the whole result.
  if (!rowsPerPart || rowsPerPart > outRows)
    rowsPerPart = outRows;
  const int64_t partCols = colsPerPart ? colsPerPart : outCols;
  if ((partCols == 1 || outCols % partCols == 1) &&
      (rowsPerPart == 1 || outRows % rowsPerPart == 1))
    return layer.op->emitOpError()
           << "runs by bands of " << rowsPerPart << " output rows"
           << (colsPerPart ? " by " + std::to_string(colsPerPart) + " columns" : std::string())
           << (colsPerPart ? std::string() : std::string(" of a one-column result"))
           << ": a band of one row is a 1x1 cube, which NVDLA writes only packed, not into the "
              "whole result's surfaces";
  for (int64_t o0 = 0; o0 < outRows; o0 += rowsPerPart)
    for (int64_t x0 = 0; x0 < outCols; x0 += partCols) {
      DescOp c = conv, s = sdp;
      describeBand(conv.conv, sdp.sdp, o0, std::min(outRows, o0 + rowsPerPart), x0,
                   std::min(outCols, x0 + partCols), query, *config, c.conv, s.sdp);
      ops.push_back(c);
      ops.push_back(s);
    }
  if (weightsStay)
    reuseWeights(ops);
  return success();
}
