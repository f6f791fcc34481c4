//===- QuantizedSdp.h - The SDP program of a requantization ------*- C++ -*-===//
//
// What QuantizedPatterns.cpp (a convolution's accumulator rescaled on the
// fly) and RescalePatterns.cpp (an int8 feature map rescaled offline) share:
// a tosa.rescale read as factors and zero points, and its X1 / X2 / output
// converter program (QuantizedPatterns.cpp's header says how).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_QUANTIZEDSDP_H
#define DLA_LIB_CONVERSION_TOSATODLA_QUANTIZEDSDP_H

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaScale.h"

namespace mlir::dla::tosa_to_dla {

/// A tosa.rescale's factors (multiplier * 2^-shift, one or per channel)
/// and zero points.
struct Rescale {
  std::vector<double> factors;
  int64_t inputZp = 0, outputZp = 0;
};

/// The rescale's factors, or why it is not one the SDP computes.
FailureOr<Rescale> readRescale(tosa::RescaleOp op, std::string &why);

/// Whether `type`'s elements are the target's integer type.
bool isTargetInteger(Type type, const OffloadTarget &target);

/// The clamp that is ReLU at `zp` on `rescale`'s only use, or null.
tosa::ClampOp reluAtZeroPoint(tosa::RescaleOp rescale, int64_t zp);

/// Everything the SDP program of a requantization needs, per output
/// channel of the TOSA op (for a convolution: its weights too).
struct QuantConv {
  std::vector<int8_t> source;      // weights minus their zero point, TOSA's layout
  std::vector<int8_t> kcrs;        // the same per kernel (KCRS, or depthwise taps)
  SmallVector<int64_t> shape;      // KCRS (depthwise: HWCM read as 1 channel each)
  std::vector<int64_t> bias;       // bias - zx * sum(w_k); offline: -zx
  std::vector<double> factors;     // per output channel
  std::vector<double> outBias;     // none, or per channel in output units (X2's ALU)
  int64_t inputZp = 0, outputZp = 0;
};

/// The layer's int16 program pieces.
struct SdpProgram {
  ::dlaformat::nvdla::TwoStageScales scales;
  std::vector<int16_t> biasHi, bias16; // X1's ALU (per tensor only), X2's
  int64_t hiShift = 0, aluShift = 0;
  bool perChannel = false, hasBiasHi = false, hasBias = false;
};

/// `q`'s program, or why it has none.
FailureOr<SdpProgram> planProgram(const QuantConv &q, std::string &why);

/// The stage-form dla.sdp of `mode` over `input` (a convolution's
/// accumulator, or an offline feature map read as x - zx) that applies
/// `p` to output channels [k0, k0 + n) of `q`.
SdpOp emitRescaleSdp(PatternRewriter &rewriter, Location loc, SdpMode mode, Value input,
                     const QuantConv &q, const SdpProgram &p, int64_t k0, int64_t n, bool relu);

/// Why a rescale of an int8 feature map (no accumulator) does not run as
/// an offline SDP; empty when it does (RescalePatterns.cpp).
std::string whyNotFeatureRescale(tosa::RescaleOp op, const OffloadTarget &target);
/// The same for the per-channel affine map
/// rescale(add(rescale(x), per-channel i32 constant)) (a batch-norm,
/// activation or gate between quantize steps).
std::string whyNotAffineRescale(tosa::RescaleOp op, const OffloadTarget &target);
/// That offline SDP (its rule is whyNotRescale's, populateQuantizedPatterns').
void populateRescalePatterns(RewritePatternSet &patterns, const OffloadTarget &target);

/// Why rescale(mul(rescale(x, 1, zx), rescale(g, 1, 0))) (a quantized
/// hard-swish's product) does not run as one offline SDP; empty when it
/// does (QuantizedProducts.cpp).
std::string whyNotQuantProduct(tosa::RescaleOp op, const OffloadTarget &target);
/// That offline SDP (its rule is whyNotRescale's).
void populateQuantizedProductPatterns(RewritePatternSet &patterns, const OffloadTarget &target);

/// tosa.table of an int8 map (a quantized sigmoid or tanh) as an offline
/// SDP whose Y stage's LUT holds the entries, and the host remarks of
/// float sigmoid / tanh (TablePatterns.cpp).
void populateTablePatterns(RewritePatternSet &patterns, OffloadRules &rules,
                           const OffloadTarget &target);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_QUANTIZEDSDP_H
