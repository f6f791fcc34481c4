//===- NvdlaHardware.h - NVDLA hardware configurations ----------*- C++ -*-===//
//
// The convolution-core parameters that shape weight data, for the three
// configurations of NVIDIA's open-source NVDLA (numbers from its compiler,
// nvdla/sw):
//
//   name      atomic-C  atomic-K  weight-buffer entry
//   nv_full   64        32        128 B   (the format document's numbers)
//   nv_large  64        32         64 B
//   nv_small   8         8          8 B
//
// atomic-C is the number of elements (channels) in a direct-convolution
// channel cube; a kernel group holds atomic-K kernels for 1-byte precision and
// atomic-K / 2 for 2-byte precision. Uncompressed weight streams are
// zero-padded at the end to a whole weight-buffer entry.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAHARDWARE_H
#define DLA_FORMAT_NVDLAHARDWARE_H

#include "dla/Format/EnumTable.h"
#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaPrecision.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace dlaformat::nvdla {

enum class HardwareKind { NvFull, NvLarge, NvSmall, Last = NvSmall };

/// What a configuration's hardware has (nvdla/hw spec/defs/*.spec, in the
/// shape of NVIDIA's compiler, umd/core/src/compiler/TargetConfig.cpp). Where
/// the two differ the hardware's spec wins: NVIDIA's compiler turns Winograd
/// and weight compression off on nv_full, which the hardware has.
struct Capabilities {
  bool int8, int16, fp16;         ///< FEATURE_DATA_TYPE_* / WEIGHT_DATA_TYPE_*
  bool winograd;                  ///< WINOGRAD_ENABLE
  bool weightCompression;         ///< WEIGHT_COMPRESSION_ENABLE
  bool batch;                     ///< BATCH_ENABLE (MAX_BATCH_SIZE)
  bool sdpBs, sdpBn, sdpEw, sdpLut; ///< SDP_BS/BN/EW/LUT_ENABLE
  bool pdp, cdp, bdma, rubik;     ///< PDP/CDP/BDMA/RUBIK_ENABLE
  bool cvsram;                    ///< SECONDARY_MEMIF_ENABLE (the CV-SRAM)
  int64_t memoryAtomBytes;        ///< MEMORY_ATOMIC_SIZE
  int64_t cbufBanks;              ///< CBUF_BANK_NUMBER
  int64_t cbufBankEntries;        ///< CBUF_BANK_DEPTH
  /// NVDLA_MEM_ADDRESS_WIDTH (MEM_ADDRESS_WIDTH_32 / _64): the bits of a
  /// DMA address. nv_full (v1, no such define) has 64: ADDR_HIGH + ADDR_LOW.
  int64_t memoryAddressBits;
};

struct HardwareConfig {
  HardwareKind kind;
  std::string_view name;        ///< "nv_full", "nv_large", "nv_small"
  int64_t atomicC;              ///< elements per direct-convolution channel cube
  int64_t atomicK;              ///< kernels per group for 1-byte precision
  int64_t weightBufferEntryBytes; ///< convolution-buffer entry width in bytes (CBUF_BANK_WIDTH)
  Capabilities caps;

  /// Kernels per kernel group: atomic-K for int8, atomic-K / 2 for int16 and
  /// fp16.
  int64_t getKernelsPerGroup(Precision precision) const {
    return getBytesPerElement(precision) == 1 ? atomicK : atomicK / 2;
  }
  /// Whether the configuration computes in `precision`.
  constexpr bool hasPrecision(Precision precision) const {
    switch (precision) {
    case Precision::Int8:
      return caps.int8;
    case Precision::Int16:
      return caps.int16;
    case Precision::Fp16:
      return caps.fp16;
    }
    return false;
  }
  /// The convolution buffer's bytes.
  constexpr int64_t getConvBufferBytes() const {
    return caps.cbufBanks * caps.cbufBankEntries * weightBufferEntryBytes;
  }
};

/// One row per configuration, indexed by HardwareKind; also the name table
/// (`#dla.weight<..., config = nv_small>`). nv_full is nvdla/hw's v1 full
/// configuration (every unit, every precision; its buffer as NVIDIA's
/// compiler has it), nv_large and nv_small their .spec files.
inline constexpr HardwareConfig kHardwareConfigs[] = {
    {HardwareKind::NvFull, "nv_full", 64, 32, 128,
     {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true,
      32, 16, 256, 64}},
    {HardwareKind::NvLarge, "nv_large", 64, 32, 64,
     {true, false, false, false, false, false, true, true, true, true, true, true, false, false,
      true, 32, 16, 512, 64}},
    {HardwareKind::NvSmall, "nv_small", 8, 8, 8,
     {true, false, false, false, false, false, true, true, false, false, true, true, false,
      false, false, 8, 32, 512, 32}},
};
constexpr const auto &enumEntries(HardwareKind) { return kHardwareConfigs; }
// The SDP's LUT belongs to its Y stage: no configuration has one without the
// other, so a Y stage's lut needs no rule of its own.
static_assert([] {
  for (const HardwareConfig &c : kHardwareConfigs)
    if (c.caps.sdpLut != c.caps.sdpEw)
      return false;
  return true;
}());
static_assert(isInDeclarationOrder(kHardwareConfigs, &HardwareConfig::kind));

/// The configuration of `kind`.
constexpr const HardwareConfig &getHardwareConfig(HardwareKind kind) {
  return kHardwareConfigs[static_cast<size_t>(kind)];
}
/// nv_full, the default everywhere.
constexpr const HardwareConfig &getDefaultHardwareConfig() {
  return getHardwareConfig(HardwareKind::NvFull);
}
/// The highest byte address `c`'s DMA engines reach: 2^memoryAddressBits - 1.
constexpr uint64_t getLastMemoryAddress(const HardwareConfig &c) {
  return c.caps.memoryAddressBits >= 64 ? UINT64_MAX
                                        : (uint64_t(1) << c.caps.memoryAddressBits) - 1;
}

/// The largest memory NVIDIA's runtime allocates for a loadable's memory
/// list entry: its port's NvDlaAllocMem (umd/port/linux/nvdla.c) takes an
/// NvU32 size and maps it through nvdla_mem_map's `int size`, so a size
/// beyond INT32_MAX turns negative there. (loadable.fbs's size is a ulong
/// and dla_data_cube's size and offset are uint32: the port is the bound.)
inline constexpr int64_t kRuntimeMaxAllocationBytes = INT32_MAX;

/// The widest stride a DMA engine's *_LINE_STRIDE / *_SURF(ACE)_STRIDE
/// register holds: whole 32-bit registers (opendla.h, every configuration).
inline constexpr int64_t kMaxDmaStrideBytes = UINT32_MAX;
/// CACC's D_LINE_STRIDE and D_SURF_STRIDE hold 24 bits (opendla.h
/// NVDLA_CACC_D_LINE_STRIDE_0_LINE_STRIDE_FIELD 0xffffff; v1's 19 bits from
/// bit 5 are the same bound); NVIDIA's firmware writes a convolution's
/// output strides there.
inline constexpr int64_t kMaxCaccStrideBytes = (int64_t(1) << 24) - 1;

/// Empty when `c` computes in `precision`, else why not, naming the
/// spec's macros ("nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)").
std::string whyNotPrecision(const HardwareConfig &c, Precision precision);
/// Empty when `c` has Winograd convolution, else why not
/// ("nv_small has no Winograd convolution (WINOGRAD_DISABLE)").
std::string whyNotWinograd(const HardwareConfig &c);
/// Why a Winograd convolution cannot have an input converter (offset,
/// scale, shift of CDMA's direct and image paths) on any configuration.
extern const char *const kWinogradInputConverterReason;
/// Empty when `c`'s convolution takes a batch of `inputs` images in one
/// layer, else why not ("nv_small has no batch mode (BATCH_DISABLE)"; more
/// inputs than BATCH_NUMBER's 5 bits count).
std::string whyNotBatch(const HardwareConfig &c, int64_t inputs = 1);
/// Empty when `c` has the CV-SRAM, NVDLA's second memory interface
/// (SRAMIF, cmod/cvif), else why not ("nv_small has no CV-SRAM
/// (SECONDARY_MEMIF_DISABLE)"): v1's spec/defs/nv_full.spec:5, master's
/// nv_large.spec:6 and nv_small.spec:7.
std::string whyNotCvsram(const HardwareConfig &c);
/// Empty when `c` reads compressed weights, else why not
/// ("nv_small has no weight compression (WEIGHT_COMPRESSION_DISABLE)").
std::string whyNotWeightCompression(const HardwareConfig &c);

/// Looks a configuration up by name; the error lists the known names.
Expected<HardwareConfig> lookupHardwareConfig(std::string_view name);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAHARDWARE_H
