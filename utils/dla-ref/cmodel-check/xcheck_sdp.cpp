// The SDP's HLS functions (X, output converter, Y converters and core, Y LUT
// index and interpolation with the wrapper's entry reads) on random
// registers and data; one line per case: unit, inputs, C-model output.
#include "sdp.h"
#include "rnd.h"

#include <algorithm>

static void x_stage() {
  xDataInStruct din; xAluOpStruct aop; xMulOpStruct mop;
  int64_t x = rnd(32), ao = rnd(16), mo = rnd(16);
  int ab = rng() % 2, alg = rng() % 3, ash = rng() % 4 == 0 ? rng() % 64 : rng() % 20;
  int mb = rng() % 2, pr = rng() % 2, msh = rng() % 64, rb = rng() % 2;
  for (int i = 0; i < 16; i++) { din.data[i] = x; aop.data[i] = ao; mop.data[i] = mo; }
  ac_channel<xDataInStruct> ci; ac_channel<xAluOpStruct> ca; ac_channel<xMulOpStruct> cm;
  ac_channel<xDataOutStruct> co;
  ci.write(din);
  NV_NVDLA_SDP_CORE_x(ci, ca, cm, (xMulOpType)mo, (xAluOpType)ao, ab, alg, 0, ash, mb, pr, 0,
                      msh, rb, 0, 0, co);
  printf("X %ld %ld %ld %d %d %d %d %d %d %d %d\n", x, ao, mo, ab, alg, ash, mb, pr, msh, rb,
         co.read().data[0].to_int());
}

static void c_stage() {
  cDataInStruct din; int64_t y = rnd(32), off = rnd(32), sc = rnd(16);
  int sh = rng() % 64, op = rng() % 2;
  for (int i = 0; i < 16; i++) din.data[i] = y;
  ac_channel<cDataInStruct> ci; ac_channel<cDataOutStruct> co; ci.write(din);
  NV_NVDLA_SDP_CORE_c(ci, (cAluOpType)off, (cMulOpType)sc, (cTruncateType)sh, 0, op, 0, co);
  printf("C %ld %ld %ld %d %d %d\n", y, off, sc, sh, op, co.read().data[0].to_int());
}

static void y_stage() {
  int64_t x = rnd(32), aop = rnd(16), mop = rnd(16), areg = rnd(32), mreg = rnd(32);
  int ab = rng() % 2, asrc = rng() % 2, alg = rng() % 4, mb = rng() % 2, msrc = rng() % 2;
  int pr = rng() % 2, tr = rng() % 3 == 0 ? rng() % 1024 : rng() % 40;
  int acb = rng() % 2, mcb = rng() % 2, act = rng() % 64, mct = rng() % 64;
  int64_t aco = rnd(32), mco = rnd(32), acs = rnd(16), mcs = rnd(16);
  yDataInStruct din; eDataInStruct ai, mi;
  for (int i = 0; i < SPEED_Y; i++) { din.data[i] = x; ai.data[i] = aop; mi.data[i] = mop; }
  ac_channel<eDataInStruct> cai, cmi; ac_channel<eDataOutStruct> cao, cmo;
  // sdp_y.cpp: only a used memory operand passes its converter.
  if (msrc && !mb) {
    cmi.write(mi);
    NV_NVDLA_SDP_CORE_Y_cvt(cmi, mcb, (eAluOpType)mco, (eMulOpType)mcs, (eTruncateType)mct, 0, 0, cmo);
  }
  if (asrc && !ab) {
    cai.write(ai);
    NV_NVDLA_SDP_CORE_Y_cvt(cai, acb, (eAluOpType)aco, (eMulOpType)acs, (eTruncateType)act, 0, 0, cao);
  }
  ac_channel<yDataInStruct> ci; ac_channel<yDataOutStruct> co; ci.write(din);
  NV_NVDLA_SDP_CORE_Y_core(ci, cao, cmo, ab, asrc, (eDataOutType)areg, alg, mb, msrc,
                           (eDataOutType)mreg, (yTruncateType)tr, pr, 0, co);
  printf("Y %ld %ld %ld %ld %ld %d %d %d %d %d %d %d %d %d %ld %ld %ld %ld %d %d %d\n", x, aop, mop,
         areg, mreg, ab, asrc, alg, mb, msrc, pr, tr, acb, mcb, aco, mco, acs, mcs, act, mct,
         co.read().data[0].to_int());
}

static void y_lut() {
  int16_t le[65], lo[257];
  for (int i = 0; i < 65; i++) le[i] = (int16_t)rnd(16);
  for (int i = 0; i < 257; i++) lo[i] = (int16_t)rnd(16);
  int fn = rng() % 2, up = rng() % 2, op = rng() % 2, hp = rng() % 2;
  int64_t les = rnd(32), lee = rnd(32), los = rnd(32), loe = rnd(32);
  if (rng() % 2) {
    les = (int64_t)(rng() % 2000) - 1000; los = (int64_t)(rng() % 2000) - 1000;
    lee = les + rng() % 100000; loe = los + rng() % 100000;
  }
  int leoff = rng() % 3 == 0 ? (int)(rng() % 256) - 128 : (int)(rng() % 20) - 4;
  int lesel = rng() % 3 == 0 ? (int)(rng() % 256) - 128 : (int)(rng() % 40) - 4;
  int losel = rng() % 3 == 0 ? (int)(rng() % 256) - 128 : (int)(rng() % 40) - 4;
  int64_t sc[4]; int sh[4];
  for (int i = 0; i < 4; i++) { sc[i] = rnd(16); sh[i] = rng() % 32; }
  int64_t x = rnd(32);
  if (rng() % 2)
    x = std::max<int64_t>(std::min<int64_t>(les + (int64_t)(rng() % 300000) - 1000, 2147483647),
                          -2147483648LL);
  yDataOutStruct din;
  for (int i = 0; i < SPEED_Y; i++) din.data[i] = x;
  ac_channel<yDataOutStruct> ci; ac_channel<yLutOutStruct> co; ci.write(din);
  NV_NVDLA_SDP_CORE_Y_idx(ci, (yLutRegType)les, (yLutRegType)los, (yLutRegIdxType)leoff,
                          (yLutRegIdxType)lesel, (yLutRegIdxType)losel, fn, up, op, hp, 0, co);
  yLutOutStruct idx = co.read();
  // What sdp_hls_wrapper.cpp does between the two HLS blocks.
  yInpInStruct inp;
  for (int i = 0; i < SPEED_Y; i++) {
    int sel = idx.ram_sel[i].to_int(), addr = idx.ram_addr[i].to_int();
    bool over = idx.oflow[i], under = idx.uflow[i];
    inp.x[i] = (yInpDataInType)idx.x[i];
    inp.fraction[i] = idx.fraction[i];
    inp.y0[i] = sel == 0 ? le[addr] : lo[addr];
    inp.y1[i] = (!over && !under) ? (sel == 0 ? le[addr + 1] : lo[addr + 1]) : 0;
    inp.flow[i] = over || under;
    inp.bias[i] = 0;
    if (inp.flow[i] && sel == 0 && fn == 0 && !over && (int8_t)leoff > 0)
      inp.bias[i] = ((uint32_t)0x1) << (int8_t)leoff;
    inp.scale[i] = 0; inp.shift[i] = 0; inp.offset[i] = 0;
    if (inp.flow[i]) {
      int k = (sel == 0 ? 0 : 2) + (over ? 1 : 0);
      inp.scale[i] = (int16_t)sc[k];
      inp.shift[i] = (int8_t)sh[k];
      inp.offset[i] = (int32_t)(sel == 0 ? (over ? lee : les) : (over ? loe : los));
    }
  }
  ac_channel<yInpInStruct> pi; ac_channel<yInpOutStruct> po; pi.write(inp);
  NV_NVDLA_SDP_CORE_Y_inp(pi, 0, po);
  printf("S %d %d %d %d %ld %ld %ld %ld %d %d %d", fn, up, op, hp, les, lee, los, loe, leoff,
         lesel, losel);
  for (int i = 0; i < 4; i++) printf(" %ld %d", sc[i], sh[i]);
  printf(" %ld", x);
  for (int i = 0; i < 65; i++) printf(" %d", le[i]);
  for (int i = 0; i < 257; i++) printf(" %d", lo[i]);
  printf(" %d\n", po.read().data[0].to_int());
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  for (int i = 0; i < n; i++) { x_stage(); c_stage(); y_stage(); y_lut(); }
}
