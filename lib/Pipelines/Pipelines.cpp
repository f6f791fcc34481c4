//===- Pipelines.cpp - The dla pipelines ---------------------------------===//

#include "dla/Pipelines/Pipelines.h"

#include "dla/Conversion/Passes.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/RequestCWrappers.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::dla;

void mlir::dla::buildCompilePipeline(OpPassManager &pm, const CompileOptions &options) {
  if (options.convertTosa) {
    // A transposed convolution becomes a tosa.conv2d (reversed weights over
    // a zero-stuffed input), which --dla-convert-tosa offloads like any.
    pm.addNestedPass<func::FuncOp>(tosa::createTosaOptionalDecompositionsPass());
    DLAConvertTosaOptions convert;
    if (!options.target.empty())
      convert.targetOption = options.target;
    convert.precision = options.precision;
    convert.summary = options.summary;
    convert.emulator = options.emulator;
    pm.addPass(createDLAConvertTosa(convert));
    pm.addPass(createCanonicalizerPass());
  }
  // Convolutions the convolution buffer cannot hold become several that it
  // can, before their tensors get formats.
  DLASplitConvolutionsOptions split;
  split.target = options.target;
  split.banks = options.cbufBanks;
  split.bankEntries = options.cbufBankEntries;
  pm.addPass(createDLASplitConvolutions(split));
  if (!options.layouts)
    return;
  DLAAssignLayoutsOptions assign;
  assign.target = options.target;
  assign.winograd = options.winograd;
  assign.compression = options.compression;
  assign.pixelFormat = options.pixelFormat;
  assign.banks = options.cbufBanks;
  assign.bankEntries = options.cbufBankEntries;
  pm.addPass(createDLAAssignLayouts(assign));
  pm.addPass(createDLACheckPrecision());
  pm.addPass(createDLAPackWeights());
}

void mlir::dla::buildLowerToMemrefPipeline(OpPassManager &pm,
                                            const LowerToMemrefOptions &options) {
  // Host TOSA to linalg; no canonicalization between this and the memref
  // lowering: it would cancel the relayout pairs around each layer, which
  // are what executes the memory formats.
  OpPassManager &host = pm.nest<func::FuncOp>();
  // tosa-to-linalg has no transposed convolution: decomposed first.
  host.addPass(tosa::createTosaOptionalDecompositionsPass());
  // Integer bilinear resizes with half-pixel offsets: right at the borders.
  host.addPass(createDLAIntegerResizeBorders());
  host.addPass(tosa::createTosaToLinalgNamed());
  // Filters with the output channel innermost: host convolutions run as
  // vector loops (--dla-vectorize-kernels), the same sums in the same order.
  if (options.vectorHostConvolutions)
    host.addPass(createDLAVectorFriendlyConvolutions());
  host.addPass(tosa::createTosaToLinalg());
  // tosa.rescale (quantized networks) leaves tosa.apply_scale, expanded
  // in 64-bit arith: exact for every 32-bit multiplier and shift.
  TosaToArithPassOptions arith;
  arith.includeApplyRescale = true;
  arith.use32Bit = false;
  host.addPass(createTosaToArithPass(arith));
  host.addPass(createTosaToTensorPass());
  DLALowerToReferenceOptions reference;
  reference.skipStorageLayers = options.storageLayers;
  reference.fp16Arithmetic = options.fp16Arithmetic;
  pm.addPass(createDLALowerToReference(reference));
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  // Constants the layers read packed, every encoding materialized (relayouts
  // as loops over the storage, encoded layers in dla.on_storage), the rest
  // bufferized.
  pm.addPass(createDLAPackWeights());
  pm.addPass(createDLAEncodingsToMemref());
  // The storage of every dla.on_storage is an operand: cleaning up here is
  // safe, and every execution test checks that it stays so. (The memref
  // form dla-compile's bundle holds.)
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::dla::buildLowerToLLVMPipeline(OpPassManager &pm, const LowerToLLVMOptions &options) {
  // The input's functions only: the kernels and relayout functions the
  // lowering writes are called from the module alone.
  if (options.cWrappers)
    pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  LowerToMemrefOptions memref;
  memref.storageLayers = options.storageLayers;
  memref.vectorHostConvolutions = options.vectorHostConvolutions;
  memref.fp16Arithmetic = options.fp16Arithmetic;
  buildLowerToMemrefPipeline(pm, memref);
  DLALowerBuffersToReferenceOptions buffers;
  buffers.fp16Arithmetic = options.fp16Arithmetic;
  pm.addPass(createDLALowerBuffersToReference(buffers));
  pm.addPass(createCanonicalizerPass());
  // bufferization::buildBufferDeallocationPipeline, with the buffers of a
  // block freed after their last use rather than at its end (a network is
  // one block: all its tensors would be live at once).
  memref::ExpandReallocPassOptions realloc;
  realloc.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(realloc));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addNestedPass<func::FuncOp>(createDLAFreeAfterLastUse());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // A result that is an argument leaves a bufferization.clone.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // One function per distinct linalg op: small functions for the JIT.
  pm.addPass(createDLAOutlineKernels());
  // Reductions as register-tiled vector loops (the same sums in the same
  // order); the rest to loops LLVM vectorizes.
  pm.addPass(createDLAVectorizeKernels());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Constants as flat arrays: the JIT builds a nested one element by element.
  pm.addPass(createDLAFlattenGlobals());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (erf) calls libm.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Many results (a calibration's every activation) through the C
  // interface's pointer rather than one struct of thousands of scalars.
  pm.addPass(createDLAResultsThroughPointer());
  // Descriptors to scalars: the JIT's -O0 instruction selection has no
  // struct values.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createDLAFoldAggregates());
}

void mlir::dla::registerDLAPipelines() {
  PassPipelineRegistration<CompileOptions>(
      "dla-compile",
      "Compile for a target: [convert-tosa: offload TOSA onto dla layer ops,] assign "
      "layouts at the least relayout cost, check precisions, pack weights",
      buildCompilePipeline);
  PassPipelineRegistration<LowerToMemrefOptions>(
      "dla-lower-to-memref",
      "Bufferize a module mixing host TOSA, dla layer ops and encodings: host TOSA to "
      "linalg, encoded tensors to their storage bytes with explicit strides, relayouts to "
      "loops, encoded hardware layers in dla.on_storage (--dla-encodings-to-memref)",
      buildLowerToMemrefPipeline);
  PassPipelineRegistration<LowerToLLVMOptions>(
      "dla-lower-to-llvm",
      "Lower a module mixing host TOSA, dla layer ops and encodings to the LLVM dialect "
      "(mlir-runner, ExecutionEngine), every accelerator format executed on the CPU",
      buildLowerToLLVMPipeline);
}

void mlir::dla::registerAllDLAPasses() {
  registerDLAPasses();
  registerDLAConversionPasses();
  registerDLAGenericPasses();
  registerDLAPipelines();
}
