//===- EmulatorOps.cpp - dla.emu_softmax / dla.emu_power ------------------===//
//
// What NVIDIA's runtime emulator can read: one batch of int8 data, without
// encoding or as NVDLA feature data; softmax reads its C values as
// consecutive bytes (Emulator::executeSoftmax indexes the buffer by
// channel), so on feature data a surface must be one atom.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"

#include "dla/Format/NvdlaFeature.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// One batch, and an encoding the emulator reads (none or feature data).
LogicalResult verifyEmulatorTensor(Operation *op, RankedTensorType type) {
  if (type.getDimSize(0) != 1)
    return op->emitOpError("runs on one batch (NVIDIA's emulator reads batch 0 of its cube), got ")
           << type;
  Attribute encoding = type.getEncoding();
  if (encoding && !isa<FeatureAttr>(encoding))
    return op->emitOpError("reads int8 data without encoding or as NVDLA feature data "
                           "(#dla.feature), got ")
           << type;
  return success();
}

} // namespace

LogicalResult EmuSoftmaxOp::verify() {
  RankedTensorType type = getInput().getType();
  if (failed(verifyEmulatorTensor(*this, type)))
    return failure();
  if (type.getDimSize(2) != 1 || type.getDimSize(3) != 1)
    return emitOpError("takes the softmax over the channels of a 1xCx1x1 cube (the emulator's "
                       "axis), got ")
           << type;
  if (!type.getEncoding())
    return success();
  auto bound = bindTensorLayout(type, [&] { return emitOpError(); });
  if (failed(bound))
    return failure();
  const auto &f = static_cast<const nv::FeatureBoundLayout &>(**bound);
  if (f.getSurfaceStride() != f.getCube().getBytesPerAtom())
    return emitOpError("reads its ")
           << type.getDimSize(1) << " values as consecutive bytes, as NVIDIA's emulator does: "
           << "the surface stride must be one atom (" << f.getCube().getBytesPerAtom()
           << " bytes), got " << f.getSurfaceStride();
  return success();
}

LogicalResult EmuPowerOp::verify() { return verifyEmulatorTensor(*this, getInput().getType()); }
