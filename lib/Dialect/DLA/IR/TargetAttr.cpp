//===- TargetAttr.cpp - #dla.target ---------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 fmt::Accelerator accelerator,
                                 std::optional<fmt::nvdla::HardwareKind> config) {
  if (config && accelerator != fmt::Accelerator::Nvdla)
    return emitError() << "only NVDLA targets name a configuration, got "
                       << detail::formatEnumName(accelerator) << " with "
                       << detail::formatEnumName(*config);
  return success();
}

fmt::Target TargetAttr::getTarget() const {
  return fmt::Target{getAccelerator(), getConfig().value_or(fmt::nvdla::HardwareKind::NvFull)};
}

TargetAttr TargetAttr::get(MLIRContext *context, const fmt::Target &target) {
  std::optional<fmt::nvdla::HardwareKind> config;
  if (target.accelerator == fmt::Accelerator::Nvdla)
    config = target.config;
  return get(context, target.accelerator, config);
}

fmt::Target TargetAttr::lookup(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<TargetAttr>(kAttrName))
      return attr.getTarget();
  return fmt::getDefaultTarget();
}

FailureOr<fmt::Target> TargetAttr::resolve(Operation *op, StringRef option) {
  if (option.empty())
    return lookup(op);
  fmt::Expected<fmt::Target> parsed = fmt::parseTarget(option.str());
  if (!parsed)
    return op->emitError() << parsed.message();
  return *parsed;
}
