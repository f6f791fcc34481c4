//===- Fp16SdpStages.cpp - An fp16 SDP's implicit steps as X stages -------===//
//
// On an fp16 pipeline the implicit dla.sdp means its steps in order, each
// one X-stage operation in NVDLA's fp32 (docs/NvdlaFp16.md, "The CPU
// execution"): `bias` an ALU sum, `batchnorm` an ALU sum then a MUL,
// `eltwise` an ALU sum, then `relu`, or `prelu` a MUL of negative values.
// Each stage's DMA reads one memory operand, so each of those operands is
// one stage, `relu` going to the last: with at most two operands the op is
// the stage form on BS then BN, the same computation. A third operand
// (`eltwise` or `prelu`: one unit) goes to the Y stage when no `relu`
// follows it (the Y stage has none): its ALU's FpAdd and its multiplier's
// FpMul with the PReLU gate are the X stages' (docs/NvdlaFp16.md). Others
// (a ReLU after three operands, four, a per-layer bias) stay implicit and
// checkFp16Layer refuses them.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Target/NvdlaProgram.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = dlaformat::nvdla;

namespace {
bool isF16(Value v) {
  return v && cast<ShapedType>(v.getType()).getElementType().isF16();
}

struct ImplicitFp16SdpToStages : OpRewritePattern<SdpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SdpOp sdp, PatternRewriter &rewriter) const override {
    // An fp16 pipeline: fp16 in (CACC's fp32 on the fly) and out; an
    // integer pipeline writing fp16 has the integer meaning.
    if (sdp.getBsAttr() || sdp.getBnAttr() || sdp.getEwAttr() || sdp.getOutCvtAttr() ||
        !isF16(sdp.getInput()) || !isF16(sdp.getResult()))
      return failure();
    if (Value bias = sdp.getBias(); bias && cast<ShapedType>(bias.getType()).getRank() == 0)
      return failure();
    MLIRContext *ctx = getContext();
    const auto sum = nv::SdpAluAlgo::Sum;
    const std::optional<nv::SdpAluAlgo> none;
    auto mem = [](nv::SdpMemOperand m) { return SdpOperand::ofMemory(m); };
    // One stage per memory operand, in the implicit form's order.
    struct Stage {
      std::optional<nv::SdpAluAlgo> alu;
      SdpOperand aluOperand, mulOperand;
      bool prelu = false;
    };
    SmallVector<Stage, 4> stages;
    if (sdp.getBias())
      stages.push_back({sum, mem(nv::SdpMemOperand::Bias), SdpOperand()});
    if (sdp.getBatchnorm())
      stages.push_back(
          {sum, mem(nv::SdpMemOperand::Batchnorm), mem(nv::SdpMemOperand::Batchnorm)});
    if (sdp.getEltwise())
      stages.push_back({sum, mem(nv::SdpMemOperand::Eltwise), SdpOperand()});
    if (sdp.getPrelu())
      stages.push_back({none, SdpOperand(), mem(nv::SdpMemOperand::Prelu), /*prelu=*/true});
    const bool relu = sdp.getRelu();
    if (stages.empty() && relu)
      stages.push_back({none, SdpOperand(), SdpOperand()});
    const bool third = stages.size() == 3 && !relu &&
                       !(stages[2].alu && stages[2].mulOperand.isPresent());
    if (stages.empty() || (stages.size() > 2 && !third))
      return failure();
    auto attr = [&](const Stage &s, bool last) {
      return SdpXAttr::get(ctx, s.alu, s.aluOperand, /*aluShift=*/0, s.mulOperand,
                           /*mulShift=*/0, s.prelu, last && relu);
    };
    rewriter.modifyOpInPlace(sdp, [&] {
      sdp.setBsAttr(attr(stages[0], stages.size() == 1));
      if (stages.size() >= 2)
        sdp.setBnAttr(attr(stages[1], stages.size() == 2));
      if (third) {
        const Stage &y = stages[2];
        sdp.setEwAttr(SdpYAttr::get(ctx, y.mulOperand, /*mulCvt=*/CvtAttr(), y.prelu,
                                    /*truncate=*/0, y.alu, y.aluOperand, /*aluCvt=*/CvtAttr(),
                                    /*lut=*/LutAttr()));
      }
      sdp.setRelu(false);
    });
    return success();
  }
};
} // namespace

void mlir::dla::regplan::stateFp16SdpStages(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  patterns.add<ImplicitFp16SdpToStages>(root->getContext());
  walkAndApplyPatterns(root, std::move(patterns));
}
