//===- Performance.cpp - C API of the performance model -------------------===//
//
// No MLIR here: a field-by-field copy into dlaformat::nvdla's model.
//
//===----------------------------------------------------------------------===//

#include "dla-c/Performance.h"
#include "Status.h"

#include "dla/Format/EnumTable.h"
#include "dla/Format/NvdlaPerformance.h"

#include <algorithm>
#include <cstring>

using namespace dlacapi;
using namespace dlaformat::nvdla;

namespace {

DlaPerfConfig toC(const PerfConfig &c) {
  DlaPerfConfig o{};
  o.base = int32_t(c.base);
  o.precision = int32_t(c.precision);
  o.macs = c.macs;
  o.channelGranule = c.channelGranule;
  o.kernelGranule = c.kernelGranule;
  o.featureChannelGranule = c.featureChannelGranule;
  o.convBufferBytes = c.convBufferBytes;
  o.clockHz = c.clockHz;
  o.dramBytesPerSecond = c.dramBytesPerSecond;
  o.memifBytesPerCycle = c.memifBytesPerCycle;
  o.memoryLatencyCycles = c.memoryLatencyCycles;
  o.sdpThroughput = c.sdpThroughput;
  o.sdpEwThroughput = c.sdpEwThroughput;
  o.pdpThroughput = c.pdpThroughput;
  o.cdpThroughput = c.cdpThroughput;
  o.winograd = c.winograd;
  o.fcBatch = c.fcBatch;
  o.foldStride = c.foldStride;
  o.spreadsheetBufferRule = c.bufferRule == BufferPlanRule::Spreadsheet;
  o.postProcessingBound = c.postProcessingBound;
  o.winogradWeightsExpanded = c.winogradWeightsExpanded;
  o.fcWeightsAmortized = c.fcWeightsAmortized;
  o.bufferReloads = c.bufferReloads;
  o.minInputExtraRows = c.minInputExtraRows;
  o.minWeightKernels = c.minWeightKernels;
  o.sideByLeastInput = c.sideByLeastInput;
  o.sideByAllWeights = c.sideByAllWeights;
  o.operandAfterPooling = c.operandAfterPooling;
  return o;
}

DlaStatus fromC(const DlaPerfConfig &o, PerfConfig &c) {
  if (o.base < 0 || o.base > int32_t(HardwareKind::Last))
    return error("configuration base " + std::to_string(o.base) + " is not a hardware kind");
  if (o.precision < 0 || o.precision > int32_t(Precision::Last))
    return error("precision " + std::to_string(o.precision) + " is not a precision");
  c.base = HardwareKind(o.base);
  c.name = std::string(getHardwareConfig(c.base).name);
  c.precision = Precision(o.precision);
  c.macs = o.macs;
  c.channelGranule = o.channelGranule;
  c.kernelGranule = o.kernelGranule;
  c.featureChannelGranule = o.featureChannelGranule;
  c.convBufferBytes = o.convBufferBytes;
  c.clockHz = o.clockHz;
  c.dramBytesPerSecond = o.dramBytesPerSecond;
  c.memifBytesPerCycle = o.memifBytesPerCycle;
  c.memoryLatencyCycles = o.memoryLatencyCycles;
  c.sdpThroughput = o.sdpThroughput;
  c.sdpEwThroughput = o.sdpEwThroughput;
  c.pdpThroughput = o.pdpThroughput;
  c.cdpThroughput = o.cdpThroughput;
  c.winograd = o.winograd;
  c.fcBatch = o.fcBatch;
  c.foldStride = o.foldStride;
  c.bufferRule = o.spreadsheetBufferRule ? BufferPlanRule::Spreadsheet : BufferPlanRule::Planner;
  c.postProcessingBound = o.postProcessingBound;
  c.winogradWeightsExpanded = o.winogradWeightsExpanded;
  c.fcWeightsAmortized = o.fcWeightsAmortized;
  c.bufferReloads = o.bufferReloads;
  c.minInputExtraRows = o.minInputExtraRows;
  c.minWeightKernels = o.minWeightKernels;
  c.sideByLeastInput = o.sideByLeastInput;
  c.sideByAllWeights = o.sideByAllWeights;
  c.operandAfterPooling = o.operandAfterPooling;
  return ok();
}

} // namespace

DlaStatus dlaPerfGetHardwareConfig(const char *name, const char *precision, double clockHz,
                                   double dramBytesPerSecond, DlaPerfConfig *out) {
  if (!name || !precision || !out)
    return error("null argument");
  auto hw = lookupHardwareConfig(name);
  if (!hw)
    return error(hw.message());
  std::optional<Precision> p = dlaformat::parseEnum<Precision>(precision);
  if (!p)
    return error(std::string("unknown precision '") + precision + "' (int8, int16, fp16)");
  auto c = getHardwarePerfConfig(hw->kind, *p, clockHz, dramBytesPerSecond);
  if (!c)
    return error(c.message());
  *out = toC(*c);
  return ok();
}

void dlaPerfGetSpreadsheetConfig(DlaPerfConfig *out) {
  if (out)
    *out = toC(getSpreadsheetPerfConfig());
}

DlaStatus dlaPerfEstimateLayer(const DlaPerfConfig *config, const DlaPerfLayer *layer,
                               DlaPerfEstimate *out, char *plan, size_t planCapacity) {
  if (!config || !layer || !out)
    return error("null argument");
  PerfConfig c;
  if (DlaStatus s = fromC(*config, c); !dlaStatusIsOk(s))
    return s;
  if (layer->kind < 0 || layer->kind > int32_t(PerfLayerKind::Cdp))
    return error("layer kind " + std::to_string(layer->kind) + " is not a layer kind");
  PerfLayer l;
  l.name = "layer";
  l.kind = PerfLayerKind(layer->kind);
  l.channels = layer->channels;
  l.height = layer->height;
  l.width = layer->width;
  l.kernels = layer->kernels;
  l.kernelH = layer->kernelH;
  l.kernelW = layer->kernelW;
  l.strideH = layer->strideH;
  l.strideW = layer->strideW;
  l.padTop = layer->padTop;
  l.padBottom = layer->padBottom;
  l.padLeft = layer->padLeft;
  l.padRight = layer->padRight;
  l.dilationH = layer->dilationH;
  l.dilationW = layer->dilationW;
  l.winograd = layer->winograd;
  l.poolH = layer->poolH;
  l.poolW = layer->poolW;
  l.poolStrideH = layer->poolStrideH;
  l.poolStrideW = layer->poolStrideW;
  l.poolPadTop = layer->poolPadTop;
  l.poolPadBottom = layer->poolPadBottom;
  l.poolPadLeft = layer->poolPadLeft;
  l.poolPadRight = layer->poolPadRight;
  l.elementwiseOperand = layer->elementwiseOperand;
  l.weightBytes = layer->weightBytes;
  auto e = estimateLayer(c, l);
  if (!e)
    return error(e.message());
  DlaPerfEstimate o{};
  o.macCycles = e->macCycles;
  o.memoryCycles = e->memoryCycles;
  o.sdpCycles = e->sdpCycles;
  o.pdpCycles = e->pdpCycles;
  o.cdpCycles = e->cdpCycles;
  o.cycles = e->cycles;
  o.longPole = int32_t(e->longPole);
  o.inputBytes = e->inputBytes;
  o.weightBytes = e->weightBytes;
  o.outputBytes = e->outputBytes;
  o.operandBytes = e->operandBytes;
  o.trafficBytes = e->trafficBytes;
  o.inputReads = e->inputReads;
  o.weightReads = e->weightReads;
  o.outHeight = e->outHeight;
  o.outWidth = e->outWidth;
  o.networkMacs = e->networkMacs;
  o.seconds = e->seconds;
  *out = o;
  if (plan && planCapacity) {
    size_t n = std::min(planCapacity - 1, e->bufferPlan.size());
    std::memcpy(plan, e->bufferPlan.data(), n);
    plan[n] = 0;
  }
  return ok();
}

const char *dlaPerfGetLongPoleName(int32_t pole) {
  if (pole < 0 || pole > int32_t(LongPole::Cdp))
    return "?";
  return getLongPoleName(LongPole(pole)).data();
}
