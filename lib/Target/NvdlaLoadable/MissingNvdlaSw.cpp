//===- MissingNvdlaSw.cpp - The writer without NVIDIA's tree --------------===//
//
// The loadable writer needs NVIDIA's loadable.fbs (compiled by flatc) and
// the firmware's dla_interface.h at build time (CMakeLists.txt). Built
// without them, the translation still exists and fails with one error
// saying what was missing and how to build it in.
//
//===----------------------------------------------------------------------===//

#include "EmulatorDescriptors.h"
#include "LoadableContents.h"

using namespace mlir::dla::loadable;

std::string mlir::dla::loadable::missingNvdlaSwMessage(const std::string &missing) {
  return "this build writes no NVDLA loadables: it was configured without " + missing +
         " (NVIDIA's nvdla/sw tree: set NVDLA_SW_DIR, and install flatbuffers-compiler and "
         "libflatbuffers-dev; scripts/setup.sh does)";
}

#ifdef DLA_NVDLA_SW_MISSING
bool mlir::dla::loadable::serializeLoadable(const Contents &, std::vector<uint8_t> &,
                                            std::string &why) {
  why = missingNvdlaSwMessage(DLA_NVDLA_SW_MISSING);
  return false;
}

const FirmwareLayout *mlir::dla::loadable::getFirmwareLayout(bool, std::string &why) {
  why = missingNvdlaSwMessage(DLA_NVDLA_SW_MISSING);
  return nullptr;
}

// Never reached: getFirmwareLayout fails first.
const EmulatorLayout &mlir::dla::loadable::emulatorLayout() {
  static const EmulatorLayout none{{0, 0, 0}, 0, 0, 0, 0};
  return none;
}

bool mlir::dla::loadable::writeEmulatorBlobs(const std::vector<EmuOp> &, EmuBlobs &, size_t &,
                                             std::string &why) {
  why = missingNvdlaSwMessage(DLA_NVDLA_SW_MISSING);
  return false;
}
#else
const FirmwareLayout *mlir::dla::loadable::getFirmwareLayout(bool head, std::string &) {
  return head ? &firmwareLayout_head() : &firmwareLayout_c906fc6();
}
#endif
