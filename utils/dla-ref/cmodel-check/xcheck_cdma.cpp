// The CDMA converter cell (cdma_cvt.cpp), fed as cdma_hls_wrapper.cpp feeds
// it: signed int8 / int16 feature data or unsigned 8-bit pixels.
#include "cdma_cvt.h"
#include "rnd.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  for (int i = 0; i < n; i++) {
    int ty = rng() % 3;
    int64_t px = ty == 0 ? rnd(8) : ty == 1 ? rnd(16) : rnd(8, false);
    int64_t off = rnd(16), sc = rnd(16);
    int tr = rng() % 64, outp = rng() % 2;
    ac_channel<vDataInType> vi; ac_channel<vAluInType> va; ac_channel<vDataOutType> vo;
    vi.write((vDataInType)px); va.write((vAluInType)off);
    NV_NVDLA_CDMA_CVT_cell(vi, va, (vMulInType)sc, ty == 1 ? 1 : 0, outp, (vTruncateType)tr, vo);
    printf("D %d %ld %ld %ld %d %d %d\n", ty, px, off, sc, tr, outp, vo.read().to_int());
  }
}
