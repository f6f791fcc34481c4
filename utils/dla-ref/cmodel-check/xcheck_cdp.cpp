// NV_NVDLA_cdp.cpp's lookup_lut_int8 and lookup_lut (int16), extracted by
// run.sh into cdp_lookup.inc, run on random registers, tables and data with
// the HLS converters; plus the converters alone. sc_int / sc_uint stand in
// for SystemC's (wrap to N bits).
#include <cassert>
#include <cmath>
#include "rnd.h"

#define cslDebug(x)
#define ASSERT_WAR_CONSTRAIN 1 // the C model's own switch for its register asserts
#define NVDLA_CDP_S_LUT_CFG_0_LUT_LE_FUNCTION_EXPONENT 0
#define NVDLA_CDP_D_DATA_FORMAT_0_INPUT_DATA_TYPE_INT8 0
#define NVDLA_CDP_THROUGHPUT 8
#define DATA_FORMAT_IS_FP16 2
#define DATA_FORMAT_INT16 1

template <int N> struct sc_int {
  int64_t v = 0;
  sc_int() = default;
  sc_int(int64_t x) { *this = x; }
  sc_int &operator=(int64_t x) { v = (int64_t)((uint64_t)x << (64 - N)) >> (64 - N); return *this; }
  operator int64_t() const { return v; }
  int64_t to_int64() const { return v; }
  int to_int() const { return (int)v; }
};
template <int N> struct sc_uint {
  uint64_t v = 0;
  sc_uint() = default;
  sc_uint(int64_t x) { *this = x; }
  sc_uint &operator=(int64_t x) { v = (uint64_t)x & ((1ull << N) - 1); return *this; }
  operator int64_t() const { return (int64_t)v; }
  int to_int() const { return (int)v; }
};

void cdp_icvt_hls(int16_t *, int32_t, int16_t, uint8_t, uint8_t, int32_t *);
void cdp_ocvt_hls(int64_t *, int32_t, int16_t, uint8_t, uint8_t, int16_t *, uint8_t *);
void HLS_CDP_lookup_fp16(...) {}

// The member variables the extracted functions read.
uint32_t cdp_normalz_len_, cdp_lut_le_function_, cdp_lut_uflow_priority_, cdp_lut_oflow_priority_,
    cdp_lut_hybrid_priority_, cdp_lut_le_start_high_, cdp_lut_le_start_low_, cdp_lut_le_end_high_,
    cdp_lut_le_end_low_, cdp_lut_le_index_select_, cdp_lut_lo_start_high_, cdp_lut_lo_start_low_,
    cdp_lut_lo_end_high_, cdp_lut_lo_end_low_, cdp_lut_lo_index_select_, cdp_lut_le_index_offset_,
    cdp_lut_le_slope_uflow_scale_, cdp_lut_le_slope_oflow_scale_, cdp_lut_lo_slope_uflow_scale_,
    cdp_lut_lo_slope_oflow_scale_, cdp_lut_le_slope_uflow_shift_, cdp_lut_le_slope_oflow_shift_,
    cdp_lut_lo_slope_uflow_shift_, cdp_lut_lo_slope_oflow_shift_, cdp_datin_offset_,
    cdp_datin_scale_, cdp_datin_shifter_, cdp_datout_offset_, cdp_datout_scale_,
    cdp_datout_shifter_, cdp_input_data_type_, cdp_sqsum_bypass_, cdp_mul_bypass_;
int16_t raw_lut[65], density_lut[257];
int8_t *normalz_out_int8;
int16_t *normalz_out;
uint32_t lut_u_flow, lut_o_flow, lut_le_hit, lut_lo_hit, lut_hybrid_hit, o_cvt_o_flow;

#include "cdp_lookup.inc"

static int64_t start38() {
  return rng() % 3 == 0 ? (int64_t)(rng() % 200000) - 1000 : rnd(38);
}

static void lrn(bool int16) {
  cdp_input_data_type_ = int16 ? 1 : 0;
  cdp_normalz_len_ = rng() % 4;
  cdp_lut_le_function_ = rng() % 2;
  cdp_lut_uflow_priority_ = rng() % 2;
  cdp_lut_oflow_priority_ = rng() % 2;
  cdp_lut_hybrid_priority_ = rng() % 2;
  int64_t s[4] = {start38(), start38(), start38(), start38()};
  uint32_t *low[4] = {&cdp_lut_le_start_low_, &cdp_lut_le_end_low_, &cdp_lut_lo_start_low_,
                      &cdp_lut_lo_end_low_};
  uint32_t *high[4] = {&cdp_lut_le_start_high_, &cdp_lut_le_end_high_, &cdp_lut_lo_start_high_,
                       &cdp_lut_lo_end_high_};
  for (int i = 0; i < 4; i++) { *low[i] = (uint32_t)s[i]; *high[i] = (uint32_t)(s[i] >> 32) & 0x3f; }
  int selRange = int16 ? 128 : 64;
  int lsel = (int)(rng() % selRange) - selRange / 2, osel = (int)(rng() % selRange) - selRange / 2;
  if (rng() % 2) { lsel = rng() % 14; osel = rng() % 12; }
  int leoff = (int)(rng() % 40) - 8;
  cdp_lut_le_index_select_ = lsel & 0xff;
  cdp_lut_lo_index_select_ = osel & 0xff;
  cdp_lut_le_index_offset_ = leoff & 0xff;
  int64_t sc[4]; int sh[4];
  for (int i = 0; i < 4; i++) { sc[i] = rnd(16); sh[i] = rng() % 32; }
  cdp_lut_le_slope_uflow_scale_ = sc[0] & 0xffff; cdp_lut_le_slope_uflow_shift_ = sh[0];
  cdp_lut_le_slope_oflow_scale_ = sc[1] & 0xffff; cdp_lut_le_slope_oflow_shift_ = sh[1];
  cdp_lut_lo_slope_uflow_scale_ = sc[2] & 0xffff; cdp_lut_lo_slope_uflow_shift_ = sh[2];
  cdp_lut_lo_slope_oflow_scale_ = sc[3] & 0xffff; cdp_lut_lo_slope_oflow_shift_ = sh[3];
  int64_t dio = rnd(16), dis = rnd(16), doo = rnd(32), dos = rnd(16);
  int dish = rng() % 32, dosh = rng() % 64;
  if (rng() % 2) { dio = (int64_t)(rng() % 9) - 4; dis = 1 + rng() % 3; dish = rng() % 2; }
  cdp_datin_offset_ = dio & 0xffff; cdp_datin_scale_ = dis & 0xffff; cdp_datin_shifter_ = dish;
  cdp_datout_offset_ = (uint32_t)doo; cdp_datout_scale_ = dos & 0xffff; cdp_datout_shifter_ = dosh;
  cdp_sqsum_bypass_ = rng() % 5 == 0;
  cdp_mul_bypass_ = rng() % 2;
  for (int i = 0; i < 65; i++) raw_lut[i] = (int16_t)rnd(16);
  for (int i = 0; i < 257; i++) density_lut[i] = (int16_t)rnd(16);
  // int8: 16 channels in, outputs for channels 4..11; int16: 12 in, 4..7.
  int channels = int16 ? 12 : 16, outs = int16 ? 4 : 8;
  int16_t in16[12]; int8_t in8[20] = {0};
  int8_t out8[8]; int16_t out16[4];
  for (int i = 0; i < channels; i++) {
    if (int16) in16[i] = (int16_t)rnd(16); else in8[i] = (int8_t)rnd(8);
  }
  if (int16) { normalz_out = out16; lookup_lut(in16, 4); }
  else { normalz_out_int8 = out8; lookup_lut_int8(in8, 8); }
  printf("%s %u %u %u %u %u %ld %ld %ld %ld %d %d %d", int16 ? "L16" : "L8", cdp_normalz_len_,
         cdp_lut_le_function_, cdp_lut_uflow_priority_, cdp_lut_oflow_priority_,
         cdp_lut_hybrid_priority_, s[0], s[1], s[2], s[3], leoff, lsel, osel);
  for (int i = 0; i < 4; i++) printf(" %ld %d", sc[i], sh[i]);
  printf(" %ld %ld %d %ld %ld %d %u %u", dio, dis, dish, doo, dos, dosh, cdp_sqsum_bypass_,
         cdp_mul_bypass_);
  for (int i = 0; i < 65; i++) printf(" %d", raw_lut[i]);
  for (int i = 0; i < 257; i++) printf(" %d", density_lut[i]);
  for (int i = 0; i < channels; i++) printf(" %d", int16 ? in16[i] : in8[i]);
  for (int i = 0; i < outs; i++) printf(" %d", int16 ? out16[i] : out8[i]);
  printf("\n");
}

static void converters() {
  int64_t off = rnd(16), sc = rnd(16), a = rnd(8), b = rnd(8), x = rnd(16);
  int sh = rng() % 32;
  int16_t in = (int16_t)(((b & 0xff) << 8) | (a & 0xff));
  int32_t o;
  cdp_icvt_hls(&in, (int32_t)off, (int16_t)sc, sh, 0, &o);
  int lo = o & 0x1ff, hi = (o >> 9) & 0x1ff;
  printf("I8 %ld %ld %ld %d %d\nI8 %ld %ld %ld %d %d\n", a, off, sc, sh, lo >= 256 ? lo - 512 : lo,
         b, off, sc, sh, hi >= 256 ? hi - 512 : hi);
  in = (int16_t)x;
  cdp_icvt_hls(&in, (int32_t)off, (int16_t)sc, sh, 1, &o);
  printf("I16 %ld %ld %ld %d %d\n", x, off, sc, sh, o);
  int64_t v0 = rnd(25), v1 = rnd(25), v = rnd(33), ooff = rnd(32), osc = rnd(16);
  int osh = rng() % 64;
  int64_t packed = ((v1 & 0x1ffffff) << 25) | (v0 & 0x1ffffff);
  int16_t out; uint8_t flow;
  cdp_ocvt_hls(&packed, (int32_t)ooff, (int16_t)osc, osh, 0, &out, &flow);
  printf("O8 %ld %ld %ld %d %d\nO8 %ld %ld %ld %d %d\n", v0, ooff, osc, osh, (int8_t)(out & 0xff),
         v1, ooff, osc, osh, (int8_t)((out >> 8) & 0xff));
  cdp_ocvt_hls(&v, (int32_t)ooff, (int16_t)osc, osh, 1, &out, &flow);
  printf("O16 %ld %ld %ld %d %d\n", v, ooff, osc, osh, out);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  for (int i = 0; i < n; i++) { lrn(false); lrn(true); converters(); }
}
