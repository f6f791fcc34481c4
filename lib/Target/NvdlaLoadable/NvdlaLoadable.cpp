//===- NvdlaLoadable.cpp - dla-translate --dla-to-nvdla-loadable ----------===//
//
// The module's function prepared (NvdlaModule.h), planned and described
// (NvdlaProgram.h) as the trace writer plans it, then serialized
// (LoadableWriter.cpp).
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaLoadable.h"

#include "LoadableContents.h"
#include "LoadableWriter.h"

#include "dla/Target/NvdlaModule.h"
#include "dla/Target/NvdlaProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::dla;

LogicalResult mlir::dla::translateToNvdlaLoadable(ModuleOp module, raw_ostream &os,
                                                  const LoadableOptions &options) {
  std::string why;
  if (!loadable::getFirmwareLayout(options.firmware == NvdlaFirmware::Head, why))
    return module.emitError(why);
  FailureOr<func::FuncOp> func = getProgramFunction(module);
  if (failed(func))
    return failure();
  FailureOr<std::vector<ProgramArgument>> args = prepareProgramFunction(*func);
  if (failed(args))
    return failure();
  // The loadable places its surfaces in memories of their own: the plan's
  // offsets are relative (base 0).
  FailureOr<regplan::NetworkPlan> plan = regplan::planNetwork(*func, 0);
  if (failed(plan))
    return failure();
  // NVIDIA's runtime never allocates a loadable's SRAM-domain memory
  // (Runtime::loadMemory allocates domain_sysmem only) and hands the
  // firmware handle 0, offset 0 for it (Runtime.cpp, the address list's
  // "domain_sram" case), which no DMA address resolves (the Linux port's
  // dla_read_dma_address: nvdla_gem_dma_addr of handle 0).
  for (const regplan::Surface &s : plan->surfaces)
    if (s.memory == regplan::DescMemType::Cv)
      return emitError(isa<BlockArgument>(s.value) ? func->getLoc() : s.value.getLoc())
             << s.name
             << " lies in the CV-SRAM (dla.memory): NVIDIA's runtime gives a loadable's SRAM "
                "memory no address (Runtime.cpp binds it as handle 0, offset 0), so a loadable "
                "holds DRAM surfaces only";
  FailureOr<regplan::NetworkDescs> descs = regplan::describeNetwork(*plan);
  if (failed(descs))
    return failure();
  FailureOr<std::vector<uint8_t>> bytes = loadable::writeLoadable(*plan, *descs, *args, options);
  if (failed(bytes))
    return failure();
  os.write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
  return success();
}

void mlir::dla::registerToNvdlaLoadableTranslation() {
  static llvm::cl::opt<NvdlaFirmware> firmware(
      "nvdla-firmware", llvm::cl::desc("the firmware the loadable is written for"),
      llvm::cl::init(NvdlaFirmware::Head),
      llvm::cl::values(
          clEnumValN(NvdlaFirmware::Head, "head",
                     "nvdla/sw HEAD: firmware 0.12.5, dla_data_cube with offset (default)"),
          clEnumValN(NvdlaFirmware::C906fc6, "c906fc6",
                     "c906fc6, before 16befcb: the 2018 dla_data_cube, blobs 0.11.0")));
  TranslateFromMLIRRegistration reg(
      "dla-to-nvdla-loadable",
      "a compiled function as an NVDLA loadable (NVIDIA's loadable.fbs) for NVIDIA's runtime",
      [](ModuleOp module, raw_ostream &os) {
        return translateToNvdlaLoadable(module, os, {firmware});
      },
      [](DialectRegistry &registry) {
        // A compiled module: the dla ops and what --dla-compile leaves on
        // the host around them (refused, but parsed first).
        registry.insert<func::FuncDialect, DLADialect, arith::ArithDialect, tosa::TosaDialect,
                        tensor::TensorDialect>();
      });
}
