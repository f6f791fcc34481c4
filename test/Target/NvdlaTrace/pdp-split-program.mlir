// A pool wider than one PDP pass on nv_small, split by output width as
// NVIDIA's compiler splits it (PDPNode.cpp pdpHWSplitWidth). Values
// composed by hand: a 3-row window at stride 1 keeps 4 overlapping lines,
// so one pass takes 7 KiB * 8 / (4 * 8 * 14) = 128 output columns
// (calculateMaxWidth); 130 output columns are 2 passes of 128 and 2; the
// first reads (128 - 1) * 1 + 3 = 130 input columns, the last
// (2 - 1) * 1 + 3 - 0 - (3 - 1) = 2 new ones (it re-reads the 2 its first
// window shares); the right padding (130 - 1) + 3 - 132 = 0. Fields
// (opendla.h of nv_small): PARTIAL_WIDTH_*_FIRST bits 0-9, _LAST 10-19,
// _MID 20-29, each the width - 1 (0 unused); SPLIT_NUM = passes - 1 (PDP:
// bits 8-15 beside POOLING_METHOD MAX 1 and FLYING_MODE OFF 1 << 4).
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "d = '%t/data/'; [open(d + n, 'wb').write(bytes(k)) for n, k in (('arg0.bin', 3168), ('result0.bin', 1040))]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: wrote {{.*}}prog.cfg: 1 layers, 1 CRC checks

// CHECK: reg_write(NVDLA_PDP_RDMA.D_OPERATION_MODE_CFG_0, 0x1);
// CHECK: reg_write(NVDLA_PDP_RDMA.D_PARTIAL_WIDTH_IN_0, 0x481);
// CHECK: reg_write(NVDLA_PDP.D_OPERATION_MODE_CFG_0, 0x111);
// CHECK-NEXT: reg_write(NVDLA_PDP.D_PARTIAL_WIDTH_IN_0, 0x481);
// CHECK-NEXT: reg_write(NVDLA_PDP.D_PARTIAL_WIDTH_OUT_0, 0x47f);
// CHECK: reg_write(NVDLA_PDP.D_POOLING_PADDING_CFG_0, 0x0);

!f = tensor<1x8x3x132xi8, #dla.feature<int8, config = nv_small>>
!g = tensor<1x8x1x130xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @wide(%x: !f) -> !g {
  %y = dla.pool max %x kernel [3, 3] stride [1, 1] : !f -> !g
  return %y : !g
}
}
