// --dla-lower-to-memref drops the module's target (the lowered module parses
// without the dialect) but the layer ops it keeps inside dla.on_storage
// still verify against it: it moves onto each dla.on_storage. Before, an
// nv_small module failed here ("on target nvdla nv_full it accepts ...").
// RUN: dla-opt %s --dla-compile="target=nv_small precision=int8" 2>/dev/null | dla-opt --dla-encodings-to-memref | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK: dla.on_storage
// CHECK: dla.conv direct {{.*}} : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>, tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
// CHECK: } {dla.target = #dla.target<nvdla, nv_small>}
module {
  func.func @conv(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
    %w8 = arith.constant dense<"0x030A11181F262D343B424950575E656C737A101010101010101010101010101010101010040B121920272E353C434A51585F666D747B10101010101010101010"> : tensor<8x8x1x1xi8>
    %y = dla.conv direct %x, %w8 : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
    return %y : tensor<1x8x4x4xi8>
  }
}
