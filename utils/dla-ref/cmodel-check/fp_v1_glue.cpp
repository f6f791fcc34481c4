// NVIDIA's v1 C model's fp16 arithmetic as plain C functions, for ctypes
// (../test_fp_nvdla.py checks the numpy model ../fp_nvdla.py against them).
// Test glue only. Nothing of NVIDIA's is copied: the functions are called
// from the model's own library (libnvdla_cmod.so of scripts/build-nvdla-cmod-v1.sh:
// HLS_fp32_* of hls/vlibs, NV_NVDLA_SDP_CORE_x / _c of hls/sdp, NV_NVDLA_cacc's
// cacc_fp16_add / cacc_fp48_to_fp32) or compiled from its headers read in
// place (NvdlaMacCell of cmac/NV_NVDLA_cmac.h). Built by test_fp_nvdla.py.
#include <systemc.h>

#include "sdp.h"
#include "nvdla_float.h"
#include "vlibs.h"
#include "arnvdla.h"
#include "pdp_hls_wrapper.h"
#include "cdp_hls_wrapper.h"
#include "csc_cvt.h"
// hls_wrapper/cdma_hls_wrapper.h shares cdp_hls_wrapper.h's include guard
// (_CDP_HLS_WRAPPER_H_), so its one function is declared here as it is there.
void cdma_cvt_hls(int16_t *cdma_cvt_data_in, uint8_t input_data_type, uint16_t cdma_cvt_alu_in,
                  uint16_t cdma_cvt_mul_in, uint8_t cdma_cvt_in_precission,
                  uint8_t cdma_cvt_out_precission, uint8_t cdma_cvt_truncate,
                  int32_t *cdma_cvt_data_out);

// cacc_fp16_add and cacc_fp48_to_fp32 are private members that use no
// member state: made reachable for this test only.
#define private public
#include "NV_NVDLA_cacc.h"
#undef private
#include "NV_NVDLA_cmac.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

using scsim::cmod::NV_NVDLA_cacc;
using scsim::cmod::NvdlaMacCell;

namespace {
// One of hls/vlibs' conversions on n values.
template <class InT, class OutT, class In, class Out, class Fn>
void unaryHls(Fn fn, const In *a, Out *o, int n) {
  using SIn = std::make_signed_t<In>;
  using SOut = std::make_signed_t<Out>;
  for (int i = 0; i < n; ++i) {
    ac_channel<InT> ca;
    ac_channel<OutT> co;
    ca.write(InT((SIn)a[i]));
    fn(ca, co);
    o[i] = (Out)(SOut)co.read().to_int();
  }
}
// One of hls/vlibs' fp32 operations on n pairs.
template <class Fn> void binary32(Fn fn, const uint32_t *a, const uint32_t *b, uint32_t *o, int n) {
  for (int i = 0; i < n; ++i) {
    ac_channel<vFp32Type> ca, cb, co;
    ca.write(vFp32Type((int32_t)a[i]));
    cb.write(vFp32Type((int32_t)b[i]));
    fn(ca, cb, co);
    o[i] = (uint32_t)co.read().to_int();
  }
}
// Storage standing in for a CACC module: the two functions read no member.
alignas(NV_NVDLA_cacc) unsigned char caccStorage[sizeof(NV_NVDLA_cacc)];
NV_NVDLA_cacc *cacc() { return reinterpret_cast<NV_NVDLA_cacc *>(caccStorage); }
} // namespace

// libsystemc needs an sc_main; no simulation runs here.
int sc_main(int, char *[]) { return 0; }

extern "C" {

void v1_fp32_add(const uint32_t *a, const uint32_t *b, uint32_t *o, int n) {
  binary32(HLS_fp32_add, a, b, o, n);
}

void v1_fp32_mul(const uint32_t *a, const uint32_t *b, uint32_t *o, int n) {
  binary32(HLS_fp32_mul, a, b, o, n);
}

void v1_fp16_to_fp32(const uint16_t *a, uint32_t *o, int n) {
  unaryHls<vFp16Type, vFp32Type>(HLS_fp16_to_fp32, a, o, n);
}

void v1_fp32_to_fp16(const uint32_t *a, uint16_t *o, int n) {
  unaryHls<vFp32Type, vFp16Type>(HLS_fp32_to_fp16, a, o, n);
}

// One X stage at precision FP16 on n values (n a multiple of 16), the ALU
// and multiplier operands per element (from "memory").
void v1_sdp_x_fp16(const uint32_t *x, const uint16_t *aluOp, const uint16_t *mulOp, int n,
                   int aluBypass, int aluAlgo, int mulBypass, int mulPrelu, int reluBypass,
                   int nanToZero, uint32_t *out) {
  for (int at = 0; at < n; at += 16) {
    ac_channel<xDataInStruct> cin;
    ac_channel<xAluOpStruct> calu;
    ac_channel<xMulOpStruct> cmul;
    ac_channel<xDataOutStruct> cout_;
    xDataInStruct d;
    xAluOpStruct a;
    xMulOpStruct m;
    for (int i = 0; i < 16; ++i) {
      d.data[i] = (int32_t)x[at + i];
      a.data[i] = (int16_t)aluOp[at + i];
      m.data[i] = (int16_t)mulOp[at + i];
    }
    cin.write(d);
    if (!aluBypass)
      calu.write(a);
    if (!mulBypass)
      cmul.write(m);
    NV_NVDLA_SDP_CORE_x(cin, calu, cmul, 0, 0, aluBypass, aluAlgo, /*alu_src=*/1, 0, mulBypass,
                        mulPrelu, /*mul_src=*/1, 0, reluBypass, nanToZero, ENUM_FP16, cout_);
    xDataOutStruct o = cout_.read();
    for (int i = 0; i < 16; ++i)
      out[at + i] = (uint32_t)o.data[i].slc<32>(0).to_int();
  }
}

// The output converter at precision FP16, output FP16 (int16: 0) or
// INT16 (int16: 1, Fp16ToInt16 after Fp32ToFp16).
void v1_sdp_cvt_fp16(const uint32_t *x, int n, uint16_t *out, int int16) {
  for (int at = 0; at < n; at += 16) {
    ac_channel<cDataInStruct> cin;
    ac_channel<cDataOutStruct> cout_;
    cDataInStruct d;
    for (int i = 0; i < 16; ++i)
      d.data[i] = (int32_t)x[at + i];
    cin.write(d);
    NV_NVDLA_SDP_CORE_c(cin, 0, 1, 0, ENUM_FP16, int16 ? ENUM_INT16 : ENUM_FP16, 0, cout_);
    cDataOutStruct o = cout_.read();
    for (int i = 0; i < 16; ++i)
      out[at + i] = (uint16_t)o.data[i].to_int();
  }
}

// An offline fp16 SDP pass with every stage bypassed (dla.upsample,
// dla.interleave), as NV_NVDLA_sdp.cpp runs it: each value read through
// nvdla_float.h's Fp16ToFp32 (the data path's), left by the bypassed stages
// (sdp_hls_wrapper::sdp, NAN_TO_ZERO 0), then NV_NVDLA_SDP_CORE_c at
// precision FP16, output FP16 (Fp32ToFp16); n a multiple of 16.
void v1_sdp_pass_fp16(const uint16_t *x, int n, uint16_t *out) {
  for (int at = 0; at < n; at += 16) {
    ac_channel<cDataInStruct> cin;
    ac_channel<cDataOutStruct> cout_;
    cDataInStruct d;
    for (int i = 0; i < 16; ++i) {
      const int32_t wide = Fp16ToFp32((ACINTT(16))(int16_t)x[at + i]).to_int();
      d.data[i] = wide;
    }
    cin.write(d);
    NV_NVDLA_SDP_CORE_c(cin, 0, 1, 0, ENUM_FP16, ENUM_FP16, 0, cout_);
    cDataOutStruct o = cout_.read();
    for (int i = 0; i < 16; ++i)
      out[at + i] = (uint16_t)o.data[i].to_int();
  }
}

// One MAC cell, fp16, direct mode (wino 0) or Winograd mode (wino 1):
// `data` and `weight` hold n cells of 64 values; the masks are set as CSC
// sets them (a value's two mask bits set unless it is +0 or -0). Each
// result's 44-bit word: exponent (bits 43..38) and the signed 38-bit
// mantissa; one word per cell in direct mode, four (results 0..3) in
// Winograd mode.
static void cmacFp16(const uint16_t *data, const uint16_t *weight, int n, int wino, int64_t *exp,
                     int64_t *mant) {
  NvdlaMacCell cell;
  uint64_t wtMask[2], datMask[2];
  sc_int<8> dat[128], wt[128];
  sc_int<22> result[8];
  cell.wt_mask_ptr_ = wtMask;
  cell.dat_mask_ptr_ = datMask;
  cell.data_operand_ptr_ = dat;
  cell.weight_operand_ptr_ = wt;
  cell.result_ptr_ = result;
  cell.precision_ = NVDLA_CMAC_A_D_MISC_CFG_0_PROC_PRECISION_FP16;
  int words = wino ? 4 : 1;
  for (int a = 0; a < n; ++a) {
    std::memset(wtMask, 0, sizeof wtMask);
    std::memset(datMask, 0, sizeof datMask);
    for (int ch = 0; ch < 64; ++ch) {
      uint16_t d = data[a * 64 + ch], w = weight[a * 64 + ch];
      dat[ch * 2] = (int8_t)(d & 0xff);
      dat[ch * 2 + 1] = (int8_t)(d >> 8);
      wt[ch * 2] = (int8_t)(w & 0xff);
      wt[ch * 2 + 1] = (int8_t)(w >> 8);
      int word = 1 - ch / 32, bit = (ch % 32) * 2;
      if (d & 0x7fff)
        datMask[word] |= 3ull << bit;
      if (w & 0x7fff)
        wtMask[word] |= 3ull << bit;
    }
    cell.do_calc(true, wino != 0);
    for (int r = 0; r < words; ++r) {
      uint64_t word = ((uint64_t)(result[2 * r + 1].to_int64() & 0x3fffff) << 22) |
                      (uint64_t)(result[2 * r].to_int64() & 0x3fffff);
      exp[a * words + r] = (int64_t)(word >> 38) & 63;
      int64_t m = (int64_t)(word & ((1ull << 38) - 1));
      mant[a * words + r] = m >= (1ll << 37) ? m - (1ll << 38) : m;
    }
  }
}

void v1_cmac_fp16(const uint16_t *data, const uint16_t *weight, int n, int64_t *exp,
                  int64_t *mant) {
  cmacFp16(data, weight, n, 0, exp, mant);
}

void v1_cmac_wino_fp16(const uint16_t *data, const uint16_t *weight, int n, int64_t *exp,
                       int64_t *mant) {
  cmacFp16(data, weight, n, 1, exp, mant);
}

// CSC's PRA (hls/csc_libs NV_NVDLA_CSC_pra_cell, in the library) at
// precision FP16 on n tiles of 16 fp16 values (4 * y + x).
void v1_csc_pra_fp16(const uint16_t *in, int n, uint16_t *out) {
  for (int t = 0; t < n; ++t) {
    ac_channel<vDataStruct> ci, co;
    vDataStruct d;
    for (int i = 0; i < 16; ++i)
      d.data[i] = (int16_t)in[t * 16 + i];
    ci.write(d);
    NV_NVDLA_CSC_pra_cell(ci, ACINTF(2)(ENUM_FP16), vTruncateType(0), co);
    vDataStruct o = co.read();
    for (int i = 0; i < 16; ++i)
      out[t * 16 + i] = (uint16_t)o.data[i].to_int();
  }
}

// cacc_fp16_add on n accumulators (exponent 8 bits, mantissa 40 bits signed).
void v1_cacc_add(int64_t *accExp, int64_t *accMant, const int64_t *macExp, const int64_t *macMant,
                 int n) {
  for (int i = 0; i < n; ++i) {
    sc_uint<48> acc = ((uint64_t)(accExp[i] & 0xff) << 40) | ((uint64_t)accMant[i] & ((1ull << 40) - 1));
    sc_uint<44> mac = ((uint64_t)(macExp[i] & 63) << 38) | ((uint64_t)macMant[i] & ((1ull << 38) - 1));
    cacc()->cacc_fp16_add(&acc, mac);
    uint64_t v = acc.to_uint64();
    accExp[i] = (int64_t)(v >> 40) & 0xff;
    int64_t m = (int64_t)(v & ((1ull << 40) - 1));
    accMant[i] = m >= (1ll << 39) ? m - (1ll << 40) : m;
  }
}

void v1_cacc_to_fp32(const int64_t *accExp, const int64_t *accMant, int n, uint32_t *out) {
  for (int i = 0; i < n; ++i) {
    sc_uint<48> acc = ((uint64_t)(accExp[i] & 0xff) << 40) | ((uint64_t)accMant[i] & ((1ull << 40) - 1));
    sc_int<32> f;
    cacc()->cacc_fp48_to_fp32(&f, acc);
    out[i] = (uint32_t)f.to_int();
  }
}

// nvdla_float.h's fp17 helpers (inline, compiled here from the header the
// library was built with), the float-mode LUT's arithmetic: op 0 Fp17Add,
// 1 Fp17Mul on pairs; conversions one value each.
void v1_fp17_binary(int op, const uint32_t *a, const uint32_t *b, uint32_t *o, int n) {
  for (int i = 0; i < n; ++i) {
    ACINTT(17) x = (int32_t)a[i], y = (int32_t)b[i];
    ACINTT(17) r = op == 0 ? Fp17Add(x, y) : Fp17Mul(x, y);
    o[i] = (uint32_t)r.to_int() & 0x1FFFF;
  }
}

// op 0 Fp16ToFp17, 1 Fp32ToFp17, 2 Fp17ToFp32 (results as unsigned bits).
void v1_fp17_convert(int op, const uint32_t *a, uint32_t *o, int n) {
  for (int i = 0; i < n; ++i) {
    if (op == 0)
      o[i] = (uint32_t)Fp16ToFp17(ACINTT(16)((int32_t)a[i])).to_int() & 0x1FFFF;
    else if (op == 1)
      o[i] = (uint32_t)Fp32ToFp17(ACINTT(32)((int32_t)a[i])).to_int() & 0x1FFFF;
    else if (op == 2)
      o[i] = (uint32_t)Fp17ToFp32(ACINTT(17)((int32_t)a[i])).to_int();
    else // 3: Fp17ToFp16, the PDP's average out of fp17 (through hls/vlibs)
      unaryHls<vFp17Type, vFp16Type>(HLS_fp17_to_fp16, &a[i], &o[i], 1), o[i] &= 0xFFFF;
  }
}

// hls/vlibs' HLS_fp16_max (op 0) / HLS_fp16_min (op 1) on pairs.
void v1_fp16_cmp(int op, const uint16_t *a, const uint16_t *b, uint16_t *o, int n) {
  for (int i = 0; i < n; ++i) {
    ac_channel<vFp16Type> ca, cb, co;
    ca.write(vFp16Type((int16_t)a[i]));
    cb.write(vFp16Type((int16_t)b[i]));
    (op == 0 ? HLS_fp16_max : HLS_fp16_min)(ca, cb, co);
    o[i] = (uint16_t)co.read().to_int();
  }
}

// The PDP's fp16 steps (hls_wrapper/pdp_hls_wrapper.cpp), per element, the
// line buffer updated in place as the C model's line buffer is (uint32_t
// words). method: 0 average, 1 max, 2 min.
static uint8_t pdpMethod(int m) {
  return m == 0 ? NVDLA_PDP_D_OPERATION_MODE_CFG_0_POOLING_METHOD_POOLING_METHOD_AVERAGE
         : m == 1 ? NVDLA_PDP_D_OPERATION_MODE_CFG_0_POOLING_METHOD_POOLING_METHOD_MAX
                  : NVDLA_PDP_D_OPERATION_MODE_CFG_0_POOLING_METHOD_POOLING_METHOD_MIN;
}

void v1_pdp_w(int method, const uint8_t *first, const uint32_t *padL, const uint32_t *padR,
              uint32_t *line, const uint16_t *x, int n) {
  for (int i = 0; i < n; ++i)
    HLS_PDP_PoolingStage0Calc_FP16_W(first[i], padL[i], padR[i], pdpMethod(method), i, line, i,
                                     const_cast<uint16_t *>(x));
}

void v1_pdp_h(int method, const uint8_t *first, const uint32_t *padT, const uint32_t *padB,
              int kernelWidth, uint32_t *line, const uint32_t *row, int n) {
  for (int i = 0; i < n; ++i)
    HLS_PDP_PoolingStage0Calc_FP16_H(first[i], padT[i], padB[i], kernelWidth, pdpMethod(method),
                                     i, line, i, const_cast<uint32_t *>(row));
}

void v1_pdp_stage1(int method, const uint32_t *recipW, const uint32_t *recipH,
                   const uint32_t *line, uint16_t *out, int n) {
  for (int i = 0; i < n; ++i)
    HLS_PDP_PoolingStage1Calc_FP16(pdpMethod(method), recipW[i], recipH[i], i, out, i,
                                   const_cast<uint32_t *>(line));
}


// HLS_CDP_lookup_fp16 (what NV_NVDLA_cdp.cpp's lookup_lut calls in fp16) on
// n windows of 12 fp16 values, 4 fp16 outputs each. regs: normalz_len,
// le_function (0 exponent, 1 linear), uflow / oflow / hybrid priority,
// le_index_offset, le_index_select, lo_index_select, and the 4 slope
// scales (fp16 bits); starts / ends fp32 bits; le 65, lo 257 fp16 entries.
void v1_cdp_lookup_fp16(const uint16_t *win, int n, const int32_t *regs, const uint32_t *edges,
                        const uint16_t *le, const uint16_t *lo, uint16_t *out) {
  int16_t leT[65], loT[257];
  std::memcpy(leT, le, sizeof leT);
  std::memcpy(loT, lo, sizeof loT);
  uint32_t u = 0, o = 0, leHit = 0, loHit = 0, hy = 0;
  for (int w = 0; w < n; ++w) {
    int16_t data[12];
    std::memcpy(data, win + 12 * w, sizeof data);
    HLS_CDP_lookup_fp16(data, leT, loT, (uint16_t)regs[0], (uint16_t)regs[1], regs[2] != 0,
                        regs[3] != 0, regs[4] != 0, edges[0], (int16_t)(int8_t)regs[5],
                        (int8_t)regs[6], edges[1], edges[2], (int8_t)regs[7], edges[3],
                        /*datin*/ 0, 1, 0, /*datout*/ 0, 1, 0, (int16_t)regs[8],
                        (int16_t)regs[9], (int16_t)regs[10], (int16_t)regs[11],
                        /*sqsum_bypass*/ false, /*mul_bypass*/ false,
                        reinterpret_cast<int16_t *>(out + 4 * w), &u, &o, &leHit, &loHit, &hy);
  }
}

// cdma_cvt_hls (hls_wrapper/cdma_hls_wrapper.cpp, as NV_NVDLA_cdma's
// hls_convertor calls it for image pixels) on n components: raw the
// component's bits (int16_t as the model holds them), type PIXEL_*, alu the
// mean / offset, in / out precision 0 int8, 1 int16, 2 fp16; out the low 16
// bits the model stores in the buffer.
void v1_cdma_cvt(const int32_t *raw, const int32_t *alu, int n, int type, int32_t scale,
                 int inPrecision, int outPrecision, int truncate, int32_t *out) {
  for (int i = 0; i < n; ++i) {
    int16_t in = (int16_t)raw[i];
    int32_t result = 0;
    cdma_cvt_hls(&in, (uint8_t)type, (uint16_t)alu[i], (uint16_t)scale, (uint8_t)inPrecision,
                 (uint8_t)outPrecision, (uint8_t)truncate, &result);
    out[i] = result & 0xFFFF;
  }
}

} // extern "C"
