//===- QuantizedSdp.cpp - The SDP program of a requantization -------------===//

#include "QuantizedSdp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

std::vector<int64_t> readInts(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getElementType().isInteger())
    return {};
  std::vector<int64_t> values;
  for (const APInt &i : attr.getValues<APInt>())
    values.push_back(i.getSExtValue());
  return values;
}

/// Bits the X1 / X2 products keep below the output's unit: their two
/// roundings then cost at most 2^-12 of an output step.
constexpr unsigned kFractionBits = 12;

} // namespace

FailureOr<Rescale> tosa_to_dla::readRescale(tosa::RescaleOp op, std::string &why) {
  if (op.getInputUnsigned() || op.getOutputUnsigned()) {
    why = "its rescale reads or writes unsigned values";
    return failure();
  }
  if (op.getRoundingMode() != tosa::RoundingMode::SINGLE_ROUND) {
    why = "its rescale rounds twice (the SDP rounds once)";
    return failure();
  }
  std::vector<int64_t> mult = readInts(op.getMultiplier()), shift = readInts(op.getShift());
  FailureOr<int64_t> inZp = op.getInputZeroPoint(), outZp = op.getOutputZeroPoint();
  if (mult.empty() || mult.size() != shift.size() || failed(inZp) || failed(outZp)) {
    why = "its rescale's multipliers, shifts or zero points are not constants";
    return failure();
  }
  Rescale r;
  for (size_t i = 0; i < mult.size(); ++i)
    r.factors.push_back(std::ldexp(double(mult[i]), -int(shift[i])));
  r.inputZp = *inZp;
  r.outputZp = *outZp;
  return r;
}

bool tosa_to_dla::isTargetInteger(Type type, const OffloadTarget &target) {
  return getElementTypeOrSelf(type) == target.getElementType(type.getContext()) &&
         getElementTypeOrSelf(type).isInteger();
}

tosa::ClampOp tosa_to_dla::reluAtZeroPoint(tosa::RescaleOp rescale, int64_t zp) {
  if (!rescale->hasOneUse())
    return {};
  auto clamp = dyn_cast<tosa::ClampOp>(*rescale->getUsers().begin());
  if (!clamp)
    return {};
  auto lo = dyn_cast<IntegerAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<IntegerAttr>(clamp.getMaxValAttr());
  if (!lo || !hi || lo.getInt() != zp || !hi.getValue().isMaxSignedValue())
    return {};
  return clamp;
}


FailureOr<SdpProgram> tosa_to_dla::planProgram(const QuantConv &q, std::string &why) {
  SdpProgram p;
  ::dlaformat::Expected<nv::TwoStageScales> scales =
      nv::twoStageScalesFromFactors(q.factors, kFractionBits);
  if (!scales) {
    why = "its requantization scale has no pair of int16 multipliers: " + scales.message();
    return failure();
  }
  p.scales = *scales;
  auto differs = [](const std::vector<int16_t> &v) {
    return llvm::any_of(v, [&](int16_t x) { return x != v.front(); });
  };
  p.perChannel = differs(p.scales.first) || differs(p.scales.second);
  for (int64_t b : q.bias)
    if (b < INT32_MIN || b > INT32_MAX) {
      why = "its bias minus the input zero point's share leaves int32";
      return failure();
    }
  // An int16 at a left shift keeps ~16 bits of the bias. Per tensor, X1's
  // ALU adds it in accumulator units and X2's the remainder in X1's result
  // units (then a fraction of an output step: nearly exact). Per channel,
  // X1's surface holds the multipliers, so the bias joins in X2 alone, in
  // X1's result units (~16 bits of its contribution).
  std::vector<int64_t> rest = q.bias;
  nv::Int16Bias hi = nv::biasToInt16(std::vector<int32_t>(q.bias.begin(), q.bias.end()),
                                     nv::BiasRounding::Nearest);
  // High parts that differ by channel would be X1's memory ALU beside its
  // register multiplier, which no NVIDIA dla_sdp_op holds (one `mode` for
  // both operands; the loadable writer refuses it): the per-channel form
  // then, its multiplier surface repeating the one value.
  if (!p.perChannel && !llvm::all_equal(hi.values))
    p.perChannel = true;
  if (!p.perChannel) {
    p.biasHi = hi.values;
    p.hiShift = hi.shift;
    p.hasBiasHi = llvm::any_of(hi.values, [](int16_t b) { return b != 0; });
    for (size_t k = 0; k < rest.size(); ++k)
      rest[k] -= int64_t(hi.values[k]) * (int64_t(1) << hi.shift);
  }
  std::vector<int32_t> bias32;
  for (size_t k = 0; k < rest.size(); ++k) {
    double scaled = std::ldexp(double(rest[k]) * p.scales.first[k], -int(p.scales.firstShift));
    // X2 multiplies (u + B) by `second` and the output converter shifts
    // out the fraction bits: B = outBias 2^(shift2 + F) / second.
    if (!q.outBias.empty() && q.outBias[k] != 0) {
      if (p.scales.second[k] == 0) {
        why = "its factor rounds to zero where it adds a bias";
        return failure();
      }
      scaled += std::ldexp(q.outBias[k], int(p.scales.secondShift + p.scales.fractionBits)) /
                p.scales.second[k];
    }
    if (!(std::fabs(scaled) < 2147483647.0)) {
      why = "its bias, scaled to the SDP's intermediate, leaves int32";
      return failure();
    }
    bias32.push_back(static_cast<int32_t>(std::llround(scaled)));
  }
  p.hasBias = llvm::any_of(bias32, [](int32_t b) { return b != 0; });
  nv::Int16Bias b16 = nv::biasToInt16(bias32, nv::BiasRounding::Nearest);
  p.bias16 = b16.values;
  p.aluShift = b16.shift;
  return p;
}

SdpOp tosa_to_dla::emitRescaleSdp(PatternRewriter &rewriter, Location loc, SdpMode mode, Value input,
                     const QuantConv &q, const SdpProgram &p, int64_t k0, int64_t n, bool relu) {
  MLIRContext *ctx = rewriter.getContext();
  Type i16 = rewriter.getI16Type();
  auto sdp = SdpOp::create(rewriter, loc, input.getType(), mode, input);
  auto ints = [&](ArrayRef<int64_t> shape, ArrayRef<int16_t> values) -> Value {
    auto type = RankedTensorType::get(shape, i16);
    return arith::ConstantOp::create(rewriter, loc, type,
                                     DenseElementsAttr::get(type, values));
  };
  // X1: (acc + bias's high part) * first; X2: (+ the rest) * second; each
  // keeps fraction bits that the output converter shifts out after adding
  // the zero point.
  const nv::TwoStageScales &m = p.scales;
  SdpOperand alu1, mul1 = SdpOperand::ofRegister(m.first[k0]), alu2,
             mul2 = SdpOperand::ofRegister(m.second[k0]);
  auto slice = [&](const std::vector<int16_t> &v) {
    return ArrayRef<int16_t>(v).slice(static_cast<size_t>(k0), static_cast<size_t>(n));
  };
  // X2 reads (bias, second multiplier) pairs from the batch-norm surface.
  auto readBiasAndSecond = [&] {
    std::vector<int16_t> pairs;
    for (int64_t k = k0; k < k0 + n; ++k) {
      pairs.push_back(p.bias16[k]);
      pairs.push_back(m.second[k]);
    }
    sdp.getBatchnormMutable().assign(ints({n, 2}, pairs));
    alu2 = mul2 = SdpOperand::ofMemory(nv::SdpMemOperand::Batchnorm);
  };
  if (p.perChannel) {
    // X1's per-channel multiplier is the PReLU surface read as a plain
    // multiply (its RDMA is X1's; prelu = false); X2 reads bias and
    // multiplier pairs.
    sdp.getPreluMutable().assign(ints({n}, slice(m.first)));
    mul1 = SdpOperand::ofMemory(nv::SdpMemOperand::Prelu);
    readBiasAndSecond();
  } else {
    // One high part for every channel (planProgram takes the per-channel
    // form otherwise): a register, as X1's multiplier is.
    if (p.hasBiasHi)
      alu1 = SdpOperand::ofRegister(slice(p.biasHi).front());
    if (p.hasBias) {
      readBiasAndSecond();
    }
  }
  std::optional<nv::SdpAluAlgo> algo;
  if (alu2.isPresent())
    algo = nv::SdpAluAlgo::Sum;
  std::optional<nv::SdpAluAlgo> algo1;
  if (alu1.isPresent())
    algo1 = nv::SdpAluAlgo::Sum;
  sdp.setBsAttr(SdpXAttr::get(ctx, algo1, alu1, alu1.isPresent() ? p.hiShift : 0, mul1,
                              m.firstShift, /*prelu=*/false, /*relu=*/false));
  sdp.setBnAttr(SdpXAttr::get(ctx, algo, alu2, alu2.isPresent() ? p.aluShift : 0, mul2,
                              m.secondShift, /*prelu=*/false, relu));
  const int64_t unit = int64_t(1) << m.fractionBits;
  if (q.outputZp != 0 || m.fractionBits != 0)
    sdp.setOutCvtAttr(CvtAttr::get(ctx, -q.outputZp * unit, 1, m.fractionBits));
  return sdp;
}
