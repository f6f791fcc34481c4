// cdp_ocvt_hls of cmod/hls_wrapper/cdp_ocvt_wrapper.cpp without its logging.
#include "cdp_ocvt.h"

void cdp_ocvt_hls(int64_t *in, int32_t alu, int16_t mul, uint8_t truncate, uint8_t precision,
                  int16_t *out, uint8_t *flow) {
  ac_channel<vInType> ci; ac_channel<vOutStruct> co;
  vInType d = *in; ci.write(d);
  vAluInType a = alu; vMulInType m = mul; vTruncateType t = truncate; ACINTF(2) p = precision;
  HLS_cdp_ocvt(ci, a, m, t, p, co);
  vOutStruct o = co.read();
  *out = o.data.to_int();
  *flow = o.sat.to_int();
}
