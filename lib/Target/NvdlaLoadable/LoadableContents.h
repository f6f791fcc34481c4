//===- LoadableContents.h - A loadable before it is a flatbuffer ----------===//
//
// What LoadableWriter.cpp decides (blobs, memories, addresses, tensors; one
// DLA task, and an EMU task after it) in the writer's own terms; Flatbuffer.cpp turns it into
// NVIDIA's loadable.fbs with NVIDIA's flags and enumerations, the only
// place that knows them. MissingNvdlaSw.cpp stands in when NVIDIA's tree
// was not there at build time.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLALOADABLE_LOADABLECONTENTS_H
#define DLA_LIB_TARGET_NVDLALOADABLE_LOADABLECONTENTS_H

#include "FirmwareDescriptors.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::dla::loadable {

/// What a blob holds: one of the DLA task's descriptor lists (its
/// sub-interface), one of the EMU task's, or data (weights, operands).
enum class BlobKind {
  NetworkDesc,
  DependencyGraph,
  OperationList,
  SurfaceList,
  LutList,
  EmuNetworkDesc,
  EmuOperationList,
  EmuBufferList,
  Data
};

struct Blob {
  std::string name;
  BlobKind kind = BlobKind::Data;
  std::array<uint8_t, 3> version{};
  std::vector<uint8_t> data;
};

/// How the runtime treats a memory: filled from a blob (ALLOC | SET),
/// allocated (ALLOC), or bound to the user's buffer (INPUT, OUTPUT).
enum class MemoryKind { Content, Scratch, Input, Output };

struct Memory {
  MemoryKind kind = MemoryKind::Scratch;
  uint64_t size = 0;
  /// Content: the blob's name.
  std::string content;
  /// Input, Output: the bind id and the tensor's index in `tensors`.
  int bindId = -1, tensor = -1;
};

struct Address {
  uint16_t memory = 0;
  uint64_t offset = 0, size = 0;
};

/// An element type of an input or output.
enum class Element { Int8, UInt8, Int16, UInt16, Half };

/// An input or output as the runtime describes it to its user: NVDLA
/// feature data (NCxHWx, atoms of `atomBytes`), or an image (pitch linear
/// pixel data of `pixelFormat`, FORMAT_T_* / loadable.fbs PixelFormat).
struct Tensor {
  std::string name;
  uint16_t memory = 0;
  uint64_t size = 0;
  int32_t n = 1, c = 0, h = 0, w = 0;
  Element element = Element::Int8;
  uint32_t elementBytes = 1, atomBytes = 0, lineStride = 0, surfaceStride = 0;
  bool image = false;
  uint8_t pixelFormat = 0;
};

/// A task: its interface (DLA1 or EMU1) and its address list (indices
/// into Contents::addresses, which its descriptors index in turn).
struct Task {
  bool emulator = false;
  std::vector<uint16_t> addresses;
};

struct Contents {
  std::vector<Blob> blobs;
  std::vector<Memory> memories;
  std::vector<Address> addresses;
  std::vector<Tensor> tensors;
  /// In the order they run: the DLA task, then the EMU task if any.
  std::vector<Task> tasks;
};

/// NVIDIA's loadable (loadable.fbs, by flatc's code) of `contents`: its
/// tasks, one submit each in order, chained by events as NVIDIA's compiler
/// chains them. False with `why` when the writer was built without
/// NVIDIA's tree.
bool serializeLoadable(const Contents &contents, std::vector<uint8_t> &out, std::string &why);

/// The descriptor layout of a firmware ("head", "c906fc6"); null with `why`
/// when the writer was built without NVIDIA's tree.
const FirmwareLayout *getFirmwareLayout(bool head, std::string &why);

/// What the build lacked, as the error says it (MissingNvdlaSw.cpp).
std::string missingNvdlaSwMessage(const std::string &missing);

} // namespace mlir::dla::loadable

#endif // DLA_LIB_TARGET_NVDLALOADABLE_LOADABLECONTENTS_H
