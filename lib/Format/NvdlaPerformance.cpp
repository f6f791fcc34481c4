//===- NvdlaPerformance.cpp - How long an NVDLA hardware layer takes ------===//
//
// docs/PerformanceModel.md explains every formula and where it comes from.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaPerformance.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaConvBuffer.h"

#include <algorithm>
#include <cmath>

using namespace dlaformat;
using namespace dlaformat::nvdla;

std::string_view dlaformat::nvdla::getPerfLayerKindName(PerfLayerKind kind) {
  switch (kind) {
  case PerfLayerKind::Convolution:
    return "convolution";
  case PerfLayerKind::FullyConnected:
    return "fully-connected";
  case PerfLayerKind::Sdp:
    return "sdp";
  case PerfLayerKind::Pdp:
    return "pdp";
  case PerfLayerKind::Cdp:
    return "cdp";
  }
  return "?";
}

std::string_view dlaformat::nvdla::getLongPoleName(LongPole pole) {
  switch (pole) {
  case LongPole::Mac:
    return "MAC";
  case LongPole::Memory:
    return "memory";
  case LongPole::Sdp:
    return "SDP";
  case LongPole::Pdp:
    return "PDP";
  case LongPole::Cdp:
    return "CDP";
  }
  return "?";
}

Expected<PerfConfig> dlaformat::nvdla::getHardwarePerfConfig(HardwareKind kind,
                                                             Precision precision,
                                                             double clockHz,
                                                             double dramBytesPerSecond) {
  const HardwareConfig &hw = getHardwareConfig(kind);
  if (std::string why = whyNotPrecision(hw, precision); !why.empty())
    return makeError(why);
  if (!(clockHz > 0) || !(dramBytesPerSecond > 0))
    return makeError("the clock and the DRAM bandwidth must be positive");
  const UnitThroughputs &t = getUnitThroughputs(kind);
  PerfConfig c;
  c.name = std::string(hw.name);
  c.base = kind;
  c.precision = precision;
  c.channelGranule = hw.atomicC;
  c.kernelGranule = hw.getKernelsPerGroup(precision);
  c.macs = c.channelGranule * c.kernelGranule;
  c.featureChannelGranule = getChannelsPerAtom(precision, hw.caps.memoryAtomBytes);
  c.convBufferBytes = hw.getConvBufferBytes();
  c.clockHz = clockHz;
  c.dramBytesPerSecond = dramBytesPerSecond;
  c.memifBytesPerCycle = t.primaryMemifBits / 8;
  c.sdpThroughput = std::min(t.sdpBs, t.sdpBn);
  c.sdpEwThroughput = t.sdpEw;
  c.pdpThroughput = hw.caps.pdp ? t.pdp : 0;
  c.cdpThroughput = hw.caps.cdp ? t.cdp : 0;
  c.winograd = hw.caps.winograd;
  const RtlCalibration &r = getRtlCalibration(kind);
  c.convStartCycles = r.convStart;
  c.sdpStartCycles = r.sdpStart;
  c.pdpStartCycles = r.pdpStart;
  c.cdpStartCycles = r.cdpStart;
  c.startLatencies = r.startLatencies;
  c.readsInFlight = r.readsInFlight;
  c.requestCycles = r.requestCycles;
  c.stripeAtomics = r.stripeAtomics;
  c.stripeCycles = r.stripeCycles;
  c.firstStripeAtomCycles = r.firstStripeAtomCycles;
  c.convSdpAtomCycles = r.convSdpAtomCycles;
  c.unitChannelGranule = r.unitChannelGranule;
  return c;
}

PerfConfig dlaformat::nvdla::getSpreadsheetPerfConfig() {
  PerfConfig c;
  c.name = "NVIDIA spreadsheet";
  c.base = HardwareKind::NvFull;
  c.precision = Precision::Int8;
  c.macs = 2048;
  c.channelGranule = c.kernelGranule = c.featureChannelGranule = 16;
  c.convBufferBytes = 512 * 1024;
  c.clockHz = 1000e6;
  c.dramBytesPerSecond = 10 * 1.024e9;
  c.memifBytesPerCycle = 0;
  c.winograd = true;
  c.fcBatch = 16;
  c.foldStride = true;
  c.bufferRule = BufferPlanRule::Spreadsheet;
  c.postProcessingBound = false;
  c.operandAfterPooling = true;
  return c;
}

namespace {

double roundUp(double x, double granule) { return std::ceil(x / granule) * granule; }

/// ceil of a cycle count computed in floating point: a count that is a
/// whole number up to rounding error stays that number.
double ceilCycles(double x) { return std::ceil(x * (1 - 1e-12)); }

std::string str(int64_t v) { return std::to_string(v); }

Status validate(const PerfConfig &c, const PerfLayer &l) {
  if (c.macs <= 0 || c.channelGranule <= 0 || c.kernelGranule <= 0 ||
      c.featureChannelGranule <= 0 || c.convBufferBytes <= 0 || !(c.clockHz > 0) ||
      !(c.dramBytesPerSecond > 0) || c.fcBatch <= 0)
    return makeError("configuration '" + c.name +
                     "': MACs, granules, buffer, clock, bandwidth and batch must be positive");
  auto where = "layer '" + l.name + "': ";
  if (l.channels <= 0 || l.height <= 0 || l.width <= 0)
    return makeError(where + "input " + str(l.channels) + "x" + str(l.height) + "x" +
                     str(l.width) + " is not a positive C x H x W");
  bool conv = l.kind == PerfLayerKind::Convolution || l.kind == PerfLayerKind::FullyConnected;
  if (conv && (l.kernels <= 0 || l.kernelH <= 0 || l.kernelW <= 0 || l.strideH <= 0 ||
               l.strideW <= 0 || l.dilationH <= 0 || l.dilationW <= 0))
    return makeError(where + "kernels, kernel size, stride and dilation must be positive");
  if (l.padTop < 0 || l.padBottom < 0 || l.padLeft < 0 || l.padRight < 0)
    return makeError(where + "negative padding");
  if ((l.poolH > 0) != (l.poolStrideH > 0) || (l.poolW > 0) != (l.poolStrideW > 0) ||
      l.poolH < 0 || l.poolW < 0)
    return makeError(where + "a pooling needs a positive window and stride");
  if (l.kind == PerfLayerKind::Pdp && l.poolH <= 0)
    return makeError(where + "a PDP layer needs its pooling window");
  if (l.winograd && !c.winograd)
    return makeError(where + "Winograd, which " + c.name + " does not have");
  return Status::success();
}

/// The pooled extent of `n` rows: ceil((n + pads - k) / s) + 1, at least 1.
int64_t pooled(int64_t n, int64_t k, int64_t s, int64_t pads) {
  if (k <= 0)
    return n;
  return std::max<int64_t>(1, ceilDiv(std::max<int64_t>(0, n + pads - k), s) + 1);
}

struct Fit {
  int64_t inputReads = 1, weightReads = 1;
  int64_t parts = 1; ///< hardware layers the plan cuts the convolution into
  double inputBytes = 0; ///< bytes of input read, overlap of partial-height parts included
  std::string plan;
};

/// The spreadsheet's rule (docs/PerformanceModel.md, "Convolution buffer").
Expected<Fit> fitSpreadsheet(const PerfConfig &c, double input, double weights,
                             double minInput, double minWeights) {
  Fit f;
  f.inputBytes = input;
  const double cbuf = double(c.convBufferBytes);
  if (minWeights >= cbuf)
    minWeights = cbuf / 2;
  if ((c.sideByLeastInput ? minInput : input) < (c.sideByAllWeights ? weights : minWeights)) {
    // The input stays; the weights stream past it, once per input part.
    if (c.bufferReloads && input > cbuf - minWeights)
      f.weightReads = int64_t(std::ceil(input / (cbuf - minWeights)));
    f.plan = "input stays, weights read " + str(f.weightReads) + "x";
  } else {
    if (cbuf - minInput <= 0)
      return makeError("the least input (" + str(int64_t(minInput)) +
                       " bytes) does not fit the convolution buffer");
    if (c.bufferReloads && weights > cbuf - minInput)
      f.inputReads = int64_t(std::ceil(weights / (cbuf - minInput)));
    f.plan = "weights stay, input read " + str(f.inputReads) + "x";
  }
  return f;
}

/// The planner's (NVIDIA's compiler's) fit.
Fit fitPlanner(const PerfConfig &c, const PerfLayer &l, double rowBytes, int64_t outH,
               bool &winograd) {
  ConvBufferQuery q;
  q.precision = c.precision;
  q.channels = l.channels;
  q.height = l.height;
  q.width = l.width;
  q.kernels = l.kernels;
  q.kernelH = l.kernelH;
  q.kernelW = l.kernelW;
  q.strideH = l.strideH;
  q.strideW = l.strideW;
  q.dilationH = l.dilationH;
  q.padTop = l.padTop;
  q.padBottom = l.padBottom;
  q.padLeft = l.padLeft;
  q.padRight = l.padRight;
  q.winograd = winograd;
  q.weightBanks = l.weightBanks;
  // A custom buffer size: fewer (or more) banks of the base's size.
  const HardwareConfig &hw = getHardwareConfig(c.base);
  int64_t bankBytes = hw.caps.cbufBankEntries * hw.weightBufferEntryBytes;
  q.banks = std::max<int64_t>(1, c.convBufferBytes / bankBytes);
  Fit f;
  f.inputBytes = rowBytes * l.height;
  Expected<ConvBufferPlan> plan = planConvBuffer(hw, q);
  if (!plan && winograd) {
    // NVIDIA's compiler runs such a layer in direct mode (splitNodes).
    winograd = false;
    q.winograd = false;
    plan = planConvBuffer(hw, q);
  }
  if (!plan) {
    f.plan = "does not fit: " + plan.message();
    return f;
  }
  f.plan = std::string(getConvBufferModeName(plan->mode));
  if (plan->mode == ConvBufferMode::PartialHeight) {
    // Weights that all stay in their banks load once, the bands reusing
    // them (DescribeConv.cpp); others are read again by every band.
    const bool stay = plan->allottedWeightBanks == plan->weightBanks;
    f.weightReads = stay ? 1 : plan->numParts;
    f.parts = plan->numParts;
    int64_t rows = 0;
    for (int64_t o0 = 0; o0 < outH; o0 += plan->outputRowsPerPart)
      rows += getConvRowBand(q, o0, std::min(outH, o0 + plan->outputRowsPerPart)).rows();
    f.inputBytes = rowBytes * rows;
    f.plan += ", " + str(plan->numParts) + " parts" + (stay ? ", weights reused" : "");
  }
  return f;
}

} // namespace

Expected<PerfEstimate> dlaformat::nvdla::estimateLayer(const PerfConfig &c, const PerfLayer &l) {
  if (Status s = validate(c, l); !s)
    return s.takeError();
  PerfEstimate e;
  const double bpe = double(getBytesPerElement(c.precision));
  const bool conv =
      l.kind == PerfLayerKind::Convolution || l.kind == PerfLayerKind::FullyConnected;
  const bool fc = l.kind == PerfLayerKind::FullyConnected;
  const double batch = fc ? double(c.fcBatch) : 1;
  const double fg = double(c.featureChannelGranule);
  const int64_t fy = conv && c.foldStride ? l.strideH : 1;
  const int64_t fx = conv && c.foldStride ? l.strideW : 1;
  const double foldedC = double(l.channels) * fy * fx;

  // Shapes: the convolution's output, then the PDP's.
  int64_t outH = l.height, outW = l.width, outC = conv ? l.kernels : l.channels;
  if (conv) {
    int64_t effR = (l.kernelH - 1) * l.dilationH + 1, effS = (l.kernelW - 1) * l.dilationW + 1;
    int64_t h = l.height + l.padTop + l.padBottom - effR;
    int64_t w = l.width + l.padLeft + l.padRight - effS;
    if (h < 0 || w < 0)
      return makeError("layer '" + l.name + "': the kernel is larger than the padded input");
    outH = h / l.strideH + 1;
    outW = w / l.strideW + 1;
  }
  e.outHeight = outH;
  e.outWidth = outW;
  const int64_t poolH = pooled(outH, l.poolH, l.poolStrideH, l.poolPadTop + l.poolPadBottom);
  const int64_t poolW = pooled(outW, l.poolW, l.poolStrideW, l.poolPadLeft + l.poolPadRight);

  // Surfaces in memory (per image): channels in whole feature units.
  const double rowBytes = roundUp(foldedC, fg) * std::ceil(double(l.width) / fx) * bpe;
  e.inputBytes = rowBytes * std::ceil(double(l.height) / fy);
  e.outputBytes = double(poolH) * poolW * roundUp(double(outC), fg) * bpe;
  if (l.elementwiseOperand)
    e.operandBytes = c.operandAfterPooling
                         ? e.outputBytes
                         : double(outH) * outW * roundUp(double(outC), fg) * bpe;

  bool winograd = l.winograd;
  int64_t parts = 1;
  if (conv) {
    const double taps = std::ceil(double(l.kernelH) / fy) * std::ceil(double(l.kernelW) / fx);
    if (l.weightBytes > 0)
      e.weightBytes = double(l.weightBytes);
    else
      e.weightBytes = roundUp(foldedC, fg) * taps * l.kernels * bpe *
                      (winograd && c.winogradWeightsExpanded ? 16.0 / 9.0 : 1.0);
    Fit fit;
    if (c.bufferRule == BufferPlanRule::Spreadsheet) {
      double minInput = roundUp(foldedC, fg) *
                        double(std::min<int64_t>(l.kernelH + c.minInputExtraRows,
                                                 (l.height + fy - 1) / fy)) *
                        std::ceil(double(l.width) / fx) * bpe;
      double minWeights = roundUp(foldedC, fg) * taps * c.minWeightKernels * bpe;
      auto f = fitSpreadsheet(c, e.inputBytes, e.weightBytes, minInput, minWeights);
      if (!f)
        return makeError("layer '" + l.name + "': " + f.message());
      fit = *f;
    } else {
      fit = fitPlanner(c, l, rowBytes, outH, winograd);
    }
    e.inputReads = fit.inputReads;
    e.weightReads = fit.weightReads;
    parts = fit.parts;
    e.bufferPlan = fit.plan;
    double weightTraffic = e.weightBytes * fit.weightReads;
    if (fc && c.fcWeightsAmortized)
      weightTraffic /= batch;
    e.trafficBytes = fit.inputBytes * fit.inputReads + weightTraffic + e.outputBytes;

    // MAC cycles: whole granules of (folded) channels and of kernels.
    double cycles = roundUp(foldedC, double(c.channelGranule)) * outH * outW *
                    (roundUp(double(l.kernels) * batch, double(c.kernelGranule)) / batch) *
                    l.kernelH * l.kernelW / double(fy * fx) / double(c.macs);
    if (winograd)
      cycles /= 2.25;
    e.macCycles = cycles;
    // The CSC feeds the MAC array in stripes: per kernel group, per tap and
    // per channel atom, runs of at most stripeAtomics outputs; each stripe
    // costs stripeCycles more (loading its weights: RTL calibration).
    if (c.stripeAtomics > 0 && !winograd)
      e.stripeCycles = c.stripeCycles * std::ceil(double(l.kernels) * batch / c.kernelGranule) *
                       l.kernelH * l.kernelW * std::ceil(foldedC / c.channelGranule) *
                       std::ceil(double(outH) * outW / double(c.stripeAtomics));
    e.networkMacs = double(l.channels) * outH * outW * l.kernels * l.kernelH * l.kernelW;
  } else {
    e.trafficBytes = e.inputBytes + e.outputBytes;
    e.bufferPlan = "";
  }
  e.trafficBytes += e.operandBytes;

  double bytesPerCycle = c.dramBytesPerSecond / c.clockHz;
  if (c.memifBytesPerCycle > 0)
    bytesPerCycle = std::min(bytesPerCycle, double(c.memifBytesPerCycle));
  e.memoryCycles = ceilCycles(e.trafficBytes / bytesPerCycle);
  // An SDP / PDP / CDP reads its input one interface beat a request with at
  // most readsInFlight requests outstanding: a long latency bounds it.
  if (!conv && c.readsInFlight > 0 && c.memifBytesPerCycle > 0)
    e.memoryCycles = std::max(e.memoryCycles,
                              std::ceil(e.inputBytes / double(c.memifBytesPerCycle)) *
                                  (c.memoryLatencyCycles + c.requestCycles) /
                                  double(c.readsInFlight));

  // Post-processing units: elements over their per-cycle throughput.
  auto unit = [&](int64_t throughput, double elements, std::string_view what) -> Expected<double> {
    if (throughput <= 0)
      return makeError("layer '" + l.name + "': " + c.name + " has no " + std::string(what));
    return ceilCycles(elements / double(throughput));
  };
  // The units process whole memory atoms (padding channels included).
  const double unitGranule = double(std::max<int64_t>(1, c.unitChannelGranule));
  const double outElements = double(outH) * outW * roundUp(double(outC), unitGranule);
  if (c.postProcessingBound) {
    if (conv || l.kind == PerfLayerKind::Sdp) {
      auto s = unit(c.sdpThroughput, outElements, "SDP");
      if (!s)
        return s.takeError();
      e.sdpCycles = *s;
      // On the fly the CACC hands the SDP one output atom at a time.
      if (conv && c.convSdpAtomCycles > 0)
        e.sdpCycles = std::max(e.sdpCycles, c.convSdpAtomCycles * double(outH) * outW *
                                                std::ceil(double(outC) / fg));
      // Without a Y (element-wise) stage the X stages read the operand
      // (BS / BN's PER_ELEMENT memory operand, as the compiled residual adds
      // and products do) at their own throughput, which sdpCycles already
      // is; its bytes are in the traffic above.
      if (l.elementwiseOperand && c.sdpEwThroughput > 0)
        e.sdpCycles =
            std::max(e.sdpCycles, ceilCycles(outElements / double(c.sdpEwThroughput)));
    }
    if (l.poolH > 0) {
      auto p = unit(c.pdpThroughput, outElements, "PDP");
      if (!p)
        return p.takeError();
      e.pdpCycles = *p;
    }
    if (l.kind == PerfLayerKind::Cdp) {
      auto p = unit(c.cdpThroughput, outElements, "CDP");
      if (!p)
        return p.takeError();
      e.cdpCycles = *p;
    }
  }

  // The long pole; on a tie the MAC array, then memory (the spreadsheet's).
  e.cycles = e.macCycles + e.stripeCycles;
  e.longPole = LongPole::Mac;
  for (auto [cycles, pole] : {std::pair{e.memoryCycles, LongPole::Memory},
                              std::pair{e.sdpCycles, LongPole::Sdp},
                              std::pair{e.pdpCycles, LongPole::Pdp},
                              std::pair{e.cdpCycles, LongPole::Cdp}})
    if (cycles > e.cycles) {
      e.cycles = cycles;
      e.longPole = pole;
    }
  if (!conv && e.longPole == LongPole::Mac)
    e.longPole = LongPole::Memory;
  // What every layer spends beyond its work: each pass of a convolution the
  // buffer plan cuts is a hardware layer of its own.
  double start = l.kind == PerfLayerKind::Sdp   ? c.sdpStartCycles
                 : l.kind == PerfLayerKind::Pdp ? c.pdpStartCycles
                 : l.kind == PerfLayerKind::Cdp ? c.cdpStartCycles
                                                : c.convStartCycles;
  if (conv && c.firstStripeAtomCycles > 0 && c.stripeAtomics > 0) {
    // The CSC's first stripe waits for the input rows its outputs read.
    int64_t outRows = ceilDiv(std::min<int64_t>(outH * outW, c.stripeAtomics), outW);
    int64_t rows = std::clamp<int64_t>((outRows - 1) * l.strideH +
                                           (l.kernelH - 1) * l.dilationH + 1 - l.padTop,
                                       1, l.height);
    start += c.firstStripeAtomCycles * rows * std::ceil(rowBytes / (fg * bpe));
  }
  e.startCycles = (start + c.startLatencies * c.memoryLatencyCycles) *
                  double(conv && c.bufferRule == BufferPlanRule::Planner ? parts : 1);
  e.cycles += e.startCycles;
  e.seconds = e.cycles / c.clockHz;
  return e;
}

Expected<PerfComparison> dlaformat::nvdla::compareLayers(const PerfConfig &c,
                                                         const PerfLayer &current,
                                                         const PerfLayer &alternative) {
  Expected<PerfEstimate> a = estimateLayer(c, current);
  if (!a)
    return a.takeError();
  Expected<PerfEstimate> b = estimateLayer(c, alternative);
  if (!b)
    return b.takeError();
  PerfComparison out;
  out.current = *a;
  out.alternative = *b;
  out.alternativeFaster = b->cycles < a->cycles;
  return out;
}
