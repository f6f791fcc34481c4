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

// The fields that C and C++ name and type alike, listed once for both
// directions (the rest: enums and the buffer rule, by hand).
#define DLA_PERF_CONFIG_FIELDS(X)                                                              \
  X(macs) X(channelGranule) X(kernelGranule) X(featureChannelGranule) X(convBufferBytes)       \
  X(clockHz) X(dramBytesPerSecond) X(memifBytesPerCycle) X(memoryLatencyCycles)                \
  X(sdpThroughput) X(sdpEwThroughput) X(pdpThroughput) X(cdpThroughput) X(winograd)            \
  X(fcBatch) X(foldStride) X(postProcessingBound) X(winogradWeightsExpanded)                   \
  X(fcWeightsAmortized) X(bufferReloads) X(minInputExtraRows) X(minWeightKernels)              \
  X(sideByLeastInput) X(sideByAllWeights) X(operandAfterPooling) X(convStartCycles)            \
  X(sdpStartCycles) X(pdpStartCycles) X(cdpStartCycles) X(startLatencies) X(readsInFlight)     \
  X(requestCycles) X(stripeAtomics) X(stripeCycles) X(firstStripeAtomCycles)                   \
  X(convSdpAtomCycles) X(unitChannelGranule)
#define DLA_PERF_LAYER_FIELDS(X)                                                               \
  X(channels) X(height) X(width) X(kernels) X(kernelH) X(kernelW) X(strideH) X(strideW)       \
  X(padTop) X(padBottom) X(padLeft) X(padRight) X(dilationH) X(dilationW) X(winograd)         \
  X(poolH) X(poolW) X(poolStrideH) X(poolStrideW) X(poolPadTop) X(poolPadBottom)              \
  X(poolPadLeft) X(poolPadRight) X(elementwiseOperand) X(weightBytes) X(weightBanks)
#define DLA_PERF_ESTIMATE_FIELDS(X)                                                            \
  X(macCycles) X(memoryCycles) X(sdpCycles) X(pdpCycles) X(cdpCycles) X(stripeCycles)          \
  X(startCycles) X(cycles) X(inputBytes) X(weightBytes) X(outputBytes) X(operandBytes)         \
  X(trafficBytes) X(inputReads) X(weightReads) X(outHeight) X(outWidth) X(networkMacs)         \
  X(seconds)

template <typename To, typename From> void assign(To &to, const From &from) {
  to = static_cast<To>(from);
}

DlaPerfConfig toC(const PerfConfig &c) {
  DlaPerfConfig o{};
  o.base = int32_t(c.base);
  o.precision = int32_t(c.precision);
  o.spreadsheetBufferRule = c.bufferRule == BufferPlanRule::Spreadsheet;
#define X(f) assign(o.f, c.f);
  DLA_PERF_CONFIG_FIELDS(X)
#undef X
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
  c.bufferRule = o.spreadsheetBufferRule ? BufferPlanRule::Spreadsheet : BufferPlanRule::Planner;
#define X(f) assign(c.f, o.f);
  DLA_PERF_CONFIG_FIELDS(X)
#undef X
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
                               DlaPerfEstimate *out, void *plan, size_t planCapacity) {
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
#define X(f) assign(l.f, layer->f);
  DLA_PERF_LAYER_FIELDS(X)
#undef X
  auto e = estimateLayer(c, l);
  if (!e)
    return error(e.message());
  DlaPerfEstimate o{};
  o.longPole = int32_t(e->longPole);
#define X(f) assign(o.f, e->f);
  DLA_PERF_ESTIMATE_FIELDS(X)
#undef X
  *out = o;
  if (plan && planCapacity) {
    size_t n = std::min(planCapacity - 1, e->bufferPlan.size());
    std::memcpy(plan, e->bufferPlan.data(), n);
    static_cast<char *>(plan)[n] = 0;
  }
  return ok();
}

const char *dlaPerfGetLongPoleName(int32_t pole) {
  if (pole < 0 || pole > int32_t(LongPole::Cdp))
    return "?";
  return getLongPoleName(LongPole(pole)).data();
}
