//===- HostRemarks.cpp - Why a TOSA op stays on the host ------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

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
      .Case<tosa::ConcatOp>(
          [&](tosa::ConcatOp concat) { return whyNotChannelJoin(concat, target); })
      .Case<tosa::SliceOp>(
          [&](tosa::SliceOp slice) { return whyNotChannelSlice(slice, target); })
      .Case<tosa::ReshapeOp>(
          [&](tosa::ReshapeOp reshape) { return whyNotReshapeView(reshape, target); })
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
