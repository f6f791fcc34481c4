//===- DescribePdp.cpp - dla.pool as the firmware's PDP descriptors -------===//
//
// Offline (the source cube from memory): one pass when the output width
// fits PDP's line buffer, else split by output width as NVIDIA's compiler
// splits it (planPdpSplit, NvdlaPdp.h): the passes' input and output
// widths, the right padding the last pass's windows reach into.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPdp.h"
#include "dla/Format/NvdlaRegisters.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;

LogicalResult mlir::dla::regplan::describePdp(const NetworkPlan &plan, Operation *o, PdpDesc &d) {
  auto op = cast<PoolOp>(o);
  ArrayRef<int64_t> kernel = op.getKernel(), stride = op.getStrides(), pad = op.getPadding();
  const int64_t kh = kernel[0], kw = kernel[1];
  // padding is [top, bottom, left, right].
  const int64_t top = pad[0], bottom = pad[1], left = pad[2], right = pad[3];
  d.src_data = describeCube(plan, op.getInput());
  d.dst_data = describeCube(plan, op.getResult());
  const int64_t inWidth = d.src_data.width, outWidth = d.dst_data.width;
  // One pass when the output width fits PDP's line buffer, else NVIDIA's
  // split by output width (PDPNode.cpp pdpHWSplitWidth).
  auto feature = cast<FeatureAttr>(cast<RankedTensorType>(op.getInput().getType()).getEncoding());
  const HardwareConfig &config = getHardwareConfig(feature.getConfig());
  const Precision precision = feature.getPrecision();
  const int64_t maxWidth = pdpMaxFlyingWidth(config.getKernelsPerGroup(precision),
                                             getBytesPerElement(precision) == 1, kh, stride[0]);
  PdpSplit split;
  split.firstOut = outWidth;
  split.rightPad = right;
  if (outWidth > maxWidth) {
    auto passes = [&](InFlightDiagnostic diag) -> InFlightDiagnostic {
      diag << "needs " << (outWidth + maxWidth - 1) / maxWidth
           << " passes by output width (PDP's line buffer holds " << maxWidth
           << " output columns at kernel height " << kh << " and stride " << stride[0] << ")";
      return diag;
    };
    std::optional<PdpSplit> s = planPdpSplit(inWidth, outWidth, kw, stride[1], left, maxWidth);
    if (!s)
      return passes(op.emitOpError()) << ": NVIDIA's split (pdpHWSplitWidth) leaves a pass "
                                         "without columns";
    if (s->splits > kPdpMaxSplits)
      return passes(op.emitOpError()) << ": the firmware programs at most " << kPdpMaxSplits
                                      << " (MAX_SPLIT_NUM)";
    for (int64_t w : {s->firstIn, s->midIn, s->lastIn})
      if (w > kPdpMaxPartialWidth)
        return passes(op.emitOpError()) << ": a pass reads " << w
                                        << " input columns, PARTIAL_WIDTH_IN holds at most "
                                        << kPdpMaxPartialWidth;
    split = *s;
  }
  d.split_num = static_cast<uint8_t>(split.splits);
  d.partial_in_width_first = static_cast<uint16_t>(split.firstIn);
  d.partial_in_width_mid = static_cast<uint16_t>(split.midIn);
  d.partial_in_width_last = static_cast<uint16_t>(split.lastIn);
  // One pass writes no output widths (NVIDIA's compiler leaves them 0).
  d.partial_width_first = static_cast<uint16_t>(split.splits > 1 ? split.firstOut : 0);
  d.partial_width_mid = static_cast<uint16_t>(split.midOut);
  d.partial_width_last = static_cast<uint16_t>(split.lastOut);
  d.pool_mode = op.getKind() == PoolKind::Average ? kDescPoolAvg
                : op.getKind() == PoolKind::Max   ? kDescPoolMax
                                                  : kDescPoolMin;
  d.pool_width = static_cast<uint8_t>(kw - 1);
  d.pool_height = static_cast<uint8_t>(kh - 1);
  d.stride_x = static_cast<uint8_t>(stride[1]);
  d.stride_y = static_cast<uint8_t>(stride[0]);
  d.pad_left = static_cast<uint8_t>(left);
  d.pad_right = static_cast<uint8_t>(split.rightPad);
  d.pad_top = static_cast<uint8_t>(top);
  d.pad_bottom = static_cast<uint8_t>(bottom);
  // fp16 data: the PDP's fp16 path (no padding values: dla.pool's verifier
  // allows none on fp16, and NVIDIA's firmware asserts them 0 at FP16).
  d.precision = describePrecision(precision);
  if (d.precision == kDescPrecisionFp16)
    return success();
  if (std::optional<ArrayRef<int64_t>> values = op.getPadValues())
    for (int n = 0; n < 7; ++n)
      d.padding_value[n] = static_cast<int32_t>((*values)[n]);
  // The firmware writes its own reciprocals (pdp.c recip_kernel_size);
  // stated ones that compute something else are the project's.
  const PdpReciprocals firmware = pdpFirmwareReciprocals(kh, kw);
  const PdpReciprocals stated{
      static_cast<int64_t>(op.getRecipKernelWidth().value_or(firmware.width)),
      static_cast<int64_t>(op.getRecipKernelHeight().value_or(firmware.height))};
  // Padded positions that add PAD_VALUE_nX make any line-buffer sum
  // possible, not only sums of int8 data.
  std::optional<ArrayRef<int64_t>> padValues = op.getPadValues();
  const bool padded = top || bottom || left || split.rightPad;
  const bool addsPadValues =
      padded && padValues && llvm::any_of(*padValues, [](int64_t v) { return v != 0; });
  // The sums of the data's precision (int8 or int16); sums padded by
  // PAD_VALUE_nX registers of int16 data span 32 bits, too many to check
  // one by one: there only the firmware's own pair computes as it does.
  const PdpSums sums =
      pdpWindowSums(kh, kw, /*bits=*/8 * getBytesPerElement(precision), addsPadValues);
  const bool checkable = sums.max - sums.min < (int64_t(1) << 23);
  const bool asFirmware = checkable ? pdpComputesAsFirmware(stated, kh, kw, sums)
                                    : stated.width == firmware.width &&
                                          stated.height == firmware.height;
  if (!asFirmware) {
    if (stated.width != firmware.width)
      d.ext.recip_kernel_width = static_cast<uint32_t>(stated.width);
    if (stated.height != firmware.height)
      d.ext.recip_kernel_height = static_cast<uint32_t>(stated.height);
  }
  return success();
}
