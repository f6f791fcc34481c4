//===- Format.cpp - C API of the layout format library --------------------===//
//
// No MLIR here: every answer comes from dlaformat::BoundLayout.
//
//===----------------------------------------------------------------------===//

#include "dla-c/Format.h"
#include "Status.h"

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/NvdlaCdpFp16.h"
#include "dla/Format/NvdlaConvFp16.h"
#include "dla/Format/NvdlaLutFloat.h"
#include "dla/Format/NvdlaScale.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace dlacapi;

namespace {

DlaStatus nullLayout() { return error("null DlaBoundLayout"); }

/// Common checks of pack and unpack.
DlaStatus checkBuffers(const dlaformat::BoundLayout &layout, const void *logical,
                       size_t logicalBytes, const void *storage, size_t storageBytes) {
  const uint64_t wantLogical =
      static_cast<uint64_t>(layout.getNumElements()) * layout.getElementBytes();
  const uint64_t wantStorage = static_cast<uint64_t>(layout.getStorageBytes());
  if (logicalBytes != wantLogical)
    return error("logical buffer holds " + std::to_string(logicalBytes) + " bytes, but " +
                   dlaformat::formatShape(layout.getShape()) + " elements of " +
                   std::to_string(layout.getElementBytes()) + " bytes need " +
                   std::to_string(wantLogical));
  if (storageBytes != wantStorage)
    return error("storage buffer holds " + std::to_string(storageBytes) +
                   " bytes, but the layout's storage is " + std::to_string(wantStorage) +
                   " bytes");
  if ((wantLogical && !logical) || (wantStorage && !storage))
    return error("null buffer");
  return ok();
}

} // namespace

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

const char *dlaStatusGetMessage(DlaStatus status) {
  if (!status.ptr)
    return "";
  return static_cast<std::string *>(status.ptr)->c_str();
}

void dlaStatusDestroy(DlaStatus status) { delete static_cast<std::string *>(status.ptr); }

//===----------------------------------------------------------------------===//
// Bound layouts
//===----------------------------------------------------------------------===//

void dlaBoundLayoutDestroy(DlaBoundLayout layout) { delete unwrap(layout); }

intptr_t dlaBoundLayoutGetRank(DlaBoundLayout layout) {
  return layout.ptr ? static_cast<intptr_t>(unwrap(layout)->getShape().size()) : 0;
}

int64_t dlaBoundLayoutGetDimSize(DlaBoundLayout layout, intptr_t pos) {
  if (!layout.ptr || pos < 0 || pos >= dlaBoundLayoutGetRank(layout))
    return -1;
  return unwrap(layout)->getShape()[pos];
}

int64_t dlaBoundLayoutGetElementBytes(DlaBoundLayout layout) {
  return layout.ptr ? unwrap(layout)->getElementBytes() : 0;
}

int64_t dlaBoundLayoutGetNumElements(DlaBoundLayout layout) {
  return layout.ptr ? unwrap(layout)->getNumElements() : 0;
}

int64_t dlaBoundLayoutGetStorageBytes(DlaBoundLayout layout) {
  return layout.ptr ? unwrap(layout)->getStorageBytes() : 0;
}

DlaStatus dlaBoundLayoutGetByteOffset(DlaBoundLayout layout, intptr_t rank, const int64_t *index,
                                      int64_t *offset) {
  if (!layout.ptr)
    return nullLayout();
  if (rank < 0 || (rank > 0 && !index))
    return error("null index");
  dlaformat::Expected<int64_t> result =
      unwrap(layout)->getByteOffset(std::vector<int64_t>(index, index + rank));
  if (!result)
    return error(result.message());
  if (offset)
    *offset = *result;
  return ok();
}

DlaStatus dlaBoundLayoutLocate(DlaBoundLayout layout, int64_t byteOffset, bool *isPadding,
                               int64_t *index, int64_t *byteInElement) {
  if (!layout.ptr)
    return nullLayout();
  dlaformat::Expected<dlaformat::StorageLocation> where = unwrap(layout)->locate(byteOffset);
  if (!where)
    return error(where.message());
  if (isPadding)
    *isPadding = where->isPadding;
  if (!where->isPadding && index)
    std::copy(where->index.begin(), where->index.end(), index);
  if (byteInElement)
    *byteInElement = where->byteInElement;
  return ok();
}

DlaStatus dlaBoundLayoutPack(DlaBoundLayout layout, const void *logical, size_t logicalBytes,
                             void *storage, size_t storageBytes) {
  if (!layout.ptr)
    return nullLayout();
  DlaStatus status = checkBuffers(*unwrap(layout), logical, logicalBytes, storage, storageBytes);
  if (!dlaStatusIsOk(status))
    return status;
  if (storageBytes)
    unwrap(layout)->pack(static_cast<const char *>(logical), static_cast<char *>(storage));
  return ok();
}

DlaStatus dlaBoundLayoutUnpack(DlaBoundLayout layout, const void *storage, size_t storageBytes,
                               void *logical, size_t logicalBytes) {
  if (!layout.ptr)
    return nullLayout();
  DlaStatus status = checkBuffers(*unwrap(layout), logical, logicalBytes, storage, storageBytes);
  if (!dlaStatusIsOk(status))
    return status;
  if (logicalBytes)
    unwrap(layout)->unpack(static_cast<const char *>(storage), static_cast<char *>(logical));
  return ok();
}

//===----------------------------------------------------------------------===//
// Chunked layouts
//===----------------------------------------------------------------------===//

intptr_t dlaChunkedGetNumPresets(void) {
  return static_cast<intptr_t>(dlaformat::enumCount<dlaformat::ChunkedPreset>());
}

const char *dlaChunkedGetPresetName(intptr_t pos) {
  if (pos < 0 || pos >= dlaChunkedGetNumPresets())
    return nullptr;
  // The names are string literals, hence NUL-terminated.
  return dlaformat::enumName(static_cast<dlaformat::ChunkedPreset>(pos)).data();
}

DlaStatus dlaChunkedGetPresetPairs(const char *name, intptr_t capacity, int64_t *dims,
                                   int64_t *sizes, intptr_t *numPairs) {
  std::optional<dlaformat::ChunkedPreset> preset =
      dlaformat::parseEnum<dlaformat::ChunkedPreset>(name ? std::string_view(name) : std::string_view());
  if (!preset) {
    return error("unknown chunked layout preset '" + std::string(name ? name : "") +
                 "'; expected one of " + dlaformat::enumNameList<dlaformat::ChunkedPreset>());
  }
  const dlaformat::ChunkedLayout layout = dlaformat::ChunkedLayout::getPreset(*preset);
  const std::vector<dlaformat::ChunkPair> &pairs = layout.getPairs();
  for (intptr_t i = 0; i < capacity && i < static_cast<intptr_t>(pairs.size()); ++i) {
    if (dims)
      dims[i] = pairs[i].dim;
    if (sizes)
      sizes[i] = pairs[i].size;
  }
  if (numPairs)
    *numPairs = static_cast<intptr_t>(pairs.size());
  return ok();
}

DlaStatus dlaChunkedValidate(intptr_t numPairs, const int64_t *dims, const int64_t *sizes) {
  if (numPairs < 0)
    return error("negative number of pairs");
  if (numPairs > 0 && (!dims || !sizes))
    return error("null pair arrays");
  std::vector<dlaformat::ChunkPair> pairs =
      dlaformat::ChunkedLayout::zipPairs(dims, sizes, static_cast<size_t>(numPairs));
  dlaformat::Expected<int64_t> rank = dlaformat::ChunkedLayout::impliedRank(pairs);
  if (!rank)
    return error("invalid chunked layout: " + rank.message());
  dlaformat::Status status = dlaformat::ChunkedLayout::validate(*rank, pairs);
  if (!status)
    return error("invalid chunked layout: " + status.message());
  return ok();
}

DlaStatus dlaChunkedBind(intptr_t numPairs, const int64_t *dims, const int64_t *sizes,
                         intptr_t rank, const int64_t *shape, int64_t elementBytes,
                         DlaBoundLayout *result) {
  DlaStatus valid = dlaChunkedValidate(numPairs, dims, sizes);
  if (!dlaStatusIsOk(valid))
    return valid;
  if (rank < 0 || (rank > 0 && !shape))
    return error("null shape");
  std::vector<dlaformat::ChunkPair> pairs =
      dlaformat::ChunkedLayout::zipPairs(dims, sizes, static_cast<size_t>(numPairs));
  // Validated above, so the implied rank exists.
  const int64_t layoutRank = *dlaformat::ChunkedLayout::impliedRank(pairs);
  dlaformat::Expected<dlaformat::ChunkedLayout> layout =
      dlaformat::ChunkedLayout::get(layoutRank, std::move(pairs));
  if (!layout)
    return error("invalid chunked layout: " + layout.message());
  auto bound = layout->bind(std::vector<int64_t>(shape, shape + rank), elementBytes);
  if (!bound)
    return error("chunked layout " + layout->toString() + ": " + bound.message());
  if (result)
    *result = wrap(std::unique_ptr<dlaformat::BoundLayout>(std::move(*bound)));
  return ok();
}

//===----------------------------------------------------------------------===//
// Storage description
//===----------------------------------------------------------------------===//

namespace {
dlaformat::StorageDescription *unwrap(DlaStorageDescription d) {
  return static_cast<dlaformat::StorageDescription *>(d.ptr);
}
const dlaformat::StorageView *getView(DlaStorageDescription d, intptr_t pos) {
  if (!d.ptr || pos < 0 || pos >= static_cast<intptr_t>(unwrap(d)->views.size()))
    return nullptr;
  return &unwrap(d)->views[pos];
}
} // namespace

DlaStorageDescription dlaBoundLayoutDescribeStorage(DlaBoundLayout layout) {
  if (!layout.ptr)
    return DlaStorageDescription{nullptr};
  return DlaStorageDescription{new dlaformat::StorageDescription(unwrap(layout)->describeStorage())};
}

void dlaStorageDescriptionDestroy(DlaStorageDescription description) {
  delete unwrap(description);
}

intptr_t dlaStorageDescriptionGetNumBuffers(DlaStorageDescription description) {
  return description.ptr ? static_cast<intptr_t>(unwrap(description)->buffers.size()) : 0;
}

DlaStatus dlaStorageDescriptionGetBuffer(DlaStorageDescription description, intptr_t pos,
                                         const char **name, int64_t *bytes, int64_t *alignment) {
  if (!description.ptr || pos < 0 || pos >= dlaStorageDescriptionGetNumBuffers(description))
    return error("no buffer " + std::to_string(pos));
  const dlaformat::StorageBuffer &b = unwrap(description)->buffers[pos];
  if (name)
    *name = b.name.c_str();
  if (bytes)
    *bytes = b.bytes;
  if (alignment)
    *alignment = b.alignment;
  return ok();
}

intptr_t dlaStorageDescriptionGetNumViews(DlaStorageDescription description) {
  return description.ptr ? static_cast<intptr_t>(unwrap(description)->views.size()) : 0;
}

DlaStatus dlaStorageDescriptionGetView(DlaStorageDescription description, intptr_t pos,
                                       const char **name, intptr_t *buffer, int64_t *elementBytes,
                                       int64_t *offset, intptr_t *numDims) {
  const dlaformat::StorageView *v = getView(description, pos);
  if (!v)
    return error("no view " + std::to_string(pos));
  if (name)
    *name = v->name.c_str();
  if (buffer)
    *buffer = static_cast<intptr_t>(v->buffer);
  if (elementBytes)
    *elementBytes = v->elementBytes;
  if (offset)
    *offset = v->view.offset;
  if (numDims)
    *numDims = static_cast<intptr_t>(v->view.dims.size());
  return ok();
}

DlaStatus dlaStorageDescriptionGetViewDim(DlaStorageDescription description, intptr_t view,
                                          intptr_t dim, int64_t *extent, int64_t *stride,
                                          int64_t *logicalDim, int64_t *weight) {
  const dlaformat::StorageView *v = getView(description, view);
  if (!v)
    return error("no view " + std::to_string(view));
  if (dim < 0 || dim >= static_cast<intptr_t>(v->view.dims.size()))
    return error("view " + std::to_string(view) + " has no dimension " + std::to_string(dim));
  const dlaformat::StridedView::Dim &d = v->view.dims[dim];
  if (extent)
    *extent = d.extent;
  if (stride)
    *stride = d.stride;
  if (logicalDim)
    *logicalDim = d.logicalDim;
  if (weight)
    *weight = d.weight;
  return ok();
}

int64_t dlaStorageDescriptionGetViewLogicalBase(DlaStorageDescription description, intptr_t view,
                                                intptr_t logicalDim) {
  const dlaformat::StorageView *v = getView(description, view);
  if (!v || logicalDim < 0 || logicalDim >= static_cast<intptr_t>(v->logicalBase.size()))
    return 0;
  return v->logicalBase[logicalDim];
}

//===----------------------------------------------------------------------===//
// NVDLA scale / shift registers
//===----------------------------------------------------------------------===//

DlaStatus dlaNvdlaScalesFromFactors(intptr_t numFactors, const double *factors, int rounding,
                                    int16_t *scales, uint8_t *shift, double *errorBound) {
  if (numFactors < 0 || (numFactors > 0 && (!factors || !scales)))
    return error("null or negative factor array");
  if (rounding != DlaScaleRoundingTruncate && rounding != DlaScaleRoundingNearest)
    return error("unknown scale rounding " + std::to_string(rounding));
  auto mode = rounding == DlaScaleRoundingTruncate ? dlaformat::nvdla::ScaleRounding::Truncate
                                                   : dlaformat::nvdla::ScaleRounding::Nearest;
  dlaformat::Expected<dlaformat::nvdla::SharedShiftScales> result =
      dlaformat::nvdla::scalesFromFactors(
          std::vector<double>(factors, factors + numFactors), mode);
  if (!result)
    return error(result.message());
  std::copy(result->scales.begin(), result->scales.end(), scales);
  if (shift)
    *shift = result->shift;
  if (errorBound)
    *errorBound = result->errorBound;
  return ok();
}

DlaStatus dlaNvdlaBiasToInt16(intptr_t numBias, const int32_t *bias, int rounding,
                              int16_t *values, uint8_t *shift, int64_t *errorBound) {
  if (numBias < 0 || (numBias > 0 && (!bias || !values)))
    return error("null or negative bias array");
  if (rounding != DlaBiasRoundingFloor && rounding != DlaBiasRoundingNearest)
    return error("unknown bias rounding " + std::to_string(rounding));
  auto mode = rounding == DlaBiasRoundingFloor ? dlaformat::nvdla::BiasRounding::Floor
                                               : dlaformat::nvdla::BiasRounding::Nearest;
  dlaformat::nvdla::Int16Bias result =
      dlaformat::nvdla::biasToInt16(std::vector<int32_t>(bias, bias + numBias), mode);
  std::copy(result.values.begin(), result.values.end(), values);
  if (shift)
    *shift = result.shift;
  if (errorBound)
    *errorBound = result.errorBound;
  return ok();
}

namespace {

namespace nv = dlaformat::nvdla;

static_assert(nv::kLutRegisters == DLA_NVDLA_LUT_REGISTERS,
              "the C API's LUT register array is the format library's");

using nv::lutFromRegisters;
using nv::lutToRegisters;

} // namespace

DlaStatus dlaNvdlaLutFloat(intptr_t numRegisters, const int64_t *registers, intptr_t numValues,
                           const uint32_t *x, uint32_t *y) {
  if (numRegisters != DLA_NVDLA_LUT_REGISTERS || !registers)
    return error("a LUT takes " + std::to_string(DLA_NVDLA_LUT_REGISTERS) + " registers, not " +
                 std::to_string(numRegisters));
  if (numValues < 0 || (numValues > 0 && (!x || !y)))
    return error("null or negative value array");
  const nv::LutProgram lut = lutFromRegisters(registers);
  for (intptr_t i = 0; i < numValues; ++i)
    y[i] = nv::sdpLookupFloat(x[i], lut);
  return ok();
}

DlaStatus dlaNvdlaLutFloatProgram(const char *function, intptr_t numRegisters,
                                  int64_t *registers, double *maxError, double *at) {
  std::optional<nv::FloatLutFunction> fn =
      function ? nv::parseFloatLutFunction(function) : std::nullopt;
  if (!fn)
    return error(std::string("no float LUT program for '") + (function ? function : "(null)") +
                 "': sigmoid or tanh");
  if (numRegisters != DLA_NVDLA_LUT_REGISTERS || !registers)
    return error("a LUT takes " + std::to_string(DLA_NVDLA_LUT_REGISTERS) + " registers, not " +
                 std::to_string(numRegisters));
  lutToRegisters(nv::floatLutProgram(*fn), registers);
  if (maxError || at) {
    nv::FloatLutError e = nv::measureFloatLutError(*fn);
    if (maxError)
      *maxError = e.error;
    if (at)
      *at = e.at;
  }
  return ok();
}

DlaStatus dlaNvdlaLrnFloatTables(double alpha, double beta, double k, int64_t size,
                                 intptr_t numRegisters, int64_t *registers) {
  if (numRegisters != DLA_NVDLA_LUT_REGISTERS || !registers)
    return error("a LUT takes " + std::to_string(DLA_NVDLA_LUT_REGISTERS) + " registers, not " +
                 std::to_string(numRegisters));
  lutToRegisters(nv::lrnFloatTables(alpha, beta, k, size), registers);
  return ok();
}

DlaStatus dlaNvdlaCmacFp16(intptr_t numAtoms, const uint16_t *data, const uint16_t *weight,
                           int64_t *exponent, int64_t *mantissa) {
  static_assert(DLA_NVDLA_FP16_MAC_ATOM == nv::kFp16MacAtomChannels);
  if (numAtoms < 0 || (numAtoms > 0 && (!data || !weight || !exponent || !mantissa)))
    return error("null or negative array");
  for (intptr_t i = 0; i < numAtoms; ++i) {
    const int64_t at = i * nv::kFp16MacAtomChannels;
    nv::CmacWord word = nv::cmacFp16(data + at, weight + at, nv::kFp16MacAtomChannels);
    exponent[i] = word.exponent;
    mantissa[i] = word.mantissa;
  }
  return ok();
}

DlaStatus dlaNvdlaCaccAdd(intptr_t n, const int64_t *accExponent, const int64_t *accMantissa,
                          const int64_t *macExponent, const int64_t *macMantissa,
                          int64_t *outExponent, int64_t *outMantissa) {
  if (n < 0 || (n > 0 && (!accExponent || !accMantissa || !macExponent || !macMantissa ||
                          !outExponent || !outMantissa)))
    return error("null or negative array");
  for (intptr_t i = 0; i < n; ++i) {
    nv::CaccAccumulator r = nv::caccAdd({accExponent[i], accMantissa[i]},
                                        {macExponent[i], macMantissa[i]});
    outExponent[i] = r.exponent;
    outMantissa[i] = r.mantissa;
  }
  return ok();
}

DlaStatus dlaNvdlaCaccToFp32(intptr_t n, const int64_t *exponent, const int64_t *mantissa,
                             uint32_t *out) {
  if (n < 0 || (n > 0 && (!exponent || !mantissa || !out)))
    return error("null or negative array");
  for (intptr_t i = 0; i < n; ++i)
    out[i] = nv::caccToFp32({exponent[i], mantissa[i]});
  return ok();
}

DlaStatus dlaNvdlaConvFp16(const int64_t *shape, const int64_t *params, const uint16_t *x,
                           const uint16_t *w, uint32_t *out) {
  if (!shape || !params || !x || !w || !out)
    return error("null array");
  nv::ConvFp16Shape s{shape[0], shape[1], shape[2], shape[3], shape[4], shape[5]};
  s.strideH = params[0], s.strideW = params[1];
  s.padTop = params[2], s.padBottom = params[3], s.padLeft = params[4], s.padRight = params[5];
  s.dilationH = params[6], s.dilationW = params[7];
  for (int i = 0; i < 6; ++i)
    if (shape[i] < 1)
      return error("conv_fp16: shape entry " + std::to_string(i) + " is " +
                   std::to_string(shape[i]) + ", not positive");
  if (s.strideH < 1 || s.strideW < 1 || s.dilationH < 1 || s.dilationW < 1 ||
      std::min({s.padTop, s.padBottom, s.padLeft, s.padRight}) < 0)
    return error("conv_fp16: strides and dilations must be positive, padding non-negative");
  if (s.outHeight() < 1 || s.outWidth() < 1)
    return error("conv_fp16: the kernel does not fit the padded input");
  const int64_t c = s.channels, h = s.height, wd = s.width;
  nv::convFp16({x, {c * h * wd, h * wd, wd, 1}}, 0,
               {w, {c * s.kernelH * s.kernelW, s.kernelH * s.kernelW, s.kernelW, 1}}, s,
               {out, {0, s.outHeight() * s.outWidth(), s.outWidth(), 1}});
  return ok();
}

DlaStatus dlaNvdlaConvWinoFp16(const int64_t *shape, const int64_t *pad, uint16_t padValue,
                               const uint16_t *x, const uint16_t *taps, uint32_t *out) {
  if (!shape || !pad || !x || !taps || !out)
    return error("null array");
  nv::WinoFp16Shape s{shape[0], shape[1], shape[2], shape[3], shape[4]};
  s.padTop = pad[0], s.padBottom = pad[1], s.padLeft = pad[2], s.padRight = pad[3];
  for (int i = 0; i < 5; ++i)
    if (shape[i] < 1)
      return error("conv_wino_fp16: shape entry " + std::to_string(i) + " is " +
                   std::to_string(shape[i]) + ", not positive");
  if (std::min({s.padTop, s.padBottom, s.padLeft, s.padRight}) < 0 || s.outHeight() < 1 ||
      s.outWidth() < 1)
    return error("conv_wino_fp16: padding must be non-negative and the 3x3 kernel fit the "
                 "padded input");
  const int64_t c = s.channels, h = s.height, wd = s.width, cx = s.tapChannels;
  nv::convWinoFp16({x, {c * h * wd, h * wd, wd, 1}}, 0, {taps, {cx * 16, 16, 4, 1}}, s, padValue,
                   {out, {0, s.outHeight() * s.outWidth(), s.outWidth(), 1}});
  return ok();
}

DlaStatus dlaNvdlaSdpXFp16(const int64_t *config, intptr_t n, const uint32_t *x,
                           const uint16_t *aluOperand, const uint16_t *mulOperand,
                           uint32_t *out) {
  if (!config || n < 0 || (n > 0 && (!x || !out)))
    return error("null or negative array");
  if (config[1] < 0 || config[1] > 2)
    return error("sdp_x_fp16: alu_algo " + std::to_string(config[1]) +
                 " is none of 0 (max), 1 (min), 2 (sum)");
  nv::SdpXFp16 stage;
  stage.aluBypass = config[0] != 0;
  stage.aluAlgo = static_cast<nv::SdpAluAlgo>(config[1]);
  stage.mulBypass = config[2] != 0;
  stage.mulPrelu = config[3] != 0;
  stage.reluBypass = config[4] != 0;
  stage.nanToZero = config[5] != 0;
  if ((!stage.aluBypass && !aluOperand && n > 0) || (!stage.mulBypass && !mulOperand && n > 0))
    return error("sdp_x_fp16: a stage that is not bypassed needs its operands");
  for (intptr_t i = 0; i < n; ++i)
    out[i] = nv::sdpXFp16(x[i], stage, aluOperand ? aluOperand[i] : 0,
                          mulOperand ? mulOperand[i] : 0);
  return ok();
}
