//===- NvdlaTrace.cpp - A compiled function as an NVDLA trace test --------===//
//
// The function's layer ops in program order, each one hardware layer run to
// its interrupt before the next starts; its surfaces placed by the address
// plan in DBB (pri_mem) from kDramBase, those the plan puts in the CV-SRAM
// (sec_mem) from kCvsramBase; memory files for the arguments; one
// check_crc per result with the CRC-32 (zlib's, as the trace player and
// NVIDIA's testbench compute it) of the expected bytes.
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaTrace.h"

#include "dla/Target/NvdlaModule.h"
#include "dla/Target/NvdlaProgram.h"

#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaRegisterMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
namespace nv = dlaformat::nvdla;

/// Where NVIDIA's traces put DBB data (the testbench's pri_mem window) and
/// CV-SRAM data (v1's sanity1_cvsram, sanity3_cvsram: 0x50000000).
static constexpr uint64_t kDramBase = 0x80000000ull, kCvsramBase = 0x50000000ull;

namespace {
std::string hex(uint64_t v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "0x" << llvm::format_hex_no_prefix(v, 1);
  return s;
}

/// NVIDIA's memory file: `{offset:0x.., size:N, payload:0x.. ..} ,` lines.
LogicalResult writeMemoryFile(StringRef path, ArrayRef<uint8_t> bytes, Location loc) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc) << "cannot write " << path << ": " << ec.message();
  os << "{\n";
  for (size_t at = 0; at < bytes.size(); at += 32) {
    size_t n = std::min<size_t>(32, bytes.size() - at);
    os << "{offset:" << hex(at) << ", size:" << n << ", payload:";
    for (size_t i = 0; i < n; ++i)
      os << (i ? " " : "") << "0x" << llvm::format_hex_no_prefix(bytes[at + i], 2);
    os << "} ,\n";
  }
  os << "}\n";
  return success();
}

/// The byte ranges of a result the checks cover: every surface but a last
/// partial one whole, and of a last partial surface each atom's channels
/// below C. The hardware processes whole atoms, so it writes the layer's
/// value of the zero padding into the channels beyond C (the C model does),
/// where the format and the CPU execution keep zeros; no layer reads them.
/// A result with gaps between its lines, surfaces or batch inputs (strides
/// beyond the data: a copy's or a view's result) is checked line by line:
/// no unit writes the gaps, and its memory may be another surface's
/// before (the address plan reuses it, not zeroed), where the CPU
/// execution's storage holds zeros.
std::vector<std::pair<int64_t, int64_t>> checkedLines(const nv::AtomCube &cube,
                                                      ArrayRef<int64_t> shape) {
  int64_t perAtom = cube.getSpec().elementsPerAtom, partial = shape[1] % perAtom;
  int64_t surfaces = cube.getNumSurfaces(), atom = cube.getBytesPerAtom();
  int64_t elementBytes = atom / perAtom;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  auto add = [&](int64_t offset, int64_t bytes) {
    if (!ranges.empty() && ranges.back().first + ranges.back().second == offset)
      ranges.back().second += bytes;
    else
      ranges.push_back({offset, bytes});
  };
  for (int64_t n = 0; n < shape[0]; ++n)
    for (int64_t s = 0; s < surfaces; ++s)
      for (int64_t h = 0; h < shape[2]; ++h) {
        if (s + 1 < surfaces || partial == 0) {
          add(cube.getByteOffset(n, s * perAtom, h, 0), shape[3] * atom);
          continue;
        }
        for (int64_t w = 0; w < shape[3]; ++w)
          add(cube.getByteOffset(n, s * perAtom, h, w), partial * elementBytes);
      }
  return ranges;
}

std::vector<std::pair<int64_t, int64_t>> checkedRanges(const nv::FeatureBoundLayout &layout,
                                                       ArrayRef<int64_t> shape) {
  const nv::AtomCube &cube = layout.getCube();
  int64_t perAtom = cube.getSpec().elementsPerAtom, partial = shape[1] % perAtom;
  int64_t surfaces = cube.getNumSurfaces();
  const bool gaps = cube.getLineStride() > shape[3] * cube.getBytesPerAtom() ||
                    cube.getSurfaceStride() > shape[2] * cube.getLineStride() ||
                    (shape[0] > 1 && cube.getBatchStride() > surfaces * cube.getSurfaceStride());
  if (gaps)
    return checkedLines(cube, shape);
  if (partial == 0)
    return {{0, layout.getStorageBytes()}};
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int64_t last = (surfaces - 1) * cube.getSurfaceStride();
  int64_t elementBytes = cube.getBytesPerAtom() / perAtom;
  // Each input of a batch at its batch stride.
  for (int64_t n = 0; n < shape[0]; ++n) {
    if (last > 0)
      ranges.push_back({n * cube.getBatchStride(), last});
    for (int64_t h = 0; h < shape[2]; ++h)
      for (int64_t w = 0; w < shape[3]; ++w)
        ranges.push_back({cube.getByteOffset(n, (surfaces - 1) * perAtom, h, w),
                          partial * elementBytes});
  }
  return ranges;
}

/// The event of layer `i`'s interrupt from `unit`: layer_3_sdp.
std::string eventName(size_t i, StringRef unit) {
  return "layer_" + std::to_string(i) + "_" + unit.lower();
}

/// The trace's name of the memory `v` lies in: the testbench's pri_mem
/// (DBB) or sec_mem (CV-SRAM).
StringRef memoryName(const NetworkPlan &plan, Value v) {
  return plan.memoryOf(v) == DescMemType::Cv ? "sec_mem" : "pri_mem";
}

FailureOr<std::unique_ptr<llvm::MemoryBuffer>> readData(StringRef dir, StringRef file,
                                                         int64_t bytes, Location loc) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf)
    return emitError(loc) << "cannot read " << path << ": " << buf.getError().message();
  if (static_cast<int64_t>((*buf)->getBufferSize()) != bytes)
    return emitError(loc) << path << " holds " << (*buf)->getBufferSize()
                          << " bytes, the surface's storage is " << bytes;
  return std::move(*buf);
}

/// The bytes of `v`'s data file: its feature layout's storage (a surface
/// the SDP reads or writes in int16 pairs is placed with one surface more,
/// NetworkPlan's pairedSurface), else its placement's.
int64_t dataBytes(const NetworkPlan &plan, Value v) {
  if (const auto &feature = plan.surface(v).feature)
    return feature->getStorageBytes();
  return plan.placed(v).bytes;
}

/// The header comment, the address plan, and the memory commands: each
/// argument loaded from its data file, results zeroed.
LogicalResult writeMemory(const NetworkPlan &plan, const NvdlaTraceOptions &options,
                          raw_ostream &cfg, raw_ostream &report) {
  func::FuncOp func = plan.func;
  cfg << "// dla-mlir register program: @" << func.getSymName() << ", " << plan.layers.size()
      << " layers\n// address plan (pri_mem): " << plan.extent << " bytes from "
      << hex(plan.base) << "\n";
  if (plan.cvsramExtent)
    cfg << "// address plan (sec_mem, CV-SRAM): " << plan.cvsramExtent << " bytes from "
        << hex(plan.cvsramBase) << "\n";
  report << "address plan of @" << func.getSymName() << ": " << plan.surfaces.size()
         << " surfaces, " << plan.extent << " bytes";
  if (plan.cvsramExtent)
    report << " (and " << plan.cvsramExtent << " in the CV-SRAM)";
  report << "\n";
  for (const Surface &s : plan.surfaces) {
    const PlannedSurface &p = plan.placement[s.placed];
    std::string line;
    llvm::raw_string_ostream os(line);
    os << s.name << ": " << hex(plan.addressOf(s.value)) << ", " << p.bytes << " bytes, aligned "
       << p.alignment << ", " << s.value.getType();
    if (s.memory == DescMemType::Cv)
      os << ", in the CV-SRAM";
    if (s.viewOffset) // a channel view: its parent's placement
      os << ", a view " << s.viewOffset << " bytes into " << hex(plan.baseOf(s.memory) + p.offset);
    cfg << "//   " << line << "\n";
    report << "  " << line << "\n";
  }
  for (BlockArgument a : func.getArguments()) {
    const Surface &s = plan.surface(a);
    auto data = readData(options.dataDirectory, s.name + ".bin", dataBytes(plan, a),
                         func.getLoc());
    if (failed(data))
      return failure();
    SmallString<256> path(options.directory);
    llvm::sys::path::append(path, s.name + ".dat");
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>((*data)->getBufferStart()),
                            (*data)->getBufferSize());
    if (failed(writeMemoryFile(path, bytes, func.getLoc())))
      return failure();
    cfg << "mem_load(" << memoryName(plan, a) << ", " << hex(plan.addressOf(a)) << ", \""
        << s.name << ".dat\");\n";
  }
  // Bytes the program holds itself (compressed weights).
  for (const Surface &s : plan.surfaces) {
    if (s.contents.empty())
      continue;
    SmallString<256> path(options.directory);
    llvm::sys::path::append(path, s.name + ".dat");
    if (failed(writeMemoryFile(path, s.contents, s.value.getLoc())))
      return failure();
    cfg << "mem_load(pri_mem, " << hex(plan.addressOf(s.value)) << ", \"" << s.name
        << ".dat\");\n";
  }
  // Result surfaces start zeroed, as the CPU execution's buffers, unless
  // they reuse memory of another surface (memory commands all apply
  // before the first layer: a zeroed input would be lost).
  for (Value r : func.getBody().front().getTerminator()->getOperands()) {
    const PlannedSurface &p = plan.placed(r);
    // Offsets count from each memory's base: only surfaces of r's memory
    // share its bytes.
    bool shared = llvm::any_of(plan.surfaces, [&](const Surface &s) {
      const PlannedSurface &o = plan.placement[s.placed];
      return &o != &p && s.memory == plan.memoryOf(r) && o.offset < p.offset + p.bytes &&
             p.offset < o.offset + o.bytes;
    });
    if (!shared)
      cfg << "mem_init(" << memoryName(plan, r) << ", " << hex(plan.addressOf(r)) << ", "
          << hex(p.bytes) << ", ALL_ZERO);\n";
  }
  return success();
}

/// Each layer's register writes and the waits for its interrupts.
void writeLayers(const NetworkPlan &plan, std::vector<LayerProgram> &programs, raw_ostream &cfg) {
  // Each unit has two register groups: after a layer the unit consumes the
  // other group, so the layers that use a unit alternate its groups (as the
  // firmware does). A layer's S_POINTER writes select the group its writes
  // go to; its interrupts come from that group.
  llvm::StringMap<int64_t> uses;
  for (auto [i, program] : llvm::enumerate(programs)) {
    const HardwareLayer &layer = plan.layers[program.layer];
    std::string loc;
    llvm::raw_string_ostream los(loc);
    layer.op->getLoc().print(los);
    cfg << "// layer " << program.layer;
    if (program.passes > 1)
      cfg << " pass " << program.pass + 1 << " of " << program.passes;
    cfg << ": " << layer.op->getName()
        << (layer.fused ? " + " + layer.fused->getName().getStringRef().str() : "") << " " << loc
        << "\n";
    llvm::StringMap<int64_t> group;
    for (auto &[reg, value] : program.writes) {
      const nv::CsbRegisterInfo &info = nv::getCsbRegister(reg);
      if (info.name == "S_POINTER_0") {
        group[info.block] = uses[info.block]++ % 2;
        value = nv::csb::kPointerProducer.place(group[info.block]);
      }
      cfg << "reg_write(" << info.block << "." << info.name << ", " << hex(value) << ");\n";
    }
    // The interrupt's block: CDMA_DAT and CDMA_WT are CDMA's.
    auto groupOf = [&](StringRef unit) {
      return group.lookup(("NVDLA_" + unit.split("_DAT").first.split("_WT").first).str());
    };
    for (const std::string &unit : program.interrupts)
      cfg << "intr_notify(" << unit << "_" << groupOf(unit) << ", " << eventName(i, unit)
          << ");\n";
    for (const std::string &unit : program.interrupts)
      cfg << "check_nothing(" << eventName(i, unit) << ");\n";
  }
}

/// One check_crc per checked range of each result, after the last layer's
/// last interrupt; the number of checks.
FailureOr<int64_t> writeChecks(const NetworkPlan &plan, const std::vector<LayerProgram> &programs,
                               const NvdlaTraceOptions &options, raw_ostream &cfg) {
  func::FuncOp func = plan.func;
  int64_t checks = 0;
  std::string last = eventName(programs.size() - 1, programs.back().interrupts.back());
  for (auto [i, r] : llvm::enumerate(func.getBody().front().getTerminator()->getOperands())) {
    auto data = readData(options.dataDirectory, "result" + std::to_string(i) + ".bin",
                         dataBytes(plan, r), func.getLoc());
    if (failed(data))
      return failure();
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>((*data)->getBufferStart()),
                            (*data)->getBufferSize());
    auto ranges =
        checkedRanges(*plan.surface(r).feature, cast<RankedTensorType>(r.getType()).getShape());
    if (ranges.size() > 1)
      cfg << "// result " << i << ": " << ranges.size()
          << " checks, the channels beyond C in the last surface's atoms (and any gaps "
             "between lines, surfaces or inputs) left out\n";
    for (auto [offset, size] : ranges) {
      cfg << "check_crc(" << last << ", " << memoryName(plan, r) << ", "
          << hex(plan.addressOf(r) + offset) << ", "
          << hex(size) << ", " << hex(llvm::crc32(bytes.slice(offset, size))) << ");\n";
      ++checks;
    }
  }
  return checks;
}
} // namespace

LogicalResult mlir::dla::translateToNvdlaTrace(ModuleOp module, const NvdlaTraceOptions &options,
                                               raw_ostream &report) {
  FailureOr<func::FuncOp> program = getProgramFunction(module);
  if (failed(program))
    return failure();
  func::FuncOp func = *program;
  if (options.directory.empty() || options.dataDirectory.empty())
    return func.emitError("--nvdla-trace-dir and --nvdla-trace-data are required");

  // Plan, program, write.
  FailureOr<NetworkPlan> plan = planNetwork(func, kDramBase, kCvsramBase);
  if (failed(plan))
    return failure();
  if (!plan->emulated.empty())
    return plan->emulated.front()->emitOpError(
        "runs on NVIDIA's runtime emulator (an EMU task of a loadable), which a register trace "
        "does not have: the trace holds the hardware's register writes only");
  FailureOr<std::vector<LayerProgram>> programs = programNetwork(*plan);
  if (failed(programs))
    return failure();

  if (std::error_code ec = llvm::sys::fs::create_directories(options.directory))
    return func.emitError() << "cannot create " << options.directory << ": " << ec.message();
  StringRef name = llvm::sys::path::filename(options.directory);
  SmallString<256> cfgPath(options.directory);
  llvm::sys::path::append(cfgPath, name + ".cfg");
  std::error_code ec;
  llvm::raw_fd_ostream cfg(cfgPath, ec);
  if (ec)
    return func.emitError() << "cannot write " << cfgPath << ": " << ec.message();
  if (failed(writeMemory(*plan, options, cfg, report)))
    return failure();
  writeLayers(*plan, *programs, cfg);
  FailureOr<int64_t> checks = writeChecks(*plan, *programs, options, cfg);
  if (failed(checks))
    return failure();
  report << "wrote " << cfgPath << ": " << plan->layers.size() << " layers, " << *checks
         << " CRC checks\n";
  return success();
}

void mlir::dla::registerToNvdlaTraceTranslation() {
  static llvm::cl::opt<std::string> dir("nvdla-trace-dir",
                                        llvm::cl::desc("test directory the trace is written to"));
  static llvm::cl::opt<std::string> data(
      "nvdla-trace-data",
      llvm::cl::desc("directory with arg<i>.bin (inputs' storage) and result<i>.bin (expected)"));
  TranslateFromMLIRRegistration reg(
      "dla-to-nvdla-trace", "a compiled function as a register program in NVIDIA's trace format",
      [](ModuleOp module, raw_ostream &os) {
        return translateToNvdlaTrace(module, {dir, data}, os);
      },
      [](DialectRegistry &registry) {
        registry.insert<func::FuncDialect, DLADialect>();
      });
}
