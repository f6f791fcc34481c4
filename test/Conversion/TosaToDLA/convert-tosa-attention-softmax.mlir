// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=int16" -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=INT16
// p v's per-head products that the importer marks as reading an int8
// softmax (qdq_attention.py SOFTMAX_MARK) run with the softmax on NVDLA
// (AttentionSoftmax.cpp; the whole core: test/ONNX/qdq-attention-softmax.test);
// where the core does not match, the product and the host softmax stay,
// with a located remark saying why (the importer's location is the ONNX
// node's); p v itself is then a product of two activations like any other
// (ActivationProducts.cpp: by v read as weights where it can).

// 12 keys: the PDP's window is the keys as T / 8 x 8 positions.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+5]]:8: remark: the attention's softmax and p v stay on the host: it has 12 keys: the PDP takes a row's max over keys as T / 8 x 8 positions, so they must be a multiple of 8 and at most 64
// CHECK-LABEL: func.func @keys_12
// CHECK:         tosa.matmul
func.func @keys_12(%p: tensor<1x12x12xi8>, %v: tensor<1x12x16xi8>) -> tensor<1x12x16xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x12x12xi8>, tensor<1x12x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x12x16xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x12x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x12x16xi8>
  return %y : tensor<1x12x16xi8>
}

// -----

// 72 keys: beyond the cap (the PDP's 8 x 8 window, the reciprocal planner's cost).
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+6]]:8: remark: the attention's softmax and p v stay on the host: it has 72 keys
// CHECK-LABEL: func.func @keys_72
// CHECK:         dla.as_weights
// CHECK-NOT:     dla.pool
func.func @keys_72(%p: tensor<1x72x72xi8>, %v: tensor<1x72x16xi8>) -> tensor<1x72x16xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x72x72xi8>, tensor<1x72x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x72x16xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x72x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x72x16xi8>
  return %y : tensor<1x72x16xi8>
}

// -----

// 40 keys, but p is an argument, not a head's slice of a softmax.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+6]]:8: remark: the attention's softmax and p v stay on the host: p is not a head's slice of the softmax's result
// CHECK-LABEL: func.func @not_softmax
// CHECK:         dla.as_weights
// CHECK-NOT:     dla.pool
func.func @not_softmax(%p: tensor<1x40x40xi8>, %v: tensor<1x40x16xi8>) -> tensor<1x40x16xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x40x40xi8>, tensor<1x40x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x40x16xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x40x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x40x16xi8>
  return %y : tensor<1x40x16xi8>
}

// -----

// A mark without v's and o's scales.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+6]]:8: remark: the attention's softmax and p v stay on the host: its mark does not hold positive scores_scale, v_scale and o_scale
// CHECK-LABEL: func.func @bad_mark
// CHECK:         dla.as_weights
// CHECK-NOT:     dla.pool
func.func @bad_mark(%p: tensor<1x40x40xi8>, %v: tensor<1x40x16xi8>) -> tensor<1x40x16xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {scores_scale = 1.3e-01 : f64}} : (tensor<1x40x40xi8>, tensor<1x40x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x40x16xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x40x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x40x16xi8>
  return %y : tensor<1x40x16xi8>
}

// -----

// Heads of 12 dims: v^T's positions are D / 8 x 8.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+5]]:8: remark: the attention's softmax and p v stay on the host: its heads have 12 dims: they are v^T's positions (D / 8 x 8), so a multiple of 8
// CHECK-LABEL: func.func @dims_12
// CHECK:         tosa.matmul
func.func @dims_12(%p: tensor<1x40x40xi8>, %v: tensor<1x40x12xi8>) -> tensor<1x40x12xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x40x40xi8>, tensor<1x40x12xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x40x12xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x40x12xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x40x12xi8>
  return %y : tensor<1x40x12xi8>
}

// -----

// p [40, 32]: not a softmax over the queries' own keys.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+6]]:8: remark: the attention's softmax and p v stay on the host: p is not square over the keys
// CHECK-LABEL: func.func @not_square
// CHECK:         dla.as_weights
// CHECK-NOT:     dla.pool
func.func @not_square(%p: tensor<1x40x32xi8>, %v: tensor<1x32x16xi8>) -> tensor<1x40x16xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x40x32xi8>, tensor<1x32x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x40x16xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x40x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x40x16xi8>
  return %y : tensor<1x40x16xi8>
}

// -----

// The accumulator returned as it is.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+5]]:8: remark: the attention's softmax and p v stay on the host: p v's accumulator is not rescaled by a tosa.rescale of its own
// CHECK-LABEL: func.func @no_rescale
// CHECK:         tosa.matmul
func.func @no_rescale(%p: tensor<1x40x40xi8>, %v: tensor<1x40x16xi8>) -> tensor<1x40x16xi32> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x40x40xi8>, tensor<1x40x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x40x16xi32>
  return %m : tensor<1x40x16xi32>
}

// -----

// o clamped after its rescale.
// REMARK: convert-tosa-attention-softmax.mlir:[[#@LINE+6]]:8: remark: the attention's softmax and p v stay on the host: o is clamped after its rescale
// CHECK-LABEL: func.func @clamped
// CHECK:         dla.conv
// CHECK-NOT:     dla.pool
func.func @clamped(%p: tensor<1x40x40xi8>, %v: tensor<1x40x16xi8>) -> tensor<1x40x16xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %p, %v, %z, %z {dla.attention_softmax = {o_scale = 4.0e-02 : f64, scores_scale = 1.3e-01 : f64, v_scale = 5.0e-02 : f64}} : (tensor<1x40x40xi8>, tensor<1x40x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x40x16xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x40x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x40x16xi8>
  %c = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x40x16xi8>) -> tensor<1x40x16xi8>
  return %c : tensor<1x40x16xi8>
}

// On an int16 target the program (int8 tables) does not apply.
// INT16-COUNT-3: remark: the attention's softmax and p v stay on the host: the softmax's program is int8 (the target's precision is int16)
// INT16: remark: the attention's softmax and p v stay on the host: its mark does not hold
// INT16-COUNT-4: remark: the attention's softmax and p v stay on the host: the softmax's program is int8 (the target's precision is int16)
