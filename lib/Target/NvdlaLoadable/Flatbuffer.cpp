//===- Flatbuffer.cpp - Contents as NVIDIA's loadable.fbs -----------------===//
//
// The flatbuffer by the code Debian's flatc generates at build time from
// NVIDIA's umd/core/src/common/loadable.fbs; the values the runtime reads
// (interfaces, sub-interfaces, data formats and types, pixel formats) by
// NVIDIA's names from umd/core/include/nvdla/c. Conventions as NVIDIA's
// compiler writes them (umd/core/src/compiler/Compiler.cpp,
// engine-ast/EngineGraph.cpp createTensorDescListEntry): every memory
// 4096-aligned in system memory, a submit per task, and the chain of
// events that keeps the tasks in order.
//
//===----------------------------------------------------------------------===//

#include "LoadableContents.h"

#include <cstddef>

#include "loadable_generated.h"
#include "nvdla/c/NvDlaLoadable.h"

using namespace mlir::dla::loadable;
namespace fb = nvdla::loadable;

namespace {
/// NVIDIA's compiler aligns every memory to a page.
constexpr uint32_t kAlignment = 4096;

uint32_t subInterface(BlobKind kind) {
  switch (kind) {
  case BlobKind::NetworkDesc:
    return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_ADDR0;
  case BlobKind::DependencyGraph:
    return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_DEPS;
  case BlobKind::OperationList:
    return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_OPS;
  case BlobKind::SurfaceList:
    return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_SURFS;
  case BlobKind::LutList:
    return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_LUTS;
  case BlobKind::EmuNetworkDesc:
    return NVDLA_LOADABLE_SUB_INTERFACE_EMU1_ADDR0;
  case BlobKind::EmuOperationList:
    return NVDLA_LOADABLE_SUB_INTERFACE_EMU1_OPS;
  case BlobKind::EmuBufferList:
    return NVDLA_LOADABLE_SUB_INTERFACE_EMU1_SURFS;
  case BlobKind::Data:
    return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_NONE;
  }
  return NVDLA_LOADABLE_SUB_INTERFACE_DLA1_NONE;
}

uint32_t blobInterface(BlobKind kind) {
  switch (kind) {
  case BlobKind::EmuNetworkDesc:
  case BlobKind::EmuOperationList:
  case BlobKind::EmuBufferList:
    return NVDLA_LOADABLE_INTERFACE_EMU1;
  case BlobKind::Data:
    return NVDLA_LOADABLE_INTERFACE_NONE;
  default:
    return NVDLA_LOADABLE_INTERFACE_DLA1;
  }
}

uint32_t dataType(Element e) {
  switch (e) {
  case Element::Int8:
    return NVDLA_DATA_TYPE_INT8;
  case Element::UInt8:
    return NVDLA_DATA_TYPE_UINT8;
  case Element::Int16:
    return NVDLA_DATA_TYPE_INT16;
  case Element::UInt16:
    return NVDLA_DATA_TYPE_UINT16;
  case Element::Half:
    return NVDLA_DATA_TYPE_HALF;
  }
  return NVDLA_DATA_TYPE_UNKNOWN;
}

fb::MemoryFlags flags(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Content:
    return static_cast<fb::MemoryFlags>(fb::MemoryFlags_ALLOC | fb::MemoryFlags_SET);
  case MemoryKind::Scratch:
    return fb::MemoryFlags_ALLOC;
  case MemoryKind::Input:
    return static_cast<fb::MemoryFlags>(fb::MemoryFlags_ALLOC | fb::MemoryFlags_INPUT);
  case MemoryKind::Output:
    return static_cast<fb::MemoryFlags>(fb::MemoryFlags_ALLOC | fb::MemoryFlags_OUTPUT);
  }
  return fb::MemoryFlags_NONE;
}
} // namespace

bool mlir::dla::loadable::serializeLoadable(const Contents &c, std::vector<uint8_t> &out,
                                            std::string &) {
  flatbuffers::FlatBufferBuilder b(1 << 16);

  std::vector<flatbuffers::Offset<fb::Blob>> blobs;
  for (const Blob &blob : c.blobs) {
    fb::Version v(blob.version[0], blob.version[1], blob.version[2]);
    blobs.push_back(fb::CreateBlobDirect(b, blob.name.c_str(), blob.data.size(),
                                         static_cast<fb::Interface>(blobInterface(blob.kind)),
                                         subInterface(blob.kind), &v, &blob.data));
  }

  std::vector<flatbuffers::Offset<fb::MemoryListEntry>> memories;
  for (size_t i = 0; i < c.memories.size(); ++i) {
    const Memory &m = c.memories[i];
    std::vector<flatbuffers::Offset<flatbuffers::String>> contents;
    std::vector<uint64_t> offsets;
    if (m.kind == MemoryKind::Content) {
      contents.push_back(b.CreateString(m.content));
      offsets.push_back(0);
    }
    bool bound = m.kind == MemoryKind::Input || m.kind == MemoryKind::Output;
    memories.push_back(fb::CreateMemoryListEntryDirect(
        b, static_cast<uint16_t>(i), fb::MemoryDomain_SYSTEM, flags(m.kind), m.size, kAlignment,
        &contents, &offsets, bound ? static_cast<uint16_t>(m.bindId) : 0,
        bound ? static_cast<uint16_t>(m.tensor) : 0));
  }

  std::vector<flatbuffers::Offset<fb::AddressListEntry>> addresses;
  for (size_t i = 0; i < c.addresses.size(); ++i) {
    const Address &a = c.addresses[i];
    addresses.push_back(fb::CreateAddressListEntry(b, static_cast<uint16_t>(i), a.memory,
                                                   a.offset, a.size));
  }

  std::vector<flatbuffers::Offset<fb::TensorDescListEntry>> tensors;
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    const Tensor &t = c.tensors[i];
    // As NVIDIA's createTensorDescListEntry: feature data NCxHWx, pixel
    // format FEATURE_X8 for an 8-byte memory atom; an image NCHW in its
    // pixel format; strides: element, line, surface.
    fb::PixelFormat pixel = static_cast<fb::PixelFormat>(
        t.image ? t.pixelFormat
                : t.atomBytes == 8 ? NVDLA_PIXEL_FORMAT_FEATURE_X8 : NVDLA_PIXEL_FORMAT_FEATURE);
    tensors.push_back(fb::CreateTensorDescListEntryDirect(
        b, t.name.c_str(), static_cast<uint16_t>(i), t.memory, t.size, 0,
        static_cast<fb::DataFormat>(t.image ? NVDLA_DATA_FORMAT_NCHW : NVDLA_DATA_FORMAT_NCxHWx),
        static_cast<fb::DataType>(dataType(t.element)),
        static_cast<fb::DataCategory>(t.image ? NVDLA_DATA_CATEGORY_IMAGE
                                              : NVDLA_DATA_CATEGORY_FEATURE),
        pixel, static_cast<fb::PixelMapping>(NVDLA_PIXEL_MAPPING_PITCH_LINEAR), t.n, t.c, t.h,
        t.w, t.elementBytes, t.lineStride, t.surfaceStride));
  }

  // As Compiler.cpp chains its tasks on target 0: each task (any
  // instance) signals an event when done, value 1, 2, ...; each after the
  // first waits first on an event of the value the one before signals.
  // One submit per task, in order.
  std::vector<flatbuffers::Offset<fb::TaskListEntry>> tasks;
  std::vector<flatbuffers::Offset<fb::EventListEntry>> events;
  std::vector<flatbuffers::Offset<fb::SubmitListEntry>> submits;
  uint16_t event = 0;
  uint32_t value = 0;
  for (size_t ti = 0; ti < c.tasks.size(); ++ti) {
    std::vector<uint16_t> pre, post;
    if (ti) {
      pre.push_back(event);
      events.push_back(
          fb::CreateEventListEntry(b, event++, fb::EventType_EVENTTYPE0, 0, value, fb::EventOp_WAIT));
    }
    post.push_back(event);
    events.push_back(
        fb::CreateEventListEntry(b, event++, fb::EventType_EVENTTYPE0, 0, ++value, fb::EventOp_SIGNAL));
    const Task &t = c.tasks[ti];
    tasks.push_back(fb::CreateTaskListEntryDirect(
        b, static_cast<uint16_t>(ti),
        static_cast<fb::Interface>(t.emulator ? NVDLA_LOADABLE_INTERFACE_EMU1
                                              : NVDLA_LOADABLE_INTERFACE_DLA1),
        -1, &t.addresses, &pre, &post));
    std::vector<uint16_t> submitted{static_cast<uint16_t>(ti)};
    submits.push_back(fb::CreateSubmitListEntryDirect(b, static_cast<uint16_t>(ti), &submitted));
  }
  std::vector<flatbuffers::Offset<fb::RelocListEntry>> relocs;

  fb::Version version(fb::LoadableVersionMajor_VAL, fb::LoadableVersionMinor_VAL,
                      fb::LoadableVersionSubMinor_VAL);
  auto loadable = fb::CreateLoadableDirect(b, &version, &tasks, &memories, &addresses, &events,
                                           &blobs, &tensors, &relocs, &submits);
  fb::FinishLoadableBuffer(b, loadable);
  out.assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  return true;
}
