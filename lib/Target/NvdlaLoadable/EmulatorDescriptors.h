//===- EmulatorDescriptors.h - The blobs of one EMU task ------------------===//
//
// Between the loadable writer and EmulatorDescriptors.cpp, the one
// translation unit that sees NVIDIA's emu_interface.h (the runtime
// emulator's structs): the writer decides each op's buffers (an index into
// the EMU task's own address list, an offset, the cube); the unit writes
// emu_network_desc, union emu_operation_container and union
// emu_operation_buffer_container and says which field does not fit.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLALOADABLE_EMULATORDESCRIPTORS_H
#define DLA_LIB_TARGET_NVDLALOADABLE_EMULATORDESCRIPTORS_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::dla::loadable {

/// An emu_buffer_desc: int8 NVDLA feature data.
struct EmuBuffer {
  /// Index into the EMU task's address list, and the byte offset from it.
  int64_t addressIndex = -1, offset = 0;
  int64_t bytes = 0;
  /// The memory atom: 32 bytes (EMU_FORMAT_INT8) or 8 (EMU_FORMAT_INT8_8).
  int64_t atomBytes = 32;
  int64_t width = 0, height = 0, channels = 0, lineStride = 0, surfaceStride = 0;
};

/// One op of the emulator (NVDLA_EMU_OP_*), at its index in the op lists.
struct EmuOp {
  enum class Kind { Power, Softmax } kind = Kind::Softmax;
  float inputScale = 1, outputScale = 1;
  /// Power only.
  float power = 1, scale = 1, shift = 0;
  EmuBuffer src, dst;
};

/// The blobs of one EMU task.
struct EmuBlobs {
  std::vector<uint8_t> network, operations, buffers;
};

/// The emulator's layout, from NVIDIA's header.
struct EmulatorLayout {
  /// The version the EMU blobs carry (emu_version.h).
  std::array<uint8_t, 3> version;
  /// NVDLA_EMU_MAX_BUFFERS_PER_TASK: the addresses an EMU task may have.
  size_t maxAddresses;
  /// sizeof of NVIDIA's structs.
  size_t networkDescBytes, operationContainerBytes, bufferContainerBytes;
};

const EmulatorLayout &emulatorLayout();

/// Writes the blobs of an EMU task whose op list is at address-list index
/// 1 and buffer list at 2 (addr0 at 0, as the runtime reads it); false with
/// `failedOp` (an index into `ops`) and `error` when a value does not fit.
bool writeEmulatorBlobs(const std::vector<EmuOp> &ops, EmuBlobs &blobs, size_t &failedOp,
                        std::string &error);

} // namespace mlir::dla::loadable

#endif // DLA_LIB_TARGET_NVDLALOADABLE_EMULATORDESCRIPTORS_H
