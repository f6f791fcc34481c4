//===- Pipelines.h - The dla pipelines, defined once ------------*- C++ -*-===//
//
// Every pipeline a user or a tool runs is built here, in C++ with typed
// options: dla-opt registers them by name, dla-run-onnx, the C API and
// Python run them by name. No pipeline is written as text anywhere else.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_PIPELINES_PIPELINES_H
#define DLA_PIPELINES_PIPELINES_H

#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "dla/Dialect/DLA/Transforms/PassOptions.h"
#include "dla/Format/NvdlaPrecision.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::dla {

/// --dla-compile: (optionally) offload TOSA onto dla layer ops, then give
/// every tensor of the layer ops an accelerator encoding at the least
/// relayout cost, check the precisions and pack the constant weights.
struct CompileOptions : PassPipelineOptions<CompileOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target: nv_full, nv_large, nv_small (NVDLA), nvdla:<config>, or htp; "
                     "default: the module's dla.target, else nv_full")};
  PassOptions::Option<bool> convertTosa{
      *this, "convert-tosa",
      llvm::cl::desc("First offload the TOSA ops the target runs onto dla layer ops "
                     "(--dla-convert-tosa, after TOSA's optional decompositions)"),
      llvm::cl::init(false)};
  PassOptions::Option<::dlaformat::nvdla::Precision> precision{
      *this, "precision",
      llvm::cl::desc("With convert-tosa: the precision the offloaded layers compute in"),
      llvm::cl::init(::dlaformat::nvdla::Precision::Fp16),
      EnumTableValues<::dlaformat::nvdla::Precision>()};
  PassOptions::Option<bool> summary{
      *this, "summary",
      llvm::cl::desc("With convert-tosa: remark how much runs on the accelerator"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulator{
      *this, "emulator",
      llvm::cl::desc("With convert-tosa: the softmax of int8 logits runs in NVIDIA's runtime "
                     "emulator (an EMU task of the loadable, int8 probabilities) rather "
                     "than on the host in float"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> layouts{
      *this, "layouts",
      llvm::cl::desc("Assign layouts, check precisions and pack weights (off: offload only)"),
      llvm::cl::init(true)};
  PassOptions::Option<WinogradPolicy> winograd{
      *this, "winograd", llvm::cl::desc("As --dla-assign-layouts' winograd"),
      llvm::cl::init(WinogradPolicy::Off),
      llvm::cl::values(clEnumValN(WinogradPolicy::Off, "off", "keep every convolution's mode"),
                       clEnumValN(WinogradPolicy::Auto, "auto",
                                  "eligible direct convolutions with constant weights "
                                  "become Winograd"),
                       clEnumValN(WinogradPolicy::Fastest, "fastest",
                                  "as auto, where the performance model estimates "
                                  "fewer cycles"))};
  PassOptions::Option<bool> compression{
      *this, "compression", llvm::cl::desc("As --dla-assign-layouts' compression"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> pixelFormat{
      *this, "pixel-format", llvm::cl::desc("As --dla-assign-layouts' pixel-format")};
  PassOptions::Option<int64_t> cbufBanks{
      *this, "cbuf-banks", llvm::cl::desc("As --dla-split-convolutions' banks"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> cbufBankEntries{
      *this, "cbuf-bank-entries", llvm::cl::desc("As --dla-split-convolutions' bank-entries"),
      llvm::cl::init(0)};
};

/// --dla-lower-to-memref: a module that mixes host TOSA, dla layer ops and
/// relayouts, bufferized with every encoded tensor in its storage bytes:
/// host TOSA to linalg, the layer ops --dla-encodings-to-memref does not
/// run on storage through --dla-lower-to-reference, constants packed, then
/// --dla-encodings-to-memref (the packed constants memref.globals on their
/// blobs: the memref form dla-compile's bundle holds).
struct LowerToMemrefOptions : PassPipelineOptions<LowerToMemrefOptions> {
  PassOptions::Option<bool> storageLayers{
      *this, "storage-layers",
      llvm::cl::desc("Keep encoded hardware layers for their storage (dla.on_storage); "
                     "off: every layer op through --dla-lower-to-reference, between "
                     "relayouts"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorHostConvolutions{
      *this, "vector-host-convolutions",
      llvm::cl::desc("Host NHWC convolutions with filters --dla-vectorize-kernels vectorizes "
                     "(--dla-vector-friendly-convolutions: the same sums in the same order); "
                     "off: as tosa-to-linalg-named writes them (bench/calibrate_speed.py's "
                     "baseline)"),
      llvm::cl::init(true)};
  PassOptions::Option<Fp16Arithmetic> fp16Arithmetic{
      *this, "fp16-arithmetic",
      llvm::cl::desc("As --dla-lower-to-reference's fp16-arithmetic: hardware (NVDLA's, "
                     "the default on nv_full) or ideal"),
      llvm::cl::init(Fp16Arithmetic::Hardware),
      llvm::cl::values(clEnumValN(Fp16Arithmetic::Hardware, "hardware", "NVDLA's arithmetic"),
                       clEnumValN(Fp16Arithmetic::Ideal, "ideal",
                                  "exact products in f32, one rounding"))};
};

/// --dla-lower-to-llvm: a module that mixes host TOSA, dla layer ops (with
/// or without encodings) and relayouts, down to the LLVM dialect for
/// mlir-runner or the ExecutionEngine, executing every accelerator format
/// on the CPU: --dla-lower-to-memref, the encoded layers run from their
/// storage, then the upstream lowerings.
struct LowerToLLVMOptions : PassPipelineOptions<LowerToLLVMOptions> {
  PassOptions::Option<bool> storageLayers{
      *this, "storage-layers",
      llvm::cl::desc("Run encoded hardware layers on their storage (dla.on_storage, "
                     "--dla-lower-buffers-to-reference); off: every layer op through "
                     "--dla-lower-to-reference, between relayouts (the reference execution)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> cWrappers{
      *this, "c-wrappers",
      llvm::cl::desc("Give every function of the input a C interface wrapper (the "
                     "ExecutionEngine's calls); the private kernels the lowering writes get none"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> vectorHostConvolutions{
      *this, "vector-host-convolutions",
      llvm::cl::desc("Host NHWC convolutions with filters --dla-vectorize-kernels vectorizes "
                     "(--dla-vector-friendly-convolutions: the same sums in the same order); "
                     "off: as tosa-to-linalg-named writes them (bench/calibrate_speed.py's "
                     "baseline)"),
      llvm::cl::init(true)};
  PassOptions::Option<Fp16Arithmetic> fp16Arithmetic{
      *this, "fp16-arithmetic",
      llvm::cl::desc("As --dla-lower-to-reference's fp16-arithmetic: hardware (NVDLA's, "
                     "the default on nv_full) or ideal"),
      llvm::cl::init(Fp16Arithmetic::Hardware),
      llvm::cl::values(clEnumValN(Fp16Arithmetic::Hardware, "hardware", "NVDLA's arithmetic"),
                       clEnumValN(Fp16Arithmetic::Ideal, "ideal",
                                  "exact products in f32, one rounding"))};
};

void buildCompilePipeline(OpPassManager &pm, const CompileOptions &options);
void buildLowerToMemrefPipeline(OpPassManager &pm, const LowerToMemrefOptions &options);
void buildLowerToLLVMPipeline(OpPassManager &pm, const LowerToLLVMOptions &options);

/// Registers --dla-compile, --dla-lower-to-memref and --dla-lower-to-llvm.
void registerDLAPipelines();

/// Every dla pass (--dla-*: the dialect's, the conversions, the generic
/// ones) and pipeline: the one
/// list dla-opt, the C API (dlaRegisterAllPasses) and libDLAPlugin.so register.
void registerAllDLAPasses();

} // namespace mlir::dla

#endif // DLA_PIPELINES_PIPELINES_H
