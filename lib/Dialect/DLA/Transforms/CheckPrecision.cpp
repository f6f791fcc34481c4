//===- CheckPrecision.cpp - NVDLA precision-conversion legality ----------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "llvm/Support/Format.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLACHECKPRECISION
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// An integer LRN's tables against alpha, beta, k: the largest output error
/// (docs/IntegerAttributes.md 5.2), so that a derived or stated table's
/// accuracy is visible where the layer is.
void remarkLrnError(LrnOp op) {
  Type element = op.getInput().getType().getElementType();
  if (!element.isInteger())
    return;
  nv::Precision precision =
      element.getIntOrFloatBitWidth() == 8 ? nv::Precision::Int8 : nv::Precision::Int16;
  nv::LrnError e = nv::measureLrnError(getLrnTables(op), op.getAlpha().convertToDouble(),
                                       op.getBeta().convertToDouble(),
                                       op.getK().convertToDouble(), op.getSize(), precision);
  std::string error;
  llvm::raw_string_ostream(error) << llvm::format("%.3g", e.error);
  mlir::emitRemark(op.getLoc()) << (op.getLutAttr() ? "stated" : "derived")
                                << " LRN tables: largest error " << error
                                << " LSB of the output at x = " << e.x << ", square sum "
                                << e.squareSum;
}

struct CheckPrecisionPass : mlir::dla::impl::DLACheckPrecisionBase<CheckPrecisionPass> {
  void runOnOperation() override {
    bool anyInvalid = false;
    // Every op is checked so that one run reports every invalid layer.
    getOperation()->walk([&](PrecisionConversionOpInterface op) {
      FailureOr<nv::ConversionQuery> query = op.getConversionQuery();
      if (failed(query)) {
        anyInvalid = true;
        return;
      }
      nv::ConversionVerdict verdict = nv::checkConversion(*query);
      if (!verdict.valid) {
        op->emitError(verdict.message);
        anyInvalid = true;
        return;
      }
      if (failed(op.annotatePrecision(verdict)))
        anyInvalid = true;
      else if (auto lrn = dyn_cast<LrnOp>(*op))
        remarkLrnError(lrn);
    });
    if (anyInvalid)
      signalPassFailure();
  }
};
} // namespace
