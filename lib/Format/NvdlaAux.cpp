//===- NvdlaAux.cpp - NVDLA bias, PReLU, batch-norm, element-wise --------===//

#include "dla/Format/NvdlaAux.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/StridedCopy.h"

#include <cstring>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {
std::string str(int64_t v) { return std::to_string(v); }

std::string describe(const AuxConfig &c) {
  return std::string(enumName(c.mode)) + " " + std::string(enumName(c.kind)) + " data";
}
} // namespace

int64_t dlaformat::nvdla::getComponentsPerElement(const AuxConfig &config) {
  if (config.kind == AuxKind::BatchNorm)
    return 2;
  if (config.kind == AuxKind::ElementWise && config.use == ElementWiseUse::AluAndMul)
    return 2;
  return 1;
}

namespace {
int64_t memoryAtomOf(const AuxConfig &config) {
  return getHardwareConfig(config.hardware).caps.memoryAtomBytes;
}
} // namespace

int64_t dlaformat::nvdla::getBytesPerAtom(const AuxConfig &config) {
  return getChannelsPerAtom(config.precision, memoryAtomOf(config)) *
         getComponentsPerElement(config) *
         getDataSizeBytes(config.dataSize);
}

Status dlaformat::nvdla::validateAuxConfig(const AuxConfig &config) {
  std::string kind(enumName(config.kind));
  switch (config.kind) {
  case AuxKind::Bias: break;
  case AuxKind::PReLU:
    if (config.mode != AuxMode::PerChannel)
      return makeError("prelu data is always per channel, not " +
                       std::string(enumName(config.mode)));
    break;
  case AuxKind::BatchNorm:
    if (config.mode == AuxMode::PerElement)
      return makeError("batch_norm data is per layer or per channel, not per element");
    break;
  case AuxKind::ElementWise:
    if (config.mode != AuxMode::PerElement)
      return makeError("element_wise data is always per element, not " +
                       std::string(enumName(config.mode)));
    break;
  }
  if (config.precision == Precision::Fp16 && config.dataSize != DataSize::TwoByte)
    return makeError(describe(config) +
                     ": fp16 data needs the two_byte data size (each fp16 component "
                     "takes 2 bytes)");
  if (config.mode != AuxMode::PerElement &&
      (config.lineStride || config.surfaceStride || config.batchStride))
    return makeError(describe(config) +
                     ": line, surface and batch strides apply to per-element data only");
  return Status::success();
}

int64_t dlaformat::nvdla::getAuxBatchInputs(const AuxConfig &config,
                                            const std::vector<int64_t> &shape) {
  const size_t batched = 4 + (getComponentsPerElement(config) == 2);
  return config.mode == AuxMode::PerElement && shape.size() == batched ? shape.front() : 1;
}

std::vector<int64_t> dlaformat::nvdla::getAuxLogicalShape(const AuxConfig &config,
                                                            int64_t channels, int64_t height,
                                                            int64_t width) {
  int64_t comps = getComponentsPerElement(config);
  switch (config.mode) {
  case AuxMode::PerLayer: return comps == 2 ? std::vector<int64_t>{2} : std::vector<int64_t>{};
  case AuxMode::PerChannel:
    return comps == 2 ? std::vector<int64_t>{channels, 2} : std::vector<int64_t>{channels};
  case AuxMode::PerElement: break;
  }
  if (comps == 2)
    return {channels, height, width, 2};
  return {channels, height, width};
}

//===----------------------------------------------------------------------===//
// AuxBoundLayout
//===----------------------------------------------------------------------===//

namespace {
/// The shape the mode expects, spelled for messages.
std::string expectedShape(const AuxConfig &config) {
  bool two = getComponentsPerElement(config) == 2;
  switch (config.mode) {
  case AuxMode::PerLayer: return two ? "[2]" : "[] (a scalar)";
  case AuxMode::PerChannel: return two ? "[C, 2]" : "[C]";
  case AuxMode::PerElement:
    return two ? "[C, H, W, 2] or [N, C, H, W, 2]" : "[C, H, W] or [N, C, H, W]";
  }
  return "?";
}
} // namespace

Status AuxBoundLayout::validate(const AuxConfig &config, const std::vector<int64_t> &shape,
                                int64_t elementBytes) {
  Expected<std::unique_ptr<AuxBoundLayout>> b = bind(config, shape, elementBytes);
  if (!b)
    return b.takeError();
  return Status::success();
}

Expected<std::unique_ptr<AuxBoundLayout>> AuxBoundLayout::bind(const AuxConfig &config,
                                                               const std::vector<int64_t> &shape,
                                                               int64_t elementBytes) {
  Status s = validateAuxConfig(config);
  if (!s)
    return s.takeError();
  const std::string what = describe(config);
  const int64_t bpc = getDataSizeBytes(config.dataSize);
  if (elementBytes != 1 && elementBytes != 2)
    return makeError(what + ": logical elements must be 1 or 2 bytes, got " + str(elementBytes));
  if (config.precision == Precision::Fp16 && elementBytes != 2)
    return makeError(what + ": fp16 data needs 2-byte logical elements, got " + str(elementBytes));
  if (elementBytes > bpc)
    return makeError(what + ": logical elements of " + str(elementBytes) +
                     " bytes do not fit the " + std::string(enumName(config.dataSize)) +
                     " data size; use a 1-byte element type");

  const int64_t comps = getComponentsPerElement(config);
  const size_t rank = shape.size();
  bool rankOk = false;
  switch (config.mode) {
  case AuxMode::PerLayer: rankOk = rank == (comps == 2 ? 1u : 0u); break;
  case AuxMode::PerChannel: rankOk = rank == (comps == 2 ? 2u : 1u); break;
  case AuxMode::PerElement:
    rankOk = rank == (comps == 2 ? 4u : 3u) || rank == (comps == 2 ? 5u : 4u);
    break;
  }
  if (rankOk && comps == 2 && shape.back() != 2)
    rankOk = false;
  if (!rankOk)
    return makeError(what + " needs a logical " + expectedShape(config) + " shape, got " +
                     formatShape(shape));
  Expected<int64_t> numElements = checkShape(shape, elementBytes);
  if (!numElements)
    return numElements.takeError();

  std::unique_ptr<AuxBoundLayout> b(new AuxBoundLayout(config, shape, elementBytes, *numElements));
  b->componentBytes = bpc;
  const int64_t epa = getChannelsPerAtom(config.precision, memoryAtomOf(config));
  StridedView &view = b->view;

  switch (config.mode) {
  case AuxMode::PerLayer:
    // A register value: the component(s), nothing else.
    b->compDim = comps == 2 ? 0 : -1;
    if (comps == 2)
      view.dims.push_back({2, 1, 0, 1});
    b->storageBytes = comps * bpc;
    return b;
  case AuxMode::PerChannel: {
    b->compDim = comps == 2 ? 1 : -1;
    int64_t atoms = ceilDiv(shape[0], epa);
    auto bytes = checkedMul(atoms, nvdla::getBytesPerAtom(config));
    if (!bytes)
      return makeError(what + ": storage of " + str(atoms) + " atoms overflows a 64-bit integer");
    view.dims.push_back({atoms, epa * comps, 0, epa});
    view.dims.push_back({epa, comps, 0, 1});
    if (comps == 2)
      view.dims.push_back({2, 1, 1, 1});
    b->storageBytes = *bytes;
    return b;
  }
  case AuxMode::PerElement: break;
  }

  const bool batched = rank == (comps == 2 ? 5u : 4u);
  b->nDim = batched ? 0 : -1;
  b->cDim = batched ? 1 : 0;
  b->hDim = b->cDim + 1;
  b->wDim = b->cDim + 2;
  b->compDim = comps == 2 ? b->cDim + 3 : -1;
  AtomCubeSpec spec;
  spec.what = what;
  spec.alignment =
      config.kind == AuxKind::ElementWise ? AlignedData::ElementWise : AlignedData::Bias;
  spec.batches = batched ? shape[0] : 1;
  spec.channels = shape[b->cDim];
  spec.height = shape[b->hDim];
  spec.width = shape[b->wDim];
  spec.elementsPerAtom = epa;
  spec.memoryAtomBytes = memoryAtomOf(config);
  spec.componentsPerElement = comps;
  spec.bytesPerComponent = bpc;
  spec.lineStride = config.lineStride;
  spec.surfaceStride = config.surfaceStride;
  spec.batchStride = config.batchStride;
  Expected<AtomCube> cube = AtomCube::get(spec);
  if (!cube)
    return cube.takeError();
  b->cube = *cube;
  b->storageBytes = cube->getStorageBytes();
  view = cube->makeView(b->nDim, b->cDim, b->hDim, b->wDim, b->compDim);
  return b;
}

int64_t AuxBoundLayout::getStorageAlignment() const {
  const int64_t atom = memoryAtomOf(config);
  switch (config.kind) {
  case AuxKind::Bias: return getAlignment(AlignedData::Bias, atom).startAddress;
  case AuxKind::PReLU: return getAlignment(AlignedData::PReLU, atom).startAddress;
  case AuxKind::BatchNorm: return getAlignment(AlignedData::BatchNorm, atom).startAddress;
  case AuxKind::ElementWise: return getAlignment(AlignedData::ElementWise, atom).startAddress;
  }
  return kDefaultStorageAlignment;
}

StorageDescription AuxBoundLayout::describeStorage() const {
  StorageDescription d;
  d.buffers.push_back({"storage", storageBytes, getStorageAlignment()});
  StorageView v;
  v.name = "storage";
  v.elementBytes = componentBytes;
  v.view = view;
  v.signExtend = true; // int8 data is sign-extended into int16 components
  d.views.push_back(std::move(v));
  return d;
}

std::optional<StridedView> AuxBoundLayout::getStridedView() const {
  if (componentBytes != getElementBytes())
    return std::nullopt;
  return view;
}

Expected<int64_t> AuxBoundLayout::getByteOffset(const std::vector<int64_t> &index) const {
  Status s = checkIndex(index);
  if (!s)
    return s.takeError();
  const int64_t comp = compDim >= 0 ? index[compDim] : 0;
  switch (config.mode) {
  case AuxMode::PerLayer: return comp * componentBytes;
  case AuxMode::PerChannel:
    return (index[0] * getComponentsPerElement(config) + comp) * componentBytes;
  case AuxMode::PerElement: break;
  }
  return cube->getByteOffset(nDim >= 0 ? index[nDim] : 0, index[cDim], index[hDim], index[wDim],
                             comp);
}

Expected<StorageLocation> AuxBoundLayout::locate(int64_t byteOffset) const {
  Status s = checkByteOffset(byteOffset);
  if (!s)
    return s.takeError();
  StorageLocation loc;
  const int64_t comps = getComponentsPerElement(config);
  loc.byteInElement = byteOffset % componentBytes;
  const int64_t element = byteOffset / componentBytes;
  switch (config.mode) {
  case AuxMode::PerLayer:
    if (comps == 2)
      loc.index = {element};
    return loc;
  case AuxMode::PerChannel: {
    int64_t c = element / comps;
    if (c >= getShape()[0]) {
      loc.isPadding = true;
      loc.byteInElement = 0;
      return loc;
    }
    loc.index = {c};
    if (comps == 2)
      loc.index.push_back(element % comps);
    return loc;
  }
  case AuxMode::PerElement: break;
  }
  std::optional<CubePosition> pos = cube->locate(byteOffset);
  if (!pos) {
    loc.isPadding = true;
    loc.byteInElement = 0;
    return loc;
  }
  loc.index.assign(getShape().size(), 0);
  if (nDim >= 0)
    loc.index[nDim] = pos->batch;
  loc.index[cDim] = pos->channel;
  loc.index[hDim] = pos->row;
  loc.index[wDim] = pos->column;
  if (compDim >= 0)
    loc.index[compDim] = pos->component;
  loc.byteInElement = pos->byteInComponent;
  return loc;
}

void AuxBoundLayout::pack(const char *logical, char *storage) const {
  const int64_t storageElements = storageBytes / componentBytes;
  if (componentBytes == getElementBytes()) {
    packStridedView(view, getShape(), componentBytes, logical, storage, storageElements);
    return;
  }
  // 1-byte elements in 2-byte components: sign-extend, then lay out.
  std::vector<char> wide(static_cast<size_t>(getNumElements() * 2));
  for (int64_t i = 0; i < getNumElements(); ++i) {
    int16_t v = static_cast<int8_t>(logical[i]);
    std::memcpy(wide.data() + 2 * i, &v, 2);
  }
  packStridedView(view, getShape(), 2, wide.data(), storage, storageElements);
}

void AuxBoundLayout::unpack(const char *storage, char *logical) const {
  if (componentBytes == getElementBytes()) {
    unpackStridedView(view, getShape(), componentBytes, storage, logical);
    return;
  }
  std::vector<char> wide(static_cast<size_t>(getNumElements() * 2));
  unpackStridedView(view, getShape(), 2, storage, wide.data());
  for (int64_t i = 0; i < getNumElements(); ++i) {
    int16_t v;
    std::memcpy(&v, wide.data() + 2 * i, 2);
    logical[i] = static_cast<char>(static_cast<int8_t>(v));
  }
}

LogicalOrder AuxBoundLayout::getLogicalOrder() const {
  // Rank-4 per-element data is NCHW; the CHW form has no batch role to
  // misplace, and per-channel / per-layer data no spatial one.
  // (Two-component element-wise data has a trailing component axis.)
  bool nchw = config.mode == AuxMode::PerElement && getShape().size() == 4 &&
              getComponentsPerElement(config) == 1;
  return nchw ? LogicalOrder::NCHW : LogicalOrder::Unspecified;
}

Expected<std::unique_ptr<AuxBoundLayout>>
dlaformat::nvdla::bindFeatureAsPerChannel(const FeatureBoundLayout &feature, AuxKind kind) {
  const std::vector<int64_t> &shape = feature.getShape();
  if (shape.size() != 4 || shape[0] != 1 || shape[2] != 1 || shape[3] != 1)
    return makeError("feature data read per channel must be one 1x1 cube (1xCx1x1), got " +
                     formatShape(shape));
  const AtomCube &cube = feature.getCube();
  if (cube.getSurfaceStride() != cube.getBytesPerAtom())
    return makeError("feature data read per channel must be surface-packed (line and surface "
                     "stride one atom, " +
                     str(cube.getBytesPerAtom()) + " bytes): the SDP reads its channels as one "
                     "run, and this cube's surface stride is " +
                     str(cube.getSurfaceStride()) + " bytes");
  AuxConfig c;
  c.kind = kind;
  c.mode = AuxMode::PerChannel;
  c.precision = feature.getConfig().precision;
  c.hardware = feature.getConfig().hardware;
  c.dataSize = feature.getElementBytes() == 1 ? DataSize::OneByte : DataSize::TwoByte;
  Expected<std::unique_ptr<AuxBoundLayout>> run =
      AuxBoundLayout::bind(c, {shape[1]}, feature.getElementBytes());
  if (!run)
    return run.takeError();
  // The same atoms (getChannelsPerAtom of one precision and memory atom):
  // the run ends where the cube's last surface does, or before its
  // data-size alignment padding.
  if ((*run)->getStorageBytes() > feature.getStorageBytes() ||
      (*run)->getBytesPerAtom() != cube.getBytesPerAtom())
    return makeError("feature data read per channel: its atoms of " +
                     str(cube.getBytesPerAtom()) + " bytes are not the per-channel data's " +
                     str((*run)->getBytesPerAtom()));
  return run;
}
