// --dla-check-precision measures an integer LRN's tables against alpha,
// beta, k (docs/IntegerAttributes.md 5.2): int8 over every input and every
// attainable square sum, int16 over 2^20 windows from a fixed seed. The
// int8 derived figure is also computed by numpy from lrn_tables.py's tables
// (utils/dla-ref/test_lrn_tables.py); fp16 LRN gets no remark.
// RUN: dla-opt %s --dla-check-precision -verify-diagnostics -split-input-file

func.func @derived_int8(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi8> {
  // expected-remark @+1 {{derived LRN tables: largest error 0.507 LSB of the output at x = -128, square sum 21882}}
  %n = dla.lrn %x size 5 : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return %n : tensor<1x16x8x8xi8>
}

// -----

func.func @derived_int16(%x: tensor<1x16x4x4xi16>) -> tensor<1x16x4x4xi16> {
  // expected-remark @+1 {{derived LRN tables: largest error 2.18 LSB of the output at x = 1231, square sum 1559461}}
  %n = dla.lrn %x size 3 {alpha = 1.0e-3 : f32, beta = 0.6 : f32, k = 2.0 : f32} : tensor<1x16x4x4xi16> -> tensor<1x16x4x4xi16>
  return %n : tensor<1x16x4x4xi16>
}

// -----

// The stated tables of docs/IntegerAttributes.md 5.2's example.
func.func @stated(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi8> {
  // expected-remark @+1 {{stated LRN tables: largest error 0.517 LSB of the output at x = -123, square sum 15472}}
  %n = dla.lrn %x size 5 in_cvt <offset = 0, scale = 1, shift = 0>
    out_cvt <offset = 0, scale = 1, shift = 15>
    lut <le_function = exponent,
      le = [32767, 32767, 32766, 32764, 32760, 32752, 32737, 32705, 32643, 32519, 32274, 31796,
        30889, 29244, 26493, 22453, 17484, 12482, 8297, 5252, 3229, 1953, 1172, 700, 417, 248,
        148, 88, 52, 31, 18, 11, 7, 4, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      lo = [32767, 31796, 30889, 30040, 29244, 28495, 27789, 27123, 26493, 25896, 25330, 24791,
        24279, 23791, 23324, 22879, 22453, 22045, 21654, 21279, 20919, 20573, 20239, 19918,
        19609, 19310, 19022, 18744, 18475, 18215, 17964, 17720, 17484, 17255, 17033, 16818,
        16608, 16405, 16208, 16016, 15829, 15647, 15470, 15297, 15129, 14966, 14806, 14650,
        14498, 14350, 14205, 14063, 13925, 13790, 13658, 13529, 13402, 13279, 13158, 13039,
        12923, 12810, 12698, 12589, 12482, 12377, 12274, 12174, 12075, 11978, 11882, 11789,
        11697, 11607, 11518, 11431, 11346, 11262, 11179, 11098, 11018, 10940, 10863, 10787,
        10712, 10638, 10566, 10495, 10425, 10356, 10288, 10221, 10155, 10090, 10026, 9963,
        9901, 9840, 9779, 9720, 9661, 9603, 9546, 9490, 9435, 9380, 9326, 9273, 9220, 9168,
        9117, 9066, 9016, 8967, 8919, 8871, 8823, 8776, 8730, 8684, 8639, 8595, 8551, 8507,
        8464, 8421, 8379, 8338, 8297, 8256, 8216, 8176, 8137, 8098, 8060, 8022, 7985, 7947,
        7911, 7874, 7838, 7803, 7768, 7733, 7698, 7664, 7630, 7597, 7564, 7531, 7499, 7467,
        7435, 7404, 7372, 7342, 7311, 7281, 7251, 7221, 7192, 7163, 7134, 7105, 7077, 7049,
        7021, 6994, 6966, 6939, 6912, 6886, 6860, 6834, 6808, 6782, 6757, 6732, 6707, 6682,
        6657, 6633, 6609, 6585, 6561, 6538, 6514, 6491, 6468, 6446, 6423, 6401, 6378, 6356,
        6335, 6313, 6291, 6270, 6249, 6228, 6207, 6186, 6166, 6146, 6125, 6105, 6086, 6066,
        6046, 6027, 6007, 5988, 5969, 5950, 5932, 5913, 5895, 5876, 5858, 5840, 5822, 5804,
        5787, 5769, 5752, 5734, 5717, 5700, 5683, 5666, 5650, 5633, 5617, 5600, 5584, 5568,
        5552, 5536, 5520, 5504, 5489, 5473, 5458, 5442, 5427, 5412, 5397, 5382, 5367, 5353,
        5338, 5323, 5309, 5295, 5280, 5266, 5252],
      le_start = 0, le_end = 1048576, lo_start = 0, lo_end = 524288,
      le_index_offset = 0, lo_index_select = 11,
      uflow_priority = le, oflow_priority = le, hybrid_priority = lo>
    {alpha = 1.0e-4 : f32, beta = 0.75 : f32, k = 1.0 : f32}
    : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return %n : tensor<1x16x8x8xi8>
}

// -----

func.func @fp16(%x: tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16> {
  %n = dla.lrn %x size 5 : tensor<1x16x4x4xf16> -> tensor<1x16x4x4xf16>
  return %n : tensor<1x16x4x4xf16>
}
