//===- TargetPrecision.cpp - A layer against its configuration -----------===//
//
// What the module's target configuration can run (spec/defs/*.spec, the
// capability table of dla/Format/NvdlaHardware.h): nv_small and nv_large
// compute int8 only (FEATURE_DATA_TYPE_INT8, WEIGHT_DATA_TYPE_INT8), so a
// layer with int16 or fp16 feature data or weights cannot run there, and
// neither has Winograd (WINOGRAD_DISABLE). The SDP's aux operands (bias,
// batch-norm, ...) are 16-bit on every configuration (NVIDIA's int8
// networks keep their bias in int16) and are not feature data.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
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
  if (auto conv = dyn_cast<ConvOp>(op); conv && conv.getMode() == nv::ConvMode::Winograd)
    if (std::string why = nv::whyNotWinograd(config); !why.empty())
      return op->emitOpError() << "winograd mode: " << why;
  // Feature data and weights.
  auto iface = cast<LayoutConstrainedOpInterface>(op);
  SmallVector<Type> data(op->getResultTypes());
  for (OpOperand &operand : op->getOpOperands())
    if (llvm::is_contained({StringRef("input"), StringRef("weight")},
                           iface.getLayoutOperandName(operand.getOperandNumber())))
      data.push_back(operand.get().getType());
  for (Type t : data) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor)
      continue;
    std::optional<nv::Precision> precision = getPrecision(tensor.getElementType());
    if (!precision)
      continue;
    if (std::string why = nv::whyNotPrecision(config, *precision); !why.empty())
      return op->emitOpError() << ::dlaformat::enumName(*precision) << " data: " << why;
  }
  return success();
}
