//===- PipelineFuzzer.cpp - libFuzzer: the whole dla-opt pipeline ---------===//
//
// Fuzzer bytes drive ModuleGenerator (structure-aware: most modules pass the
// verifiers); each module is parsed, verified and run through
// --dla-check-precision, --dla-pack-weights{max-bytes=N} and
// --dla-lower-to-reference, then verified again. Any outcome but success or
// located diagnostics (a crash, a sanitizer report, an error without a
// location, an invalid module after a successful pass) is a finding.
//
// DLA_FUZZ_STATS=1 prints, at exit, how many generated modules got past the
// parser and the verifiers and how many the whole pipeline accepted.
// DLA_FUZZ_PRINT=1 prints every generated module.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "ModuleGenerator.h"

#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {
struct Stats {
  long generated = 0, parsed = 0, verified = 0, pipelined = 0;
  ~Stats() {
    if (std::getenv("DLA_FUZZ_STATS"))
      std::fprintf(stderr,
                   "generator: %ld modules, %ld parsed, %ld verified (%.1f%%), %ld through the "
                   "whole pipeline\n",
                   generated, parsed, verified, generated ? 100.0 * verified / generated : 0.0,
                   pipelined);
  }
} stats;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlir::dla::registerDLAPasses();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ::dlafuzz::GeneratedModule generated = ::dlafuzz::generateModule(data, size);
  ++stats.generated;
  static const bool printModules = std::getenv("DLA_FUZZ_PRINT") != nullptr;
  if (printModules)
    std::fprintf(stderr, "// max-bytes=%lld\n%s// -----\n", (long long)generated.maxBytes,
                 generated.text.c_str());

  auto ctx = ::dlafuzz::makeContext();
  ::dlafuzz::LocatedDiagnostics located(ctx.get());
  ParserConfig config(ctx.get());
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(generated.text, config, "fuzz.mlir");
  if (!module)
    return 0;
  ++stats.parsed;
  if (failed(verify(*module)))
    return 0;
  ++stats.verified;

  std::string pipeline = "builtin.module(dla-check-precision,dla-pack-weights{max-bytes=" +
                         std::to_string(generated.maxBytes) + "},dla-lower-to-reference)";
  FailureOr<OpPassManager> passes = parsePassPipeline(pipeline);
  if (failed(passes)) {
    std::fprintf(stderr, "cannot parse the pipeline %s\n", pipeline.c_str());
    std::abort();
  }
  PassManager pm(ctx.get());
  static_cast<OpPassManager &>(pm) = *passes;
  pm.enableVerifier(true);
  if (succeeded(pm.run(*module)))
    ++stats.pipelined;
  return 0;
}
