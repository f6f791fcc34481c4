// Layers on a batch outside NVDLA's batch mode: one hardware operation
// per input, each at the input's batch stride in every batched surface
// (describeNetwork, atBatchInput). Values composed by hand from the
// feature format (NvdlaFeature.h: 8 int8 channels fill one surface of
// 32-byte atoms on nv_full, line stride W x 32, surface stride H x line,
// packed batch stride = surfaces x surface stride) and the address plan
// the translation prints.
//
// A PDP on a batch of 2 (the PDP has no batch registers): 2x8x4x4 input,
// batch stride 4 x 128 = 0x200; 2x8x2x2 result, batch stride 2 x 64 =
// 0x80.
// RUN: rm -rf %t && mkdir -p %t/pool %t/conv %t/int16
// RUN: %python -c "d = '%t/pool/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 1024), ('result0.bin', 256))]"
// RUN: %python -c "d = '%t/conv/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 1024), ('arg1.bin', 640), ('arg2.bin', 256), ('result0.bin', 256))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/pool/prog --nvdla-trace-data=%t/pool %S/Inputs/batch-pool.mlir | FileCheck %s --check-prefix=POOL-PLAN
// RUN: FileCheck %s --check-prefix=POOL --input-file=%t/pool/prog/prog.cfg
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/conv/prog --nvdla-trace-data=%t/conv %S/Inputs/batch-conv-ew.mlir | FileCheck %s --check-prefix=CONV-PLAN
// RUN: FileCheck %s --check-prefix=CONV --input-file=%t/conv/prog/prog.cfg
// RUN: %python -c "d = '%t/int16/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 1024), ('arg1.bin', 640), ('result0.bin', 256))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/int16/prog --nvdla-trace-data=%t/int16 %S/Inputs/batch-conv-int16.mlir | FileCheck %s --check-prefix=INT16-PLAN
// RUN: FileCheck %s --check-prefix=INT16 --input-file=%t/int16/prog/prog.cfg

// POOL-PLAN: arg0: 0x80000000, 1024 bytes
// POOL-PLAN: layer0: 0x80000400, 256 bytes
// POOL-PLAN: wrote {{.*}}prog.cfg: 1 layers, 8 CRC checks
// POOL: reg_write(NVDLA_PDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x80000000);
// POOL: reg_write(NVDLA_PDP.D_DST_BASE_ADDR_LOW_0, 0x80000400);
// POOL: reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);
// POOL: reg_write(NVDLA_PDP_RDMA.D_SRC_BASE_ADDR_LOW_0, 0x80000200);
// POOL: reg_write(NVDLA_PDP.D_DST_BASE_ADDR_LOW_0, 0x80000480);
// POOL: reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);
// POOL-NEXT: reg_write(NVDLA_PDP_RDMA.D_OP_ENABLE_0, 0x1);
// POOL-NOT: D_OP_ENABLE

// A direct convolution whose SDP on the fly adds a per-element operand of
// the batch: the operand DMAs' batch strides are not in NVIDIA's
// firmware's descriptors, so not batch mode but a CONV and SDP operation
// per input (BATCH_NUMBER 0): input b at arg0 + b x 0x200, operand at
// arg2 + b x 0x80, result at layer0 + b x 0x80.
// CONV-PLAN: arg0: 0x80000000, 1024 bytes
// CONV-PLAN: arg2: 0x80000680, 256 bytes
// CONV-PLAN: layer0: 0x80000780, 256 bytes
// CONV: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x80000000);
// CONV: reg_write(NVDLA_CDMA.D_BATCH_NUMBER_0, 0x0);
// CONV: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000780);
// CONV: reg_write(NVDLA_SDP_RDMA.D_BS_BASE_ADDR_LOW_0, 0x80000680);
// CONV: reg_write(NVDLA_CDMA.D_OP_ENABLE_0, 0x1);
// CONV: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x80000200);
// CONV: reg_write(NVDLA_CDMA.D_BATCH_NUMBER_0, 0x0);
// CONV: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000800);
// CONV: reg_write(NVDLA_SDP_RDMA.D_BS_BASE_ADDR_LOW_0, 0x80000700);
// CONV: reg_write(NVDLA_CDMA.D_OP_ENABLE_0, 0x1);
// CONV-NOT: D_OP_ENABLE

// An int8 convolution whose SDP on the fly writes int16: v1's SDP asserts
// BATCH_NUMBER 0 on its int8-to-int16 path, so a CONV and SDP operation per
// input. The 8 int16 channels are one surface of 2 x 2 x 32 bytes (batch
// stride 0x80), but the path writes each int8 atom as two int16 surfaces:
// input 1's second surface lies past the batch, so the result is placed
// with 0x80 + 2 x 0x80 = 384 bytes.
// INT16-PLAN: layer0: 0x80000680, 384 bytes
// INT16: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x80000000);
// INT16: reg_write(NVDLA_CDMA.D_BATCH_NUMBER_0, 0x0);
// INT16: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000680);
// INT16: reg_write(NVDLA_CDMA.D_OP_ENABLE_0, 0x1);
// INT16: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x80000200);
// INT16: reg_write(NVDLA_CDMA.D_BATCH_NUMBER_0, 0x0);
// INT16: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000700);
// INT16: reg_write(NVDLA_CDMA.D_OP_ENABLE_0, 0x1);
// INT16-NOT: D_OP_ENABLE
