//===- DescribeWinograd.cpp - A Winograd dla.conv's descriptor values -----===//
//
// The one place that states what a Winograd convolution programs (issue
// 47), beside what describeWhole sets for every convolution. The values
// are NVIDIA's compiler's for the same layer (umd engine-ast
// ConvCoreNode.cpp determineWinogradParams, ConvolutionOp.cpp's
// CONV_WINOGRAD branch, calculateEPS), which its firmware writes unchanged
// (kmd/firmware conv.c; sdp.c sets the SDP's WINOGRAD bits from conv_mode):
//
//   output W' x H' = W x H rounded up to 4       (CACC, CSC DATAOUT, SDP)
//   input ext      = (W' + 4) x (H' + 4) x C'     (CSC / CDMA DATAIN_*_EXT)
//     C' = C rounded up to 32 bytes; CDMA pads right / bottom to the ext
//     size (pad_right = W' + 4 - W - pad_left, likewise the bottom)
//   kernel         = 4 x 4 x C' (CSC WEIGHT_*_EXT), 16 * C' * bpe bytes
//   EPS, banks     = planConvBuffer's Winograd sizes (NvdlaConvBuffer.h)
//   release        = the ext height; CSC stride and padding 0 (conv.c)
//   PRA_TRUNCATE   = 0 (the CPU execution's meaning, ReferenceWinograd.cpp)
//
// fp16 is the same plan (C' = C rounded up to 16 channels, 32 bytes; NVIDIA's
// firmware and compiler program nothing else differently for it); its
// arithmetic is the CPU execution's hardware fp16 mode (convWinoFp16).
//
// What is refused, located: fp16 with a padding value (planNetwork's
// checkFp16Layer, as for direct fp16), strides above 1
// (NVIDIA's compiler takes Winograd at stride 1 only), an output whose width or
// height is no multiple of 4 (the hardware writes the whole W' x H' tiles,
// beyond the result's surfaces), padding to the ext cube beyond CDMA's
// 6-bit PAD_RIGHT / PAD_BOTTOM, an input converter (the v1 model's CDMA
// applies it in direct and image mode only:
// WinoConvDataResponseSequencerCommon writes the fetched atoms as they
// are), and bands of output rows.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaRegisterMap.h"
#include "dla/Format/NvdlaWeight.h"

#include <tuple>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;

LogicalResult mlir::dla::regplan::checkWinogradConv(ConvOp op) {
  auto out = cast<RankedTensorType>(op.getResult().getType());
  // Other data NetworkPlan refused (int16 data; fp16 layers with a padding
  // value or an input converter, checkFp16Layer).
  assert((getConvWeightPrecision(op) == Precision::Int8 ||
          getConvWeightPrecision(op) == Precision::Fp16) &&
         "planNetwork checked the data");
  ArrayRef<int64_t> stride = op.getStrides();
  if (stride[0] != 1 || stride[1] != 1)
    return op.emitOpError()
           << "is a Winograd convolution with stride [" << stride[0] << ", "
           << stride[1]
           << "]: only stride 1 is programmed (NVIDIA's compiler takes "
              "Winograd at stride 1 only)";
  const int64_t h = out.getDimSize(2), w = out.getDimSize(3);
  if (h % 4 || w % 4)
    return op.emitOpError()
           << "is a Winograd convolution with a " << h << "x" << w
           << " output: NVDLA writes Winograd outputs in whole 4x4 tiles, "
              "so the output's height and width must be multiples of 4";
  // CDMA pads to the ext cube: 2 + the layer's padding right and below
  // (W' = W), in its 6-bit PAD_RIGHT / PAD_BOTTOM.
  ArrayRef<int64_t> pad = op.getPadding();
  for (auto [side, name, extra, field] :
       {std::tuple{"bottom", "PAD_BOTTOM", pad[1] + 2,
                   csb::CDMA_D_ZERO_PADDING_PAD_BOTTOM},
        std::tuple{"right", "PAD_RIGHT", pad[3] + 2,
                   csb::CDMA_D_ZERO_PADDING_PAD_RIGHT}})
    if (extra >= int64_t(1) << field.width)
      return op.emitOpError()
             << "is a Winograd convolution whose extended input takes " << extra
             << " padding positions at the " << side
             << " (its padding and 2), more than CDMA's " << name << " holds ("
             << (int64_t(1) << field.width) - 1 << ")";
  if (op.getInputCvtAttr())
    return op.emitOpError()
           << "is a Winograd convolution with an input converter: "
           << kWinogradInputConverterReason;
  if (op.getRowsPerPart())
    return op.emitOpError()
           << "is a Winograd convolution by bands of " << *op.getRowsPerPart()
           << " output rows: Winograd layers are programmed whole";
  return success();
}

void mlir::dla::regplan::describeWinograd(ConvOp op, ConvDesc &d) {
  auto wType = cast<RankedTensorType>(op.getWeight().getType());
  auto weight = cast<WeightAttr>(wType.getEncoding());
  dlaformat::Expected<NvdlaWeightLayout> wl =
      NvdlaWeightLayout::create(weight.getParams(wType.getShape()));
  assert(wl && "weights the verifier accepted bind");
  const int64_t bpe = getBytesPerElement(weight.getPrecision());
  // C' (the weights' padded channels; stride 1: no extension).
  const int64_t channels =
      wl->getSurfaces().front().bytesPerKernel / (16 * bpe);
  // checkWinogradConv: W and H are multiples of 4, so W' = W, H' = H.
  const int64_t outW = d.dst_data.width, outH = d.dst_data.height;
  const int64_t extW = outW + 4, extH = outH + 4;
  d.conv_mode = kDescConvWinograd;
  d.input_width_csc = static_cast<uint16_t>(extW);
  d.input_height_csc = static_cast<uint16_t>(extH);
  d.input_channel_csc = static_cast<uint16_t>(channels);
  d.kernel_width_csc = d.kernel_height_csc = 4;
  d.kernel_channel_csc = static_cast<uint16_t>(channels);
  d.input_width_cmac = static_cast<uint16_t>(outW);
  d.input_height_cmac = static_cast<uint16_t>(outH);
  d.bytes_per_kernel =
      static_cast<uint32_t>(wl->getSurfaces().front().bytesPerKernel);
  d.pad_x_right = static_cast<uint8_t>(extW - d.src_data.width - d.pad_x_left);
  d.pad_y_bottom = static_cast<uint8_t>(extH - d.src_data.height - d.pad_y_top);
  d.release = static_cast<uint16_t>(extH);
  d.pra_truncate = 0;
}
