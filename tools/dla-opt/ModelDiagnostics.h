//===- ModelDiagnostics.h - Diagnostics at imported model nodes -*- C++ -*-===//
//
// dla-import-onnx gives every op the location "node"("model.onnx":0:0).
// MLIR's source manager handler prints only the file position of such a
// location ("model.onnx:0:0"), dropping the node's name; this handler prints
// "model.onnx: node 'conv1': remark: ..." instead.
//
//===----------------------------------------------------------------------===//

#ifndef DLA_OPT_MODELDIAGNOSTICS_H
#define DLA_OPT_MODELDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

namespace mlir::dla {

/// Registers, on `context`, the printer of diagnostics whose location names
/// nodes (NameLoc); the others go on to the handlers registered before.
/// `remarks` / `warnings`: whether those severities print (dla-opt's
/// --mlir-diagnostic-verbosity-level), `notes` likewise. Returns the
/// handler's ID (DiagnosticEngine::eraseHandler).
DiagnosticEngine::HandlerID registerModelDiagnostics(MLIRContext *context, bool warnings,
                                                     bool remarks, bool notes);

} // namespace mlir::dla

#endif // DLA_OPT_MODELDIAGNOSTICS_H
