//===- TargetPrecision.cpp - A layer's data against its configuration ----===//
//
// nv_small and nv_large compute int8 only (spec/defs/*.spec:
// FEATURE_DATA_TYPE_INT8, WEIGHT_DATA_TYPE_INT8): a layer with int16
// feature data or weights cannot run there. fp16 is as
// absent from those configurations, but today's fp16 pipelines for them
// (the classifier on nv_small) stay until quantized networks replace them
// (issues 22, 23): this check reads the same table and will cover fp16 then.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayoutVariant.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

LogicalResult mlir::dla::verifyTargetPrecision(Operation *op) {
  ::dlaformat::Target target = TargetAttr::lookup(op);
  if (target.accelerator != ::dlaformat::Accelerator::Nvdla)
    return success();
  const nv::HardwareConfig &config = nv::getHardwareConfig(target.config);
  if (config.hasPrecision(nv::Precision::Int16))
    return success();
  // Feature data and weights; the SDP's operands (bias, batch-norm, ...)
  // are 16-bit on every configuration (NVIDIA's int8 networks keep their
  // bias in int16).
  auto iface = cast<LayoutConstrainedOpInterface>(op);
  SmallVector<Type> data(op->getResultTypes());
  for (OpOperand &operand : op->getOpOperands())
    if (llvm::is_contained({StringRef("input"), StringRef("weight")},
                           iface.getLayoutOperandName(operand.getOperandNumber())))
      data.push_back(operand.get().getType());
  for (Type t : data) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.getElementType().isInteger(16))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "int16 data: "
                              << StringRef(config.name.data(), config.name.size())
                              << " computes ";
    const char *sep = "";
    std::string macros;
    for (nv::Precision p : ::dlaformat::enumValues<nv::Precision>()) {
      if (!config.hasPrecision(p) || p == nv::Precision::Int16)
        continue;
      std::string name(::dlaformat::enumName(p));
      diag << sep << name;
      std::string upper;
      for (char c : name)
        upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      macros += (macros.empty() ? "" : ", ") + ("FEATURE_DATA_TYPE_" + upper);
      sep = ", ";
    }
    return diag << " only (" << macros << ")";
  }
  return success();
}
