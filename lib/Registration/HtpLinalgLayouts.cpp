//===- HtpLinalgLayouts.cpp - HTP layouts of upstream linalg named ops ----===//
//
// External models of LayoutConstrainedOpInterface: on an HTP target, upstream
// linalg named ops on NHWC activations accept chunked layouts -- 2-D
// convolution crouton or depth32 with `conv_weight` filters (HWIO), depthwise
// convolution crouton, pooling crouton or flat, element-wise ops crouton,
// depth32 or flat -- one variant per activation layout, the same layout for
// every activation of the op. Destination operands are unconstrained: the
// assignment gives them their result's type. On other targets they have no
// layout.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/InitAllDialects.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

namespace {

enum class HtpKind { Conv, Depthwise, Pool, Elementwise };

ArrayRef<fmt::ChunkedPreset> presetsFor(HtpKind kind) {
  using P = fmt::ChunkedPreset;
  static const P conv[] = {P::Crouton, P::Depth32};
  static const P depthwise[] = {P::Crouton};
  static const P pool[] = {P::Crouton, P::Flat};
  static const P elementwise[] = {P::Crouton, P::Depth32, P::Flat};
  switch (kind) {
  case HtpKind::Conv:
    return conv;
  case HtpKind::Depthwise:
    return depthwise;
  case HtpKind::Pool:
    return pool;
  case HtpKind::Elementwise:
    return elementwise;
  }
  return {};
}

bool isRank4(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getRank() == 4;
}

template <typename OpTy, HtpKind Kind>
struct HtpLayoutModel
    : LayoutConstrainedOpInterface::ExternalModel<HtpLayoutModel<OpTy, Kind>, OpTy> {
  SmallVector<LayoutVariant> getLayoutVariants(Operation *op, const fmt::Target &target) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (target.accelerator != fmt::Accelerator::Htp || op->getNumResults() != 1 ||
        !isRank4(op->getResult(0)))
      return {};
    MLIRContext *ctx = op->getContext();
    SmallVector<LayoutVariant> variants;
    for (fmt::ChunkedPreset preset : presetsFor(Kind)) {
      Attribute activation = ChunkedAttr::get(ctx, fmt::ChunkedLayout::getPreset(preset));
      LayoutVariant v;
      v.operands.assign(op->getNumOperands(), Attribute());
      v.results = {activation};
      for (OpOperand *input : linalgOp.getDpsInputOperands()) {
        unsigned n = input->getOperandNumber();
        bool isFilter = (Kind == HtpKind::Conv || Kind == HtpKind::Depthwise) && n == 1;
        if (Kind == HtpKind::Pool && n == 1)
          continue; // the window tensor only carries a shape
        if (isFilter) {
          if (Kind == HtpKind::Conv && isRank4(input->get()))
            v.operands[n] = ChunkedAttr::get(
                ctx, fmt::ChunkedLayout::getPreset(fmt::ChunkedPreset::ConvWeight));
          continue;
        }
        if (!isRank4(input->get()))
          return {};
        v.operands[n] = activation;
      }
      variants.push_back(v);
    }
    return variants;
  }

  StringRef getLayoutOperandName(Operation *op, unsigned operandNumber) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (operandNumber >= linalgOp.getNumDpsInputs())
      return "init";
    if (operandNumber == 0)
      return "input";
    switch (Kind) {
    case HtpKind::Conv:
    case HtpKind::Depthwise:
      return "filter";
    case HtpKind::Pool:
      return "window";
    case HtpKind::Elementwise:
      return "rhs";
    }
    return "operand";
  }
};

template <HtpKind Kind, typename... Ops> void attach(MLIRContext *ctx) {
  (Ops::template attachInterface<HtpLayoutModel<Ops, Kind>>(*ctx), ...);
}

} // namespace

void mlir::dla::registerHtpLinalgLayoutModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attach<HtpKind::Conv, linalg::Conv2DNhwcHwcfOp>(ctx);
    attach<HtpKind::Depthwise, linalg::DepthwiseConv2DNhwcHwcOp>(ctx);
    attach<HtpKind::Pool, linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp,
           linalg::PoolingNhwcMinOp>(ctx);
    attach<HtpKind::Elementwise, linalg::AddOp, linalg::SubOp, linalg::MulOp, linalg::MaxOp,
           linalg::MinOp>(ctx);
  });
}
