// cdp_icvt_hls of cmod/hls_wrapper/cdp_icvt_wrapper.cpp without its logging
// (cdp_icvt.h and cdp_ocvt.h cannot share a translation unit).
#include "cdp_icvt.h"

void cdp_icvt_hls(int16_t *in, int32_t alu, int16_t mul, uint8_t truncate, uint8_t precision,
                  int32_t *out) {
  ac_channel<vDataInType> ci; ac_channel<vOutType> co;
  vDataInType d = *in; ci.write(d);
  vAluInType a = alu; vMulInType m = mul; vTruncateType t = truncate; ACINTF(2) p = precision;
  HLS_cdp_icvt(ci, a, m, t, p, co);
  out[0] = co.read().to_int();
}
