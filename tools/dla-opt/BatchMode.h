//===- BatchMode.h - dla-opt --batch: many inputs, one process -*- C++ -*-===//
//
// dla-run-onnx compiles every model of a list with the same options; a
// dla-opt process per model spent most of a small model's compile time
// starting (loading libMLIR.so and libLLVM.so, registering every dialect
// and pass). In batch mode one process takes the models one by one.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_OPT_BATCHMODE_H
#define DLA_OPT_BATCHMODE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>

namespace mlir::dla {

/// Reads lines `INPUT<TAB>OUTPUT<TAB>DIAGNOSTICS` from stdin until its end;
/// for each, runs `runOne(INPUT, OUTPUT)` with standard error (file
/// descriptor 2: diagnostics, a crash's stack trace) written to the file
/// DIAGNOSTICS, then prints runOne's exit code and a newline on stdout.
/// Returns 0, or 1 after a line without its three fields.
int runBatch(llvm::function_ref<int(llvm::StringRef input, llvm::StringRef output)> runOne);

/// Opens dla-opt's INPUT and OUTPUT ("-": standard input and output); false
/// after printing why one cannot be.
bool openInputOutput(llvm::StringRef inputFilename, llvm::StringRef outputFilename,
                     std::unique_ptr<llvm::MemoryBuffer> &input,
                     std::unique_ptr<llvm::ToolOutputFile> &output);

} // namespace mlir::dla

#endif // DLA_OPT_BATCHMODE_H
