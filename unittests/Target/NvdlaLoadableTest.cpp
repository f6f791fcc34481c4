//===- NvdlaLoadableTest.cpp - The loadable writer on hand-made descriptors ===//
//
// Independent of describeNetwork: descriptors written here by hand for a
// planned function, so the serializer's own decisions are checked: NVIDIA's
// struct sizes per firmware, the dependency graph's rules on a chain, each
// refusal of a descriptor extension (its message pinned), the missing-tree
// message, and the bytes accepted by flatbuffers' verifier with the code
// flatc generated from NVIDIA's schema.
//
//===----------------------------------------------------------------------===//

#include "DependencyGraph.h"
#include "EmulatorDescriptors.h"
#include "LoadableContents.h"
#include "LoadableWriter.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#ifdef DLA_HAVE_LOADABLE_SCHEMA
#include "loadable_generated.h"
#endif

#include <gtest/gtest.h>

#include <cstring>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::loadable;
using namespace mlir::dla::regplan;

namespace {
const char *kTwoSdps = R"mlir(
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @f(%x: tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>> {
  %a = dla.sdp offline %x bs <alu = sum, alu_operand = 1> : tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>
  %y = dla.sdp offline %a bs <alu = sum, alu_operand = 1> : tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x16x4x5xi8, #dla.feature<int8, config = nv_small>>
}
}
)mlir";

struct Fixture : ::testing::Test {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<ProgramArgument> args;
  FailureOr<NetworkPlan> plan = failure();
  std::string diagnostics;

  void SetUp() override {
    context.loadDialect<func::FuncDialect, arith::ArithDialect, DLADialect>();
    context.getDiagEngine().registerHandler([&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(kTwoSdps, &context);
    ASSERT_TRUE(module);
    auto func = getProgramFunction(*module);
    ASSERT_TRUE(succeeded(func));
    auto prepared = prepareProgramFunction(*func);
    ASSERT_TRUE(succeeded(prepared));
    args = *prepared;
    plan = planNetwork(*func, 0);
    ASSERT_TRUE(succeeded(plan));
  }

  /// An identity SDP from surface `src` to surface `dst` (16x4x5 int8 on
  /// nv_small: lines of 5 8-byte atoms, surfaces of 4 lines).
  static DescOp identity(int src, int dst) {
    DescOp op;
    op.type = DescOpType::Sdp;
    for (auto [cube, s] : {std::pair{&op.sdp.src_data, src}, std::pair{&op.sdp.dst_data, dst}}) {
      *cube = DescDataCube{DescMemType::Mc, s, 0, 320, 5, 4, 16, 40, 160, 0};
    }
    op.sdp.out_cvt = {1, 0, 1, 0};
    return op;
  }

  NetworkDescs twoIdentities() {
    NetworkDescs d;
    d.layers.resize(2);
    d.layers[0].ops.push_back(identity(0, 1));
    d.layers[1].ops.push_back(identity(1, 2));
    return d;
  }
};
} // namespace

// NVIDIA's structs as each firmware lays them out: c906fc6's dla_data_cube
// has no `offset`; the surface container keeps its size (its largest
// member is the BDMA's 20 transfers), the cubes inside it move.
TEST(FirmwareLayout, TheTwoFirmwares) {
  std::string why;
  const FirmwareLayout *head = getFirmwareLayout(true, why);
  const FirmwareLayout *old = getFirmwareLayout(false, why);
  if (!head)
    GTEST_SKIP() << why;
  EXPECT_STREQ(head->name, "head");
  EXPECT_STREQ(old->name, "c906fc6");
  EXPECT_TRUE(head->cubeHasOffset);
  EXPECT_FALSE(old->cubeHasOffset);
  EXPECT_EQ((std::array<uint8_t, 3>{0, 12, 5}), head->version);
  EXPECT_EQ((std::array<uint8_t, 3>{0, 11, 0}), old->version);
  EXPECT_EQ(head->networkDescBytes, 40u);
  EXPECT_EQ(head->commonOpDescBytes, 36u);
  EXPECT_EQ(head->operationContainerBytes, old->operationContainerBytes);
  // NVIDIA's 2018 loadables (CONV_D_L0_0): 116-byte operations, 644-byte
  // surfaces; the operation list of NN_L0_0 (11 operations) 1276 bytes.
  EXPECT_EQ(old->operationContainerBytes, 116u);
  EXPECT_EQ(old->surfaceContainerBytes, 644u);
  EXPECT_EQ(head->surfaceContainerBytes, 644u);
  EXPECT_EQ(head->lutParamBytes, old->lutParamBytes);
}

// NVIDIA's emulator structs (emu_interface.h): the network descriptor
// aligned to 256 bytes; an op container the power op (a 12-byte common
// part, three floats); a buffer container two 256-aligned buffer
// descriptors. The blobs' version is emu_version.h's.
TEST(EmulatorLayout, NvidiasStructs) {
  std::string why;
  if (!getFirmwareLayout(true, why))
    GTEST_SKIP() << why;
  const EmulatorLayout &emu = emulatorLayout();
  EXPECT_EQ((std::array<uint8_t, 3>{0, 0, 1}), emu.version);
  EXPECT_EQ(emu.maxAddresses, 6144u);
  EXPECT_EQ(emu.networkDescBytes, 256u);
  EXPECT_EQ(emu.operationContainerBytes, 24u);
  EXPECT_EQ(emu.bufferContainerBytes, 512u);
}

// A softmax's blobs: the op's fields where Emulator.cpp reads them, a
// dimension beyond 16 bits refused with its field's name.
TEST(EmulatorLayout, SoftmaxBlobs) {
  std::string why;
  if (!getFirmwareLayout(true, why))
    GTEST_SKIP() << why;
  EmuOp op;
  op.kind = EmuOp::Kind::Softmax;
  op.inputScale = 0.5f;
  op.outputScale = 0.25f;
  op.src = {3, 64, 8, 8, 1, 1, 5, 8, 8};
  op.dst = {4, 0, 8, 32, 1, 1, 5, 32, 32};
  EmuBlobs blobs;
  size_t failed = 0;
  std::string error;
  ASSERT_TRUE(writeEmulatorBlobs({op, op}, blobs, failed, error)) << error;
  ASSERT_EQ(blobs.network.size(), 256u);
  int16_t opIndex, bufIndex;
  uint16_t count;
  std::memcpy(&opIndex, &blobs.network[0], 2);
  std::memcpy(&bufIndex, &blobs.network[2], 2);
  std::memcpy(&count, &blobs.network[4], 2);
  EXPECT_EQ(opIndex, 1);
  EXPECT_EQ(bufIndex, 2);
  EXPECT_EQ(count, 2);
  ASSERT_EQ(blobs.operations.size(), 48u);
  float in, out;
  std::memcpy(&in, &blobs.operations[24 + 4], 4);
  std::memcpy(&out, &blobs.operations[24 + 8], 4);
  EXPECT_EQ(blobs.operations[24], 1);  // NVDLA_EMU_OP_SOFTMAX
  EXPECT_EQ(blobs.operations[24 + 12], 1); // axis
  EXPECT_EQ(in, 0.5f);
  EXPECT_EQ(out, 0.25f);
  ASSERT_EQ(blobs.buffers.size(), 1024u);
  // src: addressIndex 3, offset 64, size 8, format INT8_8 (1), 1x1x5.
  const uint8_t *src = &blobs.buffers[512];
  int16_t index;
  uint32_t offset;
  uint16_t format, channel;
  std::memcpy(&index, src, 2);
  std::memcpy(&offset, src + 2, 4);
  std::memcpy(&format, src + 10, 2);
  std::memcpy(&channel, src + 16, 2);
  EXPECT_EQ(index, 3);
  EXPECT_EQ(offset, 64u);
  EXPECT_EQ(format, 1);
  EXPECT_EQ(channel, 5);
  // dst: 32-byte atoms, format INT8 (0).
  std::memcpy(&format, &blobs.buffers[512 + 256 + 10], 2);
  EXPECT_EQ(format, 0);

  op.dst.height = 70000;
  EXPECT_FALSE(writeEmulatorBlobs({op}, blobs, failed, error));
  EXPECT_EQ(failed, 0u);
  EXPECT_EQ(error, "emu_softmax_buffer_descs.dst_data.height = 70000 does not fit the "
                   "emulator's field (16-bit unsigned)");
}

TEST(MissingNvdlaSw, Message) {
  EXPECT_EQ(missingNvdlaSwMessage("flatc (Debian: flatbuffers-compiler)"),
            "this build writes no NVDLA loadables: it was configured without flatc (Debian: "
            "flatbuffers-compiler) (NVIDIA's nvdla/sw tree: set NVDLA_SW_DIR, and install "
            "flatbuffers-compiler and libflatbuffers-dev; scripts/setup.sh does)");
}

// The chain: the second SDP reads what the first writes (RAW) on the same
// engine: completed, not programmed.
TEST(DependencyGraph, ChainOnOneEngine) {
  DescOp a = Fixture::identity(0, 1), b = Fixture::identity(1, 2);
  std::vector<FwOp> ops(2);
  ops[0].op = &a;
  ops[1].op = &b;
  std::vector<OpAccess> access(2);
  access[0] = {{{0, 0, 320}}, {{1, 0, 320}}};
  access[1] = {{{1, 0, 320}}, {{2, 0, 320}}};
  FwNetwork network;
  EXPECT_FALSE(linkOperations(ops, {false, false}, access, network));
  EXPECT_EQ(network.opHead[2], 0);
  EXPECT_EQ(network.opHead[1], -1);
  EXPECT_EQ(ops[0].dependencyCount, 0);
  EXPECT_EQ(ops[1].dependencyCount, 1);
  EXPECT_EQ(ops[0].consumers[2].index, 1);
  EXPECT_EQ(ops[0].consumers[2].event, FwEvent::OpCompleted);
  EXPECT_EQ(ops[1].consumers[2].index, -1);
}

// Independent operations of one engine: the next waits until the one
// before is programmed (the engine's order); a convolution and the SDP it
// feeds: programmed / enabled, as NVIDIA's CONV_D_L0_0 links them; a PDP
// reading the SDP's result: completed; a later PDP overwriting the
// convolution's input (the address plan's reuse): completed.
TEST(DependencyGraph, FusedPairAndReuse) {
  DescOp conv, sdp, pdp1, pdp2;
  conv.type = DescOpType::Conv;
  sdp.type = DescOpType::Sdp;
  pdp1.type = pdp2.type = DescOpType::Pdp;
  std::vector<FwOp> ops(4);
  ops[0].op = &conv;
  ops[1].op = &sdp;
  ops[2].op = &pdp1;
  ops[3].op = &pdp2;
  std::vector<OpAccess> access(4);
  access[0] = {{{5, 0, 64}, {7, 0, 100}}, {}};  // weights, input in scratch memory 7
  access[1] = {{}, {{7, 100, 200}}};            // the SDP's result
  access[2] = {{{7, 100, 200}}, {{8, 0, 50}}};  // PDP 1 reads it
  access[3] = {{{8, 0, 50}}, {{7, 0, 50}}};     // PDP 2 overwrites the input
  FwNetwork network;
  EXPECT_FALSE(linkOperations(ops, {false, true, false, false}, access, network));
  EXPECT_EQ(network.opHead[1], 0);
  EXPECT_EQ(network.opHead[2], 1);
  EXPECT_EQ(network.opHead[3], 2);
  // conv -> sdp: programmed; sdp -> conv (fused parent): enabled.
  EXPECT_EQ(ops[0].consumers[2].index, 1);
  EXPECT_EQ(ops[0].consumers[2].event, FwEvent::OpProgrammed);
  EXPECT_EQ(ops[1].fusedParent.index, 0);
  EXPECT_EQ(ops[1].fusedParent.event, FwEvent::OpEnabled);
  EXPECT_EQ(ops[0].dependencyCount, 1);
  // conv -> pdp1 completed (pdp2, after pdp1 on the PDP, overwrites its input).
  EXPECT_EQ(ops[0].consumers[3].index, 2);
  EXPECT_EQ(ops[0].consumers[3].event, FwEvent::OpCompleted);
  // sdp -> pdp1 completed (it reads the SDP's result).
  EXPECT_EQ(ops[1].consumers[3].index, 2);
  EXPECT_EQ(ops[1].consumers[3].event, FwEvent::OpCompleted);
  EXPECT_EQ(ops[1].dependencyCount, 1);
  EXPECT_EQ(ops[2].dependencyCount, 2);
  // pdp1 -> pdp2 completed (pdp2 reads pdp1's result).
  EXPECT_EQ(ops[2].consumers[3].index, 3);
  EXPECT_EQ(ops[2].consumers[3].event, FwEvent::OpCompleted);
  EXPECT_EQ(ops[3].dependencyCount, 1);
}

TEST_F(Fixture, WritesAVerifiedLoadable) {
  for (NvdlaFirmware fw : {NvdlaFirmware::Head, NvdlaFirmware::C906fc6}) {
    std::string why;
    if (!getFirmwareLayout(true, why))
      GTEST_SKIP() << why;
    auto bytes = writeLoadable(*plan, twoIdentities(), args, {fw});
    ASSERT_TRUE(succeeded(bytes)) << diagnostics;
#ifdef DLA_HAVE_LOADABLE_SCHEMA
    namespace fb = nvdla::loadable;
    flatbuffers::Verifier verifier(bytes->data(), bytes->size());
    ASSERT_TRUE(fb::VerifyLoadableBuffer(verifier));
    const fb::Loadable *l = fb::GetLoadable(bytes->data());
    // Descriptors (4: no LUT), the input, the output, the scratch memory
    // of the intermediate result.
    ASSERT_EQ(l->memory_list()->size(), 7u);
    EXPECT_EQ(l->memory_list()->Get(4)->flags(), fb::MemoryFlags_ALLOC | fb::MemoryFlags_INPUT);
    EXPECT_EQ(l->memory_list()->Get(5)->flags(), fb::MemoryFlags_ALLOC | fb::MemoryFlags_OUTPUT);
    EXPECT_EQ(l->memory_list()->Get(6)->flags(), fb::MemoryFlags_ALLOC);
    ASSERT_EQ(l->tensor_desc_list()->size(), 2u);
    const fb::TensorDescListEntry *in = l->tensor_desc_list()->Get(0);
    EXPECT_EQ(in->name()->str(), "arg0");
    EXPECT_EQ(in->pixel_format(), fb::PixelFormat_FEATURE_X8);
    EXPECT_EQ(in->c(), 16);
    EXPECT_EQ(in->stride_1(), 40u);
    EXPECT_EQ(in->stride_2(), 160u);
    EXPECT_EQ(l->task_list()->size(), 1u);
    EXPECT_EQ(l->submit_list()->size(), 1u);
    const fb::Blob *net = l->blobs()->Get(0);
    EXPECT_EQ(net->name()->str(), "task-0-addr0");
    EXPECT_EQ(net->version()->minor(), fw == NvdlaFirmware::Head ? 12 : 11);
    EXPECT_EQ(net->data()->size(), 40u);
    // Two operations: 36-byte common descriptors.
    EXPECT_EQ(l->blobs()->Get(1)->data()->size(), 72u);
#endif
  }
}

// Each extension the firmware cannot express: a located refusal naming it.
TEST_F(Fixture, RefusesExtensions) {
  std::string why;
  struct Case {
    void (*set)(DescOp &);
    const char *message;
  } cases[] = {
      {[](DescOp &o) { o.sdp.x1_op.ext.mixedSources = true; },
       "'dla.sdp' op has an SDP stage x1_op (BS) that reads one operand from memory and the "
       "other from a register (ext.mixedSources): the firmware's dla_sdp_op takes both from "
       "the source its `mode` names"},
      {[](DescOp &o) { o.sdp.x2_op.ext.reluAfterPrelu = true; },
       "'dla.sdp' op has an SDP stage x2_op (BN) that applies a ReLU after its PReLU "
       "multiplier (ext.reluAfterPrelu): dla_sdp_op.act holds one activation"},
      {[](DescOp &o) { o.sdp.y_op.ext.preluBeforeLut = true; },
       "'dla.sdp' op has an SDP stage y_op (EW) that applies a PReLU multiplier before the "
       "lookup table (ext.preluBeforeLut): dla_sdp_op.act holds one activation"},
      {[](DescOp &o) { o.sdp.y_op.ext.dataUseBoth = true; },
       "'dla.sdp' op has an SDP stage y_op (EW) that reads both operands from one memory "
       "surface (ext.dataUseBoth): the firmware's dla_sdp_op has no field for SDP_RDMA's data "
       "use"},
      {[](DescOp &o) {
         o.type = DescOpType::Pdp;
         o.pdp.ext.recip_kernel_width = 7;
       },
       "'dla.sdp' op states the reciprocal of its window's width (7, ext.recip_kernel_width): "
       "the firmware writes its own table's reciprocal (recip_kernel_size)"},
      {[](DescOp &o) {
         o.type = DescOpType::Pdp;
         o.pdp.ext.recip_kernel_height = 9;
       },
       "'dla.sdp' op states the reciprocal of its window's height (9, "
       "ext.recip_kernel_height): the firmware writes its own table's reciprocal "
       "(recip_kernel_size)"},
      {[](DescOp &o) {
         o.type = DescOpType::Conv;
         o.conv.ext.pixel_x_offset = 3;
       },
       "'dla.sdp' op reads its image from x offset 3 (CDMA_D_PIXEL_OFFSET, "
       "ext.pixel_x_offset): dla_conv_op_desc has no field for it, the firmware leaves the "
       "register 0"},
      {[](DescOp &o) {
         o.type = DescOpType::Pdp;
         o.pdp.stride_x = 9;
       },
       "'dla.sdp' op pools with stride 1 x 9 (height x width): NVIDIA's firmware accepts PDP "
       "strides 1 to 8 (pdp.c validate_strides) and refuses the task"},
      {[](DescOp &o) {
         o.type = DescOpType::Conv;
         o.conv.out_cvt.scale = 2;
       },
       "'dla.sdp' op converts the accumulator with scale 2 and offset 0: NVIDIA's firmware "
       "takes scale 1 and offset 0 only (conv.c) and refuses the task"},
      {[](DescOp &o) {
         o.type = DescOpType::Conv;
         o.conv.dst_data.width = o.conv.dst_data.height = 1;
         o.conv.dst_data.line_stride = 16;
       },
       "'dla.sdp' op writes a 1x1 result with line stride 16: NVIDIA's firmware packs it, it "
       "takes the atom's size (8, conv.c) and refuses the task otherwise"},
  };
  for (const Case &c : cases) {
    NetworkDescs d = twoIdentities();
    d.atom_size = 8;
    c.set(d.layers[1].ops[0]);
    diagnostics.clear();
    EXPECT_TRUE(failed(checkFirmwareExpressible(*plan, d)));
    EXPECT_EQ(diagnostics, std::string(c.message) + "\n");
  }
}

// A stage reading from memory alone (one operand, or both from one
// surface) is what the firmware's `mode` expresses: no refusal. Only the
// two sources differing is (RefusesExtensions).
TEST_F(Fixture, AcceptsStagesFromOneSource) {
  for (auto set : {+[](DescSdpStage &s) { s.ext.aluFromMemory = true; },
                   +[](DescSdpStage &s) { s.ext.mulFromMemory = true; },
                   +[](DescSdpStage &s) { s.ext.aluFromMemory = s.ext.mulFromMemory = true; }}) {
    NetworkDescs d = twoIdentities();
    d.atom_size = 8;
    set(d.layers[1].ops[0].sdp.x1_op);
    set(d.layers[1].ops[0].sdp.x2_op);
    set(d.layers[1].ops[0].sdp.y_op);
    diagnostics.clear();
    EXPECT_TRUE(succeeded(checkFirmwareExpressible(*plan, d)));
    EXPECT_EQ(diagnostics, "");
  }
}

// A value that does not fit NVIDIA's field: located, naming the struct
// and the field.
TEST_F(Fixture, RefusesValuesThatDoNotFit) {
  std::string why;
  if (!getFirmwareLayout(true, why))
    GTEST_SKIP() << why;
  NetworkDescs d = twoIdentities();
  d.layers[1].ops[0].sdp.dst_data.width = 70000;
  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, d, args, {})));
  EXPECT_EQ(diagnostics,
            "cannot be written for the firmware (head): dla_sdp_surface_desc / dla_sdp_op_desc: "
            "dst_data.width = 70000 does not fit the firmware's field (16-bit unsigned)\n");
  d = twoIdentities();
  d.layers[0].ops[0].sdp.out_cvt.scale = -40000;
  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, d, args, {NvdlaFirmware::C906fc6})));
  EXPECT_EQ(diagnostics,
            "cannot be written for the firmware (c906fc6): dla_sdp_surface_desc / "
            "dla_sdp_op_desc: out_cvt.scale = -40000 does not fit the firmware's field (16-bit "
            "signed)\n");
}

// The writer's own consistency checks on its input, and units it has no
// descriptors for.
TEST_F(Fixture, RefusesInconsistentInput) {
  std::string why;
  if (!getFirmwareLayout(true, why))
    GTEST_SKIP() << why;
  NetworkDescs d = twoIdentities();
  d.layers.pop_back();
  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, d, args, {})));
  EXPECT_EQ(diagnostics, "the descriptors describe 1 layers, the plan has 2\n");

  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, twoIdentities(), {}, {})));
  EXPECT_EQ(diagnostics, "prepared 0 arguments, the function has 1\n");

  d = twoIdentities();
  d.layers[1].ops[0].sdp.dst_data.surface = 9;
  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, d, args, {})));
  EXPECT_EQ(diagnostics, "its descriptor names surface 9, the plan has 3\n");

  d = twoIdentities();
  d.layers[1].ops[0].type = DescOpType::Rubik;
  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, d, args, {})));
  EXPECT_EQ(diagnostics, "cannot be written for the firmware (head): an operation of a unit "
                         "the writer has no descriptors for (Rubik)\n");

  // A BDMA operation of more transfers than dla_bdma_surface_desc holds
  // (describeBdma makes operations of at most 20).
  d = twoIdentities();
  DescOp &op = d.layers[1].ops[0];
  op.type = DescOpType::Bdma;
  DescBdmaTransfer t;
  t.src = op.sdp.src_data;
  t.dst = op.sdp.dst_data;
  t.line_size = 32;
  t.line_repeat = t.surface_repeat = 1;
  t.source_line = t.destination_line = t.source_surface = t.destination_surface = 32;
  op.bdma.transfers.assign(21, t);
  diagnostics.clear();
  EXPECT_TRUE(failed(writeLoadable(*plan, d, args, {})));
  EXPECT_EQ(diagnostics, "cannot be written for the firmware (head): dla_bdma_surface_desc / "
                         "dla_bdma_op_desc: num_transfers: 21 transfers, the firmware's "
                         "descriptor holds 20\n");
}

// 256 writers of one range (an upsampling's SDP passes) before its reader:
// the SDP engine completes them in order, so only the last signals the
// reader (its dependency_count, 8 bits, counts 1, not 256); each earlier
// one leaves the reader's slot empty and links to the next SDP.
TEST(DependencyGraph, OneEngineCarriesItsCompletion) {
  DescOp sdp, pdp;
  sdp.type = DescOpType::Sdp;
  pdp.type = DescOpType::Pdp;
  std::vector<FwOp> ops(257);
  std::vector<OpAccess> access(257);
  for (size_t i = 0; i < 256; ++i) {
    ops[i].op = &sdp;
    access[i].writes = {{3, 0, 8}};
  }
  ops[256].op = &pdp;
  access[256].reads = {{3, 0, 8}};
  FwNetwork network;
  EXPECT_FALSE(linkOperations(ops, std::vector<bool>(257, false), access, network));
  const int pdpType = static_cast<int>(DescOpType::Pdp), sdpType = static_cast<int>(DescOpType::Sdp);
  EXPECT_EQ(ops[256].dependencyCount, 1);
  EXPECT_EQ(ops[255].consumers[pdpType].index, 256);
  EXPECT_EQ(ops[255].consumers[pdpType].event, FwEvent::OpCompleted);
  for (size_t i = 0; i < 255; ++i) {
    EXPECT_EQ(ops[i].consumers[pdpType].index, -1) << i;
    // The writers overwrite one another: each waits for the one before.
    EXPECT_EQ(ops[i].consumers[sdpType].index, static_cast<int16_t>(i + 1)) << i;
    EXPECT_EQ(ops[i].consumers[sdpType].event, FwEvent::OpCompleted) << i;
  }
}

// A convolution A reads what the SDP fused to the next convolution B
// overwrites: A's completion edge into that SDP stays A's (B's edge to its
// own SDP is the fused pair's programmed one, which does not wait for A).
TEST(DependencyGraph, NoCarryOntoAFusedPair) {
  DescOp a, b, sdp;
  a.type = b.type = DescOpType::Conv;
  sdp.type = DescOpType::Sdp;
  std::vector<FwOp> ops(3);
  ops[0].op = &a;
  ops[1].op = &b;
  ops[2].op = &sdp;
  std::vector<OpAccess> access(3);
  access[0] = {{{4, 0, 64}}, {}};  // A reads range R
  access[1] = {{{5, 0, 64}}, {}};  // B reads elsewhere
  access[2] = {{}, {{4, 0, 64}}};  // B's SDP overwrites R
  FwNetwork network;
  EXPECT_FALSE(linkOperations(ops, {false, false, true}, access, network));
  const int sdpType = static_cast<int>(DescOpType::Sdp);
  EXPECT_EQ(ops[0].consumers[sdpType].index, 2);
  EXPECT_EQ(ops[0].consumers[sdpType].event, FwEvent::OpCompleted);
  EXPECT_EQ(ops[1].consumers[sdpType].index, 2);
  EXPECT_EQ(ops[1].consumers[sdpType].event, FwEvent::OpProgrammed);
  EXPECT_EQ(ops[2].dependencyCount, 2);
}
