//===- BatchSession.cpp - dla-opt --batch in one context ------------------===//

#include "BatchSession.h"
#include "BatchMode.h"
#include "ModelDiagnostics.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/ParseUtilities.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::dla;

BatchSession::BatchSession(DialectRegistry &registry, const MlirOptMainConfig &config)
    : registry(registry), config(config) {}

BatchSession::~BatchSession() {
  pm.reset(); // before its context
}

bool BatchSession::supports(const MlirOptMainConfig &config) {
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  return !config.shouldVerifyDiagnostics() && config.inputSplitMarker().empty() &&
         !config.shouldRunReproducer() && config.getReproducerFilename().empty() &&
         !config.shouldVerifyRoundtrip() && config.getIrdlFile().empty() &&
         !config.shouldEmitRemarks() && !timing.isEnabled() && !config.shouldDumpPassPipeline() &&
         !config.getDebugConfig().isDebuggerActionHookEnabled() &&
         config.getDebugConfig().getLogActionsTo().empty() &&
         config.getDebugConfig().getProfileActionsTo().empty();
}

void BatchSession::resetContext() {
  pm.reset();
  // Threading as --mlir-disable-threading says, one thread pool for all.
  context = std::make_unique<MLIRContext>(registry);
  context->allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  bytesInContext = 0;
}

LogicalResult BatchSession::preparePassManager(OperationName anchor) {
  if (pm && pm->getOpName() == anchor.getStringRef())
    return success();
  pm.reset();
  auto fresh = std::make_unique<PassManager>(anchor, OpPassManager::Nesting::Implicit);
  fresh->enableVerifier(config.shouldVerifyPasses());
  if (failed(applyPassManagerCLOptions(*fresh)) || failed(config.setupPassPipeline(*fresh)))
    return failure();
  pm = std::move(fresh);
  return success();
}

/// Drops the warnings, remarks and notes dla-opt's verbosity options hide
/// (as MlirOptMain's own filter does); the rest goes on to the handlers
/// registered before.
static DiagnosticEngine::HandlerID registerVerbosityFilter(MLIRContext *context,
                                                           VerbosityLevel level, bool notes) {
  return context->getDiagEngine().registerHandler([=](Diagnostic &diag) -> LogicalResult {
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      return failure();
    case DiagnosticSeverity::Warning:
      return success(level == VerbosityLevel::ErrorsOnly);
    case DiagnosticSeverity::Remark:
      return success(level != VerbosityLevel::ErrorsWarningsAndRemarks);
    case DiagnosticSeverity::Note:
      return success(!notes);
    }
    llvm_unreachable("unknown diagnostic severity");
  });
}

int BatchSession::compile(llvm::StringRef inputFilename, llvm::StringRef outputFilename) {
  std::unique_ptr<llvm::MemoryBuffer> input;
  std::unique_ptr<llvm::ToolOutputFile> output;
  if (!openInputOutput(inputFilename, outputFilename, input, output))
    return EXIT_FAILURE;
  if (!context || bytesInContext > kResetBytes)
    resetContext();
  bytesInContext += input->getBufferSize();

  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  // Handlers run newest first: the model's nodes, the verbosity filter, the
  // source positions (MlirOptMain's order, ModelDiagnostics.h).
  SourceMgrDiagnosticHandler sourceHandler(*sourceMgr, context.get());
  VerbosityLevel level = config.getDiagnosticVerbosityLevel();
  DiagnosticEngine &engine = context->getDiagEngine();
  DiagnosticEngine::HandlerID filter =
      registerVerbosityFilter(context.get(), level, config.shouldShowNotes());
  DiagnosticEngine::HandlerID nodes = registerModelDiagnostics(
      context.get(), level >= VerbosityLevel::ErrorsAndWarnings,
      level >= VerbosityLevel::ErrorsWarningsAndRemarks, config.shouldShowNotes());
  auto status = [&]() -> LogicalResult {
    FallbackAsmResourceMap fallbackResourceMap;
    ParserConfig parseConfig(context.get(), config.shouldVerifyOnParsing(), &fallbackResourceMap);
    // Parsing is faster without the context's locking.
    bool threading = context->isMultithreadingEnabled();
    context->disableMultithreading();
    OwningOpRef<Operation *> op =
        parseSourceFileForTool(sourceMgr, parseConfig, !config.shouldUseExplicitModule());
    context->enableMultithreading(threading);
    if (!op || failed(preparePassManager(op->getName())) || failed(pm->run(*op)))
      return failure();
    if (config.shouldEmitBytecode()) {
      BytecodeWriterConfig writerConfig(fallbackResourceMap);
      if (std::optional<int64_t> version = config.bytecodeVersionToEmit())
        writerConfig.setDesiredBytecodeVersion(*version);
      if (config.shouldElideResourceDataFromBytecode())
        writerConfig.setElideResourceDataFlag();
      return writeBytecodeToFile(op.get(), output->os(), writerConfig);
    }
    AsmState asmState(op.get(), OpPrintingFlags(), /*locationMap=*/nullptr, &fallbackResourceMap);
    output->os() << OpWithState(op.get(), asmState) << '\n';
    return success();
  }();
  engine.eraseHandler(nodes);
  engine.eraseHandler(filter);
  if (failed(status))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
