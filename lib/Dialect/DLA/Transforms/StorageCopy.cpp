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
