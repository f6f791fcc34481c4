//===- PackWeights.cpp - Fold relayouts of constants into storage blobs ---===//
//
// Packing is constant folding, but it is written as a three-phase pass rather
// than a folder or rewrite pattern: collect every relayout of a constant
// (sequential, may diagnose), pack all of them in parallel on the context's
// thread pool (pure byte work, cannot fail), then commit the new constants
// (sequential IR mutation). The greedy driver would pack one op at a time.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Endian.h"

#include <cstring>

namespace mlir::dla {
#define GEN_PASS_DEF_DLAPACKWEIGHTS
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dla::format;

namespace {

/// Alignment of packed blobs: a cache line, and enough for any element.
constexpr size_t kBlobAlignment = 64;

/// One relayout of a constant, with everything the parallel phase needs.
struct PackJob {
  RelayoutOp op;
  arith::ConstantOp source;
  /// Layout of the source constant's bytes when they are storage bytes of an
  /// encoding (a dense_resource on an encoded type); null when `input` is
  /// already row-major logical data.
  std::unique_ptr<fmt::BoundLayout> sourceLayout;
  std::unique_ptr<fmt::BoundLayout> resultLayout;
  /// The constant's bytes: row-major logical data, or storage of sourceLayout.
  ArrayRef<char> input;
  /// Backing store for `input` when the attribute does not hold the bytes
  /// contiguously (splats, i1).
  std::vector<char> ownedInput;
  AsmResourceBlob result;
};

/// Fills `job.input` with the constant's bytes, or diagnoses why it cannot.
LogicalResult readConstantBytes(PackJob &job) {
  Attribute value = job.source.getValue();
  auto type = cast<RankedTensorType>(job.source.getType());
  const fmt::BoundLayout &logical = *job.resultLayout;
  const int64_t width = logical.getElementBytes();
  const int64_t logicalBytes = logical.getNumElements() * width;

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return job.source.emitError("constant's resource '")
             << resource.getRawHandle().getKey() << "' has no data (elided?)";
    if (type.getEncoding()) {
      auto bound = bindTensorLayout(type, [&] { return job.source.emitError(); });
      if (failed(bound))
        return failure();
      job.sourceLayout = std::move(*bound);
    }
    int64_t expected = job.sourceLayout ? job.sourceLayout->getStorageBytes() : logicalBytes;
    if (static_cast<int64_t>(blob->getData().size()) != expected)
      return job.source.emitError("constant's resource '")
             << resource.getRawHandle().getKey() << "' holds " << blob->getData().size()
             << " bytes, but " << type << " needs " << expected;
    job.input = blob->getData();
    return success();
  }

  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return job.source.emitError("cannot pack a constant of kind ")
           << value << "; expected dense or dense_resource elements";
  Type elementType = type.getElementType();
  if (elementType.isInteger(1)) {
    job.ownedInput.reserve(static_cast<size_t>(logicalBytes));
    for (bool b : dense.getValues<bool>())
      job.ownedInput.push_back(static_cast<char>(b));
  } else if (dense.isSplat()) {
    ArrayRef<char> one = dense.getRawData();
    job.ownedInput.resize(static_cast<size_t>(logicalBytes));
    for (int64_t i = 0; i < logical.getNumElements(); ++i)
      std::memcpy(job.ownedInput.data() + i * width, one.data(), static_cast<size_t>(width));
  } else {
    ArrayRef<char> raw = dense.getRawData();
    if (static_cast<int64_t>(raw.size()) != logicalBytes)
      return job.source.emitError("unexpected raw size ")
             << raw.size() << " of constant " << type << "; expected " << logicalBytes;
    job.input = raw;
    return success();
  }
  job.input = job.ownedInput;
  return success();
}

/// The parallel phase: unpack (if the source is encoded) and pack.
void runJob(PackJob &job) {
  const fmt::BoundLayout &to = *job.resultLayout;
  job.result = HeapAsmResourceBlob::allocate(static_cast<size_t>(to.getStorageBytes()),
                                             kBlobAlignment, /*dataIsMutable=*/true);
  const char *logical = job.input.data();
  std::vector<char> unpacked;
  if (job.sourceLayout) {
    unpacked.resize(static_cast<size_t>(to.getNumElements() * to.getElementBytes()));
    job.sourceLayout->unpack(job.input.data(), unpacked.data());
    logical = unpacked.data();
  }
  to.pack(logical, job.result.getMutableData().data());
}

struct PackWeightsPass : mlir::dla::impl::DLAPackWeightsBase<PackWeightsPass> {
  using DLAPackWeightsBase::DLAPackWeightsBase;

  void runOnOperation() override {
    if constexpr (llvm::endianness::native != llvm::endianness::little) {
      getOperation().emitError("--dla-pack-weights writes little-endian storage and "
                               "needs a little-endian host");
      return signalPassFailure();
    }
    // Repeat for chains: relayout(relayout(constant)) packs the inner op in
    // the first round, the outer one in the next.
    for (;;) {
      std::vector<PackJob> jobs;
      bool failedCollect = false;
      getOperation().walk([&](RelayoutOp op) {
        auto source = op.getSource().getDefiningOp<arith::ConstantOp>();
        if (!source)
          return;
        PackJob job;
        job.op = op;
        job.source = source;
        auto bound = bindTensorLayout(op.getType(), [&] { return op.emitError(); });
        if (failed(bound)) {
          failedCollect = true;
          return;
        }
        job.resultLayout = std::move(*bound);
        if (job.resultLayout->getStorageBytes() > static_cast<int64_t>(maxBytes)) {
          op.emitError("packed storage of ")
              << job.resultLayout->getStorageBytes() << " bytes exceeds the limit of " << static_cast<int64_t>(maxBytes)
              << " bytes (option max-bytes of --dla-pack-weights)";
          failedCollect = true;
          return;
        }
        if (failed(readConstantBytes(job))) {
          failedCollect = true;
          return;
        }
        jobs.push_back(std::move(job));
      });
      if (failedCollect)
        return signalPassFailure();
      if (jobs.empty())
        return;

      parallelForEach(&getContext(), jobs, runJob);

      llvm::SetVector<Operation *> sources;
      for (PackJob &job : jobs) {
        OpBuilder builder(job.op);
        RankedTensorType type = job.op.getType();
        auto attr = DenseResourceElementsAttr::get(type, "dla_packed", std::move(job.result));
        auto constant = arith::ConstantOp::create(builder, job.op.getLoc(), type,
                                                  cast<TypedAttr>(attr));
        job.op.replaceAllUsesWith(constant.getResult());
        job.op.erase();
        sources.insert(job.source);
      }
      for (Operation *source : sources)
        if (source->use_empty())
          source->erase();
    }
  }
};

} // namespace
