//===- StorageCopy.cpp - Code that moves elements into storage -----------===//
//
// The loops --dla-lower-to-memref emits for a relayout: every element moved
// between a row-major buffer and the typed strided views the format library
// describes (StorageDescription), or, for layouts with no strided view, a
// compile-time table of byte offsets asked from the layout. Views whose
// innermost dimension is storage-contiguous move whole runs as vectors (or
// transpose channel-innermost tiles in registers); the element-by-element
// loops stay for the rest (bit fields, widening, other shapes).
//
//===----------------------------------------------------------------------===//

#include "dla/Conversion/DLAToMemRef/StorageCopy.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/StorageDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

using namespace mlir;
namespace fmt = ::dlaformat;

namespace mlir::dla {
namespace {

Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The numbers of a copy's loops that depend on the tensor's shape (extents,
/// strides, bounds): index constants for a copy written in place, or index
/// arguments of a shared function (CopyFunctions), each call passing its own:
/// then one function serves every shape whose copy has the same loops.
class CopyNumbers {
public:
  CopyNumbers(MemRefType logicalType, int64_t storageBytes, Block *entry = nullptr)
      : logicalType(logicalType), storageBytes(storageBytes), entry(entry) {}
  Value get(OpBuilder &b, Location loc, int64_t v) {
    if (!entry)
      return cst(b, loc, v);
    values.push_back(v);
    return entry->addArgument(b.getIndexType(), loc);
  }
  bool areArguments() const { return entry; }
  ArrayRef<int64_t> getValues() const { return values; }
  /// The static logical type and storage size the loops are planned for.
  MemRefType logicalType;
  int64_t storageBytes;

private:
  Block *entry;
  SmallVector<int64_t> values;
};

/// makeView, with the view's sizes, strides (but a unit innermost one, which
/// vector loads need to see) and offset from `num`.
Value makeCopyView(OpBuilder &b, Location loc, Value bytes, const fmt::StorageView &v,
                   Type logicalElem, CopyNumbers &num) {
  if (!num.areArguments())
    return makeView(b, loc, bytes, v, logicalElem);
  MemRefType type = getStorageViewType(v, logicalElem);
  auto [strides, offset] = type.getStridesAndOffset();
  const int64_t rank = type.getRank();
  SmallVector<int64_t> layoutStrides(rank, ShapedType::kDynamic);
  if (rank && strides.back() == 1)
    layoutStrides.back() = 1;
  auto dynType = MemRefType::get(
      SmallVector<int64_t>(rank, ShapedType::kDynamic), type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, layoutStrides));
  Value n = num.get(b, loc, num.storageBytes / v.elementBytes);
  Value flat = memref::ViewOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()), bytes,
      cst(b, loc, 0), ValueRange{n});
  SmallVector<OpFoldResult> sizes, strideValues;
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(num.get(b, loc, type.getDimSize(d)));
    strideValues.push_back(layoutStrides[d] == 1 ? OpFoldResult(b.getIndexAttr(1))
                                                 : OpFoldResult(num.get(b, loc, strides[d])));
  }
  return memref::ReinterpretCastOp::create(b, loc, dynType, flat,
                                           OpFoldResult(num.get(b, loc, offset)), sizes,
                                           strideValues);
}

/// Converts a value between the logical element type and the view's
/// storage element type (sign- or zero-extension of narrower data).
Value convertElement(OpBuilder &b, Location loc, Value v, Type to, bool signExtend) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return signExtend ? Value(arith::ExtSIOp::create(b, loc, to, v))
                      : Value(arith::ExtUIOp::create(b, loc, to, v));
  return arith::TruncIOp::create(b, loc, to, v);
}

/// Moves every element between the logical memref `logical` and the views
/// of `bytes` (toStorage: logical -> storage). Loops run over each view's
/// dimensions; logical[d] = base[d] + sum(pos * weight) over d's digits; the
/// innermost loop carrying a digit of d is bounded so that logical[d] stays
/// in bounds (padding positions are never visited).
void emitViewCopy(OpBuilder &b, Location loc, Value logical, Value bytes,
                  const fmt::StorageView &v, bool toStorage, CopyNumbers &num) {
  MemRefType logicalType = num.logicalType;
  ArrayRef<int64_t> shape = logicalType.getShape();
  Type elemTy = logicalType.getElementType();
  const int64_t rank = shape.size();
  const bool bitFields = !v.fields.empty();
  Type storageElemTy = getStorageViewElementType(v, elemTy);
  Value view = makeCopyView(b, loc, bytes, v, elemTy, num);

  const auto &dims = v.view.dims;
  SmallVector<int64_t> base(rank, 0);
  for (size_t d = 0; d < v.logicalBase.size() && d < base.size(); ++d)
    base[d] = v.logicalBase[d];
  // Largest reachable logical index per dimension, and the innermost loop
  // carrying each dimension.
  SmallVector<int64_t> maxIndex(base.begin(), base.end());
  SmallVector<int64_t> lastLoop(rank, -1);
  for (size_t k = 0; k < dims.size(); ++k) {
    maxIndex[dims[k].logicalDim] += (dims[k].extent - 1) * dims[k].weight;
    lastLoop[dims[k].logicalDim] = k;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (lastLoop[d] < 0 && base[d] >= shape[d])
      return; // the view holds a component this shape does not have

  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> partial(rank);
  for (int64_t d = 0; d < rank; ++d)
    partial[d] = num.get(b, loc, base[d]);
  SmallVector<Value> ivs;
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t d = dims[k].logicalDim, w = dims[k].weight;
    Value ub = num.get(b, loc, dims[k].extent);
    // Shared functions bound every such loop: any shape may need it.
    if (lastLoop[d] == static_cast<int64_t>(k) &&
        (maxIndex[d] >= shape[d] || num.areArguments())) {
      // ub = clamp(ceil((shape[d] - partial[d]) / w), 0, extent)
      Value rem = arith::SubIOp::create(b, loc, num.get(b, loc, shape[d]), partial[d]);
      Value n = arith::CeilDivSIOp::create(b, loc, rem, num.get(b, loc, w));
      n = arith::MinSIOp::create(b, loc, n, ub);
      ub = arith::MaxSIOp::create(b, loc, n, cst(b, loc, 0));
    }
    auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0), ub, cst(b, loc, 1));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value iv = loop.getInductionVar();
    ivs.push_back(iv);
    Value step = w == 1 ? iv : Value(arith::MulIOp::create(b, loc, iv, num.get(b, loc, w)));
    partial[d] = arith::AddIOp::create(b, loc, partial[d], step);
  }
  if (!bitFields) {
    if (toStorage) {
      Value x = memref::LoadOp::create(b, loc, logical, partial);
      x = convertElement(b, loc, x, storageElemTy, v.signExtend);
      memref::StoreOp::create(b, loc, x, view, ivs);
    } else {
      Value x = memref::LoadOp::create(b, loc, view, ivs);
      x = convertElement(b, loc, x, elemTy, v.signExtend);
      memref::StoreOp::create(b, loc, x, logical, partial);
    }
    return;
  }
  // Bit-packed words: one word per view position, one field per component.
  Type wordTy = storageElemTy;
  Value word = toStorage ? Value(arith::ConstantIntOp::create(b, loc, wordTy, 0))
                         : Value(memref::LoadOp::create(b, loc, view, ivs));
  for (const fmt::BitField &f : v.fields) {
    const int64_t channel = base[v.fieldDim] + f.channel;
    if (channel >= shape[v.fieldDim])
      continue;
    SmallVector<Value> index(partial);
    index[v.fieldDim] = num.get(b, loc, channel);
    Value mask = arith::ConstantIntOp::create(b, loc, wordTy, (int64_t(1) << f.bits) - 1);
    Value shift = arith::ConstantIntOp::create(b, loc, wordTy, f.bitOffset);
    if (toStorage) {
      Value x = memref::LoadOp::create(b, loc, logical, index);
      x = convertElement(b, loc, x, wordTy, /*signExtend=*/false);
      x = arith::AndIOp::create(b, loc, x, mask);
      x = arith::ShLIOp::create(b, loc, x, shift);
      word = arith::OrIOp::create(b, loc, word, x);
    } else {
      Value x = arith::ShRUIOp::create(b, loc, word, shift);
      x = arith::AndIOp::create(b, loc, x, mask);
      x = convertElement(b, loc, x, elemTy, false);
      memref::StoreOp::create(b, loc, x, logical, index);
    }
  }
  if (toStorage)
    memref::StoreOp::create(b, loc, word, view, ivs);
}

//===----------------------------------------------------------------------===//
// Fast paths: whole runs moved as vectors
//===----------------------------------------------------------------------===//

/// What the fast paths need of a view: the same element width on both sides,
/// an identity row-major logical memref, and the innermost (non-unit) view
/// dimension at storage stride 1 with weight 1. Then either
///  - contiguous: that dimension is a digit of the last logical dimension, so
///    each run is contiguous on both sides and moves as vectors (crouton,
///    depth32, any chunked layout keeping a pair of the last dimension
///    innermost);
///  - transpose: it is a digit of another logical dimension p (NVDLA atoms:
///    channels innermost, W last; conv_weight), and the weight-1 digit Q of
///    the last dimension exists: a tile of `a` logical rows x `t` columns is
///    read as `a` row vectors, transposed in registers and written as `t`
///    vectors of `a` (and back).
/// Everything else (bit fields, widening, no such digits) takes emitViewCopy.
struct FastPlan {
  bool transpose = false;
  SmallVector<int64_t> loops; // view dimensions with extent > 1, outermost first
  int64_t q = -1;             // transpose: the view dimension Q
  SmallVector<int64_t> base;
  SmallVector<bool> needClamp; // some position lies beyond the shape
};

std::optional<FastPlan> planFastCopy(MemRefType logicalType, const fmt::StorageView &v) {
  Type elemTy = logicalType.getElementType();
  if (!v.fields.empty() || !logicalType.hasStaticShape() ||
      !logicalType.getLayout().isIdentity() || !elemTy.isIntOrFloat() ||
      v.elementBytes * 8 != static_cast<int64_t>(elemTy.getIntOrFloatBitWidth()))
    return std::nullopt;
  ArrayRef<int64_t> shape = logicalType.getShape();
  const int64_t rank = shape.size();
  if (rank == 0 || llvm::is_contained(shape, 0))
    return std::nullopt;
  const auto &dims = v.view.dims;
  FastPlan plan;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k].extent <= 0)
      return std::nullopt;
    if (dims[k].extent != 1)
      plan.loops.push_back(k);
  }
  if (plan.loops.empty())
    return std::nullopt;
  plan.base.assign(rank, 0);
  for (size_t d = 0; d < v.logicalBase.size() && d < plan.base.size(); ++d)
    plan.base[d] = v.logicalBase[d];
  SmallVector<int64_t> maxIndex(plan.base);
  for (const fmt::StridedView::Dim &d : dims)
    maxIndex[d.logicalDim] += (d.extent - 1) * d.weight;
  for (int64_t d = 0; d < rank; ++d)
    plan.needClamp.push_back(maxIndex[d] >= shape[d]);
  const fmt::StridedView::Dim &in = dims[plan.loops.back()];
  if (in.stride != 1 || in.weight != 1)
    return std::nullopt;
  if (in.logicalDim == rank - 1)
    return plan;
  if (in.extent > 64)
    return std::nullopt;
  for (size_t k = 0; k + 1 < plan.loops.size(); ++k)
    if (dims[plan.loops[k]].logicalDim == rank - 1 && dims[plan.loops[k]].weight == 1)
      plan.q = plan.loops[k];
  if (plan.q < 0)
    return std::nullopt;
  plan.transpose = true;
  return plan;
}

Value addMul(OpBuilder &b, Location loc, Value acc, Value iv, int64_t mul, CopyNumbers &num) {
  if (mul == 0)
    return acc;
  Value term = mul == 1 ? iv : Value(arith::MulIOp::create(b, loc, iv, num.get(b, loc, mul)));
  return arith::AddIOp::create(b, loc, acc, term);
}

Value addConst(OpBuilder &b, Location loc, Value acc, int64_t c) {
  return c == 0 ? acc : Value(arith::AddIOp::create(b, loc, acc, cst(b, loc, c)));
}

/// clamp(limit - at, 0, extent): positions left along a digit.
Value leftAlong(OpBuilder &b, Location loc, Value limit, Value at, Value extent) {
  Value n = arith::SubIOp::create(b, loc, limit, at);
  n = arith::MinSIOp::create(b, loc, n, extent);
  return arith::MaxSIOp::create(b, loc, n, cst(b, loc, 0));
}

/// A loop from `lb` to `ub`; the builder is left inside its body.
Value openLoop(OpBuilder &b, Location loc, Value lb, Value ub) {
  auto loop = scf::ForOp::create(b, loc, lb, ub, cst(b, loc, 1));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  return loop.getInductionVar();
}

/// Where the fast paths are: the logical memref and its indices (`lIdx`),
/// the typed strided view and its indices (`sIdx`).
struct Places {
  Value logical, view;
  SmallVector<Value> lIdx, sIdx;
  /// The same places moved by `dl` along logical dimension `ld` and by `ds`
  /// along view dimension `sd`.
  Places moved(OpBuilder &b, Location loc, int64_t ld, Value dl, int64_t sd, Value ds) const {
    Places p = *this;
    p.lIdx[ld] = arith::AddIOp::create(b, loc, p.lIdx[ld], dl);
    p.sIdx[sd] = arith::AddIOp::create(b, loc, p.sIdx[sd], ds);
    return p;
  }
};

void moveScalar(OpBuilder &b, Location loc, const Places &at, bool toStorage) {
  if (toStorage)
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, at.logical, at.lIdx), at.view,
                            at.sIdx);
  else
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, at.view, at.sIdx),
                            at.logical, at.lIdx);
}

/// Moves `count` (<= extent) elements contiguous on both sides from `at`
/// along logical dimension `ld` and view dimension `sd`: vectors of up to 64
/// bytes, then scalars.
void emitContiguousRun(OpBuilder &b, Location loc, const Places &at, int64_t ld, int64_t sd,
                       Value count, int64_t extent, bool toStorage) {
  Type elemTy = cast<MemRefType>(at.logical.getType()).getElementType();
  const int64_t eb = elemTy.getIntOrFloatBitWidth() / 8;
  const int64_t vl = extent * eb <= 64 ? extent : 64 / eb;
  auto vecTy = VectorType::get({vl}, elemTy);
  Value full = arith::DivUIOp::create(b, loc, count, cst(b, loc, vl));
  {
    OpBuilder::InsertionGuard g(b);
    Value j = openLoop(b, loc, cst(b, loc, 0), full);
    Value off = arith::MulIOp::create(b, loc, j, cst(b, loc, vl));
    Places p = at.moved(b, loc, ld, off, sd, off);
    if (toStorage)
      vector::StoreOp::create(b, loc, vector::LoadOp::create(b, loc, vecTy, p.logical, p.lIdx),
                              p.view, p.sIdx);
    else
      vector::StoreOp::create(b, loc, vector::LoadOp::create(b, loc, vecTy, p.view, p.sIdx),
                              p.logical, p.lIdx);
  }
  OpBuilder::InsertionGuard g(b);
  Value j = openLoop(b, loc, arith::MulIOp::create(b, loc, full, cst(b, loc, vl)), count);
  moveScalar(b, loc, at.moved(b, loc, ld, j, sd, j), toStorage);
}

/// Transposes the n x n block held in `rows` (n vectors of n, n a power of
/// two) in place: log2(n) rounds pairing vector k with k + n/2 and
/// interleaving their low / high halves (a perfect shuffle of the index
/// bits). On 16-byte vectors each shuffle is one unpack instruction.
void transposeBlock(OpBuilder &b, Location loc, SmallVectorImpl<Value> &rows) {
  const int64_t n = rows.size();
  SmallVector<int64_t> lo, hi;
  for (int64_t k = 0; k < n / 2; ++k) {
    lo.append({k, n + k});
    hi.append({n / 2 + k, n + n / 2 + k});
  }
  for (int64_t round = 1; round < n; round *= 2) {
    SmallVector<Value> next;
    for (int64_t k = 0; k < n / 2; ++k) {
      next.push_back(vector::ShuffleOp::create(b, loc, rows[k], rows[k + n / 2], lo));
      next.push_back(vector::ShuffleOp::create(b, loc, rows[k], rows[k + n / 2], hi));
    }
    rows.assign(next.begin(), next.end());
  }
}

/// The shape of one transpose tile: `a` logical rows along p (view
/// dimension `inner`, storage-contiguous) x `t` columns along the last
/// logical dimension (view dimension `q`).
struct TileShape {
  int64_t p, last, inner, q, a, t;
  bool blocks; // n x n blocks with n = t (else one vector.transpose)
};

/// One tile from `at`. `masked`: rows from `rows` (dynamic) on read as zeros
/// (padding) and are not written back.
void emitTile(OpBuilder &b, Location loc, const Places &at, const TileShape &s, Value rows,
              bool masked, bool toStorage) {
  Type elemTy = cast<MemRefType>(at.logical.getType()).getElementType();
  // Shuffles on integers: no float semantics in the way.
  Type intTy = b.getIntegerType(elemTy.getIntOrFloatBitWidth());
  const int64_t n = s.blocks ? s.t : s.a; // rows per block
  auto rowTy = VectorType::get({s.t}, elemTy), rowIntTy = VectorType::get({s.t}, intTy);
  auto colTy = VectorType::get({n}, elemTy), colIntTy = VectorType::get({n}, intTy);
  auto toInt = [&](OpBuilder &ib, Value x, VectorType ty) {
    return elemTy == intTy ? x : Value(vector::BitCastOp::create(ib, loc, ty, x));
  };
  auto fromInt = [&](OpBuilder &ib, Value x, VectorType ty) {
    return elemTy == intTy ? x : Value(vector::BitCastOp::create(ib, loc, ty, x));
  };
  auto rowAt = [&](OpBuilder &ib, int64_t i) { // logical row i, column 0
    Places p = at;
    p.lIdx[s.p] = addConst(ib, loc, p.lIdx[s.p], i);
    return p;
  };
  auto colAt = [&](OpBuilder &ib, int64_t j, int64_t r) { // column j from row r
    Places p = at;
    p.sIdx[s.q] = addConst(ib, loc, p.sIdx[s.q], j);
    p.sIdx[s.inner] = addConst(ib, loc, p.sIdx[s.inner], r);
    return p;
  };
  auto rowValid = [&](int64_t i) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, cst(b, loc, i), rows)
        .getResult();
  };
  // Row vectors [r0, r0 + n), transposed into n column pieces of ... and back.
  auto transposed = [&](SmallVector<Value> vecs, int64_t count, int64_t len) {
    if (s.blocks) {
      transposeBlock(b, loc, vecs);
      return vecs;
    }
    auto inTy = VectorType::get({count, len}, intTy);
    Value m = arith::ConstantOp::create(b, loc, inTy, b.getZeroAttr(inTy));
    for (int64_t i = 0; i < count; ++i)
      m = vector::InsertOp::create(b, loc, vecs[i], m, ArrayRef<int64_t>{i});
    Value tr = vector::TransposeOp::create(b, loc, m, ArrayRef<int64_t>{1, 0});
    SmallVector<Value> out;
    for (int64_t j = 0; j < len; ++j)
      out.push_back(vector::ExtractOp::create(b, loc, tr, ArrayRef<int64_t>{j}));
    return out;
  };
  for (int64_t r0 = 0; r0 < s.a; r0 += n) {
    SmallVector<Value> vecs;
    if (toStorage) {
      for (int64_t i = r0; i < r0 + n; ++i) {
        auto load = [&](OpBuilder &ib, Location l) {
          Places p = rowAt(ib, i);
          return toInt(ib, vector::LoadOp::create(ib, l, rowTy, p.logical, p.lIdx), rowIntTy);
        };
        if (!masked) {
          vecs.push_back(load(b, loc));
          continue;
        }
        auto ifOp = scf::IfOp::create(
            b, loc, rowValid(i),
            [&](OpBuilder &ib, Location l) { scf::YieldOp::create(ib, l, load(ib, l)); },
            [&](OpBuilder &ib, Location l) {
              scf::YieldOp::create(ib, l,
                                   Value(arith::ConstantOp::create(ib, l, rowIntTy,
                                                                   ib.getZeroAttr(rowIntTy))));
            });
        vecs.push_back(ifOp.getResult(0));
      }
      SmallVector<Value> cols = transposed(vecs, n, s.t);
      for (int64_t j = 0; j < s.t; ++j) {
        Places p = colAt(b, j, r0);
        vector::StoreOp::create(b, loc, fromInt(b, cols[j], colTy), p.view, p.sIdx);
      }
      continue;
    }
    for (int64_t j = 0; j < s.t; ++j) {
      Places p = colAt(b, j, r0);
      vecs.push_back(toInt(b, vector::LoadOp::create(b, loc, colTy, p.view, p.sIdx), colIntTy));
    }
    SmallVector<Value> rowVecs = transposed(vecs, s.t, n);
    for (int64_t i = 0; i < n; ++i) {
      auto store = [&](OpBuilder &ib, Location l) {
        Places p = rowAt(ib, r0 + i);
        vector::StoreOp::create(ib, l, fromInt(ib, rowVecs[i], rowTy), p.logical, p.lIdx);
      };
      if (!masked) {
        store(b, loc);
        continue;
      }
      OpBuilder::InsertionGuard g(b);
      auto ifOp = scf::IfOp::create(b, loc, rowValid(r0 + i), /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      store(b, loc);
    }
  }
}

/// The fast paths (see FastPlan) on the typed strided view of `v`; false
/// when the view does not fit them.
bool emitFastViewCopy(OpBuilder &b, Location loc, Value logical, Value bytes,
                      const fmt::StorageView &v, bool toStorage, CopyNumbers &num) {
  MemRefType logicalType = num.logicalType;
  std::optional<FastPlan> plan = planFastCopy(logicalType, v);
  if (!plan)
    return false;
  // A shared function bounds every dimension: any shape may need it.
  if (num.areArguments())
    plan->needClamp.assign(plan->needClamp.size(), true);
  ArrayRef<int64_t> shape = logicalType.getShape();
  const int64_t rank = shape.size(), last = rank - 1;
  const auto &dims = v.view.dims;
  const int64_t inner = plan->loops.back();
  const int64_t p = dims[inner].logicalDim;
  // Logical dimensions whose positions the innermost code bounds itself.
  auto innerBounded = [&](int64_t d) { return d == last || (plan->transpose && d == p); };
  SmallVector<int64_t> lastOuter(rank, -1);
  for (int64_t k : plan->loops)
    if (k != inner && k != plan->q)
      lastOuter[dims[k].logicalDim] = k;
  for (int64_t d = 0; d < rank; ++d)
    if (lastOuter[d] < 0 && !innerBounded(d) && plan->base[d] >= shape[d])
      return true; // the view holds a component this shape does not have

  OpBuilder::InsertionGuard guard(b);
  Places at;
  at.logical = logical;
  at.view = makeCopyView(b, loc, bytes, v, logicalType.getElementType(), num);
  for (int64_t d = 0; d < rank; ++d)
    at.lIdx.push_back(num.get(b, loc, plan->base[d]));
  at.sIdx.assign(dims.size(), cst(b, loc, 0));
  for (int64_t k : plan->loops) {
    if (k == inner || k == plan->q)
      continue;
    const fmt::StridedView::Dim &dim = dims[k];
    const int64_t d = dim.logicalDim;
    Value ub = num.get(b, loc, dim.extent);
    if (plan->needClamp[d] && !innerBounded(d) && lastOuter[d] == k) {
      Value rem = arith::SubIOp::create(b, loc, num.get(b, loc, shape[d]), at.lIdx[d]);
      Value n = arith::CeilDivSIOp::create(b, loc, rem, num.get(b, loc, dim.weight));
      n = arith::MinSIOp::create(b, loc, n, ub);
      ub = arith::MaxSIOp::create(b, loc, n, cst(b, loc, 0));
    }
    Value iv = openLoop(b, loc, cst(b, loc, 0), ub);
    at.sIdx[k] = iv;
    at.lIdx[d] = addMul(b, loc, at.lIdx[d], iv, dim.weight, num);
  }

  const fmt::StridedView::Dim &in = dims[inner];
  if (!plan->transpose) {
    Value count = plan->needClamp[last]
                      ? leftAlong(b, loc, num.get(b, loc, shape[last]), at.lIdx[last],
                                  num.get(b, loc, in.extent))
                      : num.get(b, loc, in.extent);
    emitContiguousRun(b, loc, at, last, inner, count, in.extent, toStorage);
    return true;
  }

  // Transpose: tiles of a rows (p) x t columns (Q). Square n x n blocks of
  // 16-byte vectors when the atom is a power of two and Q has n columns;
  // otherwise one vector.transpose per tile.
  const fmt::StridedView::Dim &qd = dims[plan->q];
  TileShape s;
  s.p = p;
  s.last = last;
  s.inner = inner;
  s.q = plan->q;
  s.a = in.extent;
  const int64_t n = std::min<int64_t>(s.a, std::max<int64_t>(2, 16 / v.elementBytes));
  s.blocks = llvm::isPowerOf2_64(s.a) && s.a % n == 0 && qd.extent >= n;
  s.t = s.blocks ? n : std::min(s.a, qd.extent);
  // s.a is the tile's height (vector lengths): never an argument.
  Value rows = plan->needClamp[p]
                   ? leftAlong(b, loc, num.get(b, loc, shape[p]), at.lIdx[p], cst(b, loc, s.a))
                   : cst(b, loc, s.a);
  Value cols = plan->needClamp[last]
                   ? leftAlong(b, loc, num.get(b, loc, shape[last]), at.lIdx[last],
                               num.get(b, loc, qd.extent))
                   : num.get(b, loc, qd.extent);
  auto emitScalar = [&](OpBuilder &ib, Location l) {
    OpBuilder::InsertionGuard g(ib);
    Value j = openLoop(ib, l, cst(ib, l, 0), cols);
    Value i = openLoop(ib, l, cst(ib, l, 0), rows);
    Places e = at.moved(ib, l, last, j, plan->q, j).moved(ib, l, p, i, inner, i);
    moveScalar(ib, l, e, toStorage);
  };
  auto emitTiles = [&](OpBuilder &ib, Location l) {
    OpBuilder::InsertionGuard g(ib);
    // Tiles of t columns; the last one ends at `cols` (overlapping its
    // predecessor when t does not divide cols: the same bytes again).
    Value nt = arith::CeilDivSIOp::create(ib, l, cols, cst(ib, l, s.t));
    Value j = openLoop(ib, l, cst(ib, l, 0), nt);
    Value j0 = arith::MinSIOp::create(ib, l, arith::MulIOp::create(ib, l, j, cst(ib, l, s.t)),
                                      arith::SubIOp::create(ib, l, cols, cst(ib, l, s.t)));
    Places tileAt = at.moved(ib, l, last, j0, plan->q, j0);
    if (!plan->needClamp[p]) {
      emitTile(ib, l, tileAt, s, rows, /*masked=*/false, toStorage);
      return;
    }
    Value full = arith::CmpIOp::create(ib, l, arith::CmpIPredicate::eq, rows, cst(ib, l, s.a));
    scf::IfOp::create(
        ib, l, full,
        [&](OpBuilder &tb, Location tl) {
          emitTile(tb, tl, tileAt, s, rows, /*masked=*/false, toStorage);
          scf::YieldOp::create(tb, tl);
        },
        [&](OpBuilder &tb, Location tl) {
          emitTile(tb, tl, tileAt, s, rows, /*masked=*/true, toStorage);
          scf::YieldOp::create(tb, tl);
        });
  };
  if (!plan->needClamp[last]) {
    emitTiles(b, loc); // qd.extent >= t columns everywhere
    return true;
  }
  Value wide = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, cols, cst(b, loc, s.t));
  scf::IfOp::create(
      b, loc, wide,
      [&](OpBuilder &ib, Location l) {
        emitTiles(ib, l);
        scf::YieldOp::create(ib, l);
      },
      [&](OpBuilder &ib, Location l) {
        emitScalar(ib, l);
        scf::YieldOp::create(ib, l);
      });
  return true;
}

/// Layouts that are no set of strided views (most NVDLA weights): a table of
/// every element's byte offset, asked from the layout at compile time.
void emitTableCopy(OpBuilder &b, Location loc, ModuleOp module, const fmt::BoundLayout &layout,
                   Value logical, Value bytes, bool toStorage) {
  auto logicalType = cast<MemRefType>(logical.getType());
  const int64_t n = layout.getNumElements();
  const bool wide = layout.getStorageBytes() > std::numeric_limits<int32_t>::max();
  Type offTy = wide ? b.getI64Type() : b.getI32Type();
  std::vector<int64_t> index(logicalType.getRank(), 0);
  SmallVector<APInt> offsets;
  offsets.reserve(n);
  for (int64_t e = 0; e < n; ++e) {
    offsets.push_back(APInt(wide ? 64 : 32, *layout.getByteOffset(index), true));
    for (int64_t d = logicalType.getRank() - 1; d >= 0; --d) {
      if (++index[d] < logicalType.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  auto tableTensor = RankedTensorType::get({n}, offTy);
  auto tableType = MemRefType::get({n}, offTy);
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  auto global = memref::GlobalOp::create(mb, loc, uniqueSymbol(module, "__dla_offsets"), mb.getStringAttr("private"),
                                         tableType, DenseElementsAttr::get(tableTensor, offsets),
                                         /*constant=*/true, IntegerAttr());
  Value table = memref::GetGlobalOp::create(b, loc, tableType, global.getSymName());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < logicalType.getRank(); ++d)
    all[0].push_back(d);
  Value flat = logicalType.getRank() == 1
                   ? logical
                   : Value(memref::CollapseShapeOp::create(b, loc, logical, all));
  if (logicalType.getRank() == 0)
    flat = memref::ExpandShapeOp::create(b, loc, MemRefType::get({1}, logicalType.getElementType()),
                                         logical, ArrayRef<ReassociationIndices>{},
                                         ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  OpBuilder::InsertionGuard guard(b);
  auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, n), cst(b, loc, 1));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  Value off = memref::LoadOp::create(b, loc, table, i);
  off = arith::IndexCastOp::create(b, loc, b.getIndexType(), off);
  Value at = memref::ViewOp::create(b, loc, MemRefType::get({}, logicalType.getElementType()),
                                    bytes, off, ValueRange{});
  if (toStorage)
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, flat, i), at, ValueRange{});
  else
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, at, ValueRange{}), flat, i);
}

/// Whether the views write every storage byte: no padding, no gaps (views of
/// one layout never overlap, each storage element holds one logical element).
bool viewsCoverStorage(const fmt::BoundLayout &layout) {
  fmt::StorageDescription desc = layout.describeStorage();
  if (desc.views.empty())
    return false;
  const std::vector<int64_t> &shape = layout.getShape();
  int64_t covered = 0;
  for (const fmt::StorageView &v : desc.views) {
    if (!v.fields.empty())
      return false;
    std::vector<int64_t> maxIndex(shape.size(), 0);
    for (size_t d = 0; d < v.logicalBase.size() && d < shape.size(); ++d)
      maxIndex[d] = v.logicalBase[d];
    int64_t positions = 1;
    for (const fmt::StridedView::Dim &d : v.view.dims) {
      maxIndex[d.logicalDim] += (d.extent - 1) * d.weight;
      positions *= d.extent;
    }
    for (size_t d = 0; d < shape.size(); ++d)
      if (maxIndex[d] >= shape[d])
        return false;
    covered += positions * v.elementBytes;
  }
  return covered == layout.getStorageBytes();
}

} // namespace

/// Binds a type already checked by checkModule.
std::unique_ptr<fmt::BoundLayout> bindChecked(RankedTensorType type) {
  auto bound = bindTensorLayout(type, [&] {
    return mlir::emitError(UnknownLoc::get(type.getContext()));
  });
  return failed(bound) ? nullptr : std::move(*bound);
}

/// `base`, or `base_N` for the first N that names no symbol of `module`.
std::string uniqueSymbol(ModuleOp module, StringRef base) {
  std::string name = base.str();
  for (int i = 0; module.lookupSymbol(name); ++i)
    name = (base + "_" + Twine(i)).str();
  return name;
}

/// The typed strided view `v` of the byte buffer `bytes`, typed as
/// getStorageViewType says for data of `logicalElem`.
Value makeView(OpBuilder &b, Location loc, Value bytes, const fmt::StorageView &v,
               Type logicalElem) {
  MemRefType type = getStorageViewType(v, logicalElem);
  auto byteType = cast<MemRefType>(bytes.getType());
  const int64_t n = byteType.getDimSize(0) / v.elementBytes;
  Value flat = memref::ViewOp::create(b, loc, MemRefType::get({n}, type.getElementType()), bytes,
                                      cst(b, loc, 0), ValueRange{});
  auto [strides, offset] = type.getStridesAndOffset();
  return memref::ReinterpretCastOp::create(b, loc, type, flat, offset, type.getShape(), strides);
}

/// Every view of `desc` copied: the fast paths where they apply.
static void emitViewCopies(OpBuilder &b, Location loc, const fmt::StorageDescription &desc,
                           Value logical, Value bytes, bool toStorage, CopyNumbers &num) {
  for (const fmt::StorageView &v : desc.views)
    if (!emitFastViewCopy(b, loc, logical, bytes, v, toStorage, num))
      emitViewCopy(b, loc, logical, bytes, v, toStorage, num);
}

/// Moves all elements between `logical` and the storage `bytes` of `type`.
void emitCopy(OpBuilder &b, Location loc, ModuleOp module, RankedTensorType type, Value logical,
              Value bytes, bool toStorage) {
  std::unique_ptr<fmt::BoundLayout> layout = bindChecked(type);
  fmt::StorageDescription desc = layout->describeStorage();
  if (desc.views.empty()) {
    emitTableCopy(b, loc, module, *layout, logical, bytes, toStorage);
    return;
  }
  CopyNumbers num(cast<MemRefType>(logical.getType()),
                  cast<MemRefType>(bytes.getType()).getDimSize(0));
  emitViewCopies(b, loc, desc, logical, bytes, toStorage, num);
}

void CopyFunctions::emitCall(OpBuilder &b, Location loc, RankedTensorType type, Value logical,
                             Value bytes, bool toStorage) {
  MLIRContext *ctx = b.getContext();
  auto logicalType = cast<MemRefType>(logical.getType());
  auto bytesType = cast<MemRefType>(bytes.getType());
  std::string typeKey;
  llvm::raw_string_ostream(typeKey) << (toStorage ? "pack " : "unpack ") << type << " "
                                    << logicalType << " " << bytesType;
  auto [site, fresh] = byType.try_emplace(typeKey);
  if (fresh) {
    std::unique_ptr<fmt::BoundLayout> layout = bindChecked(type);
    fmt::StorageDescription desc = layout->describeStorage();
    // Views of static buffers take the shape's numbers as arguments; a
    // table of offsets is one type's own (a function per type).
    site->second.shared = !desc.views.empty() && logicalType.hasStaticShape() &&
                          logicalType.getLayout().isIdentity() && bytesType.hasStaticShape() &&
                          bytesType.getLayout().isIdentity();
    const bool shared = site->second.shared;
    Type fnLogical = logicalType, fnBytes = bytesType;
    if (shared) {
      fnLogical = MemRefType::get(
          SmallVector<int64_t>(logicalType.getRank(), ShapedType::kDynamic),
          logicalType.getElementType());
      fnBytes = MemRefType::get({ShapedType::kDynamic}, bytesType.getElementType());
    }
    auto candidate = func::FuncOp::create(loc, kRelayoutFunction,
                                          FunctionType::get(ctx, {fnLogical, fnBytes}, {}));
    Block *entry = candidate.addEntryBlock();
    OpBuilder fb = OpBuilder::atBlockBegin(entry);
    func::ReturnOp::create(fb, loc);
    fb.setInsertionPointToStart(entry);
    std::string key = typeKey;
    if (shared) {
      CopyNumbers num(logicalType, bytesType.getDimSize(0), entry);
      emitViewCopies(fb, loc, desc, entry->getArgument(0), entry->getArgument(1), toStorage, num);
      site->second.values.assign(num.getValues().begin(), num.getValues().end());
      candidate.setFunctionType(FunctionType::get(ctx, entry->getArgumentTypes(), {}));
      // The printed function is the key: equal text, equal loops.
      key.clear();
      llvm::raw_string_ostream os(key);
      candidate->print(os);
    } else {
      emitCopy(fb, loc, module, type, entry->getArgument(0), entry->getArgument(1), toStorage);
    }
    func::FuncOp &fn = functions[key];
    if (fn) {
      candidate->erase();
    } else {
      candidate.setSymName(uniqueSymbol(module, kRelayoutFunction));
      candidate.setPrivate();
      candidate.setNoInline(true);
      module.push_back(candidate);
      fn = candidate;
    }
    site->second.function = fn;
  }
  Site &s = site->second;
  SmallVector<Value> operands{logical, bytes};
  if (s.shared) {
    FunctionType fnType = s.function.getFunctionType();
    operands[0] = memref::CastOp::create(b, loc, fnType.getInput(0), logical);
    operands[1] = memref::CastOp::create(b, loc, fnType.getInput(1), bytes);
  }
  for (int64_t v : s.values)
    operands.push_back(cst(b, loc, v));
  auto call = func::CallOp::create(b, loc, s.function, operands);
  call.setNoInline(true);
}

int64_t getAlignment(RankedTensorType type) {
  // The encoding's storage description: also for Winograd weights, which
  // have no bound layout.
  return cast<LayoutEncodingAttr>(type.getEncoding())
      .getStorageDescription(type.getShape(), type.getElementType(),
                             [] { return InFlightDiagnostic(); })
      ->buffers.front()
      .alignment;
}

/// An aligned storage buffer for `type`, zeroed (the padding contract)
/// unless the views write every byte anyway.
Value allocStorage(OpBuilder &b, Location loc, RankedTensorType type) {
  std::unique_ptr<fmt::BoundLayout> layout = bindChecked(type);
  auto memType = MemRefType::get({layout->getStorageBytes()}, b.getI8Type());
  Value buf = memref::AllocOp::create(b, loc, memType, ValueRange{},
                                      b.getI64IntegerAttr(getAlignment(type)));
  if (viewsCoverStorage(*layout))
    return buf;
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{buf});
  return buf;
}

} // namespace mlir::dla
