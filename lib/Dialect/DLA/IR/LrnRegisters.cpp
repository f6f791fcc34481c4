//===- LrnRegisters.cpp - dla.lrn's integer registers --------------------===//
//
// docs/IntegerAttributes.md 5.2 and 6.2: the CDP's converters and lookup
// table exist on integer pipelines only, stated converters come with stated
// tables; the window is one of NORMALZ_LEN's lengths on every pipeline.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

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
    // fp16 IR keeps its meaning: no integer register may change it.
    for (auto [name, attr] : registers)
      if (attr)
        return op.emitOpError() << name << " is an integer register: this LRN computes in fp16";
    return success();
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
  auto precision = op.getInput().getType().getElementType().getIntOrFloatBitWidth() == 8
                       ? nv::Precision::Int8
                       : nv::Precision::Int16;
  LutAttr lut = op.getLutAttr();
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
