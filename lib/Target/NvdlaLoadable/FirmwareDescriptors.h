//===- FirmwareDescriptors.h - The firmware's blobs of one DLA task -------===//
//
// Between the loadable writer and FirmwareDescriptors.cpp, the one
// translation unit that sees NVIDIA's dla_interface.h (compiled once per
// firmware: HEAD and c906fc6). The writer decides the operation order,
// the dependency graph and the address of every data cube; the unit writes
// them as NVIDIA's structs (dla_network_desc, dla_common_op_desc,
// union dla_operation_container, union dla_surface_container,
// dla_lut_param) and says which field does not fit.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLALOADABLE_FIRMWAREDESCRIPTORS_H
#define DLA_LIB_TARGET_NVDLALOADABLE_FIRMWAREDESCRIPTORS_H

#include "dla/Target/NvdlaDescriptors.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mlir::dla::loadable {

/// DLA_EVENT_*: what a consumer waits for.
enum class FwEvent : uint8_t { None = 0, OpCompleted = 1, OpProgrammed = 2, OpEnabled = 3 };

/// dla_consumer.
struct FwConsumer {
  int16_t index = -1;
  FwEvent event = FwEvent::None;
};

/// One operation of the task, at its index in the operation list.
struct FwOp {
  const regplan::DescOp *op = nullptr;
  /// NetworkPlan::layers index (for diagnostics).
  size_t layer = 0;
  uint8_t dependencyCount = 0;
  /// By DLA_OP_* type.
  std::array<FwConsumer, regplan::kDescOpTypes> consumers;
  FwConsumer fusedParent;
};

/// dla_network_desc's fields the writer decides.
struct FwNetwork {
  int16_t operationDescIndex = -1, surfaceDescIndex = -1, dependencyGraphIndex = -1,
          lutDataIndex = -1;
  std::array<int16_t, regplan::kDescOpTypes> opHead;
  uint16_t numAddresses = 0;
};

/// Where a data cube is: an address-list index and, for a firmware whose
/// dla_data_cube has `offset`, the byte offset from that address.
struct FwAddress {
  int16_t index = -1;
  uint64_t offset = 0;
};
/// `exact`: an entry at the cube's own start, offset 0 (the address index
/// of a BDMA transfer, which has no offset field).
using FwResolve = std::function<FwAddress(const regplan::DescDataCube &, bool exact)>;

/// The blobs of one DLA task.
struct FwBlobs {
  std::vector<uint8_t> network, dependencies, operations, surfaces, luts;
};

/// A field that does not fit NVIDIA's struct: the operation (index into the
/// operation list; SIZE_MAX for the network or a LUT) and what.
struct FwError {
  size_t op = SIZE_MAX;
  std::string message;
};

/// One firmware's descriptor layout.
struct FirmwareLayout {
  /// "head" or "c906fc6".
  const char *name;
  /// The version the DLA blobs carry (nvdla::loadable::Version).
  std::array<uint8_t, 3> version;
  /// dla_data_cube has `offset` (HEAD, since 16befcb).
  bool cubeHasOffset;
  /// sizeof of NVIDIA's structs, for the writer's sizes and the tests.
  size_t networkDescBytes, commonOpDescBytes, operationContainerBytes, surfaceContainerBytes,
      lutParamBytes;
  /// Writes the blobs; false with `error` set when a value does not fit.
  bool (*write)(const FwNetwork &network, const std::vector<FwOp> &ops,
                const std::vector<regplan::DescLut> &luts, const FwResolve &resolve,
                FwBlobs &blobs, FwError &error);
};

const FirmwareLayout &firmwareLayout_head();
const FirmwareLayout &firmwareLayout_c906fc6();

} // namespace mlir::dla::loadable

#endif // DLA_LIB_TARGET_NVDLALOADABLE_FIRMWAREDESCRIPTORS_H
