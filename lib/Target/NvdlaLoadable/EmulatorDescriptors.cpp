//===- EmulatorDescriptors.cpp - EMU ops as NVIDIA's emulator structs -----===//
//
// Every byte of an EMU task's blobs is a field of NVIDIA's own struct
// (umd/core/src/common/include/priv/emu/emu1/A/emu_interface.h), assigned
// by name and checked to fit, as FirmwareDescriptors.cpp does for the
// firmware's; the buffer formats are EMUInterface.h's EMU_FORMAT_*, the
// blobs' version emu_version.h's. Written as NVIDIA's compiler does
// (compiler/engine-ast/SoftMaxOp.cpp emitOp, Compiler.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmulatorDescriptors.h"
#include "FieldFit.h"

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "dlatypes.h"
#include "priv/EMUInterface.h"
#include "priv/emu/emu1/A/emu_interface.h"
#include "priv/emu/emu1/A/emu_version.h"

using namespace mlir::dla::loadable;

// What the runtime's Emulator.cpp reads: the structs' own sizes.
static_assert(sizeof(emu_common_op_desc) == 12, "emu_common_op_desc: u8, then two floats");
static_assert(NVDLA_EMU_OP_POWER == 0 && NVDLA_EMU_OP_SOFTMAX == 1,
              "Emulator::processTask's op types");

namespace {

struct Writer {
  size_t op = 0;
  std::string where;
  std::string &error;
  bool ok = true;

  template <class F, class V> std::optional<F> fit(V value, const char *name) {
    if (std::optional<F> f = fitField<F>(value))
      return f;
    if (ok)
      error = fieldMisfit<F>(where + name, value, "emulator's");
    ok = false;
    return std::nullopt;
  }

  emu_buffer_desc buffer(const EmuBuffer &b, const char *name) {
    emu_buffer_desc d;
    std::memset(&d, 0, sizeof(d));
    std::string saved = where;
    where += std::string(name) + ".";
#define SET(dst, value, field)                                                                     \
  do {                                                                                             \
    if (auto v_ = fit<std::remove_cv_t<std::remove_reference_t<decltype(dst)>>>(value, field))     \
      dst = *v_;                                                                                   \
  } while (0)
    SET(d.addressIndex, b.addressIndex, "addressIndex");
    SET(d.addressIndexOffset, b.offset, "addressIndexOffset");
    SET(d.size, b.bytes, "size");
    // As the compiler's getDataFormat: int8 feature data in 32-byte atoms,
    // or in 8-byte ones (a memory atom of 8 bytes).
    d.format = b.atomBytes == 8 ? EMU_FORMAT_INT8_8 : EMU_FORMAT_INT8;
    SET(d.width, b.width, "width");
    SET(d.height, b.height, "height");
    SET(d.channel, b.channels, "channel");
    SET(d.line_stride, b.lineStride, "line_stride");
    SET(d.surf_stride, b.surfaceStride, "surf_stride");
#undef SET
    where = saved;
    return d;
  }
};

template <class T> void append(std::vector<uint8_t> &out, const T &value) {
  const auto *p = reinterpret_cast<const uint8_t *>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

} // namespace

const EmulatorLayout &mlir::dla::loadable::emulatorLayout() {
  static const EmulatorLayout layout{
      {EMULATOR_VERSION_MAJOR, EMULATOR_VERSION_MINOR, EMULATOR_VERSION_SUBMINOR},
      NVDLA_EMU_MAX_BUFFERS_PER_TASK,
      sizeof(emu_network_desc),
      sizeof(emu_operation_container),
      sizeof(emu_operation_buffer_container)};
  return layout;
}

bool mlir::dla::loadable::writeEmulatorBlobs(const std::vector<EmuOp> &ops, EmuBlobs &blobs,
                                             size_t &failedOp, std::string &error) {
  blobs = EmuBlobs();
  Writer w{0, "", error, true};

  // Emulator::processTask: addr0 is the network, its indices name the
  // op list and the buffer list in the task's address list.
  emu_network_desc nd;
  std::memset(&nd, 0, sizeof(nd));
  nd.operation_desc_index = 1;
  nd.operation_buffer_desc_index = 2;
  w.where = "emu_network_desc.";
  if (auto n = w.fit<uint16_t>(ops.size(), "num_operations"))
    nd.num_operations = *n;
  append(blobs.network, nd);

  for (size_t i = 0; i < ops.size() && w.ok; ++i) {
    const EmuOp &op = ops[i];
    w.op = i;
    emu_operation_container o;
    emu_operation_buffer_container b;
    std::memset(&o, 0, sizeof(o));
    std::memset(&b, 0, sizeof(b));
    if (op.kind == EmuOp::Kind::Softmax) {
      // SoftMaxOp.cpp: the softmax over channels (axis 1).
      o.softmax_op.common.op_type = NVDLA_EMU_OP_SOFTMAX;
      o.softmax_op.common.input_scale_factor = op.inputScale;
      o.softmax_op.common.output_scale_factor = op.outputScale;
      o.softmax_op.axis = 1;
      w.where = "emu_softmax_buffer_descs.";
      b.softmax_buffers.src_data = w.buffer(op.src, "src_data");
      b.softmax_buffers.dst_data = w.buffer(op.dst, "dst_data");
    } else {
      o.power_op.common.op_type = NVDLA_EMU_OP_POWER;
      o.power_op.common.input_scale_factor = op.inputScale;
      o.power_op.common.output_scale_factor = op.outputScale;
      o.power_op.power = op.power;
      o.power_op.scale = op.scale;
      o.power_op.shift = op.shift;
      w.where = "emu_power_buffer_descs.";
      b.power_buffers.src_data = w.buffer(op.src, "src_data");
      b.power_buffers.dst_data = w.buffer(op.dst, "dst_data");
    }
    append(blobs.operations, o);
    append(blobs.buffers, b);
  }
  failedOp = w.op;
  return w.ok;
}
