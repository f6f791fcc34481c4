//===- LayoutLegality.cpp - Which encodings an op accepts ------------------===//
//
// The rules that tie encodings to the ops reading them: acceptance (an
// encoding may differ from what a variant names only in register-held
// parameters), the verifier of LayoutConstrainedOpInterface ops, and the
// dimension-order check of dla.relayout. The orders themselves are facts of
// the format library (BoundLayout::getLogicalOrder).
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

bool samePerElementAsFeature(FeatureAttr feature, nv::Precision precision,
                             std::optional<nv::DataSize> dataSize, nv::HardwareKind config) {
  // One-component per-element atoms equal feature atoms when the data size
  // is the precision's own and the memory atom the same (NvdlaAux.h).
  nv::DataSize natural =
      nv::getBytesPerElement(precision) == 1 ? nv::DataSize::OneByte : nv::DataSize::TwoByte;
  return feature.getPrecision() == precision && dataSize.value_or(natural) == natural &&
         feature.getConfig() == config;
}

} // namespace

bool mlir::dla::acceptsEncoding(Attribute accepted, Attribute actual) {
  if (accepted == actual)
    return true;
  if (!accepted || !actual)
    return false;
  if (auto feature = dyn_cast<FeatureAttr>(actual)) {
    if (auto bias = dyn_cast<BiasAttr>(accepted))
      return bias.getMode() == nv::AuxMode::PerElement &&
             samePerElementAsFeature(feature, bias.getPrecision(), bias.getDataSize(),
                                     bias.getConfig());
    if (auto eltwise = dyn_cast<EltwiseAttr>(accepted))
      return eltwise.getComponents().value_or(1) == 1 &&
             samePerElementAsFeature(feature, eltwise.getPrecision(), eltwise.getDataSize(),
                                     eltwise.getConfig());
  }
  if (accepted.getTypeID() != actual.getTypeID())
    return false;
  return llvm::TypeSwitch<Attribute, bool>(accepted)
      .Case([&](FeatureAttr a) {
        auto b = cast<FeatureAttr>(actual);
        return a.getPrecision() == b.getPrecision() && a.getConfig() == b.getConfig();
      })
      .Case([&](PixelAttr a) {
        auto b = cast<PixelAttr>(actual);
        return a.getFormat() == b.getFormat() && a.getConfig() == b.getConfig();
      })
      .Case([&](BiasAttr a) {
        auto b = cast<BiasAttr>(actual);
        return a.getMode() == b.getMode() && a.getPrecision() == b.getPrecision() &&
               a.getConfig() == b.getConfig();
      })
      .Case([&](BatchNormAttr a) {
        auto b = cast<BatchNormAttr>(actual);
        return a.getMode() == b.getMode() && a.getPrecision() == b.getPrecision() &&
               a.getConfig() == b.getConfig();
      })
      .Case([&](PReLUAttr a) {
        auto b = cast<PReLUAttr>(actual);
        return a.getPrecision() == b.getPrecision() && a.getConfig() == b.getConfig();
      })
      .Case([&](EltwiseAttr a) {
        auto b = cast<EltwiseAttr>(actual);
        return a.getPrecision() == b.getPrecision() &&
               a.getComponents().value_or(1) == b.getComponents().value_or(1) &&
               a.getConfig() == b.getConfig();
      })
      .Case([&](WeightAttr a) {
        auto b = cast<WeightAttr>(actual);
        if (a.getFormat() != b.getFormat() || a.getPrecision() != b.getPrecision() ||
            a.getConfig() != b.getConfig())
          return false;
        switch (a.getFormat()) {
        case nv::WeightFormat::Image:
          return a.getChannels() == b.getChannels();
        case nv::WeightFormat::Winograd:
        case nv::WeightFormat::Deconvolution:
          return a.getStrideX() == b.getStrideX() && a.getStrideY() == b.getStrideY();
        case nv::WeightFormat::Direct:
          return true;
        }
        return false;
      })
      .Default([](Attribute) { return false; }); // chunked: only itself
}

namespace {

/// "#dla.feature<int8>" or "#dla.feature<int8> or #dla.eltwise<int8>".
std::string listEncodings(ArrayRef<Attribute> encodings) {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (auto [i, e] : llvm::enumerate(encodings)) {
    if (i)
      os << (i + 1 == encodings.size() ? " or " : ", ");
    if (e)
      os << e;
    else
      os << "no encoding";
  }
  return s;
}

/// Every encoding some variant names for one slot, in preference order.
SmallVector<Attribute> acceptedAt(ArrayRef<LayoutVariant> variants, bool result, unsigned index) {
  SmallVector<Attribute> list;
  for (const LayoutVariant &v : variants) {
    Attribute e = result ? v.results[index] : v.operands[index];
    if (e && !llvm::is_contained(list, e))
      list.push_back(e);
  }
  return list;
}

Attribute encodingOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type ? type.getEncoding() : Attribute();
}

} // namespace

LogicalResult mlir::dla::verifyLayoutLegality(Operation *op) {
  auto iface = cast<LayoutConstrainedOpInterface>(op);
  fmt::Target target = TargetAttr::lookup(op);
  SmallVector<LayoutVariant> variants = iface.getLayoutVariants(target);
  bool anyEncoded = llvm::any_of(op->getOperands(), [](Value v) { return encodingOf(v); }) ||
                    llvm::any_of(op->getResults(), [](Value v) { return encodingOf(v); });
  if (variants.empty()) {
    if (!anyEncoded)
      return success();
    return op->emitOpError() << "has no layout on target " << target.toString()
                             << ", but its tensors carry encodings";
  }
  // Slot by slot first, so that the message names the operand.
  auto checkSlot = [&](bool result, unsigned i, Value value, StringRef name) -> LogicalResult {
    Attribute actual = encodingOf(value);
    if (!actual)
      return success();
    SmallVector<Attribute> accepted = acceptedAt(variants, result, i);
    if (accepted.empty() || llvm::any_of(accepted, [&](Attribute a) { return acceptsEncoding(a, actual); }))
      return success();
    return op->emitOpError() << name << " has encoding " << actual << ", but on target "
                             << target.toString() << " it accepts " << listEncodings(accepted);
  };
  for (OpOperand &operand : op->getOpOperands())
    if (failed(checkSlot(false, operand.getOperandNumber(), operand.get(),
                         iface.getLayoutOperandName(operand.getOperandNumber()))))
      return failure();
  for (OpResult result : op->getResults())
    if (failed(checkSlot(true, result.getResultNumber(), result,
                         op->getNumResults() == 1 ? StringRef("output") : StringRef("result"))))
      return failure();
  // Then the combination: one variant must accept every encoded tensor.
  auto fits = [&](const LayoutVariant &v) {
    for (OpOperand &operand : op->getOpOperands()) {
      Attribute actual = encodingOf(operand.get()), want = v.operands[operand.getOperandNumber()];
      if (actual && want && !acceptsEncoding(want, actual))
        return false;
    }
    for (OpResult result : op->getResults()) {
      Attribute actual = encodingOf(result), want = v.results[result.getResultNumber()];
      if (actual && want && !acceptsEncoding(want, actual))
        return false;
    }
    return true;
  };
  if (llvm::any_of(variants, fits))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "encodings do not agree with each other on target "
                            << target.toString() << "; accepted combinations:";
  for (const LayoutVariant &v : variants) {
    diag << " (";
    for (OpOperand &operand : op->getOpOperands())
      if (Attribute want = v.operands[operand.getOperandNumber()])
        diag << iface.getLayoutOperandName(operand.getOperandNumber()) << " " << want << ", ";
    for (OpResult result : op->getResults())
      if (Attribute want = v.results[result.getResultNumber()])
        diag << "output " << want;
    diag << ")";
  }
  return diag;
}

namespace {
/// The axis order a layout reads; row-major reads whatever it is given.
fmt::LogicalOrder orderOf(Type t) {
  auto type = cast<RankedTensorType>(t);
  auto layout = dyn_cast_or_null<LayoutEncodingAttr>(type.getEncoding());
  if (!layout)
    return fmt::LogicalOrder::Unspecified;
  // Types are verified before ops, so binding succeeds; stay silent if not.
  auto bound = layout.bind(type.getShape(), type.getElementType(),
                           [] { return InFlightDiagnostic(); });
  return succeeded(bound) ? (*bound)->getLogicalOrder() : fmt::LogicalOrder::Unspecified;
}
} // namespace

bool mlir::dla::canRelayoutAxes(Type source, Type result) {
  return fmt::readSameAxes(orderOf(source), orderOf(result));
}

LogicalResult mlir::dla::verifyRelayoutAxes(Operation *relayout) {
  Type sourceType = relayout->getOperand(0).getType(), resultType = relayout->getResult(0).getType();
  if (canRelayoutAxes(sourceType, resultType))
    return success();
  fmt::LogicalOrder from = orderOf(sourceType), to = orderOf(resultType);
  return relayout->emitOpError()
         << "cannot relayout " << detail::formatEnumName(from) << " data ("
         << cast<RankedTensorType>(sourceType).getEncoding() << ") as "
         << detail::formatEnumName(to) << " data ("
         << cast<RankedTensorType>(resultType).getEncoding()
         << "): the encodings read the dimensions in different orders; a transpose is needed first";
}
