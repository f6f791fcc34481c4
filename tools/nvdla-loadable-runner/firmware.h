// NVIDIA's NVDLA firmware (kmd/firmware), two versions in one program.
//
// scripts/build-nvdla-runtime.sh compiles each version as user-space C,
// links its objects into one relocatable object (ld -r), keeps only the five
// entry points of kmd/include/nvdla_interface.h global and renames them with
// the version's prefix (objcopy): the two firmwares' internal symbols and
// global state stay apart, and both call back into the one port layer
// (port.cpp). The firmware's sources are not changed.
#ifndef DLA_LOADABLE_FIRMWARE_H
#define DLA_LOADABLE_FIRMWARE_H

#include <cstdint>
#include <string>

namespace dla_loadable {

// struct dla_config of kmd/firmware/include/dla_sched.h (the same in both
// versions), what the Linux port passes as config_data.
struct FirmwareConfig {
  uint32_t atom_size;
  bool bdma_enable;
  bool rubik_enable;
  bool weight_compress_support;
};

struct Firmware {
  const char *name;        // "head" or "c906fc6"
  const char *description; // which commit, which data-cube layout
  int32_t (*registerDriver)(void **engineContext, void *driverContext);
  int32_t (*isrHandler)(void *engineContext);
  int32_t (*processEvents)(void *engineContext, uint32_t *taskComplete);
  void (*clearTask)(void *engineContext);
  int32_t (*executeTask)(void *engineContext, void *taskData, void *configData);
};

// nullptr when no firmware has that name.
const Firmware *findFirmware(const std::string &name);
// "head, c906fc6"
std::string firmwareNames();

} // namespace dla_loadable

#endif
