//===- ReferenceWinograd.cpp - Winograd convolution from stored taps ------===//
//
// F(2x2, 3x3) as NVDLA runs it (the C model: cmod/csc NV_NVDLA_csc.cpp and
// hls/csc_libs/csc_cvt.cpp for the input transform, "PRA"; cmod/cmac
// NV_NVDLA_cmac.h for the products and the output transform):
//   - the input (after CDMA's converter, padded with PAD_VALUE) is
//     channel-extended for stride s: c' = (dy*s + dx)*Cp + c holds
//     x[c][Y*s + dy][X*s + dx] (Cp: C padded as the weights are);
//   - each 4x4 tile d (tiles every 2 positions) becomes C^T d C: rows
//     (d0-d2, d1+d2, d2-d1, d1-d3), then the same on the columns. Integers:
//     exact (17 / 18 bits), then PRA_TRUNCATE (0 here) and saturation to the
//     pipeline's 8 / 16 bits. fp16: each add in fp17 (6-bit exponent, 10-bit
//     mantissa, nearest-even), then Fp17ToFp16;
//   - products with the stored 4x4 taps, summed over the extended channels;
//   - the output transform A^T M A: rows (m0+m1+m2, m1-m2-m3), then columns.
// Integers are exact; fp16 products and sums are in f32 (see
// docs/ReferenceSemantics.md for the tolerance against direct convolution).
//
//===----------------------------------------------------------------------===//

#include "ReferenceWinograd.h"

#include "dla/Format/NvdlaWeight.h"

#include "dla/Conversion/DLAToMemRef/StorageDecompress.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {
constexpr llvm::StringLiteral kTapsAttr = "dla.winograd_taps";

nv::NvdlaWeightLayout layoutOf(RankedTensorType type) {
  auto weight = cast<WeightAttr>(type.getEncoding());
  // The type verified: its layout exists.
  return *nv::NvdlaWeightLayout::create(weight.getParams(type.getShape()));
}

Value index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
} // namespace

bool reference::isWinogradWeight(RankedTensorType type) {
  auto weight = dyn_cast_or_null<WeightAttr>(type.getEncoding());
  return weight && weight.getFormat() == nv::WeightFormat::Winograd && !weight.getCompressed();
}

Value reference::emitWinogradTaps(OpBuilder &b, Location loc, RankedTensorType type,
                                  Value storage) {
  nv::NvdlaWeightLayout layout = layoutOf(type);
  const nv::WeightSurface &ws = layout.getSurfaces().front();
  const int64_t eb = layout.getElementBytes();
  const int64_t K = ws.numKernels, kpg = ws.kernelsPerGroup;
  const int64_t Cx = ws.bytesPerKernel / (16 * eb);
  Type elem = type.getElementType();
  auto tapsType = MemRefType::get({K, Cx, 4, 4}, elem);
  Value taps = memref::AllocOp::create(b, loc, tapsType);
  // The stream as elements (little-endian, as the packer wrote them).
  const int64_t streamBytes = cast<MemRefType>(storage.getType()).getDimSize(0);
  Value typed = memref::ViewOp::create(b, loc, MemRefType::get({streamBytes / eb}, elem),
                                       storage, index(b, loc, 0), ValueRange{});
  // Stream order (NvdlaWeight.h): per kernel group, per block of 4
  // channels, per kernel of the group, a 4x4x4 cube (r, s, c). Full groups
  // in one loop nest, a partial last group in another.
  auto emitGroups = [&](int64_t g0, int64_t g1, int64_t kn) {
    if (g0 >= g1)
      return;
    scf::ForOp::create(
        b, loc, index(b, loc, g0), index(b, loc, g1), index(b, loc, 1), ValueRange{},
        [&](OpBuilder &gb, Location l, Value g, ValueRange) {
          Value k0 = arith::MulIOp::create(gb, l, g, index(gb, l, kpg));
          Value base = arith::MulIOp::create(gb, l, g, index(gb, l, kpg * Cx * 16));
          SmallVector<Value> lbs(4, index(gb, l, 0)), ubs = {index(gb, l, Cx / 4),
                                                            index(gb, l, kn), index(gb, l, 16),
                                                            index(gb, l, 4)};
          SmallVector<Value> steps(4, index(gb, l, 1));
          scf::buildLoopNest(gb, l, lbs, ubs, steps,
                             [&](OpBuilder &nb, Location nl, ValueRange iv) {
                               Value cb = iv[0], kk = iv[1], t = iv[2], lane = iv[3];
                               // ((cb*kn + kk)*16 + t)*4 + lane after the group's base.
                               Value at = arith::MulIOp::create(nb, nl, cb, index(nb, nl, kn));
                               at = arith::AddIOp::create(nb, nl, at, kk);
                               at = arith::MulIOp::create(nb, nl, at, index(nb, nl, 16));
                               at = arith::AddIOp::create(nb, nl, at, t);
                               at = arith::MulIOp::create(nb, nl, at, index(nb, nl, 4));
                               at = arith::AddIOp::create(nb, nl, at, lane);
                               at = arith::AddIOp::create(nb, nl, at, base);
                               Value v = memref::LoadOp::create(nb, nl, typed, ValueRange{at});
                               Value k = arith::AddIOp::create(nb, nl, k0, kk);
                               Value c = arith::AddIOp::create(
                                   nb, nl, arith::MulIOp::create(nb, nl, cb, index(nb, nl, 4)),
                                   lane);
                               Value r = arith::DivUIOp::create(nb, nl, t, index(nb, nl, 4));
                               Value s = arith::RemUIOp::create(nb, nl, t, index(nb, nl, 4));
                               memref::StoreOp::create(nb, nl, v, taps, ValueRange{k, c, r, s});
                             });
          scf::YieldOp::create(gb, l);
        });
  };
  emitGroups(0, K / kpg, kpg);
  emitGroups(K / kpg, ws.getNumGroups(), K % kpg);
  auto tensorType = RankedTensorType::get(tapsType.getShape(), elem);
  Value tensor = bufferization::ToTensorOp::create(b, loc, tensorType, taps,
                                                   /*restrict=*/b.getUnitAttr(),
                                                   /*writable=*/b.getUnitAttr());
  auto cast = UnrealizedConversionCastOp::create(
      b, loc, RankedTensorType::get(type.getShape(), elem), tensor);
  cast->setAttr(kTapsAttr, b.getUnitAttr());
  return cast.getResult(0);
}

Value reference::emitWinogradTapsOfTensor(OpBuilder &b, Location loc, Value weight) {
  auto type = cast<RankedTensorType>(weight.getType());
  auto enc = dyn_cast_or_null<WeightAttr>(type.getEncoding());
  if (!enc || enc.getFormat() != nv::WeightFormat::Winograd || !type.hasStaticShape())
    return {};
  auto toBuffer = [&](Value bytes) -> Value {
    auto t = cast<RankedTensorType>(bytes.getType());
    return bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(t.getShape(), t.getElementType()), bytes, /*readOnly=*/true);
  };
  auto storageOf = [&](Value encoded) -> Value {
    auto t = cast<RankedTensorType>(encoded.getType());
    FailureOr<MemRefType> buffer = getStorageBufferType(t, [] { return InFlightDiagnostic(); });
    if (failed(buffer))
      return {};
    return toBuffer(ToStorageOp::create(
        b, loc, RankedTensorType::get(buffer->getShape(), b.getI8Type()), encoded));
  };
  if (!enc.getCompressed()) {
    Value storage = storageOf(weight);
    return storage ? getWinogradTaps(emitWinogradTaps(b, loc, type, storage)) : Value();
  }
  RankedTensorType dense = getUncompressedWeightType(type);
  if (auto packed = weight.getDefiningOp<WeightConstantOp>()) {
    auto surface = [&](ElementsAttr a) {
      return toBuffer(arith::ConstantOp::create(b, loc, cast<TypedAttr>(a)));
    };
    Value image = emitDecompressWeights(b, loc, type, surface(packed.getWgs()),
                                        surface(packed.getWmb()), surface(packed.getData()));
    return getWinogradTaps(emitWinogradTaps(b, loc, dense, image));
  }
  if (auto relayout = weight.getDefiningOp<RelayoutOp>()) {
    Value storage = storageOf(RelayoutOp::create(b, loc, dense, relayout.getSource()));
    return storage ? getWinogradTaps(emitWinogradTaps(b, loc, dense, storage)) : Value();
  }
  return {};
}

Value reference::getWinogradTaps(Value weight) {
  auto cast = weight.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || !cast->hasAttr(kTapsAttr) || cast->getNumOperands() != 1)
    return {};
  return cast.getOperand(0);
}

namespace {

/// fp17's rounding of an exact f64 value: nearest-even to 10 fraction bits
/// (the exponent range of fp17 holds every value here: sums of fp16 values
/// are multiples of 2^-24 below 2^18, exact in f64).
Value roundFp17(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t x) { return arith::ConstantIntOp::create(b, loc, i64, x); };
  Value bits = arith::BitcastOp::create(b, loc, i64, v);
  Value lsb = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, bits, c(42)), c(1));
  Value up = arith::AddIOp::create(b, loc, bits,
                                   arith::AddIOp::create(b, loc, c((int64_t(1) << 41) - 1), lsb));
  Value cut = arith::AndIOp::create(b, loc, up, c(~((int64_t(1) << 42) - 1)));
  return arith::BitcastOp::create(b, loc, b.getF64Type(), cut);
}

/// One step of the input transform: `x op y` at the PRA's precision
/// (integers exact; fp16 data as exact f64 rounded to fp17).
Value praStep(OpBuilder &b, Location loc, Value x, Value y, bool subtract) {
  if (isa<FloatType>(x.getType())) {
    Value v = subtract ? Value(arith::SubFOp::create(b, loc, x, y))
                       : Value(arith::AddFOp::create(b, loc, x, y));
    return roundFp17(b, loc, v);
  }
  return subtract ? Value(arith::SubIOp::create(b, loc, x, y))
                  : Value(arith::AddIOp::create(b, loc, x, y));
}

/// The transform rows (d0-d2, d1+d2, d2-d1, d1-d3) of four values.
SmallVector<Value> praRows(OpBuilder &b, Location loc, ValueRange d) {
  return {praStep(b, loc, d[0], d[2], true), praStep(b, loc, d[1], d[2], false),
          praStep(b, loc, d[2], d[1], true), praStep(b, loc, d[1], d[3], true)};
}

Value addOrSub(OpBuilder &b, Location loc, Value x, Value y, bool subtract) {
  if (isa<FloatType>(x.getType()))
    return subtract ? Value(arith::SubFOp::create(b, loc, x, y))
                    : Value(arith::AddFOp::create(b, loc, x, y));
  return subtract ? Value(arith::SubIOp::create(b, loc, x, y))
                  : Value(arith::AddIOp::create(b, loc, x, y));
}

/// A^T applied to four values: (m0 + m1) + m2, (m1 - m2) - m3 (CMAC's
/// phase 2 / 3 order).
std::pair<Value, Value> outputPair(OpBuilder &b, Location loc, ValueRange m) {
  Value first = addOrSub(b, loc, addOrSub(b, loc, m[0], m[1], false), m[2], false);
  Value second = addOrSub(b, loc, addOrSub(b, loc, m[1], m[2], true), m[3], true);
  return {first, second};
}

SmallVector<utils::IteratorType> parallel(unsigned n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

SmallVector<OpFoldResult> foldResults(OpBuilder &b, ArrayRef<int64_t> v) {
  SmallVector<OpFoldResult> out;
  for (int64_t x : v)
    out.push_back(b.getIndexAttr(x));
  return out;
}

Value emptyLike(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type elem) {
  return tensor::EmptyOp::create(b, loc, shape, elem);
}

} // namespace

Value reference::winogradConvSum(OpBuilder &b, Location loc, ConvOp op, Value x, Value taps,
                                 Type acc, int64_t padValue) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  auto tType = cast<RankedTensorType>(taps.getType());
  RankedTensorType outType = op.getOutput().getType();
  const int64_t N = xType.getDimSize(0), C = xType.getDimSize(1), H = xType.getDimSize(2),
                W = xType.getDimSize(3);
  const int64_t K = tType.getDimSize(0), Cx = tType.getDimSize(1);
  const int64_t OH = outType.getDimSize(2), OW = outType.getDimSize(3);
  const int64_t s = op.getStrides()[0];
  const int64_t Cp = Cx / (s * s);
  const int64_t TH = (OH + 1) / 2, TW = (OW + 1) / 2;
  // Extended input rows / columns the tiles read: 2*T + 2, each s input
  // rows before the extension.
  const int64_t HY = 2 * TH + 2, WX = 2 * TW + 2;
  ArrayRef<int64_t> pad = op.getPadding(); // top, bottom, left, right
  const bool isFloat = isa<FloatType>(acc);
  Type elem = xType.getElementType();

  // Padded input: channels to Cp with zeros (their taps are zero), the
  // image with PAD_VALUE, also beyond the bottom / right edge where the
  // last tiles reach (those outputs are dropped).
  const int64_t keepH = std::min(H, HY * s - pad[0]), keepW = std::min(W, WX * s - pad[2]);
  if (keepH != H || keepW != W)
    x = tensor::ExtractSliceOp::create(b, loc, RankedTensorType::get({N, C, keepH, keepW}, elem),
                                       x, ValueRange{}, ValueRange{}, ValueRange{},
                                       b.getDenseI64ArrayAttr({0, 0, 0, 0}),
                                       b.getDenseI64ArrayAttr({N, C, keepH, keepW}),
                                       b.getDenseI64ArrayAttr({1, 1, 1, 1}));
  auto zero = [&](OpBuilder &bb, Location l) -> Value {
    return isFloat ? Value(arith::ConstantOp::create(bb, l, FloatAttr::get(elem, 0.0)))
                   : Value(arith::ConstantOp::create(bb, l, IntegerAttr::get(elem, 0)));
  };
  if (Cp != C)
    x = tensor::PadOp::create(b, loc, RankedTensorType::get({N, Cp, keepH, keepW}, elem), x,
                              foldResults(b, {0, 0, 0, 0}), foldResults(b, {0, Cp - C, 0, 0}),
                              zero(b, loc));
  Value padScalar = isFloat ? Value(arith::ConstantOp::create(
                                  b, loc, FloatAttr::get(elem, static_cast<double>(padValue))))
                            : Value(arith::ConstantOp::create(b, loc,
                                                              IntegerAttr::get(elem, padValue)));
  x = tensor::PadOp::create(
      b, loc, RankedTensorType::get({N, Cp, HY * s, WX * s}, elem), x,
      foldResults(b, {0, 0, pad[0], pad[2]}),
      foldResults(b, {0, 0, HY * s - keepH - pad[0], WX * s - keepW - pad[2]}), padScalar);

  // Channel extension: xe[n][(dy*s + dx)*Cp + c][Y][X] = x[n][c][Y*s+dy][X*s+dx].
  Value xe = x;
  if (s > 1) {
    auto split = RankedTensorType::get({N, Cp, HY, s, WX, s}, elem);
    Value xs = tensor::ExpandShapeOp::create(
        b, loc, split, x, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
    Value init = emptyLike(b, loc, {N, s, s, Cp, HY, WX}, elem);
    xe = linalg::TransposeOp::create(b, loc, xs, init, ArrayRef<int64_t>{0, 3, 5, 1, 2, 4})
             .getResult()[0];
    xe = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({N, Cx, HY, WX}, elem), xe,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}, {5}});
  }

  // Input transform, rows: four inputs (rows 2*ty + a) -> four outputs.
  Type stage = isFloat ? Type(b.getF64Type()) : acc;
  AffineExpr n = getAffineDimExpr(0, ctx), c = getAffineDimExpr(1, ctx),
             ty = getAffineDimExpr(2, ctx), X = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> rowMaps;
  for (int a = 0; a < 4; ++a)
    rowMaps.push_back(AffineMap::get(4, 0, {n, c, ty * 2 + a, X}, ctx));
  SmallVector<Value> rowInits(4, emptyLike(b, loc, {N, Cx, TH, WX}, stage));
  for (int a = 0; a < 4; ++a)
    rowMaps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  auto rows = linalg::GenericOp::create(
      b, loc, TypeRange(SmallVector<Type>(4, rowInits[0].getType())),
      ValueRange{xe, xe, xe, xe}, rowInits, rowMaps, parallel(4),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> d;
        for (int a = 0; a < 4; ++a)
          d.push_back(isFloat ? Value(arith::ExtFOp::create(nb, nl, nb.getF64Type(), args[a]))
                              : args[a]);
        linalg::YieldOp::create(nb, nl, praRows(nb, nl, d));
      });

  // Columns: sixteen inputs (row a, column 2*tx + j) -> V[a][j] in the
  // multiplier's type: fp16 (Fp17ToFp16) or the saturated integer.
  AffineExpr tx = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> colMaps;
  SmallVector<Value> colIns;
  for (int a = 0; a < 4; ++a)
    for (int j = 0; j < 4; ++j) {
      colMaps.push_back(AffineMap::get(4, 0, {n, c, ty, tx * 2 + j}, ctx));
      colIns.push_back(rows.getResult(a));
    }
  const Type tapElem = tType.getElementType();
  Type vType = isFloat ? tapElem : acc; // fp16 data, or integers kept wide
  SmallVector<Value> colInits(16, emptyLike(b, loc, {N, Cx, TH, TW}, vType));
  for (int i = 0; i < 16; ++i)
    colMaps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  const unsigned bits = tapElem.getIntOrFloatBitWidth();
  auto cols = linalg::GenericOp::create(
      b, loc, TypeRange(SmallVector<Type>(16, colInits[0].getType())), colIns, colInits, colMaps,
      parallel(4), [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> out(16);
        for (int a = 0; a < 4; ++a) {
          SmallVector<Value> v = praRows(nb, nl, args.slice(a * 4, 4));
          for (int j = 0; j < 4; ++j) {
            Value e = v[j];
            if (isFloat) {
              e = arith::TruncFOp::create(nb, nl, tapElem, e);
            } else {
              // PRA_TRUNCATE 0, then saturation to the pipeline's bits.
              auto lim = [&](int64_t x) {
                return arith::ConstantOp::create(nb, nl, IntegerAttr::get(acc, x));
              };
              e = arith::MaxSIOp::create(nb, nl, e, lim(-(int64_t(1) << (bits - 1))));
              e = arith::MinSIOp::create(nb, nl, e, lim((int64_t(1) << (bits - 1)) - 1));
            }
            out[a * 4 + j] = e;
          }
        }
        linalg::YieldOp::create(nb, nl, out);
      });

  // Products with the taps, summed over the extended channels (ascending,
  // from +0): M[a][j][n][k][ty][tx].
  AffineExpr pn = getAffineDimExpr(0, ctx), pk = getAffineDimExpr(1, ctx),
             pty = getAffineDimExpr(2, ctx), ptx = getAffineDimExpr(3, ctx),
             pc = getAffineDimExpr(4, ctx);
  SmallVector<AffineMap> mulMaps;
  SmallVector<Value> mulIns;
  for (int t = 0; t < 16; ++t) {
    mulIns.push_back(cols.getResult(t));
    mulMaps.push_back(AffineMap::get(5, 0, {pn, pc, pty, ptx}, ctx));
  }
  for (int t = 0; t < 16; ++t) {
    mulIns.push_back(taps);
    mulMaps.push_back(AffineMap::get(
        5, 0, {pk, pc, getAffineConstantExpr(t / 4, ctx), getAffineConstantExpr(t % 4, ctx)},
        ctx));
  }
  Value zeroAcc = isFloat ? Value(arith::ConstantOp::create(b, loc, FloatAttr::get(acc, 0.0)))
                          : Value(arith::ConstantOp::create(b, loc, IntegerAttr::get(acc, 0)));
  Value mInit = linalg::FillOp::create(b, loc, zeroAcc,
                                       ValueRange{emptyLike(b, loc, {N, K, TH, TW}, acc)})
                    .getResult(0);
  for (int t = 0; t < 16; ++t)
    mulMaps.push_back(AffineMap::get(5, 0, {pn, pk, pty, ptx}, ctx));
  SmallVector<utils::IteratorType> mulIters = parallel(4);
  mulIters.push_back(utils::IteratorType::reduction);
  auto products = linalg::GenericOp::create(
      b, loc, TypeRange(SmallVector<Type>(16, mInit.getType())), mulIns,
      SmallVector<Value>(16, mInit), mulMaps, mulIters,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> out;
        for (int t = 0; t < 16; ++t) {
          Value v = args[t], w = args[16 + t];
          if (isFloat) {
            v = arith::ExtFOp::create(nb, nl, acc, v);
            w = arith::ExtFOp::create(nb, nl, acc, w);
          } else {
            if (v.getType() != acc)
              v = arith::ExtSIOp::create(nb, nl, acc, v);
            w = arith::ExtSIOp::create(nb, nl, acc, w);
          }
          out.push_back(addOrSub(nb, nl, args[32 + t], isFloat
                                                            ? Value(arith::MulFOp::create(nb, nl, v, w))
                                                            : Value(arith::MulIOp::create(nb, nl, v, w)),
                                 false));
        }
        linalg::YieldOp::create(nb, nl, out);
      });

  // Output transform, then the 2x2 tiles in place: iteration (n, k, ty, p,
  // tx, q), each element computed from its tile's sixteen sums.
  SmallVector<AffineMap> outMaps;
  AffineExpr on = getAffineDimExpr(0, ctx), ok = getAffineDimExpr(1, ctx),
             oty = getAffineDimExpr(2, ctx), otx = getAffineDimExpr(4, ctx);
  for (int t = 0; t < 16; ++t)
    outMaps.push_back(AffineMap::get(6, 0, {on, ok, oty, otx}, ctx));
  outMaps.push_back(AffineMap::getMultiDimIdentityMap(6, ctx));
  Value tiles = emptyLike(b, loc, {N, K, TH, 2, TW, 2}, acc);
  Value assembled =
      linalg::GenericOp::create(
          b, loc, TypeRange{tiles.getType()}, products.getResults(), ValueRange{tiles}, outMaps,
          parallel(6),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            // Rows of A^T per column j, then columns of the two rows.
            SmallVector<Value> r0, r1;
            for (int j = 0; j < 4; ++j) {
              auto [first, second] = outputPair(
                  nb, nl, ValueRange{args[j], args[4 + j], args[8 + j], args[12 + j]});
              r0.push_back(first);
              r1.push_back(second);
            }
            auto [o00, o01] = outputPair(nb, nl, r0);
            auto [o10, o11] = outputPair(nb, nl, r1);
            Value p = linalg::IndexOp::create(nb, nl, 3), q = linalg::IndexOp::create(nb, nl, 5);
            Value zeroIdx = index(nb, nl, 0);
            Value pIs0 = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, p, zeroIdx);
            Value qIs0 = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, q, zeroIdx);
            Value top = arith::SelectOp::create(nb, nl, qIs0, o00, o01);
            Value bottom = arith::SelectOp::create(nb, nl, qIs0, o10, o11);
            linalg::YieldOp::create(nb, nl,
                                    ValueRange{arith::SelectOp::create(nb, nl, pIs0, top, bottom)});
          })
          .getResult(0);
  Value full = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({N, K, 2 * TH, 2 * TW}, acc), assembled,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  if (2 * TH == OH && 2 * TW == OW)
    return full;
  return tensor::ExtractSliceOp::create(b, loc, RankedTensorType::get({N, K, OH, OW}, acc), full,
                                        ValueRange{}, ValueRange{}, ValueRange{},
                                        b.getDenseI64ArrayAttr({0, 0, 0, 0}),
                                        b.getDenseI64ArrayAttr({N, K, OH, OW}),
                                        b.getDenseI64ArrayAttr({1, 1, 1, 1}));
}
