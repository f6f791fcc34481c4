//===- StorageDecompress.cpp - Compressed weights decompressed in code ----===//
//
// Per weight surface (the stream, or one deconvolution set), per kernel
// group: the group's data starts where the previous group's WGS value says
// it ends; each WMB bit (LSB first, continuous across groups) says whether
// the next element comes from the data or is zero. Region offsets, group
// sizes and alignments are the format library's (planSeparateSurfaces,
// WeightSurface, the alignment table), the same the packer used.
//
//===----------------------------------------------------------------------===//

#include "dla/Conversion/DLAToMemRef/StorageDecompress.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaWeightCompression.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

RankedTensorType mlir::dla::getUncompressedWeightType(RankedTensorType type) {
  auto w = cast<WeightAttr>(type.getEncoding());
  auto plain = WeightAttr::get(w.getContext(), w.getFormat(), w.getPrecision(),
                               /*compressed=*/false, w.getChannels(), w.getPostExtension(),
                               w.getStrideY(), w.getStrideX(), w.getConfig(), w.getRounding(),
                               w.getScale());
  return RankedTensorType::get(type.getShape(), type.getElementType(), plain);
}

namespace {
struct Emitter {
  OpBuilder &b;
  Location loc;
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  /// alignUp on index values (alignments are powers of two).
  Value alignUp(Value x, int64_t a) {
    Value up = add(x, index(a - 1));
    return arith::AndIOp::create(b, loc, up, index(~(a - 1)));
  }
  /// The little-endian uint32 at byte `at` of `bytes`, as an index.
  Value loadU32(Value bytes, Value at) {
    Type i64 = b.getI64Type();
    Value v = arith::ConstantIntOp::create(b, loc, i64, 0);
    for (int k = 0; k < 4; ++k) {
      Value byte = memref::LoadOp::create(b, loc, bytes, ValueRange{add(at, index(k))});
      Value wide = arith::ExtUIOp::create(b, loc, i64, byte);
      Value shifted = arith::ShLIOp::create(b, loc, wide,
                                            arith::ConstantIntOp::create(b, loc, i64, 8 * k));
      v = arith::OrIOp::create(b, loc, v, shifted);
    }
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
};
} // namespace

Value mlir::dla::emitDecompressWeights(OpBuilder &b, Location loc, RankedTensorType type,
                                       Value wgs, Value wmb, Value data) {
  auto weight = cast<WeightAttr>(type.getEncoding());
  // The type verified: its layout exists.
  nv::NvdlaWeightLayout layout = *nv::NvdlaWeightLayout::create(weight.getParams(type.getShape()));
  const int64_t eb = layout.getElementBytes();
  // The packer's alignment of each region within its surface.
  const int64_t regionAlign =
      cast<LayoutEncodingAttr>(weight).getStorageDescription(type.getShape(), type.getElementType(), [] {
              return InFlightDiagnostic();
            })->buffers.front().alignment;
  const int64_t dataSizeAlign = nv::getAlignment(nv::AlignedData::Weight).dataSize;
  nv::SeparateSurfacePlan plans[3];
  nv::planSeparateSurfaces(nv::getCompressedWeightLayoutBound(layout), regionAlign, plans);

  Emitter e{b, loc};
  auto outType = MemRefType::get({layout.getStorageBytes()}, b.getI8Type());
  Value out = memref::AllocOp::create(b, loc, outType, ValueRange{},
                                      b.getI64IntegerAttr(regionAlign));
  // Zero elements, and the stream's end padding, are zero bytes.
  linalg::FillOp::create(b, loc, ValueRange{arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0)},
                         ValueRange{out});
  Value dataStart = e.index(0);
  const std::vector<nv::WeightSurface> &surfaces = layout.getSurfaces();
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const nv::WeightSurface &ws = surfaces[i];
    const int64_t elementsPerKernel = ws.bytesPerKernel / eb;
    const int64_t wgsOffset = plans[0].regionOffsets[i], wmbOffset = plans[1].regionOffsets[i];
    auto groups = scf::ForOp::create(
        b, loc, e.index(0), e.index(ws.getNumGroups()), e.index(1), ValueRange{dataStart},
        [&](OpBuilder &gb, Location l, Value g, ValueRange groupArgs) {
          Emitter ge{gb, l};
          Value groupBytes = ge.loadU32(wgs, ge.add(ge.index(wgsOffset), ge.mul(g, ge.index(4))));
          Value first = ge.mul(g, ge.index(ws.kernelsPerGroup));
          Value kernels = arith::MinSIOp::create(
              gb, l, ge.index(ws.kernelsPerGroup),
              arith::SubIOp::create(gb, l, ge.index(ws.numKernels), first));
          Value e0 = ge.mul(first, ge.index(elementsPerKernel));
          Value count = ge.mul(kernels, ge.index(elementsPerKernel));
          scf::ForOp::create(
              gb, l, ge.index(0), count, ge.index(1), ValueRange{groupArgs[0]},
              [&](OpBuilder &eb2, Location l2, Value j, ValueRange elemArgs) {
                Emitter ee{eb2, l2};
                Value el = ee.add(e0, j);
                Value maskByte = memref::LoadOp::create(
                    eb2, l2, wmb,
                    ValueRange{ee.add(ee.index(wmbOffset),
                                      arith::DivUIOp::create(eb2, l2, el, ee.index(8)))});
                Value bitIndex = arith::IndexCastOp::create(
                    eb2, l2, eb2.getI8Type(), arith::RemUIOp::create(eb2, l2, el, ee.index(8)));
                Value bit = arith::AndIOp::create(
                    eb2, l2, arith::ShRUIOp::create(eb2, l2, maskByte, bitIndex),
                    arith::ConstantIntOp::create(eb2, l2, eb2.getI8Type(), 1));
                Value set = arith::CmpIOp::create(
                    eb2, l2, arith::CmpIPredicate::ne, bit,
                    arith::ConstantIntOp::create(eb2, l2, eb2.getI8Type(), 0));
                Value cursor = elemArgs[0];
                auto ifOp = scf::IfOp::create(
                    eb2, l2, set,
                    [&](OpBuilder &tb, Location l3) {
                      Emitter te{tb, l3};
                      Value to = te.add(te.index(ws.offset), te.mul(el, te.index(eb)));
                      for (int64_t k = 0; k < eb; ++k) {
                        Value byte = memref::LoadOp::create(tb, l3, data,
                                                            ValueRange{te.add(cursor, te.index(k))});
                        memref::StoreOp::create(tb, l3, byte, out,
                                                ValueRange{te.add(to, te.index(k))});
                      }
                      scf::YieldOp::create(tb, l3, ValueRange{te.add(cursor, te.index(eb))});
                    },
                    [&](OpBuilder &fb, Location l3) {
                      scf::YieldOp::create(fb, l3, ValueRange{cursor});
                    });
                scf::YieldOp::create(eb2, l2, ifOp.getResults());
              });
          // The next group starts where this group's WGS value says, as the
          // hardware finds it.
          scf::YieldOp::create(gb, l, ValueRange{ge.add(groupArgs[0], groupBytes)});
        });
    // The next set's data region: padded to the data-size alignment, at
    // the region alignment (nextSeparateDataRegion).
    Value used = arith::SubIOp::create(b, loc, groups.getResult(0), dataStart);
    dataStart = e.alignUp(e.add(dataStart, e.alignUp(used, dataSizeAlign)), regionAlign);
  }
  return out;
}
