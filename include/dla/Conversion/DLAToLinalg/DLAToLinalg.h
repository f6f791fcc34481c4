//===- DLAToLinalg.h - dla layer ops as upstream linalg ---------*- C++ -*-===//
//
// The reference lowering (--dla-lower-to-reference), for a compiler that
// runs it in a conversion of its own: every dla layer op becomes linalg /
// arith / math / tensor computing exactly what the NVDLA unit computes
// (docs/ReferenceSemantics.md), reading and writing encoded operands
// through dla.relayout.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_CONVERSION_DLATOLINALG_DLATOLINALG_H
#define DLA_CONVERSION_DLATOLINALG_DLATOLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::dla {

/// What an fp16 layer computes on the CPU when its target is NVDLA nv_full
/// (docs/NvdlaFp16.md "The CPU execution"). Other targets compute Ideal.
enum class Fp16Arithmetic {
  /// NVDLA's own (the v1 C model's): CMAC's block-floating-point atoms,
  /// CACC's 48-bit accumulator and its fp32 hand-off, the SDP's X stages in
  /// NVDLA's fp32, the output converter; calls into NvdlaRuntime.h.
  Hardware,
  /// Exact products accumulated in f32, one rounding at the output (the
  /// meaning before issue 47; for comparing against host float).
  Ideal,
};

struct ReferenceOptions {
  Fp16Arithmetic fp16Arithmetic = Fp16Arithmetic::Hardware;
};

/// dla.conv, dla.sdp, dla.pool, dla.lrn, dla.clamp, dla.upsample, dla.interleave
/// -> linalg, arith, math, tensor (and dla.relayout for encoded operands
/// and results). Every layer op must be illegal in the conversion target:
/// a layer op without a pattern then fails by name. Layers whose precision conversion NVDLA's
/// tables reject do not match.
void populateDLAToLinalgPatterns(RewritePatternSet &patterns, ReferenceOptions options = {});

/// Whether `op` is a dla.channel_slice / dla.channel_concat of tensors
/// without encoding (lowered by populateChannelViewReferencePatterns).
bool isPlainChannelView(Operation *op);

/// Plain channel views as tensor.extract_slice / tensor.concat.
void populateChannelViewReferencePatterns(RewritePatternSet &patterns);

/// dla.emu_softmax / dla.emu_power as NVIDIA's runtime emulator computes
/// them (encoded operands through dla.relayout).
void populateEmulatorReferencePatterns(RewritePatternSet &patterns);

} // namespace mlir::dla

#endif // DLA_CONVERSION_DLATOLINALG_DLATOLINALG_H
