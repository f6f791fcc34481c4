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
  int64_t macs;
  int64_t channelGranule;
  int64_t kernelGranule;
  int64_t featureChannelGranule;
  int64_t convBufferBytes;
  double clockHz;
  double dramBytesPerSecond;
  int64_t memifBytesPerCycle;
  double memoryLatencyCycles;
  int64_t sdpThroughput;
  int64_t sdpEwThroughput;
  int64_t pdpThroughput;
  int64_t cdpThroughput;
  int32_t winograd;
  int64_t fcBatch;
  int32_t foldStride;
  int32_t spreadsheetBufferRule;
  int32_t postProcessingBound;
  int32_t winogradWeightsExpanded;
  int32_t fcWeightsAmortized;
  int32_t bufferReloads;
  int64_t minInputExtraRows;
  int64_t minWeightKernels;
  int32_t sideByLeastInput;
  int32_t sideByAllWeights;
  int32_t operandAfterPooling;
  double convStartCycles;
  double sdpStartCycles;
  double pdpStartCycles;
  double cdpStartCycles;
  double startLatencies;
  int64_t readsInFlight;
  double requestCycles;
  int64_t stripeAtomics;
  double stripeCycles;
  double firstStripeAtomCycles;
  double convSdpAtomCycles;
  int64_t unitChannelGranule;
} DlaPerfConfig;

/// Mirrors dlaformat::nvdla::PerfLayer; kind: 0 convolution, 1 fully
/// connected, 2 SDP, 3 PDP, 4 CDP.
typedef struct DlaPerfLayer {
  int32_t kind;
  int64_t channels;
  int64_t height;
  int64_t width;
  int64_t kernels;
  int64_t kernelH;
  int64_t kernelW;
  int64_t strideH;
  int64_t strideW;
  int64_t padTop;
  int64_t padBottom;
  int64_t padLeft;
  int64_t padRight;
  int64_t dilationH;
  int64_t dilationW;
  int32_t winograd;
  int64_t poolH;
  int64_t poolW;
  int64_t poolStrideH;
  int64_t poolStrideW;
  int64_t poolPadTop;
  int64_t poolPadBottom;
  int64_t poolPadLeft;
  int64_t poolPadRight;
  int32_t elementwiseOperand;
  int64_t weightBytes;
  int64_t weightBanks;
} DlaPerfLayer;

/// Mirrors dlaformat::nvdla::PerfEstimate; longPole: 0 MAC, 1 memory, 2 SDP,
/// 3 PDP, 4 CDP.
typedef struct DlaPerfEstimate {
  double macCycles;
  double memoryCycles;
  double sdpCycles;
  double pdpCycles;
  double cdpCycles;
  double stripeCycles;
  double startCycles;
  double cycles;
  int32_t longPole;
  double inputBytes;
  double weightBytes;
  double outputBytes;
  double operandBytes;
  double trafficBytes;
  int64_t inputReads;
  int64_t weightReads;
  int64_t outHeight;
  int64_t outWidth;
  double networkMacs;
  double seconds;
} DlaPerfEstimate;

/// The configuration `name` (nv_full, nv_large, nv_small) at `precision`
/// (int8, int16, fp16), with a clock and a DRAM bandwidth.
DLA_CAPI_EXPORTED DlaStatus dlaPerfGetHardwareConfig(const char *name, const char *precision,
                                                     double clockHz, double dramBytesPerSecond,
                                                     DlaPerfConfig *out);
/// NVIDIA's spreadsheet's configuration and conventions.
DLA_CAPI_EXPORTED void dlaPerfGetSpreadsheetConfig(DlaPerfConfig *out);
/// Estimates `layer` on `config`; `plan` (a char buffer, may be null)
/// receives the buffer plan in words, NUL-terminated and cut to
/// `planCapacity` bytes.
DLA_CAPI_EXPORTED DlaStatus dlaPerfEstimateLayer(const DlaPerfConfig *config,
                                                 const DlaPerfLayer *layer, DlaPerfEstimate *out,
                                                 void *plan, size_t planCapacity);
/// "MAC", "memory", "SDP", "PDP", "CDP" ("?" out of range).
DLA_CAPI_EXPORTED const char *dlaPerfGetLongPoleName(int32_t pole);

#ifdef __cplusplus
}
#endif

#endif /* DLA_C_PERFORMANCE_H */
