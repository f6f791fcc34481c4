//===- Execution.cpp - JIT engine for lowered modules ---------------------===//
//
// dlaExecutionEngineCreate (include/dla-c/Execution.h): upstream's
// mlirExecutionEngineCreate with a target machine of our choosing.
//
//===----------------------------------------------------------------------===//

#include "dla-c/Execution.h"
#include "dla/ExecutionRuntime/NvdlaRuntime.h"

#include "mlir/CAPI/ExecutionEngine.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
llvm::CodeGenOptLevel codeGenLevel(int optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// LLVM's default pipeline at `optLevel`, as upstream's
/// makeOptimizingTransformer builds it, but with the loop vectorizer alone of
/// the loop and straight-line code expanders: the kernels reach LLVM as
/// loops over vector bodies already (--dla-vectorize-kernels), and on the
/// PaddleOCR networks unrolling, interleaving and the SLP vectorizer made
/// code that ran no faster (often slower) for 20-30% more compile time
/// (bench/README.md, issue 25). None of them reorders floating-point
/// operations without fast-math flags, which the lowering never sets: the
/// results are the same bits.
llvm::Error optimize(llvm::Module *m, int optLevel, llvm::TargetMachine *tm) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.LoopInterleaving = false;
  tuning.LoopUnrolling = false;
  tuning.SLPVectorization = false;
  llvm::PassBuilder builder(tm, tuning);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (optLevel <= 0)
    mpm = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
  else
    mpm = builder.buildPerModuleDefaultPipeline(
        optLevel == 1   ? llvm::OptimizationLevel::O1
        : optLevel == 2 ? llvm::OptimizationLevel::O2
                        : llvm::OptimizationLevel::O3);
  mpm.run(*m, mam);
  return llvm::Error::success();
}
} // namespace

extern "C" MlirExecutionEngine
dlaExecutionEngineCreate(MlirModule op, int optLevel, int numPaths,
                         const MlirStringRef *sharedLibPaths) {
  static bool initOnce = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmParser();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initOnce;
  if (optLevel < 0 || optLevel > 3) {
    // Never clamped: a level LLVM has not is the caller's error.
    llvm::errs() << "dla: opt level " << optLevel << " is none of LLVM's 0 to 3\n";
    return MlirExecutionEngine{nullptr};
  }

  MLIRContext &ctx = *unwrap(op)->getContext();
  registerBuiltinDialectTranslation(ctx);
  registerLLVMDialectTranslation(ctx);

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    llvm::errs() << "dla: no JIT target machine for the host: "
                 << llvm::toString(builder.takeError()) << "\n";
    return MlirExecutionEngine{nullptr};
  }
  builder->setCodeGenOptLevel(codeGenLevel(optLevel));
  auto tm = builder->createTargetMachine();
  if (!tm) {
    llvm::errs() << "dla: no target machine for the host: "
                 << llvm::toString(tm.takeError()) << "\n";
    return MlirExecutionEngine{nullptr};
  }

  SmallVector<StringRef> libPaths;
  for (int i = 0; i < numPaths; ++i)
    libPaths.push_back(unwrap(sharedLibPaths[i]));

  llvm::TargetMachine *machine = tm->get();
  auto transformer = [&](llvm::Module *m) {
    return optimize(m, optLevel, machine);
  };
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.sharedLibPaths = libPaths;
  // No copy of the object for gdb's JIT interface, no perf jitdump file.
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(unwrap(op), options, std::move(*tm));
  if (!engine) {
    llvm::errs() << "dla: JIT compilation failed: "
                 << llvm::toString(engine.takeError()) << "\n";
    return MlirExecutionEngine{nullptr};
  }
  // The functions the lowered code of fp16 layers calls (NvdlaRuntime.h):
  // this library holds them, whatever libraries the caller names.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    struct Collect {
      llvm::orc::MangleAndInterner &interner;
      llvm::orc::SymbolMap map;
    } collect{interner, llvm::orc::SymbolMap()};
    dla::runtime::forEachSymbol(
        [](const char *name, void *address, void *user) {
          auto &c = *static_cast<Collect *>(user);
          c.map[c.interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                     llvm::JITSymbolFlags::Exported};
        },
        &collect);
    return std::move(collect.map);
  });
  return wrap(engine->release());
}
