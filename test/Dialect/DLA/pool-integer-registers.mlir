// PDP's integer average registers on dla.pool (RECIP_KERNEL_WIDTH /
// _HEIGHT, PAD_VALUE_1X .. 7X): round trip, absent ones print nothing,
// kept on storage; every verifier message in
// pool-integer-registers-invalid.mlir; executed bit-exactly against
// utils/dla-ref/int_pdp.pdp_pool in test/Execution/int-pool-layers.test.
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// CHECK-LABEL: func.func @all
// CHECK: dla.pool average %arg0 kernel [3, 3] stride [2, 2] pad [1, 1, 1, 1] recip_kernel_width 21845 recip_kernel_height 21845 pad_values [-5, -10, -15, -20, -25, -30, -35] : tensor<1x16x9x9xi8> -> tensor<1x16x5x5xi8>
// MEMREF-LABEL: func.func @all
// MEMREF: dla.on_storage
// MEMREF: dla.pool average {{.*}} recip_kernel_width 21845 recip_kernel_height 21845 pad_values [-5, -10, -15, -20, -25, -30, -35]
func.func @all(%x: tensor<1x16x9x9xi8>) -> tensor<1x16x5x5xi8> {
  %p = dla.pool average %x kernel [3, 3] stride [2, 2] pad [1, 1, 1, 1]
      recip_kernel_width 21845 recip_kernel_height 21845 pad_values [-5, -10, -15, -20, -25, -30, -35]
      : tensor<1x16x9x9xi8> -> tensor<1x16x5x5xi8>
  return %p : tensor<1x16x5x5xi8>
}

// Each register alone; the range edges (0 and 2^17 - 1, -2^18 and 2^18 - 1).
// CHECK-LABEL: func.func @each
// CHECK: dla.pool average %arg0 kernel [2, 2] recip_kernel_width 131071 : tensor<1x8x4x4xi16> -> tensor<1x8x3x3xi16>
// CHECK: dla.pool average %arg0 kernel [2, 2] recip_kernel_height 0 : tensor<1x8x4x4xi16> -> tensor<1x8x3x3xi16>
// CHECK: dla.pool average %arg0 kernel [2, 2] pad [1, 0, 0, 0] pad_values [-262144, 262143, 0, 0, 0, 0, 1] : tensor<1x8x4x4xi16> -> tensor<1x8x4x3xi16>
func.func @each(%x: tensor<1x8x4x4xi16>) -> (tensor<1x8x3x3xi16>, tensor<1x8x3x3xi16>, tensor<1x8x4x3xi16>) {
  %a = dla.pool average %x kernel [2, 2] recip_kernel_width 131071 : tensor<1x8x4x4xi16> -> tensor<1x8x3x3xi16>
  %b = dla.pool average %x kernel [2, 2] recip_kernel_height 0 : tensor<1x8x4x4xi16> -> tensor<1x8x3x3xi16>
  %c = dla.pool average %x kernel [2, 2] pad [1, 0, 0, 0] pad_values [-262144, 262143, 0, 0, 0, 0, 1] : tensor<1x8x4x4xi16> -> tensor<1x8x4x3xi16>
  return %a, %b, %c : tensor<1x8x3x3xi16>, tensor<1x8x3x3xi16>, tensor<1x8x4x3xi16>
}

// Derived values are not printed; stated ones print as written, also when
// equal to the derived ones (floor(2^16 / 2) = 32768).
// CHECK-LABEL: func.func @stated_or_derived
// CHECK: dla.pool average %arg0 kernel [2, 2] : tensor<1x8x4x4xi8> -> tensor<1x8x3x3xi8>
// CHECK: dla.pool average %arg0 kernel [2, 2] recip_kernel_width 32768 recip_kernel_height 32768 : tensor<1x8x4x4xi8> -> tensor<1x8x3x3xi8>
func.func @stated_or_derived(%x: tensor<1x8x4x4xi8>) -> (tensor<1x8x3x3xi8>, tensor<1x8x3x3xi8>) {
  %a = dla.pool average %x kernel [2, 2] : tensor<1x8x4x4xi8> -> tensor<1x8x3x3xi8>
  %b = dla.pool average %x kernel [2, 2] recip_kernel_width 32768 recip_kernel_height 32768 : tensor<1x8x4x4xi8> -> tensor<1x8x3x3xi8>
  return %a, %b : tensor<1x8x3x3xi8>, tensor<1x8x3x3xi8>
}

// The generic form names the attributes in full.
// CHECK-LABEL: func.func @generic
// CHECK: dla.pool average %arg0 kernel [2, 2] recip_kernel_width 3 pad_values [1, 2, 3, 4, 5, 6, 7]
func.func @generic(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x3x3xi8> {
  %y = "dla.pool"(%x) <{kind = #dla<pool_kind average>, kernel = array<i64: 2, 2>, recip_kernel_width = 3 : i64, pad_values = array<i64: 1, 2, 3, 4, 5, 6, 7>}> : (tensor<1x8x4x4xi8>) -> tensor<1x8x3x3xi8>
  return %y : tensor<1x8x3x3xi8>
}
