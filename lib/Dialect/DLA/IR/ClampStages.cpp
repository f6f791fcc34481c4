//===- ClampStages.cpp - dla.clamp as the SDP's X stages ------------------===//
//
// A clamp is two X-stage ALU operations with register operands (the op's
// description): one statement of them, which the register plan programs
// and the CPU execution's NVDLA fp16 arithmetic computes.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaSdp.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

std::pair<SdpXAttr, SdpXAttr> ClampOp::getXStages() {
  MLIRContext *ctx = getContext();
  const bool isFloat = !getInput().getType().getElementType().isInteger();
  auto stage = [&](nv::SdpAluAlgo alu, double bound) {
    int64_t operand, shift = 0;
    if (isFloat) {
      // The register holds fp16 bits (docs/IntegerAttributes.md 4.7); a
      // bound past fp16's range is its largest finite value, where the
      // output converter saturates anyway.
      APFloat h(bound);
      bool lost;
      h.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
      if (h.isInfinity())
        h = APFloat::getLargest(APFloat::IEEEhalf(), h.isNegative());
      operand = static_cast<int16_t>(h.bitcastToAPInt().getZExtValue());
    } else {
      // The verifier checked that the bound splits so.
      std::tie(operand, shift) = *nv::splitSdpShiftedOperand(static_cast<int64_t>(bound));
    }
    return SdpXAttr::get(ctx, alu, SdpOperand::ofRegister(operand), shift, SdpOperand(),
                         /*mulShift=*/0, /*prelu=*/false, /*relu=*/false);
  };
  return {stage(nv::SdpAluAlgo::Max, getMin().convertToDouble()),
          stage(nv::SdpAluAlgo::Min, getMax().convertToDouble())};
}
