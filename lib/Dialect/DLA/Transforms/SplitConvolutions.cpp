//===- SplitConvolutions.cpp - Convolutions cut to fit the CBUF -----------===//
//
// A convolution whose input rows and weights exceed the convolution buffer
// runs as several hardware layers, each over a band of output rows
// (NVIDIA's "partial H"): the pass records the band (`rows_per_part`), the
// register plan cuts the layer into descriptors over sub-surfaces of the
// same buffers (DescribeConv.cpp). No tensor is cut, no host op copies rows.
// The bank arithmetic is the format library's (NvdlaConvBuffer.h), the
// choice of the weights' banks by time its performance model's.
//
//===----------------------------------------------------------------------===//

#include "CutInputChannels.h"
#include "CutKernels.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaPerformance.h"

#include <cmath>

namespace mlir::dla {
#define GEN_PASS_DEF_DLASPLITCONVOLUTIONS
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The weight banks the performance model estimates fastest for `conv`, cut
/// as `nvidia` plans it (NVIDIA's order); 0 when that is NVIDIA's own.
/// `said` gets both estimates.
int64_t fastestWeightBanks(ConvOp conv, const nv::HardwareConfig &config,
                           const nv::ConvBufferQuery &q, const nv::ConvBufferPlan &nvidia,
                           int64_t banks, std::string &said) {
  std::optional<nv::PerfLayer> layer = getConvPerfLayer(conv);
  fmt::Expected<nv::PerfConfig> perf =
      nv::getHardwarePerfConfig(config.kind, getConvWeightPrecision(conv));
  if (!layer || !perf)
    return 0;
  // The buffer the pass was given (its banks are the configuration's size).
  perf->convBufferBytes = (banks > 0 ? banks : config.caps.cbufBanks) *
                          config.caps.cbufBankEntries * config.weightBufferEntryBytes;
  layer->weightBanks = 0;
  nv::PerfLayer best = *layer;
  std::optional<nv::PerfComparison> won;
  for (int64_t b : nv::getWeightBankChoices(config, q)) {
    nv::ConvBufferQuery fixed = q;
    fixed.weightBanks = b;
    // One kernel group instead of two: the next group's fetch then waits
    // for the current's release, a stall the model does not count yet.
    if (b == nvidia.allottedWeightBanks || b < 2 * nvidia.kernelGroupBanks ||
        !nv::planConvBuffer(config, fixed))
      continue;
    nv::PerfLayer alternative = *layer;
    alternative.weightBanks = b;
    fmt::Expected<nv::PerfComparison> c = nv::compareLayers(*perf, best, alternative);
    if (c && c->alternativeFaster) {
      best = alternative;
      if (!won)
        won = *c;
      else
        won->alternative = c->alternative;
    }
  }
  if (!won)
    return 0;
  auto cycles = [](const nv::PerfEstimate &e) {
    return std::to_string(static_cast<int64_t>(std::ceil(e.cycles)));
  };
  said = "the performance model estimates " + cycles(won->alternative) + " cycles (" +
         won->alternative.bufferPlan + ") against " + cycles(won->current) + " (" +
         won->current.bufferPlan + ") with NVIDIA's " +
         std::to_string(nvidia.allottedWeightBanks) + " weight banks";
  return best.weightBanks;
}

/// The weights' share of the buffer, in words.
std::string describeAllotment(const nv::ConvBufferPlan &plan) {
  if (plan.allottedWeightBanks == plan.weightBanks)
    return "all its weights, loaded once and reused by every part";
  return std::string(plan.allottedWeightBanks == 2 * plan.kernelGroupBanks ? "two kernel groups"
                                                                           : "one kernel group") +
         ", its weights read again by every part";
}

/// Plans `conv` on the buffer; when its input does not fit beside its
/// weights, records the band of output rows each hardware layer takes
/// (`rows_per_part`) and the weights' banks when the model chose them, and
/// says so. The number of parts (1: unchanged), or failure when even one
/// row does not fit. One visit per convolution: the walk of the pass, not a
/// greedy driver, so that the error and the remark are said once.
FailureOr<int64_t> planConvolution(ConvOp conv, const fmt::Target &target, int64_t banks,
                                   int64_t bankEntries, WeightBankPolicy policy,
                                   bool &byTime) {
  if (target.accelerator != fmt::Accelerator::Nvdla)
    return 1;
  // Dynamic shapes and non-NVDLA precisions are the legality checks' to
  // reject; there is nothing to plan.
  std::optional<nv::ConvBufferQuery> query = getConvBufferQuery(conv, conv.getMode());
  if (!query)
    return 1;
  nv::ConvBufferQuery &q = *query;
  q.banks = banks;
  q.bankEntries = bankEntries;
  q.weightBanks = 0;
  const nv::HardwareConfig &config = nv::getHardwareConfig(target.config);
  fmt::Expected<nv::ConvBufferPlan> plan = nv::planConvBuffer(config, q);
  if (!plan) {
    conv.emitOpError() << "does not fit NVDLA " << config.name << ": " << plan.message();
    return failure();
  }
  conv.removeWeightBanksAttr();
  if (plan->mode != nv::ConvBufferMode::PartialHeight || plan->numParts < 2) {
    conv.removeRowsPerPartAttr();
    return 1;
  }
  std::string said;
  if (policy == WeightBankPolicy::Fastest && bankEntries == 0 && q.pixelChannels == 0)
    if (int64_t b = fastestWeightBanks(conv, config, q, *plan, banks, said)) {
      q.weightBanks = b;
      fmt::Expected<nv::ConvBufferPlan> chosen = nv::planConvBuffer(config, q);
      if (chosen && chosen->mode == nv::ConvBufferMode::PartialHeight) {
        plan = std::move(chosen);
        conv.setWeightBanks(b);
        byTime = true;
      } else {
        said.clear();
        q.weightBanks = 0;
      }
    }
  // The most input rows a band reads: its output rows' windows, clipped
  // to the input (padding lies outside).
  const int64_t outRows = cast<RankedTensorType>(conv.getOutput().getType()).getDimSize(2);
  int64_t partRows = 0;
  for (int64_t o0 = 0; o0 < outRows; o0 += plan->outputRowsPerPart)
    partRows = std::max(
        partRows,
        nv::getConvRowBand(q, o0, std::min(outRows, o0 + plan->outputRowsPerPart)).rows());
  conv.setRowsPerPart(plan->outputRowsPerPart);
  const int64_t outCols = cast<RankedTensorType>(conv.getOutput().getType()).getDimSize(3);
  int64_t partCols = 0;
  // Columns are not recorded: the register plan cuts them from the same
  // buffer plan (DescribeConv.cpp); rows_per_part is then the rows of a
  // column part.
  if (plan->outputColsPerPart > 0) {
    for (int64_t o0 = 0; o0 < outCols; o0 += plan->outputColsPerPart)
      partCols = std::max(
          partCols,
          nv::getConvColBand(q, o0, std::min(outCols, o0 + plan->outputColsPerPart)).cols());
  }
  auto diag = mlir::emitRemark(conv.getLoc());
  diag << "runs as " << plan->numParts << " hardware layers of at most "
       << plan->outputRowsPerPart << " output rows";
  if (plan->outputColsPerPart > 0)
    diag << " by " << plan->outputColsPerPart << " output columns (one row of its input, "
         << q.width << " columns, does not fit beside its weights; a part reads " << partCols
         << ")";
  diag << " over bands of its input and result (no host "
      << "copies): its input takes " << plan->dataBanks
      << " banks of the convolution buffer and its weights " << plan->weightBanks
      << ", the buffer has " << (banks > 0 ? banks : config.caps.cbufBanks) << " of "
      << (bankEntries > 0 ? bankEntries : config.caps.cbufBankEntries) << " entries ("
      << nv::getConvBufferModeName(plan->mode) << "; weights in " << plan->allottedWeightBanks
      << " banks: " << describeAllotment(*plan) << ", at most "
      << plan->entriesPerLine * partRows * config.weightBufferEntryBytes
      << " bytes of input rows per part)";
  if (!said.empty())
    diag << "; weight banks by time: " << said;
  return plan->numParts;
}

struct SplitConvolutionsPass : mlir::dla::impl::DLASplitConvolutionsBase<SplitConvolutionsPass> {
  using Base::Base;

  void runOnOperation() override {
    // The option's target, else the module's (one per module).
    FailureOr<fmt::Target> resolved = TargetAttr::resolve(getOperation(), target);
    if (failed(resolved))
      return signalPassFailure();
    const fmt::Target &effective = *resolved;
    // The options against the buffer of the configuration they apply to.
    if (effective.accelerator == fmt::Accelerator::Nvdla) {
      const nv::HardwareConfig &config = nv::getHardwareConfig(effective.config);
      for (auto [name, value, most, macro] :
           {std::tuple<StringRef, int64_t, int64_t, StringRef>{
                "banks", banks, config.caps.cbufBanks, "CBUF_BANK_NUMBER"},
            {"bank-entries", bankEntries, config.caps.cbufBankEntries, "CBUF_BANK_DEPTH"}})
        if (value < 0 || value > most) {
          getOperation().emitError() << "--dla-split-convolutions: " << name << "=" << value
                                     << ": " << config.name << " has 1 to " << most << " ("
                                     << macro << "; 0: all)";
          return signalPassFailure();
        }
    }
    SmallVector<ConvOp> found, convs;
    getOperation().walk([&](ConvOp conv) { found.push_back(conv); });
    bool ok = true;
    // First the cuts by kernels, then by input channels (their parts
    // planned below like any).
    SmallVector<ConvOp> byKernels;
    for (ConvOp conv : found) {
      if (effective.accelerator != fmt::Accelerator::Nvdla) {
        byKernels.push_back(conv);
        continue;
      }
      FailureOr<SmallVector<ConvOp>> parts =
          cutKernels(conv, nv::getHardwareConfig(effective.config));
      if (failed(parts)) {
        ok = false;
        continue;
      }
      numKernelCut += parts->size() > 1;
      byKernels.append(*parts);
    }
    for (ConvOp conv : byKernels) {
      std::optional<nv::ConvBufferQuery> q =
          effective.accelerator == fmt::Accelerator::Nvdla
              ? getConvBufferQuery(conv, conv.getMode())
              : std::nullopt;
      if (!q) {
        convs.push_back(conv);
        continue;
      }
      q->banks = banks;
      q->bankEntries = bankEntries;
      q->weightBanks = 0;
      FailureOr<SmallVector<ConvOp>> parts =
          cutInputChannels(conv, nv::getHardwareConfig(effective.config), *q);
      if (failed(parts)) {
        ok = false;
        continue;
      }
      if (parts->size() > 1)
        ++numChannelCut;
      convs.append(*parts);
    }
    for (ConvOp conv : convs) {
      bool byTime = false;
      FailureOr<int64_t> n =
          planConvolution(conv, effective, banks, bankEntries, weightBanks, byTime);
      if (failed(n)) {
        ok = false;
        continue;
      }
      numByTime += byTime;
      if (*n > 1) {
        ++numSplit;
        numParts += *n;
      }
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
