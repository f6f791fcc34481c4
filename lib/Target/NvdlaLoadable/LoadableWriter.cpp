//===- LoadableWriter.cpp - A planned, described network as a loadable ----===//
//
// One DLA task: the descriptor blobs (network, dependency graph,
// operations, surfaces, LUTs) each in a memory of its own, the first
// entries of the address list; a memory per constant (ALLOC | SET, its
// packed bytes), per input (INPUT) and per result (OUTPUT), one ALLOC
// memory for the other surfaces at the address plan's offsets (its reuse
// kept: the dependency graph orders each write after the reads it
// overwrites). Memories are per placement: a channel view is its
// parent's memory at the view's offset. The descriptors are
// describeNetwork's, serialized by FirmwareDescriptors.cpp; nothing here
// computes a field of them.
//
// The emulator's ops (NetworkPlan::emulated) are a second task after it,
// interface EMU1, as NVIDIA's compiler writes one (Compiler.cpp): three
// descriptor blobs (network, ops, buffers; EmulatorDescriptors.cpp) in
// memories of their own, and the task's own address list: those three, then
// one entry per memory its buffers name (docs/NvdlaLoadables.md).
//
//===----------------------------------------------------------------------===//

#include "LoadableWriter.h"

#include "DependencyGraph.h"
#include "EmulatorDescriptors.h"
#include "LoadableContents.h"

#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaPixel.h"

#include "llvm/ADT/DenseMap.h"

#include <cassert>
#include <map>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::loadable;
using namespace mlir::dla::regplan;

namespace {
/// A surface's place in the loadable's memories.
struct Place {
  uint16_t memory = 0;
  uint64_t offset = 0, bytes = 0;
  /// In the shared scratch memory (its bytes may be reused).
  bool pooled = false;
};

/// The data cubes an operation reads and writes in memory.
void cubes(const DescOp &op, std::vector<const DescDataCube *> &reads,
           std::vector<const DescDataCube *> &writes) {
  switch (op.type) {
  case DescOpType::Conv:
    reads = {&op.conv.weight_data, &op.conv.wmb_data, &op.conv.wgs_data, &op.conv.src_data};
    writes = {&op.conv.dst_data};
    break;
  case DescOpType::Sdp:
    reads = {&op.sdp.src_data, &op.sdp.x1_data, &op.sdp.x2_data, &op.sdp.y_data};
    writes = {&op.sdp.dst_data};
    break;
  case DescOpType::Pdp:
    reads = {&op.pdp.src_data};
    writes = {&op.pdp.dst_data};
    break;
  case DescOpType::Cdp:
    reads = {&op.cdp.src_data};
    writes = {&op.cdp.dst_data};
    break;
  case DescOpType::Bdma:
    reads.clear();
    writes.clear();
    for (const DescBdmaTransfer &t : op.bdma.transfers) {
      reads.push_back(&t.src);
      writes.push_back(&t.dst);
    }
    break;
  case DescOpType::Rubik:
    reads.clear();
    writes.clear();
    break;
  }
  auto inMemory = [](const DescDataCube *c) { return c->surface < 0 || c->type == DescMemType::Hw; };
  reads.erase(std::remove_if(reads.begin(), reads.end(), inMemory), reads.end());
  writes.erase(std::remove_if(writes.begin(), writes.end(), inMemory), writes.end());
}

/// The EMU task of plan.emulated, after the DLA task in `c`: its blobs,
/// their memories and addresses, and its address list.
LogicalResult addEmulatorTask(const NetworkPlan &plan, const std::vector<Place> &places,
                              Contents &c) {
  const EmulatorLayout &layout = emulatorLayout();
  const BlobKind kinds[] = {BlobKind::EmuNetworkDesc, BlobKind::EmuOperationList,
                            BlobKind::EmuBufferList};
  // NVIDIA's compiler names a task's blobs by its id (Compiler.cpp).
  const char *names[] = {"task-1-addr0", "task-1-op_list", "task-1-op_buf_list"};
  const size_t firstBlob = c.blobs.size(), firstMemory = c.memories.size();
  Task task;
  task.emulator = true;
  for (size_t i = 0; i < 3; ++i) {
    c.blobs.push_back({names[i], kinds[i], layout.version, {}});
    c.memories.push_back({MemoryKind::Content, 0, names[i]});
    task.addresses.push_back(static_cast<uint16_t>(c.addresses.size()));
    c.addresses.push_back({static_cast<uint16_t>(firstMemory + i), 0, 0});
  }
  // A buffer: an entry per memory (the start of it), the surface's offset
  // in it as addressIndexOffset.
  std::map<uint16_t, int64_t> entryOf;
  auto buffer = [&](Operation *op, Value v) -> FailureOr<EmuBuffer> {
    const Surface &s = plan.surface(v);
    const Place &p = places[s.placed];
    auto [it, added] = entryOf.try_emplace(p.memory, static_cast<int64_t>(task.addresses.size()));
    if (added) {
      if (task.addresses.size() >= layout.maxAddresses)
        return op->emitOpError("needs more than ")
               << layout.maxAddresses
               << " addresses in its EMU task (NVDLA_EMU_MAX_BUFFERS_PER_TASK)";
      task.addresses.push_back(static_cast<uint16_t>(c.addresses.size()));
      c.addresses.push_back({p.memory, 0, c.memories[p.memory].size});
    }
    const auto &f = *s.feature;
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    EmuBuffer b;
    b.addressIndex = it->second;
    b.offset = static_cast<int64_t>((p.pooled ? p.offset : 0)) + s.viewOffset;
    b.bytes = f.getStorageBytes();
    b.atomBytes = f.getCube().getBytesPerAtom();
    b.width = shape[3];
    b.height = shape[2];
    b.channels = shape[1];
    b.lineStride = f.getLineStride();
    b.surfaceStride = f.getSurfaceStride();
    // Emulator::getAddrOffset addresses 32-byte atoms (EMU_FORMAT_INT8)
    // and 8-byte ones (EMU_FORMAT_INT8_8).
    if (b.atomBytes != 32 && b.atomBytes != 8)
      return op->emitOpError("has feature data in ")
             << b.atomBytes
             << "-byte atoms: NVIDIA's runtime emulator reads int8 data in 32-byte or 8-byte ones";
    return b;
  };
  std::vector<EmuOp> ops;
  for (Operation *op : plan.emulated) {
    EmuOp e;
    auto emulated = cast<EmulatorOpInterface>(op);
    e.inputScale = emulated.getInputScaleFactor();
    e.outputScale = emulated.getOutputScaleFactor();
    if (auto power = dyn_cast<EmuPowerOp>(op)) {
      e.kind = EmuOp::Kind::Power;
      e.power = power.getPower().convertToFloat();
      e.scale = power.getScale().convertToFloat();
      e.shift = power.getShift().convertToFloat();
    } else if (isa<EmuSoftmaxOp>(op)) {
      e.kind = EmuOp::Kind::Softmax;
    } else {
      return op->emitOpError("is an emulator op the loadable writer does not know");
    }
    FailureOr<EmuBuffer> src = buffer(op, op->getOperand(0)), dst = buffer(op, op->getResult(0));
    if (failed(src) || failed(dst))
      return failure();
    e.src = *src;
    e.dst = *dst;
    ops.push_back(e);
  }
  EmuBlobs blobs;
  size_t failedOp = 0;
  std::string error;
  if (!writeEmulatorBlobs(ops, blobs, failedOp, error))
    return plan.emulated[std::min(failedOp, ops.size() - 1)]->emitOpError(
               "cannot be written for NVIDIA's runtime emulator: ")
           << error;
  std::vector<uint8_t> *lists[] = {&blobs.network, &blobs.operations, &blobs.buffers};
  for (size_t i = 0; i < 3; ++i) {
    c.blobs[firstBlob + i].data = std::move(*lists[i]);
    c.memories[firstMemory + i].size = c.blobs[firstBlob + i].data.size();
    c.addresses[task.addresses[i]].size = c.blobs[firstBlob + i].data.size();
  }
  c.tasks.push_back(std::move(task));
  return success();
}

} // namespace

FailureOr<std::vector<uint8_t>>
mlir::dla::loadable::writeLoadable(const NetworkPlan &plan, const NetworkDescs &descs,
                                   ArrayRef<ProgramArgument> args, const LoadableOptions &options) {
  func::FuncOp func = plan.func;
  std::string why;
  const FirmwareLayout *fw = getFirmwareLayout(options.firmware == NvdlaFirmware::Head, why);
  if (!fw)
    return func.emitError(why);
  if (descs.layers.size() != plan.layers.size())
    return func.emitError("the descriptors describe ")
           << descs.layers.size() << " layers, the plan has " << plan.layers.size();
  if (args.size() != func.getNumArguments())
    return func.emitError("prepared ") << args.size() << " arguments, the function has "
                                       << func.getNumArguments();
  if (failed(checkFirmwareExpressible(plan, descs)))
    return failure();

  Contents c;
  // The descriptor blobs: their memories and addresses come first (the
  // network descriptor at address 0, where the firmware looks for it).
  const bool luts = !descs.luts.empty();
  const BlobKind descKinds[] = {BlobKind::NetworkDesc, BlobKind::DependencyGraph,
                                BlobKind::OperationList, BlobKind::SurfaceList, BlobKind::LutList};
  const char *descNames[] = {"task-0-addr0", "task-0-dep_graph", "task-0-op_list",
                             "task-0-surf_list", "task-0-lut_list"};
  const size_t numDesc = luts ? 5 : 4;
  for (size_t i = 0; i < numDesc; ++i) {
    c.blobs.push_back({descNames[i], descKinds[i], fw->version, {}});
    c.memories.push_back({MemoryKind::Content, 0, descNames[i]});
    c.addresses.push_back({static_cast<uint16_t>(i), 0, 0});
  }

  // Every placement's memory, decided by the tensor that owns it (a
  // placement's first surface, NvdlaProgram.h): its channel views share it
  // at their offsets (a returned concatenation's parts are written into
  // the Output memory, a slice of an input reads the Input memory).
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  std::vector<Place> places(plan.placement.size());
  std::vector<int> owner(plan.placement.size(), -1);
  for (auto [si, s] : llvm::enumerate(plan.surfaces))
    if (owner[s.placed] < 0)
      owner[s.placed] = static_cast<int>(si);
  for (OpOperand &r : terminator->getOpOperands()) {
    const Surface &s = plan.surface(r.get());
    const Surface &parent = plan.surfaces[owner[s.placed]];
    if (&s != &parent)
      return terminator->emitOpError("returns operand ")
             << r.getOperandNumber() << ", a channel view of " << parent.value.getType()
             << ": a loadable's output is a memory of its own, a view lives in its parent's";
  }
  uint64_t scratch = 0;
  std::vector<size_t> pooled;
  int inputs = 0;
  // A bound memory is the size its tensor descriptor states
  // (bufferSize: what NVIDIA's RuntimeTest.cpp, and the harness, allocate
  // and bind): the placement's bytes, which for an int16 surface an SDP
  // between int16 and int8 reads or writes in pairs (NV_NVDLA_sdp.cpp)
  // hold one surface beyond an odd count (planNetwork's pairedSurface). The
  // lanes there are channels beyond C, never read as the tensor's.
  auto addTensor = [&](const Surface &s, const std::string &name, uint16_t memory) {
    auto type = cast<RankedTensorType>(s.value.getType());
    auto shape = type.getShape();
    Tensor t;
    t.name = name;
    t.memory = memory;
    t.size = static_cast<uint64_t>(plan.placement[s.placed].bytes);
    t.n = static_cast<int32_t>(shape[0]);
    t.c = static_cast<int32_t>(shape[1]);
    t.h = static_cast<int32_t>(shape[2]);
    t.w = static_cast<int32_t>(shape[3]);
    Type e = type.getElementType();
    t.elementBytes = std::max<uint32_t>(1, e.getIntOrFloatBitWidth() / 8);
    t.element = e.isF16()                ? Element::Half
                : e.isUnsignedInteger(8)  ? Element::UInt8
                : e.isUnsignedInteger(16) ? Element::UInt16
                : e.isInteger(16)         ? Element::Int16
                                          : Element::Int8;
    if (s.pixel) {
      const auto &p = static_cast<const ::dlaformat::nvdla::PixelBoundLayout &>(*s.pixel);
      t.image = true;
      // FORMAT_T_* (the format library's value) is loadable.fbs's PixelFormat.
      t.pixelFormat = static_cast<uint8_t>(p.getConfig().format);
      t.lineStride = static_cast<uint32_t>(p.getLineStride());
    } else {
      const auto &f = *s.feature;
      t.atomBytes = static_cast<uint32_t>(f.getCube().getBytesPerAtom());
      t.lineStride = static_cast<uint32_t>(f.getLineStride());
      t.surfaceStride = static_cast<uint32_t>(f.getSurfaceStride());
    }
    c.tensors.push_back(t);
    return static_cast<int>(c.tensors.size() - 1);
  };
  for (size_t pi = 0; pi < plan.placement.size(); ++pi) {
    const Surface &s = plan.surfaces[owner[pi]];
    const PlannedSurface &p = plan.placement[pi];
    Place &place = places[pi];
    place.bytes = static_cast<uint64_t>(p.bytes);
    auto returned = llvm::count(terminator->getOperands(), s.value);
    if (returned > 1)
      return terminator->emitOpError("returns the same value twice: each output of a loadable "
                                     "is a memory of its own");
    auto memory = static_cast<uint16_t>(c.memories.size());
    // Bytes the program holds (compressed weights): a memory of their own.
    if (!s.contents.empty()) {
      c.blobs.push_back({s.name, BlobKind::Data, {0, 0, 0}, s.contents});
      c.memories.push_back({MemoryKind::Content, place.bytes, s.name});
      place.memory = memory;
      continue;
    }
    if (auto a = dyn_cast<BlockArgument>(s.value)) {
      if (returned)
        return terminator->emitOpError("returns argument ")
               << a.getArgNumber() << " unchanged: a loadable's outputs are written by its layers";
      const ProgramArgument &arg = args[a.getArgNumber()];
      if (arg.constant) {
        c.blobs.push_back({s.name, BlobKind::Data, {0, 0, 0}, *arg.constant});
        c.memories.push_back({MemoryKind::Content, place.bytes, s.name});
      } else {
        if (!s.feature && !s.pixel)
          return emitError(arg.loc) << "input " << a.getArgNumber() << " ("
                                    << s.value.getType()
                                    << ") is read as weights or SDP operand data: the runtime "
                                       "binds feature data and images, the loadable carries "
                                       "the others as constants";
        Memory m{MemoryKind::Input, place.bytes, "", inputs++, -1};
        m.tensor = addTensor(s, s.name, memory);
        c.memories.push_back(m);
      }
      place.memory = memory;
      continue;
    }
    if (returned) {
      int index = static_cast<int>(
          llvm::find(terminator->getOperands(), s.value) - terminator->getOperands().begin());
      // The runtime binds outputs by bind id: the result's index.
      Memory m{MemoryKind::Output, place.bytes, "", index, -1};
      m.tensor = addTensor(s, "result" + std::to_string(index), memory);
      c.memories.push_back(m);
      place.memory = memory;
      continue;
    }
    place.pooled = true;
    place.offset = static_cast<uint64_t>(p.offset);
    scratch = std::max<uint64_t>(scratch, place.offset + place.bytes);
    pooled.push_back(pi);
  }
  if (scratch) {
    auto memory = static_cast<uint16_t>(c.memories.size());
    c.memories.push_back({MemoryKind::Scratch, scratch, ""});
    for (size_t pi : pooled)
      places[pi].memory = memory;
  }
  // The bytes a surface's layers touch: its placement, or a view's whole
  // atoms of channels in it (N = 1, planNetwork), so that layers writing
  // different views of one tensor do not wait for one another.
  auto rangeOf = [&](size_t si) -> MemRange {
    const Surface &s = plan.surfaces[si];
    const Place &p = places[s.placed];
    uint64_t begin = p.pooled ? p.offset : 0, end = begin + p.bytes;
    // dla.as_weights reads its whole parent (no feature layout of its own).
    if (static_cast<int>(si) != owner[s.placed] && s.feature) {
      const auto &f = *s.feature;
      int64_t channels = cast<RankedTensorType>(s.value.getType()).getDimSize(1);
      int64_t atom = f.getCube().getSpec().elementsPerAtom;
      begin += static_cast<uint64_t>(s.viewOffset);
      end = std::min(end, begin + static_cast<uint64_t>((channels + atom - 1) / atom *
                                                        f.getSurfaceStride()));
    }
    return {p.memory, begin, end};
  };

  // The operations in the plan's order, what each reads and writes.
  std::vector<FwOp> ops;
  std::vector<bool> fused;
  std::vector<OpAccess> access;
  for (auto [l, layer] : llvm::enumerate(descs.layers)) {
    for (auto [j, d] : llvm::enumerate(layer.ops)) {
      FwOp op;
      op.op = &d;
      op.layer = l;
      ops.push_back(op);
      // An SDP right after a convolution of its layer is fed by it on the
      // fly (a layer by bands holds such a pair per band).
      fused.push_back(j > 0 && layer.ops[j - 1].type == DescOpType::Conv &&
                      d.type == DescOpType::Sdp);
      std::vector<const DescDataCube *> reads, writes;
      cubes(d, reads, writes);
      OpAccess a;
      for (auto [list, out] : {std::pair{&reads, &a.reads}, std::pair{&writes, &a.writes}})
        for (const DescDataCube *cube : *list) {
          if (static_cast<size_t>(cube->surface) >= plan.surfaces.size())
            return plan.layers[l].op->emitError("its descriptor names surface ")
                   << cube->surface << ", the plan has " << plan.surfaces.size();
          out->push_back(rangeOf(static_cast<size_t>(cube->surface)));
        }
      access.push_back(std::move(a));
    }
  }

  // The address list: HEAD's firmware adds dla_data_cube.offset to its
  // address, so one entry per memory; c906fc6's has no offset, so one
  // entry per place a cube starts. A BDMA transfer names an address index
  // alone (dla_bdma_transfer_desc): an entry where it starts (`exact`).
  std::map<std::pair<uint16_t, uint64_t>, int16_t> entries;
  auto entryOf = [&](const DescDataCube &cube,
                     bool exact) -> std::pair<std::pair<uint16_t, uint64_t>, uint64_t> {
    // cube.offset holds a view's offset into its parent (describeCube).
    const Place &p = places[plan.surfaces[cube.surface].placed];
    uint64_t at = p.offset + cube.offset;
    return fw->cubeHasOffset && !exact ? std::pair{std::pair{p.memory, uint64_t(0)}, at}
                                       : std::pair{std::pair{p.memory, at}, uint64_t(0)};
  };
  for (auto [i, op] : llvm::enumerate(ops)) {
    std::vector<const DescDataCube *> reads, writes;
    cubes(*op.op, reads, writes);
    reads.insert(reads.end(), writes.begin(), writes.end());
    for (const DescDataCube *cube : reads) {
      auto key = entryOf(*cube, op.op->type == DescOpType::Bdma).first;
      if (entries.count(key))
        continue;
      if (c.addresses.size() > static_cast<size_t>(INT16_MAX))
        return plan.layers[op.layer].op->emitError("needs more than ")
               << INT16_MAX << " addresses, the firmware's address index has 16 bits";
      entries[key] = static_cast<int16_t>(c.addresses.size());
      uint64_t size = c.memories[key.first].size;
      c.addresses.push_back({key.first, key.second, size > key.second ? size - key.second : 0});
    }
  }
  // Every cube in memory has its entry (collected above from the same cubes).
  FwResolve resolve = [&](const DescDataCube &cube, bool exact) {
    auto [key, offset] = entryOf(cube, exact);
    auto it = entries.find(key);
    assert(it != entries.end() && "a cube without an address entry");
    return FwAddress{it->second, offset};
  };

  FwNetwork network;
  network.dependencyGraphIndex = 1;
  network.operationDescIndex = 2;
  network.surfaceDescIndex = 3;
  network.lutDataIndex = luts ? 4 : -1;
  network.numAddresses = static_cast<uint16_t>(c.addresses.size());
  if (std::optional<size_t> over = linkOperations(ops, fused, access, network))
    return plan.layers[ops[*over].layer].op->emitError(
        "waits for more than 255 operations (the firmware's dependency_count has 8 bits)");

  FwBlobs blobs;
  FwError error;
  if (!fw->write(network, ops, descs.luts, resolve, blobs, error)) {
    Operation *at = error.op < ops.size() ? plan.layers[ops[error.op].layer].op
                                          : func.getOperation();
    return at->emitError("cannot be written for the firmware (")
           << fw->name << "): " << error.message;
  }
  std::vector<uint8_t> *lists[] = {&blobs.network, &blobs.dependencies, &blobs.operations,
                                   &blobs.surfaces, &blobs.luts};
  for (size_t i = 0; i < numDesc; ++i) {
    c.blobs[i].data = std::move(*lists[i]);
    c.memories[i].size = c.blobs[i].data.size();
    c.addresses[i].size = c.blobs[i].data.size();
  }
  Task dla;
  for (size_t i = 0; i < c.addresses.size(); ++i)
    dla.addresses.push_back(static_cast<uint16_t>(i));
  c.tasks.push_back(std::move(dla));
  if (!plan.emulated.empty() && failed(addEmulatorTask(plan, places, c)))
    return failure();

  std::vector<uint8_t> out;
  if (!serializeLoadable(c, out, why))
    return func.emitError(why);
  return out;
}
