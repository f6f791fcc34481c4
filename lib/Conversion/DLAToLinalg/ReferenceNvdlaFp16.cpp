//===- ReferenceNvdlaFp16.cpp - fp16 layers as NVDLA computes them --------===//
//
// The lowered code calls the format library's arithmetic (through
// NvdlaRuntime.h) rather than restating it in arith ops: CMAC's Booth
// multiplier and CACC's normalizations live once, in NvdlaConvFp16.cpp,
// checked against the numpy model of NVIDIA's C model.
//
//===----------------------------------------------------------------------===//

#include "ReferenceNvdlaFp16.h"
#include "ReferenceArith.h"

#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/ExecutionRuntime/NvdlaRuntime.h"
#include "dla/Format/NvdlaFloat.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaWeight.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;
namespace rt = ::dla::runtime;

bool reference::usesNvdlaFp16(Operation *op, Fp16Arithmetic arithmetic) {
  if (arithmetic != Fp16Arithmetic::Hardware)
    return false;
  ::dlaformat::Target target = TargetAttr::lookup(op);
  return target.accelerator == ::dlaformat::Accelerator::Nvdla &&
         target.config == nv::HardwareKind::NvFull;
}

bool reference::isFp16Conv(ConvOp op) {
  auto x = op.getInput().getType(), w = op.getWeight().getType();
  return w.getElementType().isF16() &&
         (x.getElementType().isF16() ||
          (op.getMode() == nv::ConvMode::ImageInput && isa<IntegerType>(x.getElementType())));
}

std::string reference::whyIdealFp16Conv(ConvOp op) {
  auto x = op.getInput().getType(), w = op.getWeight().getType();
  if (x.getRank() != 4 || w.getRank() != 4)
    return "not a rank-4 convolution";
  const bool image = op.getMode() == nv::ConvMode::ImageInput;
  // Winograd: F(2x2, 3x3) at stride 1, the only form the hardware runs
  // (NvdlaCModelV1.md "Stride 1 only": the register plan refuses others).
  if (op.getMode() == nv::ConvMode::Winograd &&
      (w.getDimSize(2) != 3 || w.getDimSize(3) != 3 ||
       !llvm::all_of(op.getStrides(), [](int64_t s) { return s == 1; })))
    return "NVDLA runs Winograd on 3x3 kernels at stride 1 only (this layer's " +
           std::to_string(w.getDimSize(2)) + "x" + std::to_string(w.getDimSize(3)) +
           " kernel at stride " + std::to_string(op.getStrides().front()) +
           " is refused by the register plan)";
  // The verifier refuses these on fp16 data (integer registers, a channel
  // mismatch); checked all the same, so that no path falls back silently.
  if (op.getPadValue().value_or(0) || op.getClipTruncate() || (!image && op.getInputCvtAttr()) ||
      (!image && x.getDimSize(1) != w.getDimSize(1)))
    return "its pad_value, clip_truncate, input converter or channels are not modelled";
  return "";
}

bool reference::isNvdlaFp16Conv(ConvOp op) {
  return op.getMode() != nv::ConvMode::ImageInput && isFp16Conv(op) && whyIdealFp16Conv(op).empty();
}

bool reference::isNvdlaFp16ImageConv(ConvOp op) {
  return op.getMode() == nv::ConvMode::ImageInput && isFp16Conv(op) &&
         whyIdealFp16Conv(op).empty();
}

namespace {

Type i32Of(OpBuilder &b) { return b.getI32Type(); }

MemRefType flatMemref(Type element) { return MemRefType::get({ShapedType::kDynamic}, element); }

/// A plain integer tensor (rank 1 or 4) as a contiguous 1-d buffer.
Value flatBuffer(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  Type element = type.getElementType();
  Value buffer = bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(type.getShape(), element), t, /*read_only=*/true);
  if (type.getRank() == 4)
    buffer = memref::CollapseShapeOp::create(b, loc, buffer,
                                             ArrayRef<ReassociationIndices>{{0, 1, 2, 3}});
  return memref::CastOp::create(b, loc, flatMemref(element), buffer);
}

/// The bits of a plain rank-4 f16 tensor as a contiguous 1-d buffer.
Value flatBits(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  return flatBuffer(b, loc, arith::BitcastOp::create(b, loc, type.clone(b.getI16Type()), t));
}

} // namespace

void reference::declareNvdlaRuntime(OpBuilder &b, Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  Type i32 = i32Of(b), i64 = b.getI64Type();
  auto declare = [&](StringRef name, FunctionType type) {
    if (module.lookupSymbol(name))
      return;
    auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
    fn.setPrivate();
  };
  SmallVector<Type> conv = {flatMemref(b.getI16Type()), flatMemref(b.getI16Type()),
                            flatMemref(i32)};
  conv.append(15, i64);
  declare(rt::kConvFp16, b.getFunctionType(conv, {}));
  SmallVector<Type> wino = {flatMemref(b.getI16Type()), flatMemref(b.getI16Type()),
                            flatMemref(i32)};
  wino.append(11, i64);
  declare(rt::kConvWinoFp16, b.getFunctionType(wino, {}));
  declare(rt::kImageConvFp16, b.getFunctionType(conv, {}));
  SmallVector<Type> pdp = {flatMemref(b.getI16Type()), flatMemref(b.getI16Type())};
  pdp.append(12, i64);
  declare(rt::kPdpFp16, b.getFunctionType(pdp, {}));
  SmallVector<Type> cdp = {flatMemref(b.getI16Type()), flatMemref(b.getI16Type()),
                           flatMemref(i64)};
  cdp.append(4, i64);
  declare(rt::kCdpFp16, b.getFunctionType(cdp, {}));
  SmallVector<Type> lut = {flatMemref(i64), flatMemref(i32), flatMemref(b.getI16Type()), i64};
  declare(rt::kSdpLutFloatFp16, b.getFunctionType(lut, {}));
  for (const char *name : {rt::kFp32Add, rt::kFp32Mul, rt::kFp32Max, rt::kFp32Min})
    declare(name, b.getFunctionType({i32, i32}, {i32}));
  for (const char *name : {rt::kFp32Relu, rt::kFp16ToFp32, rt::kFp32ToFp16, rt::kFp16ToInt16})
    declare(name, b.getFunctionType({i32}, {i32}));
}

namespace {

/// CACC's fp32 bits of the convolution `op` (tensor<N x K x OH x OW x i32>)
/// from the runtime function `name` on the bits of two plain f16 tensors
/// and the i64 `geometry` after them (NvdlaRuntime.h's signatures).
Value callConvFp16(OpBuilder &b, Location loc, ConvOp op, const char *name, Value x, Value w,
                   ArrayRef<int64_t> geometry) {
  declareNvdlaRuntime(b, op);
  Type i32 = i32Of(b), i64 = b.getI64Type();
  Value xs = flatBits(b, loc, x), ws = flatBits(b, loc, w);
  RankedTensorType outType = op.getOutput().getType();
  Value out = memref::AllocOp::create(b, loc, MemRefType::get(outType.getShape(), i32));
  Value outFlat = memref::CastOp::create(
      b, loc, flatMemref(i32),
      memref::CollapseShapeOp::create(b, loc, out, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}}));
  SmallVector<Value> args = {xs, ws, outFlat};
  for (int64_t v : geometry)
    args.push_back(arith::ConstantIntOp::create(b, loc, i64, v));
  func::CallOp::create(b, loc, name, TypeRange{}, args);
  return bufferization::ToTensorOp::create(b, loc, RankedTensorType::get(outType.getShape(), i32),
                                           out, /*restrict=*/true, /*writable=*/true);
}

/// The kernel rows CSC puts in one atom: the image weights' post-extension
/// factor (1 for plain weights or none).
int64_t postExtension(ConvOp op) {
  RankedTensorType type = op.getWeight().getType();
  auto weight = dyn_cast_or_null<WeightAttr>(type.getEncoding());
  if (!weight || weight.getFormat() != nv::WeightFormat::Image)
    return 1;
  auto layout = nv::NvdlaWeightLayout::create(weight.getParams(type.getShape()));
  return layout ? std::max<int64_t>(1, layout->getPostExtensionFactor()) : 1;
}

} // namespace

Value reference::emitNvdlaConvFp16(OpBuilder &b, Location loc, ConvOp op, Value x, Value w) {
  auto xt = cast<RankedTensorType>(x.getType()), wt = cast<RankedTensorType>(w.getType());
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                    padding = op.getPadding();
  return callConvFp16(b, loc, op, rt::kConvFp16, x, w,
                      {xt.getDimSize(0), xt.getDimSize(1), xt.getDimSize(2), xt.getDimSize(3),
                       wt.getDimSize(0), wt.getDimSize(2), wt.getDimSize(3), strides[0],
                       strides[1], padding[0], padding[1], padding[2], padding[3], dilations[0],
                       dilations[1]});
}

Value reference::emitNvdlaConvWinoFp16(OpBuilder &b, Location loc, ConvOp op, Value x,
                                       Value taps) {
  auto xt = cast<RankedTensorType>(x.getType()), tt = cast<RankedTensorType>(taps.getType());
  ArrayRef<int64_t> padding = op.getPadding();
  return callConvFp16(b, loc, op, rt::kConvWinoFp16, x, taps,
                      {xt.getDimSize(0), xt.getDimSize(1), xt.getDimSize(2), xt.getDimSize(3),
                       tt.getDimSize(0), tt.getDimSize(1), padding[0], padding[1], padding[2],
                       padding[3], /*padValue=*/0});
}

Value reference::emitNvdlaImageConvFp16(OpBuilder &b, Location loc, ConvOp op, Value x,
                                        Value w) {
  auto xt = cast<RankedTensorType>(x.getType()), wt = cast<RankedTensorType>(w.getType());
  ArrayRef<int64_t> strides = op.getStrides(), padding = op.getPadding();
  return callConvFp16(b, loc, op, rt::kImageConvFp16, x, w,
                      {xt.getDimSize(0), xt.getDimSize(1), xt.getDimSize(2), xt.getDimSize(3),
                       wt.getDimSize(0), wt.getDimSize(1), wt.getDimSize(2), wt.getDimSize(3),
                       strides[0], strides[1], padding[0], padding[1], padding[2], padding[3],
                       postExtension(op)});
}

Value reference::emitNvdlaPoolFp16(OpBuilder &b, Location loc, PoolOp op, Value x) {
  declareNvdlaRuntime(b, op);
  Type i16 = b.getI16Type(), i64 = b.getI64Type();
  auto xt = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> outShape = op.getOutput().getType().getShape();
  Value out = memref::AllocOp::create(b, loc, MemRefType::get(outShape, i16));
  Value outFlat = memref::CastOp::create(
      b, loc, flatMemref(i16),
      memref::CollapseShapeOp::create(b, loc, out, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}}));
  ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(), padding = op.getPadding();
  const int64_t method = op.getKind() == PoolKind::Average ? 0
                         : op.getKind() == PoolKind::Max   ? 1
                                                           : 2;
  SmallVector<int64_t> geometry = {xt.getDimSize(0) * xt.getDimSize(1),
                                   xt.getDimSize(2),
                                   xt.getDimSize(3),
                                   kernel[0],
                                   kernel[1],
                                   strides[0],
                                   strides[1],
                                   padding[0],
                                   padding[1],
                                   padding[2],
                                   padding[3],
                                   method};
  SmallVector<Value> args = {flatBits(b, loc, x), outFlat};
  for (int64_t v : geometry)
    args.push_back(arith::ConstantIntOp::create(b, loc, i64, v));
  func::CallOp::create(b, loc, rt::kPdpFp16, TypeRange{}, args);
  Value bits = bufferization::ToTensorOp::create(b, loc, RankedTensorType::get(outShape, i16),
                                                 out, /*restrict=*/true, /*writable=*/true);
  return arith::BitcastOp::create(b, loc, RankedTensorType::get(outShape, b.getF16Type()), bits);
}

/// The float-mode table's registers as a flat constant memref (the
/// runtime's lutFromRegisters reads them).
static Value lutRegisters(OpBuilder &b, Location loc, const nv::LutProgram &lut) {
  std::vector<int64_t> registers(nv::kLutRegisters);
  nv::lutToRegisters(lut, registers.data());
  Value program = arith::ConstantOp::create(
      b, loc,
      DenseIntElementsAttr::get(RankedTensorType::get({nv::kLutRegisters}, b.getI64Type()),
                                ArrayRef<int64_t>(registers)));
  return flatBuffer(b, loc, program);
}

Value reference::emitNvdlaLrnFp16(OpBuilder &b, Location loc, LrnOp op, Value x) {
  declareNvdlaRuntime(b, op);
  Type i16 = b.getI16Type(), i64 = b.getI64Type();
  auto xt = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> shape = xt.getShape();
  Value out = memref::AllocOp::create(b, loc, MemRefType::get(shape, i16));
  Value outFlat = memref::CastOp::create(
      b, loc, flatMemref(i16),
      memref::CollapseShapeOp::create(b, loc, out, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}}));
  // The tables the register plan programs (stated, or derived from alpha,
  // beta, k).
  SmallVector<Value> args = {flatBits(b, loc, x), outFlat,
                             lutRegisters(b, loc, getLrnTables(op).lut)};
  for (int64_t v : {shape[0], shape[1], shape[2] * shape[3], int64_t(op.getSize())})
    args.push_back(arith::ConstantIntOp::create(b, loc, i64, v));
  func::CallOp::create(b, loc, rt::kCdpFp16, TypeRange{}, args);
  Value bits = bufferization::ToTensorOp::create(b, loc, RankedTensorType::get(shape, i16), out,
                                                 /*restrict=*/true, /*writable=*/true);
  return arith::BitcastOp::create(b, loc, RankedTensorType::get(shape, b.getF16Type()), bits);
}

namespace {
Value call(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
  return func::CallOp::create(b, loc, name, TypeRange{b.getI32Type()}, args).getResult(0);
}
} // namespace

Value reference::nvdlaWiden(OpBuilder &b, Location loc, Value v) {
  Type i32 = i32Of(b);
  if (v.getType().isF32())
    return arith::BitcastOp::create(b, loc, i32, v);
  if (v.getType().isInteger(32))
    return v; // already fp32 bits (CACC's delivery)
  Value bits = arith::BitcastOp::create(b, loc, b.getI16Type(), v);
  return call(b, loc, rt::kFp16ToFp32, {arith::ExtUIOp::create(b, loc, i32, bits)});
}

Value reference::nvdlaAdd(OpBuilder &b, Location loc, Value x, Value y) {
  return call(b, loc, rt::kFp32Add, {x, y});
}
Value reference::nvdlaMul(OpBuilder &b, Location loc, Value x, Value y) {
  return call(b, loc, rt::kFp32Mul, {x, y});
}
Value reference::nvdlaMax(OpBuilder &b, Location loc, Value x, Value y) {
  return call(b, loc, rt::kFp32Max, {x, y});
}
Value reference::nvdlaMin(OpBuilder &b, Location loc, Value x, Value y) {
  return call(b, loc, rt::kFp32Min, {x, y});
}
Value reference::nvdlaRelu(OpBuilder &b, Location loc, Value x) {
  return call(b, loc, rt::kFp32Relu, {x});
}

Value reference::nvdlaToFp16(OpBuilder &b, Location loc, Value x) {
  Value h = call(b, loc, rt::kFp32ToFp16, {x});
  return arith::BitcastOp::create(b, loc, b.getF16Type(),
                                  arith::TruncIOp::create(b, loc, b.getI16Type(), h));
}

Value reference::nvdlaSdpOutput(OpBuilder &b, Location loc, Value x, Type out) {
  Value h = nvdlaToFp16(b, loc, x);
  if (out.isF16())
    return h;
  // sdp_c.cpp 41-49: OUT_PRECISION int16 takes the fp16 through
  // Fp16ToInt16; the output converter's offset, scale and shift are unused.
  Value bits = arith::ExtUIOp::create(b, loc, b.getI32Type(),
                                      arith::BitcastOp::create(b, loc, b.getI16Type(), h));
  return arith::TruncIOp::create(b, loc, b.getI16Type(), call(b, loc, rt::kFp16ToInt16, {bits}));
}

Value reference::nvdlaSdpXStage(OpBuilder &b, Location loc, Value x, SdpXAttr stage,
                                Value aluMem, Value mulMem) {
  // A register operand: its fp16 pattern widened as Fp16ToFp32 widens.
  auto operand = [&](const SdpOperand &o, Value mem) {
    if (!o.reg)
      return nvdlaWiden(b, loc, mem);
    uint32_t bits = nv::nvdlaFp16ToFp32(static_cast<uint16_t>(*o.reg & 0xffff));
    return scalarConstant(b, loc, i32Of(b), static_cast<int32_t>(bits));
  };
  Value a = x;
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    Value op = operand(stage.getAluOperand(), aluMem);
    switch (*algo) {
    case nv::SdpAluAlgo::Max:
      a = nvdlaMax(b, loc, a, op);
      break;
    case nv::SdpAluAlgo::Min:
      a = nvdlaMin(b, loc, a, op);
      break;
    case nv::SdpAluAlgo::Sum:
      a = nvdlaAdd(b, loc, a, op);
      break;
    case nv::SdpAluAlgo::Eql: {
      Type f32 = b.getF32Type();
      Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       arith::BitcastOp::create(b, loc, f32, a),
                                       arith::BitcastOp::create(b, loc, f32, op));
      a = arith::SelectOp::create(b, loc, eq, scalarConstant(b, loc, i32Of(b), 0),
                                  scalarConstant(b, loc, i32Of(b), 0x3f800000));
      break;
    }
    }
  }
  Value t = a;
  if (stage.getMulOperand().isPresent()) {
    t = nvdlaMul(b, loc, a, operand(stage.getMulOperand(), mulMem));
    // PReLU passes a value whose sign bit is clear (sdp_x_fp16).
    if (stage.getPrelu()) {
      Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, a,
                                                scalarConstant(b, loc, i32Of(b), 0));
      t = arith::SelectOp::create(b, loc, nonNegative, a, t);
    }
  }
  if (stage.getRelu())
    t = nvdlaRelu(b, loc, t);
  return t;
}

Value reference::nvdlaSdpYStage(OpBuilder &b, Location loc, Value x, SdpYAttr stage,
                                Value aluMem, Value mulMem) {
  // A register operand: the 32-bit register as fp32 bits (sdp_y_core.cpp
  // reads `.slc<32>(0)`; no converter, no NaN flush).
  auto operand = [&](const SdpOperand &o, Value mem) {
    if (!o.reg)
      return nvdlaWiden(b, loc, mem);
    return scalarConstant(b, loc, i32Of(b), static_cast<int32_t>(static_cast<uint32_t>(*o.reg)));
  };
  Value v = x;
  if (stage.getMulOperand().isPresent()) {
    Value product = nvdlaMul(b, loc, v, operand(stage.getMulOperand(), mulMem));
    if (stage.getPrelu()) {
      Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                                                scalarConstant(b, loc, i32Of(b), 0));
      product = arith::SelectOp::create(b, loc, nonNegative, v, product);
    }
    v = product;
  }
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    Value op = operand(stage.getAluOperand(), aluMem);
    switch (*algo) {
    case nv::SdpAluAlgo::Max:
      v = nvdlaMax(b, loc, v, op);
      break;
    case nv::SdpAluAlgo::Min:
      v = nvdlaMin(b, loc, v, op);
      break;
    case nv::SdpAluAlgo::Sum:
      v = nvdlaAdd(b, loc, v, op);
      break;
    case nv::SdpAluAlgo::Eql:
      llvm_unreachable("dla.sdp's verifier refuses ew.alu = eql on an fp16 pipeline");
    }
  }
  return v;
}

Value reference::emitNvdlaLutFloatFp16(OpBuilder &b, Location loc, Operation *op, Value bits,
                                       const ::dlaformat::nvdla::LutProgram &lut) {
  declareNvdlaRuntime(b, op);
  Type i16 = b.getI16Type(), i64 = b.getI64Type();
  auto type = cast<RankedTensorType>(bits.getType());
  Value out = memref::AllocOp::create(b, loc, MemRefType::get(type.getShape(), i16));
  Value outFlat = memref::CastOp::create(
      b, loc, flatMemref(i16),
      memref::CollapseShapeOp::create(b, loc, out, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}}));
  func::CallOp::create(b, loc, rt::kSdpLutFloatFp16, TypeRange{},
                       ValueRange{lutRegisters(b, loc, lut), flatBuffer(b, loc, bits), outFlat,
                                  arith::ConstantIntOp::create(b, loc, i64,
                                                               type.getNumElements())});
  Value result = bufferization::ToTensorOp::create(b, loc, type.clone(i16), out,
                                                   /*restrict=*/true, /*writable=*/true);
  return arith::BitcastOp::create(b, loc, type.clone(b.getF16Type()), result);
}
