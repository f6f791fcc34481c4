//===- NvdlaTrace.h - Register programs in NVIDIA's trace format -*- C++ -*-===//
//
// `dla-translate --dla-to-nvdla-trace`: a compiled function of NVDLA layer
// ops becomes a test directory in the register-trace format of NVIDIA's
// hw verification (verif/tests/trace_tests): memory files for its inputs,
// the register writes of each layer, interrupt waits between them and a
// check_crc of each result (docs/NvdlaCModel.md, "Register programs").
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLATRACE_H
#define DLA_TARGET_NVDLATRACE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::dla {

struct NvdlaTraceOptions {
  /// The test directory written: <dir>/<name>.cfg and its memory files.
  std::string directory;
  /// Holds arg<i>.bin (the storage bytes of argument i) and result<i>.bin
  /// (the expected storage bytes of result i, whose CRC check_crc states).
  std::string dataDirectory;
};

/// Writes the program of the module's one function; the address plan goes
/// to `report`. Diagnostics name the op that cannot be programmed. A
/// convolution's bias becomes its SDP's in `module` (the hardware's form).
LogicalResult translateToNvdlaTrace(ModuleOp module, const NvdlaTraceOptions &options,
                                    llvm::raw_ostream &report);

/// Registers `--dla-to-nvdla-trace` and its options with mlir-translate.
void registerToNvdlaTraceTranslation();

} // namespace mlir::dla

#endif // DLA_TARGET_NVDLATRACE_H
