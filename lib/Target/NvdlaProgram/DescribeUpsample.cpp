//===- DescribeUpsample.cpp - SDP pass-through passes: upsample, interleave ===//
//
// dla.upsample (nearest upsampling by [fy, fx]) and dla.interleave (fy x fx
// phase maps into one, a pixel shuffle) as offline SDP passes with every
// stage bypassed (docs/Resize.md). The SDP's write DMA steps one atom per
// pixel within a line, so it cannot skip fx - 1 pixels between two writes;
// the input is therefore read "transposed in address space": its pixels as
// the cube's lines (line stride: one atom) and its rows as the cube's
// surfaces (surface stride: the input's line stride), one atom wide. The
// write then steps fx atoms per line (per input pixel) and fy output lines
// per surface (per input row). One pass per channel group (atom of C),
// output phase (py, px) and band of input rows / columns that fits the
// 13-bit cube fields; an upsampling's phases all read its input, an
// interleave's phase (py, px) reads its own. A cube of one line and several
// surfaces is read the other way round (its surfaces as lines, one
// surface), since a 1x1 cube is written line-packed only (NV_NVDLA_sdp.cpp
// asserts a surface stride of one atom).
//
// A border [by, bx] (the clamped source index) takes more passes of the
// same kind reading the edge row or column with a stride of 0: the rows
// above and below per column phase, the columns left and right per row
// phase, and the four corners.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaHardware.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;

namespace {

/// One level of a pass's iteration: `count` steps of `src` bytes in the
/// input and `dst` bytes in the output.
struct Step {
  int64_t count, src, dst;
};

/// The pass-through passes of one layer writing `out`.
class PassThrough {
public:
  PassThrough(const NetworkPlan &plan, Value out, std::vector<DescOp> &ops)
      : plan(plan), out(out), ops(ops) {}

  /// Passes of width 1 reading `lines` x `surfaces` of `in` from its byte
  /// `src` on, writing them from output byte `dst` on, in bands that fit
  /// the cube fields.
  LogicalResult emit(Value in, int64_t src, int64_t dst, Step lines, Step surfaces) {
    const AtomCube &cube = plan.surface(in).feature->getCube();
    const int64_t atom = cube.getBytesPerAtom(), groupChannels = cube.getSpec().elementsPerAtom;
    const int64_t most = int64_t(1) << csb::kCubeDimensionBits;
    // Surfaces per pass: of groupChannels (at most 64) channels each.
    const int64_t surfacesPerPass = most / groupChannels;
    // Every stride is at most the output's surface stride, which the
    // address plan keeps within the 32-bit stride registers.
    for (int64_t s0 = 0; s0 < surfaces.count; s0 += surfacesPerPass)
      for (int64_t l0 = 0; l0 < lines.count; l0 += most) {
        Step l = {std::min(lines.count - l0, most), lines.src, lines.dst};
        Step s = {std::min(surfaces.count - s0, surfacesPerPass), surfaces.src, surfaces.dst};
        // One line of several surfaces: surfaces as lines instead (a 1x1
        // cube is written line-packed only).
        if (l.count == 1 && s.count > 1)
          std::swap(l, s);
        DescOp d;
        d.type = DescOpType::Sdp;
        if (failed(describeSdp(plan, /*sdp=*/nullptr, /*onTheFly=*/false, in, out, d.sdp,
                               noLuts)))
          return failure();
        DescDataCube &sc = d.sdp.src_data, &dc = d.sdp.dst_data;
        // On top of a channel view's offset (describeCube's).
        sc.offset += static_cast<uint64_t>(src + s0 * surfaces.src + l0 * lines.src);
        dc.offset += static_cast<uint64_t>(dst + s0 * surfaces.dst + l0 * lines.dst);
        sc.width = dc.width = 1;
        sc.height = dc.height = static_cast<uint32_t>(l.count);
        sc.channel = dc.channel = static_cast<uint32_t>(s.count * groupChannels);
        sc.line_stride = static_cast<uint32_t>(l.src);
        dc.line_stride = static_cast<uint32_t>(l.dst);
        // One surface: its stride is unused, and one atom as a 1x1 cube
        // needs it.
        sc.surf_stride = static_cast<uint32_t>(s.count == 1 ? atom : s.src);
        dc.surf_stride = static_cast<uint32_t>(s.count == 1 ? atom : s.dst);
        ops.push_back(d);
      }
    return success();
  }

  /// The first `h` rows and `w` columns of channel group `g` of `in` to
  /// every fx-th pixel of every fy-th row of the output from output row
  /// y0, column x0 on.
  LogicalResult emitPhase(Value in, int64_t g, int64_t fy, int64_t fx, int64_t y0, int64_t x0,
                          int64_t h, int64_t w) {
    const AtomCube &i = plan.surface(in).feature->getCube();
    const AtomCube &o = plan.surface(out).feature->getCube();
    const int64_t atom = i.getBytesPerAtom(), outLine = o.getLineStride();
    // The input's pixels as lines, its rows as surfaces.
    const Step columns = {w, atom, fx * atom};
    const Step rows = {h, i.getLineStride(), fy * outLine};
    return emit(in, g * i.getSurfaceStride(), g * o.getSurfaceStride() + y0 * outLine + x0 * atom,
                columns, rows);
  }

private:
  const NetworkPlan &plan;
  Value out;
  std::vector<DescOp> &ops;
  std::vector<DescLut> noLuts;
};

} // namespace

LogicalResult mlir::dla::regplan::describeUpsample(const NetworkPlan &plan, Operation *o,
                                                 std::vector<DescOp> &ops) {
  auto op = cast<UpsampleOp>(o);
  const int64_t fy = op.getFactors()[0], fx = op.getFactors()[1];
  const int64_t by = op.getBorderAt(0), bx = op.getBorderAt(1);
  const AtomCube &in = plan.surface(op.getInput()).feature->getCube();
  const AtomCube &out = plan.surface(op.getOutput()).feature->getCube();
  const int64_t atom = in.getBytesPerAtom();
  const int64_t h = in.getSpec().height, w = in.getSpec().width;
  const int64_t inLine = in.getLineStride(), outLine = out.getLineStride();
  PassThrough passes(plan, op.getOutput(), ops);
  auto emit = [&](int64_t src, int64_t dst, Step lines, Step surfaces) {
    return passes.emit(op.getInput(), src, dst, lines, surfaces);
  };
  // A border reads its edge with a stride of 0.
  const Step columns = {w, atom, fx * atom}, rows = {h, inLine, fy * outLine};
  const Step borderRows = {by, 0, outLine}, borderColumns = {bx, 0, atom};
  const int64_t lastRow = (h - 1) * inLine, lastColumn = (w - 1) * atom;
  const int64_t belowRow = (by + h * fy) * outLine, rightColumn = (bx + w * fx) * atom;
  for (int64_t g = 0; g < in.getNumSurfaces(); ++g) {
    const int64_t src = g * in.getSurfaceStride(), dst = g * out.getSurfaceStride();
    for (int64_t py = 0; py < fy; ++py)
      for (int64_t px = 0; px < fx; ++px)
        if (failed(passes.emitPhase(op.getInput(), g, fy, fx, by + py, bx + px, h, w)))
          return failure();
    if (by)
      for (int64_t px = 0; px < fx; ++px) {
        const int64_t x = (bx + px) * atom;
        if (failed(emit(src, dst + x, columns, borderRows)) ||
            failed(emit(src + lastRow, dst + belowRow + x, columns, borderRows)))
          return failure();
      }
    if (bx)
      for (int64_t py = 0; py < fy; ++py) {
        const int64_t y = (by + py) * outLine;
        if (failed(emit(src, dst + y, borderColumns, rows)) ||
            failed(emit(src + lastColumn, dst + y + rightColumn, borderColumns, rows)))
          return failure();
      }
    if (by && bx)
      for (int64_t corner = 0; corner < 4; ++corner) {
        const bool below = corner & 1, right = corner & 2;
        if (failed(emit(src + (below ? lastRow : 0) + (right ? lastColumn : 0),
                        dst + (below ? belowRow : 0) + (right ? rightColumn : 0),
                        borderColumns, borderRows)))
          return failure();
      }
  }
  return success();
}

LogicalResult mlir::dla::regplan::describeInterleave(const NetworkPlan &plan, Operation *o,
                                                   std::vector<DescOp> &ops) {
  auto op = cast<InterleaveOp>(o);
  const int64_t fy = op.getFactors()[0], fx = op.getFactors()[1];
  PassThrough passes(plan, op.getOutput(), ops);
  const AtomCube &out = plan.surface(op.getOutput()).feature->getCube();
  const int64_t h = out.getSpec().height, w = out.getSpec().width;
  // The order of dla.upsample's passes: groups, then phases. Phase (py,
  // px) writes the output rows py, py + fy, ... below h (a crop at the end
  // leaves its last row out), and so for columns.
  for (int64_t g = 0; g < out.getNumSurfaces(); ++g)
    for (int64_t py = 0; py < fy; ++py)
      for (int64_t px = 0; px < fx; ++px)
        if (failed(passes.emitPhase(op.getPhase(py, px), g, fy, fx, py, px,
                                    std::max<int64_t>(0, (h - py + fy - 1) / fy),
                                    std::max<int64_t>(0, (w - px + fx - 1) / fx))))
          return failure();
  return success();
}
