//===- StorageCopy.cpp - Code that moves elements into storage -----------===//
//
// The loops --dla-lower-to-memref emits for a relayout: every element moved
// between a row-major buffer and the typed strided views the format library
// describes (StorageDescription), or, for layouts with no strided view, a
// compile-time table of byte offsets asked from the layout.
//
//===----------------------------------------------------------------------===//

#include "StorageCopy.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/StorageDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
                  const fmt::StorageView &v, bool toStorage) {
  auto logicalType = cast<MemRefType>(logical.getType());
  ArrayRef<int64_t> shape = logicalType.getShape();
  Type elemTy = logicalType.getElementType();
  const int64_t rank = shape.size();
  const bool bitFields = !v.fields.empty();
  Type storageElemTy = elemTy;
  if (bitFields || v.elementBytes * 8 != static_cast<int64_t>(elemTy.getIntOrFloatBitWidth()))
    storageElemTy = b.getIntegerType(v.elementBytes * 8);
  Value view = makeView(b, loc, bytes, v, storageElemTy);

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
    partial[d] = cst(b, loc, base[d]);
  SmallVector<Value> ivs;
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t d = dims[k].logicalDim, w = dims[k].weight;
    Value ub = cst(b, loc, dims[k].extent);
    if (lastLoop[d] == static_cast<int64_t>(k) && maxIndex[d] >= shape[d]) {
      // ub = clamp(ceil((shape[d] - partial[d]) / w), 0, extent)
      Value rem = arith::SubIOp::create(b, loc, cst(b, loc, shape[d]), partial[d]);
      Value n = arith::CeilDivSIOp::create(b, loc, rem, cst(b, loc, w));
      n = arith::MinSIOp::create(b, loc, n, ub);
      ub = arith::MaxSIOp::create(b, loc, n, cst(b, loc, 0));
    }
    auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0), ub, cst(b, loc, 1));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value iv = loop.getInductionVar();
    ivs.push_back(iv);
    Value step = w == 1 ? iv : Value(arith::MulIOp::create(b, loc, iv, cst(b, loc, w)));
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
    index[v.fieldDim] = cst(b, loc, channel);
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

/// What the fast paths need of a view: same element width on both sides, an
/// identity row-major logical memref, and the innermost view dimension at
/// storage stride 1 with weight 1. Then either
///  - Contiguous: that dimension is a digit of the last logical dimension, so
///    each run is contiguous on both sides and moves as vectors (crouton,
///    depth32, any chunked layout keeping the innermost pair last);
///  - Transpose: it is a digit of another logical dimension p (NVDLA atoms:
///    channels innermost, logical W last), and the weight-1 digit Q of the last
///    dimension exists: a tile of `a` logical rows x `t` columns is read as
///    `a` vectors, transposed, and written as `t` vectors of `a` (and back).
/// Everything else (bit fields, widening, other shapes) takes emitViewCopy.
struct FastPlan {
  bool transpose = false;
  SmallVector<fmt::StridedView::Dim> dims; // unit extents dropped
  int64_t q = -1;                          // Transpose: index of Q in dims
  SmallVector<int64_t> base, logicalStride;
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
  FastPlan plan;
  for (const fmt::StridedView::Dim &d : v.view.dims) {
    if (d.extent <= 0)
      return std::nullopt;
    if (d.extent != 1)
      plan.dims.push_back(d);
  }
  if (plan.dims.empty())
    return std::nullopt;
  plan.base.assign(rank, 0);
  for (size_t d = 0; d < v.logicalBase.size() && d < plan.base.size(); ++d)
    plan.base[d] = v.logicalBase[d];
  plan.logicalStride.assign(rank, 1);
  for (int64_t d = rank - 1; d > 0; --d)
    plan.logicalStride[d - 1] = plan.logicalStride[d] * shape[d];
  SmallVector<int64_t> maxIndex(plan.base);
  for (const fmt::StridedView::Dim &d : plan.dims)
    maxIndex[d.logicalDim] += (d.extent - 1) * d.weight;
  for (int64_t d = 0; d < rank; ++d)
    plan.needClamp.push_back(maxIndex[d] >= shape[d]);
  const fmt::StridedView::Dim &in = plan.dims.back();
  if (in.stride != 1 || in.weight != 1)
    return std::nullopt;
  if (in.logicalDim == rank - 1)
    return plan;
  if (in.extent > 64)
    return std::nullopt;
  for (size_t k = 0; k + 1 < plan.dims.size(); ++k)
    if (plan.dims[k].logicalDim == rank - 1 && plan.dims[k].weight == 1)
      plan.q = k;
  if (plan.q < 0)
    return std::nullopt;
  plan.transpose = true;
  return plan;
}

Value addMul(OpBuilder &b, Location loc, Value acc, Value iv, int64_t mul) {
  if (mul == 0)
    return acc;
  Value term = mul == 1 ? iv : Value(arith::MulIOp::create(b, loc, iv, cst(b, loc, mul)));
  return arith::AddIOp::create(b, loc, acc, term);
}

/// clamp(limit - at, 0, extent): positions left along a digit.
Value leftAlong(OpBuilder &b, Location loc, int64_t limit, Value at, int64_t extent) {
  Value n = arith::SubIOp::create(b, loc, cst(b, loc, limit), at);
  n = arith::MinSIOp::create(b, loc, n, cst(b, loc, extent));
  return arith::MaxSIOp::create(b, loc, n, cst(b, loc, 0));
}

/// A loop from `lb` to `ub`; the builder is left inside its body.
Value openLoop(OpBuilder &b, Location loc, Value lb, Value ub) {
  auto loop = scf::ForOp::create(b, loc, lb, ub, cst(b, loc, 1));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  return loop.getInductionVar();
}

/// Moves `count` (<= extent) contiguous elements between logical[lOff..] and
/// storage[sOff..]: vectors of up to 64 bytes, then scalars.
void emitContiguousRun(OpBuilder &b, Location loc, Value lFlat, Value sFlat, Value lOff,
                       Value sOff, Value count, int64_t extent, bool toStorage) {
  auto elemTy = cast<MemRefType>(lFlat.getType()).getElementType();
  const int64_t eb = elemTy.getIntOrFloatBitWidth() / 8;
  const int64_t vl = extent * eb <= 64 ? extent : 64 / eb;
  auto vecTy = VectorType::get({vl}, elemTy);
  Value src = toStorage ? lFlat : sFlat, dst = toStorage ? sFlat : lFlat;
  Value srcOff = toStorage ? lOff : sOff, dstOff = toStorage ? sOff : lOff;
  Value full = arith::DivUIOp::create(b, loc, count, cst(b, loc, vl));
  {
    OpBuilder::InsertionGuard g(b);
    Value j = openLoop(b, loc, cst(b, loc, 0), full);
    Value at = arith::MulIOp::create(b, loc, j, cst(b, loc, vl));
    Value x = vector::LoadOp::create(b, loc, vecTy, src,
                                     ValueRange{arith::AddIOp::create(b, loc, srcOff, at)});
    vector::StoreOp::create(b, loc, x, dst, ValueRange{arith::AddIOp::create(b, loc, dstOff, at)});
  }
  OpBuilder::InsertionGuard g(b);
  Value j = openLoop(b, loc, arith::MulIOp::create(b, loc, full, cst(b, loc, vl)), count);
  Value x = memref::LoadOp::create(b, loc, src, ValueRange{arith::AddIOp::create(b, loc, srcOff, j)});
  memref::StoreOp::create(b, loc, x, dst, ValueRange{arith::AddIOp::create(b, loc, dstOff, j)});
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

/// One a x n tile of the Transpose path by n x n blocks (a a multiple of n,
/// n a power of two): logical rows (p) at lOff + i * rowStep, n columns (Q)
/// contiguous from lOff; storage column j at sOff + j * qStride, its a rows
/// contiguous. `masked`: rows from `rows` (dynamic) on read as zeros
/// (padding) and are not written back.
void emitBlockTile(OpBuilder &b, Location loc, Value lFlat, Value sFlat, Value lOff, Value sOff,
                   int64_t a, int64_t n, int64_t rowStep, int64_t qStride, Value rows,
                   bool masked, bool toStorage) {
  Type elemTy = cast<MemRefType>(lFlat.getType()).getElementType();
  Type intTy = cast<MemRefType>(sFlat.getType()).getElementType();
  auto rowTy = VectorType::get({n}, elemTy), vecTy = VectorType::get({n}, intTy);
  auto rowOff = [&](OpBuilder &ib, int64_t i) {
    return arith::AddIOp::create(ib, loc, lOff, cst(ib, loc, i * rowStep)).getResult();
  };
  auto colOff = [&](int64_t j, int64_t blk) {
    return arith::AddIOp::create(b, loc, sOff, cst(b, loc, j * qStride + blk * n)).getResult();
  };
  auto rowValid = [&](int64_t i) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, cst(b, loc, i), rows)
        .getResult();
  };
  for (int64_t blk = 0; blk < a / n; ++blk) {
    SmallVector<Value> block;
    if (toStorage) {
      for (int64_t i = blk * n; i < blk * n + n; ++i) {
        auto load = [&](OpBuilder &ib, Location l) {
          Value x = vector::LoadOp::create(ib, l, rowTy, lFlat, ValueRange{rowOff(ib, i)});
          if (elemTy != intTy)
            x = vector::BitCastOp::create(ib, l, vecTy, x);
          return x;
        };
        if (!masked) {
          block.push_back(load(b, loc));
          continue;
        }
        auto ifOp = scf::IfOp::create(
            b, loc, rowValid(i),
            [&](OpBuilder &ib, Location l) { scf::YieldOp::create(ib, l, load(ib, l)); },
            [&](OpBuilder &ib, Location l) {
              scf::YieldOp::create(
                  ib, l, Value(arith::ConstantOp::create(ib, l, vecTy, ib.getZeroAttr(vecTy))));
            });
        block.push_back(ifOp.getResult(0));
      }
      transposeBlock(b, loc, block);
      for (int64_t j = 0; j < n; ++j)
        vector::StoreOp::create(b, loc, block[j], sFlat, ValueRange{colOff(j, blk)});
      continue;
    }
    for (int64_t j = 0; j < n; ++j)
      block.push_back(vector::LoadOp::create(b, loc, vecTy, sFlat, ValueRange{colOff(j, blk)}));
    transposeBlock(b, loc, block);
    for (int64_t i = 0; i < n; ++i) {
      auto store = [&](OpBuilder &ib, Location l) {
        Value row = block[i];
        if (elemTy != intTy)
          row = vector::BitCastOp::create(ib, l, rowTy, row);
        vector::StoreOp::create(ib, l, row, lFlat, ValueRange{rowOff(ib, blk * n + i)});
      };
      if (!masked) {
        store(b, loc);
        continue;
      }
      OpBuilder::InsertionGuard g(b);
      auto ifOp = scf::IfOp::create(b, loc, rowValid(blk * n + i), /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      store(b, loc);
    }
  }
}

/// One a x t tile of the Transpose path: logical rows (p) lOff + i * rowStep,
/// columns (Q) contiguous from lOff; storage column j at sOff + j * qStride,
/// its a rows contiguous. `rows` (dynamic) < a only when `masked`: missing
/// rows read as zeros (padding) and are not written back.
void emitTile(OpBuilder &b, Location loc, Value lFlat, Value sFlat, Value lOff, Value sOff,
              int64_t a, int64_t t, int64_t rowStep, int64_t qStride, Value rows, bool masked,
              bool toStorage) {
  Type elemTy = cast<MemRefType>(lFlat.getType()).getElementType();
  Type intTy = cast<MemRefType>(sFlat.getType()).getElementType();
  auto rowTy = VectorType::get({t}, elemTy), rowIntTy = VectorType::get({t}, intTy);
  auto colTy = VectorType::get({a}, intTy);
  auto byRow = VectorType::get({a, t}, intTy), byCol = VectorType::get({t, a}, intTy);
  auto rowOff = [&](int64_t i) {
    return arith::AddIOp::create(b, loc, lOff, cst(b, loc, i * rowStep)).getResult();
  };
  auto colOff = [&](int64_t j) {
    return arith::AddIOp::create(b, loc, sOff, cst(b, loc, j * qStride)).getResult();
  };
  auto rowValid = [&](int64_t i) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, cst(b, loc, i), rows)
        .getResult();
  };
  if (toStorage) {
    Value tile = arith::ConstantOp::create(b, loc, byRow, b.getZeroAttr(byRow));
    for (int64_t i = 0; i < a; ++i) {
      auto load = [&](OpBuilder &ib, Location l) {
        Value x = vector::LoadOp::create(ib, l, rowTy, lFlat, ValueRange{rowOff(i)});
        if (elemTy != intTy)
          x = vector::BitCastOp::create(ib, l, rowIntTy, x);
        return x;
      };
      Value row;
      if (masked) {
        auto ifOp = scf::IfOp::create(
            b, loc, rowValid(i),
            [&](OpBuilder &ib, Location l) { scf::YieldOp::create(ib, l, load(ib, l)); },
            [&](OpBuilder &ib, Location l) {
              scf::YieldOp::create(
                  ib, l, Value(arith::ConstantOp::create(ib, l, rowIntTy, ib.getZeroAttr(rowIntTy))));
            });
        row = ifOp.getResult(0);
      } else {
        row = load(b, loc);
      }
      tile = vector::InsertOp::create(b, loc, row, tile, ArrayRef<int64_t>{i});
    }
    Value tr = vector::TransposeOp::create(b, loc, tile, ArrayRef<int64_t>{1, 0});
    for (int64_t j = 0; j < t; ++j) {
      Value col = vector::ExtractOp::create(b, loc, tr, ArrayRef<int64_t>{j});
      vector::StoreOp::create(b, loc, col, sFlat, ValueRange{colOff(j)});
    }
    return;
  }
  Value tile = arith::ConstantOp::create(b, loc, byCol, b.getZeroAttr(byCol));
  for (int64_t j = 0; j < t; ++j) {
    Value col = vector::LoadOp::create(b, loc, colTy, sFlat, ValueRange{colOff(j)});
    tile = vector::InsertOp::create(b, loc, col, tile, ArrayRef<int64_t>{j});
  }
  Value tr = vector::TransposeOp::create(b, loc, tile, ArrayRef<int64_t>{1, 0});
  for (int64_t i = 0; i < a; ++i) {
    auto store = [&](OpBuilder &ib, Location l) {
      Value row = vector::ExtractOp::create(ib, l, tr, ArrayRef<int64_t>{i});
      if (elemTy != intTy)
        row = vector::BitCastOp::create(ib, l, rowTy, row);
      vector::StoreOp::create(ib, l, row, lFlat, ValueRange{rowOff(i)});
    };
    if (masked) {
      OpBuilder::InsertionGuard g(b);
      auto ifOp = scf::IfOp::create(b, loc, rowValid(i), /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      store(b, loc);
    } else {
      store(b, loc);
    }
  }
}

/// The fast paths (see FastPlan); false when the view does not fit them.
bool emitFastViewCopy(OpBuilder &b, Location loc, Value logical, Value bytes,
                      const fmt::StorageView &v, bool toStorage) {
  auto logicalType = cast<MemRefType>(logical.getType());
  std::optional<FastPlan> plan = planFastCopy(logicalType, v);
  if (!plan)
    return false;
  ArrayRef<int64_t> shape = logicalType.getShape();
  const int64_t rank = shape.size(), last = rank - 1;
  Type elemTy = logicalType.getElementType();
  Type storageTy = plan->transpose ? b.getIntegerType(v.elementBytes * 8) : elemTy;

  OpBuilder::InsertionGuard guard(b);
  Value lFlat = logical;
  if (rank > 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < rank; ++d)
      all[0].push_back(d);
    lFlat = memref::CollapseShapeOp::create(b, loc, logical, all);
  }
  auto byteType = cast<MemRefType>(bytes.getType());
  Value sFlat = memref::ViewOp::create(
      b, loc, MemRefType::get({byteType.getDimSize(0) / v.elementBytes}, storageTy), bytes,
      cst(b, loc, 0), ValueRange{});

  const auto &dims = plan->dims;
  const int64_t inner = dims.size() - 1;
  const int64_t p = dims[inner].logicalDim;
  // Logical dimensions whose positions the innermost code bounds itself.
  auto innerBounded = [&](int64_t d) { return d == last || (plan->transpose && d == p); };
  SmallVector<int64_t> lastOuter(rank, -1);
  for (int64_t k = 0; k < inner; ++k)
    if (k != plan->q)
      lastOuter[dims[k].logicalDim] = k;

  int64_t baseOff = 0;
  SmallVector<Value> partial(rank);
  for (int64_t d = 0; d < rank; ++d) {
    partial[d] = cst(b, loc, plan->base[d]);
    baseOff += plan->base[d] * plan->logicalStride[d];
    if (lastOuter[d] < 0 && !innerBounded(d) && plan->base[d] >= shape[d])
      return true; // the view holds a component this shape does not have
  }
  Value lOff = cst(b, loc, baseOff), sOff = cst(b, loc, v.view.offset);
  for (int64_t k = 0; k < inner; ++k) {
    if (k == plan->q)
      continue;
    const fmt::StridedView::Dim &dim = dims[k];
    const int64_t d = dim.logicalDim;
    Value ub = cst(b, loc, dim.extent);
    if (plan->needClamp[d] && !innerBounded(d) && lastOuter[d] == k) {
      Value rem = arith::SubIOp::create(b, loc, cst(b, loc, shape[d]), partial[d]);
      Value n = arith::CeilDivSIOp::create(b, loc, rem, cst(b, loc, dim.weight));
      n = arith::MinSIOp::create(b, loc, n, ub);
      ub = arith::MaxSIOp::create(b, loc, n, cst(b, loc, 0));
    }
    Value iv = openLoop(b, loc, cst(b, loc, 0), ub);
    partial[d] = addMul(b, loc, partial[d], iv, dim.weight);
    lOff = addMul(b, loc, lOff, iv, dim.weight * plan->logicalStride[d]);
    sOff = addMul(b, loc, sOff, iv, dim.stride);
  }

  const fmt::StridedView::Dim &in = dims[inner];
  if (!plan->transpose) {
    Value count = plan->needClamp[last] ? leftAlong(b, loc, shape[last], partial[last], in.extent)
                                        : cst(b, loc, in.extent);
    emitContiguousRun(b, loc, lFlat, sFlat, lOff, sOff, count, in.extent, toStorage);
    return true;
  }

  // Transpose: tiles of a rows (p) x t columns (Q).
  const fmt::StridedView::Dim &qd = dims[plan->q];
  const int64_t a = in.extent;
  // Square n x n blocks of 16-byte vectors when the atom is a power of two
  // and Q has n columns; otherwise one vector.transpose per tile.
  const int64_t n = std::min<int64_t>(a, std::max<int64_t>(2, 16 / v.elementBytes));
  const bool blocks = llvm::isPowerOf2_64(a) && a % n == 0 && qd.extent >= n;
  const int64_t t = blocks ? n : std::min(a, qd.extent);
  const int64_t rowStep = plan->logicalStride[p];
  Value rows = plan->needClamp[p] ? leftAlong(b, loc, shape[p], partial[p], a) : cst(b, loc, a);
  Value cols = plan->needClamp[last] ? leftAlong(b, loc, shape[last], partial[last], qd.extent)
                                     : cst(b, loc, qd.extent);
  auto emitScalar = [&](OpBuilder &ib, Location l) {
    OpBuilder::InsertionGuard g(ib);
    Value j = openLoop(ib, l, cst(ib, l, 0), cols);
    Value i = openLoop(ib, l, cst(ib, l, 0), rows);
    Value lo = addMul(ib, l, addMul(ib, l, lOff, i, rowStep), j, 1);
    Value so = addMul(ib, l, addMul(ib, l, sOff, j, qd.stride), i, 1);
    if (toStorage) {
      Value x = memref::LoadOp::create(ib, l, lFlat, ValueRange{lo});
      if (elemTy != storageTy)
        x = arith::BitcastOp::create(ib, l, storageTy, x);
      memref::StoreOp::create(ib, l, x, sFlat, ValueRange{so});
    } else {
      Value x = memref::LoadOp::create(ib, l, sFlat, ValueRange{so});
      if (elemTy != storageTy)
        x = arith::BitcastOp::create(ib, l, elemTy, x);
      memref::StoreOp::create(ib, l, x, lFlat, ValueRange{lo});
    }
  };
  auto emitTiles = [&](OpBuilder &ib, Location l) {
    OpBuilder::InsertionGuard g(ib);
    // Tiles of t columns; the last one ends at `cols` (overlapping its
    // predecessor when t does not divide cols: the same bytes again).
    Value nt = arith::CeilDivSIOp::create(ib, l, cols, cst(ib, l, t));
    Value j = openLoop(ib, l, cst(ib, l, 0), nt);
    Value j0 = arith::MinSIOp::create(ib, l, arith::MulIOp::create(ib, l, j, cst(ib, l, t)),
                                      arith::SubIOp::create(ib, l, cols, cst(ib, l, t)));
    Value lo = addMul(ib, l, lOff, j0, 1);
    Value so = addMul(ib, l, sOff, j0, qd.stride);
    auto tile = [&](OpBuilder &tb, Location tl, bool masked) {
      if (blocks)
        emitBlockTile(tb, tl, lFlat, sFlat, lo, so, a, n, rowStep, qd.stride, rows, masked,
                      toStorage);
      else
        emitTile(tb, tl, lFlat, sFlat, lo, so, a, t, rowStep, qd.stride, rows, masked,
                 toStorage);
    };
    if (!plan->needClamp[p]) {
      tile(ib, l, false);
      return;
    }
    Value full = arith::CmpIOp::create(ib, l, arith::CmpIPredicate::eq, rows, cst(ib, l, a));
    scf::IfOp::create(
        ib, l, full,
        [&](OpBuilder &tb, Location tl) {
          tile(tb, tl, false);
          scf::YieldOp::create(tb, tl);
        },
        [&](OpBuilder &tb, Location tl) {
          tile(tb, tl, true);
          scf::YieldOp::create(tb, tl);
        });
  };
  if (!plan->needClamp[last]) {
    emitTiles(b, loc); // qd.extent >= t columns everywhere
    return true;
  }
  Value wide = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, cols, cst(b, loc, t));
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

/// The typed strided view `v` of the byte buffer `bytes`.
Value makeView(OpBuilder &b, Location loc, Value bytes, const fmt::StorageView &v, Type elemTy) {
  auto byteType = cast<MemRefType>(bytes.getType());
  const int64_t n = byteType.getDimSize(0) / v.elementBytes;
  Value flat = memref::ViewOp::create(b, loc, MemRefType::get({n}, elemTy), bytes, cst(b, loc, 0),
                                      ValueRange{});
  SmallVector<int64_t> sizes, strides;
  for (const fmt::StridedView::Dim &d : v.view.dims) {
    sizes.push_back(d.extent);
    strides.push_back(d.stride);
  }
  auto layout = StridedLayoutAttr::get(b.getContext(), v.view.offset, strides);
  auto type = MemRefType::get(sizes, elemTy, layout);
  return memref::ReinterpretCastOp::create(b, loc, type, flat, v.view.offset, sizes, strides);
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
  for (const fmt::StorageView &v : desc.views)
    if (!emitFastViewCopy(b, loc, logical, bytes, v, toStorage))
      emitViewCopy(b, loc, logical, bytes, v, toStorage);
}

int64_t getAlignment(RankedTensorType type) {
  return bindChecked(type)->describeStorage().buffers.front().alignment;
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
