// #dla.lut (docs/IntegerAttributes.md sections 2 and 8): struct() round trip
// standalone and on dla.lrn, optional fields omitted at their default,
// stated fields printed in declaration order whatever the written order.
// Verifier messages in lut-attr-invalid.mlir.
// RUN: dla-opt %s | dla-opt | FileCheck %s

// CHECK-LABEL: func.func @exponent
// CHECK: dla.lrn %arg0 size 5 lut <le_function = exponent, le = [32767, 32167, 31567,
// CHECK-SAME: lo = [32767, 32667,
// CHECK-SAME: 7167], le_start = 0, le_end = 1048576, lo_start = 0, lo_end = 524288, le_index_offset = 0, lo_index_select = 11, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>
// CHECK-SAME: : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
func.func @exponent(%x: tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8> {
  %y = dla.lrn %x size 5 lut <le_function = exponent, le = [32767, 32167, 31567, 30967, 30367, 29767, 29167, 28567, 27967, 27367, 26767, 26167, 25567, 24967, 24367, 23767, 23167, 22567, 21967, 21367, 20767, 20167, 19567, 18967, 18367, 17767, 17167, 16567, 15967, 15367, 14767, 14167, 13567, 12967, 12367, 11767, 11167, 10567, 9967, 9367, 8767, 8167, 7567, 6967, 6367, 5767, 5167, 4567, 3967, 3367, 2767, 2167, 1567, 967, 367, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [32767, 32667, 32567, 32467, 32367, 32267, 32167, 32067, 31967, 31867, 31767, 31667, 31567, 31467, 31367, 31267, 31167, 31067, 30967, 30867, 30767, 30667, 30567, 30467, 30367, 30267, 30167, 30067, 29967, 29867, 29767, 29667, 29567, 29467, 29367, 29267, 29167, 29067, 28967, 28867, 28767, 28667, 28567, 28467, 28367, 28267, 28167, 28067, 27967, 27867, 27767, 27667, 27567, 27467, 27367, 27267, 27167, 27067, 26967, 26867, 26767, 26667, 26567, 26467, 26367, 26267, 26167, 26067, 25967, 25867, 25767, 25667, 25567, 25467, 25367, 25267, 25167, 25067, 24967, 24867, 24767, 24667, 24567, 24467, 24367, 24267, 24167, 24067, 23967, 23867, 23767, 23667, 23567, 23467, 23367, 23267, 23167, 23067, 22967, 22867, 22767, 22667, 22567, 22467, 22367, 22267, 22167, 22067, 21967, 21867, 21767, 21667, 21567, 21467, 21367, 21267, 21167, 21067, 20967, 20867, 20767, 20667, 20567, 20467, 20367, 20267, 20167, 20067, 19967, 19867, 19767, 19667, 19567, 19467, 19367, 19267, 19167, 19067, 18967, 18867, 18767, 18667, 18567, 18467, 18367, 18267, 18167, 18067, 17967, 17867, 17767, 17667, 17567, 17467, 17367, 17267, 17167, 17067, 16967, 16867, 16767, 16667, 16567, 16467, 16367, 16267, 16167, 16067, 15967, 15867, 15767, 15667, 15567, 15467, 15367, 15267, 15167, 15067, 14967, 14867, 14767, 14667, 14567, 14467, 14367, 14267, 14167, 14067, 13967, 13867, 13767, 13667, 13567, 13467, 13367, 13267, 13167, 13067, 12967, 12867, 12767, 12667, 12567, 12467, 12367, 12267, 12167, 12067, 11967, 11867, 11767, 11667, 11567, 11467, 11367, 11267, 11167, 11067, 10967, 10867, 10767, 10667, 10567, 10467, 10367, 10267, 10167, 10067, 9967, 9867, 9767, 9667, 9567, 9467, 9367, 9267, 9167, 9067, 8967, 8867, 8767, 8667, 8567, 8467, 8367, 8267, 8167, 8067, 7967, 7867, 7767, 7667, 7567, 7467, 7367, 7267, 7167],
      le_start = 0, le_end = 1048576, lo_start = 0, lo_end = 524288, le_index_offset = 0,
      lo_index_select = 11, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>
    : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// Linear LE, every slope stated (negative shifts multiply), keys out of
// order.
// CHECK-LABEL: func.func @linear
// CHECK: lut <le_function = linear, le = [0, 0,
// CHECK-SAME: le_start = -5, le_end = 60, lo_start = -100, lo_end = 156, le_index_select = -3, lo_index_select = 0, le_slope_uflow_scale = -32768, le_slope_uflow_shift = -16, le_slope_oflow_scale = 32767, le_slope_oflow_shift = 15, lo_slope_uflow_scale = 3, lo_slope_uflow_shift = 1, lo_slope_oflow_scale = -2, lo_slope_oflow_shift = -1, uflow_priority = lo, oflow_priority = lo, hybrid_priority = le>
func.func @linear(%x: tensor<1x3x2x2xi16>) -> tensor<1x3x2x2xi16> {
  %y = dla.lrn %x size 3 in_cvt <offset = -3, scale = 5, shift = 2> out_cvt <offset = 7, scale = -2, shift = 40>
    lut <hybrid_priority = le, le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      le_start = -5, le_end = 60, lo_start = -100, lo_end = 156, le_index_select = -3,
      lo_index_select = 0, le_slope_uflow_scale = -32768, le_slope_uflow_shift = -16,
      le_slope_oflow_scale = 32767, le_slope_oflow_shift = 15, lo_slope_uflow_scale = 3,
      lo_slope_uflow_shift = 1, lo_slope_oflow_scale = -2, lo_slope_oflow_shift = -1,
      uflow_priority = lo, oflow_priority = lo>
    : tensor<1x3x2x2xi16> -> tensor<1x3x2x2xi16>
  return %y : tensor<1x3x2x2xi16>
}

// A slope stated at its default (0) prints nothing.
// CHECK-LABEL: func.func @standalone
// CHECK: dla.lut = #dla.lut<le_function = exponent, {{.*}}, le_index_offset = -2, lo_index_select = 4, uflow_priority = le, oflow_priority = lo, hybrid_priority = lo>}
func.func @standalone() attributes {dla.lut = #dla.lut<le_function = exponent, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = 0, le_end = 0, lo_start = 0, lo_end = 0, le_index_offset = -2,
    lo_index_select = 4, le_slope_oflow_shift = 0, uflow_priority = le, oflow_priority = lo,
    hybrid_priority = lo>} {
  return
}
