//===- DescribeSdp.cpp - dla.sdp as the firmware's SDP descriptors --------===//
//
// The op's register attributes (docs/IntegerAttributes.md section 4) as
// dla_sdp_op_desc: X1 = BS, X2 = BN, Y = EW; each stage's memory operand
// as its dla_data_cube (per kernel: one 1x1xC run in groups of the int8
// SDP's elements per atom, from PReLU / bias data or a layer's packed
// 1xCx1x1 feature surface, NetworkPlan's bindFeatureAsPerChannel; per
// element: the operand layout's cube).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaHardware.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;

namespace {
/// The memory operand a stage (SdpXAttr, SdpYAttr) reads (the verifier
/// allows one).
template <typename Stage>
std::optional<SdpMemOperand> memOf(Stage x) {
  if (!x)
    return std::nullopt;
  return x.getAluOperand().mem ? x.getAluOperand().mem : x.getMulOperand().mem;
}

/// A stage's operands, act and shifts; its memory operand's cube into
/// `data`. `proc`: the SDP's processing precision.
template <typename Stage>
void describeStage(const NetworkPlan &plan, SdpOp op, Stage x, Precision proc, DescSdpStage &d,
                   DescDataCube &data) {
  if (!x)
    return;
  const SdpOperand alu = x.getAluOperand(), mul = x.getMulOperand();
  const bool hasAlu = x.getAlu().has_value(), hasMul = mul.isPresent();
  d.enable = 1;
  d.type = hasAlu && hasMul ? kDescSdpOpBoth
           : hasAlu         ? kDescSdpOpAdd
           : hasMul         ? kDescSdpOpMul
                            : kDescSdpOpNone;
  d.alu_type = hasAlu ? static_cast<uint8_t>(*x.getAlu()) : 0;
  d.alu_operand = static_cast<int32_t>(alu.reg.value_or(0));
  d.mul_operand = static_cast<int32_t>(mul.reg.value_or(0));
  d.ext.aluFromMemory = alu.mem.has_value();
  d.ext.mulFromMemory = mul.mem.has_value();
  d.ext.mixedSources = hasAlu && hasMul && d.ext.aluFromMemory != d.ext.mulFromMemory;
  std::optional<SdpMemOperand> m = memOf(x);
  if (!m)
    return;
  Value v = getSdpMemoryOperand(op, *m);
  const auto &layout = *static_cast<const AuxBoundLayout *>(plan.surface(v).aux.get());
  const bool perElement = layout.getConfig().mode == AuxMode::PerElement;
  const int64_t components = getComponentsPerElement(layout.getConfig());
  d.mode = perElement ? kDescSdpPerPoint : kDescSdpPerKernel;
  d.precision = layout.getStorageComponentBytes() == 2 ? kDescPrecisionInt16 : kDescPrecisionInt8;
  // A two-component surface (batch-norm, element-wise ALU + MUL) is read
  // whole, its components going to ALU and MUL.
  d.ext.dataUseBoth = components == 2 && d.type != kDescSdpOpBoth;
  data.type = DescMemType::Mc;
  data.surface = static_cast<int32_t>(plan.surfaceOf.at(v));
  data.offset = static_cast<uint64_t>(plan.surface(v).viewOffset);
  data.size = static_cast<uint64_t>(plan.placed(v).bytes) - data.offset;
  // Per channel: one 1x1xC run read in groups of the SDP's elements per
  // atom at its processing precision (32 int8, 16 fp16 on nv_full; the C
  // model checks SURFACE_STRIDE = elements per group x bytes per element on
  // a 1x1 cube); an int16 layout's shorter atoms only pad its end
  // differently.
  const int64_t elementsPerGroup =
      getHardwareConfig(layout.getConfig().hardware).caps.memoryAtomBytes /
      getBytesPerElement(proc);
  const int64_t group = elementsPerGroup * components * layout.getStorageComponentBytes();
  data.line_stride =
      static_cast<uint32_t>(perElement ? layout.getCube()->getLineStride() : group);
  data.surf_stride =
      static_cast<uint32_t>(perElement ? layout.getCube()->getSurfaceStride() : group);
}

DescCvt cvtOf(CvtAttr cvt) {
  if (!cvt)
    return DescCvt{1, 0, 0, 0};
  return DescCvt{static_cast<int32_t>(cvt.getScale()), static_cast<uint8_t>(cvt.getShift()), 1,
                 static_cast<int32_t>(cvt.getOffset())};
}

/// Fails with a diagnostic on what the SDP program does not cover;
/// `proc`: the SDP's processing precision.
LogicalResult checkProgrammable(const NetworkPlan &plan, SdpOp op, Precision proc) {
  if (!op.getBsAttr() && !op.getBnAttr() && !op.getEwAttr())
    return op.emitOpError("has no register stages (bs, bn, ew): only the stage form is "
                          "programmed");
  SdpYAttr y = op.getEwAttr();
  // In EQL mode the SDP writes no data: it sets D_STATUS when a value
  // differs (NV_NVDLA_sdp.cpp SdpDataOperationThread, which also asserts
  // the identity output converter), so no result surface holds the 0 / 1
  // values the op computes.
  if (y && y.getAlu() == SdpAluAlgo::Eql)
    return op.emitOpError("compares in ew (alu = eql): NVDLA's SDP then writes no output, it "
                          "only reports in D_STATUS whether any value differed");
  for (auto [stage, m] : {std::pair{"bs", memOf(op.getBsAttr())},
                          std::pair{"bn", memOf(op.getBnAttr())},
                          std::pair{"ew", memOf(op.getEwAttr())}}) {
    if (!m)
      continue;
    const auto *layout =
        static_cast<const AuxBoundLayout *>(plan.surface(getSdpMemoryOperand(op, *m)).aux.get());
    if (!layout)
      return op.emitOpError() << "reads " << std::string(::dlaformat::enumName(*m))
                              << " whose surface is no NVDLA operand data";
    // The DMA reads per-element data in the SDP's atoms at its processing
    // precision (8 int8 channels on nv_small, 32 on nv_full; 16 int16 on
    // nv_full): a layout of another precision groups other channels.
    const AuxConfig &c = layout->getConfig();
    // An int16 SDP groups 16 elements per atom: NVIDIA's v1 C model asserts
    // that its NRDMA and ERDMA read two-byte components (NV_NVDLA_sdp.cpp,
    // the RDMA's argument check; BRDMA's assertion is commented out, but a
    // one-byte operand of an odd number of 16-channel groups is half an
    // atom there, which it asserts against too).
    if (proc == Precision::Int16 && layout->getStorageComponentBytes() == 1)
      return op.emitOpError() << "reads " << std::string(::dlaformat::enumName(*m)) << " in "
                              << stage
                              << " as one-byte components; an int16 SDP reads two-byte ones "
                                 "(int16 data, or int8 with data_size = two_byte)";
    if (c.mode == AuxMode::PerElement && proc == Precision::Int16 &&
        c.precision != Precision::Int16)
      return op.emitOpError() << "reads " << std::string(::dlaformat::enumName(*m))
                              << " per element in " << ::dlaformat::enumName(c.precision)
                              << " atoms; an int16 SDP reads int16 atoms";
    if (c.mode == AuxMode::PerElement && proc != Precision::Int16 &&
        c.precision != Precision::Int8 && c.precision != Precision::Fp16)
      return op.emitOpError() << "reads " << std::string(::dlaformat::enumName(*m))
                              << " per element in int16 atoms; an int8 SDP reads int8 atoms "
                                 "(two-byte components: data_size = two_byte)";
  }
  return success();
}
} // namespace

LogicalResult mlir::dla::regplan::describeSdp(const NetworkPlan &plan, Operation *o, bool onTheFly,
                                            Value in, Value out, SdpDesc &d,
                                            std::vector<DescLut> &luts) {
  auto op = dyn_cast_or_null<SdpOp>(o);
  // The data's precision and the result's: int8; int16 and fp16 on
  // nv_full (NetworkPlan's featureLayout, checkFp16Layer and
  // checkInt16Layer). On the fly the data is CACC's, of the convolution's
  // pipeline (its weights' precision: an image convolution's pixels enter
  // it through CDMA's converter).
  Precision src = plan.surface(out).feature->getConfig().precision;
  if (!onTheFly)
    src = plan.surface(in).feature->getConfig().precision;
  else if (auto conv = in.getDefiningOp<ConvOp>())
    if (auto w = dyn_cast_or_null<WeightAttr>(
            cast<RankedTensorType>(conv.getWeight().getType()).getEncoding()))
      src = w.getPrecision();
  d.src_precision = describePrecision(src);
  d.dst_precision = describePrecision(plan.surface(out).feature->getConfig().precision);
  // What the SDP processes in (int8 between int16 and int8: sdp.c's
  // map_proc_precision): its operands' atoms follow it.
  const Precision proc = precisionOfDesc(sdpProcPrecision(d.dst_precision, d.src_precision));
  if (op && failed(checkProgrammable(plan, op, proc)))
    return failure();
  d.dst_data = describeCube(plan, out);
  // One input (describeConvLayer sets the batch of a convolution in batch
  // mode: each result at its batch stride; any other layer on a batch is
  // one operation per input, describeNetwork's).
  d.batch_num = 1;
  d.batch_stride = static_cast<uint32_t>(plan.surface(out).feature->getBatchStride());
  d.src_data = onTheFly ? describeCube(plan, out, DescMemType::Hw) : describeCube(plan, in);
  d.out_cvt = cvtOf(op ? op.getOutCvtAttr() : CvtAttr());
  if (!op)
    return success();
  // A 1x1 cube is read and written packed only: both C models assert its
  // surface stride is one atom (NV_NVDLA_sdp.cpp, is_1x1 in the read DMA,
  // the write DMA's dst_surface_stride); a copy's or a view's strides may
  // leave gaps.
  const int64_t atom = getHardwareConfig(plan.surface(out).feature->getConfig().hardware)
                           .caps.memoryAtomBytes;
  for (auto [cube, what] : {std::pair<const DescDataCube *, StringRef>{&d.dst_data, "writes"},
                            {&d.src_data, "reads"}})
    if (cube->type != DescMemType::Hw && cube->width == 1 && cube->height == 1 &&
        cube->surf_stride != atom)
      return op.emitOpError() << what << " a 1x1 cube with surface stride " << cube->surf_stride
                              << ": the SDP reads and writes a 1x1 cube only packed (surface "
                                 "stride one atom, "
                              << atom << " bytes)";
  describeStage(plan, op, op.getBsAttr(), proc, d.x1_op, d.x1_data);
  describeStage(plan, op, op.getBnAttr(), proc, d.x2_op, d.x2_data);
  if (SdpYAttr y = op.getEwAttr()) {
    describeStage(plan, op, y, proc, d.y_op, d.y_data);
    d.y_op.truncate = static_cast<uint8_t>(y.getTruncate());
    if (y.getPrelu())
      d.y_op.act = kDescActPrelu;
    if (LutAttr lut = y.getLut()) {
      d.y_op.ext.preluBeforeLut = y.getPrelu();
      d.y_op.act = kDescActLut;
      d.lut_index = static_cast<int16_t>(luts.size());
      luts.push_back(describeLut(getLutProgram(lut)));
    }
    // A stated converter meets a memory operand (ALU_CVT / MUL_CVT).
    if (CvtAttr c = y.getAluCvt())
      d.y_op.alu_cvt = cvtOf(c);
    if (CvtAttr c = y.getMulCvt())
      d.y_op.mul_cvt = cvtOf(c);
  }
  for (auto [x, stage] : {std::pair{op.getBsAttr(), &d.x1_op}, std::pair{op.getBnAttr(), &d.x2_op}}) {
    if (!x)
      continue;
    stage->shift_value = static_cast<uint8_t>(x.getAluShift());
    stage->truncate = static_cast<uint8_t>(x.getMulShift());
    stage->act = x.getPrelu() ? kDescActPrelu : x.getRelu() ? kDescActRelu : kDescActNone;
    stage->ext.reluAfterPrelu = x.getPrelu() && x.getRelu();
  }
  return success();
}
