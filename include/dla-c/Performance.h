/*===- dla-c/Performance.h - C API of the performance model --------*- C -*-===*\
|*                                                                            *|
|* The format library's performance model (dla/Format/NvdlaPerformance.h,     *|
|* docs/PerformanceModel.md) for C programs and Python's ctypes: a            *|
|* configuration (a hardware one, optionally changed, or NVIDIA's             *|
|* spreadsheet's), one hardware layer in, its cycles and long pole out.       *|
|* Plain structs; flags are int32 (0 / 1). Status as in dla-c/Format.h.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DLA_C_PERFORMANCE_H
#define DLA_C_PERFORMANCE_H

#include "dla-c/Format.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Mirrors dlaformat::nvdla::PerfConfig (its fields' documentation).
typedef struct DlaPerfConfig {
  int32_t base;      /* HardwareKind: 0 nv_full, 1 nv_large, 2 nv_small */
  int32_t precision; /* 0 int8, 1 int16, 2 fp16 */
  int64_t macs, channelGranule, kernelGranule, featureChannelGranule, convBufferBytes;
  double clockHz, dramBytesPerSecond;
  int64_t memifBytesPerCycle;
  double memoryLatencyCycles;
  int64_t sdpThroughput, sdpEwThroughput, pdpThroughput, cdpThroughput;
  int32_t winograd;
  int64_t fcBatch;
  int32_t foldStride, spreadsheetBufferRule, postProcessingBound, winogradWeightsExpanded,
      fcWeightsAmortized, bufferReloads;
  int64_t minInputExtraRows, minWeightKernels;
  int32_t sideByLeastInput, sideByAllWeights, operandAfterPooling;
} DlaPerfConfig;

/// Mirrors dlaformat::nvdla::PerfLayer; kind: 0 convolution, 1 fully
/// connected, 2 SDP, 3 PDP, 4 CDP.
typedef struct DlaPerfLayer {
  int32_t kind;
  int64_t channels, height, width, kernels, kernelH, kernelW, strideH, strideW;
  int64_t padTop, padBottom, padLeft, padRight, dilationH, dilationW;
  int32_t winograd;
  int64_t poolH, poolW, poolStrideH, poolStrideW;
  int64_t poolPadTop, poolPadBottom, poolPadLeft, poolPadRight;
  int32_t elementwiseOperand;
  int64_t weightBytes;
} DlaPerfLayer;

/// Mirrors dlaformat::nvdla::PerfEstimate; longPole: 0 MAC, 1 memory, 2 SDP,
/// 3 PDP, 4 CDP.
typedef struct DlaPerfEstimate {
  double macCycles, memoryCycles, sdpCycles, pdpCycles, cdpCycles, cycles;
  int32_t longPole;
  double inputBytes, weightBytes, outputBytes, operandBytes, trafficBytes;
  int64_t inputReads, weightReads, outHeight, outWidth;
  double networkMacs, seconds;
} DlaPerfEstimate;

/// The configuration `name` (nv_full, nv_large, nv_small) at `precision`
/// (int8, int16, fp16), with a clock and a DRAM bandwidth.
DLA_CAPI_EXPORTED DlaStatus dlaPerfGetHardwareConfig(const char *name, const char *precision,
                                                     double clockHz, double dramBytesPerSecond,
                                                     DlaPerfConfig *out);
/// NVIDIA's spreadsheet's configuration and conventions.
DLA_CAPI_EXPORTED void dlaPerfGetSpreadsheetConfig(DlaPerfConfig *out);
/// Estimates `layer` on `config`; `plan` (may be null) receives the buffer
/// plan in words, NUL-terminated and cut to `planCapacity` bytes.
DLA_CAPI_EXPORTED DlaStatus dlaPerfEstimateLayer(const DlaPerfConfig *config,
                                                 const DlaPerfLayer *layer, DlaPerfEstimate *out,
                                                 char *plan, size_t planCapacity);
/// "MAC", "memory", "SDP", "PDP", "CDP" ("?" out of range).
DLA_CAPI_EXPORTED const char *dlaPerfGetLongPoleName(int32_t pole);

#ifdef __cplusplus
}
#endif

#endif /* DLA_C_PERFORMANCE_H */
