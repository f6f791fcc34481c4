//===- NvdlaProgram.h - Per-layer register plans of a network ---*- C++ -*-===//
//
// What every writer of NVDLA programs shares (the register trace now, the
// loadable next), computed once: planNetwork places a compiled function's
// surfaces in memory and groups its layer ops into hardware layers;
// programNetwork writes each hardware layer's registers as NVIDIA's
// firmware programs them. A writer only formats the result.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLAPROGRAM_H
#define DLA_TARGET_NVDLAPROGRAM_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/NvdlaRegisterMap.h"
#include "dla/Format/NvdlaSdp.h"
#include "dla/Target/NvdlaAddressPlan.h"
#include "dla/Target/NvdlaDescriptors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace mlir::dla::regplan {

/// A feature cube in memory, as a layer's DMA reads or writes it.
struct CubeAddress {
  uint64_t address = 0;
  int64_t width = 0, height = 0, channels = 0;
  int64_t lineStride = 0, surfaceStride = 0;
};

/// The writes of one pass of a hardware layer (a convolution by bands
/// takes one pass per band), in order; the last ones enable its units.
struct LayerProgram {
  /// Its hardware layer (NetworkPlan::layers), its pass and their number.
  size_t layer = 0, pass = 0, passes = 1;
  /// The done interrupts the layer raises, as intr_notify names their
  /// blocks ("SDP", "CACC", "CDMA_DAT", ...); the last is its end.
  std::vector<std::string> interrupts;
  std::vector<std::pair<::dlaformat::nvdla::CsbReg, uint32_t>> writes;

  void write(::dlaformat::nvdla::CsbReg reg, uint32_t value) { writes.push_back({reg, value}); }
  /// One register from its fields (all of `reg`).
  void write(::dlaformat::nvdla::CsbReg reg,
             std::initializer_list<std::pair<::dlaformat::nvdla::CsbField, int64_t>> fields) {
    uint32_t v = 0;
    for (auto [f, value] : fields) {
      assert(f.reg == reg && "a field of another register");
      v |= f.place(value);
    }
    write(reg, v);
  }
};

/// A surface of the program: an argument's or a layer's result, or an
/// operand a layer reads as weights, image or SDP operand data.
struct Surface {
  Value value;
  /// `arg<i>` for arguments, `layer<i>` for layer i's result.
  std::string name;
  /// Feature data; null for weights, images and SDP operand data.
  std::unique_ptr<::dlaformat::nvdla::FeatureBoundLayout> feature;
  /// An SDP memory operand's layout (an AuxBoundLayout), else null.
  std::unique_ptr<::dlaformat::BoundLayout> aux;
  /// An image convolution's pixel data (a PixelBoundLayout), else null.
  std::unique_ptr<::dlaformat::BoundLayout> pixel;
  /// DRAM (Mc) or CV-SRAM (Cv), as kMemoryAttrName (FeatureCopy.h) asks;
  /// a view's is its parent's. Each memory's surfaces are placed apart,
  /// from its own base.
  DescMemType memory = DescMemType::Mc;
  /// Index into NetworkPlan::placement. The first surface of a placement
  /// is the tensor that owns it; its channel views come after it.
  size_t placed = 0;
  /// A channel view (dla.channel_slice / dla.channel_concat): its bytes
  /// from the start of the placement it shares with its parent.
  int64_t viewOffset = 0;
  /// Bytes the program itself holds: a dla.weight_constant's compressed
  /// weights, its WGS, WMB and data in one image (NvdlaWeightCompression.h's
  /// placement); empty for every other surface.
  std::vector<uint8_t> contents;
  /// Where the compressed weights' three parts lie in `contents`.
  struct CompressedPart {
    int64_t offset = 0, bytes = 0;
  };
  CompressedPart wgs, wmb, data;
  bool compressed() const { return data.bytes != 0; }
};

/// One hardware layer: a layer op, and the on-the-fly SDP a convolution
/// feeds (null when the convolution's result is its own, SDP bypassed).
struct HardwareLayer {
  Operation *op = nullptr, *fused = nullptr;
  Value result() const { return (fused ? fused : op)->getResult(0); }
};

/// The inputs of the batch `layer` runs on (its feature tensors' N; 1 for
/// a copy, which moves every input itself).
int64_t batchInputs(const HardwareLayer &layer);

/// Whether NVDLA's batch mode (BATCH_NUMBER) runs `layer`'s batch as one
/// operation: a direct convolution on feature data and its SDP on the fly,
/// on a configuration with batch mode, at most 32 inputs, every input whole
/// in the convolution buffer (no bands), no per-element SDP operand of the
/// batch (their DMAs' batch strides are not in NVIDIA's firmware's
/// descriptors). Every other layer on a batch is one operation
/// per input (PDP and CDP have no batch registers; the SDP's read DMA has
/// no source batch stride), describeNetwork's.
bool runsInBatchMode(const HardwareLayer &layer);

/// A compiled function as hardware layers over placed surfaces.
struct NetworkPlan {
  func::FuncOp func;
  /// The address of offset 0 of the placement in DRAM, and in the
  /// CV-SRAM (its surfaces' offsets count from there).
  uint64_t base = 0, cvsramBase = 0;
  std::vector<Surface> surfaces;
  std::vector<PlannedSurface> placement;
  /// The placement's extent in bytes, in DRAM and in the CV-SRAM.
  int64_t extent = 0, cvsramExtent = 0;
  std::vector<HardwareLayer> layers;
  /// The ops of NVIDIA's runtime emulator (EmulatorOpInterface) after the
  /// layers, in order: no hardware layer (describeNetwork and
  /// programNetwork skip them); the loadable runs them as an EMU task after
  /// the DLA task. Their operands and results are feature surfaces, every
  /// one live until the end.
  std::vector<Operation *> emulated;
  llvm::DenseMap<Value, size_t> surfaceOf;

  const Surface &surface(Value v) const { return surfaces[surfaceOf.at(v)]; }
  const PlannedSurface &placed(Value v) const { return placement[surface(v).placed]; }
  /// The memory `v` lies in (DescMemType::Mc or Cv).
  DescMemType memoryOf(Value v) const { return surface(v).memory; }
  /// The base of `memory`'s placement.
  uint64_t baseOf(DescMemType memory) const {
    return memory == DescMemType::Cv ? cvsramBase : base;
  }
  uint64_t addressOf(Value v) const {
    return baseOf(memoryOf(v)) + placed(v).offset + static_cast<uint64_t>(surface(v).viewOffset);
  }
  /// `v`'s cube as a DMA reads it (an image: its pixels, the format's
  /// channels, plane 0's lines).
  CubeAddress cube(Value v) const;
};

/// The plan of `func` (its one block: layer ops, emulator ops no layer
/// reads, and a return), surfaces
/// placed from `base` (DRAM) and from `cvsramBase` (those `dla.memory`
/// puts in the CV-SRAM, FeatureCopy.h: read and written by BDMA copies and
/// SDPs, read by a direct convolution as its feature input, and the
/// program's arguments and results; refused elsewhere). A convolution's
/// bias becomes its SDP's first, in `func` (the hardware's form). Located
/// errors for what no register program holds.
FailureOr<NetworkPlan> planNetwork(func::FuncOp func, uint64_t base, uint64_t cvsramBase = 0);

/// Each hardware layer as the firmware's descriptors (NvdlaDescriptors.h),
/// in the plan's order: NetworkDescs::layers[i] is plan.layers[i]. Every
/// per-layer decision of both writers is made here; located errors for
/// what no descriptor (and no register program) holds.
FailureOr<NetworkDescs> describeNetwork(const NetworkPlan &plan);

/// The address of `cube` in the plan's flat placement (the trace's memory).
uint64_t addressOf(const NetworkPlan &plan, const DescDataCube &cube);

/// Each hardware layer's register writes, in the plan's order, one program
/// per pass: the descriptors' registers as the firmware's
/// processor_*_program writes them, at the plan's addresses.
FailureOr<std::vector<LayerProgram>> programNetwork(const NetworkPlan &plan);

/// Rewrites each dla.conv with a bias operand into the convolution and an
/// on-the-fly dla.sdp whose BS stage adds the bias from memory, as the
/// hardware computes it (ConvBias.cpp).
void splitConvolutionBiases(Operation *root);

/// Rewrites each implicit fp16 dla.sdp whose steps fit the X stages (one
/// memory operand per stage, at most two) into the stage form on BS and
/// BN, the same computation (Fp16SdpStages.cpp).
void stateFp16SdpStages(Operation *root);

/// Rewrites each dla.clamp into the offline dla.sdp of the X stages it
/// runs as (ClampOp::getXStages, its out_cvt kept): the same computation
/// (ClampStages.cpp).
void stateClampStages(Operation *root);

} // namespace mlir::dla::regplan

#endif // DLA_TARGET_NVDLAPROGRAM_H
