//===- NvdlaRegisterMap.h - NVDLA CSB registers and their fields -*- C++ -*-===//
//
// The CSB registers a register program writes: the block and register name
// as NVIDIA's trace format spells them (`NVDLA_SDP.D_OP_ENABLE_0`), their
// address, and the bit position of each field the program composes.
// Transcribed once from the register manual as the hw build generates it
// (nvdla/hw spec/manual -> outdir/<cfg>/spec/manual/opendla.h; the same
// addresses and fields for nv_small and nv_large). Field ranges the IR
// states are in NvdlaRegisters.h.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAREGISTERMAP_H
#define DLA_FORMAT_NVDLAREGISTERMAP_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dlaformat::nvdla {

// X(block, register without its `_0`, CSB byte address)
#define DLA_NVDLA_CSB_REGISTERS(X)                                                                 \
  X(CDMA, S_POINTER, 0x3004)                                                                       \
  X(CDMA, D_OP_ENABLE, 0x3010)                                                                     \
  X(CDMA, D_MISC_CFG, 0x3014)                                                                      \
  X(CDMA, D_DATAIN_FORMAT, 0x3018)                                                                 \
  X(CDMA, D_DATAIN_SIZE_0, 0x301c)                                                                 \
  X(CDMA, D_DATAIN_SIZE_1, 0x3020)                                                                 \
  X(CDMA, D_DATAIN_SIZE_EXT_0, 0x3024)                                                             \
  X(CDMA, D_PIXEL_OFFSET, 0x3028)                                                                  \
  X(CDMA, D_DAIN_RAM_TYPE, 0x302c)                                                                 \
  X(CDMA, D_DAIN_ADDR_HIGH_0, 0x3030)                                                              \
  X(CDMA, D_DAIN_ADDR_LOW_0, 0x3034)                                                               \
  X(CDMA, D_DAIN_ADDR_HIGH_1, 0x3038)                                                              \
  X(CDMA, D_DAIN_ADDR_LOW_1, 0x303c)                                                               \
  X(CDMA, D_LINE_STRIDE, 0x3040)                                                                   \
  X(CDMA, D_LINE_UV_STRIDE, 0x3044)                                                                \
  X(CDMA, D_SURF_STRIDE, 0x3048)                                                                   \
  X(CDMA, D_DAIN_MAP, 0x304c)                                                                      \
  X(CDMA, D_RESERVED_X_CFG, 0x3050)                                                                \
  X(CDMA, D_BATCH_NUMBER, 0x3058)                                                                  \
  X(CDMA, D_BATCH_STRIDE, 0x305c)                                                                  \
  X(CDMA, D_ENTRY_PER_SLICE, 0x3060)                                                               \
  X(CDMA, D_FETCH_GRAIN, 0x3064)                                                                   \
  X(CDMA, D_WEIGHT_FORMAT, 0x3068)                                                                 \
  X(CDMA, D_WEIGHT_SIZE_0, 0x306c)                                                                 \
  X(CDMA, D_WEIGHT_SIZE_1, 0x3070)                                                                 \
  X(CDMA, D_WEIGHT_RAM_TYPE, 0x3074)                                                               \
  X(CDMA, D_WEIGHT_ADDR_HIGH, 0x3078)                                                              \
  X(CDMA, D_WEIGHT_ADDR_LOW, 0x307c)                                                               \
  X(CDMA, D_WEIGHT_BYTES, 0x3080)                                                                  \
  X(CDMA, D_WGS_ADDR_HIGH, 0x3084)                                                                 \
  X(CDMA, D_WGS_ADDR_LOW, 0x3088)                                                                  \
  X(CDMA, D_WMB_ADDR_HIGH, 0x308c)                                                                 \
  X(CDMA, D_WMB_ADDR_LOW, 0x3090)                                                                  \
  X(CDMA, D_WMB_BYTES, 0x3094)                                                                     \
  X(CDMA, D_MEAN_FORMAT, 0x3098)                                                                   \
  X(CDMA, D_MEAN_GLOBAL_0, 0x309c)                                                                 \
  X(CDMA, D_MEAN_GLOBAL_1, 0x30a0)                                                                 \
  X(CDMA, D_CVT_CFG, 0x30a4)                                                                       \
  X(CDMA, D_CVT_OFFSET, 0x30a8)                                                                    \
  X(CDMA, D_CVT_SCALE, 0x30ac)                                                                     \
  X(CDMA, D_CONV_STRIDE, 0x30b0)                                                                   \
  X(CDMA, D_ZERO_PADDING, 0x30b4)                                                                  \
  X(CDMA, D_ZERO_PADDING_VALUE, 0x30b8)                                                            \
  X(CDMA, D_BANK, 0x30bc)                                                                          \
  X(CDMA, D_NAN_FLUSH_TO_ZERO, 0x30c0)                                                             \
  X(CSC, S_POINTER, 0x4004)                                                                        \
  X(CSC, D_OP_ENABLE, 0x4008)                                                                      \
  X(CSC, D_MISC_CFG, 0x400c)                                                                       \
  X(CSC, D_DATAIN_FORMAT, 0x4010)                                                                  \
  X(CSC, D_DATAIN_SIZE_EXT_0, 0x4014)                                                              \
  X(CSC, D_DATAIN_SIZE_EXT_1, 0x4018)                                                              \
  X(CSC, D_BATCH_NUMBER, 0x401c)                                                                   \
  X(CSC, D_POST_Y_EXTENSION, 0x4020)                                                               \
  X(CSC, D_ENTRY_PER_SLICE, 0x4024)                                                                \
  X(CSC, D_WEIGHT_FORMAT, 0x4028)                                                                  \
  X(CSC, D_WEIGHT_SIZE_EXT_0, 0x402c)                                                              \
  X(CSC, D_WEIGHT_SIZE_EXT_1, 0x4030)                                                              \
  X(CSC, D_WEIGHT_BYTES, 0x4034)                                                                   \
  X(CSC, D_WMB_BYTES, 0x4038)                                                                      \
  X(CSC, D_DATAOUT_SIZE_0, 0x403c)                                                                 \
  X(CSC, D_DATAOUT_SIZE_1, 0x4040)                                                                 \
  X(CSC, D_ATOMICS, 0x4044)                                                                        \
  X(CSC, D_RELEASE, 0x4048)                                                                        \
  X(CSC, D_CONV_STRIDE_EXT, 0x404c)                                                                \
  X(CSC, D_DILATION_EXT, 0x4050)                                                                   \
  X(CSC, D_ZERO_PADDING, 0x4054)                                                                   \
  X(CSC, D_ZERO_PADDING_VALUE, 0x4058)                                                             \
  X(CSC, D_BANK, 0x405c)                                                                           \
  X(CSC, D_PRA_CFG, 0x4060)                                                                        \
  X(CMAC_A, S_POINTER, 0x5004)                                                                     \
  X(CMAC_A, D_OP_ENABLE, 0x5008)                                                                   \
  X(CMAC_A, D_MISC_CFG, 0x500c)                                                                    \
  X(CMAC_B, S_POINTER, 0x6004)                                                                     \
  X(CMAC_B, D_OP_ENABLE, 0x6008)                                                                   \
  X(CMAC_B, D_MISC_CFG, 0x600c)                                                                    \
  X(CACC, S_POINTER, 0x7004)                                                                       \
  X(CACC, D_OP_ENABLE, 0x7008)                                                                     \
  X(CACC, D_MISC_CFG, 0x700c)                                                                      \
  X(CACC, D_DATAOUT_SIZE_0, 0x7010)                                                                \
  X(CACC, D_DATAOUT_SIZE_1, 0x7014)                                                                \
  X(CACC, D_DATAOUT_ADDR, 0x7018)                                                                  \
  X(CACC, D_BATCH_NUMBER, 0x701c)                                                                  \
  X(CACC, D_LINE_STRIDE, 0x7020)                                                                   \
  X(CACC, D_SURF_STRIDE, 0x7024)                                                                   \
  X(CACC, D_DATAOUT_MAP, 0x7028)                                                                   \
  X(CACC, D_CLIP_CFG, 0x702c)                                                                      \
  X(SDP_RDMA, S_POINTER, 0x8004)                                                                   \
  X(SDP_RDMA, D_OP_ENABLE, 0x8008)                                                                 \
  X(SDP_RDMA, D_DATA_CUBE_WIDTH, 0x800c)                                                           \
  X(SDP_RDMA, D_DATA_CUBE_HEIGHT, 0x8010)                                                          \
  X(SDP_RDMA, D_DATA_CUBE_CHANNEL, 0x8014)                                                         \
  X(SDP_RDMA, D_SRC_BASE_ADDR_LOW, 0x8018)                                                         \
  X(SDP_RDMA, D_SRC_BASE_ADDR_HIGH, 0x801c)                                                        \
  X(SDP_RDMA, D_SRC_LINE_STRIDE, 0x8020)                                                           \
  X(SDP_RDMA, D_SRC_SURFACE_STRIDE, 0x8024)                                                        \
  X(SDP_RDMA, D_BRDMA_CFG, 0x8028)                                                                 \
  X(SDP_RDMA, D_BS_BASE_ADDR_LOW, 0x802c)                                                          \
  X(SDP_RDMA, D_BS_BASE_ADDR_HIGH, 0x8030)                                                         \
  X(SDP_RDMA, D_BS_LINE_STRIDE, 0x8034)                                                            \
  X(SDP_RDMA, D_BS_SURFACE_STRIDE, 0x8038)                                                         \
  X(SDP_RDMA, D_NRDMA_CFG, 0x8040)                                                                 \
  X(SDP_RDMA, D_BN_BASE_ADDR_LOW, 0x8044)                                                          \
  X(SDP_RDMA, D_BN_BASE_ADDR_HIGH, 0x8048)                                                         \
  X(SDP_RDMA, D_BN_LINE_STRIDE, 0x804c)                                                            \
  X(SDP_RDMA, D_BN_SURFACE_STRIDE, 0x8050)                                                         \
  X(SDP_RDMA, D_ERDMA_CFG, 0x8058)                                                                 \
  X(SDP_RDMA, D_EW_BASE_ADDR_LOW, 0x805c)                                                          \
  X(SDP_RDMA, D_EW_BASE_ADDR_HIGH, 0x8060)                                                         \
  X(SDP_RDMA, D_EW_LINE_STRIDE, 0x8064)                                                            \
  X(SDP_RDMA, D_EW_SURFACE_STRIDE, 0x8068)                                                         \
  X(SDP_RDMA, D_FEATURE_MODE_CFG, 0x8070)                                                          \
  X(SDP_RDMA, D_SRC_DMA_CFG, 0x8074)                                                               \
  X(SDP, S_POINTER, 0x9004)                                                                        \
  X(SDP, S_LUT_ACCESS_CFG, 0x9008)                                                                 \
  X(SDP, S_LUT_ACCESS_DATA, 0x900c)                                                                \
  X(SDP, S_LUT_CFG, 0x9010)                                                                        \
  X(SDP, S_LUT_INFO, 0x9014)                                                                       \
  X(SDP, S_LUT_LE_START, 0x9018)                                                                   \
  X(SDP, S_LUT_LE_END, 0x901c)                                                                     \
  X(SDP, S_LUT_LO_START, 0x9020)                                                                   \
  X(SDP, S_LUT_LO_END, 0x9024)                                                                     \
  X(SDP, S_LUT_LE_SLOPE_SCALE, 0x9028)                                                             \
  X(SDP, S_LUT_LE_SLOPE_SHIFT, 0x902c)                                                             \
  X(SDP, S_LUT_LO_SLOPE_SCALE, 0x9030)                                                             \
  X(SDP, S_LUT_LO_SLOPE_SHIFT, 0x9034)                                                             \
  X(SDP, D_OP_ENABLE, 0x9038)                                                                      \
  X(SDP, D_DATA_CUBE_WIDTH, 0x903c)                                                                \
  X(SDP, D_DATA_CUBE_HEIGHT, 0x9040)                                                               \
  X(SDP, D_DATA_CUBE_CHANNEL, 0x9044)                                                              \
  X(SDP, D_DST_BASE_ADDR_LOW, 0x9048)                                                              \
  X(SDP, D_DST_BASE_ADDR_HIGH, 0x904c)                                                             \
  X(SDP, D_DST_LINE_STRIDE, 0x9050)                                                                \
  X(SDP, D_DST_SURFACE_STRIDE, 0x9054)                                                             \
  X(SDP, D_DP_BS_CFG, 0x9058)                                                                      \
  X(SDP, D_DP_BS_ALU_CFG, 0x905c)                                                                  \
  X(SDP, D_DP_BS_ALU_SRC_VALUE, 0x9060)                                                            \
  X(SDP, D_DP_BS_MUL_CFG, 0x9064)                                                                  \
  X(SDP, D_DP_BS_MUL_SRC_VALUE, 0x9068)                                                            \
  X(SDP, D_DP_BN_CFG, 0x906c)                                                                      \
  X(SDP, D_DP_BN_ALU_CFG, 0x9070)                                                                  \
  X(SDP, D_DP_BN_ALU_SRC_VALUE, 0x9074)                                                            \
  X(SDP, D_DP_BN_MUL_CFG, 0x9078)                                                                  \
  X(SDP, D_DP_BN_MUL_SRC_VALUE, 0x907c)                                                            \
  X(SDP, D_DP_EW_CFG, 0x9080)                                                                      \
  X(SDP, D_DP_EW_ALU_CFG, 0x9084)                                                                  \
  X(SDP, D_DP_EW_ALU_SRC_VALUE, 0x9088)                                                            \
  X(SDP, D_DP_EW_ALU_CVT_OFFSET_VALUE, 0x908c)                                                     \
  X(SDP, D_DP_EW_ALU_CVT_SCALE_VALUE, 0x9090)                                                      \
  X(SDP, D_DP_EW_ALU_CVT_TRUNCATE_VALUE, 0x9094)                                                   \
  X(SDP, D_DP_EW_MUL_CFG, 0x9098)                                                                  \
  X(SDP, D_DP_EW_MUL_SRC_VALUE, 0x909c)                                                            \
  X(SDP, D_DP_EW_MUL_CVT_OFFSET_VALUE, 0x90a0)                                                     \
  X(SDP, D_DP_EW_MUL_CVT_SCALE_VALUE, 0x90a4)                                                      \
  X(SDP, D_DP_EW_MUL_CVT_TRUNCATE_VALUE, 0x90a8)                                                   \
  X(SDP, D_DP_EW_TRUNCATE_VALUE, 0x90ac)                                                           \
  X(SDP, D_FEATURE_MODE_CFG, 0x90b0)                                                               \
  X(SDP, D_DST_DMA_CFG, 0x90b4)                                                                    \
  X(SDP, D_DST_BATCH_STRIDE, 0x90b8)                                                               \
  X(SDP, D_DATA_FORMAT, 0x90bc)                                                                    \
  X(SDP, D_CVT_OFFSET, 0x90c0)                                                                     \
  X(SDP, D_CVT_SCALE, 0x90c4)                                                                      \
  X(SDP, D_CVT_SHIFT, 0x90c8)                                                                      \
  X(PDP_RDMA, S_POINTER, 0xa004)                                                                   \
  X(PDP_RDMA, D_OP_ENABLE, 0xa008)                                                                 \
  X(PDP_RDMA, D_DATA_CUBE_IN_WIDTH, 0xa00c)                                                        \
  X(PDP_RDMA, D_DATA_CUBE_IN_HEIGHT, 0xa010)                                                       \
  X(PDP_RDMA, D_DATA_CUBE_IN_CHANNEL, 0xa014)                                                      \
  X(PDP_RDMA, D_FLYING_MODE, 0xa018)                                                               \
  X(PDP_RDMA, D_SRC_BASE_ADDR_LOW, 0xa01c)                                                         \
  X(PDP_RDMA, D_SRC_BASE_ADDR_HIGH, 0xa020)                                                        \
  X(PDP_RDMA, D_SRC_LINE_STRIDE, 0xa024)                                                           \
  X(PDP_RDMA, D_SRC_SURFACE_STRIDE, 0xa028)                                                        \
  X(PDP_RDMA, D_SRC_RAM_CFG, 0xa02c)                                                               \
  X(PDP_RDMA, D_DATA_FORMAT, 0xa030)                                                               \
  X(PDP_RDMA, D_OPERATION_MODE_CFG, 0xa034)                                                        \
  X(PDP_RDMA, D_POOLING_KERNEL_CFG, 0xa038)                                                        \
  X(PDP_RDMA, D_POOLING_PADDING_CFG, 0xa03c)                                                       \
  X(PDP_RDMA, D_PARTIAL_WIDTH_IN, 0xa040)                                                          \
  X(PDP, S_POINTER, 0xb004)                                                                        \
  X(PDP, D_OP_ENABLE, 0xb008)                                                                      \
  X(PDP, D_DATA_CUBE_IN_WIDTH, 0xb00c)                                                             \
  X(PDP, D_DATA_CUBE_IN_HEIGHT, 0xb010)                                                            \
  X(PDP, D_DATA_CUBE_IN_CHANNEL, 0xb014)                                                           \
  X(PDP, D_DATA_CUBE_OUT_WIDTH, 0xb018)                                                            \
  X(PDP, D_DATA_CUBE_OUT_HEIGHT, 0xb01c)                                                           \
  X(PDP, D_DATA_CUBE_OUT_CHANNEL, 0xb020)                                                          \
  X(PDP, D_OPERATION_MODE_CFG, 0xb024)                                                             \
  X(PDP, D_NAN_FLUSH_TO_ZERO, 0xb028)                                                              \
  X(PDP, D_PARTIAL_WIDTH_IN, 0xb02c)                                                               \
  X(PDP, D_PARTIAL_WIDTH_OUT, 0xb030)                                                              \
  X(PDP, D_POOLING_KERNEL_CFG, 0xb034)                                                             \
  X(PDP, D_RECIP_KERNEL_WIDTH, 0xb038)                                                             \
  X(PDP, D_RECIP_KERNEL_HEIGHT, 0xb03c)                                                            \
  X(PDP, D_POOLING_PADDING_CFG, 0xb040)                                                            \
  X(PDP, D_POOLING_PADDING_VALUE_1_CFG, 0xb044)                                                    \
  X(PDP, D_POOLING_PADDING_VALUE_2_CFG, 0xb048)                                                    \
  X(PDP, D_POOLING_PADDING_VALUE_3_CFG, 0xb04c)                                                    \
  X(PDP, D_POOLING_PADDING_VALUE_4_CFG, 0xb050)                                                    \
  X(PDP, D_POOLING_PADDING_VALUE_5_CFG, 0xb054)                                                    \
  X(PDP, D_POOLING_PADDING_VALUE_6_CFG, 0xb058)                                                    \
  X(PDP, D_POOLING_PADDING_VALUE_7_CFG, 0xb05c)                                                    \
  X(PDP, D_SRC_BASE_ADDR_LOW, 0xb060)                                                              \
  X(PDP, D_SRC_BASE_ADDR_HIGH, 0xb064)                                                             \
  X(PDP, D_SRC_LINE_STRIDE, 0xb068)                                                                \
  X(PDP, D_SRC_SURFACE_STRIDE, 0xb06c)                                                             \
  X(PDP, D_DST_BASE_ADDR_LOW, 0xb070)                                                              \
  X(PDP, D_DST_BASE_ADDR_HIGH, 0xb074)                                                             \
  X(PDP, D_DST_LINE_STRIDE, 0xb078)                                                                \
  X(PDP, D_DST_SURFACE_STRIDE, 0xb07c)                                                             \
  X(PDP, D_DST_RAM_CFG, 0xb080)                                                                    \
  X(PDP, D_DATA_FORMAT, 0xb084)                                                                    \
  X(CDP_RDMA, S_POINTER, 0xc004)                                                                   \
  X(CDP_RDMA, D_OP_ENABLE, 0xc008)                                                                 \
  X(CDP_RDMA, D_DATA_CUBE_WIDTH, 0xc00c)                                                           \
  X(CDP_RDMA, D_DATA_CUBE_HEIGHT, 0xc010)                                                          \
  X(CDP_RDMA, D_DATA_CUBE_CHANNEL, 0xc014)                                                         \
  X(CDP_RDMA, D_SRC_BASE_ADDR_LOW, 0xc018)                                                         \
  X(CDP_RDMA, D_SRC_BASE_ADDR_HIGH, 0xc01c)                                                        \
  X(CDP_RDMA, D_SRC_LINE_STRIDE, 0xc020)                                                           \
  X(CDP_RDMA, D_SRC_SURFACE_STRIDE, 0xc024)                                                        \
  X(CDP_RDMA, D_SRC_DMA_CFG, 0xc028)                                                               \
  X(CDP_RDMA, D_DATA_FORMAT, 0xc034)                                                               \
  X(CDP, S_POINTER, 0xd004)                                                                        \
  X(CDP, S_LUT_ACCESS_CFG, 0xd008)                                                                 \
  X(CDP, S_LUT_ACCESS_DATA, 0xd00c)                                                                \
  X(CDP, S_LUT_CFG, 0xd010)                                                                        \
  X(CDP, S_LUT_INFO, 0xd014)                                                                       \
  X(CDP, S_LUT_LE_START_LOW, 0xd018)                                                               \
  X(CDP, S_LUT_LE_START_HIGH, 0xd01c)                                                              \
  X(CDP, S_LUT_LE_END_LOW, 0xd020)                                                                 \
  X(CDP, S_LUT_LE_END_HIGH, 0xd024)                                                                \
  X(CDP, S_LUT_LO_START_LOW, 0xd028)                                                               \
  X(CDP, S_LUT_LO_START_HIGH, 0xd02c)                                                              \
  X(CDP, S_LUT_LO_END_LOW, 0xd030)                                                                 \
  X(CDP, S_LUT_LO_END_HIGH, 0xd034)                                                                \
  X(CDP, S_LUT_LE_SLOPE_SCALE, 0xd038)                                                             \
  X(CDP, S_LUT_LE_SLOPE_SHIFT, 0xd03c)                                                             \
  X(CDP, S_LUT_LO_SLOPE_SCALE, 0xd040)                                                             \
  X(CDP, S_LUT_LO_SLOPE_SHIFT, 0xd044)                                                             \
  X(CDP, D_OP_ENABLE, 0xd048)                                                                      \
  X(CDP, D_FUNC_BYPASS, 0xd04c)                                                                    \
  X(CDP, D_DST_BASE_ADDR_LOW, 0xd050)                                                              \
  X(CDP, D_DST_BASE_ADDR_HIGH, 0xd054)                                                             \
  X(CDP, D_DST_LINE_STRIDE, 0xd058)                                                                \
  X(CDP, D_DST_SURFACE_STRIDE, 0xd05c)                                                             \
  X(CDP, D_DST_DMA_CFG, 0xd060)                                                                    \
  X(CDP, D_DATA_FORMAT, 0xd068)                                                                    \
  X(CDP, D_LRN_CFG, 0xd070)                                                                        \
  X(CDP, D_DATIN_OFFSET, 0xd074)                                                                   \
  X(CDP, D_DATIN_SCALE, 0xd078)                                                                    \
  X(CDP, D_DATIN_SHIFTER, 0xd07c)                                                                  \
  X(CDP, D_DATOUT_OFFSET, 0xd080)                                                                  \
  X(CDP, D_DATOUT_SCALE, 0xd084)                                                                   \
  X(CDP, D_DATOUT_SHIFTER, 0xd088)                                                                 \
  /* BDMA (nv_full only: master's nv_small / nv_large have none). v1's     */                        \
  /* arnvdla.h has it at 0x4000, before CDMA; the table's addresses are    */                        \
  /* v1's minus the 0x2000 every other unit is shifted by.                 */                        \
  X(BDMA, CFG_SRC_ADDR_LOW, 0x2000)                                                                \
  X(BDMA, CFG_SRC_ADDR_HIGH, 0x2004)                                                               \
  X(BDMA, CFG_DST_ADDR_LOW, 0x2008)                                                                \
  X(BDMA, CFG_DST_ADDR_HIGH, 0x200c)                                                               \
  X(BDMA, CFG_LINE, 0x2010)                                                                        \
  X(BDMA, CFG_CMD, 0x2014)                                                                         \
  X(BDMA, CFG_LINE_REPEAT, 0x2018)                                                                 \
  X(BDMA, CFG_SRC_LINE, 0x201c)                                                                    \
  X(BDMA, CFG_DST_LINE, 0x2020)                                                                    \
  X(BDMA, CFG_SURF_REPEAT, 0x2024)                                                                 \
  X(BDMA, CFG_SRC_SURF, 0x2028)                                                                    \
  X(BDMA, CFG_DST_SURF, 0x202c)                                                                    \
  X(BDMA, CFG_OP, 0x2030)                                                                          \
  X(BDMA, CFG_LAUNCH0, 0x2034)                                                                     \
  X(BDMA, CFG_LAUNCH1, 0x2038)

/// A CSB register, named `<block>_<register>` (SDP_D_OP_ENABLE).
enum class CsbReg : uint16_t {
#define DLA_X(block, reg, addr) block##_##reg,
  DLA_NVDLA_CSB_REGISTERS(DLA_X)
#undef DLA_X
};

struct CsbRegisterInfo {
  /// As the trace format names them: "NVDLA_SDP", "D_OP_ENABLE_0".
  std::string_view block, name;
  uint32_t address;
};

inline constexpr CsbRegisterInfo kCsbRegisters[] = {
#define DLA_X(block, reg, addr) {"NVDLA_" #block, #reg "_0", addr},
    DLA_NVDLA_CSB_REGISTERS(DLA_X)
#undef DLA_X
};

constexpr const CsbRegisterInfo &getCsbRegister(CsbReg reg) {
  return kCsbRegisters[static_cast<size_t>(reg)];
}

/// A field of a register: `width` bits from bit `shift`.
struct CsbField {
  CsbReg reg;
  unsigned shift, width;
  /// The field's bits holding `value`'s low `width` bits (two's
  /// complement for signed fields: the ranges are the verifiers' business).
  constexpr uint32_t place(int64_t value) const {
    uint64_t mask = width >= 32 ? 0xffffffffull : ((uint64_t(1) << width) - 1);
    return static_cast<uint32_t>((static_cast<uint64_t>(value) & mask) << shift);
  }
};

/// Fields, named `<register>_<field>` in namespace csb.
namespace csb {
#define DLA_F(reg, field, shift, width)                                                            \
  inline constexpr CsbField reg##_##field{CsbReg::reg, shift, width};
// The convolution pipe: CDMA, CSC, CMAC_A / CMAC_B, CACC.
DLA_F(CDMA_D_MISC_CFG, CONV_MODE, 0, 1)
DLA_F(CDMA_D_MISC_CFG, IN_PRECISION, 8, 2)
DLA_F(CDMA_D_MISC_CFG, PROC_PRECISION, 12, 2)
DLA_F(CDMA_D_MISC_CFG, DATA_REUSE, 16, 1)
DLA_F(CDMA_D_MISC_CFG, WEIGHT_REUSE, 20, 1)
DLA_F(CDMA_D_MISC_CFG, SKIP_DATA_RLS, 24, 1)
DLA_F(CDMA_D_MISC_CFG, SKIP_WEIGHT_RLS, 28, 1)
DLA_F(CDMA_D_DATAIN_FORMAT, DATAIN_FORMAT, 0, 1)
DLA_F(CDMA_D_DATAIN_FORMAT, PIXEL_FORMAT, 8, 6)
DLA_F(CDMA_D_DATAIN_FORMAT, PIXEL_MAPPING, 16, 1)
DLA_F(CDMA_D_DATAIN_FORMAT, PIXEL_SIGN_OVERRIDE, 20, 1)
DLA_F(CDMA_D_DATAIN_SIZE_0, DATAIN_WIDTH, 0, 13)
DLA_F(CDMA_D_DATAIN_SIZE_0, DATAIN_HEIGHT, 16, 13)
DLA_F(CDMA_D_DATAIN_SIZE_1, DATAIN_CHANNEL, 0, 13)
DLA_F(CDMA_D_DATAIN_SIZE_EXT_0, DATAIN_WIDTH_EXT, 0, 13)
DLA_F(CDMA_D_DATAIN_SIZE_EXT_0, DATAIN_HEIGHT_EXT, 16, 13)
DLA_F(CDMA_D_PIXEL_OFFSET, PIXEL_X_OFFSET, 0, 5)
DLA_F(CDMA_D_PIXEL_OFFSET, PIXEL_Y_OFFSET, 16, 3)
DLA_F(CDMA_D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE, 0, 1)
DLA_F(CDMA_D_DAIN_MAP, LINE_PACKED, 0, 1)
DLA_F(CDMA_D_DAIN_MAP, SURF_PACKED, 16, 1)
DLA_F(CDMA_D_RESERVED_X_CFG, RSV_PER_LINE, 0, 10)
DLA_F(CDMA_D_RESERVED_X_CFG, RSV_PER_UV_LINE, 16, 10)
DLA_F(CDMA_D_BATCH_NUMBER, BATCHES, 0, 5)
DLA_F(CDMA_D_ENTRY_PER_SLICE, ENTRIES, 0, 14)
DLA_F(CDMA_D_FETCH_GRAIN, GRAINS, 0, 12)
DLA_F(CDMA_D_WEIGHT_FORMAT, WEIGHT_FORMAT, 0, 1)
DLA_F(CDMA_D_WEIGHT_SIZE_0, BYTE_PER_KERNEL, 0, 18)
DLA_F(CDMA_D_WEIGHT_SIZE_1, WEIGHT_KERNEL, 0, 13)
DLA_F(CDMA_D_WEIGHT_RAM_TYPE, WEIGHT_RAM_TYPE, 0, 1)
DLA_F(CDMA_D_MEAN_FORMAT, MEAN_FORMAT, 0, 1)
DLA_F(CDMA_D_MEAN_GLOBAL_0, MEAN_RY, 0, 16)
DLA_F(CDMA_D_MEAN_GLOBAL_0, MEAN_GU, 16, 16)
DLA_F(CDMA_D_MEAN_GLOBAL_1, MEAN_BV, 0, 16)
DLA_F(CDMA_D_MEAN_GLOBAL_1, MEAN_AX, 16, 16)
DLA_F(CDMA_D_CVT_CFG, CVT_EN, 0, 1)
DLA_F(CDMA_D_CVT_CFG, CVT_TRUNCATE, 4, 6)
DLA_F(CDMA_D_CVT_OFFSET, CVT_OFFSET, 0, 16)
DLA_F(CDMA_D_CVT_SCALE, CVT_SCALE, 0, 16)
DLA_F(CDMA_D_CONV_STRIDE, CONV_X_STRIDE, 0, 3)
DLA_F(CDMA_D_CONV_STRIDE, CONV_Y_STRIDE, 16, 3)
DLA_F(CDMA_D_ZERO_PADDING, PAD_LEFT, 0, 5)
DLA_F(CDMA_D_ZERO_PADDING, PAD_RIGHT, 8, 6)
DLA_F(CDMA_D_ZERO_PADDING, PAD_TOP, 16, 5)
DLA_F(CDMA_D_ZERO_PADDING, PAD_BOTTOM, 24, 6)
DLA_F(CDMA_D_ZERO_PADDING_VALUE, PAD_VALUE, 0, 16)
DLA_F(CDMA_D_BANK, DATA_BANK, 0, 5)
DLA_F(CDMA_D_BANK, WEIGHT_BANK, 16, 5)
DLA_F(CDMA_D_NAN_FLUSH_TO_ZERO, NAN_TO_ZERO, 0, 1)
DLA_F(CSC_D_MISC_CFG, CONV_MODE, 0, 1)
DLA_F(CSC_D_MISC_CFG, IN_PRECISION, 8, 2)
DLA_F(CSC_D_MISC_CFG, PROC_PRECISION, 12, 2)
DLA_F(CSC_D_MISC_CFG, DATA_REUSE, 16, 1)
DLA_F(CSC_D_MISC_CFG, WEIGHT_REUSE, 20, 1)
DLA_F(CSC_D_MISC_CFG, SKIP_DATA_RLS, 24, 1)
DLA_F(CSC_D_MISC_CFG, SKIP_WEIGHT_RLS, 28, 1)
DLA_F(CSC_D_DATAIN_FORMAT, DATAIN_FORMAT, 0, 1)
DLA_F(CSC_D_DATAIN_SIZE_EXT_0, DATAIN_WIDTH_EXT, 0, 13)
DLA_F(CSC_D_DATAIN_SIZE_EXT_0, DATAIN_HEIGHT_EXT, 16, 13)
DLA_F(CSC_D_DATAIN_SIZE_EXT_1, DATAIN_CHANNEL_EXT, 0, 13)
DLA_F(CSC_D_BATCH_NUMBER, BATCHES, 0, 5)
DLA_F(CSC_D_POST_Y_EXTENSION, Y_EXTENSION, 0, 2)
DLA_F(CSC_D_ENTRY_PER_SLICE, ENTRIES, 0, 14)
DLA_F(CSC_D_WEIGHT_FORMAT, WEIGHT_FORMAT, 0, 1)
DLA_F(CSC_D_WEIGHT_SIZE_EXT_0, WEIGHT_WIDTH_EXT, 0, 5)
DLA_F(CSC_D_WEIGHT_SIZE_EXT_0, WEIGHT_HEIGHT_EXT, 16, 5)
DLA_F(CSC_D_WEIGHT_SIZE_EXT_1, WEIGHT_CHANNEL_EXT, 0, 13)
DLA_F(CSC_D_WEIGHT_SIZE_EXT_1, WEIGHT_KERNEL, 16, 13)
DLA_F(CSC_D_DATAOUT_SIZE_0, DATAOUT_WIDTH, 0, 13)
DLA_F(CSC_D_DATAOUT_SIZE_0, DATAOUT_HEIGHT, 16, 13)
DLA_F(CSC_D_DATAOUT_SIZE_1, DATAOUT_CHANNEL, 0, 13)
DLA_F(CSC_D_ATOMICS, ATOMICS, 0, 21)
DLA_F(CSC_D_RELEASE, RLS_SLICES, 0, 12)
DLA_F(CSC_D_CONV_STRIDE_EXT, CONV_X_STRIDE_EXT, 0, 3)
DLA_F(CSC_D_CONV_STRIDE_EXT, CONV_Y_STRIDE_EXT, 16, 3)
DLA_F(CSC_D_DILATION_EXT, X_DILATION_EXT, 0, 5)
DLA_F(CSC_D_DILATION_EXT, Y_DILATION_EXT, 16, 5)
DLA_F(CSC_D_ZERO_PADDING, PAD_LEFT, 0, 5)
DLA_F(CSC_D_ZERO_PADDING, PAD_TOP, 16, 5)
DLA_F(CSC_D_ZERO_PADDING_VALUE, PAD_VALUE, 0, 16)
DLA_F(CSC_D_BANK, DATA_BANK, 0, 5)
DLA_F(CSC_D_BANK, WEIGHT_BANK, 16, 5)
DLA_F(CSC_D_PRA_CFG, PRA_TRUNCATE, 0, 2)
DLA_F(CMAC_A_D_MISC_CFG, CONV_MODE, 0, 1)
DLA_F(CMAC_A_D_MISC_CFG, PROC_PRECISION, 12, 2)
DLA_F(CMAC_B_D_MISC_CFG, CONV_MODE, 0, 1)
DLA_F(CMAC_B_D_MISC_CFG, PROC_PRECISION, 12, 2)
DLA_F(CACC_D_MISC_CFG, CONV_MODE, 0, 1)
DLA_F(CACC_D_MISC_CFG, PROC_PRECISION, 12, 2)
DLA_F(CACC_D_DATAOUT_SIZE_0, DATAOUT_WIDTH, 0, 13)
DLA_F(CACC_D_DATAOUT_SIZE_0, DATAOUT_HEIGHT, 16, 13)
DLA_F(CACC_D_DATAOUT_SIZE_1, DATAOUT_CHANNEL, 0, 13)
DLA_F(CACC_D_BATCH_NUMBER, BATCHES, 0, 5)
DLA_F(CACC_D_DATAOUT_MAP, LINE_PACKED, 0, 1)
DLA_F(CACC_D_DATAOUT_MAP, SURF_PACKED, 16, 1)
DLA_F(CACC_D_CLIP_CFG, CLIP_TRUNCATE, 0, 5)
// SDP_RDMA: the source cube and the three operand DMAs.
DLA_F(SDP_RDMA_D_BRDMA_CFG, BRDMA_DISABLE, 0, 1)
DLA_F(SDP_RDMA_D_BRDMA_CFG, BRDMA_DATA_USE, 1, 2)
DLA_F(SDP_RDMA_D_BRDMA_CFG, BRDMA_DATA_SIZE, 3, 1)
DLA_F(SDP_RDMA_D_BRDMA_CFG, BRDMA_DATA_MODE, 4, 1)
DLA_F(SDP_RDMA_D_BRDMA_CFG, BRDMA_RAM_TYPE, 5, 1)
DLA_F(SDP_RDMA_D_NRDMA_CFG, NRDMA_DISABLE, 0, 1)
DLA_F(SDP_RDMA_D_NRDMA_CFG, NRDMA_DATA_USE, 1, 2)
DLA_F(SDP_RDMA_D_NRDMA_CFG, NRDMA_DATA_SIZE, 3, 1)
DLA_F(SDP_RDMA_D_NRDMA_CFG, NRDMA_DATA_MODE, 4, 1)
DLA_F(SDP_RDMA_D_NRDMA_CFG, NRDMA_RAM_TYPE, 5, 1)
DLA_F(SDP_RDMA_D_ERDMA_CFG, ERDMA_DISABLE, 0, 1)
DLA_F(SDP_RDMA_D_ERDMA_CFG, ERDMA_DATA_USE, 1, 2)
DLA_F(SDP_RDMA_D_ERDMA_CFG, ERDMA_DATA_SIZE, 3, 1)
DLA_F(SDP_RDMA_D_ERDMA_CFG, ERDMA_DATA_MODE, 4, 1)
DLA_F(SDP_RDMA_D_ERDMA_CFG, ERDMA_RAM_TYPE, 5, 1)
DLA_F(SDP_RDMA_D_FEATURE_MODE_CFG, FLYING_MODE, 0, 1)
DLA_F(SDP_RDMA_D_FEATURE_MODE_CFG, WINOGRAD, 1, 1)
DLA_F(SDP_RDMA_D_FEATURE_MODE_CFG, IN_PRECISION, 2, 2)
DLA_F(SDP_RDMA_D_FEATURE_MODE_CFG, PROC_PRECISION, 4, 2)
DLA_F(SDP_RDMA_D_FEATURE_MODE_CFG, OUT_PRECISION, 6, 2)
DLA_F(SDP_RDMA_D_FEATURE_MODE_CFG, BATCH_NUMBER, 8, 5)
DLA_F(SDP_RDMA_D_SRC_DMA_CFG, SRC_RAM_TYPE, 0, 1)
// SDP: the Y stage's lookup table (single registers, no group).
DLA_F(SDP_S_LUT_ACCESS_CFG, LUT_ADDR, 0, 10)
DLA_F(SDP_S_LUT_ACCESS_CFG, LUT_TABLE_ID, 16, 1)
DLA_F(SDP_S_LUT_ACCESS_CFG, LUT_ACCESS_TYPE, 17, 1)
DLA_F(SDP_S_LUT_ACCESS_DATA, LUT_DATA, 0, 16)
DLA_F(SDP_S_LUT_CFG, LUT_LE_FUNCTION, 0, 1)
DLA_F(SDP_S_LUT_CFG, LUT_UFLOW_PRIORITY, 4, 1)
DLA_F(SDP_S_LUT_CFG, LUT_OFLOW_PRIORITY, 5, 1)
DLA_F(SDP_S_LUT_CFG, LUT_HYBRID_PRIORITY, 6, 1)
DLA_F(SDP_S_LUT_INFO, LUT_LE_INDEX_OFFSET, 0, 8)
DLA_F(SDP_S_LUT_INFO, LUT_LE_INDEX_SELECT, 8, 8)
DLA_F(SDP_S_LUT_INFO, LUT_LO_INDEX_SELECT, 16, 8)
DLA_F(SDP_S_LUT_LE_SLOPE_SCALE, LUT_LE_SLOPE_UFLOW_SCALE, 0, 16)
DLA_F(SDP_S_LUT_LE_SLOPE_SCALE, LUT_LE_SLOPE_OFLOW_SCALE, 16, 16)
DLA_F(SDP_S_LUT_LE_SLOPE_SHIFT, LUT_LE_SLOPE_UFLOW_SHIFT, 0, 5)
DLA_F(SDP_S_LUT_LE_SLOPE_SHIFT, LUT_LE_SLOPE_OFLOW_SHIFT, 5, 5)
DLA_F(SDP_S_LUT_LO_SLOPE_SCALE, LUT_LO_SLOPE_UFLOW_SCALE, 0, 16)
DLA_F(SDP_S_LUT_LO_SLOPE_SCALE, LUT_LO_SLOPE_OFLOW_SCALE, 16, 16)
DLA_F(SDP_S_LUT_LO_SLOPE_SHIFT, LUT_LO_SLOPE_UFLOW_SHIFT, 0, 5)
DLA_F(SDP_S_LUT_LO_SLOPE_SHIFT, LUT_LO_SLOPE_OFLOW_SHIFT, 5, 5)
// SDP: X stages (BS, BN), Y stage (EW), output.
DLA_F(SDP_D_DP_BS_CFG, BS_BYPASS, 0, 1)
DLA_F(SDP_D_DP_BS_CFG, BS_ALU_BYPASS, 1, 1)
DLA_F(SDP_D_DP_BS_CFG, BS_ALU_ALGO, 2, 2)
DLA_F(SDP_D_DP_BS_CFG, BS_MUL_BYPASS, 4, 1)
DLA_F(SDP_D_DP_BS_CFG, BS_MUL_PRELU, 5, 1)
DLA_F(SDP_D_DP_BS_CFG, BS_RELU_BYPASS, 6, 1)
DLA_F(SDP_D_DP_BS_ALU_CFG, BS_ALU_SRC, 0, 1)
DLA_F(SDP_D_DP_BS_ALU_CFG, BS_ALU_SHIFT_VALUE, 8, 6)
DLA_F(SDP_D_DP_BS_ALU_SRC_VALUE, BS_ALU_OPERAND, 0, 16)
DLA_F(SDP_D_DP_BS_MUL_CFG, BS_MUL_SRC, 0, 1)
DLA_F(SDP_D_DP_BS_MUL_CFG, BS_MUL_SHIFT_VALUE, 8, 8)
DLA_F(SDP_D_DP_BS_MUL_SRC_VALUE, BS_MUL_OPERAND, 0, 16)
DLA_F(SDP_D_DP_BN_CFG, BN_BYPASS, 0, 1)
DLA_F(SDP_D_DP_BN_CFG, BN_ALU_BYPASS, 1, 1)
DLA_F(SDP_D_DP_BN_CFG, BN_ALU_ALGO, 2, 2)
DLA_F(SDP_D_DP_BN_CFG, BN_MUL_BYPASS, 4, 1)
DLA_F(SDP_D_DP_BN_CFG, BN_MUL_PRELU, 5, 1)
DLA_F(SDP_D_DP_BN_CFG, BN_RELU_BYPASS, 6, 1)
DLA_F(SDP_D_DP_BN_ALU_CFG, BN_ALU_SRC, 0, 1)
DLA_F(SDP_D_DP_BN_ALU_CFG, BN_ALU_SHIFT_VALUE, 8, 6)
DLA_F(SDP_D_DP_BN_ALU_SRC_VALUE, BN_ALU_OPERAND, 0, 16)
DLA_F(SDP_D_DP_BN_MUL_CFG, BN_MUL_SRC, 0, 1)
DLA_F(SDP_D_DP_BN_MUL_CFG, BN_MUL_SHIFT_VALUE, 8, 8)
DLA_F(SDP_D_DP_BN_MUL_SRC_VALUE, BN_MUL_OPERAND, 0, 16)
DLA_F(SDP_D_DP_EW_CFG, EW_BYPASS, 0, 1)
DLA_F(SDP_D_DP_EW_CFG, EW_ALU_BYPASS, 1, 1)
DLA_F(SDP_D_DP_EW_CFG, EW_ALU_ALGO, 2, 2)
DLA_F(SDP_D_DP_EW_CFG, EW_MUL_BYPASS, 4, 1)
DLA_F(SDP_D_DP_EW_CFG, EW_MUL_PRELU, 5, 1)
DLA_F(SDP_D_DP_EW_CFG, EW_LUT_BYPASS, 6, 1)
DLA_F(SDP_D_DP_EW_ALU_CFG, EW_ALU_SRC, 0, 1)
DLA_F(SDP_D_DP_EW_ALU_CFG, EW_ALU_CVT_BYPASS, 1, 1)
DLA_F(SDP_D_DP_EW_ALU_SRC_VALUE, EW_ALU_OPERAND, 0, 32)
DLA_F(SDP_D_DP_EW_ALU_CVT_OFFSET_VALUE, EW_ALU_CVT_OFFSET, 0, 32)
DLA_F(SDP_D_DP_EW_ALU_CVT_SCALE_VALUE, EW_ALU_CVT_SCALE, 0, 16)
DLA_F(SDP_D_DP_EW_ALU_CVT_TRUNCATE_VALUE, EW_ALU_CVT_TRUNCATE, 0, 6)
DLA_F(SDP_D_DP_EW_MUL_CFG, EW_MUL_SRC, 0, 1)
DLA_F(SDP_D_DP_EW_MUL_CFG, EW_MUL_CVT_BYPASS, 1, 1)
DLA_F(SDP_D_DP_EW_MUL_SRC_VALUE, EW_MUL_OPERAND, 0, 32)
DLA_F(SDP_D_DP_EW_MUL_CVT_OFFSET_VALUE, EW_MUL_CVT_OFFSET, 0, 32)
DLA_F(SDP_D_DP_EW_MUL_CVT_SCALE_VALUE, EW_MUL_CVT_SCALE, 0, 16)
DLA_F(SDP_D_DP_EW_MUL_CVT_TRUNCATE_VALUE, EW_MUL_CVT_TRUNCATE, 0, 6)
DLA_F(SDP_D_DP_EW_TRUNCATE_VALUE, EW_TRUNCATE, 0, 10)
DLA_F(SDP_D_FEATURE_MODE_CFG, FLYING_MODE, 0, 1)
DLA_F(SDP_D_FEATURE_MODE_CFG, OUTPUT_DST, 1, 1)
DLA_F(SDP_D_FEATURE_MODE_CFG, WINOGRAD, 2, 1)
DLA_F(SDP_D_FEATURE_MODE_CFG, BATCH_NUMBER, 8, 5)
DLA_F(SDP_D_DST_DMA_CFG, DST_RAM_TYPE, 0, 1)
DLA_F(SDP_D_DATA_FORMAT, PROC_PRECISION, 0, 2)
DLA_F(SDP_D_DATA_FORMAT, OUT_PRECISION, 2, 2)
DLA_F(SDP_D_CVT_OFFSET, CVT_OFFSET, 0, 32)
DLA_F(SDP_D_CVT_SCALE, CVT_SCALE, 0, 16)
DLA_F(SDP_D_CVT_SHIFT, CVT_SHIFT, 0, 6)
// PDP_RDMA and PDP.
DLA_F(PDP_RDMA_D_FLYING_MODE, FLYING_MODE, 0, 1)
DLA_F(PDP_RDMA_D_SRC_RAM_CFG, SRC_RAM_TYPE, 0, 1)
DLA_F(PDP_RDMA_D_DATA_FORMAT, INPUT_DATA, 0, 2)
DLA_F(PDP_RDMA_D_OPERATION_MODE_CFG, SPLIT_NUM, 0, 8)
DLA_F(PDP_RDMA_D_POOLING_KERNEL_CFG, KERNEL_WIDTH, 0, 4)
DLA_F(PDP_RDMA_D_POOLING_KERNEL_CFG, KERNEL_STRIDE_WIDTH, 4, 4)
DLA_F(PDP_RDMA_D_POOLING_PADDING_CFG, PAD_WIDTH, 0, 4)
DLA_F(PDP_RDMA_D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_FIRST, 0, 10)
DLA_F(PDP_RDMA_D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_LAST, 10, 10)
DLA_F(PDP_RDMA_D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_MID, 20, 10)
DLA_F(PDP_D_OPERATION_MODE_CFG, POOLING_METHOD, 0, 2)
DLA_F(PDP_D_OPERATION_MODE_CFG, FLYING_MODE, 4, 1)
DLA_F(PDP_D_OPERATION_MODE_CFG, SPLIT_NUM, 8, 8)
DLA_F(PDP_D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_FIRST, 0, 10)
DLA_F(PDP_D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_LAST, 10, 10)
DLA_F(PDP_D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_MID, 20, 10)
DLA_F(PDP_D_PARTIAL_WIDTH_OUT, PARTIAL_WIDTH_OUT_FIRST, 0, 10)
DLA_F(PDP_D_PARTIAL_WIDTH_OUT, PARTIAL_WIDTH_OUT_LAST, 10, 10)
DLA_F(PDP_D_PARTIAL_WIDTH_OUT, PARTIAL_WIDTH_OUT_MID, 20, 10)
DLA_F(PDP_D_POOLING_KERNEL_CFG, KERNEL_WIDTH, 0, 4)
DLA_F(PDP_D_POOLING_KERNEL_CFG, KERNEL_HEIGHT, 8, 4)
DLA_F(PDP_D_POOLING_KERNEL_CFG, KERNEL_STRIDE_WIDTH, 16, 4)
DLA_F(PDP_D_POOLING_KERNEL_CFG, KERNEL_STRIDE_HEIGHT, 20, 4)
DLA_F(PDP_D_RECIP_KERNEL_WIDTH, RECIP_KERNEL_WIDTH, 0, 17)
DLA_F(PDP_D_RECIP_KERNEL_HEIGHT, RECIP_KERNEL_HEIGHT, 0, 17)
DLA_F(PDP_D_POOLING_PADDING_CFG, PAD_LEFT, 0, 3)
DLA_F(PDP_D_POOLING_PADDING_CFG, PAD_TOP, 4, 3)
DLA_F(PDP_D_POOLING_PADDING_CFG, PAD_RIGHT, 8, 3)
DLA_F(PDP_D_POOLING_PADDING_CFG, PAD_BOTTOM, 12, 3)
DLA_F(PDP_D_DST_RAM_CFG, DST_RAM_TYPE, 0, 1)
DLA_F(PDP_D_DATA_FORMAT, INPUT_DATA, 0, 2)
// CDP_RDMA and CDP (the lookup table registers are single, not per group).
DLA_F(CDP_RDMA_D_SRC_DMA_CFG, SRC_RAM_TYPE, 0, 1)
DLA_F(CDP_RDMA_D_DATA_FORMAT, INPUT_DATA, 0, 2)
DLA_F(CDP_S_LUT_ACCESS_CFG, LUT_ADDR, 0, 10)
DLA_F(CDP_S_LUT_ACCESS_CFG, LUT_TABLE_ID, 16, 1)
DLA_F(CDP_S_LUT_ACCESS_CFG, LUT_ACCESS_TYPE, 17, 1)
DLA_F(CDP_S_LUT_ACCESS_DATA, LUT_DATA, 0, 16)
DLA_F(CDP_S_LUT_CFG, LUT_LE_FUNCTION, 0, 1)
DLA_F(CDP_S_LUT_CFG, LUT_UFLOW_PRIORITY, 4, 1)
DLA_F(CDP_S_LUT_CFG, LUT_OFLOW_PRIORITY, 5, 1)
DLA_F(CDP_S_LUT_CFG, LUT_HYBRID_PRIORITY, 6, 1)
DLA_F(CDP_S_LUT_INFO, LUT_LE_INDEX_OFFSET, 0, 8)
DLA_F(CDP_S_LUT_INFO, LUT_LE_INDEX_SELECT, 8, 8)
DLA_F(CDP_S_LUT_INFO, LUT_LO_INDEX_SELECT, 16, 8)
DLA_F(CDP_S_LUT_LE_START_HIGH, LUT_LE_START_HIGH, 0, 6)
DLA_F(CDP_S_LUT_LE_END_HIGH, LUT_LE_END_HIGH, 0, 6)
DLA_F(CDP_S_LUT_LO_START_HIGH, LUT_LO_START_HIGH, 0, 6)
DLA_F(CDP_S_LUT_LO_END_HIGH, LUT_LO_END_HIGH, 0, 6)
DLA_F(CDP_S_LUT_LE_SLOPE_SCALE, LUT_LE_SLOPE_UFLOW_SCALE, 0, 16)
DLA_F(CDP_S_LUT_LE_SLOPE_SCALE, LUT_LE_SLOPE_OFLOW_SCALE, 16, 16)
DLA_F(CDP_S_LUT_LE_SLOPE_SHIFT, LUT_LE_SLOPE_UFLOW_SHIFT, 0, 5)
DLA_F(CDP_S_LUT_LE_SLOPE_SHIFT, LUT_LE_SLOPE_OFLOW_SHIFT, 5, 5)
DLA_F(CDP_S_LUT_LO_SLOPE_SCALE, LUT_LO_SLOPE_UFLOW_SCALE, 0, 16)
DLA_F(CDP_S_LUT_LO_SLOPE_SCALE, LUT_LO_SLOPE_OFLOW_SCALE, 16, 16)
DLA_F(CDP_S_LUT_LO_SLOPE_SHIFT, LUT_LO_SLOPE_UFLOW_SHIFT, 0, 5)
DLA_F(CDP_S_LUT_LO_SLOPE_SHIFT, LUT_LO_SLOPE_OFLOW_SHIFT, 5, 5)
DLA_F(CDP_D_FUNC_BYPASS, SQSUM_BYPASS, 0, 1)
DLA_F(CDP_D_FUNC_BYPASS, MUL_BYPASS, 1, 1)
DLA_F(CDP_D_DST_DMA_CFG, DST_RAM_TYPE, 0, 1)
DLA_F(CDP_D_DATA_FORMAT, INPUT_DATA_TYPE, 0, 2)
DLA_F(CDP_D_LRN_CFG, NORMALZ_LEN, 0, 2)
DLA_F(CDP_D_DATIN_OFFSET, DATIN_OFFSET, 0, 16)
DLA_F(CDP_D_DATIN_SCALE, DATIN_SCALE, 0, 16)
DLA_F(CDP_D_DATIN_SHIFTER, DATIN_SHIFTER, 0, 5)
DLA_F(CDP_D_DATOUT_OFFSET, DATOUT_OFFSET, 0, 32)
DLA_F(CDP_D_DATOUT_SCALE, DATOUT_SCALE, 0, 16)
DLA_F(CDP_D_DATOUT_SHIFTER, DATOUT_SHIFTER, 0, 6)
// BDMA (bdma.c processor_bdma_program_slot): addresses and strides in
// bytes, bits 31..5 (32-byte units); sizes and repeats minus one.
DLA_F(BDMA_CFG_SRC_ADDR_LOW, V32, 5, 27)
DLA_F(BDMA_CFG_DST_ADDR_LOW, V32, 5, 27)
DLA_F(BDMA_CFG_LINE, SIZE, 0, 13)
DLA_F(BDMA_CFG_CMD, SRC_RAM_TYPE, 0, 1)
DLA_F(BDMA_CFG_CMD, DST_RAM_TYPE, 1, 1)
DLA_F(BDMA_CFG_LINE_REPEAT, NUMBER, 0, 24)
DLA_F(BDMA_CFG_SRC_LINE, STRIDE, 5, 27)
DLA_F(BDMA_CFG_DST_LINE, STRIDE, 5, 27)
DLA_F(BDMA_CFG_SURF_REPEAT, NUMBER, 0, 24)
DLA_F(BDMA_CFG_SRC_SURF, STRIDE, 5, 27)
DLA_F(BDMA_CFG_DST_SURF, STRIDE, 5, 27)
DLA_F(BDMA_CFG_OP, EN, 0, 1)
DLA_F(BDMA_CFG_LAUNCH0, GRP0_LAUNCH, 0, 1)
DLA_F(BDMA_CFG_LAUNCH1, GRP1_LAUNCH, 0, 1)
#undef DLA_F

/// CONV_MODE: DIRECT 0, WINOGRAD 1; DATAIN_FORMAT: FEATURE 0, PIXEL 1;
/// PIXEL_MAPPING: PITCH_LINEAR 0. (PIXEL_FORMAT is PixelFormat's value,
/// NvdlaPixel.h.)
inline constexpr int64_t kConvDirect = 0, kDatainFeature = 0, kDatainPixel = 1;
inline constexpr int64_t kPixelPitchLinear = 0;

/// Enumerated field values used by more than one register.
inline constexpr int64_t kRamTypeMc = 1;    // *_RAM_TYPE: MC (DBB); CV is 0
inline constexpr int64_t kSrcReg = 0, kSrcMem = 1; // *_SRC
/// The operand DMAs' *_DATA_USE (MUL 0, ALU 1, BOTH 2), *_DATA_SIZE
/// (ONE_BYTE 0, TWO_BYTE 1) and *_DATA_MODE (PER_KERNEL 0, PER_ELEMENT 1).
inline constexpr int64_t kDataUseMul = 0, kDataUseAlu = 1, kDataUseBoth = 2;
inline constexpr int64_t kDataModePerKernel = 0, kDataModePerElement = 1;
inline constexpr int64_t kPrecisionInt8 = 0; // INT8 0, INT16 1, FP16 2
/// Every unit's S_POINTER: PRODUCER (bit 0) picks the register group the
/// CSB writes go to.
inline constexpr CsbField kPointerProducer{CsbReg::SDP_S_POINTER, 0, 1};
/// S_LUT_ACCESS_CFG: LUT_TABLE_ID LE 0, LO 1; LUT_ACCESS_TYPE WRITE 1.
inline constexpr int64_t kLutTableLe = 0, kLutTableLo = 1, kLutWrite = 1;
/// PDP's POOLING_METHOD: AVERAGE 0, MAX 1, MIN 2; FLYING_MODE: OFF_FLYING 1.
inline constexpr int64_t kPoolAverage = 0, kPoolMax = 1, kPoolMin = 2;
inline constexpr int64_t kPdpOffFlying = 1;
/// The firmware's most passes of a split PDP layer (pdp.c MAX_SPLIT_NUM);
/// PARTIAL_WIDTH_* hold widths of 1 .. 2^10 columns.
inline constexpr int64_t kPdpMaxSplits = 64, kPdpMaxPartialWidth = 1024;
/// The seven PAD_VALUE_<n>X_CFG registers (19-bit fields).
inline constexpr CsbReg kPdpPadValueRegs[7] = {
    CsbReg::PDP_D_POOLING_PADDING_VALUE_1_CFG, CsbReg::PDP_D_POOLING_PADDING_VALUE_2_CFG,
    CsbReg::PDP_D_POOLING_PADDING_VALUE_3_CFG, CsbReg::PDP_D_POOLING_PADDING_VALUE_4_CFG,
    CsbReg::PDP_D_POOLING_PADDING_VALUE_5_CFG, CsbReg::PDP_D_POOLING_PADDING_VALUE_6_CFG,
    CsbReg::PDP_D_POOLING_PADDING_VALUE_7_CFG};
inline constexpr unsigned kPdpPadValueBits = 19;
/// Every unit's cube width, height and channel fields (CDMA's DATAIN_*,
/// CSC's and CACC's DATAOUT_*, the SDP's, PDP's and CDP's D_DATA_CUBE_*)
/// hold the dimension minus one in 13 bits: at most 8192.
inline constexpr unsigned kCubeDimensionBits = CDMA_D_DATAIN_SIZE_0_DATAIN_WIDTH.width;
/// BDMA: the firmware programs at most NUM_MAX_BDMA_OPS (20) transfers per
/// operation and refuses a transfer of more than 8192 lines or surfaces
/// (bdma.c); CFG_LINE holds the line's 32-byte units minus one in 13 bits.
inline constexpr int64_t kBdmaMaxTransfers = 20, kBdmaMaxRepeat = 8192;
inline constexpr int64_t kBdmaMaxLineBytes = int64_t(32) << BDMA_CFG_LINE_SIZE.width;
} // namespace csb

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAREGISTERMAP_H
