//===- NvdlaFeature.h - NVDLA feature data format ---------------*- C++ -*-===//
//
// Feature data ("Feature Data Format" of the NVDLA in-memory format
// document): the W x H x C cube is cut into 1x1x32-byte atoms (the
// configuration's memory atom: 8 bytes on nv_small, whose C model reads
// ELEMENT_PER_ATOM_INT8 = NVDLA_MEMORY_ATOMIC_SIZE channels per atom and
// whose compiler's channelsPerGroup is its atomic-K of 8), C is padded
// up to whole atoms, and atoms are mapped in the order C' (32 bytes, within
// the atom) -> W -> H -> C (surfaces). Atoms of one line are compact; lines
// and surfaces may have gaps (unpacked data) but strides are 32-byte aligned.
//
// Logical shape: NCHW. N > 1 uses a batch stride (multi-batch mode); by
// default the batches follow each other compactly.
//
// Geometry, with A = the memory atom in bytes (32; 8 on nv_small) and
// E = channels per atom (A for int8, A / 2 for int16/fp16):
//   packed line stride    = W * A
//   packed surface stride = H * line stride
//   surfaces              = ceil(C / E)
//   packed batch stride   = surfaces * surface stride
//   storage               = N * batch stride
//   byte offset (n,c,h,w) = n*batch + (c/E)*surface + h*line + w*32
//                           + (c%E)*bytes_per_element
// The channels of the last atom beyond C and every gap are zero after pack.
//
// AtomCube is the same geometry with a general atom (elements per atom,
// components per element, bytes per component); the per-element bias and
// element-wise formats (NvdlaAux.h) reuse it.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAFEATURE_H
#define DLA_FORMAT_NVDLAFEATURE_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPrecision.h"
#include "dla/Format/StridedView.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlaformat::nvdla {

/// What an AtomCube is built from.
struct AtomCubeSpec {
  /// Name used in messages: "feature data", "bias data", ...
  std::string what = "feature data";
  /// The row of the alignment table whose stride and data-size rules apply.
  AlignedData alignment = AlignedData::FeatureData;
  int64_t batches = 1, channels = 0, height = 0, width = 0;
  /// Elements (channels) per atom.
  int64_t elementsPerAtom = 32;
  /// The configuration's memory atom: the alignment table's atom-sized
  /// requirements are in its units (getAlignment(data, memoryAtomBytes)).
  int64_t memoryAtomBytes = kDocumentAtomBytes;
  /// Components per element, interleaved within the element (2 for the
  /// add/mul pairs of batch-norm or ALU+MUL element-wise data).
  int64_t componentsPerElement = 1;
  /// Storage bytes of one component.
  int64_t bytesPerComponent = 1;
  /// Explicit strides in bytes; the packed value when absent.
  std::optional<int64_t> lineStride, surfaceStride, batchStride;
};

/// Where a storage byte falls in an AtomCube.
struct CubePosition {
  int64_t batch = 0, channel = 0, row = 0, column = 0, component = 0;
  int64_t byteInComponent = 0;
};

/// A validated cube of atoms with its strides.
class AtomCube {
public:
  /// Validates the spec: extents >= 0; explicit strides non-negative,
  /// aligned as the alignment table requires, multiples of the component
  /// size and at least the packed size of what they step over; every size
  /// computed without int64 overflow.
  static Expected<AtomCube> get(const AtomCubeSpec &spec);

  const AtomCubeSpec &getSpec() const { return spec; }
  /// BytesPerAtom = ElementPerAtom x ComponentsPerElement x BytesPerComponent.
  int64_t getBytesPerAtom() const { return bytesPerAtom; }
  int64_t getNumSurfaces() const { return numSurfaces; }
  int64_t getLineStride() const { return lineStride; }
  int64_t getSurfaceStride() const { return surfaceStride; }
  int64_t getBatchStride() const { return batchStride; }
  /// batches * batch stride, rounded up to the table's data-size alignment.
  int64_t getStorageBytes() const { return storageBytes; }
  /// True when no stride leaves a gap (all strides are the packed ones).
  bool isPacked() const;

  /// Byte offset of a component; arguments must be in range.
  int64_t getByteOffset(int64_t n, int64_t c, int64_t h, int64_t w, int64_t comp = 0) const;
  /// The component holding a storage byte, or nullopt for padding / gaps.
  /// `byteOffset` must be in [0, getStorageBytes()).
  std::optional<CubePosition> locate(int64_t byteOffset) const;

  /// The cube as a strided view in units of components, for a logical
  /// tensor whose dimensions N, C, H, W and component sit at the given
  /// positions (-1: the dimension is absent; an absent N needs 1 batch, an
  /// absent component dimension needs 1 component).
  StridedView makeView(int64_t nDim, int64_t cDim, int64_t hDim, int64_t wDim,
                       int64_t compDim) const;

private:
  AtomCube() = default;
  AtomCubeSpec spec;
  int64_t bytesPerAtom = 0, numSurfaces = 0, lineStride = 0, surfaceStride = 0, batchStride = 0,
          storageBytes = 0;
};

/// Configuration of feature data.
struct FeatureConfig {
  Precision precision = Precision::Int8;
  /// Explicit strides in bytes (unpacked data); packed when absent.
  std::optional<int64_t> lineStride;
  std::optional<int64_t> surfaceStride;
  std::optional<int64_t> batchStride;
  /// The configuration whose memory atom cuts the cube.
  HardwareKind hardware = HardwareKind::NvFull;
};

/// Feature data bound to a logical NCHW shape. Logical elements are
/// getBytesPerElement(precision) wide.
class FeatureBoundLayout final : public BoundLayout {
public:
  static Expected<std::unique_ptr<FeatureBoundLayout>> bind(const FeatureConfig &config,
                                                            const std::vector<int64_t> &shape);
  /// Same checks as bind, without building anything.
  static Status validate(const FeatureConfig &config, const std::vector<int64_t> &shape);

  const FeatureConfig &getConfig() const { return config; }
  const AtomCube &getCube() const { return cube; }
  int64_t getLineStride() const { return cube.getLineStride(); }
  int64_t getSurfaceStride() const { return cube.getSurfaceStride(); }
  int64_t getBatchStride() const { return cube.getBatchStride(); }
  int64_t getNumSurfaces() const { return cube.getNumSurfaces(); }
  bool isPacked() const { return cube.isPacked(); }

  int64_t getStorageBytes() const override { return cube.getStorageBytes(); }
  Expected<int64_t> getByteOffset(const std::vector<int64_t> &index) const override;
  Expected<StorageLocation> locate(int64_t byteOffset) const override;
  std::optional<StridedView> getStridedView() const override { return view; }
  LogicalOrder getLogicalOrder() const override { return LogicalOrder::NCHW; }
  int64_t getStorageAlignment() const override {
    return getAlignment(AlignedData::FeatureData,
                        getHardwareConfig(config.hardware).caps.memoryAtomBytes)
        .startAddress;
  }
  void pack(const char *logical, char *storage) const override;
  void unpack(const char *storage, char *logical) const override;

private:
  FeatureBoundLayout(const FeatureConfig &config, const AtomCube &cube, std::vector<int64_t> shape,
                     int64_t numElements);
  FeatureConfig config;
  AtomCube cube;
  StridedView view;
};

/// Whether `view` holds every element of `source` at the same byte, the
/// positions of both read row-major (element p of a batch and channel is
/// at row p / W, column p % W of each): the reshape of [N, C, H, W] to
/// [N, C, H', W'] (H W = H' W') moves no byte, so it is a view of the
/// source's storage at offset 0 (dla.reshape_view). N, C, precision and
/// configuration must be equal, and so must the storage sizes. The byte
/// offset is a sum of a batch, a channel and a position term, so each is
/// compared on its own.
bool keepsBytesInPlace(const FeatureBoundLayout &source, const FeatureBoundLayout &view);

/// The feature configuration under which [N, C, height, width] is
/// `source`'s storage read in place (keepsBytesInPlace): the source's
/// surface and batch strides, lines of `width` atoms. nullopt when no
/// configuration is: the positions differ in number, or the source's
/// lines have gaps that a row of the new width would have to step over.
std::optional<FeatureConfig> getInPlaceReshape(const FeatureBoundLayout &source, int64_t height,
                                               int64_t width);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAFEATURE_H
