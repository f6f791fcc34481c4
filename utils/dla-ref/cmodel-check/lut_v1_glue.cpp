// NVIDIA's v1 C model's SDP Y stage at precision FP16, as C functions for
// ctypes (../test_lut_float_ref.py checks ../lut_float_ref.py against the
// first, ../test_fp_nvdla.py's test_sdp_y_fp16 fp_nvdla.sdp_y_fp16 against
// the second). Test glue only: the model's own sdp_hls_wrapper::sdp_y
// (libnvdla_cmod.so of scripts/build-nvdla-cmod-v1.sh) runs: the multiplier
// and ALU (NV_NVDLA_SDP_CORE_Y_core, memory operands through
// NV_NVDLA_SDP_CORE_Y_cvt), then NV_NVDLA_SDP_CORE_Y_idx, the wrapper's
// entry / slope selection and NV_NVDLA_SDP_CORE_Y_inp.
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
// ew: alu_bypass, alu_algo, alu_src (0 register, 1 memory), alu_op (the
// register's 32 bits), mul_bypass, mul_src, mul_op, mul_prelu, nan_to_zero,
// lut_bypass; aluOp / mulOp: the memory operands, n fp16 values each.
void v1_sdp_y_fp16(const uint32_t *x, const int16_t *aluOp, const int16_t *mulOp, uint32_t *out,
                   int n, const int32_t *ew, const int16_t *le, const int16_t *lo,
                   const int32_t *regs);

void v1_sdp_y_lut_fp16(const uint32_t *x, uint32_t *out, int n, const int16_t *le,
                       const int16_t *lo, const int32_t *regs) {
  const int32_t ew[10] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0};
  v1_sdp_y_fp16(x, nullptr, nullptr, out, n, ew, le, lo, regs);
}

void v1_sdp_y_fp16(const uint32_t *x, const int16_t *aluOp, const int16_t *mulOp, uint32_t *out,
                   int n, const int32_t *ew, const int16_t *le, const int16_t *lo,
                   const int32_t *regs) {
  alignas(sdp_hls_wrapper) static unsigned char storage[sizeof(sdp_hls_wrapper)];
  std::memset(storage, 0, sizeof storage);
  sdp_hls_wrapper *w = new (storage) sdp_hls_wrapper();
  w->sdp_cfg_proc_precision = ENUM_FP16;
  w->sdp_cfg_out_precision = ENUM_FP16;
  w->sdp_cfg_y_alu_bypass = ew[0];
  w->sdp_cfg_y_alu_algo = ew[1];
  w->sdp_cfg_y_alu_src = ew[2];
  w->sdp_cfg_y_alu_op = ew[3];
  w->sdp_cfg_y_mul_bypass = ew[4];
  w->sdp_cfg_y_mul_src = ew[5];
  w->sdp_cfg_y_mul_op = ew[6];
  w->sdp_cfg_y_mul_prelu = ew[7];
  w->sdp_cfg_nan_to_zero = ew[8];
  w->sdp_cfg_y_lut_bypass = ew[9];
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
  for (int b = 0; b + 16 <= n; b += 16) {
    int32_t in[16], o[16];
    int16_t a[16] = {0}, m[16] = {0};
    for (int i = 0; i < 16; ++i) {
      in[i] = (int32_t)x[b + i];
      if (aluOp)
        a[i] = aluOp[b + i];
      if (mulOp)
        m[i] = mulOp[b + i];
    }
    w->sdp_y(in, a, m, o);
    for (int i = 0; i < 16; ++i)
      out[b + i] = (uint32_t)o[i];
  }
}

} // extern "C"
