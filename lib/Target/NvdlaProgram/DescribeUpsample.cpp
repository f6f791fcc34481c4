//===- DescribeUpsample.cpp - dla.upsample as SDP pass-through passes -----===//
//
// Nearest upsampling by [fy, fx] as offline SDP passes with every stage
// bypassed (docs/Resize.md). The SDP's write DMA steps one atom per pixel
// within a line, so it cannot skip fx - 1 pixels between two writes; the
// input is therefore read "transposed in address space": its pixels as the
// cube's lines (line stride: one atom) and its rows as the cube's surfaces
// (surface stride: the input's line stride), one atom wide. The write then
// steps fx atoms per line (per input pixel) and fy output lines per surface
// (per input row). One pass per channel group (atom of C), output phase
// (py, px) and band of input rows / columns that fits the 13-bit cube
// fields. A one-column input is read as it is (rows as lines), since a 1x1
// cube is written line-packed only (NV_NVDLA_sdp.cpp asserts a surface
// stride of one atom).
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

LogicalResult mlir::dla::regplan::describeUpsample(const NetworkPlan &plan, Operation *o,
                                                 std::vector<DescOp> &ops) {
  auto op = cast<UpsampleOp>(o);
  const int64_t fy = op.getFactors()[0], fx = op.getFactors()[1];
  const AtomCube &in = plan.surface(op.getInput()).feature->getCube();
  const AtomCube &out = plan.surface(op.getOutput()).feature->getCube();
  const int64_t atom = in.getBytesPerAtom(), groupChannels = in.getSpec().elementsPerAtom;
  const int64_t h = in.getSpec().height, w = in.getSpec().width;
  const int64_t most = int64_t(1) << csb::kCubeDimensionBits;
  // Rows per pass: as surfaces of groupChannels (at most 64) channels each.
  const int64_t rowsPerPass = most / groupChannels;
  // Columns per pass: a last band of one column would be a 1x1 cube of
  // several surfaces, which the SDP writes only line-packed.
  const int64_t colsPerPass = w % most == 1 ? most - 1 : most;
  const bool oneColumn = w == 1;
  // Every stride is at most the output's surface stride, which the
  // address plan keeps within the 32-bit stride registers.
  std::vector<DescLut> noLuts;
  for (int64_t g = 0; g < in.getNumSurfaces(); ++g)
    for (int64_t y0 = 0; y0 < h; y0 += oneColumn ? most : rowsPerPass)
      for (int64_t x0 = 0; x0 < w; x0 += colsPerPass)
        for (int64_t py = 0; py < fy; ++py)
          for (int64_t px = 0; px < fx; ++px) {
            DescOp d;
            d.type = DescOpType::Sdp;
            if (failed(describeSdp(plan, /*sdp=*/nullptr, /*onTheFly=*/false, op.getInput(),
                                   op.getOutput(), d.sdp, noLuts)))
              return failure();
            DescDataCube &src = d.sdp.src_data, &dst = d.sdp.dst_data;
            const int64_t rows = std::min(h - y0, oneColumn ? most : rowsPerPass);
            const int64_t cols = std::min(w - x0, colsPerPass);
            // On top of a channel view's offset (describeCube's).
            src.offset += static_cast<uint64_t>(g * in.getSurfaceStride() +
                                                y0 * in.getLineStride() + x0 * atom);
            dst.offset += static_cast<uint64_t>(g * out.getSurfaceStride() +
                                                (y0 * fy + py) * out.getLineStride() +
                                                (x0 * fx + px) * atom);
            src.width = dst.width = 1;
            if (oneColumn) {
              // Rows as lines, one surface.
              src.height = dst.height = static_cast<uint32_t>(rows);
              src.channel = dst.channel = static_cast<uint32_t>(groupChannels);
              src.line_stride = static_cast<uint32_t>(in.getLineStride());
              dst.line_stride = static_cast<uint32_t>(fy * out.getLineStride());
              // One surface: a 1x1 cube is written packed (surface stride
              // one atom); otherwise unused.
              src.surf_stride = dst.surf_stride = static_cast<uint32_t>(atom);
            } else {
              src.height = dst.height = static_cast<uint32_t>(cols);
              src.channel = dst.channel = static_cast<uint32_t>(rows * groupChannels);
              src.line_stride = static_cast<uint32_t>(atom);
              src.surf_stride = static_cast<uint32_t>(in.getLineStride());
              dst.line_stride = static_cast<uint32_t>(fx * atom);
              dst.surf_stride = static_cast<uint32_t>(fy * out.getLineStride());
            }
            ops.push_back(d);
          }
  return success();
}
