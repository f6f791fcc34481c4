//===- ChunkedAttr.cpp - #dla.chunked: HTP-style chunked layouts ---------===//
//
// Syntax: `#dla.chunked<crouton>` (a preset name) or
// `#dla.chunked<[(0,0),(1,0),(1,8)]>` (explicit pairs, outermost first).
// All layout math is in dla/Format/ChunkedLayout.h; this file only parses,
// prints, and turns format-library errors into diagnostics.
//
//===----------------------------------------------------------------------===//

#include "BindUtils.h"
#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

namespace {
std::vector<fmt::ChunkPair> toPairs(ArrayRef<int64_t> dims, ArrayRef<int64_t> sizes) {
  assert(dims.size() == sizes.size() && "dims and sizes are parallel");
  return fmt::ChunkedLayout::zipPairs(dims.data(), sizes.data(), dims.size());
}

} // namespace


ChunkedAttr ChunkedAttr::get(MLIRContext *context, const fmt::ChunkedLayout &layout) {
  SmallVector<int64_t> dims, sizes;
  for (const fmt::ChunkPair &p : layout.getPairs()) {
    dims.push_back(p.dim);
    sizes.push_back(p.size);
  }
  return get(context, ArrayRef<int64_t>(dims), ArrayRef<int64_t>(sizes));
}

int64_t ChunkedAttr::getRank() const {
  auto rank = fmt::ChunkedLayout::impliedRank(toPairs(getDims(), getSizes()));
  assert(rank && "ChunkedAttr was not verified");
  return *rank;
}

fmt::ChunkedLayout ChunkedAttr::getLayout() const {
  auto layout = fmt::ChunkedLayout::get(getRank(), toPairs(getDims(), getSizes()));
  assert(layout && "ChunkedAttr was not verified");
  return *layout;
}

std::optional<fmt::ChunkedPreset> ChunkedAttr::getPreset() const {
  return getLayout().getMatchingPreset();
}

LogicalResult ChunkedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> dims, ArrayRef<int64_t> sizes) {
  if (dims.size() != sizes.size())
    return emitError() << "invalid chunked layout: " << dims.size() << " dimensions but "
                       << sizes.size() << " sizes";
  std::vector<fmt::ChunkPair> pairs = toPairs(dims, sizes);
  fmt::Expected<int64_t> rank = fmt::ChunkedLayout::impliedRank(pairs);
  if (!rank)
    return emitError() << "invalid chunked layout: " << rank.message();
  fmt::Status status = fmt::ChunkedLayout::validate(*rank, pairs);
  if (!status)
    return emitError() << "invalid chunked layout: " << status.message();
  return success();
}

Attribute ChunkedAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  SmallVector<int64_t> dims, sizes;
  if (succeeded(parser.parseOptionalLSquare())) {
    if (failed(parser.parseOptionalRSquare())) {
      auto parsePair = [&]() -> ParseResult {
        int64_t dim, size;
        if (parser.parseLParen() || parser.parseInteger(dim) || parser.parseComma() ||
            parser.parseInteger(size) || parser.parseRParen())
          return failure();
        dims.push_back(dim);
        sizes.push_back(size);
        return success();
      };
      if (parser.parseCommaSeparatedList(parsePair) || parser.parseRSquare())
        return {};
    }
  } else {
    std::string name;
    SMLoc nameLoc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeywordOrString(&name))) {
      parser.emitError(nameLoc, "expected a chunked layout preset (")
          << fmt::enumNameList<fmt::ChunkedPreset>() << ") or a list of (dim, size) pairs";
      return {};
    }
    std::optional<fmt::ChunkedPreset> preset = fmt::parseEnum<fmt::ChunkedPreset>(name);
    if (!preset) {
      parser.emitError(nameLoc, "unknown chunked layout preset '")
          << name << "'; expected one of " << fmt::enumNameList<fmt::ChunkedPreset>() << ", or a list of (dim, size) pairs";
      return {};
    }
    fmt::ChunkedLayout layout = fmt::ChunkedLayout::getPreset(*preset);
    for (const fmt::ChunkPair &p : layout.getPairs()) {
      dims.push_back(p.dim);
      sizes.push_back(p.size);
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ChunkedAttr>(loc, parser.getContext(), ArrayRef<int64_t>(dims),
                                        ArrayRef<int64_t>(sizes));
}

void ChunkedAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (std::optional<fmt::ChunkedPreset> preset = getPreset()) {
    printer << fmt::enumName(*preset) << ">";
    return;
  }
  printer << "[";
  llvm::interleaveComma(llvm::zip_equal(getDims(), getSizes()), printer, [&](auto pair) {
    printer << "(" << std::get<0>(pair) << ", " << std::get<1>(pair) << ")";
  });
  printer << "]>";
}

FailureOr<std::unique_ptr<fmt::BoundLayout>>
ChunkedAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                  function_ref<InFlightDiagnostic()> emitError) const {
  FailureOr<int64_t> width = getStorageElementBytes(elementType, emitError);
  if (failed(width))
    return failure();
  return detail::finishBind(*this, shape, elementType, emitError,
                            getLayout().bind(shape.vec(), *width));
}

LogicalResult ChunkedAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                                          function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(detail::verifyElementTypePresent(*this, elementType, emitError)))
    return failure();
  if (static_cast<int64_t>(shape.size()) != getRank())
    return emitError() << *this << " has rank " << getRank() << " but the tensor has rank "
                       << shape.size();
  if (failed(getStorageElementBytes(elementType, emitError)))
    return failure();
  // Sizes can only be checked for static shapes; a dynamic tensor is bound
  // (and checked) once its shape is known.
  return detail::verifyEncodingByBinding(*this, shape, elementType, emitError, {});
}
