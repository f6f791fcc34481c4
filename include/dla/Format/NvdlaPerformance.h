//===- NvdlaPerformance.h - How long an NVDLA hardware layer takes -*- C++ -*-===//
//
// A performance model of one hardware layer: the cycles its MACs need, the
// cycles its memory traffic needs and, outside NVIDIA's spreadsheet, the
// cycles of the SDP / PDP / CDP it passes through; the layer takes the
// longest of them (its "long pole"). The arithmetic and every choice it
// makes are docs/PerformanceModel.md's; in short:
//
//   MAC cycles  = ceil(C * fy * fx, Cg) * P * Q * ceil(K * b, Kg) / b
//                 * R * S / (fy * fx) / MACS / (2.25 if Winograd)
//     Cg, Kg = the MAC array's atomics (MAC_ATOMIC_C, kernels per group);
//     fy, fx = the strides when the stride is folded into channels (NVIDIA's
//     spreadsheet), else 1; b = the batch of a fully-connected layer.
//   traffic     = input * input reads + weights * weight reads + output
//                 (+ output again when the SDP reads an element-wise operand)
//     the reads come from the convolution buffer's plan: the format
//     library's planner (NvdlaConvBuffer.h, NVIDIA's compiler's rules:
//     partial-height parts re-read all weights) or the spreadsheet's rule.
//   DRAM cycles = ceil(traffic / min(bandwidth / clock, interface width)),
//                 SDP / PDP / CDP reads at most readsInFlight requests per
//                 (latency + requestCycles)
//   SDP / PDP / CDP cycles = elements / the unit's throughput (.spec files)
//   cycles      = start-up (per kind, + startLatencies * latency, + the
//                 convolution's first stripe's input fetch)
//                 + the longest of MAC (+ CSC stripes), DRAM, SDP, PDP, CDP
//     start-up, stripes, reads in flight: RtlCalibration, fitted to
//     nv_small's RTL.
//
// Two sets of assumptions: the hardware's (getHardwarePerfConfig: atomics,
// feature surfaces of whole memory atoms, bank-granular buffer plan, unit
// throughputs) and NVIDIA's spreadsheet's (getSpreadsheetPerfConfig: 16-wide
// granules, stride folding, byte-granular buffer, ideal fusion), which
// reproduces the spreadsheet's numbers layer by layer.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAPERFORMANCE_H
#define DLA_FORMAT_NVDLAPERFORMANCE_H

#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPrecision.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace dlaformat::nvdla {

/// Per-cycle throughputs and memory interfaces of a configuration, from
/// nvdla/hw's spec/defs/*.spec (nv_small, nv_large) and v1's nv_full.spec.
struct UnitThroughputs {
  HardwareKind kind;
  int64_t sdpBs, sdpBn, sdpEw; ///< SDP_BS/BN/EW_THROUGHPUT (elements / cycle; 0: absent)
  int64_t pdp, cdp;            ///< PDP_THROUGHPUT, CDP_THROUGHPUT
  int64_t primaryMemifBits;    ///< PRIMARY_MEMIF_WIDTH
  int64_t primaryMemifLatency; ///< PRIMARY_MEMIF_LATENCY (cycles; the latency FIFOs' sizing)
};
inline constexpr UnitThroughputs kUnitThroughputs[] = {
    {HardwareKind::NvFull, 16, 16, 4, 8, 8, 512, 1200},
    {HardwareKind::NvLarge, 16, 16, 4, 8, 8, 256, 1024},
    {HardwareKind::NvSmall, 1, 1, 0, 1, 1, 64, 64},
};
static_assert([] {
  for (size_t i = 0; i < std::size(kUnitThroughputs); ++i)
    if (static_cast<size_t>(kUnitThroughputs[i].kind) != i)
      return false;
  return true;
}());
constexpr const UnitThroughputs &getUnitThroughputs(HardwareKind kind) {
  return kUnitThroughputs[static_cast<size_t>(kind)];
}

/// What a hardware layer costs on a configuration's RTL beyond its units'
/// throughputs, fitted to cycles measured on NVIDIA's RTL
/// (docs/PerformanceModel.md, "Calibration"; bench/rtl_perf_error.py). Only
/// nv_small's RTL runs here: nv_full's and nv_large's rows are zero (not
/// measured), their estimates the units' throughputs alone.
struct RtlCalibration {
  HardwareKind kind;
  /// Cycles a layer spends beyond its work (programmed to interrupt: the
  /// units' start-up, pipeline fill and drain), per layer kind.
  double convStart, sdpStart, pdpStart, cdpStart;
  double startLatencies; ///< memory latencies each layer waits (first read, last write)
  int64_t readsInFlight; ///< an SDP / PDP / CDP read DMA's outstanding requests
  double requestCycles;  ///< a read request's cycles beyond the memory latency
  int64_t stripeAtomics; ///< atomic operations per CSC stripe at most
  double stripeCycles;   ///< cycles per stripe beyond its atomic operations
  /// Cycles per memory atom of the input rows a convolution's first stripe
  /// needs, which the CSC waits for (CDMA's fetch, before any MAC).
  double firstStripeAtomCycles;
  /// Cycles per output atom the CACC takes to hand a convolution's result
  /// to its SDP on the fly (the SDP alone: a memory atom / its throughput).
  double convSdpAtomCycles;
  /// SDP / PDP / CDP process whole memory atoms: channels padded to this.
  int64_t unitChannelGranule;
};
inline constexpr RtlCalibration kRtlCalibrations[] = {
    {HardwareKind::NvFull, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1},
    {HardwareKind::NvLarge, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1},
    // Fitted to half of bench/data/rtl-cycles-nv_small-seed1.json and
    // -conv-seed3.json (latency 32, 8 B/cycle) and the latency sweep;
    // convSdpAtomCycles from the classifier's SDP-bound convolutions
    // (-cls.json): docs/PerformanceModel.md, "Calibration".
    {HardwareKind::NvSmall, 170, 67, 8, 109, 2, 8, 14, 32, 6, 1.0, 11, 8},
};
static_assert([] {
  for (size_t i = 0; i < std::size(kRtlCalibrations); ++i)
    if (static_cast<size_t>(kRtlCalibrations[i].kind) != i)
      return false;
  return true;
}());
constexpr const RtlCalibration &getRtlCalibration(HardwareKind kind) {
  return kRtlCalibrations[static_cast<size_t>(kind)];
}

/// How the convolution buffer's fit is decided.
enum class BufferPlanRule {
  /// NvdlaConvBuffer.h's planner (NVIDIA's compiler): banks; a layer whose
  /// input does not fit beside its weights is cut by rows and every part
  /// reads all weights.
  Planner,
  /// NVIDIA's spreadsheet: bytes; whichever of input and (minimum) weights is
  /// smaller stays, the other is re-read (docs/PerformanceModel.md).
  Spreadsheet,
};

/// Everything the model needs of a configuration. Built by
/// getHardwarePerfConfig (optionally changed: a custom configuration) or
/// getSpreadsheetPerfConfig.
struct PerfConfig {
  std::string name;
  HardwareKind base = HardwareKind::NvFull; ///< the configuration the planner asks
  Precision precision = Precision::Int8;
  int64_t macs = 0;          ///< multiply-accumulates per cycle at `precision`
  int64_t channelGranule = 0; ///< Cg: input channels the MAC array takes at once
  int64_t kernelGranule = 0;  ///< Kg: kernels the MAC array takes at once
  /// Channels of a feature surface's unit in memory (a memory atom's).
  int64_t featureChannelGranule = 0;
  int64_t convBufferBytes = 0;
  double clockHz = 1e9;
  double dramBytesPerSecond = 10e9;
  int64_t memifBytesPerCycle = 0; ///< 0: no interface bound
  /// The memory's read latency in cycles (the .spec files have none;
  /// PRIMARY_MEMIF_LATENCY is the latency the DMA FIFOs are sized for). A
  /// layer waits it startLatencies times; it bounds SDP / PDP / CDP reads.
  double memoryLatencyCycles = 0;
  /// Calibration (RtlCalibration's fields; 0: none).
  double convStartCycles = 0, sdpStartCycles = 0, pdpStartCycles = 0, cdpStartCycles = 0;
  double startLatencies = 0;
  int64_t readsInFlight = 0; ///< 0: reads not bound by the latency
  double requestCycles = 0;
  int64_t stripeAtomics = 0; ///< 0: no stripe overhead
  double stripeCycles = 0;
  double firstStripeAtomCycles = 0;
  double convSdpAtomCycles = 0; ///< 0: the SDP's throughput alone
  int64_t unitChannelGranule = 1;
  int64_t sdpThroughput = 0, sdpEwThroughput = 0, pdpThroughput = 0, cdpThroughput = 0;
  bool winograd = false;          ///< the configuration has Winograd
  int64_t fcBatch = 1;            ///< images a fully-connected layer takes at once
  /// The spreadsheet's choices (docs/PerformanceModel.md).
  bool foldStride = false;        ///< a stride folds into channels (C * sy * sx)
  BufferPlanRule bufferRule = BufferPlanRule::Planner;
  bool postProcessingBound = true; ///< SDP / PDP / CDP throughputs bound a layer
  bool winogradWeightsExpanded = true; ///< Winograd weights take 4x4 of each 3x3
  bool fcWeightsAmortized = true; ///< a batch shares one read of FC weights
  bool bufferReloads = true;      ///< re-reads when input and weights do not fit
  int64_t minInputExtraRows = 1;  ///< Spreadsheet rule: rows beyond R in the least input
  int64_t minWeightKernels = 32;  ///< Spreadsheet rule: kernels in the least weights
  /// Spreadsheet rule: which side stays is decided by comparing the least
  /// input (else all of it) with all weights (else the least weights).
  bool sideByLeastInput = false, sideByAllWeights = false;
  /// The spreadsheet sizes an element-wise operand as the pooled output (the
  /// SDP reads it before the PDP: the convolution's output size).
  bool operandAfterPooling = false;
};

/// `kind`'s configuration at `precision`: atomics and buffer from
/// NvdlaHardware.h, throughputs from kUnitThroughputs; the clock and the
/// DRAM bandwidth are parameters (the .spec files have neither).
Expected<PerfConfig> getHardwarePerfConfig(HardwareKind kind, Precision precision,
                                           double clockHz = 1e9, double dramBytesPerSecond = 10e9);
/// NVIDIA's spreadsheet's configuration input ("Configuration Input" sheet:
/// int8, 2048 MACs, 512 KB buffer, 1 GHz, 10 GB/s, FC batch 16) and its
/// conventions; its "GB/s" moves 1.024e9 bytes a second (KB = 1024 bytes,
/// GB/s = KB per microsecond, as its cycle formulas compute).
PerfConfig getSpreadsheetPerfConfig();

enum class PerfLayerKind { Convolution, FullyConnected, Sdp, Pdp, Cdp };
std::string_view getPerfLayerKindName(PerfLayerKind kind);

/// One hardware layer. Convolution / FullyConnected: the CONV pipe with its
/// SDP on the fly and, optionally, a PDP on the fly; Sdp / Pdp / Cdp: a
/// unit on its own, reading its input from memory.
struct PerfLayer {
  std::string name;
  PerfLayerKind kind = PerfLayerKind::Convolution;
  int64_t channels = 0, height = 1, width = 1; ///< input C, H, W
  int64_t kernels = 0;                          ///< K (output channels; Sdp/Pdp/Cdp: = C)
  int64_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
  bool winograd = false;
  /// A pooling the PDP applies on the fly (or, kind Pdp, the layer's): its
  /// window and stride (0: none), output rows ceil((P - k) / s) + 1.
  int64_t poolH = 0, poolW = 0, poolStrideH = 0, poolStrideW = 0;
  int64_t poolPadTop = 0, poolPadLeft = 0, poolPadBottom = 0, poolPadRight = 0;
  /// The SDP reads an operand of the output's size (element-wise add).
  bool elementwiseOperand = false;
  /// Bytes of the weights as stored (dense or compressed); 0: from the shape.
  int64_t weightBytes = 0;
  /// The convolution buffer's banks given to the weights
  /// (ConvBufferQuery::weightBanks; 0: NVIDIA's order).
  int64_t weightBanks = 0;
};

enum class LongPole { Mac, Memory, Sdp, Pdp, Cdp };
std::string_view getLongPoleName(LongPole pole);

struct PerfEstimate {
  double macCycles = 0;    ///< 0 for Sdp / Pdp / Cdp layers
  double memoryCycles = 0; ///< traffic / bytes per cycle, or the reads in flight's bound
  double sdpCycles = 0, pdpCycles = 0, cdpCycles = 0;
  double stripeCycles = 0; ///< the CSC's stripes beyond the MAC cycles (MAC pole)
  double startCycles = 0;  ///< per layer beyond its work (calibration)
  double cycles = 0;       ///< startCycles + the longest of the above
  LongPole longPole = LongPole::Mac;
  // Traffic, bytes per image.
  double inputBytes = 0, weightBytes = 0, outputBytes = 0, operandBytes = 0;
  double trafficBytes = 0;
  int64_t inputReads = 1, weightReads = 1; ///< the buffer plan's (re-)reads
  std::string bufferPlan;  ///< the plan, in words
  int64_t outHeight = 0, outWidth = 0;   ///< the convolution's (before pooling)
  double networkMacs = 0;  ///< C * P * Q * K * R * S: the work without padding
  double seconds = 0;
  /// MAC cycles / cycles: how busy the MAC array is (0 for non-MAC layers).
  double macUtilization() const { return cycles > 0 ? macCycles / cycles : 0; }
};

/// Estimates `layer` on `config`; an error names what is malformed.
Expected<PerfEstimate> estimateLayer(const PerfConfig &config, const PerfLayer &layer);

/// The compiler's choice between two ways of running one hardware layer
/// (direct or Winograd, dense or compressed weights, ...) by the model's
/// time (docs/PerformanceModel.md, "Decisions"): both estimates, and
/// whether the alternative takes fewer cycles (a tie keeps the current).
struct PerfComparison {
  PerfEstimate current, alternative;
  bool alternativeFaster = false;
};
Expected<PerfComparison> compareLayers(const PerfConfig &config, const PerfLayer &current,
                                       const PerfLayer &alternative);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAPERFORMANCE_H
