//===- LoadableWriter.h - A planned, described network as a loadable ------===//
#ifndef DLA_LIB_TARGET_NVDLALOADABLE_LOADABLEWRITER_H
#define DLA_LIB_TARGET_NVDLALOADABLE_LOADABLEWRITER_H

#include "dla/Target/NvdlaLoadable.h"
#include "dla/Target/NvdlaModule.h"
#include "dla/Target/NvdlaProgram.h"

#include <cstdint>
#include <vector>

namespace mlir::dla::loadable {

/// The loadable of `plan` and its descriptors (`descs`, describeNetwork's):
/// serialized, never computed. `args`: prepareProgramFunction's, one per
/// argument of plan.func. Located errors for what the firmware cannot run.
FailureOr<std::vector<uint8_t>> writeLoadable(const regplan::NetworkPlan &plan,
                                              const regplan::NetworkDescs &descs,
                                              ArrayRef<ProgramArgument> args,
                                              const LoadableOptions &options);

/// A located error for the first descriptor whose extensions
/// (NvdlaDescriptors.h `ext`) the firmware's descriptors cannot express, or
/// that the firmware would refuse (FirmwareLimits.cpp).
LogicalResult checkFirmwareExpressible(const regplan::NetworkPlan &plan,
                                       const regplan::NetworkDescs &descs);

} // namespace mlir::dla::loadable

#endif // DLA_LIB_TARGET_NVDLALOADABLE_LOADABLEWRITER_H
