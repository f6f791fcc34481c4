//===- ConstantPacker.h - Packing constants into storage surfaces -*- C++ -*-===//
//
// What the constant folder needs from a format, beyond a BoundLayout: the
// storage may be several surfaces (compressed weights: WGS, WMB and data),
// their sizes may depend on the data (compression), and fp16 storage may be
// filled from fp32 values, converted while packing. Packers are plain C++,
// built sequentially and then run in parallel, one per constant.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_CONSTANTPACKER_H
#define DLA_FORMAT_CONSTANTPACKER_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/Expected.h"
#include "dla/Format/Fp16.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlaformat {

/// The data a packer reads.
struct PackSource {
  /// Row-major logical elements of the tensor's element width, or fp32
  /// values when `fromFp32` is set.
  const char *data = nullptr;
  int64_t bytes = 0;
  /// The data is fp32; the tensor's fp16 elements are its values rounded
  /// with `rounding`.
  bool fromFp32 = false;
  Fp16Rounding rounding = Fp16Rounding::TiesToEven;
  /// With `fromFp32`, for a format that computes its stored values from the
  /// weights (Winograd): the fp32 values are the weights, transformed in
  /// fp32 and rounded once with `rounding` (NVIDIA's compiler). Without it
  /// the weights are the fp16-rounded values, transformed and rounded again.
  bool transformFromFp32 = false;
};

/// Which kind of constant holds a packer's surfaces; the dialect maps each
/// kind to its op, so a pass needs to know no format's surface names.
enum class SurfaceHolder {
  /// One surface: the tensor's own storage (an arith.constant).
  TensorStorage,
  /// The WGS, WMB and data surfaces of sparse-compressed weights, in that
  /// order (dla.weight_constant).
  CompressedWeights,
};

/// The surfaces of a packed constant and what holds them.
struct StorageSurfaces {
  SurfaceHolder holder = SurfaceHolder::TensorStorage;
  /// One name per surface, in order (e.g. {"storage"}, {"wgs", "wmb",
  /// "data"}); names label the stored blobs.
  std::vector<std::string> names;
};

class ConstantPacker {
public:
  virtual ~ConstantPacker();

  /// The surfaces this packer writes and the constant kind that holds them.
  virtual StorageSurfaces getSurfaces() const = 0;
  /// Start alignment every surface needs, in bytes.
  virtual int64_t getSurfaceAlignment() const = 0;
  /// The storage of a constant whose layout binds no element to a byte
  /// (Winograd weights: each stored value mixes nine weights) but whose size
  /// does not depend on the data; nullopt for every other packer.
  virtual std::optional<StorageDescription> describeUnboundStorage() const {
    return std::nullopt;
  }
  /// Upper bound, for any data, of the bytes planSurfaces() and pack() hold
  /// at once: the surfaces (data-dependent sizes at their worst) plus every
  /// temporary. Known before the data is read, so a caller can refuse a
  /// constant before anything is allocated. `fromFp32`: the source will be
  /// fp32 values. Fails when the bound overflows int64.
  virtual Expected<int64_t> getPeakBytes(bool fromFp32) const = 0;
  /// The surface sizes for this data. May read (and keep) work it will reuse
  /// in pack(); call once, before pack().
  virtual Expected<std::vector<int64_t>> planSurfaces(const PackSource &source) = 0;
  /// Writes every byte of every surface, sized as planSurfaces() said.
  /// Fails (never aborts) when a temporary cannot be allocated.
  virtual Status pack(const PackSource &source, const std::vector<char *> &surfaces) = 0;
};

/// A one-surface packer over any BoundLayout. An fp32 source needs 2-byte
/// (fp16) elements and is converted before packing.
std::unique_ptr<ConstantPacker> makeBoundLayoutPacker(std::unique_ptr<BoundLayout> layout,
                                                      int64_t alignment);

/// Checks that `source` holds the elements `layout` expects (count and
/// width, or fp32 for 2-byte elements); used by every packer.
Status checkPackSource(const PackSource &source, int64_t numElements, int64_t elementBytes);

} // namespace dlaformat

#endif // DLA_FORMAT_CONSTANTPACKER_H
