//===- NvdlaHardwareTest.cpp - The configurations' capability table ------===//
//
// Rows checked against nvdla/hw spec/defs/nv_small.spec and nv_large.spec
// and NVIDIA's compiler (umd/core/src/compiler/TargetConfig.cpp), written
// out here by hand from those files.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaHardware.h"

#include <gtest/gtest.h>

using namespace dlaformat::nvdla;

TEST(NvdlaHardware, SmallIsInt8OnlyWithoutYStage) {
  const HardwareConfig &c = getHardwareConfig(HardwareKind::NvSmall);
  EXPECT_TRUE(c.hasPrecision(Precision::Int8));
  EXPECT_FALSE(c.hasPrecision(Precision::Int16));
  EXPECT_FALSE(c.hasPrecision(Precision::Fp16));
  EXPECT_FALSE(c.caps.winograd);
  EXPECT_FALSE(c.caps.weightCompression);
  EXPECT_TRUE(c.caps.sdpBs && c.caps.sdpBn);
  EXPECT_FALSE(c.caps.sdpEw || c.caps.sdpLut);
  EXPECT_TRUE(c.caps.pdp && c.caps.cdp);
  EXPECT_EQ(c.caps.memoryAtomBytes, 8);
  // 32 banks x 512 entries x 8 bytes.
  EXPECT_EQ(c.getConvBufferBytes(), 128 * 1024);
}

TEST(NvdlaHardware, LargeIsInt8OnlyWithEveryStage) {
  const HardwareConfig &c = getHardwareConfig(HardwareKind::NvLarge);
  EXPECT_TRUE(c.hasPrecision(Precision::Int8));
  EXPECT_FALSE(c.hasPrecision(Precision::Int16) || c.hasPrecision(Precision::Fp16));
  EXPECT_FALSE(c.caps.winograd || c.caps.weightCompression || c.caps.batch);
  EXPECT_TRUE(c.caps.sdpEw && c.caps.sdpLut);
  EXPECT_EQ(c.caps.memoryAtomBytes, 32);
  EXPECT_EQ(c.getConvBufferBytes(), 512 * 1024);
}

TEST(NvdlaHardware, FullHasEverything) {
  const HardwareConfig &c = getHardwareConfig(HardwareKind::NvFull);
  for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16})
    EXPECT_TRUE(c.hasPrecision(p));
  EXPECT_TRUE(c.caps.winograd && c.caps.weightCompression && c.caps.batch);
  EXPECT_TRUE(c.caps.sdpEw && c.caps.sdpLut && c.caps.bdma && c.caps.rubik);
  EXPECT_EQ(c.getConvBufferBytes(), 512 * 1024);
}

TEST(NvdlaHardware, ReasonsNameTheSpecMacros) {
  const HardwareConfig &small = getHardwareConfig(HardwareKind::NvSmall);
  EXPECT_EQ(whyNotPrecision(small, Precision::Fp16),
            "nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)");
  EXPECT_EQ(whyNotPrecision(small, Precision::Int8), "");
  EXPECT_EQ(whyNotWinograd(small), "nv_small has no Winograd convolution (WINOGRAD_DISABLE)");
  EXPECT_EQ(whyNotWeightCompression(getHardwareConfig(HardwareKind::NvLarge)),
            "nv_large has no weight compression (WEIGHT_COMPRESSION_DISABLE)");
  const HardwareConfig &full = getDefaultHardwareConfig();
  EXPECT_EQ(whyNotWinograd(full) + whyNotWeightCompression(full) +
                whyNotPrecision(full, Precision::Int16),
            "");
}

TEST(NvdlaHardware, BatchAndCvsramFromTheSpecs) {
  // BATCH_NUMBER holds the inputs less one in 5 bits (the firmware's
  // opendla_initial.h CDMA_D_BATCH_NUMBER_0_BATCHES_FIELD 0x1f).
  const HardwareConfig &full = getDefaultHardwareConfig();
  EXPECT_EQ(whyNotBatch(full, 32), "");
  EXPECT_EQ(whyNotBatch(full, 33), "a batch of 33 inputs: BATCH_NUMBER counts at most 32");
  EXPECT_EQ(whyNotBatch(getHardwareConfig(HardwareKind::NvLarge), 1),
            "nv_large has no batch mode (BATCH_DISABLE)");
  // SECONDARY_MEMIF_ENABLE: nv_full.spec (v1), nv_large.spec; not nv_small.
  EXPECT_EQ(whyNotCvsram(full) + whyNotCvsram(getHardwareConfig(HardwareKind::NvLarge)), "");
  EXPECT_EQ(whyNotCvsram(getHardwareConfig(HardwareKind::NvSmall)),
            "nv_small has no CV-SRAM (SECONDARY_MEMIF_DISABLE)");
}

TEST(NvdlaHardware, MemoryAddressWidthsFromTheSpecs) {
  // nv_small.spec: MEM_ADDRESS_WIDTH_32; nv_large.spec: MEM_ADDRESS_WIDTH_64;
  // v1 nv_full: 32-bit *_ADDR_HIGH over *_ADDR_LOW.
  EXPECT_EQ(getHardwareConfig(HardwareKind::NvSmall).caps.memoryAddressBits, 32);
  EXPECT_EQ(getLastMemoryAddress(getHardwareConfig(HardwareKind::NvSmall)), 0xffffffffull);
  EXPECT_EQ(getHardwareConfig(HardwareKind::NvLarge).caps.memoryAddressBits, 64);
  EXPECT_EQ(getLastMemoryAddress(getHardwareConfig(HardwareKind::NvLarge)), ~0ull);
  EXPECT_EQ(getHardwareConfig(HardwareKind::NvFull).caps.memoryAddressBits, 64);
  // NvDlaAllocMem's size through nvdla_mem_map's int; CACC's 24-bit strides.
  EXPECT_EQ(kRuntimeMaxAllocationBytes, 2147483647);
  EXPECT_EQ(kMaxDmaStrideBytes, 4294967295);
  EXPECT_EQ(kMaxCaccStrideBytes, 0xffffff);
}
