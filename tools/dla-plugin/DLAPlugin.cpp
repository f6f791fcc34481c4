//===- DLAPlugin.cpp - dla as a plugin of upstream mlir-opt ---------------===//
//
// One shared library that is both a dialect plugin and a pass plugin of a
// stock mlir-opt built against the same libMLIR.so:
//
//   mlir-opt-22 --load-dialect-plugin=libDLAPlugin.so \
//               --load-pass-plugin=libDLAPlugin.so \
//               --pass-pipeline='builtin.module(dla-pack-weights)'
//
// (--dla-pack-weights itself is unknown there: the tool makes its pass flags
// before it loads plugins.)
//
// One library rather than two: the dla dialect's TypeIDs live in the static
// storage of the library that holds the dialect, and a separate pass library
// would hold a second copy of them; which copy a given use sees would then
// depend on symbol resolution and load order. Both flags naming one file
// load it once.
//
//===----------------------------------------------------------------------===//

#include "dla/InitAllDialects.h"
#include "dla/Pipelines/Pipelines.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

// The same list dla-opt registers: the upstream part of it is already in
// mlir-opt's registry, and inserting it again is a no-op (same TypeIDs, from
// the one libMLIR.so).
static void registerDialects(DialectRegistry *registry) {
  dla::registerAllDialects(*registry);
}

// The passes and pipelines dla-opt registers. Not from the dialect callback
// too: MLIR built with assertions stops on a pipeline registered twice.
static void registerPasses() { dla::registerAllDLAPasses(); }

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DLA", LLVM_VERSION_STRING, registerDialects};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DLAPasses", LLVM_VERSION_STRING, registerPasses};
}
