//===- NvdlaLoadable.h - Compiled functions as NVDLA loadables --*- C++ -*-===//
//
// `dla-translate --dla-to-nvdla-loadable`: a compiled function of NVDLA
// layer ops becomes a loadable, NVIDIA's program file (the flatbuffer of
// nvdla/sw umd/core/src/common/loadable.fbs) that NVIDIA's runtime
// (`nvdla_runtime --loadable`) and firmware run: one DLA task whose
// descriptors are the per-layer plan's (describeNetwork, NvdlaProgram.h),
// serialized as the firmware's dla_interface.h lays them out
// (docs/NvdlaLoadables.md).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLALOADABLE_H
#define DLA_TARGET_NVDLALOADABLE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::dla {

/// The firmware a loadable is written for: its dla_interface.h lays out
/// the descriptors, its version goes into the DLA blobs.
enum class NvdlaFirmware {
  /// nvdla/sw at the pinned HEAD: firmware 0.12.5, dla_data_cube.offset.
  Head,
  /// c906fc6, before 16befcb changed dla_data_cube: blobs 0.11.0, as
  /// NVIDIA's 2018 regression loadables carry.
  C906fc6,
};

struct LoadableOptions {
  NvdlaFirmware firmware = NvdlaFirmware::Head;
};

/// Writes the loadable of the module's one function to `os`. Its constants
/// (packed weights and operands) travel in the loadable; its inputs and
/// results are bound by the runtime as NVDLA feature data (a relayout
/// from or to the host's layout at either end stays with the caller).
/// Located errors name what the loadable cannot hold. Rewrites `module`
/// (constants become arguments, biases their SDP's).
LogicalResult translateToNvdlaLoadable(ModuleOp module, llvm::raw_ostream &os,
                                       const LoadableOptions &options);

/// Registers `--dla-to-nvdla-loadable` and its option with mlir-translate.
void registerToNvdlaLoadableTranslation();

} // namespace mlir::dla

#endif // DLA_TARGET_NVDLALOADABLE_H
