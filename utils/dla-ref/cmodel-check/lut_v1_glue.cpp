// NVIDIA's v1 C model's SDP Y stage with its LUT at precision FP16, as a C
// function for ctypes (../test_lut_float_ref.py checks ../lut_float_ref.py
// against it). Test glue only: the model's own sdp_hls_wrapper::sdp_y
// (libnvdla_cmod.so of scripts/build-nvdla-cmod-v1.sh) runs with the Y ALU
// and multiplier bypassed, so the data reach NV_NVDLA_SDP_CORE_Y_idx, the
// wrapper's entry / slope selection and NV_NVDLA_SDP_CORE_Y_inp unchanged.
#include <systemc.h>

#include "sdp.h"
#include "sdp_hls_wrapper.h"

#include <cstdint>
#include <cstring>
#include <new>

// libsystemc needs an sc_main; no simulation runs here.
int sc_main(int, char *[]) { return 0; }

extern "C" {

// regs: le_function (0 exponent, 1 linear), le_start, le_end, lo_start,
// lo_end (fp32 bits), le_index_offset, le_index_select, lo_index_select,
// le_uflow_scale, le_oflow_scale, lo_uflow_scale, lo_oflow_scale (fp16
// bits), uflow_priority, oflow_priority, hybrid_priority. n: a multiple of 16.
void v1_sdp_y_lut_fp16(const uint32_t *x, uint32_t *out, int n, const int16_t *le,
                       const int16_t *lo, const int32_t *regs) {
  alignas(sdp_hls_wrapper) static unsigned char storage[sizeof(sdp_hls_wrapper)];
  std::memset(storage, 0, sizeof storage);
  sdp_hls_wrapper *w = new (storage) sdp_hls_wrapper();
  w->sdp_cfg_proc_precision = ENUM_FP16;
  w->sdp_cfg_out_precision = ENUM_FP16;
  w->sdp_cfg_y_alu_bypass = 1;
  w->sdp_cfg_y_mul_bypass = 1;
  w->sdp_cfg_y_lut_bypass = 0;
  w->sdp_cfg_y_lut_le_function = regs[0];
  w->sdp_cfg_y_lut_le_start = regs[1];
  w->sdp_cfg_y_lut_le_end = regs[2];
  w->sdp_cfg_y_lut_lo_start = regs[3];
  w->sdp_cfg_y_lut_lo_end = regs[4];
  w->sdp_cfg_y_lut_le_index_offset = (int8_t)regs[5];
  w->sdp_cfg_y_lut_le_index_select = (int8_t)regs[6];
  w->sdp_cfg_y_lut_lo_index_select = (int8_t)regs[7];
  w->sdp_cfg_y_le_uflow_scale = (int16_t)regs[8];
  w->sdp_cfg_y_le_oflow_scale = (int16_t)regs[9];
  w->sdp_cfg_y_lo_uflow_scale = (int16_t)regs[10];
  w->sdp_cfg_y_lo_oflow_scale = (int16_t)regs[11];
  w->sdp_cfg_y_lut_out_sel_u_miss = regs[12];
  w->sdp_cfg_y_lut_out_sel_o_miss = regs[13];
  w->sdp_cfg_y_lut_out_sel_hybrid = regs[14];
  for (int i = 0; i < LE_TBL_ENTRY; ++i)
    w->write_lut(0, i, (uint16_t)le[i]);
  for (int i = 0; i < LO_TBL_ENTRY; ++i)
    w->write_lut(1, i, (uint16_t)lo[i]);
  int16_t ops[16] = {0};
  for (int b = 0; b + 16 <= n; b += 16) {
    int32_t in[16], o[16];
    for (int i = 0; i < 16; ++i)
      in[i] = (int32_t)x[b + i];
    w->sdp_y(in, ops, ops, o);
    for (int i = 0; i < 16; ++i)
      out[b + i] = (uint32_t)o[i];
  }
}

} // extern "C"
