//===- PixelShufflePatterns.cpp - Pixel shuffles of convolutions ----------===//
//
// --tosa-optional-decompositions writes a transposed convolution of stride
// [fy, fx] as one tosa.conv2d of fy fx C kernels (NHWC channel
// (py fx + px) C + c: output phase (py, px)) and a pixel shuffle of its
// result: reshape [N, H, W, fy, fx, C], transpose [0, 1, 3, 2, 4, 5],
// reshape [N, H fy, W fx, C]; then a slice when the ONNX pads crop it and
// an add of the bias. Here that is fy fx convolutions of C kernels each,
// one per output phase, and a dla.interleave of their results: the
// convolutions convert by the conv patterns, the interleave runs as SDP
// pass-through passes (docs/Resize.md "Pixel shuffles").
//
// The input's zero padding (a tosa.pad before the convolution) becomes the
// convolutions' own padding. A crop of the shuffled map starting at row y0
// is an interleave whose phase qy is the convolution's phase (y0 + qy) mod
// fy from row (y0 + qy) div fy on: its padding on top is that many rows
// less. Each phase computes ceil(H_out / fy) rows; the interleave writes
// those within the output. A bias added to every channel after the shuffle
// is each phase convolution's bias.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <array>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

/// A convolution whose only reader is a pixel shuffle, and what follows it.
struct Shuffle {
  tosa::Conv2DOp conv;
  /// The zero padding the convolution reads through (absorbed), or null.
  tosa::PadOp pad;
  /// The op whose result the interleave replaces: the last reshape, the
  /// crop or the bias add.
  Operation *last = nullptr;
  /// The bias add and its per-channel constant, or null.
  tosa::AddOp biasAdd;
  Value biasConstant;
  /// The ops between the convolution and `last`.
  SmallVector<Operation *> chain;
  int64_t fy = 1, fx = 1, channels = 0;
  /// The crop: first row and column, rows and columns (the whole map
  /// without one).
  int64_t y0 = 0, x0 = 0, rows = 0, columns = 0;
  /// [top, bottom, left, right] of the convolution with the pad absorbed.
  SmallVector<int64_t> padding;
};

/// The single user of `v` as an OpTy, or null.
template <typename OpTy>
OpTy onlyUser(Value v) {
  return v.hasOneUse() ? dyn_cast<OpTy>(*v.getUsers().begin()) : OpTy();
}

std::optional<SmallVector<int64_t>> shapeValues(Value shape) {
  SmallVector<int64_t> values;
  if (!shape.getDefiningOp() || !tosa::getConstShapeValues(shape.getDefiningOp(), values))
    return std::nullopt;
  return values;
}

/// Whether `v` is a constant all of whose bytes are zero.
bool isZeroConstant(Value v) {
  if (!isReadableConstant(v))
    return false;
  std::vector<char> bytes = readConstantBytes(v);
  return llvm::all_of(bytes, [](char c) { return c == 0; });
}

/// The shuffle reading `conv`, or nullopt when there is none (then `conv`
/// is an ordinary convolution).
std::optional<Shuffle> matchShuffle(tosa::Conv2DOp conv) {
  auto out = dyn_cast<RankedTensorType>(conv.getType());
  if (!out || !out.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> o = out.getShape();
  auto split = onlyUser<tosa::ReshapeOp>(conv.getResult());
  if (!split)
    return std::nullopt;
  ArrayRef<int64_t> s = cast<RankedTensorType>(split.getType()).getShape();
  if (s.size() != 6 || s[0] != o[0] || s[1] != o[1] || s[2] != o[2] || s[3] * s[4] * s[5] != o[3])
    return std::nullopt;
  auto transpose = onlyUser<tosa::TransposeOp>(split.getResult());
  if (!transpose || transpose.getPerms() != ArrayRef<int32_t>{0, 1, 3, 2, 4, 5})
    return std::nullopt;
  auto join = onlyUser<tosa::ReshapeOp>(transpose.getResult());
  if (!join)
    return std::nullopt;
  Shuffle m;
  m.conv = conv;
  m.fy = s[3];
  m.fx = s[4];
  m.channels = s[5];
  if (cast<RankedTensorType>(join.getType()).getShape() !=
          ArrayRef<int64_t>{o[0], o[1] * m.fy, o[2] * m.fx, m.channels} ||
      m.fy * m.fx < 2)
    return std::nullopt;
  m.chain = {split, transpose, join};
  m.last = join;
  m.rows = o[1] * m.fy;
  m.columns = o[2] * m.fx;
  if (auto slice = onlyUser<tosa::SliceOp>(join.getResult())) {
    std::optional<SmallVector<int64_t>> start = shapeValues(slice.getStart());
    ArrayRef<int64_t> size = cast<RankedTensorType>(slice.getType()).getShape();
    if (start && start->size() == 4 && (*start)[0] == 0 && (*start)[3] == 0 &&
        size[0] == o[0] && size[3] == m.channels) {
      m.chain.push_back(slice);
      m.last = slice;
      m.y0 = (*start)[1];
      m.x0 = (*start)[2];
      m.rows = size[1];
      m.columns = size[2];
    }
  }
  // A per-channel constant added to the shuffle of a bias-free convolution.
  if (auto add = onlyUser<tosa::AddOp>(m.last->getResult(0)); add && isZeroConstant(conv.getBias())) {
    Value c = add.getInput1() == m.last->getResult(0) ? add.getInput2() : add.getInput1();
    auto cType = cast<RankedTensorType>(c.getType());
    // The bias reshaped to [1, 1, 1, C]: the same bytes (ConstantFolds.cpp
    // may not have folded the reshape yet).
    while (auto r = c.getDefiningOp<tosa::ReshapeOp>())
      c = r.getInput1();
    if (add.getType() == m.last->getResult(0).getType() && cType.getRank() == 4 &&
        cType.getNumElements() == m.channels && cType.getShape().back() == m.channels &&
        cType.getElementType() == getElementTypeOrSelf(conv.getBias().getType()) &&
        isReadableConstant(c)) {
      m.biasAdd = add;
      m.biasConstant = c;
      m.chain.push_back(add);
      m.last = add;
    }
  }
  ArrayRef<int64_t> pad = conv.getPad();
  m.padding.assign(pad.begin(), pad.end());
  // Zero padding of H and W before the convolution (its pad value the
  // input's zero point, 0 for the float convolutions taken here).
  if (auto p = conv.getInput().getDefiningOp<tosa::PadOp>()) {
    std::optional<SmallVector<int64_t>> pads = shapeValues(p.getPadding());
    if (pads && pads->size() == 8 && (*pads)[0] == 0 && (*pads)[1] == 0 && (*pads)[6] == 0 &&
        (*pads)[7] == 0 && isZeroConstant(p.getPadConst())) {
      m.pad = p;
      for (int i = 0; i < 4; ++i)
        m.padding[i] += (*pads)[2 + i];
    }
  }
  return m;
}

/// The input of the phase convolutions: the pad's input when absorbed.
Value phaseInput(const Shuffle &m) {
  tosa::PadOp pad = m.pad;
  tosa::Conv2DOp conv = m.conv;
  return pad ? pad.getInput1() : conv.getInput();
}

/// ceil(a / b) for positive b.
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// One phase's convolution geometry along an axis: the convolution's phase
/// it computes and its padding before and after.
struct AxisPlan {
  int64_t phase, before, after;
};

/// Phase q of an axis with factor f, crop start z0, `count` rows of output
/// (`per` = ceil(count / f) each phase) over `in` input rows with `kernel`
/// taps, the convolution padded [before, after] with stride and dilation 1.
AxisPlan planAxis(int64_t q, int64_t f, int64_t z0, int64_t per, int64_t in, int64_t kernel,
                  int64_t before) {
  AxisPlan a;
  a.phase = (z0 + q) % f;
  // Rows of the convolution's phase before the first one this one writes.
  a.before = before - (z0 + q) / f;
  // `per` output rows: in + before + after - kernel + 1.
  a.after = per + kernel - 1 - in - a.before;
  return a;
}

/// Why `m` does not run as phase convolutions and an interleave (empty: it
/// does), with each phase's padding.
std::string whyNotShuffle(const Shuffle &m, const OffloadTarget &target,
                          SmallVector<std::array<AxisPlan, 2>> &phases) {
  tosa::Conv2DOp conv = m.conv;
  if (std::string why = whyNotConv(conv, target); !why.empty())
    return why;
  if (!isa<FloatType>(getElementTypeOrSelf(conv.getType())))
    return "an integer convolution's shuffle is not taken yet";
  if (getElementTypeOrSelf(conv.getBias().getType()) !=
      getElementTypeOrSelf(conv.getWeight().getType()))
    return "bias and weight element types differ";
  if (std::string why = target.checkOfflineSdp(); !why.empty())
    return why;
  ArrayRef<int64_t> w = cast<RankedTensorType>(conv.getWeight().getType()).getShape();
  auto in = cast<RankedTensorType>(phaseInput(m).getType());
  const bool cropped = m.pad || m.y0 || m.x0 || m.rows != m.fy * conv.getType().getDimSize(1) ||
                       m.columns != m.fx * conv.getType().getDimSize(2);
  if (cropped && (conv.getStride() != ArrayRef<int64_t>{1, 1} ||
                  conv.getDilation() != ArrayRef<int64_t>{1, 1}))
    return "a cropped shuffle of a strided or dilated convolution is not taken";
  const int64_t perRow = ceilDiv(m.rows, m.fy);
  const int64_t perColumn = ceilDiv(m.columns, m.fx);
  for (int64_t qy = 0; qy < m.fy; ++qy)
    for (int64_t qx = 0; qx < m.fx; ++qx) {
      std::array<AxisPlan, 2> p = {AxisPlan{qy, m.padding[0], m.padding[1]},
                                   AxisPlan{qx, m.padding[2], m.padding[3]}};
      if (cropped) {
        p[0] = planAxis(qy, m.fy, m.y0, perRow, in.getDimSize(1), w[1], m.padding[0]);
        p[1] = planAxis(qx, m.fx, m.x0, perColumn, in.getDimSize(2), w[2], m.padding[2]);
      }
      if (p[0].before < 0 || p[0].after < 0 || p[1].before < 0 || p[1].after < 0)
        return "phase (" + std::to_string(qy) + ", " + std::to_string(qx) +
               ") of its pixel shuffle would crop the convolution's input";
      const int64_t kernel[2] = {w[1], w[2]};
      const int64_t pads[4] = {p[0].before, p[0].after, p[1].before, p[1].after};
      if (std::string why = whyNotConvWindow(kernel, conv.getStride(), pads, conv.getDilation());
          !why.empty())
        return "phase (" + std::to_string(qy) + ", " + std::to_string(qx) + ") " + why;
      phases.push_back(p);
    }
  return "";
}

struct ShuffleToInterleave : OpRewritePattern<tosa::Conv2DOp> {
  // Before ConvToDLA takes the convolution whole.
  ShuffleToInterleave(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context, /*benefit=*/2), target(target) {}

  LogicalResult matchAndRewrite(tosa::Conv2DOp conv, PatternRewriter &rewriter) const override {
    std::optional<Shuffle> m = matchShuffle(conv);
    if (!m)
      return rewriter.notifyMatchFailure(conv, "no pixel shuffle reads it");
    SmallVector<std::array<AxisPlan, 2>> phases;
    if (std::string why = whyNotShuffle(*m, target, phases); !why.empty())
      return rewriter.notifyMatchFailure(conv, why);
    Location loc = conv.getLoc();
    auto weightType = cast<RankedTensorType>(conv.getWeight().getType());
    ArrayRef<int64_t> ohwi = weightType.getShape();
    auto biasType = cast<RankedTensorType>(conv.getBias().getType());
    auto outType = cast<RankedTensorType>(conv.getType());
    const int64_t n = outType.getDimSize(0), c = m->channels;
    const int64_t phaseWeightBytes = c * ohwi[1] * ohwi[2] * ohwi[3] * byteWidth(weightType);
    const int64_t biasBytes = c * byteWidth(biasType);
    std::vector<char> weight = readConstantBytes(conv.getWeight());
    // The add's constant is every phase's bias; else the convolution's,
    // sliced by phase (one element: broadcast).
    std::vector<char> bias = readConstantBytes(m->biasAdd ? m->biasConstant : conv.getBias());
    const bool broadcast = !m->biasAdd && biasType.getNumElements() == 1;
    Type element = target.getElementType(rewriter.getContext());
    auto phaseType = RankedTensorType::get(
        {n, ceilDiv(m->rows, m->fy), ceilDiv(m->columns, m->fx), c},
        outType.getElementType());
    SmallVector<Value> inputs;
    for (const std::array<AxisPlan, 2> &p : phases) {
      const int64_t source = p[0].phase * m->fx + p[1].phase;
      auto wType = RankedTensorType::get({c, ohwi[1], ohwi[2], ohwi[3]},
                                         weightType.getElementType());
      Value w = tosa::ConstOp::create(
          rewriter, loc, wType,
          DenseElementsAttr::getFromRawBuffer(
              wType, ArrayRef<char>(weight).slice(source * phaseWeightBytes, phaseWeightBytes)));
      auto bType = RankedTensorType::get({broadcast ? 1 : c}, biasType.getElementType());
      ArrayRef<char> b(bias);
      if (!broadcast && !m->biasAdd)
        b = b.slice(source * biasBytes, biasBytes);
      Value bv = tosa::ConstOp::create(rewriter, loc, bType,
                                       DenseElementsAttr::getFromRawBuffer(bType, b));
      Value phase = tosa::Conv2DOp::create(
          rewriter, loc, phaseType, phaseInput(*m), w, bv, conv.getInputZp(), conv.getWeightZp(),
          ArrayRef<int64_t>{p[0].before, p[0].after, p[1].before, p[1].after}, conv.getStride(),
          conv.getDilation(), conv.getAccType());
      inputs.push_back(toLayerInput(rewriter, loc, phase, element));
    }
    auto lastType = cast<RankedTensorType>(m->last->getResult(0).getType());
    Value interleave = InterleaveOp::create(
        rewriter, loc, RankedTensorType::get(toNchwShape(lastType.getShape()), element), inputs,
        rewriter.getDenseI64ArrayAttr({m->fy, m->fx}), PipelinePrecisionAttr());
    rewriter.replaceOp(m->last, toTosaResult(rewriter, loc, interleave, lastType));
    // The shuffle, the convolution and the absorbed pad, now unread.
    for (Operation *op : llvm::reverse(m->chain))
      if (op != m->last && op->use_empty())
        rewriter.eraseOp(op);
    rewriter.eraseOp(conv);
    if (m->pad && m->pad->use_empty())
      rewriter.eraseOp(m->pad);
    return success();
  }

  OffloadTarget target;
};

} // namespace

void tosa_to_dla::populatePixelShufflePatterns(RewritePatternSet &patterns,
                                               const OffloadTarget &target) {
  patterns.add<ShuffleToInterleave>(patterns.getContext(), target);
}
