"""Independent numpy model of every NVDLA integer unit: one import for all.

Written from NVIDIA's hardware C model (nvdla/hw cmod/, read-only copy in
/work/shared/nvdla-hw/cmod) and the register descriptions in
spec/manual/*.rdl; it never reads the project's C++. Keyword arguments are
the hardware's register / field names in lower case, without the unit
prefix (BS_ / BN_ / EW_ / D_): a later MLIR attribute can use the same
spelling. Rounding is half away from zero everywhere the C model rounds
(ac_fixed AC_RND_INF, or `x > 0 ? x + 0.5 : x - 0.5` in double).

unit (function)               C model source, function             registers (bits)
----------------------------  -----------------------------------  ------------------------------
CDMA input converter          hls/cdma_libs/cdma_cvt.cpp           cvt_en (1), cvt_offset (s16),
  cdma_cvt_feature              NV_NVDLA_CDMA_CVT_cell;            cvt_scale (s16),
  cdma_cvt_image                cdma/NV_NVDLA_cdma.cpp             cvt_truncate (u6); image:
                                hls_convertor,                     mean_format (1), mean_ry /
                                process_one_element_8 / _16        mean_gu / mean_bv / mean_ax
                                                                   (s16), pixel_sign_override (1)
CACC accumulation             cacc/NV_NVDLA_cacc.cpp               48-bit assembly, saturating
  cacc_accumulate               mac2accu_b_transport
CACC delivery                 cacc/NV_NVDLA_cacc.cpp, delivery     clip_truncate (5-bit field,
  cacc_clip                     loop (int8 / int16 case)           0..16 accepted: FAIL above)
SDP X1 (BS) / X2 (BN)         hls/sdp/sdp_x.cpp X_alu, X_mul,      alu_bypass, alu_algo
  sdp_x                         X_trt, X_relu                      (max/min/sum), alu_operand
                                                                   (s16), alu_shift_value (u6),
                                                                   mul_bypass, mul_prelu,
                                                                   mul_operand (s16),
                                                                   mul_shift_value (8-bit field,
                                                                   low 6 used), relu_bypass
SDP Y (EW) operand converter  hls/sdp/sdp_y_cvt.cpp cvt            cvt_bypass, cvt_offset (s32),
  sdp_y_cvt                                                        cvt_scale (s16),
                                                                   cvt_truncate (u6)
SDP Y (EW) MUL -> ALU         hls/sdp/sdp_y_core.cpp Y_mul,        mul_/alu_ bypass, src
  sdp_y                         Y_alu; sdp_y.cpp (which operand    (reg/mem), operand (s32 reg),
                                is converted)                      algo (max/min/sum/eql),
                                                                   mul_prelu, truncate (u10),
                                                                   {alu,mul}_cvt_* as above
SDP Y (EW) LUT                hls/sdp/sdp_y_idx.cpp                lut_le_table (65 x s16),
  sdp_lut                       NV_NVDLA_SDP_CORE_Y_idx,           lut_lo_table (257 x s16),
                                sdp_y_inp.cpp                      lut_le_function,
                                NV_NVDLA_SDP_CORE_Y_inp;           lut_le_index_offset (s8),
                                hls_wrapper/sdp_hls_wrapper.cpp    lut_le/lo_index_select (s8),
                                (entry reads, slope choice)        lut_le/lo_start / _end (s32),
                                                                   slope scales (s16) / shifts
                                                                   (5-bit fields read signed),
                                                                   lut_{uflow,oflow,hybrid}
                                                                   _priority (1 = LO)
SDP output converter          hls/sdp/sdp_c.cpp                    cvt_offset (s32), cvt_scale
  sdp_cvt                       NV_NVDLA_SDP_CORE_c                (s16), cvt_shift (u6),
                                                                   out_precision
PDP pooling                   pdp/NV_NVDLA_pdp.cpp LineOperation,  pooling_method, pad_value_1x
  pdp_pool, pdp_pad_register,   PoolingStage0Calc,                 .. pad_value_7x (19-bit
  pdp_recip_kernel,             PoolingStage1Calc,                 fields), recip_kernel_width /
  pdp_pad_values                int_sign_extend                    _height (u17), input_data
CDP input converter           hls/cdp_libs/cdp_icvt.cpp            datin_offset (s16, int8 uses
  cdp_icvt                      HLS_cdp_icvt                       its low 8 bits), datin_scale
                                                                   (s16), datin_shifter (u5)
CDP square sum                hls/cdp_libs/cdp_sq.cpp; the sum     normalz_len (3/5/7/9),
  cdp_square_sum                in cdp/NV_NVDLA_cdp.cpp            sqsum_bypass
CDP lookup tables             cdp/NV_NVDLA_cdp.cpp                 lut_le_table (65 x s16),
  cdp_lut                       lookup_lut_int8, lookup_lut,       lut_lo_table (257 x s16),
                                convert                            lut_le_function
                                                                   (exponent/linear),
                                                                   lut_le_index_offset (s8),
                                                                   lut_le/lo_index_select (8-bit
                                                                   fields read as s6 for int8,
                                                                   s7 for int16),
                                                                   lut_le/lo_start / _end (s38),
                                                                   lut_{le,lo}_slope_{uflow,
                                                                   oflow}_scale (s16) / _shift
                                                                   (5-bit fields read signed),
                                                                   lut_{uflow,oflow,hybrid}
                                                                   _priority (1 = LO)
CDP output converter          hls/cdp_libs/cdp_ocvt.cpp            datout_offset (s32, int8
  cdp_ocvt                      HLS_cdp_ocvt                       uses its low 25 bits),
                                                                   datout_scale (s16),
                                                                   datout_shifter (u6)
CDP whole (LRN)               the above in order                   mul_bypass
  cdp_lrn

Precisions are spelled as the hardware enums: 'int8', 'int16'. Not
modelled: fp16 paths (fp_nvdla.py), master's int16-LRN edge-channel fill
(v1's, the one of nv_full, is neutral as modelled: see cdp_lrn). The int16
paths agree with NVIDIA's v1 C model (nv_full) on the random int16 layers of
test/NvdlaCModelV1/trace-int16*.test.
"""

from int_arith import rha, sat, shl, shr, wrap
from int_cdp import cdp_icvt, cdp_lrn, cdp_lut, cdp_ocvt, cdp_square_sum
from int_conv import cacc_accumulate, cacc_clip, cdma_cvt_feature, cdma_cvt_image
from int_pdp import pdp_pad_register, pdp_pad_values, pdp_pool, pdp_recip_kernel
from int_sdp import sdp_cvt, sdp_x, sdp_y, sdp_y_cvt
from int_sdp_lut import sdp_lut

__all__ = ["rha", "sat", "shl", "shr", "wrap", "cdp_icvt", "cdp_lrn", "cdp_lut", "cdp_ocvt",
           "cdp_square_sum", "cacc_accumulate", "cacc_clip", "cdma_cvt_feature",
           "cdma_cvt_image", "pdp_pad_register", "pdp_pad_values", "pdp_pool",
           "pdp_recip_kernel", "sdp_cvt", "sdp_x", "sdp_y", "sdp_y_cvt", "sdp_lut"]
