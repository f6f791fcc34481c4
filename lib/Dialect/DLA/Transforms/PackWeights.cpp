//===- PackWeights.cpp - Fold relayouts of constants into storage blobs ---===//
//
// Packing is constant folding, but it is written as a three-phase pass rather
// than a folder or rewrite pattern: collect every relayout of a constant
// (sequential, may diagnose), pack all of them in parallel on the context's
// thread pool (byte work only), then commit the new constants (sequential IR
// mutation). The greedy driver would pack one op at a time.
//
// What is packed, and how, is the encoding's business: each encoding hands
// out a format-library ConstantPacker, which also says which kind of
// constant holds its surfaces (SurfaceHolder: the tensor's own storage, or
// the three surfaces of compressed weights in dla.weight_constant). A relayout of `arith.truncf` of an f32 constant is
// packed from the f32 data directly, rounding as the truncf says.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/ByteBuffer.h"
#include "dla/Format/CheckedMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Endian.h"

#include <cstring>
#include <limits>

namespace mlir::dla {
#define GEN_PASS_DEF_DLAPACKWEIGHTS
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

namespace {

/// Alignment of packed blobs at least: a cache line.
constexpr int64_t kMinBlobAlignment = 64;

/// One relayout of a constant, with everything the parallel phase needs.
struct PackJob {
  RelayoutOp op;
  arith::ConstantOp source;
  /// The arith.truncf between the f32 constant and the relayout, if fused.
  arith::TruncFOp truncf;
  std::unique_ptr<fmt::ConstantPacker> packer;
  /// Layout of the constant's bytes when they are the storage of an encoding
  /// (a dense_resource on an encoded type): unpacked before packing.
  std::unique_ptr<fmt::BoundLayout> sourceLayout;
  /// The constant's bytes: logical data (or fp32 values for a fused
  /// truncf), or the storage of sourceLayout.
  ArrayRef<char> input;
  /// Backing store for `input` when the attribute does not hold the bytes
  /// contiguously (splats, i1).
  fmt::ByteBuffer ownedInput;
  fmt::PackSource pack;
  std::vector<AsmResourceBlob> surfaces;
  /// Set by the parallel phase on failure, reported afterwards.
  std::string error;
};

/// Fills `job.input` with the constant's bytes, or diagnoses why it cannot.
LogicalResult readConstantBytes(PackJob &job) {
  Attribute value = job.source.getValue();
  auto type = cast<RankedTensorType>(job.source.getType());
  // The packer was built for this element type, so it has a storage width.
  const int64_t width = getElementBytes(type.getElementType());
  const int64_t logicalBytes = type.getNumElements() * width;

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
  auto expand = [&]() -> LogicalResult {
    fmt::Expected<fmt::ByteBuffer> buffer =
        fmt::ByteBuffer::allocate(logicalBytes, "the expanded constant");
    if (!buffer)
      return job.source.emitError() << buffer.message();
    job.ownedInput = std::move(*buffer);
    return success();
  };
  if (type.getElementType().isInteger(1)) {
    if (failed(expand()))
      return failure();
    char *out = job.ownedInput.data();
    for (bool b : dense.getValues<bool>())
      *out++ = static_cast<char>(b);
  } else if (dense.isSplat()) {
    if (failed(expand()))
      return failure();
    ArrayRef<char> one = dense.getRawData();
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      std::memcpy(job.ownedInput.data() + i * width, one.data(), static_cast<size_t>(width));
  } else {
    ArrayRef<char> raw = dense.getRawData();
    if (static_cast<int64_t>(raw.size()) != logicalBytes)
      return job.source.emitError("unexpected raw size ")
             << raw.size() << " of constant " << type << "; expected " << logicalBytes;
    job.input = raw;
    return success();
  }
  job.input = ArrayRef<char>(job.ownedInput.data(), static_cast<size_t>(job.ownedInput.size()));
  return success();
}

/// Bytes packing adds on the source side before the packer runs: the
/// expanded copy of a splat or i1 constant, or the unpacked copy of an
/// encoded dense_resource. Plain dense data is read in place.
std::optional<int64_t> sourceCopyBytes(arith::ConstantOp source) {
  auto type = cast<RankedTensorType>(source.getType());
  Attribute value = source.getValue();
  bool copied = false;
  if (isa<DenseResourceElementsAttr>(value))
    copied = static_cast<bool>(type.getEncoding());
  else if (auto dense = dyn_cast<DenseElementsAttr>(value))
    copied = type.getElementType().isInteger(1) || dense.isSplat();
  if (!copied)
    return 0;
  return fmt::checkedMul(type.getNumElements(), getElementBytes(type.getElementType()));
}

/// Finds the constant feeding `op` (matchCompileTimeConstant: directly, or
/// through an f32 -> f16 truncf the packer fuses). Returns false when `op`
/// is not foldable.
bool matchSource(RelayoutOp op, PackJob &job) {
  std::optional<CompileTimeConstant> c = matchCompileTimeConstant(op.getSource());
  if (!c)
    return false;
  job.source = c->constant;
  if (c->truncf) {
    job.truncf = c->truncf;
    job.pack.fromFp32 = true;
    job.pack.rounding = c->rounding;
  } else if (isF32ToWinograd(op)) {
    // The f32 weights themselves: transformed in f32, rounded once with the
    // encoding's rounding (integers: divided by its scale first).
    job.pack.fromFp32 = true;
    job.pack.transformFromFp32 = true;
    job.pack.rounding = cast<WeightAttr>(op.getType().getEncoding()).getRounding();
  }
  return true;
}

/// The parallel phase: unpack (encoded source), plan the surfaces, pack.
void runJob(PackJob &job) {
  fmt::ByteBuffer unpacked;
  job.pack.data = job.input.data();
  job.pack.bytes = static_cast<int64_t>(job.input.size());
  if (job.sourceLayout) {
    const fmt::BoundLayout &from = *job.sourceLayout;
    fmt::Expected<fmt::ByteBuffer> buffer = fmt::ByteBuffer::allocate(
        from.getNumElements() * from.getElementBytes(), "the unpacked source constant");
    if (!buffer) {
      job.error = buffer.message();
      return;
    }
    unpacked = std::move(*buffer);
    from.unpack(job.input.data(), unpacked.data());
    job.pack.data = unpacked.data();
    job.pack.bytes = unpacked.size();
  }
  fmt::Expected<std::vector<int64_t>> sizes = job.packer->planSurfaces(job.pack);
  if (!sizes) {
    job.error = sizes.message();
    return;
  }
  size_t alignment = static_cast<size_t>(
      std::max<int64_t>(kMinBlobAlignment, job.packer->getSurfaceAlignment()));
  std::vector<char *> out;
  for (int64_t size : *sizes) {
    // Not HeapAsmResourceBlob::allocate: its operator new aborts the process
    // when memory runs out; this reports it.
    size_t bytes = static_cast<size_t>(size);
    void *data = fmt::allocateForWriting(bytes, alignment);
    if (!data) {
      job.error = "out of memory allocating a storage surface of " + std::to_string(size) +
                  " bytes";
      return;
    }
    job.surfaces.emplace_back(
        ArrayRef<char>(static_cast<char *>(data), bytes), alignment,
        [](void *p, size_t, size_t) { std::free(p); }, /*dataIsMutable=*/true);
    out.push_back(job.surfaces.back().getMutableData().data());
  }
  if (fmt::Status s = job.packer->pack(job.pack, out); !s)
    job.error = s.message();
}

struct PackWeightsPass : mlir::dla::impl::DLAPackWeightsBase<PackWeightsPass> {
  using DLAPackWeightsBase::DLAPackWeightsBase;

  /// Sequential phase 1: diagnoses anything it cannot pack.
  LogicalResult collect(RelayoutOp op, std::vector<PackJob> &jobs) {
    PackJob job;
    job.op = op;
    if (!matchSource(op, job))
      return success();
    RankedTensorType result = op.getType();
    auto emitError = [&] { return op.emitError(); };
    FailureOr<std::unique_ptr<fmt::ConstantPacker>> packer;
    if (auto layout = dyn_cast_or_null<LayoutEncodingAttr>(result.getEncoding())) {
      packer = layout.getConstantPacker(result.getShape(), result.getElementType(), emitError);
    } else {
      auto bound = bindTensorLayout(result, emitError);
      if (failed(bound))
        return failure();
      packer = fmt::makeBoundLayoutPacker(std::move(*bound), kMinBlobAlignment);
    }
    if (failed(packer))
      return failure();
    job.packer = std::move(*packer);
    fmt::StorageSurfaces surfaces = job.packer->getSurfaces();
    size_t expected = surfaces.holder == fmt::SurfaceHolder::CompressedWeights ? 3 : 1;
    if (surfaces.names.size() != expected)
      return op.emitError("no constant op holds the ")
             << surfaces.names.size() << " storage surfaces of " << result;
    // Before any allocation: everything packing this constant holds (a copy
    // of the source, the storage surfaces and the packer's temporaries,
    // compressed sizes at their worst), added to what the constants before
    // it hold, must fit the limit. The sum is the whole run's bound: packed
    // blobs stay alive and jobs of one round run at the same time.
    fmt::Expected<int64_t> packerBytes = job.packer->getPeakBytes(job.pack.fromFp32);
    std::optional<int64_t> sourceBytes = sourceCopyBytes(job.source);
    std::optional<int64_t> bytes, total;
    if (packerBytes && sourceBytes)
      bytes = fmt::checkedAdd(*packerBytes, *sourceBytes);
    if (bytes)
      total = fmt::checkedAdd(*bytes, bytesPacked);
    if (!total || *total > static_cast<int64_t>(maxBytes)) {
      InFlightDiagnostic diag = op.emitError("packing needs ");
      if (bytes)
        diag << *bytes << " bytes";
      else
        diag << "more than 2^63 bytes";
      if (packerBytes && sourceBytes && *sourceBytes)
        diag << " (" << *packerBytes << " for storage and temporaries, " << *sourceBytes
             << " for a copy of the source)";
      if (bytes && bytesPacked)
        diag << ", " << (total ? std::to_string(*total) : std::string("more than 2^63"))
             << " with the " << bytesPacked << " bytes of the constants packed before it";
      return diag << ", more than the limit of " << static_cast<int64_t>(maxBytes)
                  << " bytes (option max-bytes of --dla-pack-weights)";
    }
    bytesPacked = *total;
    // Encoded sources are bound here; layouts that cannot be read back
    // (Winograd) refuse to bind, with their reason.
    if (failed(readConstantBytes(job)))
      return failure();
    // Winograd fp16 from f32 weights: two ways, which differ in the last bit.
    if (auto weight = dyn_cast_or_null<WeightAttr>(result.getEncoding());
        weight && job.pack.fromFp32 &&
        weight.getFormat() == ::dlaformat::nvdla::WeightFormat::Winograd) {
      if (job.pack.transformFromFp32 && !weight.getScale().isZero())
        mlir::emitRemark(op.getLoc(), "Winograd ")
            << ::dlaformat::enumName(weight.getPrecision())
            << " weights from f32: transformed in f32, divided by the scale, rounded once";
      else if (job.pack.transformFromFp32)
        mlir::emitRemark(op.getLoc(),
                         "Winograd fp16 weights from f32: transformed in f32, rounded once "
                         "(as NVIDIA's compiler)");
      else
        mlir::emitRemark(op.getLoc(),
                         "Winograd fp16 weights from the arith.truncf-rounded weights: "
                         "transformed, rounded again (relayout the f32 constant straight into "
                         "the encoding to round once)");
    }
    jobs.push_back(std::move(job));
    return success();
  }

  /// Sequential phase 3: new constants replace the relayouts.
  void commit(PackJob &job) {
    OpBuilder builder(job.op);
    RankedTensorType type = job.op.getType();
    fmt::StorageSurfaces holder = job.packer->getSurfaces();
    Value packed;
    switch (holder.holder) {
    case fmt::SurfaceHolder::TensorStorage: {
      auto attr = DenseResourceElementsAttr::get(type, "dla_packed", std::move(job.surfaces[0]));
      packed = arith::ConstantOp::create(builder, job.op.getLoc(), type, cast<TypedAttr>(attr))
                   .getResult();
      break;
    }
    case fmt::SurfaceHolder::CompressedWeights: {
      SmallVector<ElementsAttr> surfaces;
      for (auto [name, blob] : llvm::zip_equal(holder.names, job.surfaces)) {
        auto surfaceType = RankedTensorType::get({static_cast<int64_t>(blob.getData().size())},
                                                 builder.getI8Type());
        surfaces.push_back(cast<ElementsAttr>(
            DenseResourceElementsAttr::get(surfaceType, "dla_" + name, std::move(blob))));
      }
      packed = WeightConstantOp::create(builder, job.op.getLoc(), type, surfaces[0], surfaces[1],
                                        surfaces[2])
                   .getResult();
      break;
    }
    }
    job.op.replaceAllUsesWith(packed);
    job.op.erase();
  }

  void runOnOperation() override {
    bytesPacked = 0;
    packAll();
    releaseErasedBlobs();
  }

  void packAll() {
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
        if (failed(collect(op, jobs)))
          failedCollect = true;
      });
      if (failedCollect)
        return signalPassFailure();
      if (jobs.empty())
        return;

      parallelForEach(&getContext(), jobs, runJob);

      bool failedPack = false;
      for (PackJob &job : jobs)
        if (!job.error.empty()) {
          job.op.emitError("cannot pack ") << job.source.getType() << " into " << job.op.getType()
                                           << ": " << job.error;
          failedPack = true;
        }
      if (failedPack)
        return signalPassFailure();

      llvm::SetVector<Operation *> truncfs, constants;
      for (PackJob &job : jobs) {
        if (job.truncf)
          truncfs.insert(job.truncf);
        constants.insert(job.source);
        commit(job);
      }
      // Truncfs first: a constant shared by several of them is free only
      // once they all are gone.
      for (auto *sources : {&truncfs, &constants})
        for (Operation *source : *sources)
          if (source->use_empty()) {
            if (auto constant = dyn_cast<arith::ConstantOp>(source))
              if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
                erasedBlobs.insert(resource.getRawHandle().getResource());
            source->erase();
          }
    }
  }

  /// Frees the data of source blobs that no attribute refers to any more:
  /// the resource manager would otherwise keep every unpacked weight alive
  /// next to its packed copy until the context dies.
  void releaseErasedBlobs() {
    if (erasedBlobs.empty())
      return;
    getOperation()->walk([&](Operation *op) {
      op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
        erasedBlobs.remove(attr.getRawHandle().getResource());
      });
    });
    for (DialectResourceBlobManager::BlobEntry *entry : erasedBlobs)
      entry->setBlob(AsmResourceBlob());
    erasedBlobs.clear();
  }

  llvm::SetVector<DialectResourceBlobManager::BlobEntry *> erasedBlobs;
  /// What the constants collected so far may hold, in bytes (their bound).
  int64_t bytesPacked = 0;
};

} // namespace
