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

#include "dla/Conversion/Passes.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ::dlafuzz::GeneratedModule generated = ::dlafuzz::generateModule(data, size);
  ++stats.generated;
  static const bool printModules = std::getenv("DLA_FUZZ_PRINT") != nullptr;
  if (printModules)
    std::fprintf(stderr, "// max-bytes=%lld\n%s// -----\n", (long long)generated.maxBytes,
                 generated.text.c_str());

  MLIRContext *ctx = ::dlafuzz::nextContext();
  ::dlafuzz::LocatedDiagnostics located(ctx);
  ParserConfig config(ctx);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(generated.text, config, "fuzz.mlir");
  if (!module)
    return 0;
  ++stats.parsed;
  if (failed(verify(*module)))
    return 0;
  ++stats.verified;

  // The passes built directly (no pipeline text to parse):
  // builtin.module(dla-check-precision,dla-pack-weights{max-bytes=N},
  // dla-lower-to-reference).
  PassManager pm(ctx);
  pm.enableVerifier(true);
  pm.addPass(mlir::dla::createDLACheckPrecision());
  mlir::dla::DLAPackWeightsOptions pack;
  pack.maxBytes = generated.maxBytes;
  pm.addPass(mlir::dla::createDLAPackWeights(pack));
  pm.addPass(mlir::dla::createDLALowerToReference());
  if (succeeded(pm.run(*module)))
    ++stats.pipelined;
  return 0;
}
