//===- OnStorageOp.cpp - dla.on_storage ----------------------------------===//
//
// The storage buffer of every operand and result must be exactly the one
// the format library gives the logical type (getStorageBufferType); the
// layer ops of the body verify themselves.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"

using namespace mlir;
using namespace mlir::dla;

namespace {
/// Checks that `buffer` is the storage of the logical type `logical`.
LogicalResult verifyStorageOf(Operation *op, StringRef what, unsigned index, Type buffer,
                              Type logical) {
  auto tensor = dyn_cast<RankedTensorType>(logical);
  if (!tensor)
    return op->emitOpError() << what << " #" << index << " must be a ranked tensor, got "
                             << logical;
  FailureOr<MemRefType> want = getStorageBufferType(
      tensor, [&] { return op->emitOpError() << what << " #" << index << ": "; });
  if (failed(want))
    return failure();
  if (buffer != *want)
    return op->emitOpError() << what << " #" << index << " is stored in " << *want
                             << " (the storage of " << tensor << "), got " << buffer;
  return success();
}
} // namespace

SmallVector<Operation *> mlir::dla::getHardwareLayer(LayerOpInterface op) {
  // Back to the first producer, then forward through the fused users.
  Operation *root = op;
  while (Operation *producer = cast<LayerOpInterface>(root).getFusedProducer())
    root = producer;
  SmallVector<Operation *> layer{root};
  for (bool grew = true; grew;) {
    grew = false;
    for (Operation *user : layer.back()->getUsers())
      if (auto fused = dyn_cast<LayerOpInterface>(user);
          fused && fused.getFusedProducer() == layer.back()) {
        layer.push_back(user);
        grew = true;
        break;
      }
  }
  return layer;
}

YieldOp OnStorageOp::getYield() { return cast<YieldOp>(getBody().front().getTerminator()); }

RankedTensorType OnStorageOp::getInputType(unsigned i) {
  return cast<RankedTensorType>(getBody().front().getArgument(i).getType());
}

RankedTensorType OnStorageOp::getOutputType(unsigned i) {
  return cast<RankedTensorType>(getYield().getValues()[i].getType());
}

LogicalResult OnStorageOp::verify() {
  Block &body = getBody().front();
  // Compressed weights are held by their surfaces (WGS, WMB, data), one
  // storage operand each, sized by the values.
  TypeRange buffers = getIns().getTypes();
  unsigned next = 0;
  for (auto [i, arg] : llvm::enumerate(body.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(arg);
    const unsigned surfaces = tensor ? getDataDependentSurfaceCount(tensor) : 0;
    if (next + std::max(surfaces, 1u) > buffers.size())
      return emitOpError() << "has " << buffers.size()
                           << " storage operand(s), too few for the "
                           << body.getNumArguments() << " logical operand(s) of its body";
    if (surfaces == 0) {
      if (failed(verifyStorageOf(*this, "operand", next, buffers[next], arg)))
        return failure();
      ++next;
      continue;
    }
    for (unsigned s = 0; s < surfaces; ++s, ++next) {
      auto m = dyn_cast<MemRefType>(buffers[next]);
      if (!m || m.getRank() != 1 || !m.hasStaticShape() || !m.getElementType().isInteger(8) ||
          !m.getLayout().isIdentity())
        return emitOpError() << "operand #" << next << " holds surface " << s << " of " << arg
                             << ", which must be a static memref<BYTES x i8>, got "
                             << buffers[next];
    }
  }
  if (next != buffers.size())
    return emitOpError() << "has " << buffers.size() << " storage operand(s) but its body takes "
                         << body.getNumArguments() << " logical operand(s)";
  return success();
}

LogicalResult OnStorageOp::verifyRegions() {
  Block &body = getBody().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end in dla.yield");
  if (yield.getValues().size() != getOuts().size())
    return emitOpError() << "has " << getOuts().size() << " result storage(s) but its body yields "
                         << yield.getValues().size() << " value(s)";
  for (auto [i, buffer, value] : llvm::enumerate(getOuts().getTypes(), yield.getValues()))
    if (failed(verifyStorageOf(*this, "result", i, buffer, value.getType())))
      return failure();
  for (Operation &op : body.without_terminator())
    if (!isa<LayerOpInterface>(op))
      return op.emitOpError("cannot run on storage: only layer ops (dla.conv, dla.sdp, ...) may "
                            "be in the body of a dla.on_storage");
  return success();
}
