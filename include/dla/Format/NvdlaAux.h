//===- NvdlaAux.h - NVDLA bias, PReLU, batch-norm, element-wise -*- C++ -*-===//
//
// The auxiliary data the SDP fetches from memory (sections "Bias Data
// Format" to "Element-Wise Data Format" of the NVDLA in-memory format
// document).
//
// Atoms. BytesPerAtom = ElementPerAtom x ComponentsPerElement x
// BytesPerComponent, where ElementPerAtom is 32 for PROC_PRECISION int8 and
// 16 for int16 / fp16 (the memory atom over the element width: 8 and 4 in
// nv_small's 8-byte atom), ComponentsPerElement is 2 for batch-norm (add, mul)
// and for element-wise data with both ALU and MUL, 1 otherwise, and
// BytesPerComponent is the DATA_SIZE (ONE_BYTE 1, TWO_BYTE 2). int8 data may
// occupy two bytes (the "case 2" figures: 64-byte atoms of 32 int8 elements,
// 128-byte batch-norm atoms); fp16 data always takes two bytes.
//
// Storage per mode:
//   per layer   - the value lives in a register; storage is the register
//                 image: the component(s), add before mul, no padding.
//   per channel - a continuous 1x1xC run, channel after channel (the two
//                 batch-norm components interleaved per channel: add0, mul0,
//                 add1, mul1, ...), zero-padded to a whole last atom.
//   per element - the feature-data ordering with the atom above: atom group
//                 (surface), rows, columns, elements within the atom, and
//                 the components interleaved per element (ALU before MUL).
//                 Line / surface strides default to W x BytesPerAtom and
//                 H x line stride, rounded up to the table's alignment
//                 (which only matters for 16-byte atoms: int16 ONE_BYTE).
//
// Logical shapes (row-major order equals storage order, so component pairs
// are the innermost dimension):
//   bias per layer           []                  (a scalar)
//   batch-norm per layer     [2]                 (add, mul)
//   bias / PReLU per channel [C]
//   batch-norm per channel   [C, 2]              ([c][0] add, [c][1] mul)
//   bias per element         [C, H, W] or [N, C, H, W]
//   element-wise, ALU or MUL [C, H, W] or [N, C, H, W]
//   element-wise, both       [C, H, W, 2] or [N, C, H, W, 2] (ALU, MUL)
//
// Element width. The logical element is 1 or 2 bytes (the caller's element
// type). A 1-byte element stored in TWO_BYTE components is sign-extended by
// pack and truncated back by unpack. A 2-byte element in ONE_BYTE storage
// would lose bits and is rejected, so unpack stays the exact inverse of pack.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAAUX_H
#define DLA_FORMAT_NVDLAAUX_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaPrecision.h"
#include "dla/Format/StridedView.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

enum class AuxKind { Bias, PReLU, BatchNorm, ElementWise, Last = ElementWise };
enum class AuxMode { PerLayer, PerChannel, PerElement, Last = PerElement };
/// What the element-wise operand feeds: the ALU, the multiplier, or both.
enum class ElementWiseUse { Alu, Mul, AluAndMul, Last = AluAndMul };

inline constexpr EnumEntry<AuxKind> kAuxKindNames[] = {
    {AuxKind::Bias, "bias"},
    {AuxKind::PReLU, "prelu"},
    {AuxKind::BatchNorm, "batch_norm"},
    {AuxKind::ElementWise, "element_wise"}};
constexpr const auto &enumEntries(AuxKind) { return kAuxKindNames; }
static_assert(isInDeclarationOrder(kAuxKindNames, &EnumEntry<AuxKind>::value));

inline constexpr EnumEntry<AuxMode> kAuxModeNames[] = {{AuxMode::PerLayer, "per_layer"},
                                                       {AuxMode::PerChannel, "per_channel"},
                                                       {AuxMode::PerElement, "per_element"}};
constexpr const auto &enumEntries(AuxMode) { return kAuxModeNames; }
static_assert(isInDeclarationOrder(kAuxModeNames, &EnumEntry<AuxMode>::value));

inline constexpr EnumEntry<ElementWiseUse> kElementWiseUseNames[] = {
    {ElementWiseUse::Alu, "alu"},
    {ElementWiseUse::Mul, "mul"},
    {ElementWiseUse::AluAndMul, "alu_mul"}};
constexpr const auto &enumEntries(ElementWiseUse) { return kElementWiseUseNames; }
static_assert(isInDeclarationOrder(kElementWiseUseNames, &EnumEntry<ElementWiseUse>::value));

struct AuxConfig {
  AuxKind kind = AuxKind::Bias;
  AuxMode mode = AuxMode::PerChannel;
  /// PROC_PRECISION of the SDP: sets ElementPerAtom (with the memory atom).
  Precision precision = Precision::Int8;
  /// The configuration whose memory atom sets ElementPerAtom and the
  /// atom-sized alignments (8 bytes on nv_small: ELEMENT_PER_ATOM_INT8).
  HardwareKind hardware = HardwareKind::NvFull;
  /// DATA_SIZE: sets BytesPerComponent.
  DataSize dataSize = DataSize::OneByte;
  /// Element-wise data only.
  ElementWiseUse use = ElementWiseUse::Alu;
  /// Per-element data only: explicit strides in bytes.
  std::optional<int64_t> lineStride, surfaceStride, batchStride;
};

/// ComponentsPerElement: 2 for batch-norm and ALU+MUL element-wise data.
int64_t getComponentsPerElement(const AuxConfig &config);
/// ElementPerAtom x ComponentsPerElement x BytesPerComponent.
int64_t getBytesPerAtom(const AuxConfig &config);
/// Checks kind/mode pairs (PReLU is per channel only, batch-norm per layer
/// or per channel, element-wise per element only), the data size of fp16
/// data, and that strides are only given for per-element data.
Status validateAuxConfig(const AuxConfig &config);
/// The inputs of a batch data of `shape` holds: the leading N of per-element
/// data ([N, C, H, W], or [N, C, H, W, 2] with two components); 1 for the
/// CHW forms and per-layer or per-channel data.
int64_t getAuxBatchInputs(const AuxConfig &config, const std::vector<int64_t> &shape);
/// The logical shape of the data for an output cube C x H x W (the CHW form
/// for per-element data).
std::vector<int64_t> getAuxLogicalShape(const AuxConfig &config, int64_t channels, int64_t height,
                                        int64_t width);

class AuxBoundLayout final : public BoundLayout {
public:
  /// `elementBytes` is the logical element width (1 or 2).
  static Expected<std::unique_ptr<AuxBoundLayout>>
  bind(const AuxConfig &config, const std::vector<int64_t> &shape, int64_t elementBytes);
  static Status validate(const AuxConfig &config, const std::vector<int64_t> &shape,
                         int64_t elementBytes);

  const AuxConfig &getConfig() const { return config; }
  /// BytesPerComponent of the storage (differs from getElementBytes() for
  /// sign-extended int8 data).
  int64_t getStorageComponentBytes() const { return componentBytes; }
  int64_t getBytesPerAtom() const { return nvdla::getBytesPerAtom(config); }
  /// The atom cube of per-element data (strides, surfaces), else nullopt.
  const std::optional<AtomCube> &getCube() const { return cube; }
  /// The layout as a strided view in units of storage components, whether or
  /// not the element width changes.
  const StridedView &getStorageView() const { return view; }

  int64_t getStorageBytes() const override { return storageBytes; }
  Expected<int64_t> getByteOffset(const std::vector<int64_t> &index) const override;
  /// For sign-extended elements the extension byte is reported as byte 1 of
  /// the element (it is data, not padding).
  Expected<StorageLocation> locate(int64_t byteOffset) const override;
  /// The storage view when storage and logical element widths agree;
  /// nullopt when pack converts the width.
  std::optional<StridedView> getStridedView() const override;
  /// Per-element data is in feature-data order (NCHW or CHW); per-channel
  /// and per-layer data have no spatial axes.
  LogicalOrder getLogicalOrder() const override;
  /// The alignment table's row for this kind of data.
  int64_t getStorageAlignment() const override;
  /// One view in storage components (sign-extended int8 data: int16 ones).
  StorageDescription describeStorage() const override;
  void pack(const char *logical, char *storage) const override;
  void unpack(const char *storage, char *logical) const override;
  /// 1-byte data in 2-byte components is widened through a copy.
  int64_t getPackScratchBytes() const override {
    return componentBytes == getElementBytes() ? 0 : getNumElements() * 2;
  }

private:
  AuxBoundLayout(const AuxConfig &config, std::vector<int64_t> shape, int64_t elementBytes,
                 int64_t numElements)
      : BoundLayout(std::move(shape), elementBytes, numElements), config(config) {}

  AuxConfig config;
  int64_t componentBytes = 1;
  int64_t storageBytes = 0;
  /// Per-element data: the cube; logical dimension positions.
  std::optional<AtomCube> cube;
  int64_t nDim = -1, cDim = 0, hDim = -1, wDim = -1, compDim = -1;
  StridedView view;
};

/// A 1x1xC feature cube (another layer's result) read in place as the
/// per-channel operand data of `kind` (bias or PReLU: one component of the
/// feature's precision and natural size). The SDP's DMA reads per-kernel
/// data as one run of whole atoms from its base address, no stride
/// stepping through it (NVIDIA's C model, NV_NVDLA_sdp.cpp: surfaces x
/// elements per group x bytes; on a 1x1 cube it asserts SURFACE_STRIDE =
/// one group), and a 1x1 cube whose surface stride is one atom holds that
/// run byte for byte (the format document: a surface-packed 1x1xC cube "can
/// be treated like (C/32) x1x 32"). Fails, saying why, on any other cube.
Expected<std::unique_ptr<AuxBoundLayout>> bindFeatureAsPerChannel(const FeatureBoundLayout &feature,
                                                                  AuxKind kind);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAAUX_H
