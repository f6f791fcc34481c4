//===- FirmwareDescriptors.cpp - NetworkDescs as NVIDIA's structs ---------===//
//
// Compiled once per firmware (CMake: DLA_FIRMWARE=head | c906fc6, NVIDIA's
// kmd/firmware/include of that firmware first on the include path, the
// kernel macros from kernel_compat.h): every byte of the DLA task's blobs
// is a field of NVIDIA's own struct, assigned by name, so a firmware whose
// structs differ (c906fc6's dla_data_cube has no `offset`) gets its own
// layout without a line of it transcribed here. Each assignment checks that
// the value fits the field's type.
//
//===----------------------------------------------------------------------===//

#include "FirmwareDescriptors.h"
#include "FieldFit.h"

#include <climits>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

// NVIDIA's headers in a namespace of this firmware: the two units' structs
// have the same names and different layouts.
namespace DLA_FIRMWARE {
#include <dla_interface.h>
#ifdef DLA_FIRMWARE_HAS_VERSION_H
#include <dla_fw_version.h>
#endif
} // namespace DLA_FIRMWARE

#define DLA_CAT2(a, b) a##b
#define DLA_CAT(a, b) DLA_CAT2(a, b)
#define DLA_STR2(a) #a
#define DLA_STR(a) DLA_STR2(a)

using namespace mlir::dla;
using namespace mlir::dla::loadable;
namespace fw = DLA_FIRMWARE;

// The sizes the firmware reads (its own sizeof), checked where NVIDIA's
// header documents them.
static_assert(sizeof(fw::dla_lut_param) % 4 == 0, "dla_lut_param: a multiple of 4 bytes");
static_assert(sizeof(fw::dla_consumer) == 4, "dla_consumer");
static_assert(sizeof(fw::dla_common_op_desc) == 8 + 4 * (DLA_OP_NUM + 1), "dla_common_op_desc");
static_assert(sizeof(fw::dla_network_desc) == 40, "dla_network_desc");
static_assert(DLA_OP_NUM == regplan::kDescOpTypes, "DLA_OP_* and DescOpType");
static_assert(DLA_OP_CONV == static_cast<int>(regplan::DescOpType::Conv) &&
                  DLA_OP_SDP == static_cast<int>(regplan::DescOpType::Sdp) &&
                  DLA_OP_PDP == static_cast<int>(regplan::DescOpType::Pdp) &&
                  DLA_OP_CDP == static_cast<int>(regplan::DescOpType::Cdp) &&
                  DLA_OP_BDMA == static_cast<int>(regplan::DescOpType::Bdma),
              "DLA_OP_* and DescOpType");
static_assert(DLA_EVENT_OP_COMPLETED == static_cast<int>(FwEvent::OpCompleted) &&
                  DLA_EVENT_OP_PROGRAMMED == static_cast<int>(FwEvent::OpProgrammed) &&
                  DLA_EVENT_OP_ENABLED == static_cast<int>(FwEvent::OpEnabled),
              "DLA_EVENT_*");
static_assert(DLA_MEM_MC == static_cast<int>(regplan::DescMemType::Mc) &&
                  DLA_MEM_CV == static_cast<int>(regplan::DescMemType::Cv) &&
                  DLA_MEM_HW == static_cast<int>(regplan::DescMemType::Hw),
              "DLA_MEM_*");

/// NVIDIA's structs are packed: their fields are assigned, never bound to
/// references.
#define SET(dst, value, name)                                                                      \
  do {                                                                                             \
    if (auto v_ = fit<std::remove_cv_t<std::remove_reference_t<decltype(dst)>>>(value, name))     \
      dst = *v_;                                                                                   \
  } while (0)

#define WSET(dst, value, name)                                                                     \
  do {                                                                                             \
    if (auto v_ = w.fit<std::remove_cv_t<std::remove_reference_t<decltype(dst)>>>(value, name))   \
      dst = *v_;                                                                                   \
  } while (0)

namespace {

/// Fills NVIDIA's structs, field by checked field.
struct Writer {
  const FwResolve &resolve;
  FwError &error;
  size_t op = SIZE_MAX;
  std::string where;
  bool ok = true;

  /// `value` as the field type F, or nullopt (and the error) when it does
  /// not fit.
  template <class F, class V> std::optional<F> fit(V value, const char *name) {
    if (std::optional<F> f = fitField<F>(value))
      return f;
    if (ok) {
      error.op = op;
      error.message = fieldMisfit<F>(where + name, value, "firmware's");
    }
    ok = false;
    return std::nullopt;
  }

  // dla_data_cube.offset exists since 16befcb (HEAD), not in c906fc6.
  template <class C> void setCubeOffset(C &c, uint64_t offset) {
    if constexpr (decltype(hasOffset(c, 0))::value)
      SET(c.offset, offset, "offset");
  }
  template <class C>
  static auto hasOffset(C &c, int) -> decltype((void)c.offset, std::true_type());
  template <class C> static std::false_type hasOffset(C &, long);

  fw::dla_data_cube cube(const regplan::DescDataCube &d, const char *name) {
    fw::dla_data_cube c;
    std::memset(&c, 0, sizeof(c));
    std::string saved = where;
    where += std::string(name) + ".";
    SET(c.type, static_cast<uint8_t>(d.type), "type");
    // On the fly (DLA_MEM_HW) or unused: no address (-1), as the firmware
    // reads it (dla_read_input_address).
    FwAddress a = d.surface >= 0 && d.type != regplan::DescMemType::Hw ? resolve(d, false)
                                                                         : FwAddress{};
    c.address = a.index;
    setCubeOffset(c, a.offset);
    SET(c.size, d.size, "size");
    SET(c.width, d.width, "width");
    SET(c.height, d.height, "height");
    SET(c.channel, d.channel, "channel");
    SET(c.line_stride, d.line_stride, "line_stride");
    SET(c.surf_stride, d.surf_stride, "surf_stride");
    SET(c.plane_stride, d.plane_stride, "plane_stride");
    where = saved;
    return c;
  }

  fw::dla_cvt_param cvt(const regplan::DescCvt &d, const char *name) {
    fw::dla_cvt_param c;
    std::memset(&c, 0, sizeof(c));
    std::string saved = where;
    where += std::string(name) + ".";
    SET(c.scale, d.scale, "scale");
    SET(c.truncate, d.truncate, "truncate");
    SET(c.enable, d.enable, "enable");
    SET(c.offset, d.offset, "offset");
    where = saved;
    return c;
  }

  void conv(fw::dla_conv_surface_desc &s, fw::dla_conv_op_desc &o, const regplan::ConvDesc &d) {
    s.weight_data = cube(d.weight_data, "weight_data");
    s.wmb_data = cube(d.wmb_data, "wmb_data");
    s.wgs_data = cube(d.wgs_data, "wgs_data");
    s.src_data = cube(d.src_data, "src_data");
    s.dst_data = cube(d.dst_data, "dst_data");
    SET(s.offset_u, d.offset_u, "offset_u");
    SET(s.in_line_uv_stride, d.in_line_uv_stride, "in_line_uv_stride");
#define F(x) SET(o.x, d.x, #x)
    F(conv_mode); F(data_reuse); F(weight_reuse); F(skip_data_rls); F(skip_weight_rls);
    F(entry_per_slice); F(data_format); F(pixel_mapping); F(fetch_grain); F(batch);
    F(weight_format); F(data_bank); F(weight_bank); F(batch_stride); F(post_extension);
    F(pixel_override); F(release); F(input_width_csc); F(input_height_csc);
    F(input_channel_csc); F(kernel_width_csc); F(kernel_height_csc); F(kernel_channel_csc);
    F(input_width_cmac); F(input_height_cmac); F(bytes_per_kernel); F(mean_ry); F(mean_gu);
    F(mean_bv); F(mean_ax); F(mean_format); F(conv_stride_x); F(conv_stride_y); F(pad_x_left);
    F(pad_x_right); F(pad_y_top); F(pad_y_bottom); F(dilation_x); F(dilation_y);
    F(pra_truncate); F(in_precision); F(out_precision); F(pad_val);
#undef F
    o.in_cvt = cvt(d.in_cvt, "in_cvt");
    o.out_cvt = cvt(d.out_cvt, "out_cvt");
  }

  fw::dla_sdp_op sdpStage(const regplan::DescSdpStage &d, const char *name) {
    fw::dla_sdp_op o;
    std::memset(&o, 0, sizeof(o));
    std::string saved = where;
    where += std::string(name) + ".";
#define F(x) SET(o.x, d.x, #x)
    F(enable); F(alu_type); F(type); F(mode); F(act); F(shift_value); F(truncate);
    F(precision); F(alu_operand); F(mul_operand);
#undef F
    o.cvt.alu_cvt = cvt(d.alu_cvt, "cvt.alu_cvt");
    o.cvt.mul_cvt = cvt(d.mul_cvt, "cvt.mul_cvt");
    where = saved;
    return o;
  }

  void sdp(fw::dla_sdp_surface_desc &s, fw::dla_sdp_op_desc &o, const regplan::SdpDesc &d) {
    s.src_data = cube(d.src_data, "src_data");
    s.x1_data = cube(d.x1_data, "x1_data");
    s.x2_data = cube(d.x2_data, "x2_data");
    s.y_data = cube(d.y_data, "y_data");
    s.dst_data = cube(d.dst_data, "dst_data");
#define F(x) SET(o.x, d.x, #x)
    F(src_precision); F(dst_precision); F(lut_index); F(conv_mode); F(batch_num);
    F(batch_stride);
#undef F
    o.out_cvt = cvt(d.out_cvt, "out_cvt");
    o.x1_op = sdpStage(d.x1_op, "x1_op");
    o.x2_op = sdpStage(d.x2_op, "x2_op");
    o.y_op = sdpStage(d.y_op, "y_op");
  }

  void pdp(fw::dla_pdp_surface_desc &s, fw::dla_pdp_op_desc &o, const regplan::PdpDesc &d) {
    s.src_data = cube(d.src_data, "src_data");
    s.dst_data = cube(d.dst_data, "dst_data");
#define F(x) SET(o.x, d.x, #x)
    F(partial_in_width_first); F(partial_in_width_mid); F(partial_in_width_last);
    F(partial_width_first); F(partial_width_mid); F(partial_width_last); F(split_num);
    F(pool_mode); F(pool_width); F(pool_height); F(stride_x); F(stride_y); F(pad_left);
    F(pad_right); F(pad_top); F(pad_bottom); F(precision);
#undef F
    static_assert(PDP_PAD_VAL_NUM == std::tuple_size_v<decltype(d.padding_value)>,
                  "PDP_PAD_VAL_NUM padding values");
    for (int i = 0; i < PDP_PAD_VAL_NUM; ++i)
      SET(o.padding_value[i], d.padding_value[i], "padding_value");
  }

  void cdp(fw::dla_cdp_surface_desc &s, fw::dla_cdp_op_desc &o, const regplan::CdpDesc &d) {
    s.src_data = cube(d.src_data, "src_data");
    s.dst_data = cube(d.dst_data, "dst_data");
#define F(x) SET(o.x, d.x, #x)
    F(in_precision); F(out_precision); F(lut_index); F(local_size); F(bypass_sqsum);
    F(bypass_out_mul);
#undef F
    o.in_cvt = cvt(d.in_cvt, "in_cvt");
    o.out_cvt = cvt(d.out_cvt, "out_cvt");
  }

  void bdma(fw::dla_bdma_surface_desc &s, fw::dla_bdma_op_desc &o, const regplan::BdmaDesc &d) {
    SET(s.source_type, static_cast<uint8_t>(d.source_type), "source_type");
    SET(s.destination_type, static_cast<uint8_t>(d.destination_type), "destination_type");
    const size_t most = sizeof(s.transfers) / sizeof(s.transfers[0]);
    if (d.transfers.size() > most && ok) {
      error.op = op;
      error.message = where + "num_transfers: " + std::to_string(d.transfers.size()) +
                      " transfers, the firmware's descriptor holds " + std::to_string(most);
      ok = false;
      return;
    }
    SET(s.num_transfers, d.transfers.size(), "num_transfers");
    SET(o.num_transfers, d.transfers.size(), "num_transfers");
    for (size_t i = 0; i < d.transfers.size(); ++i) {
      const regplan::DescBdmaTransfer &t = d.transfers[i];
      fw::dla_bdma_transfer_desc &x = s.transfers[i];
      x.source_address = resolve(t.src, true).index;
      x.destination_address = resolve(t.dst, true).index;
#define F(f) SET(x.f, t.f, #f)
      F(line_size); F(line_repeat); F(source_line); F(destination_line); F(surface_repeat);
      F(source_surface); F(destination_surface);
#undef F
    }
  }

  fw::dla_slope slope(const regplan::DescLut::Slope &d, const char *name) {
    fw::dla_slope s;
    std::memset(&s, 0, sizeof(s));
    std::string saved = where;
    where += std::string(name) + ".";
    SET(s.data_i.scale, d.scale, "scale");
    SET(s.data_i.shifter, d.shifter, "shifter");
    where = saved;
    return s;
  }

  void lut(fw::dla_lut_param &l, const regplan::DescLut &d) {
    static_assert(sizeof(l.linear_exp_table) / sizeof(l.linear_exp_table[0]) ==
                      std::tuple_size_v<decltype(d.linear_exp_table)>,
                  "LE table entries");
    static_assert(sizeof(l.linear_only_table) / sizeof(l.linear_only_table[0]) ==
                      std::tuple_size_v<decltype(d.linear_only_table)>,
                  "LO table entries");
    for (size_t i = 0; i < d.linear_exp_table.size(); ++i)
      SET(l.linear_exp_table[i], d.linear_exp_table[i], "linear_exp_table");
    for (size_t i = 0; i < d.linear_only_table.size(); ++i)
      SET(l.linear_only_table[i], d.linear_only_table[i], "linear_only_table");
    // The LE offset is an exponent offset or (linear method) fraction
    // bits, the LO offset fraction bits: one byte of a union either way.
    if (d.method == LUT_METHOD_EXPONENTIAL)
      SET(l.linear_exp_offset.exp_offset, d.linear_exp_offset, "linear_exp_offset");
    else
      SET(l.linear_exp_offset.frac_bits, d.linear_exp_offset, "linear_exp_offset");
    SET(l.linear_only_offset.frac_bits, d.linear_only_offset, "linear_only_offset");
#define F(x) SET(l.x, d.x, #x)
    F(linear_exp_start); F(linear_exp_end); F(linear_only_start); F(linear_only_end);
    F(hybrid_priority); F(underflow_priority); F(overflow_priority); F(method);
#undef F
    l.linear_exp_underflow_slope = slope(d.linear_exp_underflow_slope, "linear_exp_underflow_slope");
    l.linear_exp_overflow_slope = slope(d.linear_exp_overflow_slope, "linear_exp_overflow_slope");
    l.linear_only_underflow_slope = slope(d.linear_only_underflow_slope, "linear_only_underflow_slope");
    l.linear_only_overflow_slope = slope(d.linear_only_overflow_slope, "linear_only_overflow_slope");
  }
};

template <class T> void append(std::vector<uint8_t> &out, const T &value) {
  const auto *p = reinterpret_cast<const uint8_t *>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

void consumer(fw::dla_consumer &c, const FwConsumer &d) {
  c.index = d.index;
  c.event = static_cast<uint8_t>(d.event);
  c.res = 0;
}

bool writeBlobs(const FwNetwork &network, const std::vector<FwOp> &ops,
                const std::vector<regplan::DescLut> &luts, const FwResolve &resolve, FwBlobs &blobs,
                FwError &error) {
  Writer w{resolve, error, SIZE_MAX, "", true};
  blobs = FwBlobs();

  fw::dla_network_desc nd;
  std::memset(&nd, 0, sizeof(nd));
  w.where = "dla_network_desc.";
  nd.operation_desc_index = network.operationDescIndex;
  nd.surface_desc_index = network.surfaceDescIndex;
  nd.dependency_graph_index = network.dependencyGraphIndex;
  nd.lut_data_index = network.lutDataIndex;
  nd.roi_array_index = -1;
  nd.surface_index = -1;
  nd.stat_list_index = -1;
  for (int t = 0; t < DLA_OP_NUM; ++t)
    nd.op_head[t] = network.opHead[t];
  nd.num_rois = 1;
  WSET(nd.num_operations, ops.size(), "num_operations");
  WSET(nd.num_luts, luts.size(), "num_luts");
  nd.num_addresses = network.numAddresses;
  nd.input_layer = 0;
  nd.dynamic_roi = 0;
  append(blobs.network, nd);

  for (size_t i = 0; i < ops.size() && w.ok; ++i) {
    const FwOp &op = ops[i];
    w.op = i;
    w.where = "";
    fw::dla_common_op_desc c;
    std::memset(&c, 0, sizeof(c));
    WSET(c.index, i, "index");
    c.roi_index = 0;
    c.op_type = static_cast<uint8_t>(op.op->type);
    c.dependency_count = op.dependencyCount;
    for (int t = 0; t < DLA_OP_NUM; ++t)
      consumer(c.consumers[t], op.consumers[t]);
    consumer(c.fused_parent, op.fusedParent);
    append(blobs.dependencies, c);

    fw::dla_operation_container o;
    fw::dla_surface_container s;
    std::memset(&o, 0, sizeof(o));
    std::memset(&s, 0, sizeof(s));
    switch (op.op->type) {
    case regplan::DescOpType::Conv:
      w.where = "dla_conv_surface_desc / dla_conv_op_desc: ";
      w.conv(s.conv_surface, o.conv_op, op.op->conv);
      break;
    case regplan::DescOpType::Sdp:
      w.where = "dla_sdp_surface_desc / dla_sdp_op_desc: ";
      w.sdp(s.sdp_surface, o.sdp_op, op.op->sdp);
      break;
    case regplan::DescOpType::Pdp:
      w.where = "dla_pdp_surface_desc / dla_pdp_op_desc: ";
      w.pdp(s.pdp_surface, o.pdp_op, op.op->pdp);
      break;
    case regplan::DescOpType::Cdp:
      w.where = "dla_cdp_surface_desc / dla_cdp_op_desc: ";
      w.cdp(s.cdp_surface, o.cdp_op, op.op->cdp);
      break;
    case regplan::DescOpType::Bdma:
      w.where = "dla_bdma_surface_desc / dla_bdma_op_desc: ";
      w.bdma(s.bdma_surface, o.bdma_op, op.op->bdma);
      break;
    case regplan::DescOpType::Rubik:
      error.op = i;
      error.message = "an operation of a unit the writer has no descriptors for (Rubik)";
      return false;
    }
    append(blobs.operations, o);
    append(blobs.surfaces, s);
  }

  w.op = SIZE_MAX;
  for (size_t i = 0; i < luts.size() && w.ok; ++i) {
    fw::dla_lut_param l;
    std::memset(&l, 0, sizeof(l));
    w.where = "dla_lut_param " + std::to_string(i) + ": ";
    w.lut(l, luts[i]);
    append(blobs.luts, l);
  }
  return w.ok;
}

} // namespace

namespace mlir::dla::loadable {
const FirmwareLayout &DLA_CAT(firmwareLayout_, DLA_FIRMWARE)() {
  static const FirmwareLayout layout{
      DLA_STR(DLA_FIRMWARE),
#ifdef DLA_FIRMWARE_HAS_VERSION_H
      {FIRMWARE_VERSION_MAJOR, FIRMWARE_VERSION_MINOR, FIRMWARE_VERSION_SUBMINOR},
#else
      // Before d01dfc8 the firmware had no version of its own: the
      // version NVIDIA's 2018 compiler wrote into the DLA blobs of the
      // regression loadables it built (NN_L0_0: 0.11.0), which the
      // harness's --firmware auto runs on this firmware.
      {0, 11, 0},
#endif
      decltype(Writer::hasOffset(std::declval<fw::dla_data_cube &>(), 0))::value,
      sizeof(fw::dla_network_desc),
      sizeof(fw::dla_common_op_desc),
      sizeof(fw::dla_operation_container),
      sizeof(fw::dla_surface_container),
      sizeof(fw::dla_lut_param),
      writeBlobs};
  return layout;
}
} // namespace mlir::dla::loadable
