//===- ReferenceNvdlaFp16.h - fp16 layers as NVDLA computes them -*- C++ -*-===//
//
// fp16-arithmetic=hardware on nv_full (docs/NvdlaFp16.md "The CPU
// execution"): the direct convolution's CMAC / CACC arithmetic as one call
// into the runtime (dla/ExecutionRuntime/NvdlaRuntime.h, the format
// library's NvdlaConvFp16.h), the SDP's fp32 steps and the converters as
// scalar calls inside the element-wise linalg.generic. Values travel as
// their fp32 bit patterns in i32.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCENVDLAFP16_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCENVDLAFP16_H

#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaLrn.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::dla::reference {

/// Whether `op` (an fp16 layer) computes NVDLA's arithmetic: asked for and
/// the module's target is NVDLA nv_full.
bool usesNvdlaFp16(Operation *op, Fp16Arithmetic arithmetic);

/// Whether `op` is an fp16 convolution: fp16 weights and fp16 input (fp16
/// feature data or fp16 pixels), or integer pixels CDMA converts to fp16
/// (image input).
bool isFp16Conv(ConvOp op);

/// Why the hardware arithmetic does not cover the fp16 convolution `op`
/// (the lowering then keeps the ideal meaning and says so in a remark), or
/// empty when it does: direct; Winograd 3x3 at stride 1 (when its weights
/// hold stored taps: the lowering's check); image input from integer
/// pixels (cdmaInputConverterFp16) or fp16 pixels (unchanged); input and
/// weights of the same channels, no padding value, no clip_truncate.
std::string whyIdealFp16Conv(ConvOp op);

/// Whether the hardware arithmetic covers this direct or Winograd fp16
/// convolution (isFp16Conv, no whyIdealFp16Conv).
bool isNvdlaFp16Conv(ConvOp op);

/// Whether the hardware arithmetic covers this image convolution: integer
/// pixels CDMA converts to fp16 or fp16 pixels, fp16 weights, no padding
/// value (docs/NvdlaCModelV1.md "Image input in fp16", "Image input of fp16
/// pixels").
bool isNvdlaFp16ImageConv(ConvOp op);

/// Declares the runtime functions in `op`'s module (once).
void declareNvdlaRuntime(OpBuilder &b, Operation *op);

/// CACC's fp32 bits of `op` (tensor<N x K x OH x OW x i32>) from its plain
/// f16 input `x` (NCHW) and weights `w` (KCRS).
Value emitNvdlaConvFp16(OpBuilder &b, Location loc, ConvOp op, Value x, Value w);

/// CACC's fp32 bits of a Winograd `op` (tensor<N x K x OH x OW x i32>,
/// NvdlaConvFp16.h convWinoFp16) from its plain f16 input `x` (NCHW) and
/// its stored taps (K x C' x 4 x 4 f16), padding value 0.
Value emitNvdlaConvWinoFp16(OpBuilder &b, Location loc, ConvOp op, Value x, Value taps);
/// CACC's fp32 bits of the image convolution `op` (tensor<N x K x OH x OW x
/// i32>) from its converted pixels `x` (plain f16, N x P x H x W) and
/// weights `w` (plain f16 KCRS): NvdlaConvFp16.h's imageConvFp16.
Value emitNvdlaImageConvFp16(OpBuilder &b, Location loc, ConvOp op, Value x, Value w);

/// The PDP's fp16 pooling of `op` (NvdlaPdpFp16.h) on its plain f16 input
/// `x` (NCHW): the plain f16 result.
Value emitNvdlaPoolFp16(OpBuilder &b, Location loc, PoolOp op, Value x);

/// The CDP's fp16 LRN of `op` (NvdlaCdpFp16.h, the register plan's tables)
/// on its plain f16 input `x` (NCHW): the plain f16 result.
Value emitNvdlaLrnFp16(OpBuilder &b, Location loc, LrnOp op, Value x);

/// Scalars inside an element-wise body (fp32 values as i32 bits):
/// an f16 / f32 operand as fp32 bits (Fp16ToFp32: exact, infinity to the
/// largest fp32), FpAdd, FpMul, FpMax, FpMin, FpRelu, and Fp32ToFp16 (the
/// output converter) to an f16 value.
Value nvdlaWiden(OpBuilder &b, Location loc, Value v);
Value nvdlaAdd(OpBuilder &b, Location loc, Value x, Value y);
Value nvdlaMul(OpBuilder &b, Location loc, Value x, Value y);
Value nvdlaMax(OpBuilder &b, Location loc, Value x, Value y);
Value nvdlaMin(OpBuilder &b, Location loc, Value x, Value y);
Value nvdlaRelu(OpBuilder &b, Location loc, Value x);
Value nvdlaToFp16(OpBuilder &b, Location loc, Value x);
/// The fp16 SDP's result to its output type `out`: Fp32ToFp16, and for
/// int16 (an fp16 pipeline writing int16) then Fp16ToInt16.
Value nvdlaSdpOutput(OpBuilder &b, Location loc, Value x, Type out);

/// One X stage of an fp16 SDP (sdp_x_fp16): ALU (max / min / sum) on the
/// widened memory operand, MUL (PReLU: a value with its sign bit clear
/// passes), ReLU. Eql has no fp16 model: arith::CmpF as the ideal stage.
Value nvdlaSdpXStage(OpBuilder &b, Location loc, Value x, SdpXAttr stage, Value aluMem,
                     Value mulMem);

/// The Y stage of an fp16 SDP without its LUT (fp_nvdla.sdp_y_fp16): MUL
/// (PReLU: a value with its sign bit clear passes), then ALU (max / min /
/// sum), on memory operands widened from fp16 or register operands taken
/// as the fp32 bits they hold.
Value nvdlaSdpYStage(OpBuilder &b, Location loc, Value x, SdpYAttr stage, Value aluMem,
                     Value mulMem);

/// The SDP Y stage's LUT in float mode after whatever stages computed the
/// fp32 bits `bits` (plain rank-4 i32), then the output converter: the
/// plain f16 result, one runtime call (NvdlaRuntime.h
/// dla_nvdla_sdp_lut_float_fp16, the format library's
/// sdpLookupFloatToFp16) on the registers as a constant array.
Value emitNvdlaLutFloatFp16(OpBuilder &b, Location loc, Operation *op, Value bits,
                            const ::dlaformat::nvdla::LutProgram &lut);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCENVDLAFP16_H
