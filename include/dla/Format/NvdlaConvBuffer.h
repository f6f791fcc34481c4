//===- NvdlaConvBuffer.h - What a convolution needs of the CBUF -*- C++ -*-===//
//
// The convolution buffer (CBUF) holds a direct convolution's input data and
// weights in banks of CBUF_BANK_DEPTH entries of CBUF_BANK_WIDTH bytes
// (NvdlaHardware.h). NVIDIA's compiler (umd/core/src/compiler/engine-ast/
// ConvCoreNode.cpp: calculateEPS, calculateTotalBanksForData,
// calculateTotalBanksForWeight, calculateMinBanksForWeight,
// splitNodesInternal) decides with these numbers whether a layer runs as
// one hardware layer and how:
//
//   entries per input line (EPS), feature data:
//     A = ceil(C * bpe / MEMORY_ATOMIC_SIZE)      atoms across the channels
//     P = CBUF_BANK_WIDTH / MEMORY_ATOMIC_SIZE    atoms per entry
//     EPS = (A / P) * W + (A % P == 3 ? W : ceil((A % P) * W / P))
//   entries per input line, pixel data: ceil((W + padL + padR) * cpa * bpe
//     / CBUF_BANK_WIDTH)
//   data banks    = ceil(EPS * H / CBUF_BANK_DEPTH)
//   weight banks  = ceil(roundup(K*C*R*S*bpe, width) / width / depth)
//   one kernel group (atomic-K kernels, atomic-K / 2 for 2-byte data):
//                   ceil(roundup(C*R*S*kpg*bpe, width) / width / depth)
//
// and in that order of preference: all weights with all data, ping-pong
// kernel groups (two groups' banks), one kernel group; else the input is
// cut by rows ("partial H") into layers whose rows fit beside the weights.
// Rows per part here are whole output rows: a part's input rows are its
// output rows' windows (overlapping with the neighbours').
//
// Where even one output row's window does not fit beside one kernel group
// (wide, deep inputs: 1024 channels of 20 columns on nv_small take 2560
// entries a line, three lines 15 banks beside a kernel group's 18), the
// input is cut by columns too ("partial width", which NVIDIA's compiler
// does for the PDP only, PDPNode.cpp's split W): a part's input columns are
// its output columns' windows, EPS is that band's, and each part reads and
// writes its columns at x * MEMORY_ATOMIC_SIZE into the same surfaces. A
// layer whose single output column's window does not fit is cut by input
// channels instead (planConvChannelCut): fp16 only, each part's SDP adding
// the previous part's sums.
//
// Winograd (feature data only), with the output W' x H' rounded up to 4:
//   the extended input cube  (W' + 4) x (H' + 4) x C' * sx * sy,
//     C' = C rounded up to 32 bytes
//   EPS           = (W' + 4) / 4 * ceil(C' * bpe / 32) * sx * sy
//   data banks    = ceil(EPS * (H' + 4) / CBUF_BANK_DEPTH)
//   weight banks  = ceil(4 * 4 * C' * sx * sy * bpe * K / CBUF_BANK_WIDTH
//                        / CBUF_BANK_DEPTH), K = kernels (all) or per group
// A Winograd layer that does not fit with all its input is not cut: NVIDIA's
// compiler falls back to direct mode there (splitNodes), so planning fails
// with that advice. (NVIDIA writes the cube width without the stride and
// divides it by 4 * sx; here the cube is the extended one, which is the same
// for stride 1, the only stride its Winograd path takes.)
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLACONVBUFFER_H
#define DLA_FORMAT_NVDLACONVBUFFER_H

#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPrecision.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

/// A direct convolution as the buffer sees it (logical NCHW / KCRS).
struct ConvBufferQuery {
  Precision precision = Precision::Int8; ///< input data and weights
  int64_t channels = 0, height = 0, width = 0;
  int64_t kernels = 0, kernelH = 1, kernelW = 1;
  int64_t strideH = 1, dilationH = 1;
  /// The width's dilation (direct: cutting by columns needs the window).
  int64_t dilationW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  /// Pixel input: channels per pixel (the image format's), 0 for feature data.
  int64_t pixelChannels = 0;
  /// Winograd mode (feature data, 3x3 kernels after the stride's channel
  /// extension): the buffer holds the extended input and the 4x4
  /// transformed taps (NVIDIA's determineWinogradParams, the CONV_WINOGRAD
  /// cases of calculateEPS / calculateTotalBanksForData / ...ForWeight).
  bool winograd = false;
  int64_t strideW = 1; ///< the width stride (Winograd: of the extension)
  /// Banks the compiler may use (0: CBUF_BANK_NUMBER; fewer as NVIDIA's
  /// profiles allot them).
  int64_t banks = 0;
  /// Entries per bank (0: CBUF_BANK_DEPTH; fewer to model a smaller buffer,
  /// which is how tests force splits on small layers).
  int64_t bankEntries = 0;
  /// The banks the weights take (0: NVIDIA's order, the first of all of
  /// them, two kernel groups, one kernel group that leaves room for the
  /// input or its bands). Else one of those three: a compiler's choice by
  /// time (docs/PerformanceModel.md "Decisions").
  int64_t weightBanks = 0;
  /// Compressed weights: their mask (WMB) streams through the buffer's last
  /// bank (cmod/cdma CBUF_WMB_BANK 15; NVIDIA's compiler reserves it,
  /// ConvCoreNode.cpp compWtReservedBank), so data and weights share the
  /// others (whyNotCompressedMask: the mask's own limit).
  bool compressedWeights = false;
  /// Inputs of a batch (BATCH_NUMBER), which the register plan sets (the
  /// CPU path plans each input alone): CSC holds every input's rows, one
  /// after another (cmod/csc's batch data load), so the data takes `batches`
  /// times the banks; a batch is not cut into bands. On a configuration
  /// without a batch mode each input is a layer of its own (as 1).
  int64_t batches = 1;
};

enum class ConvBufferMode {
  FullInputFullWeight, ///< everything fits: one layer
  PingPongWeights,     ///< all data, two kernel groups at a time
  OneKernelGroup,      ///< all data, one kernel group at a time
  PartialHeight,       ///< the input is split by rows into several layers
};
std::string_view getConvBufferModeName(ConvBufferMode mode);

struct ConvBufferPlan {
  int64_t entriesPerLine = 0;   ///< EPS
  int64_t dataBanks = 0;        ///< banks for the whole input
  int64_t weightBanks = 0;      ///< banks for all weights
  int64_t kernelGroupBanks = 0; ///< banks for one kernel group
  ConvBufferMode mode = ConvBufferMode::FullInputFullWeight;
  /// The banks given to weights (all, two groups or one group).
  int64_t allottedWeightBanks = 0;
  /// PartialHeight: output rows per part (the last part may have fewer).
  int64_t outputRowsPerPart = 0;
  /// PartialHeight cut by columns too: output columns per part (0: whole
  /// rows); entriesPerLine is then a part's (dataBanks the whole input's).
  int64_t outputColsPerPart = 0;
  int64_t numParts = 1;
};

/// Plans `q` on `config`; an error when even one output row's input rows do
/// not fit beside the weights' banks.
Expected<ConvBufferPlan> planConvBuffer(const HardwareConfig &config, const ConvBufferQuery &q);

/// An input-channel cut: where not even one output column's window fits
/// beside one kernel group, the layer runs as parts over consecutive input
/// channels, each a convolution of its channels by its kernels' slice, and
/// the SDP after each part adds the previous part's result, read per
/// element from memory (fp16 pipelines: each partial sum rounded to fp16
/// once more than the uncut layer's; integer pipelines are refused).
struct ConvChannelCut {
  /// Whole feature atoms of channels (a channel view starts on one); the
  /// last part holds the rest.
  int64_t channelsPerPart = 0;
  int64_t numParts = 1;
  /// Cut because its channels exceed one layer's (DATAIN_CHANNEL), though
  /// the buffer holds it.
  bool channelLimit = false;
};

/// The fewest parts, as even as whole atoms allow, whose channels plan on
/// their own (they may still be cut by rows and columns) and number at
/// most DATAIN_CHANNEL; one part when `q` plans whole within it. An error
/// saying why not: planConvBuffer's refusal (or the channel limit), and
/// that the pipeline is not fp16, or that even one atom of channels does
/// not fit; an image, Winograd or batch layer's refusal unchanged.
Expected<ConvChannelCut> planConvChannelCut(const HardwareConfig &config,
                                            const ConvBufferQuery &q);

/// Empty when `q`'s compressed weights' mask fits the one WMB bank, else
/// why not. The register plan refuses such a layer; the v1 model's CDMA
/// streams the mask through that bank, and whether a longer one wraps
/// safely while weights stay in the buffer is not checked here.
std::string whyNotCompressedMask(const HardwareConfig &config, const ConvBufferQuery &q);

/// The weight allotments `q` can choose among (`weightBanks`): all weights,
/// two kernel groups, one kernel group, without repeats, each leaving at
/// least one bank for the input; empty when `q` does not plan.
std::vector<int64_t> getWeightBankChoices(const HardwareConfig &config, const ConvBufferQuery &q);

/// The input rows a band of output rows [o0, o1) reads (partial height):
/// rows [first, end) of the input, and the padding rows its windows reach
/// above and below them.
struct ConvRowBand {
  int64_t first = 0, end = 0, padTop = 0, padBottom = 0;
  int64_t rows() const { return end - first; }
};
ConvRowBand getConvRowBand(const ConvBufferQuery &q, int64_t o0, int64_t o1);

/// The input columns a band of output columns [o0, o1) reads (partial
/// width): columns [first, end) and the padding its windows reach left and
/// right of them.
struct ConvColBand {
  int64_t first = 0, end = 0, padLeft = 0, padRight = 0;
  int64_t cols() const { return end - first; }
};
ConvColBand getConvColBand(const ConvBufferQuery &q, int64_t o0, int64_t o1);

/// Entries of one input line of `q` cut to `cols` columns (EPS of a
/// partial-width part; feature data).
int64_t getConvEntriesPerLine(const HardwareConfig &config, const ConvBufferQuery &q,
                              int64_t cols);

/// Banks of `bankEntries` entries (0: CBUF_BANK_DEPTH) that `rows` input
/// lines of `entriesPerLine` take.
int64_t getConvDataBanks(const HardwareConfig &config, int64_t entriesPerLine, int64_t rows,
                         int64_t bankEntries = 0);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLACONVBUFFER_H
