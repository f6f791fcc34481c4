//===- CheckPrecision.cpp - NVDLA precision-conversion legality ----------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLACHECKPRECISION
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {
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
    });
    if (anyInvalid)
      signalPassFailure();
  }
};
} // namespace
