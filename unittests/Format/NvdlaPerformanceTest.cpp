//===- NvdlaPerformanceTest.cpp - The performance model -------------------===//
//
// The spreadsheet half: every layer of NVIDIA's performance spreadsheet
// (AlexNet, GoogLeNet, ResNet-50; NvdlaPerformanceSheet.txt, transcribed from
// NVIDIA's .xlsx by utils/nvdla-perf-sheet/read_perf_sheet.py, which
// python/tests/test_performance_sheet.py re-runs on NVIDIA's file) within 1%.
// The hardware half: MAC cycles, buffer plans and bounds worked by hand from
// the atomics and throughputs of the .spec files.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaPerformance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

/// One line of the transcription: its kind and key -> value (provenance
/// "@Sheet!Cell" kept apart).
struct SheetLine {
  std::string what;
  std::map<std::string, std::string> values, cells;
  double num(const std::string &key) const {
    auto it = values.find(key);
    EXPECT_NE(it, values.end()) << "no " << key;
    return it == values.end() ? 0 : std::stod(it->second);
  }
  int64_t integer(const std::string &key) const { return int64_t(std::llround(num(key))); }
  std::string where(const std::string &key) const {
    auto it = cells.find(key);
    return it == cells.end() ? "?" : it->second;
  }
};

std::vector<SheetLine> readSheet() {
  std::ifstream in(DLA_PERF_SHEET);
  EXPECT_TRUE(in.good()) << "cannot read " << DLA_PERF_SHEET;
  std::vector<SheetLine> lines;
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#')
      continue;
    std::istringstream words(text);
    SheetLine line;
    words >> line.what;
    std::string word;
    while (words >> word) {
      auto eq = word.find('='), at = word.find('@');
      std::string key = word.substr(0, eq);
      line.values[key] = word.substr(eq + 1, at == std::string::npos ? at : at - eq - 1);
      if (at != std::string::npos)
        line.cells[key] = word.substr(at + 1);
    }
    lines.push_back(line);
  }
  return lines;
}

/// The spreadsheet's configuration with the conventions of the row's own
/// formulas (they differ from network to network and row to row).
PerfConfig configFor(const SheetLine &l) {
  PerfConfig c = getSpreadsheetPerfConfig();
  c.kernelGranule = l.integer("kernel_granule");
  c.winogradWeightsExpanded = l.integer("wino_weights_expanded");
  c.fcWeightsAmortized = l.integer("fc_weights_amortized");
  c.bufferReloads = l.integer("reloads");
  c.minInputExtraRows = l.integer("min_input_extra_rows");
  c.sideByLeastInput = l.integer("side_least_input");
  c.sideByAllWeights = l.integer("side_all_weights");
  return c;
}

/// The sheet's padding flag: "same" (P = ceil(H / s)) or none.
void pad(int64_t n, int64_t k, int64_t s, bool same, int64_t &before, int64_t &after) {
  int64_t total = same ? std::max<int64_t>(0, ((n + s - 1) / s - 1) * s + k - n) : 0;
  before = total / 2;
  after = total - before;
}

PerfLayer layerFor(const SheetLine &l) {
  PerfLayer p;
  p.name = l.values.at("net") + " row " + l.values.at("row");
  p.kind = l.values.at("kind") == "fc" ? PerfLayerKind::FullyConnected
                                       : PerfLayerKind::Convolution;
  p.channels = l.integer("C");
  p.height = l.integer("H");
  p.width = l.integer("W");
  p.kernels = l.integer("K");
  p.kernelH = l.integer("R");
  p.kernelW = l.integer("S");
  p.strideH = l.integer("sy");
  p.strideW = l.integer("sx");
  bool same = l.integer("same");
  pad(p.height, p.kernelH, p.strideH, same, p.padTop, p.padBottom);
  pad(p.width, p.kernelW, p.strideW, same, p.padLeft, p.padRight);
  if (l.integer("pool")) {
    p.poolH = l.integer("pr");
    p.poolW = l.integer("ps");
    p.poolStrideH = l.integer("psy");
    p.poolStrideW = l.integer("psx");
  }
  p.winograd = l.integer("wino");
  p.elementwiseOperand = l.values.at("kind").find("elwise") != std::string::npos;
  return p;
}

double relError(double got, double want) {
  return want == 0 ? std::abs(got) : std::abs(got - want) / std::abs(want);
}

TEST(NvdlaPerformance, SpreadsheetConfigurationIsTheSheets) {
  for (const SheetLine &l : readSheet()) {
    if (l.what != "config")
      continue;
    PerfConfig c = getSpreadsheetPerfConfig();
    EXPECT_EQ(getBytesPerElement(c.precision), l.integer("feature_bytes"));
    EXPECT_EQ(c.convBufferBytes, l.integer("cbuf_kb") * 1024);
    EXPECT_EQ(c.macs, l.integer("macs"));
    EXPECT_DOUBLE_EQ(c.clockHz, l.num("clock_mhz") * 1e6);
    EXPECT_DOUBLE_EQ(c.dramBytesPerSecond, l.num("dram_gbps") * 1.024e9);
    EXPECT_EQ(c.fcBatch, l.integer("fc_batch"));
    return;
  }
  FAIL() << "no config line";
}

TEST(NvdlaPerformance, ReproducesNvidiaSpreadsheetLayerByLayer) {
  struct Totals {
    double cycles = 0, mac = 0, networkMacs = 0;
  };
  std::map<std::string, Totals> totals;
  int layers = 0;
  double worst = 0;
  std::string worstWhere;
  for (const SheetLine &l : readSheet()) {
    if (l.what == "layer") {
      ++layers;
      PerfConfig c = configFor(l);
      Expected<PerfEstimate> e = estimateLayer(c, layerFor(l));
      ASSERT_TRUE(e.ok()) << e.message();
      auto check = [&](const char *key, double got, double want) {
        double err = relError(got, want);
        EXPECT_LE(err, 0.01) << l.where(key) << ": " << key << " " << got << ", the sheet's "
                             << want;
        if (err > worst) {
          worst = err;
          worstWhere = l.where(key);
        }
      };
      check("traffic", e->trafficBytes / 1024, l.num("traffic"));
      check("dram", e->memoryCycles, l.num("dram"));
      check("mac", e->macCycles, l.num("mac"));
      check("max", e->cycles, l.num("max"));
      if (l.values.count("factor"))
        check("factor", double(std::max(e->inputReads, e->weightReads)), l.num("factor"));
      EXPECT_EQ(e->longPole == LongPole::Mac ? "MAC" : "DRAM", l.values.at("pole"))
          << l.where("pole");
      Totals &t = totals[l.values.at("net")];
      t.cycles += e->cycles;
      t.mac += e->macCycles;
      t.networkMacs += e->networkMacs;
    } else if (l.what == "total") {
      const Totals &t = totals[l.values.at("net")];
      const double macs = getSpreadsheetPerfConfig().macs;
      EXPECT_LE(relError(t.cycles, l.num("cycles")), 0.01) << l.where("cycles");
      EXPECT_LE(relError(t.cycles / 1e6, l.num("ms")), 0.01) << l.where("ms");
      EXPECT_LE(relError(1e9 / t.cycles, l.num("fps")), 0.01) << l.where("fps");
      EXPECT_LE(relError(t.mac / t.cycles, l.num("hw_mac_util")), 0.01)
          << l.where("hw_mac_util");
      EXPECT_LE(relError(t.networkMacs / macs / t.cycles, l.num("network_mac_util")), 0.01)
          << l.where("network_mac_util") << ": " << t.networkMacs / macs / t.cycles;
    }
  }
  EXPECT_EQ(layers, 104); // 11 AlexNet, 39 GoogLeNet, 54 ResNet-50 rows
  EXPECT_EQ(totals.size(), 3u);
  std::cout << "worst per-layer difference: " << worst * 100 << "% at " << worstWhere << "\n";
}

// The hardware's assumptions, worked by hand.

TEST(NvdlaPerformance, MacsFromTheAtomics) {
  auto full8 = getHardwarePerfConfig(HardwareKind::NvFull, Precision::Int8);
  auto full16 = getHardwarePerfConfig(HardwareKind::NvFull, Precision::Fp16);
  auto small = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8);
  ASSERT_TRUE(full8.ok() && full16.ok() && small.ok());
  EXPECT_EQ(full8->macs, 2048); // 64 x 32
  EXPECT_EQ(full16->macs, 1024); // 64 x 16: half the kernels per group
  EXPECT_EQ(small->macs, 64);    // 8 x 8
  EXPECT_EQ(small->memifBytesPerCycle, 8);
  EXPECT_EQ(small->sdpThroughput, 1);
  EXPECT_EQ(small->convBufferBytes, 128 * 1024);
  auto bad = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Fp16);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("nv_small"), std::string::npos) << bad.message();
}

TEST(NvdlaPerformance, HardwareMacCyclesPadToAtomics) {
  auto c = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8);
  ASSERT_TRUE(c.ok());
  PerfLayer l;
  l.name = "conv";
  l.channels = 12; // 2 channel atoms of 8
  l.height = l.width = 10;
  l.kernels = 9; // 2 kernel groups of 8
  l.kernelH = l.kernelW = 3; // 8 x 8 outputs
  Expected<PerfEstimate> e = estimateLayer(*c, l);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(e->outHeight, 8);
  EXPECT_DOUBLE_EQ(e->macCycles, 2.0 * 2 * 8 * 8 * 9); // atoms x groups x outputs x taps
  EXPECT_DOUBLE_EQ(e->networkMacs, 12.0 * 9 * 64 * 9);
  // Feature surfaces in 8-byte atoms: 16 channels in, 16 out.
  EXPECT_DOUBLE_EQ(e->inputBytes, 16.0 * 100);
  EXPECT_DOUBLE_EQ(e->outputBytes, 16.0 * 64);
  // SDP at 1 element a cycle over whole atoms, 16 x 64 outputs, or the
  // CACC's hand-over of 2 x 64 output atoms, whichever is longer.
  EXPECT_DOUBLE_EQ(e->sdpCycles, std::max(16.0 * 64, 2 * 64 * c->convSdpAtomCycles));
  // The CSC's stripes: 2 kernel groups x 9 taps x 2 channel atoms x 2 runs
  // of at most 32 of the 64 outputs. The start-up (no latency) and the
  // first stripe's input: its 32 outputs are 4 rows, which read 6 input
  // rows of 10 pixels of 2 atoms.
  ASSERT_EQ(c->stripeAtomics, 32);
  EXPECT_DOUBLE_EQ(e->stripeCycles, 2.0 * 9 * 2 * 2 * c->stripeCycles);
  EXPECT_DOUBLE_EQ(e->startCycles, c->convStartCycles + 6 * 10 * 2 * c->firstStripeAtomCycles);
  EXPECT_DOUBLE_EQ(e->cycles, e->macCycles + e->stripeCycles + e->startCycles);
  EXPECT_EQ(e->longPole, LongPole::Mac);
  EXPECT_NEAR(e->macUtilization(), e->macCycles / e->cycles, 1e-12);
}

TEST(NvdlaPerformance, PartialHeightReadsWeightsOnceOrPerPart) {
  auto c = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8);
  ASSERT_TRUE(c.ok());
  PerfLayer l;
  l.name = "big";
  l.channels = 64;
  l.height = l.width = 224;
  l.kernels = 64;
  l.kernelH = l.kernelW = 3;
  l.padTop = l.padBottom = l.padLeft = l.padRight = 1;
  // The planner's own answer, asked directly: all weights stay (9 banks of
  // 64 x 64 x 9 bytes), so the parts reuse them.
  ConvBufferQuery q;
  q.channels = 64;
  q.height = q.width = 224;
  q.kernels = 64;
  q.kernelH = q.kernelW = 3;
  q.padTop = q.padBottom = q.padLeft = q.padRight = 1;
  const HardwareConfig &hw = getHardwareConfig(HardwareKind::NvSmall);
  auto plan = planConvBuffer(hw, q);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->mode, ConvBufferMode::PartialHeight);
  ASSERT_EQ(plan->allottedWeightBanks, 9);
  ASSERT_GT(plan->numParts, 1);
  Expected<PerfEstimate> once = estimateLayer(*c, l);
  ASSERT_TRUE(once.ok()) << once.message();
  EXPECT_EQ(once->weightReads, 1);
  // Overlapping rows are read again: more than the input, less than twice.
  EXPECT_GT(once->trafficBytes, once->inputBytes + once->weightBytes + once->outputBytes);
  // Two kernel groups (8 x 64 x 9 = 4608 bytes, 2 banks, each): every part reads
  // the weights again, and each part starts up.
  l.weightBanks = q.weightBanks = 2 * plan->kernelGroupBanks;
  auto twoGroups = planConvBuffer(hw, q);
  ASSERT_TRUE(twoGroups.ok());
  Expected<PerfEstimate> e = estimateLayer(*c, l);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(e->weightReads, twoGroups->numParts);
  EXPECT_GT(e->weightReads, 1);
  EXPECT_NEAR(e->startCycles / once->startCycles,
              double(twoGroups->numParts) / double(plan->numParts), 1e-9);
  // An allotment that is none of the three does not plan.
  q.weightBanks = 5;
  auto none = planConvBuffer(hw, q);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(), "convolution buffer: 5 weight banks requested; its weights take 9 "
                            "banks whole, 2 per kernel group: all, two groups or one group");
  EXPECT_EQ(getWeightBankChoices(hw, q), (std::vector<int64_t>{9, 4, 2}));
}

TEST(NvdlaPerformance, MemoryBoundAtTheInterfaceWidth) {
  // 1 TB/s of DRAM cannot beat nv_small's 64-bit interface: 8 bytes a cycle.
  auto c = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8, 1e9, 1e12);
  ASSERT_TRUE(c.ok());
  PerfLayer l;
  l.name = "pool";
  l.kind = PerfLayerKind::Pdp;
  l.channels = 8;
  l.height = l.width = 16;
  l.poolH = l.poolW = l.poolStrideH = l.poolStrideW = 2;
  Expected<PerfEstimate> e = estimateLayer(*c, l);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_DOUBLE_EQ(e->trafficBytes, 8.0 * 256 + 8.0 * 64);
  c->readsInFlight = 0; // the interface alone
  e = estimateLayer(*c, l);
  ASSERT_TRUE(e.ok());
  EXPECT_DOUBLE_EQ(e->memoryCycles, (8.0 * 256 + 8.0 * 64) / 8);
  EXPECT_DOUBLE_EQ(e->pdpCycles, 8.0 * 256); // one element a cycle
  EXPECT_EQ(e->longPole, LongPole::Pdp);
  EXPECT_DOUBLE_EQ(e->cycles, 8.0 * 256 + c->pdpStartCycles);
  // A long latency: every layer waits it startLatencies times, and the
  // PDP's 256 one-beat reads, 8 outstanding, take latency + requestCycles
  // each (nv_small's RTL calibration).
  c = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8, 1e9, 1e12);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->readsInFlight, 8);
  c->memoryLatencyCycles = 5000;
  e = estimateLayer(*c, l);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->longPole, LongPole::Memory);
  EXPECT_DOUBLE_EQ(e->memoryCycles, 256 * (5000 + c->requestCycles) / 8);
  EXPECT_DOUBLE_EQ(e->startCycles, c->pdpStartCycles + c->startLatencies * 5000);
  EXPECT_DOUBLE_EQ(e->cycles, e->memoryCycles + e->startCycles);
}

// nv_small has no Y stage: the X stages read an element-wise operand (BS /
// BN's PER_ELEMENT operand, as the compiled residual adds do) at their own
// throughput, so the SDP's cycles stay; the operand's bytes join the
// traffic: 6 x 6 outputs of a 3x3 kernel over 8x8, 8 channels, int8.
TEST(NvdlaPerformance, ElementwiseOperandWithoutYStage) {
  auto c = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->sdpEwThroughput, 0);
  PerfLayer l;
  l.name = "w";
  l.channels = l.kernels = 8;
  l.height = l.width = 8;
  l.kernelH = l.kernelW = 3;
  auto plain = estimateLayer(*c, l);
  ASSERT_TRUE(plain.ok());
  l.elementwiseOperand = true;
  auto e = estimateLayer(*c, l);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(e->sdpCycles, plain->sdpCycles);
  EXPECT_EQ(e->operandBytes, 6 * 6 * 8);
  EXPECT_EQ(e->trafficBytes, plain->trafficBytes + 6 * 6 * 8);
}

TEST(NvdlaPerformance, RejectsWhatTheConfigurationLacks) {
  auto c = getHardwarePerfConfig(HardwareKind::NvSmall, Precision::Int8);
  ASSERT_TRUE(c.ok());
  PerfLayer l;
  l.name = "w";
  l.channels = l.kernels = 8;
  l.height = l.width = 8;
  l.kernelH = l.kernelW = 3;
  l.winograd = true;
  auto e = estimateLayer(*c, l);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.message(), "layer 'w': Winograd, which nv_small does not have");
  l.winograd = false;
  l.height = 0;
  e = estimateLayer(*c, l);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.message(), "layer 'w': input 8x0x8 is not a positive C x H x W");
}

// The compiler's decisions (docs/PerformanceModel.md, "Decisions"): nv_full
// fp16 at 1 GHz, 10 GB/s (10 bytes a cycle), 64 x 16 MACs, 16 channels of
// 2 bytes a memory atom; its calibration adds nothing (zero terms).
TEST(NvdlaPerformance, CompareLayersWinogradByTime) {
  auto c = getHardwarePerfConfig(HardwareKind::NvFull, Precision::Fp16);
  ASSERT_TRUE(c.ok());
  PerfLayer direct;
  direct.name = "small";
  direct.channels = direct.kernels = 64;
  direct.height = direct.width = 4;
  direct.kernelH = direct.kernelW = 3;
  direct.padTop = direct.padBottom = direct.padLeft = direct.padRight = 1;
  PerfLayer winograd = direct;
  winograd.winograd = true;
  // 4x4 outputs. Direct: input 64 x 16 x 2 = 2048 bytes, weights
  // 64 x 9 x 64 x 2 = 73728, output 2048: 77824 / 10 = 7782.4 -> 7783
  // memory cycles against 64 x 16 x 64 x 9 / 1024 = 576 MAC cycles.
  // Winograd: weights x 16/9 = 131072: 135168 / 10 -> 13517 (MAC 256).
  auto small = compareLayers(*c, direct, winograd);
  ASSERT_TRUE(small.ok()) << small.message();
  EXPECT_DOUBLE_EQ(small->current.cycles, 7783);
  EXPECT_DOUBLE_EQ(small->alternative.cycles, 13517);
  EXPECT_FALSE(small->alternativeFaster);
  // 128 -> 128 channels on 28x28. Direct: MAC 128 x 784 x 128 x 9 / 1024 =
  // 112896; memory (200704 + 294912 + 200704) / 10 = 69632. Winograd: MAC
  // 50176, memory (200704 + 524288 + 200704) / 10 = 92569.6 -> 92570.
  direct.channels = direct.kernels = winograd.channels = winograd.kernels = 128;
  direct.height = direct.width = winograd.height = winograd.width = 28;
  auto big = compareLayers(*c, direct, winograd);
  ASSERT_TRUE(big.ok()) << big.message();
  EXPECT_DOUBLE_EQ(big->current.cycles, 112896);
  EXPECT_EQ(big->current.longPole, LongPole::Mac);
  EXPECT_DOUBLE_EQ(big->alternative.cycles, 92570);
  EXPECT_EQ(big->alternative.longPole, LongPole::Memory);
  EXPECT_TRUE(big->alternativeFaster);
  // A tie keeps the current; an error names the layer.
  auto same = compareLayers(*c, direct, direct);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->alternativeFaster);
  direct.height = 0;
  auto bad = compareLayers(*c, direct, winograd);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "layer 'small': input 128x0x28 is not a positive C x H x W");
}

} // namespace
