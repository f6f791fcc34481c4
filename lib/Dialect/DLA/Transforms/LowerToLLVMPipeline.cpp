//===- LowerToLLVMPipeline.cpp - --dla-lower-to-llvm ----------------------===//
//
// The named pipeline from a module mixing dla ops with func / arith / tensor
// / linalg / bufferization down to the LLVM dialect, ready for mlir-runner:
// constants packed, encodings materialized and bufferized by
// --dla-lower-to-memref, then the usual upstream lowerings.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::dla::registerDLAPipelines() {
  PassPipelineRegistration<>(
      "dla-lower-to-llvm",
      "Lower a module with dla encodings to the LLVM dialect (for mlir-runner): "
      "dla-pack-weights, convert-elementwise-to-linalg, dla-lower-to-memref (encoded tensors "
      "become aligned storage byte buffers, relayouts become loops, One-Shot Bufferize with "
      "function boundaries; encoded layer ops become dla.buffer.* on storage views), "
      "dla-lower-buffers-to-reference (runs those on the CPU), canonicalize, buffer-deallocation-pipeline (frees what the relayouts allocate), convert-linalg-to-loops, expand-strided-metadata, lower-affine, "
      "convert-scf-to-cf, convert-math-to-llvm, convert-vector-to-llvm (the copy loops' vectors), convert-to-llvm, reconcile-unrealized-casts",
      [](OpPassManager &pm) {
        // Each step by its registered name, so the pipeline reads as its
        // command-line spelling and links no pass library twice.
        // No builtin.module(...) wrapper: pm is already the modules manager
        // (a wrapper would nest and silently run nothing).
        const char *text = "dla-pack-weights,"
                           "func.func(convert-elementwise-to-linalg),dla-lower-to-memref,"
                           "dla-lower-buffers-to-reference,canonicalize,"
                           "buffer-deallocation-pipeline,"
                           "func.func(convert-linalg-to-loops),expand-strided-metadata,"
                           "lower-affine,convert-scf-to-cf,convert-math-to-llvm,convert-vector-to-llvm,convert-to-llvm,"
                           "reconcile-unrealized-casts";
        if (failed(parsePassPipeline(text, pm)))
          llvm::report_fatal_error("dla-lower-to-llvm: bad pipeline text");
      });
}
