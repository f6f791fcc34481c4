//===- ConvBias.cpp - A convolution's bias as its SDP's BS stage ----------===//
//
// NVDLA's convolution pipeline has no bias: CACC delivers the (clipped)
// sum to the SDP, whose BS stage adds a bias read from memory (NVIDIA's
// compiler fuses a bias layer into the convolution's SDP the same way).
// dla.conv's `bias` is therefore programmed as an on-the-fly dla.sdp with
// `bs <alu = sum, alu_operand = bias>`: the ALU adds the operand to the
// 32-bit sum, the identity output converter saturates to the output, which
// is dla.conv's SAT(sum + bias) (docs/IntegerAttributes.md section 3).
// When the convolution's one reader is already an implicit on-the-fly SDP
// without a bias, the bias becomes that SDP's (its first step, the same
// sum on the accumulator): one SDP reads CACC.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = dlaformat::nvdla;

namespace {
struct ConvBiasToSdp : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp conv, PatternRewriter &rewriter) const override {
    Value bias = conv.getBias();
    if (!bias)
      return failure();
    if (conv->hasOneUse()) {
      auto reader = dyn_cast<SdpOp>(*conv->getUsers().begin());
      if (reader && reader.getMode() == SdpMode::OnTheFly && !reader.isStageForm() &&
          !reader.getBias() && reader.getInput() == conv.getResult()) {
        rewriter.modifyOpInPlace(reader, [&] { reader.getBiasMutable().assign(bias); });
        rewriter.modifyOpInPlace(conv, [&] { conv.getBiasMutable().clear(); });
        return success();
      }
    }
    rewriter.setInsertionPointAfter(conv);
    auto sum = cast<ConvOp>(rewriter.clone(*conv));
    sum.getBiasMutable().clear();
    auto sdp = SdpOp::create(rewriter, conv.getLoc(), conv.getType(), SdpMode::OnTheFly, sum);
    sdp.getBiasMutable().assign(bias);
    sdp.setBsAttr(SdpXAttr::get(getContext(), nv::SdpAluAlgo::Sum,
                                SdpOperand::ofMemory(nv::SdpMemOperand::Bias), /*aluShift=*/0,
                                SdpOperand(), /*mulShift=*/0, /*prelu=*/false,
                                /*relu=*/false));
    rewriter.replaceOp(conv, sdp);
    return success();
  }
};
} // namespace

void mlir::dla::regplan::splitConvolutionBiases(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  patterns.add<ConvBiasToSdp>(root->getContext());
  walkAndApplyPatterns(root, std::move(patterns));
}
