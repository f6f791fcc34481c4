//===- NvdlaFeature.cpp - NVDLA feature data format ----------------------===//

#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/StridedCopy.h"

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// Resolves one stride: the explicit value after checking it, or the packed
/// value `minimum` rounded up to the alignment.
Expected<int64_t> resolveStride(const AtomCubeSpec &spec, const char *name,
                                std::optional<int64_t> given, int64_t minimum, int64_t alignment,
                                const std::string &minimumWhat) {
  const std::string &what = spec.what;
  const AlignmentRule rule = getAlignment(spec.alignment, spec.memoryAtomBytes);
  if (!given) {
    auto s = checkedRoundUp(minimum, alignment > 1 ? alignment : 1);
    if (!s)
      return makeError(what + ": " + name + " overflows a 64-bit integer");
    return *s;
  }
  int64_t v = *given;
  if (v < 0)
    return makeError(what + ": " + name + " must not be negative, got " + str(v));
  if (alignment > 1 && v % alignment != 0)
    return makeError(what + ": " + name + " " + str(v) + " bytes is not a multiple of " +
                     str(alignment) + " bytes, the alignment the NVDLA document requires of " +
                     std::string(rule.name) + " " + name + "s" +
                     (spec.memoryAtomBytes != kDocumentAtomBytes
                          ? " (its memory atom of " + str(spec.memoryAtomBytes) + " bytes)"
                          : std::string()));
  if (v % spec.bytesPerComponent != 0)
    return makeError(what + ": " + name + " " + str(v) + " bytes is not a multiple of the " +
                     str(spec.bytesPerComponent) + "-byte component");
  if (v < minimum)
    return makeError(what + ": " + name + " " + str(v) + " bytes is smaller than " + minimumWhat +
                     " (" + str(minimum) + " bytes)");
  return v;
}

/// Whether the cube's surfaces interleave line by line: an explicit
/// surface stride below the surface's lines, two surfaces and two lines or
/// more. NVIDIA's C model writes and reads a cube line by line at base +
/// s * surface + h * line + w * atom, with no order between the two
/// strides; then every line holds the surfaces' lines side by side (line
/// stride >= surfaces * surface stride, surface stride >= W * atom) and the
/// packed batch stride is H * line stride. On nv_small such a map of C
/// channels over H x 8 positions (surface stride 64, line stride C * 8) is
/// the direct weight stream of 8 H 1x1 kernels (docs/NvdlaFormats.md).
bool interleavesSurfaces(int64_t surfaces, int64_t height, int64_t lineStride,
                         int64_t surfaceStride) {
  return surfaces > 1 && height > 1 && surfaceStride < height * lineStride;
}

} // namespace

Expected<AtomCube> AtomCube::get(const AtomCubeSpec &spec) {
  const std::string &what = spec.what;
  if (spec.batches < 0 || spec.channels < 0 || spec.height < 0 || spec.width < 0)
    return makeError(what + ": extents must be non-negative, got N=" + str(spec.batches) + " C=" +
                     str(spec.channels) + " H=" + str(spec.height) + " W=" + str(spec.width));
  if (spec.elementsPerAtom <= 0 || spec.componentsPerElement <= 0 || spec.bytesPerComponent <= 0)
    return makeError(what + ": elements per atom, components per element and bytes per "
                            "component must be positive");
  if (spec.memoryAtomBytes <= 0)
    return makeError(what + ": the memory atom must be positive");
  const AlignmentRule rule = getAlignment(spec.alignment, spec.memoryAtomBytes);

  AtomCube cube;
  cube.spec = spec;
  auto bpa = checkedMul(spec.elementsPerAtom, spec.componentsPerElement);
  if (bpa)
    bpa = checkedMul(*bpa, spec.bytesPerComponent);
  if (!bpa)
    return makeError(what + ": bytes per atom overflow a 64-bit integer");
  cube.bytesPerAtom = *bpa;
  cube.numSurfaces = ceilDiv(spec.channels, spec.elementsPerAtom);

  auto lineBytes = checkedMul(spec.width, cube.bytesPerAtom);
  if (!lineBytes)
    return makeError(what + ": a line of " + str(spec.width) + " atoms overflows a 64-bit integer");
  Expected<int64_t> ls = resolveStride(
      spec, "line stride", spec.lineStride, *lineBytes, rule.lineStride,
      "one line of " + str(spec.width) + " atoms of " + str(cube.bytesPerAtom) + " bytes");
  if (!ls)
    return ls.takeError();
  cube.lineStride = *ls;

  auto surfaceBytes = checkedMul(spec.height, cube.lineStride);
  if (!surfaceBytes)
    return makeError(what + ": a surface of " + str(spec.height) + " lines of " +
                     str(cube.lineStride) + " bytes overflows a 64-bit integer");
  const bool interleaved =
      spec.surfaceStride &&
      interleavesSurfaces(cube.numSurfaces, spec.height, cube.lineStride, *spec.surfaceStride);
  Expected<int64_t> ss =
      interleaved
          ? resolveStride(spec, "surface stride", spec.surfaceStride, *lineBytes,
                          rule.surfaceStride,
                          "one line of " + str(spec.width) + " atoms of " +
                              str(cube.bytesPerAtom) + " bytes")
          : resolveStride(spec, "surface stride", spec.surfaceStride, *surfaceBytes,
                          rule.surfaceStride,
                          str(spec.height) + " lines of " + str(cube.lineStride) + " bytes");
  if (!ss)
    return ss.takeError();
  cube.surfaceStride = *ss;
  if (interleaved) {
    auto lineNeeds = checkedMul(cube.numSurfaces, cube.surfaceStride);
    if (!lineNeeds || cube.lineStride < *lineNeeds)
      return makeError(what + ": surface stride " + str(cube.surfaceStride) +
                       " bytes is smaller than " + str(spec.height) + " lines of " +
                       str(cube.lineStride) + " bytes (" + str(*surfaceBytes) +
                       " bytes), and a line stride of " + str(cube.lineStride) +
                       " bytes does not hold its " + str(cube.numSurfaces) +
                       " surfaces' lines side by side (" + str(cube.numSurfaces) + " x " +
                       str(cube.surfaceStride) + " bytes)");
  }

  auto batchBytes = interleaved ? std::optional<int64_t>(*surfaceBytes)
                                : checkedMul(cube.numSurfaces, cube.surfaceStride);
  if (!batchBytes)
    return makeError(what + ": " + str(cube.numSurfaces) + " surfaces of " +
                     str(cube.surfaceStride) + " bytes overflow a 64-bit integer");
  Expected<int64_t> bs =
      resolveStride(spec, "batch stride", spec.batchStride, *batchBytes, rule.planarStride,
                    interleaved ? str(spec.height) + " lines of " + str(cube.lineStride) + " bytes"
                                : str(cube.numSurfaces) + " surfaces of " +
                                      str(cube.surfaceStride) + " bytes");
  if (!bs)
    return bs.takeError();
  cube.batchStride = *bs;

  auto total = checkedMul(spec.batches, cube.batchStride);
  if (total)
    total = checkedRoundUp(*total, rule.dataSize > 1 ? rule.dataSize : 1);
  if (!total)
    return makeError(what + ": storage of " + str(spec.batches) + " batches of " +
                     str(cube.batchStride) + " bytes overflows a 64-bit integer");
  cube.storageBytes = *total;
  return cube;
}

bool AtomCube::isPacked() const {
  return lineStride == spec.width * bytesPerAtom && surfaceStride == spec.height * lineStride &&
         batchStride == numSurfaces * surfaceStride && storageBytes == spec.batches * batchStride;
}

int64_t AtomCube::getByteOffset(int64_t n, int64_t c, int64_t h, int64_t w, int64_t comp) const {
  const int64_t e = spec.elementsPerAtom;
  return n * batchStride + (c / e) * surfaceStride + h * lineStride + w * bytesPerAtom +
         ((c % e) * spec.componentsPerElement + comp) * spec.bytesPerComponent;
}

std::optional<CubePosition> AtomCube::locate(int64_t byteOffset) const {
  CubePosition pos;
  int64_t r = byteOffset;
  // Each step peels one level off; a quotient past the extent (or a stride of
  // zero, possible only when what it steps over is empty) lands in a gap.
  auto step = [&r](int64_t stride, int64_t extent, int64_t &digit) {
    if (stride <= 0 || extent <= 0)
      return false;
    digit = r / stride;
    if (digit >= extent)
      return false;
    r -= digit * stride;
    return true;
  };
  int64_t surface = 0;
  if (!step(batchStride, spec.batches, pos.batch))
    return std::nullopt;
  const bool ok = interleavesSurfaces(numSurfaces, spec.height, lineStride, surfaceStride)
                      ? step(lineStride, spec.height, pos.row) &&
                            step(surfaceStride, numSurfaces, surface)
                      : step(surfaceStride, numSurfaces, surface) &&
                            step(lineStride, spec.height, pos.row);
  if (!ok)
    return std::nullopt;
  if (!step(bytesPerAtom, spec.width, pos.column))
    return std::nullopt;
  int64_t elementBytes = spec.componentsPerElement * spec.bytesPerComponent;
  int64_t inAtom = r / elementBytes;
  pos.channel = surface * spec.elementsPerAtom + inAtom;
  if (pos.channel >= spec.channels)
    return std::nullopt;
  r %= elementBytes;
  pos.component = r / spec.bytesPerComponent;
  pos.byteInComponent = r % spec.bytesPerComponent;
  return pos;
}

StridedView AtomCube::makeView(int64_t nDim, int64_t cDim, int64_t hDim, int64_t wDim,
                               int64_t compDim) const {
  const int64_t cb = spec.bytesPerComponent;
  StridedView view;
  if (nDim >= 0)
    view.dims.push_back({spec.batches, batchStride / cb, nDim, 1});
  view.dims.push_back({numSurfaces, surfaceStride / cb, cDim, spec.elementsPerAtom});
  view.dims.push_back({spec.height, lineStride / cb, hDim, 1});
  view.dims.push_back({spec.width, bytesPerAtom / cb, wDim, 1});
  view.dims.push_back({spec.elementsPerAtom, spec.componentsPerElement, cDim, 1});
  if (compDim >= 0)
    view.dims.push_back({spec.componentsPerElement, 1, compDim, 1});
  return view;
}

//===----------------------------------------------------------------------===//
// FeatureBoundLayout
//===----------------------------------------------------------------------===//

FeatureBoundLayout::FeatureBoundLayout(const FeatureConfig &config, const AtomCube &cube,
                                       std::vector<int64_t> shape, int64_t numElements)
    : BoundLayout(std::move(shape), getBytesPerElement(config.precision), numElements),
      config(config), cube(cube), view(cube.makeView(0, 1, 2, 3, -1)) {}

namespace {
Expected<AtomCube> makeFeatureCube(const FeatureConfig &config, const std::vector<int64_t> &shape,
                                   int64_t &numElements) {
  if (shape.size() != 4)
    return makeError("feature data needs a logical NCHW shape (rank 4), got shape " +
                     formatShape(shape) + " of rank " + std::to_string(shape.size()));
  Expected<int64_t> n = checkShape(shape, getBytesPerElement(config.precision));
  if (!n)
    return n.takeError();
  numElements = *n;
  AtomCubeSpec spec;
  spec.what = "feature data";
  spec.alignment = AlignedData::FeatureData;
  spec.batches = shape[0];
  spec.channels = shape[1];
  spec.height = shape[2];
  spec.width = shape[3];
  spec.memoryAtomBytes = getHardwareConfig(config.hardware).caps.memoryAtomBytes;
  spec.elementsPerAtom = getChannelsPerAtom(config.precision, spec.memoryAtomBytes);
  spec.bytesPerComponent = getBytesPerElement(config.precision);
  spec.lineStride = config.lineStride;
  spec.surfaceStride = config.surfaceStride;
  spec.batchStride = config.batchStride;
  return AtomCube::get(spec);
}
} // namespace

Status FeatureBoundLayout::validate(const FeatureConfig &config,
                                    const std::vector<int64_t> &shape) {
  int64_t numElements = 0;
  Expected<AtomCube> cube = makeFeatureCube(config, shape, numElements);
  if (!cube)
    return cube.takeError();
  return Status::success();
}

Expected<std::unique_ptr<FeatureBoundLayout>>
FeatureBoundLayout::bind(const FeatureConfig &config, const std::vector<int64_t> &shape) {
  int64_t numElements = 0;
  Expected<AtomCube> cube = makeFeatureCube(config, shape, numElements);
  if (!cube)
    return cube.takeError();
  return std::unique_ptr<FeatureBoundLayout>(
      new FeatureBoundLayout(config, *cube, shape, numElements));
}

Expected<int64_t> FeatureBoundLayout::getByteOffset(const std::vector<int64_t> &index) const {
  Status s = checkIndex(index);
  if (!s)
    return s.takeError();
  return cube.getByteOffset(index[0], index[1], index[2], index[3]);
}

Expected<StorageLocation> FeatureBoundLayout::locate(int64_t byteOffset) const {
  Status s = checkByteOffset(byteOffset);
  if (!s)
    return s.takeError();
  StorageLocation loc;
  std::optional<CubePosition> pos = cube.locate(byteOffset);
  if (!pos) {
    loc.isPadding = true;
    return loc;
  }
  loc.index = {pos->batch, pos->channel, pos->row, pos->column};
  loc.byteInElement = pos->byteInComponent;
  return loc;
}

void FeatureBoundLayout::pack(const char *logical, char *storage) const {
  packStridedView(view, getShape(), getElementBytes(), logical, storage,
                  getStorageBytes() / getElementBytes());
}

void FeatureBoundLayout::unpack(const char *storage, char *logical) const {
  unpackStridedView(view, getShape(), getElementBytes(), storage, logical);
}
