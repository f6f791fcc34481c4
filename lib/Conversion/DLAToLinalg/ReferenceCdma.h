//===- ReferenceCdma.h - CDMA's input converter on the CPU ------*- C++ -*-===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCECDMA_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCECDMA_H

#include "dla/Dialect/DLA/IR/DLA.h"

namespace mlir::dla::reference {

/// CDMA's input converter of an integer convolution
/// (utils/dla-ref/int_conv.cdma_cvt_feature / cdma_cvt_image): the plain
/// NCHW input `x` becomes SAT_bits(SAT17(RHA((x - off_c) * scale, shift)))
/// as a signless i<bits> tensor, off_c = mean[c] with `mean`, else
/// input_cvt.offset; absent input_cvt is the identity converter (unsigned
/// pixels read unsigned). Returns `x` when that changes nothing.
Value cdmaInputConverter(OpBuilder &b, Location loc, ConvOp op, Value x, unsigned bits);

/// CDMA's converter of an image of integer pixels into an fp16 pipeline
/// (fp_nvdla.cdma_cvt_image_fp16, the v1 model's cdma_cvt_hls): the 17-bit
/// value as above, then Int17ToFp16 (round to nearest even, +-65504 where
/// it overflows): a plain f16 tensor of `x`'s shape. Absent input_cvt is
/// the identity (pixels exact).
Value cdmaInputConverterFp16(OpBuilder &b, Location loc, ConvOp op, Value x);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCECDMA_H
