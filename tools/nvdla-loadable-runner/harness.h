// The project's harness around NVIDIA's NVDLA software: NVIDIA's unmodified
// user-mode runtime (umd/core/src/runtime, the loadable reader and the
// emulator of umd/core/src/common) and firmware (kmd/firmware, both
// versions, see firmware.h) run against NVIDIA's C model (libnvdla_cmod.so
// of one configuration) in one host process. The port layer (port.cpp)
// stands in for the Linux kernel driver: umd/port/linux/nvdla.c's ioctls
// become an in-process submit, and the firmware's callbacks
// (kmd/include/nvdla_interface.h) reach the model's CSB interface, its
// memory and its interrupt line. docs/NvdlaLoadables.md tells the story.
//
// Usage (the program defines sc_main, as every SystemC program does):
//
//   dla_loadable::Runner runner;              // elaborates the model, once
//   dla_loadable::RunResult r = runner.run(loadableBytes, {inputBytes}, {});
//   if (!r.ok) ... r.error ...
//   r.outputs[0].bytes                        // the output tensor's buffer
//   dla_loadable::writeDimg(r.outputs[0], "output.dimg", err);
//
// nv_full (the v1 model): its BDMA needs SC_SIGNAL_WRITE_CHECK=CONFLICT in
// the environment before the program starts (SystemC reads it before
// sc_main; dla-run-loadable sets it and runs itself again).
//
// Several loadables run one after another in one process; between runs the
// harness resets what a run leaves behind (see Runner::run). The model
// writes scratch files into the current directory.
#ifndef DLA_LOADABLE_HARNESS_H
#define DLA_LOADABLE_HARNESS_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dla_loadable {

// A bindable tensor as the runtime describes it (IRuntime::NvDlaTensor).
struct Tensor {
  std::string name;
  uint64_t bytes = 0; // bufferSize
  uint32_t n = 0, c = 0, h = 0, w = 0;
  uint8_t dataFormat = 0, dataType = 0, dataCategory = 0, pixelFormat = 0, pixelMapping = 0;
  std::vector<uint32_t> strides; // line stride is [1], surface stride [2]
  std::string summary() const;   // "name: 8x8x32 int8 feature, 2048 bytes"
};

struct OutputTensor {
  Tensor tensor;
  std::vector<uint8_t> bytes; // the whole bound buffer after the run
};

struct RunOptions {
  // A findFirmware() name, or "auto": the firmware the loadable's blobs were
  // written for (LoadableInfo::blobVersion: before 0.12, c906fc6; 0.12 and
  // later or no version, head).
  std::string firmware = "auto";
  double timeoutSeconds = 600;    // wall clock, from the start of the run
  bool verbose = false;           // the firmware's dla_debug / dla_info lines
};

struct RunResult {
  bool ok = false;
  std::string error;    // when !ok: what failed, where
  std::string firmware; // the firmware that ran it (empty when none did)
  std::string firmwareChoice; // with "auto": why that one
  std::vector<Tensor> inputs;
  std::vector<OutputTensor> outputs;
  unsigned dlaTasks = 0, emuTasks = 0; // tasks of the loadable
  uint64_t interrupts = 0;             // interrupts the firmware handled
  uint64_t registerWrites = 0, registerReads = 0;
  double wallSeconds = 0;
  double simulatedSeconds = 0;
};

// The loadable's header, checked against loadable.fbs with flatbuffers'
// verifier before NVIDIA's runtime (which does not check) reads it.
struct LoadableInfo {
  unsigned dlaTasks = 0, emuTasks = 0, memories = 0, addresses = 0, inputs = 0, outputs = 0;
  std::string version; // the loadable's version, e.g. "0.7.0"
  // The highest version of its DLA blobs (descriptors and data; EMU blobs
  // and blobs without a version are not counted): the firmware version the
  // writer targeted. NVIDIA's 2018 regression loadables carry 0.10.0 and
  // 0.11.0; its 2019 compiler writes 0.12.5, the first version with the
  // 'offset' field of struct dla_data_cube (nvdla/sw 16befcb, d01dfc8).
  std::string blobVersion;
  int blobMajor = -1, blobMinor = -1, blobSubminor = -1;
};
bool inspectLoadable(const std::vector<uint8_t> &bytes, LoadableInfo &info, std::string &why);

class Runner {
public:
  // The configuration of the C model this library was linked with.
  static const char *configuration();
  // Elaborates NVIDIA's C model (before the simulation starts). One per
  // process: SystemC cannot elaborate a second model once it has run.
  Runner();
  ~Runner();
  Runner(const Runner &) = delete;
  Runner &operator=(const Runner &) = delete;

  // Runs one loadable as nvdla_runtime does (load, bind one buffer per
  // input and output, submit, read back), NVIDIA's firmware programming the
  // model. inputs[i] fills input i (its exact size); inputs not given are
  // zero, as nvdla_runtime's without --image. Before each run the harness
  // resets what a run leaves: the memory (all zero, a fresh allocator), the
  // firmware's state (dla_clear_task, dla_register_driver), pending
  // interrupt status bits, and a new runtime instance. After a run that
  // timed out the model may still be busy, and after the C model stopped
  // SystemC cannot resume: later runs are refused (usable() is false). A run
  // whose model went idle before the task completed fails alone.
  RunResult run(const std::vector<uint8_t> &loadable, const std::vector<std::vector<uint8_t>> &inputs,
                const RunOptions &options);

  bool usable() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

// NVIDIA's output.dimg of an output tensor, written by NVIDIA's own code
// (umd/apps/runtime: Tensor2DIMG, DlaBuffer2DIMG, DIMG2DIMGFile with a
// stable hash), byte for byte what nvdla_runtime writes.
bool writeDimg(const OutputTensor &output, const std::string &path, std::string &error);

} // namespace dla_loadable

#endif
