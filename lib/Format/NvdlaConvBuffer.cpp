//===- NvdlaConvBuffer.cpp - What a convolution needs of the CBUF ---------===//

#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaRegisters.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;

std::string_view dlaformat::nvdla::getConvBufferModeName(ConvBufferMode mode) {
  switch (mode) {
  case ConvBufferMode::FullInputFullWeight:
    return "full input and full weights";
  case ConvBufferMode::PingPongWeights:
    return "full input, ping-pong kernel groups";
  case ConvBufferMode::OneKernelGroup:
    return "full input, one kernel group at a time";
  case ConvBufferMode::PartialHeight:
    return "partial height";
  }
  return "?";
}

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// The product of `factors`, or nullopt on int64 overflow.
std::optional<int64_t> product(std::initializer_list<int64_t> factors) {
  std::optional<int64_t> p = 1;
  for (int64_t f : factors)
    if (p)
      p = checkedMul(*p, f);
  return p;
}

/// Banks for `entries` buffer entries.
int64_t banksFor(int64_t entries, int64_t depth) { return ceilDiv(entries, depth); }

/// The banks data and weights share: those asked for, less the WMB bank.
int64_t usableBanks(const HardwareConfig &c, const ConvBufferQuery &q) {
  return (q.banks > 0 ? q.banks : c.caps.cbufBanks) - (q.compressedWeights ? 1 : 0);
}

/// Banks for `bytes` of weights, padded to whole entries.
int64_t weightBanksFor(int64_t bytes, const HardwareConfig &c, int64_t depth) {
  return banksFor(ceilDiv(bytes, c.weightBufferEntryBytes), depth);
}

/// Entries of one input line (NVIDIA's calculateEPS).
std::optional<int64_t> entriesPerLine(const HardwareConfig &c, const ConvBufferQuery &q) {
  const int64_t bpe = getBytesPerElement(q.precision);
  const int64_t width = c.weightBufferEntryBytes;
  if (q.pixelChannels > 0) {
    auto w = checkedAdd(q.width, q.padLeft);
    w = w ? checkedAdd(*w, q.padRight) : w;
    auto bytes = w ? product({*w, q.pixelChannels, bpe}) : std::nullopt;
    return bytes ? std::optional<int64_t>(ceilDiv(*bytes, width)) : std::nullopt;
  }
  const int64_t atom = c.caps.memoryAtomBytes;
  auto channelBytes = checkedMul(q.channels, bpe);
  if (!channelBytes)
    return std::nullopt;
  const int64_t atoms = ceilDiv(*channelBytes, atom);
  const int64_t perEntry = width / atom;
  const int64_t last = atoms % perEntry;
  auto whole = checkedMul(atoms / perEntry, q.width);
  // NVIDIA's rule: three atoms of a four-atom entry take a whole entry.
  std::optional<int64_t> frac = q.width;
  if (last != 3) {
    frac = checkedMul(last, q.width);
    if (frac)
      frac = ceilDiv(*frac, perEntry);
  }
  if (!whole || !frac)
    return std::nullopt;
  return checkedAdd(*whole, *frac);
}

/// Winograd: entries per line and lines of the extended input cube, and
/// the bytes of the transformed taps of `kernels` kernels; nullopt on
/// overflow.
struct WinogradSizes {
  int64_t entriesPerLine, lines, bytesPerKernel;
};
std::optional<WinogradSizes> winogradSizes(const ConvBufferQuery &q) {
  const int64_t bpe = getBytesPerElement(q.precision);
  auto out = [](int64_t in, int64_t padA, int64_t padB, int64_t k, int64_t dil, int64_t stride) {
    const int64_t window = (k - 1) * dil + 1, padded = in + padA + padB;
    return padded >= window ? (padded - window) / stride + 1 : 0;
  };
  const int64_t outW = out(q.width, q.padLeft, q.padRight, q.kernelW, 1, q.strideW);
  const int64_t outH = out(q.height, q.padTop, q.padBottom, q.kernelH, q.dilationH, q.strideH);
  const int64_t cubeW = ceilDiv(outW, 4) * 4 + 4, cubeH = ceilDiv(outH, 4) * 4 + 4;
  auto channelBytes = checkedMul(q.channels, bpe);
  if (!channelBytes)
    return std::nullopt;
  const int64_t atoms = ceilDiv(*channelBytes, kDocumentAtomBytes); // C' in 32-byte atoms
  auto atomsExt = product({atoms, q.strideW, q.strideH});
  auto eps = atomsExt ? checkedMul(cubeW / 4, *atomsExt) : std::nullopt;
  auto tapBytes = atomsExt ? product({4 * 4, *atomsExt, kDocumentAtomBytes}) : std::nullopt;
  if (!eps || !tapBytes)
    return std::nullopt;
  return WinogradSizes{*eps, cubeH, *tapBytes};
}

} // namespace

namespace {
/// planConvBuffer, whose refusal of a layer that only an input-channel cut
/// would fit ends with `channelTail`.
Expected<ConvBufferPlan> planWhole(const HardwareConfig &c, const ConvBufferQuery &q,
                                   std::string_view channelTail) {
  for (int64_t v : {q.channels, q.height, q.width, q.kernels, q.kernelH, q.kernelW, q.strideH,
                    q.dilationH, q.batches})
    if (v <= 0)
      return makeError("convolution buffer: extents, strides and dilations must be positive");
  if (q.padTop < 0 || q.padBottom < 0 || q.padLeft < 0 || q.padRight < 0 || q.pixelChannels < 0)
    return makeError("convolution buffer: paddings must not be negative");
  const int64_t requested = q.banks > 0 ? q.banks : c.caps.cbufBanks;
  if (requested > c.caps.cbufBanks)
    return makeError("convolution buffer: " + str(requested) + " banks requested, " +
                     std::string(c.name) + " has " + str(c.caps.cbufBanks) + " (CBUF_BANK_NUMBER)");
  if (q.compressedWeights && !c.caps.weightCompression)
    return makeError("convolution buffer: " + whyNotWeightCompression(c));
  const int64_t banks = usableBanks(c, q);
  const int64_t depth = q.bankEntries > 0 ? q.bankEntries : c.caps.cbufBankEntries;
  if (depth > c.caps.cbufBankEntries)
    return makeError("convolution buffer: " + str(depth) + " entries per bank requested, " +
                     std::string(c.name) + " has " + str(c.caps.cbufBankEntries) +
                     " (CBUF_BANK_DEPTH)");
  const int64_t bpe = getBytesPerElement(q.precision);
  // Without a batch mode each input is a layer of its own.
  const int64_t batches = c.caps.batch ? q.batches : 1;
  const std::string overflow = "convolution buffer: sizes overflow a 64-bit integer";

  ConvBufferPlan plan;
  std::optional<int64_t> eps, dataEntries, weightBytes, groupBytes;
  if (q.winograd) {
    if (q.pixelChannels > 0 || q.strideW <= 0 || ceilDiv(q.kernelW, q.strideW) != 3 ||
        ceilDiv(q.kernelH, q.strideH) != 3)
      return makeError("convolution buffer: Winograd takes feature data and 3x3 kernels after "
                       "the stride's channel extension");
    if (batches > 1)
      return makeError("convolution buffer: Winograd takes one input, not a batch of " +
                       str(batches) + " (cmod/csc: batches are direct convolutions')");
    std::optional<WinogradSizes> wg = winogradSizes(q);
    if (wg) {
      eps = wg->entriesPerLine;
      dataEntries = checkedMul(wg->entriesPerLine, wg->lines);
      weightBytes = checkedMul(wg->bytesPerKernel, q.kernels);
      groupBytes = checkedMul(wg->bytesPerKernel, c.getKernelsPerGroup(q.precision));
    }
  } else {
    eps = entriesPerLine(c, q);
    dataEntries = eps ? product({*eps, q.height, batches}) : std::nullopt;
    weightBytes = product({q.kernels, q.channels, q.kernelH, q.kernelW, bpe});
    groupBytes =
        product({q.channels, q.kernelH, q.kernelW, c.getKernelsPerGroup(q.precision), bpe});
  }
  if (!dataEntries || !weightBytes || !groupBytes)
    return makeError(overflow);
  plan.entriesPerLine = *eps;
  plan.dataBanks = banksFor(*dataEntries, depth);
  plan.weightBanks = weightBanksFor(*weightBytes, c, depth);
  plan.kernelGroupBanks = weightBanksFor(*groupBytes, c, depth);

  // The allotments tried, in NVIDIA's order, or the one asked for.
  std::vector<int64_t> allotments = {plan.weightBanks, 2 * plan.kernelGroupBanks,
                                     plan.kernelGroupBanks};
  if (q.weightBanks > 0) {
    if (std::find(allotments.begin(), allotments.end(), q.weightBanks) == allotments.end())
      return makeError("convolution buffer: " + str(q.weightBanks) +
                       " weight banks requested; its weights take " + str(plan.weightBanks) +
                       " banks whole, " + str(plan.kernelGroupBanks) +
                       " per kernel group: all, two groups or one group");
    allotments = {q.weightBanks};
  }
  const ConvBufferMode whole[] = {ConvBufferMode::FullInputFullWeight,
                                  ConvBufferMode::PingPongWeights,
                                  ConvBufferMode::OneKernelGroup};
  for (int64_t allotted : allotments)
    if (allotted + plan.dataBanks <= banks) {
      plan.mode = allotted == plan.weightBanks           ? whole[0]
                  : allotted == 2 * plan.kernelGroupBanks ? whole[1]
                                                          : whole[2];
      plan.allottedWeightBanks = allotted;
      return plan;
    }

  if (batches > 1)
    return makeError("convolution buffer: a batch of " + str(batches) + " inputs takes " +
                     str(plan.dataBanks) + " banks beside one kernel group's " +
                     str(plan.kernelGroupBanks) + ", the buffer has " + str(banks) +
                     "; NVDLA's batch mode holds every input whole (cut the batch)");
  if (q.winograd)
    return makeError("convolution buffer: the Winograd input takes " + str(plan.dataBanks) +
                     " banks and one kernel group of transformed weights " +
                     str(plan.kernelGroupBanks) + ", the buffer has " + str(banks) +
                     "; NVIDIA's compiler runs such a layer as a direct convolution");

  // Partial height: the weights as whole as rows of one output row's window
  // still fit beside them (all, two kernel groups, one), the rest for rows.
  plan.mode = ConvBufferMode::PartialHeight;
  const int64_t window = (q.kernelH - 1) * q.dilationH + 1;
  int64_t rowsFit = 0;
  for (int64_t allotted : allotments) {
    plan.allottedWeightBanks = allotted;
    auto spare = checkedMul(banks > allotted ? banks - allotted : 0, depth);
    if (!spare)
      return makeError(overflow);
    rowsFit = *spare / plan.entriesPerLine;
    if (rowsFit >= window)
      break;
  }
  if (rowsFit < window && q.pixelChannels == 0) {
    // Partial width: the weights' allotment (all, two groups, one) and the
    // output columns per part that make the fewest parts (columns by
    // rows), a window of rows of the part's columns fitting beside the
    // weights; ties to the larger allotment, then to the wider part.
    const int64_t windowW = (q.kernelW - 1) * q.dilationW + 1;
    const int64_t paddedCols = q.width + q.padLeft + q.padRight;
    const int64_t outputCols = paddedCols >= windowW ? (paddedCols - windowW) / q.strideW + 1 : 0;
    const int64_t paddedRows = q.height + q.padTop + q.padBottom;
    const int64_t outputRows = paddedRows >= window ? (paddedRows - window) / q.strideH + 1 : 0;
    int64_t bestParts = 0;
    for (int64_t allotted : allotments) {
      auto spare = checkedMul(banks > allotted ? banks - allotted : 0, depth);
      if (!spare)
        return makeError(overflow);
      for (int64_t n = outputCols; n >= 1; --n) {
        const int64_t cols = std::min(q.width, (n - 1) * q.strideW + windowW);
        const int64_t eps = getConvEntriesPerLine(c, q, cols);
        const int64_t fit = eps > 0 ? *spare / eps : 0;
        if (fit < window)
          continue;
        const int64_t rows = std::min(outputRows, (fit - window) / q.strideH + 1);
        // No 1x1 part: NVDLA writes a one-pixel cube only packed.
        if ((n == 1 || outputCols % n == 1) && (rows == 1 || outputRows % rows == 1))
          continue;
        const int64_t parts = ceilDiv(outputCols, n) * ceilDiv(outputRows, rows);
        if (bestParts == 0 || parts < bestParts) {
          bestParts = parts;
          plan.allottedWeightBanks = allotted;
          plan.outputColsPerPart = n;
          plan.entriesPerLine = eps;
          rowsFit = fit;
        }
      }
    }
  }
  if (rowsFit < window) {
    std::optional<int64_t> windowEntries = checkedMul(window, plan.entriesPerLine);
    return makeError(
        "convolution buffer: one output row reads " + str(window) + " input rows of " +
        str(plan.entriesPerLine) + " entries, " +
        (windowEntries ? str(banksFor(*windowEntries, depth)) : std::string("too many")) +
        " banks beside the " + str(plan.allottedWeightBanks) +
        " banks of its weights; the buffer has " + str(banks) + " banks of " + str(depth) +
        " entries" +
        (q.pixelChannels == 0
             ? std::string("; nor does one output column's window (" +
                           str(getConvEntriesPerLine(
                               c, q, std::min(q.width, (q.kernelW - 1) * q.dilationW + 1))) +
                           " entries a line)" + std::string(channelTail))
             : std::string()));
  }
  const int64_t paddedRows = q.height + q.padTop + q.padBottom;
  const int64_t outputRows = paddedRows >= window ? (paddedRows - window) / q.strideH + 1 : 0;
  plan.outputRowsPerPart = (rowsFit - window) / q.strideH + 1;
  if (plan.outputRowsPerPart > outputRows)
    plan.outputRowsPerPart = outputRows;
  plan.numParts = plan.outputRowsPerPart > 0 ? ceilDiv(outputRows, plan.outputRowsPerPart) : 1;
  if (plan.outputColsPerPart > 0) {
    const int64_t windowW = (q.kernelW - 1) * q.dilationW + 1;
    const int64_t outputCols = (q.width + q.padLeft + q.padRight - windowW) / q.strideW + 1;
    plan.numParts *= ceilDiv(outputCols, plan.outputColsPerPart);
  }
  return plan;
}

/// What a layer that only an input-channel cut would fit is told.
std::string_view channelCutAdvice(Precision precision) {
  if (precision == Precision::Fp16)
    return ": its input channels must be cut (--dla-split-convolutions)";
  return ": cutting its input channels, with the SDP adding each part's sums to the previous "
         "part's, is programmed for fp16 pipelines only (an integer pipeline's parts would "
         "hand on int16 partial sums through offline SDP adds: not programmed)";
}

} // namespace

Expected<ConvBufferPlan> dlaformat::nvdla::planConvBuffer(const HardwareConfig &c,
                                                          const ConvBufferQuery &q) {
  return planWhole(c, q, channelCutAdvice(q.precision));
}

Expected<ConvChannelCut> dlaformat::nvdla::planConvChannelCut(const HardwareConfig &c,
                                                              const ConvBufferQuery &q) {
  const bool fp16 = q.precision == Precision::Fp16;
  // One layer holds at most DATAIN_CHANNEL input channels.
  const int64_t most = kConvInputChannels.hi;
  Expected<ConvBufferPlan> whole = planWhole(c, q, fp16 ? "" : channelCutAdvice(q.precision));
  if (whole && q.channels <= most)
    return ConvChannelCut{q.channels, 1, false};
  const std::string refusal =
      whole ? "convolution buffer: its " + str(q.channels) + " input channels exceed one " +
                  "layer's " + str(most) + " (DATAIN_CHANNEL)" +
                  (fp16 ? std::string() : std::string(channelCutAdvice(q.precision)))
            : whole.message();
  // Only a layer whose rows and columns were tried is cut (not an image, a
  // Winograd layer or a batch: planWhole's error says what to do there).
  if (!fp16 || q.pixelChannels > 0 || q.winograd || q.batches > 1 || q.channels <= 0)
    return makeError(refusal);
  // Whole feature atoms per part (a channel view starts on one), the
  // fewest parts, then as even as the atoms allow.
  const int64_t atom = getChannelsPerAtom(q.precision, c.caps.memoryAtomBytes);
  const int64_t atoms = ceilDiv(q.channels, atom);
  ConvBufferQuery part = q;
  int64_t fit = 0;
  for (int64_t n = std::min(atoms - 1, most / atom); n >= 1 && fit == 0; --n) {
    part.channels = n * atom;
    if (planWhole(c, part, ""))
      fit = n;
  }
  if (fit == 0)
    return makeError(refusal + "; nor does one atom of its input channels (" + str(atom) +
                     " channels) beside its kernels' share of the weights");
  const int64_t parts = ceilDiv(atoms, fit);
  return ConvChannelCut{ceilDiv(atoms, parts) * atom, parts, bool(whole)};
}

std::string dlaformat::nvdla::whyNotCompressedMask(const HardwareConfig &c,
                                                   const ConvBufferQuery &q) {
  // One mask bit per weight element (Winograd's transformed taps: 16 per
  // 3x3 kernel), padded to the WMB's data size.
  const int64_t taps = q.winograd ? 16 : q.kernelH * q.kernelW;
  std::optional<int64_t> elements = product({q.kernels, q.channels, taps});
  const int64_t bankBytes = c.caps.cbufBankEntries * c.weightBufferEntryBytes;
  if (!elements)
    return "convolution buffer: sizes overflow a 64-bit integer";
  const int64_t maskBytes =
      alignUp(ceilDiv(*elements, 8), getAlignment(AlignedData::WeightMaskBits).dataSize);
  if (maskBytes <= bankBytes)
    return "";
  return "the compressed weights' mask (WMB) takes " + str(maskBytes) +
         " bytes, more than the one bank of " + str(bankBytes) + " bytes NVDLA streams it through";
}

std::vector<int64_t> dlaformat::nvdla::getWeightBankChoices(const HardwareConfig &config,
                                                          const ConvBufferQuery &q) {
  ConvBufferQuery whole = q;
  whole.weightBanks = 0;
  Expected<ConvBufferPlan> plan = planConvBuffer(config, whole);
  if (!plan)
    return {};
  const int64_t banks = usableBanks(config, q);
  std::vector<int64_t> choices;
  for (int64_t b : {plan->weightBanks, 2 * plan->kernelGroupBanks, plan->kernelGroupBanks})
    if (b < banks && std::find(choices.begin(), choices.end(), b) == choices.end())
      choices.push_back(b);
  return choices;
}

/// The input extent [first, end) a band of outputs [o0, o1) reads along
/// one axis of `size` (kernel, dilation, stride, padding before it), and
/// the padding its windows reach before and after it.
static std::array<int64_t, 4> axisBand(int64_t size, int64_t kernel, int64_t dilation,
                                       int64_t stride, int64_t padBefore, int64_t o0,
                                       int64_t o1) {
  const int64_t window = (kernel - 1) * dilation + 1;
  const int64_t i0 = o0 * stride - padBefore, i1 = (o1 - 1) * stride + window - padBefore;
  const int64_t first = std::max<int64_t>(i0, 0), end = std::min(i1, size);
  return {first, end, first - i0, i1 - end};
}

ConvRowBand dlaformat::nvdla::getConvRowBand(const ConvBufferQuery &q, int64_t o0, int64_t o1) {
  auto [first, end, before, after] =
      axisBand(q.height, q.kernelH, q.dilationH, q.strideH, q.padTop, o0, o1);
  return ConvRowBand{first, end, before, after};
}

ConvColBand dlaformat::nvdla::getConvColBand(const ConvBufferQuery &q, int64_t o0, int64_t o1) {
  auto [first, end, before, after] =
      axisBand(q.width, q.kernelW, q.dilationW, q.strideW, q.padLeft, o0, o1);
  return ConvColBand{first, end, before, after};
}

int64_t dlaformat::nvdla::getConvEntriesPerLine(const HardwareConfig &config,
                                                const ConvBufferQuery &q, int64_t cols) {
  ConvBufferQuery band = q;
  band.width = cols;
  band.padLeft = band.padRight = 0;
  return entriesPerLine(config, band).value_or(0);
}

int64_t dlaformat::nvdla::getConvDataBanks(const HardwareConfig &config, int64_t entriesPerLine,
                                           int64_t rows, int64_t bankEntries) {
  return banksFor(entriesPerLine * rows,
                  bankEntries > 0 ? bankEntries : config.caps.cbufBankEntries);
}
