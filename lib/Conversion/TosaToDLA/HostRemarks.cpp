//===- HostRemarks.cpp - Why a TOSA op stays on the host ------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

/// Why a resize stays on the host, by what it is (docs/WholeNetworks.md,
/// "Resize on NVDLA"): an integer upsampling is a deconvolution (NVIDIA's:
/// the factor's weight sets as convolutions, Rubik's contract mode
/// interleaving their outputs), not written yet and impossible without
/// Rubik; a bilinear one is exact inside only (its border reads the edge
/// value, NVDLA pads with a constant); corner-aligned coordinates and
/// fractional factors have no fixed kernel.
static std::string explainResize(tosa::ResizeOp op, const OffloadTarget &target) {
  const bool bilinear = op.getMode() == tosa::ResizeMode::BILINEAR;
  std::string what = bilinear ? "a bilinear resize" : "a nearest-neighbour resize";
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto out = dyn_cast<RankedTensorType>(op.getOutput().getType());
  SmallVector<int64_t> scale, offset;
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
      !tosa::getConstShapeValues(op.getScale().getDefiningOp(), scale) ||
      !tosa::getConstShapeValues(op.getOffset().getDefiningOp(), offset) || scale.size() != 4 ||
      offset.size() != 2)
    return what + " of run-time or dynamic sizes: no NVDLA layer computes it";
  // NHWC; TOSA reads source coordinate (o * d + offset) / n per axis,
  // scale [y_n, y_d, x_n, x_d].
  const int64_t ih = in.getDimSize(1), iw = in.getDimSize(2);
  const int64_t oh = out.getDimSize(1), ow = out.getDimSize(2);
  if (oh % ih || ow % iw || oh < ih || ow < iw)
    return what + " from " + std::to_string(ih) + "x" + std::to_string(iw) + " to " +
           std::to_string(oh) + "x" + std::to_string(ow) +
           ": not an integer upsampling, which no NVDLA layer computes (NVDLA upsamples by "
           "deconvolution, by integer factors)";
  const int64_t sy = oh / ih, sx = ow / iw;
  what += " by [" + std::to_string(sy) + ", " + std::to_string(sx) + "]";
  auto axis = [&](int64_t n, int64_t d, int64_t off, int64_t s) -> int {
    if (n != s * d)
      return 0; // corner-aligned (or another stretch): not o / s
    if (2 * off == d - n)
      return 2; // half-pixel centres: (o + 1/2) / s - 1/2
    return off == (bilinear ? 0 : -(n / 2)) ? 1 : 0; // asymmetric (floor for nearest)
  };
  const int y = axis(scale[0], scale[1], offset[0], sy), x = axis(scale[2], scale[3], offset[1], sx);
  if (!y || !x)
    return what + " with corner-aligned or shifted coordinates (scale [" +
           std::to_string(scale[0]) + "/" + std::to_string(scale[1]) + ", " +
           std::to_string(scale[2]) + "/" + std::to_string(scale[3]) + "]): its weights differ "
           "per output position, no deconvolution kernel computes it";
  std::string program;
  if (!bilinear)
    program = "an exact deconvolution (" + std::to_string(sy * sx) +
              " weight sets of one tap, interleaved by Rubik's contract mode)";
  else
    program = std::string("a deconvolution of triangle kernels, exact inside; its ") +
              (y == 2 && x == 2 ? "border rows and columns" : "last rows and columns") +
              " read the edge value where NVDLA pads with a constant, so the input needs its "
              "edges replicated first";
  return what + " would run as " + program + "; " +
         (target.config.caps.rubik
              ? std::string("the deconvolution and Rubik programs are not written yet")
              : std::string(target.config.name) +
                    " has no Rubik (RUBIK_DISABLE) to interleave the sets' outputs");
}

std::optional<std::string> tosa_to_dla::explainHostOp(Operation *op,
                                                      const OffloadRules &rules,
                                                      const OffloadTarget &target) {
  if (const OffloadRules::Rule *rule = rules.lookup(op)) {
    // A convertible op that no pattern took (should not happen): say so
    // rather than stay silent.
    std::string why = rule->whyNot(op, target);
    return why.empty() ? std::string("no conversion pattern applied") : why;
  }
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      // Data movement and reinterpretation: no computation to offload.
      .Case<tosa::ConstOp, tosa::ConstShapeOp, tosa::TransposeOp, tosa::ReshapeOp,
            tosa::SliceOp, tosa::ConcatOp, tosa::PadOp, tosa::TileOp, tosa::CastOp,
            tosa::IdentityOp, tosa::ReverseOp, tosa::GatherOp, tosa::ScatterOp,
            tosa::YieldOp, tosa::VariableOp, tosa::VariableReadOp, tosa::VariableWriteOp>(
          [](Operation *) -> std::optional<std::string> { return std::nullopt; })
      .Case<tosa::ResizeOp>([&](tosa::ResizeOp resize) -> std::optional<std::string> {
        return explainResize(resize, target);
      })
      .Default([](Operation *op) -> std::optional<std::string> {
        return ("no NVDLA layer computes " + op->getName().getStringRef()).str();
      });
}
