//===- HostRemarks.cpp - Why a TOSA op stays on the host ------------------===//

#include "TosaToDLA.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

std::optional<std::string> tosa_to_dla::explainHostOp(Operation *op,
                                                      const OffloadTarget &target) {
  auto orFallback = [](std::string why) -> std::optional<std::string> {
    // A convertible op that no pattern took (should not happen): say so
    // rather than stay silent.
    return why.empty() ? std::string("no conversion pattern applied") : why;
  };
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case([&](tosa::Conv2DOp c) { return orFallback(whyNotConv(c, target)); })
      .Case([&](tosa::DepthwiseConv2DOp c) { return orFallback(whyNotDepthwise(c, target)); })
      .Case([&](tosa::MaxPool2dOp p) { return orFallback(whyNotMaxPool(p, target)); })
      .Case([&](tosa::AvgPool2dOp p) { return orFallback(whyNotAvgPool(p, target)); })
      .Case([&](tosa::ClampOp c) { return orFallback(whyNotClamp(c, target)); })
      .Case([&](tosa::AddOp a) { return orFallback(whyNotAdd(a, target)); })
      .Case([&](tosa::MulOp m) { return orFallback(whyNotMul(m, target)); })
      .Case([&](tosa::MatMulOp m) { return orFallback(whyNotMatMul(m, target)); })
      .Case([&](tosa::RescaleOp r) { return orFallback(whyNotRescale(r, target)); })
      .Case([&](tosa::TransposeConv2DOp) -> std::optional<std::string> {
        return std::string("dla.conv has no deconvolution mode");
      })
      // Data movement and reinterpretation: no computation to offload.
      .Case<tosa::ConstOp, tosa::ConstShapeOp, tosa::TransposeOp, tosa::ReshapeOp,
            tosa::SliceOp, tosa::ConcatOp, tosa::PadOp, tosa::TileOp, tosa::CastOp,
            tosa::IdentityOp, tosa::ReverseOp, tosa::GatherOp, tosa::ScatterOp,
            tosa::YieldOp, tosa::VariableOp, tosa::VariableReadOp, tosa::VariableWriteOp>(
          [](Operation *) -> std::optional<std::string> { return std::nullopt; })
      .Default([](Operation *op) -> std::optional<std::string> {
        return ("no NVDLA layer computes " + op->getName().getStringRef()).str();
      });
}
