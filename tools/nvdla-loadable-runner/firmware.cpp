#include "firmware.h"

// The entry points, renamed by the build (see firmware.h).
#define DLA_FIRMWARE_ENTRY_POINTS(P)                                                            \
  int32_t P##_dla_register_driver(void **engine_context, void *driver_context);               \
  int32_t P##_dla_isr_handler(void *engine_context);                                          \
  int32_t P##_dla_process_events(void *engine_context, uint32_t *task_complete);              \
  void P##_dla_clear_task(void *engine_context);                                              \
  int32_t P##_dla_execute_task(void *engine_context, void *task_data, void *config_data);

extern "C" {
DLA_FIRMWARE_ENTRY_POINTS(head)
DLA_FIRMWARE_ENTRY_POINTS(c906fc6)
}

namespace dla_loadable {

#define DLA_FIRMWARE(P, DESCRIPTION)                                                            \
  Firmware {                                                                                  \
    #P, DESCRIPTION, P##_dla_register_driver, P##_dla_isr_handler, P##_dla_process_events,    \
        P##_dla_clear_task, P##_dla_execute_task                                              \
  }

static const Firmware firmwares[] = {
    DLA_FIRMWARE(head, "nvdla/sw 79538ba (2019-09), firmware 0.12.5: struct dla_data_cube with its "
                       "2019 'offset' field"),
    DLA_FIRMWARE(c906fc6, "nvdla/sw c906fc6 (before 16befcb, 2019-05): struct dla_data_cube without "
                          "'offset', as NVIDIA's 2018 regression loadables"),
};

const Firmware *findFirmware(const std::string &name) {
  for (const Firmware &f : firmwares)
    if (name == f.name)
      return &f;
  return nullptr;
}

std::string firmwareNames() {
  std::string names;
  for (const Firmware &f : firmwares)
    names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

} // namespace dla_loadable
