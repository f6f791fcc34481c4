// --dla-convert-tosa merges an SDP reading another SDP's only result when
// the later one's stages all come after the earlier one's (bias,
// batch-norm, element-wise, activation): never two stages of one kind, and
// every attribute of both is kept (one stated differently: no merge).
// RUN: dla-opt %s --dla-convert-tosa -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @bias_then_relu
// CHECK: %[[M:.*]] = dla.sdp offline %arg0 bias %arg1 : tensor<4xf16> relu {pipeline_precision = #dla.pipeline_precision<fp32>}
// CHECK-NOT: dla.sdp
// CHECK: return %[[M]]
func.func @bias_then_relu(%x: tensor<1x4x2x2xf16>, %b: tensor<4xf16>) -> tensor<1x4x2x2xf16> {
  %0 = dla.sdp offline %x bias %b : tensor<4xf16> : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  %1 = dla.sdp offline %0 relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  return %1 : tensor<1x4x2x2xf16>
}

// -----

// CHECK-LABEL: func.func @two_biases
// CHECK: %[[A:.*]] = dla.sdp offline %arg0 bias %arg1
// CHECK: dla.sdp offline %[[A]] bias %arg2
func.func @two_biases(%x: tensor<1x4x2x2xf16>, %b: tensor<4xf16>, %c: tensor<4xf16>) -> tensor<1x4x2x2xf16> {
  %0 = dla.sdp offline %x bias %b : tensor<4xf16> : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  %1 = dla.sdp offline %0 bias %c : tensor<4xf16> : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  return %1 : tensor<1x4x2x2xf16>
}

// -----

// CHECK-LABEL: func.func @two_activations
// CHECK: %[[A:.*]] = dla.sdp offline %arg0 prelu %arg1
// CHECK: dla.sdp offline %[[A]] relu
func.func @two_activations(%x: tensor<1x4x2x2xf16>, %p: tensor<4xf16>) -> tensor<1x4x2x2xf16> {
  %0 = dla.sdp offline %x prelu %p : tensor<4xf16> : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  %1 = dla.sdp offline %0 relu : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  return %1 : tensor<1x4x2x2xf16>
}

// -----

// CHECK-LABEL: func.func @conflicting_attribute
// CHECK: %[[A:.*]] = dla.sdp offline %arg0 bias %arg1 {{.*}}<fp16>
// CHECK: dla.sdp offline %[[A]] relu {{.*}}<fp32>
func.func @conflicting_attribute(%x: tensor<1x4x2x2xf16>, %b: tensor<4xf16>) -> tensor<1x4x2x2xf16> {
  %0 = dla.sdp offline %x bias %b : tensor<4xf16> {pipeline_precision = #dla.pipeline_precision<fp16>} : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  %1 = dla.sdp offline %0 relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xf16>
  return %1 : tensor<1x4x2x2xf16>
}

// -----

// The earlier SDP's output converter applies between the stages: no merge.
// CHECK-LABEL: func.func @converted_between
// CHECK: %[[A:.*]] = dla.sdp offline %arg0 bias %arg1 : tensor<4xi16> out_cvt
// CHECK: dla.sdp offline %[[A]] relu
func.func @converted_between(%x: tensor<1x4x2x2xi16>, %b: tensor<4xi16>) -> tensor<1x4x2x2xi16> {
  %0 = dla.sdp offline %x bias %b : tensor<4xi16> out_cvt <offset = 0, scale = 3, shift = 1> : tensor<1x4x2x2xi16> -> tensor<1x4x2x2xi16>
  %1 = dla.sdp offline %0 relu : tensor<1x4x2x2xi16> -> tensor<1x4x2x2xi16>
  return %1 : tensor<1x4x2x2xi16>
}

// -----

// A stage-form SDP is one programmed pass (merged, its bias would meet the
// implicit form's relu, which stage form puts in a stage): no merge.
// CHECK-LABEL: func.func @stage_form
// CHECK: %[[A:.*]] = dla.sdp offline %arg0 bias %arg1 : tensor<4xi16> bs <alu = sum, alu_operand = bias>
// CHECK: dla.sdp offline %[[A]] relu
func.func @stage_form(%x: tensor<1x4x2x2xi16>, %b: tensor<4xi16>) -> tensor<1x4x2x2xi16> {
  %0 = dla.sdp offline %x bias %b : tensor<4xi16> bs <alu = sum, alu_operand = bias> : tensor<1x4x2x2xi16> -> tensor<1x4x2x2xi16>
  %1 = dla.sdp offline %0 relu : tensor<1x4x2x2xi16> -> tensor<1x4x2x2xi16>
  return %1 : tensor<1x4x2x2xi16>
}
