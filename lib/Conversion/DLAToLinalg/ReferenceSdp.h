//===- ReferenceSdp.h - The SDP's integer stages, element by element -===//
//
// Scalar arithmetic of dla.sdp's stage form (docs/IntegerAttributes.md
// section 4), bit-exact with NVIDIA's C model (cmod/hls/sdp). Values are i64
// holding the hardware's 32-bit data; memory operands are i64,
// sign-extended from their int8 / int16 elements.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCESDP_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCESDP_H

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/Builders.h"

namespace mlir::dla::reference {

/// One X stage (BS or BN): ALU, MUL (or its shift alone), ReLU.
/// `aluMem` / `mulMem`: the memory operand's element when the unit reads
/// memory, else null.
Value sdpXStage(OpBuilder &b, Location loc, Value x, SdpXAttr stage, Value aluMem,
                Value mulMem);

/// One X stage of an fp16 pipeline (docs/IntegerAttributes.md section
/// 4.7): ALU, MUL, ReLU in f32 on f32 `x` and memory operands; no shifts.
Value sdpXStageFloat(OpBuilder &b, Location loc, Value x, SdpXAttr stage, Value aluMem,
                     Value mulMem);

/// The Y stage of an fp16 pipeline without its LUT, ideal: MUL (PReLU:
/// non-negative values pass), then ALU (max / min / sum), in f32 on f32 `x`
/// and memory operands; a register operand is the fp32 pattern it holds.
Value sdpYStageFloat(OpBuilder &b, Location loc, Value x, SdpYAttr stage, Value aluMem,
                     Value mulMem);

/// The Y stage (EW): MUL, then ALU, each memory operand through its
/// converter when one is stated, then the lookup table.
Value sdpYStage(OpBuilder &b, Location loc, Value x, SdpYAttr stage, Value aluMem,
                Value mulMem);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCESDP_H
