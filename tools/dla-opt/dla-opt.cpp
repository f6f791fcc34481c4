//===- dla-opt.cpp - mlir-opt with the dla dialect and passes -------------===//

#include "BatchMode.h"
#include "BatchSession.h"
#include "ModelDiagnostics.h"
#include "OutOfMemory.h"

#include "dla/InitAllDialects.h"
#include "dla/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::opt<bool>
    batch("batch",
          llvm::cl::desc("Compile many inputs with these options in one process: reads lines "
                         "INPUT<TAB>OUTPUT<TAB>DIAGNOSTICS from stdin, writes each one's "
                         "standard error to DIAGNOSTICS and prints its exit code on stdout "
                         "(dla-run-onnx's model lists); the inputs share one context and one "
                         "pass manager unless an option needs MlirOptMain's own (timing, "
                         "-verify-diagnostics, -split-input-file, reproducers)"),
          llvm::cl::init(false));

/// dla-opt INPUT -o OUTPUT with the parsed options; the exit code.
static int runOne(llvm::StringRef inputFilename, llvm::StringRef outputFilename,
                  DialectRegistry &registry, const MlirOptMainConfig &config) {
  std::unique_ptr<llvm::MemoryBuffer> input;
  std::unique_ptr<llvm::ToolOutputFile> output;
  if (!dla::openInputOutput(inputFilename, outputFilename, input, output))
    return EXIT_FAILURE;
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}

int main(int argc, char **argv) {
  // Memory running out is an error line, not an abort (OutOfMemory.h).
  dla::installOutOfMemoryHandlers();
  DialectRegistry registry;
  // dla and everything upstream, as mlir-opt has it: the same list the C API
  // and Python register (lib/Registration). A compiled network goes from
  // TOSA through tosa-to-linalg, bufferization and the LLVM lowering in one
  // dla-opt pipeline (dla-run-onnx, test/Execution).
  dla::registerAllDialects(registry);
  dla::registerAllDLAPasses();
  registerAllPasses();
  // An error of a pass on the module does not print the module after it
  // ("see current operation": the whole network) unless
  // --mlir-print-op-on-diagnostic=true asks (test/Pipelines/errors-print-no-module.mlir).
  std::vector<char *> args(argv, argv + argc);
  static char quietOps[] = "--mlir-print-op-on-diagnostic=false";
  if (llvm::none_of(args, [](const char *arg) {
        return llvm::StringRef(arg).contains("mlir-print-op-on-diagnostic");
      }))
    args.insert(args.begin() + 1, quietOps);
  argc = static_cast<int>(args.size());
  argv = args.data();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "dla-opt: MLIR optimizer with the dla dialect (accelerator memory layouts)\n",
      registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listing, and checking expected-* diagnostics, as mlir-opt does.
  if (config.shouldShowDialects() || config.shouldListPasses() ||
      config.shouldVerifyDiagnostics())
    return asMainReturnCode(MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // One context and pass manager for a batch's models (BatchSession.h).
  if (batch && dla::BatchSession::supports(config)) {
    dla::BatchSession session(registry, config);
    return dla::runBatch(
        [&](llvm::StringRef in, llvm::StringRef out) { return session.compile(in, out); });
  }

  // Diagnostics at imported ONNX nodes name the node (ModelDiagnostics.h).
  VerbosityLevel level = config.getDiagnosticVerbosityLevel();
  bool notes = config.shouldShowNotes();
  config.setPassPipelineSetupFn([base = config, level, notes](PassManager &pm) {
    dla::registerModelDiagnostics(pm.getContext(), level >= VerbosityLevel::ErrorsAndWarnings,
                                  level >= VerbosityLevel::ErrorsWarningsAndRemarks, notes);
    return base.setupPassPipeline(pm);
  });
  if (batch)
    return dla::runBatch([&](llvm::StringRef in, llvm::StringRef out) {
      return runOne(in, out, registry, config);
    });
  return runOne(inputFilename, outputFilename, registry, config);
}
