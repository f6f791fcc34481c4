// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-pack-weights

func.func @elided() -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>> {
  // expected-error @+1 {{constant's resource '__elided__' has no data (elided?)}}
  %0 = arith.constant dense_resource<__elided__> : tensor<4xi8>
  %1 = dla.relayout %0 : tensor<4xi8> -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
  return %1 : tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
}

// -----

func.func @short_blob() -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>> {
  // expected-error @+1 {{constant's resource 'short' holds 3 bytes, but 'tensor<4xi8>' needs 4}}
  %0 = arith.constant dense_resource<short> : tensor<4xi8>
  %1 = dla.relayout %0 : tensor<4xi8> -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
  return %1 : tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x01000000010203"
    }
  }
#-}

// -----

// A packed source must hold its encoding's storage size (8 bytes here).
func.func @packed_blob_size() -> tensor<4xi8> {
  // expected-error @+1 {{constant's resource 'logical' holds 4 bytes, but 'tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>' needs 8}}
  %0 = arith.constant dense_resource<logical> : tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
  %1 = dla.relayout %0 : tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>> -> tensor<4xi8>
  return %1 : tensor<4xi8>
}

{-#
  dialect_resources: {
    builtin: {
      logical: "0x0100000001020304"
    }
  }
#-}

// -----

func.func @sparse() -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>> {
  // expected-error @+1 {{cannot pack a constant of kind sparse<1, 5> : tensor<4xi8>; expected dense or dense_resource elements}}
  %0 = arith.constant sparse<[[1]], [5]> : tensor<4xi8>
  %1 = dla.relayout %0 : tensor<4xi8> -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
  return %1 : tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
}

// -----

// A valid layout whose padding makes one byte into 2^62: diagnosed, not
// allocated.
func.func @huge() -> tensor<1xi8, #dla.chunked<[(0, 0), (0, 4611686018427387904)]>> {
  %0 = arith.constant dense<1> : tensor<1xi8>
  // expected-error @+1 {{packing needs 4611686018427387905 bytes (4611686018427387904 for storage and temporaries, 1 for a copy of the source), more than the limit of 2147483648 bytes (option max-bytes of --dla-pack-weights)}}
  %1 = dla.relayout %0 : tensor<1xi8> -> tensor<1xi8, #dla.chunked<[(0, 0), (0, 4611686018427387904)]>>
  return %1 : tensor<1xi8, #dla.chunked<[(0, 0), (0, 4611686018427387904)]>>
}
