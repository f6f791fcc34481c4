//===- ConvertTosa.cpp - --dla-convert-tosa -------------------------------===//

#include "TosaToDLA.h"

#include "dla/Conversion/Passes.h"
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/EnumTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLACONVERTTOSA
#include "dla/Conversion/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {
struct ConvertTosaPass : mlir::dla::impl::DLAConvertTosaBase<ConvertTosaPass> {
  using DLAConvertTosaBase::DLAConvertTosaBase;

  LogicalResult initialize(MLIRContext *context) override {
    ::dlaformat::Expected<nv::HardwareConfig> hw = nv::lookupHardwareConfig(config);
    if (!hw)
      return emitError(UnknownLoc::get(context), "--dla-convert-tosa: ") << hw.message();
    target = OffloadTarget{*hw, precision};
    RewritePatternSet set(context);
    populateConvPatterns(set, target);
    populatePoolPatterns(set, target);
    populateSdpPatterns(set, target);
    populateQuantizedPatterns(set, target);
    populateSdpFusionPatterns(set, target);
    populateCleanupPatterns(set);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(applyPatternsGreedily(module, patterns))) {
      module.emitError("--dla-convert-tosa did not converge");
      return signalPassFailure();
    }
    module.walk([&](Operation *op) {
      if (!isa<tosa::TosaDialect>(op->getDialect()))
        return;
      if (std::optional<std::string> why = explainHostOp(op, target))
        op->emitRemark("stays on the host: ") << *why;
    });
  }

  OffloadTarget target{nv::getDefaultHardwareConfig(), nv::Precision::Fp16};
  FrozenRewritePatternSet patterns;
};
} // namespace
