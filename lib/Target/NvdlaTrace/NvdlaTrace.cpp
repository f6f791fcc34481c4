//===- NvdlaTrace.cpp - A compiled function as an NVDLA trace test --------===//
//
// The function's layer ops in program order, each one hardware layer run to
// its interrupt before the next starts; its surfaces placed by the address
// plan in DBB (pri_mem) from kDramBase; memory files for the arguments; one
// check_crc per result with the CRC-32 (zlib's, as the trace player and
// NVIDIA's testbench compute it) of the expected bytes.
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaTrace.h"

#include "AddressPlan.h"
#include "Program.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaRegisterMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::trace;
namespace nv = dlaformat::nvdla;

/// Where NVIDIA's traces put DBB data (the testbench's pri_mem window).
static constexpr uint64_t kDramBase = 0x80000000ull;
/// After the last layer: a lifetime that ends with the program.
static constexpr int64_t kEnd = 1 << 30;

namespace {
struct ValueSurface {
  Value value;
  std::string name;
  /// Feature data; null for weights and SDP operands.
  std::unique_ptr<nv::FeatureBoundLayout> layout;
  /// An SDP memory operand's layout (an AuxBoundLayout), else null.
  std::unique_ptr<::dlaformat::BoundLayout> aux;
  /// An image convolution's pixel data (a PixelBoundLayout), else null.
  std::unique_ptr<::dlaformat::BoundLayout> pixel;
  int64_t plan = -1; // index into the plan
};

/// One hardware layer: a layer op, and the on-the-fly SDP a convolution
/// feeds (null when the convolution's result is its own, SDP bypassed).
struct Layer {
  Operation *op = nullptr, *fused = nullptr;
  Value result() const { return (fused ? fused : op)->getResult(0); }
};

/// The weights of `v`: uncompressed int8 NVDLA direct weights (image
/// weights for an image convolution) of nv_small or nv_large.
LogicalResult checkWeights(Value v, bool image, Location loc) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  auto weight = type ? dyn_cast_or_null<WeightAttr>(type.getEncoding()) : WeightAttr();
  nv::WeightFormat format = image ? nv::WeightFormat::Image : nv::WeightFormat::Direct;
  if (!weight || weight.getFormat() != format || weight.getCompressed() ||
      weight.getPrecision() != nv::Precision::Int8 ||
      weight.getConfig() == nv::HardwareKind::NvFull)
    return emitError(loc) << "weights of a register program must be int8 "
                          << (image ? "image" : "direct")
                          << " NVDLA weights of nv_small or nv_large (#dla.weight<"
                          << (image ? "image" : "direct")
                          << ", int8, config = ...>), got " << v.getType();
  return success();
}

/// The image of an image convolution: NVDLA pixel data of nv_small or nv_large.
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>> pixelLayout(Value v, Location loc) {
  auto type = cast<RankedTensorType>(v.getType());
  auto pixel = dyn_cast_or_null<PixelAttr>(type.getEncoding());
  if (!pixel || pixel.getConfig() == nv::HardwareKind::NvFull)
    return emitError(loc) << "the image of a register program must be NVDLA pixel data of "
                             "nv_small or nv_large (#dla.pixel<..., config = ...>), got "
                          << type;
  return bindTensorLayout(type, [&] { return emitError(loc); });
}

/// The feature layout of `v`: int8 NVDLA feature data of nv_small or nv_large.
FailureOr<std::unique_ptr<nv::FeatureBoundLayout>> featureLayout(Value v, Location loc) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  auto feature = type ? dyn_cast_or_null<FeatureAttr>(type.getEncoding()) : FeatureAttr();
  if (!feature)
    return emitError(loc) << "a surface of a register program must be NVDLA feature data "
                             "(#dla.feature), got "
                          << v.getType();
  if (feature.getConfig() == nv::HardwareKind::NvFull)
    return emitError(loc) << "NVIDIA's C model is built for nv_small and nv_large, got "
                          << v.getType() << " (nv_full)";
  if (feature.getPrecision() != nv::Precision::Int8)
    return emitError(loc) << "only int8 feature data is programmed yet, got " << v.getType();
  if (type.getShape()[0] != 1)
    return emitError(loc) << "only one batch is programmed yet, got " << v.getType();
  nv::FeatureConfig config;
  config.precision = feature.getPrecision();
  config.lineStride = feature.getLineStride();
  config.surfaceStride = feature.getSurfaceStride();
  config.batchStride = feature.getBatchStride();
  config.hardware = feature.getConfig();
  auto bound = nv::FeatureBoundLayout::bind(config, type.getShape().vec());
  if (!bound)
    return emitError(loc) << bound.message();
  return std::move(*bound);
}

/// Int8 feature data read by an SDP stage as its element-wise operand (a
/// layer's result feeding a residual add): per-element int8 operand data in
/// one-byte components has the feature format's atoms and strides.
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>
featureAsOperand(const nv::FeatureBoundLayout &feature, ArrayRef<int64_t> shape, Location loc) {
  nv::AuxConfig c;
  c.kind = nv::AuxKind::ElementWise;
  c.mode = nv::AuxMode::PerElement;
  c.precision = nv::Precision::Int8;
  c.hardware = feature.getConfig().hardware;
  c.dataSize = nv::DataSize::OneByte;
  c.lineStride = feature.getLineStride();
  c.surfaceStride = feature.getSurfaceStride();
  auto bound = nv::AuxBoundLayout::bind(c, shape.vec(), 1);
  if (!bound)
    return emitError(loc) << bound.message();
  std::unique_ptr<::dlaformat::BoundLayout> layout = std::move(*bound);
  assert(layout->getStorageBytes() == feature.getStorageBytes() && "one layout, two names");
  return layout;
}

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
std::vector<std::pair<int64_t, int64_t>> checkedRanges(const nv::FeatureBoundLayout &layout,
                                                       ArrayRef<int64_t> shape) {
  const nv::AtomCube &cube = layout.getCube();
  int64_t perAtom = cube.getSpec().elementsPerAtom, partial = shape[1] % perAtom;
  int64_t surfaces = cube.getNumSurfaces();
  if (partial == 0)
    return {{0, layout.getStorageBytes()}};
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int64_t last = (surfaces - 1) * cube.getSurfaceStride();
  if (last > 0)
    ranges.push_back({0, last});
  int64_t elementBytes = cube.getBytesPerAtom() / perAtom;
  for (int64_t h = 0; h < shape[2]; ++h)
    for (int64_t w = 0; w < shape[3]; ++w)
      ranges.push_back({cube.getByteOffset(0, (surfaces - 1) * perAtom, h, w),
                        partial * elementBytes});
  return ranges;
}

/// The event of layer `i`'s interrupt from `unit`: layer_3_sdp.
std::string eventName(size_t i, StringRef unit) {
  return "layer_" + std::to_string(i) + "_" + unit.lower();
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
} // namespace

LogicalResult mlir::dla::translateToNvdlaTrace(ModuleOp module, const NvdlaTraceOptions &options,
                                               raw_ostream &report) {
  SmallVector<func::FuncOp> funcs;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  if (funcs.size() != 1)
    return module.emitError() << "a register program is written for one function, the module "
                                 "has "
                              << funcs.size();
  func::FuncOp func = funcs.front();
  if (options.directory.empty() || options.dataDirectory.empty())
    return func.emitError("--nvdla-trace-dir and --nvdla-trace-data are required");
  // A convolution's bias is its SDP's (rewrites the translated module).
  trace::splitConvolutionBiases(func);

  // Surfaces and lifetimes (in layer indices). A value is feature data,
  // or weights when a convolution reads it as such.
  std::vector<ValueSurface> surfaces;
  std::vector<PlannedSurface> plan;
  llvm::DenseMap<Value, size_t> surfaceOf;
  llvm::DenseSet<Value> weightValues, imageWeights, pixelValues;
  for (auto conv : func.getOps<ConvOp>()) {
    weightValues.insert(conv.getWeight());
    if (conv.getMode() == nv::ConvMode::ImageInput) {
      imageWeights.insert(conv.getWeight());
      pixelValues.insert(conv.getInput());
    }
  }
  // SDP memory operands (bias, batch-norm, element-wise, PReLU surfaces).
  llvm::DenseSet<Value> auxValues;
  for (auto sdp : func.getOps<SdpOp>())
    for (nv::SdpMemOperand m : ::dlaformat::enumValues<nv::SdpMemOperand>())
      if (Value v = getSdpMemoryOperand(sdp, m))
        auxValues.insert(v);
  auto addSurface = [&](Value v, std::string name, int64_t first, Location loc) -> LogicalResult {
    PlannedSurface p;
    std::unique_ptr<nv::FeatureBoundLayout> feature;
    std::unique_ptr<::dlaformat::BoundLayout> aux, pixel;
    auto type = cast<RankedTensorType>(v.getType());
    if (pixelValues.contains(v)) {
      auto bound = pixelLayout(v, loc);
      if (failed(bound))
        return failure();
      p.bytes = (*bound)->getStorageBytes();
      p.alignment = (*bound)->getStorageAlignment();
      pixel = std::move(*bound);
    } else if (auxValues.contains(v) && !isa_and_nonnull<FeatureAttr>(type.getEncoding())) {
      if (!isa_and_nonnull<BiasAttr, BatchNormAttr, PReLUAttr, EltwiseAttr>(type.getEncoding()))
        return emitError(loc) << "an SDP memory operand of a register program must be NVDLA "
                                 "operand data (#dla.bias, #dla.batchnorm, #dla.prelu, "
                                 "#dla.eltwise) or feature data, got "
                              << type;
      auto bound = bindTensorLayout(type, [&] { return emitError(loc); });
      if (failed(bound))
        return failure();
      p.bytes = (*bound)->getStorageBytes();
      p.alignment = (*bound)->getStorageAlignment();
      aux = std::move(*bound);
    } else if (weightValues.contains(v)) {
      if (failed(checkWeights(v, imageWeights.contains(v), loc)))
        return failure();
      auto bound = bindTensorLayout(cast<RankedTensorType>(v.getType()),
                                    [&] { return emitError(loc); });
      if (failed(bound))
        return failure();
      p.bytes = (*bound)->getStorageBytes();
      p.alignment = (*bound)->getStorageAlignment();
    } else {
      auto layout = featureLayout(v, loc);
      if (failed(layout))
        return failure();
      feature = std::move(*layout);
      p.bytes = feature->getStorageBytes();
      p.alignment = feature->getStorageAlignment();
      if (auxValues.contains(v)) {
        auto operand = featureAsOperand(*feature, type.getShape(), loc);
        if (failed(operand))
          return failure();
        aux = std::move(*operand);
      }
    }
    p.name = name;
    p.first = p.last = first;
    surfaceOf[v] = surfaces.size();
    surfaces.push_back({v, std::move(name), std::move(feature), std::move(aux), std::move(pixel),
                        static_cast<int64_t>(plan.size())});
    plan.push_back(p);
    return success();
  };
  for (BlockArgument a : func.getArguments())
    if (failed(addSurface(a, "arg" + std::to_string(a.getArgNumber()), -1, func.getLoc())))
      return failure();
  std::vector<Layer> layers;
  Operation *terminator = func.getBody().front().getTerminator();
  llvm::DenseSet<Operation *> fusedOps;
  for (Operation &op : func.getBody().front()) {
    if (&op == terminator || fusedOps.contains(&op))
      continue;
    Layer layer{&op, nullptr};
    if (auto conv = dyn_cast<ConvOp>(op)) {
      auto sdp = conv->hasOneUse() ? dyn_cast<SdpOp>(*conv->user_begin()) : SdpOp();
      if (sdp && sdp.getMode() == SdpMode::OnTheFly && sdp.getInput() == conv.getResult()) {
        layer.fused = sdp;
        fusedOps.insert(sdp);
      }
    } else if (!isa<SdpOp, PoolOp, LrnOp>(op)) {
      return op.emitOpError("is not a hardware layer this emitter programs (dla.conv direct or "
                            "image with its on-the-fly dla.sdp, offline dla.sdp, dla.pool, "
                            "dla.lrn)");
    }
    int64_t index = layers.size();
    // Every value before this op is an argument or a layer's result (other
    // ops were refused, a fused convolution has one use).
    for (Value in : op.getOperands()) {
      assert(surfaceOf.count(in) && "an operand that is no surface");
      plan[surfaces[surfaceOf[in]].plan].last = index;
    }
    if (failed(addSurface(layer.result(), "layer" + std::to_string(index), index,
                          layer.result().getLoc())))
      return failure();
    layers.push_back(layer);
  }
  if (layers.empty())
    return func.emitError("a program without layers has nothing to check");
  for (Value r : terminator->getOperands()) {
    auto it = surfaceOf.find(r);
    if (it == surfaceOf.end() || !surfaces[it->second].layout || weightValues.contains(r) ||
        auxValues.contains(r))
      return terminator->emitOpError("returns a value that is no feature surface of a layer or "
                                     "argument");
    plan[surfaces[it->second].plan].last = kEnd;
  }
  int64_t total = planAddresses(plan);
  auto addressOf = [&](Value v) { return kDramBase + plan[surfaces[surfaceOf[v]].plan].offset; };
  auto cube = [&](Value v) {
    const ValueSurface &s = surfaces[surfaceOf[v]];
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    if (s.pixel) // an image: its pixels, the format's channels, plane 0's lines
      return CubeAddress{addressOf(v), shape[3], shape[2], shape[1],
                         static_cast<const nv::PixelBoundLayout *>(s.pixel.get())->getLineStride(),
                         0};
    return CubeAddress{addressOf(v), shape[3], shape[2], shape[1], s.layout->getLineStride(),
                       s.layout->getSurfaceStride()};
  };

  // The SDP's memory operands of a layer, by operand name.
  auto memOf = [&](Operation *sdp) {
    SdpMemSurfaces mem;
    if (auto op = dyn_cast_or_null<SdpOp>(sdp))
      for (nv::SdpMemOperand m : ::dlaformat::enumValues<nv::SdpMemOperand>())
        if (Value v = getSdpMemoryOperand(op, m))
          mem[static_cast<size_t>(m)] = {
              addressOf(v),
              static_cast<const nv::AuxBoundLayout *>(surfaces[surfaceOf[v]].aux.get())};
    return mem;
  };

  // Register programs.
  std::vector<LayerProgram> programs(layers.size());
  for (auto [i, layer] : llvm::enumerate(layers)) {
    Operation *op = layer.op;
    LogicalResult ok = failure();
    if (auto conv = dyn_cast<ConvOp>(op)) {
      Value w = conv.getWeight();
      const ValueSurface &in = surfaces[surfaceOf[conv.getInput()]];
      ImageAddress image{addressOf(conv.getInput()),
                         static_cast<const nv::PixelBoundLayout *>(in.pixel.get())};
      ok = programConv(op, layer.fused, cube(conv.getInput()), in.pixel ? &image : nullptr,
                       addressOf(w), plan[surfaces[surfaceOf[w]].plan].bytes,
                       cube(layer.result()), memOf(layer.fused), programs[i]);
    } else if (isa<SdpOp>(op)) {
      ok = programSdp(op, cube(op->getOperand(0)), cube(layer.result()), memOf(op), programs[i]);
    } else if (isa<PoolOp>(op)) {
      ok = programPdp(op, cube(op->getOperand(0)), cube(layer.result()), programs[i]);
    } else {
      ok = programCdp(op, cube(op->getOperand(0)), cube(layer.result()), programs[i]);
    }
    if (failed(ok))
      return failure();
  }

  // The directory, its memory files and the trace.
  if (std::error_code ec = llvm::sys::fs::create_directories(options.directory))
    return func.emitError() << "cannot create " << options.directory << ": " << ec.message();
  StringRef name = llvm::sys::path::filename(options.directory);
  SmallString<256> cfgPath(options.directory);
  llvm::sys::path::append(cfgPath, name + ".cfg");
  std::error_code ec;
  llvm::raw_fd_ostream cfg(cfgPath, ec);
  if (ec)
    return func.emitError() << "cannot write " << cfgPath << ": " << ec.message();

  cfg << "// dla-mlir register program: @" << func.getSymName() << ", " << layers.size()
      << " layers\n// address plan (pri_mem): " << total << " bytes from " << hex(kDramBase)
      << "\n";
  report << "address plan of @" << func.getSymName() << ": " << surfaces.size() << " surfaces, "
         << total << " bytes\n";
  for (const ValueSurface &s : surfaces) {
    const PlannedSurface &p = plan[s.plan];
    std::string line;
    llvm::raw_string_ostream os(line);
    os << s.name << ": " << hex(kDramBase + p.offset) << ", " << p.bytes << " bytes, aligned "
       << p.alignment << ", " << s.value.getType();
    cfg << "//   " << line << "\n";
    report << "  " << line << "\n";
  }
  for (BlockArgument a : func.getArguments()) {
    const ValueSurface &s = surfaces[surfaceOf[a]];
    auto data = readData(options.dataDirectory, s.name + ".bin", plan[s.plan].bytes, func.getLoc());
    if (failed(data))
      return failure();
    SmallString<256> path(options.directory);
    llvm::sys::path::append(path, s.name + ".dat");
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>((*data)->getBufferStart()),
                            (*data)->getBufferSize());
    if (failed(writeMemoryFile(path, bytes, func.getLoc())))
      return failure();
    cfg << "mem_load(pri_mem, " << hex(addressOf(a)) << ", \"" << s.name << ".dat\");\n";
  }
  // Result surfaces start zeroed, as the CPU execution's buffers, unless
  // they reuse memory of another surface (memory commands all apply
  // before the first layer: a zeroed input would be lost).
  for (Value r : terminator->getOperands()) {
    const PlannedSurface &p = plan[surfaces[surfaceOf[r]].plan];
    bool shared = llvm::any_of(plan, [&](const PlannedSurface &o) {
      return &o != &p && o.offset < p.offset + p.bytes && p.offset < o.offset + o.bytes;
    });
    if (!shared)
      cfg << "mem_init(pri_mem, " << hex(addressOf(r)) << ", " << hex(p.bytes)
          << ", ALL_ZERO);\n";
  }

  // Each unit has two register groups: after a layer the unit consumes the
  // other group, so the layers that use a unit alternate its groups (as the
  // firmware does). A layer's S_POINTER writes select the group its writes
  // go to; its interrupts come from that group.
  llvm::StringMap<int64_t> uses;
  std::vector<std::string> lastEvents;
  for (auto [i, layer] : llvm::enumerate(layers)) {
    std::string loc;
    llvm::raw_string_ostream los(loc);
    layer.op->getLoc().print(los);
    cfg << "// layer " << i << ": " << layer.op->getName()
        << (layer.fused ? " + " + layer.fused->getName().getStringRef().str() : "") << " " << loc
        << "\n";
    llvm::StringMap<int64_t> group;
    for (auto &[reg, value] : programs[i].writes) {
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
    for (const std::string &unit : programs[i].interrupts)
      cfg << "intr_notify(" << unit << "_" << groupOf(unit) << ", " << eventName(i, unit)
          << ");\n";
    for (const std::string &unit : programs[i].interrupts)
      cfg << "check_nothing(" << eventName(i, unit) << ");\n";
  }
  int64_t checks = 0;
  for (auto [i, r] : llvm::enumerate(terminator->getOperands())) {
    const ValueSurface &s = surfaces[surfaceOf[r]];
    auto data = readData(options.dataDirectory, "result" + std::to_string(i) + ".bin",
                         plan[s.plan].bytes, func.getLoc());
    if (failed(data))
      return failure();
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>((*data)->getBufferStart()),
                            (*data)->getBufferSize());
    std::string last = eventName(layers.size() - 1, programs.back().interrupts.back());
    auto ranges = checkedRanges(*s.layout, cast<RankedTensorType>(r.getType()).getShape());
    if (ranges.size() > 1)
      cfg << "// result " << i << ": " << ranges.size()
          << " checks, the channels beyond C in the last surface's atoms left out\n";
    for (auto [offset, size] : ranges) {
      cfg << "check_crc(" << last << ", pri_mem, " << hex(addressOf(r) + offset) << ", "
          << hex(size) << ", " << hex(llvm::crc32(bytes.slice(offset, size))) << ");\n";
      ++checks;
    }
  }
  report << "wrote " << cfgPath << ": " << layers.size() << " layers, " << checks
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
