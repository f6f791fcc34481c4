//===- LrnRegisters.cpp - dla.lrn's integer registers --------------------===//
//
// docs/IntegerAttributes.md 5.2 and 6.2: the CDP's converters exist on
// integer pipelines only, stated converters come with stated tables; an
// fp16 LRN's table is the CDP's in float mode; the window is one of
// NORMALZ_LEN's lengths on every pipeline.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaCdpFp16.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

static LogicalResult checkCvt(LrnOp op, StringRef name, CvtAttr cvt,
                              const nv::RegisterField &offset, const nv::RegisterField &scale,
                              const nv::RegisterField &shift) {
  if (failed(verifyRegisterField(op, name + ".offset", cvt.getOffset(), offset)) ||
      failed(verifyRegisterField(op, name + ".scale", cvt.getScale(), scale)) ||
      failed(verifyRegisterField(op, name + ".shift", cvt.getShift(), shift)))
    return failure();
  return success();
}

LogicalResult mlir::dla::verifyLrnRegisters(LrnOp op) {
  // NORMALZ_LEN holds the window on every pipeline.
  if (failed(verifyRegisterField(op, "size", op.getSize(), nv::kCdpNormalzLen)))
    return failure();
  Type element = op.getInput().getType().getElementType();
  const std::pair<StringRef, Attribute> registers[] = {
      {"in_cvt", op.getInCvtAttr()}, {"out_cvt", op.getOutCvtAttr()}, {"lut", op.getLutAttr()}};
  if (!element.isInteger()) {
    // fp16: the CDP uses no converter (cdp_icvt / cdp_ocvt at FP16 ignore
    // their registers); a stated table is its float-mode table
    // (docs/NvdlaFp16.md "The CDP in fp16").
    for (auto [name, attr] : ArrayRef(registers).take_front(2))
      if (attr)
        return op.emitOpError() << name << " is an integer register: this LRN computes in fp16";
    LutAttr lut = op.getLutAttr();
    if (!lut)
      return success();
    if (failed(verifyLutRegisters(op, "lut", lut, nv::LutUnit::CdpFp16, /*floatEdges=*/true)))
      return failure();
    return verifyFloatLut(op, "lut", lut);
  }
  LutAttr lut = op.getLutAttr();
  for (auto [name, attr] : ArrayRef(registers).take_front(2))
    if (attr && !lut)
      return op.emitOpError() << name
                              << " without lut: derived tables choose their own converters "
                                 "(state lut too, or fold scales into alpha and k)";
  bool int8 = element.getIntOrFloatBitWidth() == 8;
  if (CvtAttr in = op.getInCvtAttr())
    if (failed(checkCvt(op, "in_cvt", in, int8 ? nv::kCdpDatinOffsetInt8 : nv::kCdpDatinOffsetInt16,
                        nv::kCdpDatinScale, nv::kCdpDatinShift)))
      return failure();
  if (CvtAttr out = op.getOutCvtAttr())
    if (failed(checkCvt(op, "out_cvt", out,
                        int8 ? nv::kCdpDatoutOffsetInt8 : nv::kCdpDatoutOffsetInt16,
                        nv::kCdpDatoutScale, nv::kCdpDatoutShift)))
      return failure();
  if (lut)
    return verifyLutRegisters(op, "lut", lut,
                              int8 ? nv::LutUnit::CdpInt8 : nv::LutUnit::CdpInt16);
  return success();
}

nv::LrnTables mlir::dla::getLrnTables(LrnOp op) {
  LutAttr lut = op.getLutAttr();
  if (op.getInput().getType().getElementType().isF16()) {
    // Float mode: the converters are identities the CDP does not use.
    nv::LrnTables t;
    t.lut = lut ? getLutProgram(lut)
                : nv::lrnFloatTables(op.getAlpha().convertToDouble(),
                                     op.getBeta().convertToDouble(), op.getK().convertToDouble(),
                                     op.getSize());
    return t;
  }
  auto precision = op.getInput().getType().getElementType().getIntOrFloatBitWidth() == 8
                       ? nv::Precision::Int8
                       : nv::Precision::Int16;
  if (!lut)
    return nv::deriveLrnTables(op.getAlpha().convertToDouble(), op.getBeta().convertToDouble(),
                               op.getK().convertToDouble(), op.getSize(), precision);
  nv::LrnTables t;
  t.lut = getLutProgram(lut);
  if (CvtAttr in = op.getInCvtAttr())
    t.in = {in.getOffset(), in.getScale(), in.getShift()};
  if (CvtAttr out = op.getOutCvtAttr())
    t.out = {out.getOffset(), out.getScale(), out.getShift()};
  return t;
}
