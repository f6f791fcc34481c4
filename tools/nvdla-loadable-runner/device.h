// What the port layer (port.cpp) needs of the harness (harness.cpp): the
// simulated device behind umd/port/linux/nvdla.c's calls and the firmware's
// callbacks. Internal to the harness.
#ifndef DLA_LOADABLE_DEVICE_H
#define DLA_LOADABLE_DEVICE_H

#include <cstdarg>
#include <cstdint>

struct NvDlaTaskRec;

namespace dla_loadable {

// A buffer of the device's memory: what NvDlaAllocMem's mem_handle points
// to (the Linux port's GEM object).
struct MemHandle {
  uint64_t dmaAddress; // the address the model's DMA engines use
  uint8_t *host;       // the same bytes, mapped into the process
  uint64_t size;
};

// One submitted task as the firmware sees it (its task_data, the Linux
// port's struct nvdla_task): the runtime's address list.
struct PortTask {
  const NvDlaTaskRec *task;
};

class Device {
public:
  virtual ~Device() = default;
  virtual MemHandle *allocate(uint64_t size) = 0; // zeroed; nullptr when full
  virtual void release(MemHandle *handle) = 0;
  // The Linux port's nvdla_task_submit, for one task: returns an NvDlaError.
  virtual int submit(const NvDlaTaskRec &task) = 0;
  virtual uint32_t registerRead(uint32_t address) = 0;
  virtual void registerWrite(uint32_t address, uint32_t value) = 0;
  virtual int64_t simulatedMicroseconds() = 0;
  // level: 0 debug, 1 info, 2 warning, 3 error
  virtual void firmwareLog(int level, const char *format, va_list args) = 0;
};

// The device the port layer talks to (set by the harness for each run).
Device *currentDevice();
void setCurrentDevice(Device *device);

} // namespace dla_loadable

#endif
