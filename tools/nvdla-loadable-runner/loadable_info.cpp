// The loadable checked before NVIDIA's runtime reads it: the runtime's
// reader (umd/core/src/common/Loadable.cpp) trusts the flatbuffer, so a file
// that is not one would be read out of bounds. Checked with flatbuffers'
// verifier and NVIDIA's generated schema code (loadable.fbs).
#include "harness.h"

#include "priv/loadable_generated.h"

#include <tuple>

namespace dla_loadable {

bool inspectLoadable(const std::vector<uint8_t> &bytes, LoadableInfo &info, std::string &why) {
  namespace fb = nvdla::loadable;
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (bytes.size() < 8 || !fb::VerifyLoadableBuffer(verifier)) {
    why = "not an NVDLA loadable: the file does not verify as a flatbuffer of NVIDIA's loadable.fbs";
    return false;
  }
  const fb::Loadable *l = fb::GetLoadable(bytes.data());
  if (!l->version() || !l->task_list() || !l->memory_list() || !l->submit_list()) {
    why = "not an NVDLA loadable: no version, task, memory or submit list";
    return false;
  }
  info = LoadableInfo();
  info.version = std::to_string(l->version()->major()) + "." + std::to_string(l->version()->minor()) + "." +
                 std::to_string(l->version()->sub_minor());
  for (const fb::TaskListEntry *t : *l->task_list()) {
    if (t->interface() == fb::Interface_DLA1)
      ++info.dlaTasks;
    else if (t->interface() == fb::Interface_EMU1)
      ++info.emuTasks;
  }
  if (l->blobs())
    for (const fb::Blob *b : *l->blobs()) {
      const fb::Version *v = b->version();
      if (!v || b->interface() == fb::Interface_EMU1 || (!v->major() && !v->minor() && !v->sub_minor()))
        continue;
      int major = v->major(), minor = v->minor(), sub = v->sub_minor();
      if (std::make_tuple(major, minor, sub) > std::make_tuple(info.blobMajor, info.blobMinor, info.blobSubminor)) {
        info.blobMajor = major;
        info.blobMinor = minor;
        info.blobSubminor = sub;
        info.blobVersion = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(sub);
      }
    }
  info.memories = l->memory_list()->size();
  info.addresses = l->address_list() ? l->address_list()->size() : 0;
  for (const fb::MemoryListEntry *m : *l->memory_list()) {
    if (m->flags() & fb::MemoryFlags_INPUT)
      ++info.inputs;
    if (m->flags() & fb::MemoryFlags_OUTPUT)
      ++info.outputs;
  }
  return true;
}

} // namespace dla_loadable
