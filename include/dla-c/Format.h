/*===- dla-c/Format.h - C API of the layout format library --------*- C -*-===*\
|*                                                                            *|
|* The MLIR-free half of the dla C API: status values, and layouts bound to   *|
|* a logical shape (storage size, byte offset of an element, pack, unpack).   *|
|* A bound layout comes from a chunked layout here, or from any encoded       *|
|* tensor type through dla-c/Dialects.h (dlaTypeBindLayout).                  *|
|*                                                                            *|
|* Conventions:                                                               *|
|*  - Functions that can fail return a DlaStatus; a null status is success.   *|
|*    A failed status owns a message: read it with dlaStatusGetMessage, then  *|
|*    release it with dlaStatusDestroy. Nothing in this API aborts on bad     *|
|*    input; out-parameters are left untouched on failure.                    *|
|*  - Logical buffers are row-major, one element of dlaBoundLayoutGet-        *|
|*    ElementBytes bytes each, host byte order. Storage buffers hold exactly  *|
|*    dlaBoundLayoutGetStorageBytes bytes; pack writes every one of them      *|
|*    (padding and gaps become zero).                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DLA_C_FORMAT_H
#define DLA_C_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) || defined(__CYGWIN__)
#define DLA_CAPI_EXPORTED
#else
#define DLA_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

/// Success (null) or an owned error message.
typedef struct DlaStatus {
  void *ptr;
} DlaStatus;

/// True for success.
static inline bool dlaStatusIsOk(DlaStatus status) { return status.ptr == NULL; }

/// The error message (NUL-terminated, valid until dlaStatusDestroy), or ""
/// for success.
DLA_CAPI_EXPORTED const char *dlaStatusGetMessage(DlaStatus status);

/// Releases the message of a failed status; no-op on success.
DLA_CAPI_EXPORTED void dlaStatusDestroy(DlaStatus status);

/*===----------------------------------------------------------------------===*
 * Bound layouts
 *===----------------------------------------------------------------------===*/

/// A layout applied to one logical shape and element width. Owned by the
/// caller (dlaBoundLayoutDestroy); independent of any MLIR context.
typedef struct DlaBoundLayout {
  void *ptr;
} DlaBoundLayout;

static inline bool dlaBoundLayoutIsNull(DlaBoundLayout layout) { return layout.ptr == NULL; }

DLA_CAPI_EXPORTED void dlaBoundLayoutDestroy(DlaBoundLayout layout);

/// Rank of the logical shape.
DLA_CAPI_EXPORTED intptr_t dlaBoundLayoutGetRank(DlaBoundLayout layout);
/// Extent of logical dimension `pos` (0 <= pos < rank; -1 otherwise).
DLA_CAPI_EXPORTED int64_t dlaBoundLayoutGetDimSize(DlaBoundLayout layout, intptr_t pos);
/// Bytes of one logical element.
DLA_CAPI_EXPORTED int64_t dlaBoundLayoutGetElementBytes(DlaBoundLayout layout);
/// Number of logical elements.
DLA_CAPI_EXPORTED int64_t dlaBoundLayoutGetNumElements(DlaBoundLayout layout);
/// Storage size in bytes, padding and gaps included.
DLA_CAPI_EXPORTED int64_t dlaBoundLayoutGetStorageBytes(DlaBoundLayout layout);

/// Byte offset in storage of the logical element at `index` (`rank`
/// entries). Fails on a rank mismatch or an index out of bounds.
DLA_CAPI_EXPORTED DlaStatus dlaBoundLayoutGetByteOffset(DlaBoundLayout layout, intptr_t rank,
                                                        const int64_t *index, int64_t *offset);

/// Which logical element holds storage byte `byteOffset`. On success
/// `*isPadding` says whether it is padding; otherwise `index` (rank entries,
/// may be null when rank is 0) receives the element and `*byteInElement` the
/// byte within it. Fails when the offset is outside the storage.
DLA_CAPI_EXPORTED DlaStatus dlaBoundLayoutLocate(DlaBoundLayout layout, int64_t byteOffset,
                                                 bool *isPadding, int64_t *index,
                                                 int64_t *byteInElement);

/// Writes the storage image of `logical` into `storage`. Fails (writing
/// nothing) unless logicalBytes == numElements * elementBytes and
/// storageBytes == dlaBoundLayoutGetStorageBytes.
DLA_CAPI_EXPORTED DlaStatus dlaBoundLayoutPack(DlaBoundLayout layout, const void *logical,
                                               size_t logicalBytes, void *storage,
                                               size_t storageBytes);

/// The exact inverse of dlaBoundLayoutPack on the logical elements. Same
/// size checks.
DLA_CAPI_EXPORTED DlaStatus dlaBoundLayoutUnpack(DlaBoundLayout layout, const void *storage,
                                                 size_t storageBytes, void *logical,
                                                 size_t logicalBytes);

/*===----------------------------------------------------------------------===*
 * Storage description: buffers and typed strided views
 *===----------------------------------------------------------------------===*/

/// The storage buffers of a bound layout and the typed strided views inside
/// them (BoundLayout::describeStorage). Owned by the caller
/// (dlaStorageDescriptionDestroy); independent of the layout it came from.
typedef struct DlaStorageDescription {
  void *ptr;
} DlaStorageDescription;

DLA_CAPI_EXPORTED DlaStorageDescription dlaBoundLayoutDescribeStorage(DlaBoundLayout layout);
DLA_CAPI_EXPORTED void dlaStorageDescriptionDestroy(DlaStorageDescription description);

DLA_CAPI_EXPORTED intptr_t dlaStorageDescriptionGetNumBuffers(DlaStorageDescription description);
/// Buffer `pos`: its name (valid while the description lives), size in bytes
/// (-1: data-dependent) and start alignment in bytes.
DLA_CAPI_EXPORTED DlaStatus dlaStorageDescriptionGetBuffer(DlaStorageDescription description,
                                                           intptr_t pos, const char **name,
                                                           int64_t *bytes, int64_t *alignment);

/// Number of views; 0 when the layout is no set of strided views (then
/// dlaBoundLayoutGetByteOffset is the map).
DLA_CAPI_EXPORTED intptr_t dlaStorageDescriptionGetNumViews(DlaStorageDescription description);
/// View `pos`: name, buffer index, storage element width in bytes, offset of
/// position (0,...,0) in storage elements, number of dimensions.
DLA_CAPI_EXPORTED DlaStatus dlaStorageDescriptionGetView(DlaStorageDescription description,
                                                         intptr_t pos, const char **name,
                                                         intptr_t *buffer, int64_t *elementBytes,
                                                         int64_t *offset, intptr_t *numDims);
/// Dimension `dim` of view `view`: extent, stride in storage elements, the
/// logical dimension it indexes and the logical step of one position.
DLA_CAPI_EXPORTED DlaStatus dlaStorageDescriptionGetViewDim(DlaStorageDescription description,
                                                            intptr_t view, intptr_t dim,
                                                            int64_t *extent, int64_t *stride,
                                                            int64_t *logicalDim, int64_t *weight);
/// Logical index of the view's position (0,...,0) along `logicalDim` (0
/// unless the view covers one component of several, e.g. a pixel plane).
DLA_CAPI_EXPORTED int64_t dlaStorageDescriptionGetViewLogicalBase(
    DlaStorageDescription description, intptr_t view, intptr_t logicalDim);

/*===----------------------------------------------------------------------===*
 * Chunked (HTP-style) layouts, without MLIR
 *===----------------------------------------------------------------------===*/

/// Number of chunked presets (flat, nchw, depth32, crouton, crouton4x1,
/// crouton2x2, crouton2, conv_weight).
DLA_CAPI_EXPORTED intptr_t dlaChunkedGetNumPresets(void);
/// Name of preset `pos` as spelled in `#dla.chunked<...>`, or NULL when out
/// of range. Static storage.
DLA_CAPI_EXPORTED const char *dlaChunkedGetPresetName(intptr_t pos);

/// The pairs of a preset named `name` (NUL-terminated). Writes up to
/// `capacity` pairs into dims/sizes and the true count into `*numPairs`
/// (call with capacity 0 to size the arrays). Fails for an unknown name.
DLA_CAPI_EXPORTED DlaStatus dlaChunkedGetPresetPairs(const char *name, intptr_t capacity,
                                                     int64_t *dims, int64_t *sizes,
                                                     intptr_t *numPairs);

/// Checks a list of (dim, size) pairs, outermost first. The rank is the
/// largest dim + 1.
DLA_CAPI_EXPORTED DlaStatus dlaChunkedValidate(intptr_t numPairs, const int64_t *dims,
                                               const int64_t *sizes);

/// Binds a chunked layout to a logical shape and element width. On success
/// `*result` owns a new bound layout.
DLA_CAPI_EXPORTED DlaStatus dlaChunkedBind(intptr_t numPairs, const int64_t *dims,
                                           const int64_t *sizes, intptr_t rank,
                                           const int64_t *shape, int64_t elementBytes,
                                           DlaBoundLayout *result);

/*===----------------------------------------------------------------------===*
 * NVDLA scale / shift registers (dla/Format/NvdlaScale.h)
 *===----------------------------------------------------------------------===*/

/// How a real factor becomes an int16 scale: NVIDIA's compiler truncates
/// (error < 2^-shift); Nearest rounds half away from zero (error <=
/// 2^-(shift+1)).
typedef enum DlaScaleRounding {
  DlaScaleRoundingTruncate = 0,
  DlaScaleRoundingNearest = 1,
} DlaScaleRounding;

/// Factors (one, or one per channel) as int16 scales sharing one right
/// shift (0..63): factors[i] ~ scales[i] * 2^-shift, each within
/// *errorBound. The shift is NVIDIA's 15 - (floor(log2 max|factor|) + 1).
/// Writes numFactors scales. Fails for no factors, NaN or infinity,
/// |factor| >= 2^15, a largest |factor| below 2^-49 (shift > 63), or an
/// unknown rounding.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaScalesFromFactors(intptr_t numFactors, const double *factors,
                                                      int rounding, int16_t *scales,
                                                      uint8_t *shift, double *errorBound);

/// How an int32 bias becomes an int16 ALU operand: NVIDIA's compiler floors
/// (b >> shift); Nearest rounds half away from zero.
typedef enum DlaBiasRounding {
  DlaBiasRoundingFloor = 0,
  DlaBiasRoundingNearest = 1,
} DlaBiasRounding;

/// int32 biases as int16 values sharing the smallest left shift (the SDP
/// ALU_SHIFT_VALUE) that fits them all: |bias[i] - values[i] * 2^shift| <=
/// *errorBound (2^shift - 1 for Floor, 2^(shift-1) for Nearest). Writes
/// numBias values. Fails only for bad arguments.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaBiasToInt16(intptr_t numBias, const int32_t *bias,
                                                int rounding, int16_t *values, uint8_t *shift,
                                                int64_t *errorBound);

/// The SDP Y stage's lookup table (#dla.lut) as one int64 array of
/// DLA_NVDLA_LUT_REGISTERS values, in this order: le[65], lo[257],
/// le_linear (0 exponent, 1 linear), le_start, le_end, lo_start, lo_end,
/// le_index_offset, le_index_select, lo_index_select, then scale and shift
/// of the LE underflow, LE overflow, LO underflow, LO overflow slopes, then
/// uflow, oflow, hybrid priority (1: LO).
#define DLA_NVDLA_LUT_REGISTERS 341

/// The LUT in float mode (proc precision FP16, docs/NvdlaFp16.md) on
/// numValues fp32 bit patterns x: writes the fp32 bit patterns the Y stage
/// hands to the output converter. Entries and slope scales are read as
/// fp16 bits, starts / ends as fp32 bits. Fails for null arrays or a
/// register count other than DLA_NVDLA_LUT_REGISTERS.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaLutFloat(intptr_t numRegisters, const int64_t *registers,
                                             intptr_t numValues, const uint32_t *x,
                                             uint32_t *y);

/// The float-mode program the compiler runs for `function` ("sigmoid",
/// "tanh"): writes DLA_NVDLA_LUT_REGISTERS registers, and, where not
/// null, its largest absolute error over every finite fp16 input (the
/// layer's fp16 output against the function in float64) and where.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaLutFloatProgram(const char *function,
                                                    intptr_t numRegisters, int64_t *registers,
                                                    double *maxError, double *at);

/// The CDP's float-mode tables of an fp16 LRN (x (k + alpha / size *
/// S)^-beta, nv_full) as the register plan programs them: writes
/// DLA_NVDLA_LUT_REGISTERS registers (lrnFloatTables, NvdlaCdpFp16.h).
/// Fails for a null array or another register count.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaLrnFloatTables(double alpha, double beta, double k,
                                                   int64_t size, intptr_t numRegisters,
                                                   int64_t *registers);

/// NVDLA's fp16 convolution arithmetic (nv_full, docs/NvdlaFp16.md), on bit
/// patterns, function by function (utils/dla-ref/fp_nvdla.py's names).
/// CMAC (cmac_fp16): numAtoms atoms of DLA_NVDLA_FP16_MAC_ATOM channels of
/// fp16 data and weights, row after row; writes each atom's result word
/// (exponent, 38-bit signed mantissa).
#define DLA_NVDLA_FP16_MAC_ATOM 64
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaCmacFp16(intptr_t numAtoms, const uint16_t *data,
                                             const uint16_t *weight, int64_t *exponent,
                                             int64_t *mantissa);

/// CACC (cacc_add): n accumulators (exponent, 40-bit signed mantissa)
/// plus n CMAC words; writes the new accumulators.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaCaccAdd(intptr_t n, const int64_t *accExponent,
                                            const int64_t *accMantissa,
                                            const int64_t *macExponent,
                                            const int64_t *macMantissa, int64_t *outExponent,
                                            int64_t *outMantissa);

/// cacc_to_fp32: the fp32 bits CACC hands the SDP for n accumulators.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaCaccToFp32(intptr_t n, const int64_t *exponent,
                                               const int64_t *mantissa, uint32_t *out);

/// conv_fp16: a direct convolution of one image x (C x H x W fp16 bits,
/// row-major) with w (K x C x R x S) as CACC delivers it: out (K x OH x OW
/// fp32 bits). shape: C, H, W, K, R, S; params: stride H / W, padding
/// top / bottom / left / right, dilation H / W. Fails for bad geometry.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaConvFp16(const int64_t *shape, const int64_t *params,
                                             const uint16_t *x, const uint16_t *w,
                                             uint32_t *out);

/// conv_wino_fp16: a 3x3 stride-1 Winograd convolution of one image x
/// (C x H x W fp16 bits) with the stored taps (K x C' x 4 x 4 fp16 bits,
/// C' >= C) as CACC delivers it: out (K x OH x OW fp32 bits). shape: C,
/// H, W, K, C'; pad: top / bottom / left / right; padValue: fp16 bits.
/// Fails for bad geometry.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaConvWinoFp16(const int64_t *shape, const int64_t *pad,
                                                 uint16_t padValue, const uint16_t *x,
                                                 const uint16_t *taps, uint32_t *out);

/// sdp_x_fp16: one SDP X stage at precision FP16 on n fp32 bit patterns,
/// per-element fp16 operands (null: unused). config: alu_bypass, alu_algo
/// (0 max, 1 min, 2 sum), mul_bypass, mul_prelu, relu_bypass, nan_to_zero.
DLA_CAPI_EXPORTED DlaStatus dlaNvdlaSdpXFp16(const int64_t *config, intptr_t n,
                                             const uint32_t *x, const uint16_t *aluOperand,
                                             const uint16_t *mulOperand, uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif /* DLA_C_FORMAT_H */
