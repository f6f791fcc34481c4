// The port layer: what the Linux kernel driver is to NVIDIA's runtime and
// firmware, in process.
//
// 1. The runtime's device calls, replacing umd/port/linux/nvdla.c (the only
//    file of the runtime that talks to the kernel driver; nvdla_inf.h): the
//    DRM GEM ioctls become allocations in the simulated memory, the submit
//    ioctl hands the task to the firmware (Device::submit).
// 2. The firmware's callbacks (kmd/include/nvdla_interface.h), doing what
//    kmd/port/linux/nvdla_core_callbacks.c does on a board: registers at
//    their CSB offset, address-list indices resolved to buffer + offset,
//    the firmware's log lines.
#include "device.h"

#include "dlaerror.h"
#include "dlatypes.h"
#include "nvdla_inf.h"

#include <cerrno>
#include <cstring>

namespace dla_loadable {
static Device *device = nullptr;
Device *currentDevice() { return device; }
void setCurrentDevice(Device *d) { device = d; }
} // namespace dla_loadable

using dla_loadable::MemHandle;
using dla_loadable::PortTask;

// --- umd/port/linux/nvdla.c ----------------------------------------------
// The session and device handles carry nothing: there is one device, the
// model of this process.
static int deviceToken;

extern "C" {

NvDlaError NvDlaInitialize(void **session_handle) {
  if (!session_handle)
    return NvDlaError_BadParameter;
  *session_handle = nullptr;
  return NvDlaSuccess;
}

void NvDlaDestroy(void *) {}

NvDlaError NvDlaOpen(void *, NvU32 instance, void **device_handle) {
  if (instance > 0 || !device_handle)
    return NvDlaError_BadParameter;
  if (!dla_loadable::currentDevice())
    return NvDlaError_ResourceError;
  *device_handle = &deviceToken;
  return NvDlaSuccess;
}

void NvDlaClose(void *) {}

NvDlaError NvDlaAllocMem(void *, void *, void **mem_handle, void **pData, NvU32 size, NvDlaHeap heap) {
  if (!mem_handle || !pData)
    return NvDlaError_BadParameter;
  *mem_handle = nullptr;
  *pData = nullptr;
  // nv_small and nv_large have no CV-SRAM; nv_full has, but the harness
  // serves one flat memory on both ports and gives no SRAM heap (the Linux
  // port, nvdla.c, ignores the heap and allocates DRAM).
  if (heap != NvDlaHeap_System)
    return NvDlaError_NotSupported;
  MemHandle *h = dla_loadable::currentDevice()->allocate(size);
  if (!h)
    return NvDlaError_InsufficientMemory;
  *mem_handle = h;
  *pData = h->host;
  return NvDlaSuccess;
}

NvDlaError NvDlaFreeMem(void *, void *, void *mem_handle, void *, NvU32) {
  if (!mem_handle)
    return NvDlaError_BadParameter;
  dla_loadable::currentDevice()->release(static_cast<MemHandle *>(mem_handle));
  return NvDlaSuccess;
}

NvDlaError NvDlaSubmit(void *, void *, NvDlaTask *tasks, NvU32 num_tasks) {
  for (NvU32 i = 0; i < num_tasks; ++i)
    if (NvDlaError e = NvDlaError(dla_loadable::currentDevice()->submit(tasks[i])); e != NvDlaSuccess)
      return e;
  return NvDlaSuccess;
}

// --- kmd/include/nvdla_interface.h: the firmware's callbacks -------------

uint32_t dla_reg_read(void *, uint32_t addr) { return dla_loadable::currentDevice()->registerRead(addr); }

void dla_reg_write(void *, uint32_t addr, uint32_t reg) {
  dla_loadable::currentDevice()->registerWrite(addr, reg);
}

// The address-list entry `index` of the task, or nullptr. The Linux port
// checks `index > num_addresses`; an index equal to the count would read
// past the list, so this one rejects it too.
static const NvDlaMemDesc *entry(void *task_data, int64_t index) {
  const NvDlaTask *task = static_cast<PortTask *>(task_data)->task;
  if (index < 0 || uint64_t(index) >= task->num_addresses || !task->address_list[index].handle)
    return nullptr;
  return &task->address_list[index];
}

int32_t dla_get_dma_address(void *, void *task_data, int16_t index, void *dst_ptr, uint32_t destination) {
  const NvDlaMemDesc *e = entry(task_data, index);
  if (!e)
    return -EINVAL;
  uint64_t *dst = static_cast<uint64_t *>(dst_ptr);
  if (destination == 0 /* DESTINATION_PROCESSOR */)
    *dst = uint64_t(index); // as the Linux port: the index, for dla_data_read
  else if (destination == 1 /* DESTINATION_DMA */)
    *dst = static_cast<const MemHandle *>(e->handle)->dmaAddress + e->offset;
  else
    return -EINVAL;
  return 0;
}

// As the Linux port: `offset` is from the start of the buffer, the address
// entry's own offset is not added.
static uint8_t *cpuBytes(void *task_data, uint64_t index, uint64_t offset, uint32_t size) {
  const NvDlaMemDesc *e = entry(task_data, int64_t(index));
  if (!e)
    return nullptr;
  const MemHandle *h = static_cast<const MemHandle *>(e->handle);
  if (offset > h->size || size > h->size - offset)
    return nullptr;
  return h->host + offset;
}

int32_t dla_data_read(void *, void *task_data, uint64_t src, void *dst, uint32_t size, uint64_t offset) {
  uint8_t *p = cpuBytes(task_data, src, offset, size);
  if (!p)
    return -EFAULT;
  std::memcpy(dst, p, size);
  return 0;
}

int32_t dla_data_write(void *, void *task_data, void *src, uint64_t dst, uint32_t size, uint64_t offset) {
  uint8_t *p = cpuBytes(task_data, dst, offset, size);
  if (!p)
    return -EFAULT;
  std::memcpy(p, src, size);
  return 0;
}

int64_t dla_get_time_us(void) { return dla_loadable::currentDevice()->simulatedMicroseconds(); }

#define DLA_LOG(NAME, LEVEL)                                                                    \
  void NAME(const char *str, ...) {                                                             \
    va_list args;                                                                               \
    va_start(args, str);                                                                        \
    dla_loadable::currentDevice()->firmwareLog(LEVEL, str, args);                               \
    va_end(args);                                                                               \
  }
DLA_LOG(dla_debug, 0)
DLA_LOG(dla_info, 1)
DLA_LOG(dla_warn, 2)
DLA_LOG(dla_error, 3)
#undef DLA_LOG

void *dla_memset(void *src, int ch, uint64_t len) { return std::memset(src, ch, len); }

void *dla_memcpy(void *dest, const void *src, uint64_t len) { return std::memcpy(dest, src, len); }

} // extern "C"
