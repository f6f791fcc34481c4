//===- NvdlaWeight.cpp - NVDLA weight layouts: validation, sizes, packing -===//

#include "NvdlaWeightImpl.h"

#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::detail;

//===----------------------------------------------------------------------===//
// Validation and geometry
//===----------------------------------------------------------------------===//

namespace {

std::string str(int64_t v) { return std::to_string(v); }

std::string formatKCRS(const WeightShape &s) {
  return str(s.kernels) + "x" + str(s.channels) + "x" + str(s.height) + "x" + str(s.width);
}

} // namespace

std::string dlaformat::nvdla::detail::describe(const WeightParams &p) {
  return std::string(enumProse(p.format)) + " " +
         std::string(enumName(p.precision)) + " weights " + formatKCRS(p.shape) +
         " (KCRS)";
}

Error dlaformat::nvdla::detail::overflow(const WeightParams &p) {
  return makeError("storage size of " + describe(p) + " overflows a 64-bit integer");
}

std::string dlaformat::nvdla::detail::notInvertibleMessage(const WeightLayoutImpl &impl,
                                                             std::string_view what) {
  // "<Format> weights <what>: <why>", the format's name capitalized.
  std::string s(enumProse(impl.params.format));
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z')
    s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s + " weights " + std::string(what) + ": " +
         std::string(getWeightFormatOps(impl.params.format).notInvertible);
}

namespace {

Status validateCommon(const WeightParams &p) {
  const WeightShape &s = p.shape;
  if (s.kernels <= 0 || s.channels <= 0 || s.height <= 0 || s.width <= 0)
    return makeError("weight shape K x C x R x S must be positive in every dimension, got " +
                     formatKCRS(s));
  const HardwareConfig &hw = p.hardware;
  if (hw.atomicC <= 0 || hw.atomicK <= 1 || hw.atomicK % 2 != 0 ||
      hw.weightBufferEntryBytes <= 0)
    return makeError("hardware configuration '" + std::string(hw.name) +
                     "' is invalid: atomic-C " + str(hw.atomicC) + ", atomic-K " +
                     str(hw.atomicK) + " (must be even), weight-buffer entry " +
                     str(hw.weightBufferEntryBytes) + " B");
  return validateWeightOptions(p);
}

} // namespace

Status dlaformat::nvdla::validateWeightOptions(const WeightParams &p, Fp16Rounding rounding) {
  if (p.strideX <= 0 || p.strideY <= 0)
    return makeError("strides must be positive, got stride x " + str(p.strideX) +
                     " and stride y " + str(p.strideY));
  if (static_cast<size_t>(p.format) >= kNumWeightFormats)
    return makeError("unknown weight format " + str(static_cast<int64_t>(p.format)));
  const WeightFormatOps &ops = getWeightFormatOps(p.format);
  if (!ops.usesStride && (p.strideX != 1 || p.strideY != 1))
    return makeError(std::string(enumProse(p.format)) +
                     " weights take no stride (image, Winograd and deconvolution weights do), "
                     "got stride x " + str(p.strideX) + " and stride y " + str(p.strideY));
  if (!ops.imageParams && p.pixelChannels != 0)
    return makeError("pixelChannels (" + str(p.pixelChannels) +
                     ") applies to image-input weights only, not to " +
                     std::string(enumProse(p.format)) + " weights");
  if (!ops.imageParams &&
      (p.postExtension == PostExtension::Two || p.postExtension == PostExtension::Four))
    return makeError("channel post-extension " + std::string(enumName(p.postExtension)) +
                     " is not supported for " + std::string(enumProse(p.format)) +
                     " weights: the format document's weight-format table marks "
                     "post-extension 'NOT support' for direct convolution, Winograd and "
                     "deconvolution; it is an option of image-input weights only");
  if (ops.checkOptions)
    if (Status s = ops.checkOptions(p); !s)
      return s;
  if (p.scale != 0) {
    if (!(p.scale > 0) || !std::isfinite(p.scale))
      return makeError("scale must be positive and finite, got " + std::to_string(p.scale));
    if (p.format != WeightFormat::Winograd)
      return makeError("scale applies to Winograd weights only (the stored taps are "
                       "round(G g G^T / scale)), not to " +
                       std::string(enumProse(p.format)) + " weights");
    if (p.precision == Precision::Fp16)
      return makeError("scale applies to int8 / int16 Winograd weights only: fp16 taps are "
                       "G g G^T rounded to fp16, unscaled");
  }
  if (rounding != kDefaultWeightRounding && p.precision != Precision::Fp16)
    return makeError("rounding " + std::string(enumProse(rounding)) +
                     " applies to fp16 weights only, not to " +
                     std::string(enumName(p.precision)) + " weights");
  return Status::success();
}

const std::vector<SurfaceProgram> &WeightLayoutImpl::getPrograms() const {
  std::call_once(programsOnce, [this] {
    if (auto build = getWeightFormatOps(params.format).program)
      for (const WeightSurface &surface : surfaces)
        programs.push_back(build(*this, surface));
  });
  return programs;
}

Expected<NvdlaWeightLayout> NvdlaWeightLayout::create(const WeightParams &params) {
  if (Status s = validateCommon(params); !s)
    return s.takeError();
  const WeightShape &shape = params.shape;
  auto impl = std::make_shared<WeightLayoutImpl>();
  impl->params = params;
  impl->elementBytes = getBytesPerElement(params.precision);
  const int64_t eb = impl->elementBytes;
  impl->kernelsPerGroup = params.hardware.getKernelsPerGroup(params.precision);

  auto numLogical = checkedMul(shape.kernels, shape.channels);
  if (numLogical)
    numLogical = checkedMul(*numLogical, shape.height);
  if (numLogical)
    numLogical = checkedMul(*numLogical, shape.width);
  if (!numLogical || !checkedMul(*numLogical, 4))
    return overflow(params);
  impl->numLogicalElements = *numLogical;

  const WeightFormatOps &ops = getWeightFormatOps(params.format);
  Expected<WeightGeometry> geometry = ops.plan(params, *impl);
  if (!geometry)
    return geometry.takeError();
  const int64_t endAlignment =
      geometry->endAlignment ? geometry->endAlignment : params.hardware.weightBufferEntryBytes;
  std::optional<int64_t> kernelElems = geometry->kernelElements;

  std::optional<int64_t> bytesPerKernel;
  std::optional<int64_t> dataBytes;
  std::optional<int64_t> paddedBytes;
  if (kernelElems)
    bytesPerKernel = checkedMul(*kernelElems, eb);
  if (bytesPerKernel)
    dataBytes = checkedMul(*bytesPerKernel, shape.kernels);
  if (dataBytes)
    paddedBytes = checkedRoundUp(*dataBytes, endAlignment);
  if (!paddedBytes)
    return overflow(params);

  // Surfaces: one, or one per deconvolution set, each starting aligned.
  const AlignmentRule &weightRule = getAlignment(AlignedData::Weight);
  const int64_t setsY = geometry->setsY;
  const int64_t setsX = geometry->setsX;
  int64_t end = 0;
  for (int64_t y = 0; y < setsY; ++y) {
    for (int64_t x = 0; x < setsX; ++x) {
      WeightSurface surface;
      auto offset = checkedRoundUp(end, weightRule.startAddress);
      std::optional<int64_t> next;
      if (offset)
        next = checkedAdd(*offset, *paddedBytes);
      if (!next)
        return overflow(params);
      surface.offset = *offset;
      surface.dataBytes = *dataBytes;
      surface.paddedBytes = *paddedBytes;
      surface.numKernels = shape.kernels;
      surface.kernelsPerGroup = impl->kernelsPerGroup;
      surface.bytesPerKernel = *bytesPerKernel;
      surface.setY = y;
      surface.setX = x;
      impl->surfaces.push_back(surface);
      end = *next;
    }
  }
  impl->storageBytes = end;
  return WeightLayoutImpl::wrap(std::move(impl));
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const WeightParams &NvdlaWeightLayout::getParams() const { return impl->params; }
int64_t NvdlaWeightLayout::getElementBytes() const { return impl->elementBytes; }
int64_t NvdlaWeightLayout::getKernelsPerGroup() const { return impl->kernelsPerGroup; }
int64_t NvdlaWeightLayout::getPostExtensionFactor() const { return impl->postExtensionFactor; }
int64_t NvdlaWeightLayout::getNumLogicalElements() const { return impl->numLogicalElements; }
bool NvdlaWeightLayout::isInvertible() const {
  return getWeightFormatOps(impl->params.format).notInvertible.empty();
}
const std::vector<WeightSurface> &NvdlaWeightLayout::getSurfaces() const {
  return impl->surfaces;
}
int64_t NvdlaWeightLayout::getStorageBytes() const { return impl->storageBytes; }

Expected<int64_t> NvdlaWeightLayout::getDeconvolutionSetOffset(int64_t y, int64_t x) const {
  const WeightParams &p = impl->params;
  if (p.format != WeightFormat::Deconvolution)
    return makeError("weight sets exist for deconvolution weights only, not for " +
                     std::string(enumProse(p.format)) + " weights");
  if (y < 0 || y >= p.strideY || x < 0 || x >= p.strideX)
    return makeError("deconvolution set (y " + str(y) + ", x " + str(x) +
                     ") is out of range: y in [0, " + str(p.strideY) + "), x in [0, " +
                     str(p.strideX) + ")");
  return impl->surfaces[static_cast<size_t>(y * p.strideX + x)].offset;
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

namespace {

/// Zeroes the end padding of every surface and the gaps between them.
void zeroPadding(const WeightLayoutImpl &impl, char *storage) {
  int64_t end = 0;
  for (const WeightSurface &s : impl.surfaces) {
    std::memset(storage + end, 0, static_cast<size_t>(s.offset - end));
    std::memset(storage + s.offset + s.dataBytes, 0,
                static_cast<size_t>(s.paddedBytes - s.dataBytes));
    end = s.offset + s.paddedBytes;
  }
}

Status checkBuffers(const WeightLayoutImpl &impl, const void *logical, int64_t logicalBytes,
                    int64_t expectedLogicalBytes, const void *storage, int64_t storageBytes,
                    const char *what) {
  if (!logical || !storage)
    return makeError(std::string(what) + ": null buffer");
  if (logicalBytes != expectedLogicalBytes)
    return makeError(std::string(what) + ": " + describe(impl.params) + " need " +
                     str(expectedLogicalBytes) + " bytes of KCRS data, got " +
                     str(logicalBytes));
  if (storageBytes < impl.storageBytes)
    return makeError(std::string(what) + ": the storage image of " + describe(impl.params) +
                     " is " + str(impl.storageBytes) + " bytes, the buffer has only " +
                     str(storageBytes));
  return Status::success();
}

void packImpl(const WeightLayoutImpl &impl, SourceKind kind, const char *src, char *dst,
              Fp16Rounding rounding) {
  if (auto pack = getWeightFormatOps(impl.params.format).pack) {
    pack(impl, kind, src, dst, rounding);
  } else {
    const std::vector<SurfaceProgram> &programs = impl.getPrograms();
    const WeightShape &s = impl.params.shape;
    StreamShape shape{s.kernels, impl.kernelsPerGroup, s.channels * s.height * s.width};
    for (size_t i = 0; i < programs.size(); ++i)
      packSurface(programs[i], shape, kind, src, dst + impl.surfaces[i].offset);
  }
  zeroPadding(impl, dst);
}

} // namespace

Status NvdlaWeightLayout::pack(const void *logical, int64_t logicalBytes, void *storage,
                               int64_t storageBytes, Fp16Rounding rounding) const {
  const int64_t eb = impl->elementBytes;
  if (Status s = checkBuffers(*impl, logical, logicalBytes, impl->numLogicalElements * eb,
                              storage, storageBytes, "pack");
      !s)
    return s;
  packImpl(*impl, eb == 1 ? SourceKind::Raw1 : SourceKind::Raw2,
           static_cast<const char *>(logical), static_cast<char *>(storage), rounding);
  return Status::success();
}

Status NvdlaWeightLayout::packFp32(const float *logical, int64_t numElements, void *storage,
                                   int64_t storageBytes, Fp16Rounding rounding) const {
  // Integer Winograd weights with a scale quantize their own taps.
  if (impl->params.precision != Precision::Fp16 && impl->params.scale == 0)
    return makeError("packFp32 converts fp32 weights to fp16 (or to int8 / int16 Winograd "
                     "taps with a scale), but the layout's precision is " +
                     std::string(enumName(impl->params.precision)) +
                     " without a scale; integer weights must be quantized by the caller and "
                     "packed with pack()");
  if (Status s = checkBuffers(*impl, logical, numElements * 4, impl->numLogicalElements * 4,
                              storage, storageBytes, "packFp32");
      !s)
    return s;
  packImpl(*impl,
           rounding == Fp16Rounding::TiesToEven ? SourceKind::Fp32ToFp16TE
                                                : SourceKind::Fp32ToFp16TA,
           reinterpret_cast<const char *>(logical), static_cast<char *>(storage), rounding);
  return Status::success();
}

Status NvdlaWeightLayout::unpack(const void *storage, int64_t storageBytes, void *logical,
                                 int64_t logicalBytes) const {
  if (!isInvertible())
    return makeError(notInvertibleMessage(*impl, "cannot be unpacked"));
  const int64_t eb = impl->elementBytes;
  if (Status s = checkBuffers(*impl, logical, logicalBytes, impl->numLogicalElements * eb,
                              storage, storageBytes, "unpack");
      !s)
    return s;
  const std::vector<SurfaceProgram> &programs = impl->getPrograms();
  const WeightShape &s = impl->params.shape;
  StreamShape shape{s.kernels, impl->kernelsPerGroup, s.channels * s.height * s.width};
  for (size_t i = 0; i < programs.size(); ++i)
    unpackSurface(programs[i], shape, eb,
                  static_cast<const char *>(storage) + impl->surfaces[i].offset,
                  static_cast<char *>(logical));
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Element <-> byte
//===----------------------------------------------------------------------===//

Expected<int64_t> NvdlaWeightLayout::getByteOffset(int64_t k, int64_t c, int64_t r,
                                                   int64_t s) const {
  if (!isInvertible())
    return makeError(notInvertibleMessage(*impl, "have no per-element byte offset"));
  const WeightShape &sh = impl->params.shape;
  const int64_t idx[4] = {k, c, r, s};
  const int64_t ext[4] = {sh.kernels, sh.channels, sh.height, sh.width};
  for (int d = 0; d < 4; ++d)
    if (idx[d] < 0 || idx[d] >= ext[d])
      return makeError("index " + str(idx[d]) + " of dimension " + str(d) + " (" +
                       "KCRS"[d] + ") is out of bounds [0, " + str(ext[d]) + ")");
  const int64_t o = (c * sh.height + r) * sh.width + s;
  const int64_t kpg = impl->kernelsPerGroup;
  const int64_t group = k / kpg;
  const int64_t kk = k % kpg;
  const std::vector<SurfaceProgram> &programs = impl->getPrograms();
  for (size_t i = 0; i < programs.size(); ++i) {
    const SurfaceProgram &program = programs[i];
    const WeightSurface &surface = impl->surfaces[i];
    const int64_t kn = surface.getGroupKernels(group);
    for (const Step &step : program.steps) {
      int64_t pos = 0;
      for (int64_t ri = step.runBegin; ri < step.runEnd; ++ri) {
        const Run &run = program.runs[static_cast<size_t>(ri)];
        if (!run.isZero() && o >= run.src) {
          const int64_t d = o - run.src;
          const bool hit = run.count == 1 ? d == 0 : (d % run.stride == 0 && d / run.stride < run.count);
          if (hit) {
            const int64_t j = run.count == 1 ? 0 : d / run.stride;
            const int64_t elem = step.prefixElements * kn + kk * step.atomElements + pos + j;
            return surface.offset + surface.getGroupOffset(group) + elem * impl->elementBytes;
          }
        }
        pos += run.count;
      }
    }
  }
  return makeError("internal error: element not found in the weight program");
}

Expected<StorageLocation> NvdlaWeightLayout::locate(int64_t byteOffset) const {
  if (!isInvertible())
    return makeError(notInvertibleMessage(*impl, "have no per-element byte offset"));
  if (byteOffset < 0 || byteOffset >= impl->storageBytes)
    return makeError("byte offset " + str(byteOffset) + " is outside the storage [0, " +
                     str(impl->storageBytes) + ")");
  StorageLocation padding;
  padding.isPadding = true;
  const std::vector<SurfaceProgram> &programs = impl->getPrograms();
  for (size_t i = 0; i < programs.size(); ++i) {
    const WeightSurface &surface = impl->surfaces[i];
    const int64_t rel = byteOffset - surface.offset;
    if (rel < 0 || rel >= surface.paddedBytes)
      continue;
    if (rel >= surface.dataBytes)
      return padding;
    const SurfaceProgram &program = programs[i];
    const int64_t eb = impl->elementBytes;
    const int64_t groupFull = surface.kernelsPerGroup * surface.bytesPerKernel;
    const int64_t group = rel / groupFull;
    const int64_t inGroup = rel - group * groupFull;
    const int64_t kn = surface.getGroupKernels(group);
    const int64_t elem = inGroup / eb;
    // The step holding `elem`: the last with prefixElements * kn <= elem.
    auto it = std::upper_bound(program.steps.begin(), program.steps.end(), elem,
                               [kn](int64_t e, const Step &st) {
                                 return e < st.prefixElements * kn;
                               });
    const Step &step = *(it - 1);
    const int64_t within = elem - step.prefixElements * kn;
    const int64_t kk = within / step.atomElements;
    int64_t pos = within % step.atomElements;
    for (int64_t ri = step.runBegin; ri < step.runEnd; ++ri) {
      const Run &run = program.runs[static_cast<size_t>(ri)];
      if (pos >= run.count) {
        pos -= run.count;
        continue;
      }
      if (run.isZero())
        return padding;
      const WeightShape &sh = impl->params.shape;
      const int64_t o = run.src + pos * run.stride;
      StorageLocation loc;
      loc.index = {group * surface.kernelsPerGroup + kk, o / (sh.height * sh.width),
                   (o / sh.width) % sh.height, o % sh.width};
      loc.byteInElement = inGroup % eb;
      return loc;
    }
  }
  return padding; // a gap between deconvolution sets
}
