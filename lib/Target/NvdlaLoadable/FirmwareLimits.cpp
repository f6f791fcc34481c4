//===- FirmwareLimits.cpp - What the firmware's descriptors cannot say ----===//
//
// The loadable writer's refusals of a described network: the descriptors'
// extensions (NvdlaDescriptors.h `ext`) that NVIDIA's structs cannot hold,
// and what NVIDIA's firmware checks and refuses the task for (read from
// kmd/firmware pdp.c and conv.c). Each a located error on the layer's op.
//
//===----------------------------------------------------------------------===//

#include "LoadableWriter.h"

#include <tuple>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;

namespace {
const char *stageName(int i) {
  static const char *names[] = {"x1_op (BS)", "x2_op (BN)", "y_op (EW)"};
  return names[i];
}
} // namespace

LogicalResult mlir::dla::loadable::checkFirmwareExpressible(const NetworkPlan &plan,
                                                            const NetworkDescs &descs) {
  for (auto [layer, ld] : llvm::zip_equal(plan.layers, descs.layers)) {
    Operation *op = layer.op;
    for (const DescOp &d : ld.ops) {
      if (d.type == DescOpType::Conv && d.conv.ext.pixel_x_offset)
        return op->emitOpError("reads its image from x offset ")
               << d.conv.ext.pixel_x_offset
               << " (CDMA_D_PIXEL_OFFSET, ext.pixel_x_offset): dla_conv_op_desc has no field "
                  "for it, the firmware leaves the register 0";
      if (d.type == DescOpType::Sdp) {
        const DescSdpStage *stages[] = {&d.sdp.x1_op, &d.sdp.x2_op, &d.sdp.y_op};
        for (int i = 0; i < 3; ++i) {
          const DescSdpStage::Extensions &e = stages[i]->ext;
          // Each extension: set, what the stage does, why the firmware cannot.
          const std::tuple<bool, const char *, const char *> refusals[] = {
              // Both from memory (or both registers) the firmware's
              // `mode` says; aluFromMemory / mulFromMemory alone are not
              // refusals.
              {e.mixedSources,
               "reads one operand from memory and the other from a register (ext.mixedSources)",
               "the firmware's dla_sdp_op takes both from the source its `mode` names"},
              {e.reluAfterPrelu, "applies a ReLU after its PReLU multiplier (ext.reluAfterPrelu)",
               "dla_sdp_op.act holds one activation"},
              {e.preluBeforeLut,
               "applies a PReLU multiplier before the lookup table (ext.preluBeforeLut)",
               "dla_sdp_op.act holds one activation"},
              {e.dataUseBoth, "reads both operands from one memory surface (ext.dataUseBoth)",
               "the firmware's dla_sdp_op has no field for SDP_RDMA's data use"}};
          for (auto [set, what, why] : refusals)
            if (set)
              return op->emitOpError("has an SDP stage ")
                     << stageName(i) << " that " << what << ": " << why;
        }
      }
      // What NVIDIA's firmware checks and refuses the task for
      // (kmd/firmware pdp.c validate_strides, conv.c processor_conv_program).
      if (d.type == DescOpType::Pdp && (d.pdp.stride_x < 1 || d.pdp.stride_x > 8 ||
                                        d.pdp.stride_y < 1 || d.pdp.stride_y > 8))
        return op->emitOpError("pools with stride ")
               << int(d.pdp.stride_y) << " x " << int(d.pdp.stride_x)
               << " (height x width): NVIDIA's firmware accepts PDP strides 1 to 8 "
                  "(pdp.c validate_strides) and refuses the task";
      if (d.type == DescOpType::Conv && (d.conv.out_cvt.scale != 1 || d.conv.out_cvt.offset))
        return op->emitOpError("converts the accumulator with scale ")
               << d.conv.out_cvt.scale << " and offset " << d.conv.out_cvt.offset
               << ": NVIDIA's firmware takes scale 1 and offset 0 only (conv.c) and refuses "
                  "the task";
      if (d.type == DescOpType::Conv && d.conv.dst_data.width == 1 &&
          d.conv.dst_data.height == 1 &&
          d.conv.dst_data.line_stride != d.conv.dst_data.width * descs.atom_size)
        return op->emitOpError("writes a 1x1 result with line stride ")
               << d.conv.dst_data.line_stride
               << ": NVIDIA's firmware packs it, it takes the atom's size ("
               << descs.atom_size << ", conv.c) and refuses the task otherwise";
      if (d.type == DescOpType::Pdp) {
        if (d.pdp.ext.recip_kernel_width)
          return op->emitOpError("states the reciprocal of its window's width (")
                 << *d.pdp.ext.recip_kernel_width
                 << ", ext.recip_kernel_width): the firmware writes its own table's "
                    "reciprocal (recip_kernel_size)";
        if (d.pdp.ext.recip_kernel_height)
          return op->emitOpError("states the reciprocal of its window's height (")
                 << *d.pdp.ext.recip_kernel_height
                 << ", ext.recip_kernel_height): the firmware writes its own table's "
                    "reciprocal (recip_kernel_size)";
      }
    }
  }
  return success();
}

