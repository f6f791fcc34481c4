// Surfaces in the CV-SRAM (`dla.memory = "cvsram"`, NetworkPlan.cpp): each
// memory placed apart (largest first, the lowest gap among the surfaces
// live at the same time), the CV-SRAM's from 0x50000000 (where NVIDIA's
// v1 traces put it: sanity1_cvsram, sanity3_cvsram), loaded and checked in
// the testbench's sec_mem; BDMA's CFG_CMD bits 0 / 1 the source's /
// destination's RAM type (MC 1, CV-SRAM 0: arnvdla.h, bdma.c map_mem), the
// convolution's CDMA D_DAIN_RAM_TYPE 0 (CVIF, conv.c map_ram) for an input
// in the CV-SRAM, its weights and the SDP's output MC. Addresses by hand:
// DRAM b (256 B, layers 3..) at 0, x (128, ..0) at 0 beside it, w (128,
// ..2, aligned 256) after x at 256, y (128, 2..) after b and w at 384;
// CV-SRAM s (256, 0..1) at 0, t (160, 1..) at 256, z (128, ..3) at 416.
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "[open('%t/data/' + n, 'wb').write(bytes(b)) for n, b in [('arg0.bin', 128), ('arg1.bin', 128), ('arg2.bin', 128), ('result0.bin', 128), ('result1.bin', 160), ('result2.bin', 256)]]"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg

// PLAN: address plan of @cvsram: 7 surfaces, 512 bytes (and 544 in the CV-SRAM)
// PLAN-NEXT: arg0: 0x80000000, 128 bytes, aligned 32,
// PLAN-NEXT: arg1: 0x80000100, 128 bytes, aligned 256,
// PLAN-NEXT: arg2: 0x500001a0, 128 bytes, aligned 32, {{.*}}, in the CV-SRAM
// PLAN-NEXT: layer0: 0x50000000, 256 bytes, aligned 32, {{.*}}, in the CV-SRAM
// PLAN-NEXT: layer1: 0x50000100, 160 bytes, aligned 32, {{.*}}, in the CV-SRAM
// PLAN-NEXT: layer2: 0x80000180, 128 bytes, aligned 32,
// PLAN-NOT: CV-SRAM
// PLAN-NEXT: layer3: 0x80000000, 256 bytes, aligned 32,
// PLAN-NOT: CV-SRAM

// CHECK: // address plan (pri_mem): 512 bytes from 0x80000000
// CHECK-NEXT: // address plan (sec_mem, CV-SRAM): 544 bytes from 0x50000000
// CHECK: mem_load(pri_mem, 0x80000000, "arg0.dat");
// CHECK-NEXT: mem_load(pri_mem, 0x80000100, "arg1.dat");
// CHECK-NEXT: mem_load(sec_mem, 0x500001a0, "arg2.dat");
// Results zeroed where no other surface of their memory lies (b shares x's).
// CHECK-NEXT: mem_init(pri_mem, 0x80000180, 0x80, ALL_ZERO);
// CHECK-NEXT: mem_init(sec_mem, 0x50000100, 0xa0, ALL_ZERO);
// CHECK-NEXT: // layer 0: dla.relayout
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_ADDR_LOW_0, 0x80000000);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_DST_ADDR_LOW_0, 0x50000000);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_DST_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_LINE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_CMD_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_LINE_REPEAT_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_LINE_0, 0x40);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_DST_LINE_0, 0x60);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SURF_REPEAT_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_SURF_0, 0x80);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_DST_SURF_0, 0x100);
// CHECK: // layer 1: dla.relayout
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_ADDR_LOW_0, 0x50000000);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_DST_ADDR_LOW_0, 0x50000100);
// CHECK: reg_write(NVDLA_BDMA.CFG_CMD_0, 0x0);
// CHECK: // layer 2: dla.conv + dla.sdp
// CHECK: reg_write(NVDLA_CDMA.D_DAIN_RAM_TYPE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_HIGH_0_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_DAIN_ADDR_LOW_0_0, 0x50000100);
// CHECK: reg_write(NVDLA_CDMA.D_WEIGHT_RAM_TYPE_0, 0x1);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_CDMA.D_WEIGHT_ADDR_LOW_0, 0x80000100);
// CHECK: reg_write(NVDLA_SDP.D_DST_BASE_ADDR_LOW_0, 0x80000180);
// CHECK: reg_write(NVDLA_SDP.D_DST_DMA_CFG_0, 0x1);
// CHECK: // layer 3: dla.relayout
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_ADDR_LOW_0, 0x500001a0);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_SRC_ADDR_HIGH_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_BDMA.CFG_DST_ADDR_LOW_0, 0x80000000);
// CHECK: reg_write(NVDLA_BDMA.CFG_CMD_0, 0x2);
// The CV-SRAM result line by line (strides beyond its data), 8 channels of
// each atom.
// CHECK: check_crc(layer_3_bdma, pri_mem, 0x80000180, 0x8,
// CHECK: check_crc(layer_3_bdma, sec_mem, 0x50000100, 0x8,
// CHECK-NEXT: check_crc(layer_3_bdma, sec_mem, 0x50000120, 0x8,
// CHECK-NEXT: check_crc(layer_3_bdma, sec_mem, 0x50000140, 0x8,
// CHECK-NEXT: check_crc(layer_3_bdma, sec_mem, 0x50000160, 0x8,
// CHECK-NEXT: // result 2
// CHECK: check_crc(layer_3_bdma, pri_mem, 0x80000000, 0x8,

!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_full>>
!s = tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96, surface_stride = 256, config = nv_full>>
!t = tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 64, surface_stride = 160, config = nv_full>>
!w = tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_full>>
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @cvsram(%x: !d, %w: !w, %z: !d {dla.memory = "cvsram"}) -> (!d, !t, !s) {
  %s = dla.relayout %x {dla.memory = "cvsram"} : !d -> !s
  %t = dla.relayout %s {dla.memory = "cvsram"} : !s -> !t
  %c = dla.conv direct %t, %w : !t, !w -> tensor<1x8x2x2xi8>
  %y = dla.sdp on_the_fly %c bs <mul_operand = 1> : tensor<1x8x2x2xi8> -> !d
  %b = dla.relayout %z : !d -> !s
  return %y, %t, %b : !d, !t, !s
}
}
