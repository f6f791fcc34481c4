// The simulated device and the run of a loadable (see harness.h).
#include "harness.h"

#include "device.h"
#include "firmware.h"

#include "NV_nvdla.h"
#include "csb.h"                // tools/nvdla-trace-player
#include "v1/cvsram_lanes.h"    // tools/nvdla-trace-player

#include "nvdla/IRuntime.h"
#include "nvdla_inf.h"

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

#ifndef NVDLA_CONFIG
#error "NVDLA_CONFIG (nv_small, nv_large, nv_full) is set by scripts/build-nvdla-runtime.sh"
#endif
// The configuration's register map, generated with its C model (the
// firmware's opendla_small.h has the same addresses), or for nv_full the v1
// model's arnvdla.h (the same addresses as the firmware's
// opendla_initial.h).
#define _MK_ADDR_CONST(x) (x)
#include NVDLA_OPENDLA_H

namespace dla_loadable {

using namespace sc_core;

namespace {

constexpr uint32_t kGlbIntrStatus = NVDLA_GLB_S_INTR_STATUS_0;
// The memory: one flat region at the start of the upper 2 GB of the 32-bit
// space (where NVIDIA's trace tests put their surfaces; BUILDING.md),
// served on both memory ports.
constexpr uint64_t kMemoryBase = 0x80000000ull;
constexpr uint64_t kMemorySize = 1ull << 30;
constexpr uint64_t kAlign = 4096;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

// The kernel driver's configuration data (kmd/port/linux/
// nvdla_core_callbacks.c: nvdla_config_small, nvdla_config_large, and
// nvdla_config_os_initial for nv_full).
FirmwareConfig configFor(const std::string &cfg) {
  if (cfg == "nv_small")
    return {8, false, false, false};
  if (cfg == "nv_large")
    return {32, false, false, false};
  if (cfg == "nv_full")
    return {32, true, true, true};
  throw std::runtime_error("no firmware configuration for " + cfg);
}

// Wakes the firmware's thread from another OS thread (the watchdog).
class AbortChannel : public sc_prim_channel {
public:
  AbortChannel() : sc_prim_channel(sc_gen_unique_name("abort")) {}
  sc_event event;
  void raise() { async_request_update(); }

private:
  void update() override { event.notify(SC_ZERO_TIME); }
};

struct Job {
  const std::vector<uint8_t> *loadable;
  const std::vector<std::vector<uint8_t>> *inputs;
  const RunOptions *options;
  const Firmware *firmware;
  RunResult *result;
  bool done = false;
};

} // namespace

// The SystemC side: NV_nvdla, its memory, its CSB host and the thread the
// runtime and firmware run on.
class Top : public sc_module, public Device {
public:
  tlm_utils::simple_initiator_socket<Top> csb;
  tlm_utils::simple_target_socket<Top> dbb, cvsram;
  sc_signal<bool, SC_UNCHECKED_WRITERS> intr{"intr"};
  AbortChannel wake;
  sc_event jobEvent;
  Job *job = nullptr;
  // Why the firmware's wait is to end, set from outside the simulation
  // (the watchdog's thread, or run() when the kernel ran out of events);
  // the first cause wins.
  enum AbortCause { NotAborted, Timeout, Idle };
  std::atomic<int> abortCause{NotAborted};
  double timeoutSeconds = 0;
  bool requestAbort(AbortCause cause) {
    int expected = NotAborted;
    return abortCause.compare_exchange_strong(expected, cause);
  }
  std::string abortReason; // written by the simulation's thread only
  std::string tainted; // why later runs are refused, when they are

  SC_HAS_PROCESS(Top);
  explicit Top(sc_module_name name)
      : sc_module(name), csb("csb"), dbb("dbb"), cvsram("cvsram"), config(configFor(NVDLA_CONFIG)) {
    void *p = mmap(nullptr, kMemorySize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("cannot reserve the simulated memory");
    memory = static_cast<uint8_t *>(p);
    dbb.register_b_transport(this, &Top::transport);
    cvsram.register_b_transport(this, &Top::cvsramTransport);
    nvdla = new scsim::cmod::NV_nvdla("nvdla", 0);
    csb.bind(nvdla->nvdla_host_master_if);
    nvdla->nvdla_core2dbb_axi4.bind(dbb);
    nvdla->nvdla_core2cvsram_axi4.bind(cvsram);
    nvdla->nvdla_intr(intr);
    SC_THREAD(worker);
    // NVIDIA's runtime keeps an NvDlaTask (6144 address entries, 98 KB) on
    // its stack.
    set_stack_size(64 << 20);
  }
  ~Top() override { munmap(memory, kMemorySize); }

  // --- Device ------------------------------------------------------------
  MemHandle *allocate(uint64_t size) override {
    uint64_t rounded = (size + kAlign - 1) / kAlign * kAlign;
    if (rounded == 0 || rounded > kMemorySize - next)
      return nullptr;
    auto h = std::make_unique<MemHandle>(MemHandle{kMemoryBase + next, memory + next, size});
    next += rounded;
    used = std::max(used, next);
    MemHandle *raw = h.get();
    handles.push_back(std::move(h));
    return raw;
  }

  void release(MemHandle *handle) override {
    // A bump allocator: space comes back when the run ends. Zero the bytes
    // as a fresh GEM object would be.
    std::memset(handle->host, 0, handle->size);
  }

  int submit(const NvDlaTaskRec &task) override;

  uint32_t registerRead(uint32_t address) override {
    uint32_t data = 0;
    csbAccess(tlm::TLM_READ_COMMAND, address, data);
    if (job)
      ++job->result->registerReads;
    return data;
  }
  void registerWrite(uint32_t address, uint32_t value) override {
    csbAccess(tlm::TLM_WRITE_COMMAND, address, value);
    if (job)
      ++job->result->registerWrites;
  }
  int64_t simulatedMicroseconds() override { return int64_t(sc_time_stamp().to_seconds() * 1e6); }
  void firmwareLog(int level, const char *format, va_list args) override {
    // On stderr; debug and info lines only with -v.
    bool verbose = job && job->options->verbose;
    if (level < 2 && !verbose)
      return;
    char buf[1024];
    std::vsnprintf(buf, sizeof buf, format, args);
    if (level >= 3) {
      lastFirmwareError += buf;
      if (lastFirmwareError.size() > 4096)
        lastFirmwareError.erase(0, lastFirmwareError.size() - 4096);
    }
    const char *prefix = level >= 3 ? "firmware: error: " : level == 2 ? "firmware: warning: " : "firmware: ";
    std::fprintf(stderr, "%s%s", prefix, buf);
  }

  // --- runs --------------------------------------------------------------
  void resetForRun() {
    // The memory: every byte zero again, the allocator from the start.
    if (used)
      madvise(memory, used, MADV_DONTNEED);
    next = used = 0;
    handles.clear();
    memoryErrors.clear();
    lastFirmwareError.clear();
    abortCause = NotAborted;
    abortReason.clear();
  }

  void worker();
  void runJob(Job &job);

  std::string memoryErrors;
  std::string lastFirmwareError;

private:
  void csbAccess(tlm::tlm_command kind, uint32_t addr, uint32_t &data) {
    // Only this module's thread uses the bus.
    if (!nvdla_trace::csbTransport(csb, kind, addr, data) && memoryErrors.size() < 4096)
      memoryErrors += "CSB " + std::string(kind == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                      hex(addr) + " failed; ";
  }

  // The v1 model's CV-SRAM interface sends an unaligned write's data from
  // the 64-byte boundary below its address (cvsram_lanes.h); the master
  // model's does not.
  void cvsramTransport(tlm::tlm_generic_payload &gp, sc_time &) {
    access(gp, std::string(NVDLA_CONFIG) == "nv_full" && gp.is_write());
  }
  void transport(tlm::tlm_generic_payload &gp, sc_time &) { access(gp, false); }
  void access(tlm::tlm_generic_payload &gp, bool byLane) {
    uint64_t addr = byLane ? nvdla_trace::v1::cvsramWriteBase(gp.get_address()) : gp.get_address();
    unsigned len = gp.get_data_length();
    if (addr < kMemoryBase || addr - kMemoryBase >= kMemorySize || len > kMemorySize - (addr - kMemoryBase)) {
      if (memoryErrors.size() < 4096)
        memoryErrors += "the model " + std::string(gp.is_read() ? "read" : "wrote") + " " +
                        std::to_string(len) + " bytes at " + hex(addr) + ", outside the memory [" +
                        hex(kMemoryBase) + ", " + hex(kMemoryBase + kMemorySize) + "); ";
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint8_t *p = memory + (addr - kMemoryBase);
    uint8_t *data = gp.get_data_ptr();
    if (gp.is_read()) {
      std::memcpy(data, p, len);
    } else if (gp.is_write()) {
      const uint8_t *be = gp.get_byte_enable_ptr();
      unsigned beLen = gp.get_byte_enable_length();
      if (!be || !beLen) {
        std::memcpy(p, data, len);
      } else { // AXI write strobes: the pattern repeats over the data
        for (unsigned i = 0; i < len; ++i)
          if (be[i % beLen] == TLM_BYTE_ENABLED)
            p[i] = data[i];
      }
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  // Waits until GLB reports an interrupt; false when the run is aborted.
  bool waitForInterrupt();

  scsim::cmod::NV_nvdla *nvdla;
  FirmwareConfig config;
  uint8_t *memory;
  uint64_t next = 0, used = 0;
  std::vector<std::unique_ptr<MemHandle>> handles;
  void *engine = nullptr;
};

bool Top::waitForInterrupt() {
  // As the trace player: the line is only a hint (several model processes
  // drive it, a source's "true" and GLB's "false" after a clear can land in
  // the same delta), so the status register is read on every change of the
  // line and polled while the line is high.
  int highPolls = 0;
  while (true) {
    if (int cause = abortCause; cause != NotAborted) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", timeoutSeconds);
      abortReason = cause == Timeout
                        ? "timeout: the task did not complete within " + std::string(limit) +
                              " s of wall-clock time"
                        : "the model went idle before the task completed (no interrupt came, the firmware "
                          "still waiting)";
      return false;
    }
    uint32_t status = registerRead(kGlbIntrStatus);
    if (status)
      return true;
    if (!intr.read()) {
      highPolls = 0;
      wait(intr.value_changed_event() | wake.event);
    } else if (++highPolls > 100000) {
      abortReason = "the interrupt line stays high with no status bit in GLB.S_INTR_STATUS";
      return false;
    } else {
      wait(sc_time(1, SC_NS), wake.event);
    }
  }
}

int Top::submit(const NvDlaTaskRec &task) {
  // kmd/port/linux/nvdla_core_callbacks.c, nvdla_task_submit.
  const Firmware &fw = *job->firmware;
  PortTask portTask{&task};
  int32_t err = fw.executeTask(engine, &portTask, &config);
  if (err) {
    fw.clearTask(engine);
    abortReason = "the firmware refused the task: dla_execute_task returned " + std::to_string(err);
    return NvDlaError_InvalidState;
  }
  uint32_t complete = 0;
  while (true) {
    if (!waitForInterrupt()) {
      fw.clearTask(engine);
      return NvDlaError_Timeout;
    }
    // The Linux port's ISR, then its thread's event processing.
    fw.isrHandler(engine);
    ++job->result->interrupts;
    err = fw.processEvents(engine, &complete);
    if (err || complete)
      break;
  }
  fw.clearTask(engine);
  if (err) {
    abortReason = "the firmware failed the task: dla_process_events returned " + std::to_string(err);
    return NvDlaError_InvalidState;
  }
  ++job->result->dlaTasks;
  return NvDlaSuccess;
}

void Top::worker() {
  while (true) {
    while (!job || job->done)
      wait(jobEvent);
    // Start once every model thread has run to its first wait (the trace
    // player found a unit enabled in the very first delta never started).
    wait(SC_ZERO_TIME);
    runJob(*job);
    job->done = true;
    sc_pause();
  }
}

static Tensor tensorOf(const nvdla::IRuntime::NvDlaTensor &t) {
  Tensor r;
  r.name = t.name;
  r.bytes = t.bufferSize;
  r.n = t.dims.n;
  r.c = t.dims.c;
  r.h = t.dims.h;
  r.w = t.dims.w;
  r.dataFormat = t.dataFormat;
  r.dataType = t.dataType;
  r.dataCategory = t.dataCategory;
  r.pixelFormat = t.pixelFormat;
  r.pixelMapping = t.pixelMapping;
  r.strides.assign(t.stride, t.stride + NVDLA_RUNTIME_TENSOR_DESC_NUM_STRIDES);
  return r;
}

void Top::runJob(Job &j) {
  // umd/apps/runtime/RuntimeTest.cpp's run() and runTest(), with raw input
  // bytes instead of an image and every bindable tensor bound.
  RunResult &r = *j.result;
  const Firmware &fw = *j.firmware;
  fw.registerDriver(&engine, this);
  fw.clearTask(engine);
  if (uint32_t stale = registerRead(kGlbIntrStatus))
    registerWrite(kGlbIntrStatus, stale); // write 1 to clear

  nvdla::IRuntime *rt = nvdla::createRuntime();
  std::vector<std::pair<void *, uint64_t>> buffers;
  std::vector<void *> outputPtrs;
  bool emu = false;
  auto fail = [&](const std::string &what) {
    if (r.error.empty())
      r.error = what;
  };
  do {
    if (!rt) {
      fail("NVIDIA's runtime: createRuntime() failed");
      break;
    }
    // The runtime keeps pointers into the buffer for as long as it is loaded.
    if (!rt->load(const_cast<NvU8 *>(j.loadable->data()), 0)) {
      fail("NVIDIA's runtime did not load it (runtime->load failed)");
      break;
    }
    if (j.result->emuTasks) {
      emu = true;
      if (!rt->initEMU()) {
        fail("NVIDIA's runtime: initEMU failed");
        break;
      }
    }
    int numInputs = 0, numOutputs = 0;
    rt->getNumInputTensors(&numInputs);
    rt->getNumOutputTensors(&numOutputs);
    if (j.inputs->size() > size_t(numInputs)) {
      fail(std::to_string(j.inputs->size()) + " inputs given, the loadable has " + std::to_string(numInputs));
      break;
    }
    // One buffer per bindable tensor, as RuntimeTest.cpp's setupInputBuffer
    // and setupOutputBuffer; false (and the error said) when it fails.
    auto bind = [&](bool input, int i) {
      const char *kind = input ? "input" : "output";
      nvdla::IRuntime::NvDlaTensor t;
      void *h = nullptr, *p = nullptr;
      if ((input ? rt->getInputTensorDesc(i, &t) : rt->getOutputTensorDesc(i, &t)) != NvDlaSuccess ||
          rt->allocateSystemMemory(&h, t.bufferSize, &p) != NvDlaSuccess) {
        fail("NVIDIA's runtime: cannot describe or allocate " + std::string(kind) + " " + std::to_string(i));
        return false;
      }
      buffers.push_back({h, t.bufferSize});
      if (input) {
        r.inputs.push_back(tensorOf(t));
        if (size_t(i) < j.inputs->size()) {
          const std::vector<uint8_t> &in = (*j.inputs)[i];
          if (in.size() != t.bufferSize) {
            fail("input " + std::to_string(i) + " has " + std::to_string(in.size()) + " bytes, the loadable's " +
                 r.inputs.back().summary() + " takes " + std::to_string(t.bufferSize));
            return false;
          }
          std::memcpy(p, in.data(), in.size());
        }
      } else {
        outputPtrs.push_back(p);
        r.outputs.push_back({tensorOf(t), {}});
      }
      if (!(input ? rt->bindInputTensor(i, h) : rt->bindOutputTensor(i, h))) {
        fail("NVIDIA's runtime: bind" + std::string(input ? "Input" : "Output") + "Tensor(" + std::to_string(i) +
             ") failed");
        return false;
      }
      return true;
    };
    bool bound = true;
    for (int i = 0; i < numInputs && bound; ++i)
      bound = bind(true, i);
    for (int i = 0; i < numOutputs && bound; ++i)
      bound = bind(false, i);
    if (!bound)
      break;
    sc_time start = sc_time_stamp();
    bool submitted = rt->submit();
    r.simulatedSeconds = (sc_time_stamp() - start).to_seconds();
    if (!submitted) {
      fail(abortReason.empty() ? "NVIDIA's runtime: submit failed" : abortReason);
      break;
    }
    for (size_t i = 0; i < outputPtrs.size(); ++i) {
      const uint8_t *p = static_cast<const uint8_t *>(outputPtrs[i]);
      r.outputs[i].bytes.assign(p, p + r.outputs[i].tensor.bytes);
    }
    r.ok = true;
  } while (false);
  if (rt) {
    if (emu)
      rt->stopEMU();
    for (auto &[h, size] : buffers)
      rt->freeSystemMemory(h, size);
    rt->unload();
    nvdla::destroyRuntime(rt);
  }
  if (!memoryErrors.empty()) {
    r.ok = false;
    r.error = (r.error.empty() ? "" : r.error + "; ") + memoryErrors;
    r.error.resize(r.error.size() - 2);
  }
  if (!r.ok && !lastFirmwareError.empty() && r.error.find("firmware") != std::string::npos) {
    std::string last = lastFirmwareError;
    while (!last.empty() && (last.back() == '\n' || last.back() == ' '))
      last.pop_back();
    r.error += " (firmware: " + last.substr(last.find_last_of('\n') + 1) + ")";
  }
}

// --- Runner ----------------------------------------------------------------

struct Runner::Impl {
  Top *top = nullptr;
  bool started = false; // sc_start ran once
};

static bool runnerExists = false;

const char *Runner::configuration() { return NVDLA_CONFIG; }

Runner::Runner() : impl(new Impl) {
  if (runnerExists)
    throw std::runtime_error("one dla_loadable::Runner per process");
  runnerExists = true;
  // No "Simulation stopped/paused" notes: the harness pauses it.
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  // The C model's fatal reports (an invalid configuration, cslAssert) end
  // the run with their message instead of aborting the process.
  sc_report_handler::set_actions(SC_FATAL, SC_THROW);
  impl->top = new Top("harness");
}

Runner::~Runner() = default;

bool Runner::usable() const { return impl->top->tainted.empty(); }

RunResult Runner::run(const std::vector<uint8_t> &loadable, const std::vector<std::vector<uint8_t>> &inputs,
                      const RunOptions &options) {
  RunResult result;
  Top &top = *impl->top;
  auto start = std::chrono::steady_clock::now();
  auto finish = [&]() {
    result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  LoadableInfo info;
  if (!inspectLoadable(loadable, info, result.error))
    return finish();
  const Firmware *fw = nullptr;
  if (options.firmware == "auto") {
    bool before012 = info.blobMajor == 0 && info.blobMinor >= 0 && info.blobMinor < 12;
    fw = findFirmware(before012 ? "c906fc6" : "head");
    result.firmwareChoice = info.blobVersion.empty() ? "auto: no blob version, the newest"
                                                     : "auto: blobs " + info.blobVersion;
  } else {
    fw = findFirmware(options.firmware);
  }
  if (!fw) {
    result.error = "no firmware '" + options.firmware + "' (built: " + firmwareNames() + ", auto)";
    return finish();
  }
  result.firmware = fw->name;
  if (!top.tainted.empty()) {
    result.error = "the model is unusable after an earlier run (" + top.tainted + "): run it in a new process";
    return finish();
  }
  result.emuTasks = info.emuTasks;
  setCurrentDevice(&top);
  top.resetForRun();
  top.timeoutSeconds = options.timeoutSeconds;
  Job job{&loadable, &inputs, &options, fw, &result};
  top.job = &job;

  // The wall-clock watchdog: the model can compute without advancing
  // simulated time, so time is measured outside the simulation. On expiry
  // it wakes the firmware's wait (AbortChannel); a model that never returns
  // to the SystemC kernel cannot be woken, and the process ends.
  std::mutex m;
  std::condition_variable cv;
  bool finished = false;
  std::thread watchdog([&]() {
    std::unique_lock<std::mutex> lock(m);
    auto limit = std::chrono::duration<double>(options.timeoutSeconds);
    if (cv.wait_for(lock, limit, [&] { return finished; }))
      return;
    if (top.requestAbort(Top::Timeout))
      top.wake.raise();
    if (cv.wait_for(lock, std::chrono::seconds(30), [&] { return finished; }))
      return;
    std::fprintf(stderr, "dla-run-loadable: error: timeout: the model did not return to the SystemC kernel "
                         "within %d s + 30 s; exiting\n", int(options.timeoutSeconds));
    std::fflush(stderr);
    _exit(3);
  });

  if (impl->started)
    top.jobEvent.notify(SC_ZERO_TIME);
  impl->started = true;
  std::string modelStopped;
  try {
    sc_start();
  } catch (const std::exception &e) {
    modelStopped = e.what();
  }
  if (!modelStopped.empty()) {
    // SystemC cannot resume after a process threw.
    std::string what = modelStopped;
    while (!what.empty() && what.back() == '\n')
      what.pop_back();
    for (char &c : what)
      if (c == '\n')
        c = ' ';
    result.error = "the C model stopped: " + what;
    result.ok = false;
    top.tainted = "the C model stopped";
  } else if (!job.done) {
    // The kernel ran out of events: the model is idle and no interrupt came.
    top.requestAbort(Top::Idle);
    top.wake.event.notify(SC_ZERO_TIME);
    sc_start();
  }
  {
    std::lock_guard<std::mutex> lock(m);
    finished = true;
  }
  cv.notify_all();
  watchdog.join();
  if (!modelStopped.empty()) {
    // (said above)
  } else if (!job.done) {
    result.ok = false;
    result.error = "the harness lost control of the simulation";
    top.tainted = result.error;
  } else if (!result.ok && top.abortCause == Top::Timeout) {
    top.tainted = "timeout"; // a unit may still be busy (after Idle, none is)
  }
  top.job = nullptr;
  setCurrentDevice(nullptr);
  return finish();
}

std::string Tensor::summary() const {
  // NVDLA_DATA_TYPE_* and NVDLA_PIXEL_FORMAT_* (umd/core/include/nvdla/c/NvDlaType.h)
  static const char *types[] = {"unknown", "float32", "half", "int16", "int8", "uint8", "uint16"};
  std::string format = pixelFormat == 36   ? "feature"
                       : pixelFormat == 37 ? "feature_x8"
                                           : "pixel format " + std::to_string(pixelFormat);
  return (name.empty() ? std::string("tensor") : name) + ": " + std::to_string(n) + "x" + std::to_string(c) +
         "x" + std::to_string(h) + "x" + std::to_string(w) + " (NCHW) " + (dataType < 7 ? types[dataType] : "?") +
         " " + format + ", " + std::to_string(bytes) + " bytes";
}

} // namespace dla_loadable
