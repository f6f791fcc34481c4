/*===- dla-capi-test.c - Exercises libDLACAPI.so from plain C -------------===*\
|*                                                                            *|
|* Everything through the C API of one shared library: dialect handles,       *|
|* #dla.chunked, layout queries with iota data checked against an             *|
|* independent crouton loop nest, every error path as a status message,       *|
|* parsing, printing, and pass pipelines (dla API and upstream API).          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

// RUN: dla-capi-test 2>&1 | FileCheck %s

#include "dla-c/Dialects.h"
#include "dla-c/Format.h"
#include "dla-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Transforms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAILED line %d: %s\n", __LINE__, #cond);                         \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diag, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diag, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static void printDlaDiagnostic(int severity, MlirStringRef location, MlirStringRef message,
                               void *userData) {
  (void)userData;
  printf("diagnostic %d at '%.*s': %.*s\n", severity, (int)location.length, location.data,
         (int)message.length, message.data);
}

struct Collected {
  char *text;
  size_t length;
};

static void collectText(MlirStringRef str, void *userData) {
  struct Collected *c = (struct Collected *)userData;
  c->text = (char *)realloc(c->text, c->length + str.length + 1);
  memcpy(c->text + c->length, str.data, str.length);
  c->length += str.length;
  c->text[c->length] = 0;
}

/// Prints "<label>: ok" or "<label>: error: <message>" and consumes the status.
static int report(const char *label, DlaStatus status) {
  int ok = dlaStatusIsOk(status);
  if (ok)
    printf("%s: ok\n", label);
  else
    printf("%s: error: %s\n", label, dlaStatusGetMessage(status));
  dlaStatusDestroy(status);
  return ok;
}

static MlirType parseType(MlirContext ctx, const char *text) {
  MlirType type = {NULL};
  report(text, dlaTypeParse(ctx, mlirStringRefCreateFromCString(text), &type));
  return type;
}

static void testDialect(MlirContext ctx) {
  // CHECK-LABEL: @dialect
  printf("@dialect\n");
  MlirDialectHandle handle = mlirGetDialectHandle__dla__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  // CHECK: namespace: dla
  printf("namespace: %.*s\n", (int)ns.length, ns.data);
  MlirDialect dialect = mlirContextGetOrLoadDialect(ctx, ns);
  // CHECK: loaded: 1
  printf("loaded: %d\n", !mlirDialectIsNull(dialect));
}

static void testChunkedAttr(MlirContext ctx) {
  // CHECK-LABEL: @chunked
  printf("@chunked\n");
  MlirAttribute crouton = dlaChunkedAttrGetPreset(ctx, mlirStringRefCreateFromCString("crouton"));
  // CHECK: #dla.chunked<crouton>
  mlirAttributePrint(crouton, printToStdout, NULL);
  printf("\n");
  // CHECK: is chunked: 1, is layout: 1, rank 4, preset crouton
  MlirStringRef preset = dlaChunkedAttrGetPresetName(crouton);
  printf("is chunked: %d, is layout: %d, rank %lld, preset %.*s\n", dlaAttributeIsAChunked(crouton),
         dlaAttributeIsALayoutEncoding(crouton), (long long)dlaChunkedAttrGetRank(crouton),
         (int)preset.length, preset.data);
  // CHECK: pairs: (0,0) (1,0) (2,0) (3,0) (1,8) (2,8) (3,32)
  printf("pairs:");
  for (intptr_t i = 0; i < dlaChunkedAttrGetNumPairs(crouton); ++i)
    printf(" (%lld,%lld)", (long long)dlaChunkedAttrGetDim(crouton, i),
           (long long)dlaChunkedAttrGetSize(crouton, i));
  printf("\n");

  // The same pairs spelled out are the same (uniqued) attribute.
  int64_t dims[] = {0, 1, 2, 3, 1, 2, 3};
  int64_t sizes[] = {0, 0, 0, 0, 8, 8, 32};
  MlirAttribute explicitCrouton = dlaChunkedAttrGet(ctx, 7, dims, sizes);
  // CHECK: explicit == preset: 1
  printf("explicit == preset: %d\n", mlirAttributeEqual(explicitCrouton, crouton));

  int64_t dims2[] = {0, 1, 0};
  int64_t sizes2[] = {0, 0, 4};
  MlirAttribute custom = dlaChunkedAttrGet(ctx, 3, dims2, sizes2);
  // CHECK: #dla.chunked<[(0, 0), (1, 0), (0, 4)]> preset ''
  mlirAttributePrint(custom, printToStdout, NULL);
  MlirStringRef none = dlaChunkedAttrGetPresetName(custom);
  printf(" preset '%.*s'\n", (int)none.length, none.data);

  // Invalid pairs: a null attribute and a diagnostic on the context.
  int64_t badDims[] = {0, 1};
  int64_t badSizes[] = {0, 4};
  // CHECK: diagnostic: invalid chunked layout: {{.+}}
  // CHECK: invalid -> null: 1
  printf("invalid -> null: %d\n", mlirAttributeIsNull(dlaChunkedAttrGet(ctx, 2, badDims, badSizes)));
  // A dimension of INT64_MAX: its implied rank (dimension + 1) is reported,
  // not wrapped, by the attribute and by the MLIR-free validator alike.
  int64_t hugeDims[] = {0, 1, INT64_MAX};
  int64_t hugeSizes[] = {0, 0, 2};
  // CHECK: diagnostic: invalid chunked layout: pair #2 (9223372036854775807, 2): dimension 9223372036854775807 leaves no room for the rank (dimension + 1 overflows a 64-bit integer)
  // CHECK: huge dim -> null: 1
  printf("huge dim -> null: %d\n", mlirAttributeIsNull(dlaChunkedAttrGet(ctx, 3, hugeDims, hugeSizes)));
  // CHECK: validate huge dim: error: invalid chunked layout: pair #2 (9223372036854775807, 2): dimension 9223372036854775807 leaves no room for the rank
  report("validate huge dim", dlaChunkedValidate(3, hugeDims, hugeSizes));
  // CHECK: diagnostic: unknown chunked layout preset 'croutonx'
  // CHECK: unknown preset -> null: 1
  printf("unknown preset -> null: %d\n",
         mlirAttributeIsNull(dlaChunkedAttrGetPreset(ctx, mlirStringRefCreateFromCString("croutonx"))));
  // Accessors on a foreign attribute do not crash.
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  // CHECK: foreign: 0 0 -1 -1
  printf("foreign: %d %lld %lld %lld\n", dlaAttributeIsAChunked(unit),
         (long long)dlaChunkedAttrGetNumPairs(unit), (long long)dlaChunkedAttrGetDim(unit, 0),
         (long long)dlaChunkedAttrGetRank(unit));
}

/// The crouton order of a 1xHxWxC tensor of bytes, written independently of
/// the library: padded to 1 x ceil8(H) x ceil8(W) x ceil32(C), storage is
/// [h/8][w/8][c/32][h%8][w%8][c%32].
static void croutonReference(int64_t H, int64_t W, int64_t C, const unsigned char *logical,
                             unsigned char *storage, int64_t storageBytes) {
  int64_t HB = (H + 7) / 8, WB = (W + 7) / 8, CB = (C + 31) / 32;
  memset(storage, 0, (size_t)storageBytes);
  int64_t o = 0;
  for (int64_t hb = 0; hb < HB; ++hb)
    for (int64_t wb = 0; wb < WB; ++wb)
      for (int64_t cb = 0; cb < CB; ++cb)
        for (int64_t hi = 0; hi < 8; ++hi)
          for (int64_t wi = 0; wi < 8; ++wi)
            for (int64_t ci = 0; ci < 32; ++ci, ++o) {
              int64_t h = hb * 8 + hi, w = wb * 8 + wi, c = cb * 32 + ci;
              if (h < H && w < W && c < C)
                storage[o] = logical[(h * W + w) * C + c];
            }
}

static void testLayoutQueries(MlirContext ctx) {
  // CHECK-LABEL: @layout
  printf("@layout\n");
  // CHECK: tensor<1x3x5x30xi8, #dla.chunked<crouton>>: ok
  MlirType type = parseType(ctx, "tensor<1x3x5x30xi8, #dla.chunked<crouton>>");
  int64_t bytes = 0;
  report("storage bytes", dlaTypeGetStorageBytes(type, &bytes));
  // CHECK: storage bytes: ok
  // CHECK: 2048
  printf("%lld\n", (long long)bytes);

  int64_t idx[][4] = {{0, 0, 0, 0}, {0, 0, 1, 0}, {0, 1, 0, 0}, {0, 2, 4, 29}};
  // CHECK: offset (0,0,0,0) = 0
  // CHECK: offset (0,0,1,0) = 32
  // CHECK: offset (0,1,0,0) = 256
  // CHECK: offset (0,2,4,29) = 669
  for (int i = 0; i < 4; ++i) {
    int64_t off = -1;
    DlaStatus s = dlaTypeGetByteOffset(type, 4, idx[i], &off);
    EXPECT(dlaStatusIsOk(s));
    dlaStatusDestroy(s);
    printf("offset (%lld,%lld,%lld,%lld) = %lld\n", (long long)idx[i][0], (long long)idx[i][1],
           (long long)idx[i][2], (long long)idx[i][3], (long long)off);
  }

  // Iota data, packed by the library and by the loop nest above.
  unsigned char logical[450], back[450], storage[2048], expected[2048];
  for (int i = 0; i < 450; ++i)
    logical[i] = (unsigned char)(i % 251);
  croutonReference(3, 5, 30, logical, expected, 2048);
  memset(storage, 0xAB, sizeof(storage));
  // CHECK: pack: ok
  report("pack", dlaTypePack(type, logical, sizeof(logical), storage, sizeof(storage)));
  // CHECK: pack == reference: 1
  printf("pack == reference: %d\n", memcmp(storage, expected, sizeof(storage)) == 0);
  // CHECK: storage[28..35]: 28 29 0 0 30 31 32 33
  printf("storage[28..35]:");
  for (int i = 28; i < 36; ++i)
    printf(" %d", storage[i]);
  printf("\n");
  // CHECK: unpack: ok
  report("unpack", dlaTypeUnpack(type, storage, sizeof(storage), back, sizeof(back)));
  // CHECK: round trip: 1
  printf("round trip: %d\n", memcmp(logical, back, sizeof(back)) == 0);

  // A bound layout answers repeated questions without re-binding.
  DlaBoundLayout bound = {NULL};
  // CHECK: bind: ok
  report("bind", dlaTypeBindLayout(type, &bound));
  // CHECK: bound: rank 4, shape 1x3x5x30, element 1 B, 450 elements, 2048 B
  printf("bound: rank %lld, shape %lldx%lldx%lldx%lld, element %lld B, %lld elements, %lld B\n",
         (long long)dlaBoundLayoutGetRank(bound), (long long)dlaBoundLayoutGetDimSize(bound, 0),
         (long long)dlaBoundLayoutGetDimSize(bound, 1), (long long)dlaBoundLayoutGetDimSize(bound, 2),
         (long long)dlaBoundLayoutGetDimSize(bound, 3), (long long)dlaBoundLayoutGetElementBytes(bound),
         (long long)dlaBoundLayoutGetNumElements(bound), (long long)dlaBoundLayoutGetStorageBytes(bound));
  bool isPadding = true;
  int64_t where[4] = {-1, -1, -1, -1}, byteInElement = -1;
  report("locate 669", dlaBoundLayoutLocate(bound, 669, &isPadding, where, &byteInElement));
  // CHECK: locate 669: ok
  // CHECK: padding 0, index (0,2,4,29), byte 0
  printf("padding %d, index (%lld,%lld,%lld,%lld), byte %lld\n", isPadding, (long long)where[0],
         (long long)where[1], (long long)where[2], (long long)where[3], (long long)byteInElement);
  report("locate 30", dlaBoundLayoutLocate(bound, 30, &isPadding, where, &byteInElement));
  // CHECK: locate 30: ok
  // CHECK: padding 1
  printf("padding %d\n", isPadding);
  // The storage description: one 2048-byte buffer, cache-line aligned (no
  // table for HTP layouts), one view whose innermost digit is the 32
  // contiguous channels of a crouton chunk (stride 1, logical dim 3).
  DlaStorageDescription desc = dlaBoundLayoutDescribeStorage(bound);
  const char *bufName = NULL;
  int64_t bufBytes = 0, bufAlign = 0;
  // CHECK: buffer: ok
  report("buffer", dlaStorageDescriptionGetBuffer(desc, 0, &bufName, &bufBytes, &bufAlign));
  // CHECK: buffers 1: storage 2048 B aligned 64, views 1
  printf("buffers %lld: %s %lld B aligned %lld, views %lld\n",
         (long long)dlaStorageDescriptionGetNumBuffers(desc), bufName, (long long)bufBytes,
         (long long)bufAlign, (long long)dlaStorageDescriptionGetNumViews(desc));
  intptr_t viewBuffer = -1, viewDims = 0;
  int64_t viewElementBytes = 0, viewOffset = -1;
  // CHECK: view: ok
  report("view", dlaStorageDescriptionGetView(desc, 0, &bufName, &viewBuffer, &viewElementBytes,
                                              &viewOffset, &viewDims));
  int64_t extent = 0, stride = 0, logicalDim = 0, weight = 0;
  dlaStorageDescriptionGetViewDim(desc, 0, viewDims - 1, &extent, &stride, &logicalDim, &weight);
  // CHECK: innermost: extent 32 stride 1 logical dim 3 weight 1
  printf("innermost: extent %lld stride %lld logical dim %lld weight %lld\n", (long long)extent,
         (long long)stride, (long long)logicalDim, (long long)weight);
  // CHECK: no view 5: error: no view 5
  report("no view 5", dlaStorageDescriptionGetView(desc, 5, NULL, NULL, NULL, NULL, NULL));
  dlaStorageDescriptionDestroy(desc);
  dlaBoundLayoutDestroy(bound);

  // Element types wider than a byte: f16 takes 2 bytes per element.
  // CHECK: tensor<1x3x5x30xf16, #dla.chunked<crouton>>: ok
  MlirType f16 = parseType(ctx, "tensor<1x3x5x30xf16, #dla.chunked<crouton>>");
  report("f16 storage bytes", dlaTypeGetStorageBytes(f16, &bytes));
  // CHECK: f16 storage bytes: ok
  // CHECK: 4096
  printf("%lld\n", (long long)bytes);

  // No encoding: row-major.
  // CHECK: tensor<2x3xf32>: ok
  MlirType plain = parseType(ctx, "tensor<2x3xf32>");
  int64_t off = -1;
  report("row-major offset", dlaTypeGetByteOffset(plain, 2, (int64_t[]){1, 2}, &off));
  // CHECK: row-major offset: ok
  // CHECK: 20
  printf("%lld\n", (long long)off);
}

static void testLayoutErrors(MlirContext ctx) {
  // CHECK-LABEL: @layout-errors
  printf("@layout-errors\n");
  MlirType type = parseType(ctx, "tensor<1x3x5x30xi8, #dla.chunked<crouton>>");
  int64_t off = -1;
  // CHECK: out of bounds: error: {{.*}}out of bounds{{.*}}
  report("out of bounds", dlaTypeGetByteOffset(type, 4, (int64_t[]){0, 3, 0, 0}, &off));
  // CHECK: wrong rank: error: {{.+}}
  report("wrong rank", dlaTypeGetByteOffset(type, 2, (int64_t[]){0, 0}, &off));
  // CHECK: untouched: -1
  printf("untouched: %lld\n", (long long)off);
  unsigned char small[10], storage[2048];
  // CHECK: short logical buffer: error: logical buffer holds 10 bytes, but 1x3x5x30 elements of 1 bytes need 450
  report("short logical buffer", dlaTypePack(type, small, sizeof(small), storage, sizeof(storage)));
  // CHECK: short storage buffer: error: storage buffer holds 10 bytes, but the layout's storage is 2048 bytes
  report("short storage buffer", dlaTypeUnpack(type, small, sizeof(small), storage, 450));

  // CHECK: not a tensor: error: expected a ranked tensor type, got i32
  report("not a tensor", dlaTypeGetStorageBytes(mlirIntegerTypeGet(ctx, 32), &off));
  // CHECK: tensor<?x4xi8>: ok
  // CHECK: dynamic: error: tensor<?x4xi8> has a dynamic shape
  report("dynamic", dlaTypeGetStorageBytes(parseType(ctx, "tensor<?x4xi8>"), &off));
  // CHECK: tensor<4xindex>: ok
  // CHECK: index elements: error: element type 'index' has no storage width
  report("index elements", dlaTypeGetStorageBytes(parseType(ctx, "tensor<4xindex>"), &off));
  // A foreign encoding is not a layout.
  // CHECK: tensor<4xi8, "foo">: ok
  // CHECK: foreign encoding: error: encoding "foo" is not a DLA layout encoding
  report("foreign encoding", dlaTypeGetStorageBytes(parseType(ctx, "tensor<4xi8, \"foo\">"), &off));
  // A type that does not verify never exists: the parse fails with the
  // verifier's message.
  // CHECK: tensor<1x3x5xi8, #dla.chunked<crouton>>: error: {{.*}}has rank 4 but the tensor has rank 3
  parseType(ctx, "tensor<1x3x5xi8, #dla.chunked<crouton>>");
  // CHECK: null type: error: null type
  report("null type", dlaTypeGetStorageBytes((MlirType){NULL}, &off));
}

static void testFormatOnly(void) {
  // CHECK-LABEL: @format
  printf("@format\n");
  // CHECK: presets: flat nchw depth32 crouton crouton4x1 crouton2x2 crouton2 conv_weight
  printf("presets:");
  for (intptr_t i = 0; i < dlaChunkedGetNumPresets(); ++i)
    printf(" %s", dlaChunkedGetPresetName(i));
  printf("\n");
  intptr_t n = 0;
  int64_t dims[16], sizes[16];
  // CHECK: crouton pairs: ok
  report("crouton pairs", dlaChunkedGetPresetPairs("crouton", 16, dims, sizes, &n));
  DlaBoundLayout bound = {NULL};
  // CHECK: bind crouton: ok
  report("bind crouton",
         dlaChunkedBind(n, dims, sizes, 4, (int64_t[]){1, 3, 5, 30}, 1, &bound));
  // CHECK: 2048 bytes
  printf("%lld bytes\n", (long long)dlaBoundLayoutGetStorageBytes(bound));
  int64_t off = -1;
  report("offset", dlaBoundLayoutGetByteOffset(bound, 4, (int64_t[]){0, 0, 1, 0}, &off));
  // CHECK: offset: ok
  // CHECK: 32
  printf("%lld\n", (long long)off);
  // CHECK: locate past the end: error: {{.+}}
  report("locate past the end", dlaBoundLayoutLocate(bound, 2048, NULL, NULL, NULL));
  dlaBoundLayoutDestroy(bound);
  // CHECK: unknown preset: error: unknown chunked layout preset 'nhwc'; expected one of flat, nchw, depth32, crouton, crouton4x1, crouton2x2, crouton2, conv_weight
  report("unknown preset", dlaChunkedGetPresetPairs("nhwc", 16, dims, sizes, &n));
  // CHECK: two rest pairs: error: invalid chunked layout: {{.+}}
  report("two rest pairs", dlaChunkedValidate(3, (int64_t[]){0, 1, 0}, (int64_t[]){0, 0, 0}));
  // CHECK: rank mismatch: error: {{.+}}
  report("rank mismatch",
         dlaChunkedBind(n, dims, sizes, 3, (int64_t[]){3, 5, 30}, 1, &bound));
  // CHECK: null handle: error: null DlaBoundLayout
  report("null handle", dlaBoundLayoutGetByteOffset((DlaBoundLayout){NULL}, 0, NULL, &off));
}

static const char *kModule =
    "func.func @f() -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>> {\n"
    "  %c = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi8>\n"
    "  %p = dla.relayout %c : tensor<2x3xi8> -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>\n"
    "  return %p : tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>\n"
    "}\n";

static MlirModule parseModule(MlirContext ctx, const char *text) {
  MlirModule module = {NULL};
  report("parse", dlaModuleParse(ctx, mlirStringRefCreateFromCString(text), &module));
  return module;
}

static void testPipelines(MlirContext ctx) {
  // CHECK-LABEL: @pipelines
  printf("@pipelines\n");
  mlirRegisterDLAPasses();
  mlirRegisterTransformsPasses();

  // CHECK: parse: ok
  MlirModule module = parseModule(ctx, kModule);
  // CHECK: pack-weights: ok
  report("pack-weights", dlaRunPassPipeline(mlirModuleGetOperation(module),
                                            mlirStringRefCreateFromCString(
                                                "builtin.module(dla-pack-weights)")));
  // (0,0),(1,0),(0,4) stores column j's 4 rows together: 0 3 _ _ 1 4 _ _ 2 5 _ _.
  // CHECK: arith.constant dense_resource<dla_packed> : tensor<2x3xi8, #dla.chunked<[(0, 0), (1, 0), (0, 4)]>>
  // CHECK-NOT: dla.relayout
  // CHECK: dla_packed: "0x40000000000300000104000002050000"
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);

  // The same through the upstream C API: a pass manager, a created pass and
  // a textual pipeline.
  // CHECK: parse: ok
  module = parseModule(ctx, kModule);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, mlirCreateDLADLAPackWeights());
  MlirLogicalResult parsed = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString("canonicalize"),
      printToStdout, NULL);
  // CHECK: upstream pipeline: any(dla-pack-weights{max-bytes={{[0-9]+}}},canonicalize{{.*}})
  printf("upstream pipeline: ");
  mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), printToStdout, NULL);
  printf("\n");
  // CHECK: upstream run: 1 1
  printf("upstream run: %d %d\n", mlirLogicalResultIsSuccess(parsed),
         mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))));
  // Resource names are unique per context: the first module's blob is
  // still alive, so this one is dla_packed_1.
  // CHECK: dense_resource<dla_packed_1>
  // CHECK-NOT: dla.relayout
  // CHECK: dla_packed_1: "0x40000000000300000104000002050000"
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);

  // Errors come back as messages.
  // CHECK: bad pipeline: error: invalid pass pipeline 'builtin.module(no-such-pass)': {{.*}}no-such-pass
  report("bad pipeline", dlaRunPassPipeline(mlirModuleGetOperation(module),
                                            mlirStringRefCreateFromCString(
                                                "builtin.module(no-such-pass)")));
  // CHECK: wrong anchor: error: pass pipeline 'func.func(canonicalize)' failed: {{.+}}
  report("wrong anchor", dlaRunPassPipeline(mlirModuleGetOperation(module),
                                            mlirStringRefCreateFromCString(
                                                "func.func(canonicalize)")));
  mlirModuleDestroy(module);

  // CHECK: parse: ok
  module = parseModule(ctx, kModule);
  // CHECK: too big: error: pass pipeline 'builtin.module(dla-pack-weights{max-bytes=4})' failed: <input>:3:8: {{.+}}
  report("too big", dlaRunPassPipeline(mlirModuleGetOperation(module),
                                       mlirStringRefCreateFromCString(
                                           "builtin.module(dla-pack-weights{max-bytes=4})")));
  mlirModuleDestroy(module);

  // Every diagnostic to a callback, the status capped to one line.
  // CHECK: parse: ok
  module = parseModule(ctx, kModule);
  // CHECK: diagnostic 0 at '<input>:3:8': {{.+}}
  // CHECK: capped: error: pass pipeline 'builtin.module(dla-pack-weights{max-bytes=4})' failed: <input>:3:8: {{[^\n]+}}
  // CHECK-NEXT: ({{[0-9]+}} more diagnostics)
  report("capped", dlaRunPassPipelineWithDiagnostics(
                       mlirModuleGetOperation(module),
                       mlirStringRefCreateFromCString("builtin.module(dla-pack-weights{max-bytes=4})"),
                       printDlaDiagnostic, NULL, /*printOps=*/true, /*maxErrorLines=*/1));
  mlirModuleDestroy(module);

  // CHECK: registered: dla-pack-weights 1, canonicalize 1
  struct Collected collected = {0};
  dlaPrintRegisteredPasses(collectText, &collected);
  printf("registered: dla-pack-weights %d, canonicalize %d\n",
         collected.text && strstr(collected.text, "\n  --dla-pack-weights ") != NULL,
         collected.text && strstr(collected.text, "\n  --canonicalize ") != NULL);
  free(collected.text);

  // CHECK: parse: error: <input>:1:10: {{.+}}
  module = parseModule(ctx, "func.func(");
  // CHECK: null module: 1
  printf("null module: %d\n", mlirModuleIsNull(module));
}

/// A layer on its storage: dla.on_storage is isolated from above and
/// dla.yield is its terminator, for the verifier of libMLIR.so too. Before,
/// libDLACAPI.so held its own copies of the op trait TypeIDs (hidden by the
/// upstream C API archives linked into it), registered under another
/// compiler's spelling of the trait names: "block with no terminator".
static const char *kOnStorage =
    "func.func @conv(%x: memref<2048xi8>, %w: memref<4608xi8>, %y: memref<2048xi8>) {\n"
    "  dla.on_storage ins(%x, %w : memref<2048xi8>, memref<4608xi8>) outs(%y : memref<2048xi8>) {\n"
    "  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>,\n"
    "       %b: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>):\n"
    "    %c = dla.conv direct %a, %b pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>,\n"
    "        tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>\n"
    "    dla.yield %c : tensor<1x16x8x8xf16, #dla.feature<fp16>>\n"
    "  }\n"
    "  return\n"
    "}\n";

/// The same layer in tensor form, lowered to LLVM as dla-run-onnx lowers a
/// compiled model: its conv runs on storage, inside a dla.on_storage.
static const char *kEncodedConv =
    "func.func @conv(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>,\n"
    "                %b: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>)\n"
    "    -> tensor<1x16x8x8xf16, #dla.feature<fp16>> {\n"
    "  %c = dla.conv direct %a, %b pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>,\n"
    "      tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>\n"
    "  return %c : tensor<1x16x8x8xf16, #dla.feature<fp16>>\n"
    "}\n";

static void testOnStorage(MlirContext ctx) {
  // CHECK-LABEL: @on-storage
  printf("@on-storage\n");
  // Everything dla-opt has: the lowering needs upstream dialects and passes.
  dlaContextRegisterDialects(ctx);
  dlaRegisterAllPasses();
  // CHECK: parse: ok
  MlirModule module = parseModule(ctx, kOnStorage);
  // CHECK-NEXT: verifies: 1
  printf("verifies: %d\n", !mlirModuleIsNull(module) &&
                               mlirOperationVerify(mlirModuleGetOperation(module)));
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);

  // CHECK: parse: ok
  module = parseModule(ctx, kEncodedConv);
  if (mlirModuleIsNull(module))
    return;
  // CHECK-NEXT: lower: ok
  report("lower", dlaRunPassPipeline(mlirModuleGetOperation(module),
                                     mlirStringRefCreateFromCString(
                                         "builtin.module(dla-lower-to-llvm{storage-layers=true})")));
  struct Collected printed = {0};
  mlirOperationPrint(mlirModuleGetOperation(module), collectText, &printed);
  // CHECK-NEXT: llvm.func: 1, dla ops left: 0
  printf("llvm.func: %d, dla ops left: %d\n",
         printed.text && strstr(printed.text, "llvm.func @conv(") != NULL,
         printed.text && strstr(printed.text, " dla.") != NULL);
  free(printed.text);
  mlirModuleDestroy(module);
}

/// NVDLA scale / shift helpers; values worked by hand in NvdlaScaleTest.cpp.
static void testNvdlaScale(void) {
  // CHECK-LABEL: @nvdla-scale
  printf("@nvdla-scale\n");
  int16_t scales[3] = {0};
  uint8_t shift = 0;
  double bound = 0;
  // 0.5, 0.25, -0.1 share the shift of 0.5 (15): -3276.8 truncates to -3276.
  // CHECK: scales: ok
  // CHECK-NEXT: 16384 8192 -3276 >> 15, bound 2^-15: 1
  report("scales", dlaNvdlaScalesFromFactors(3, (double[]){0.5, 0.25, -0.1},
                                             DlaScaleRoundingTruncate, scales, &shift, &bound));
  printf("%d %d %d >> %d, bound 2^-15: %d\n", scales[0], scales[1], scales[2], shift,
         bound == 1.0 / 32768);
  // CHECK: nearest: ok
  // CHECK-NEXT: -3277
  report("nearest", dlaNvdlaScalesFromFactors(3, (double[]){0.5, 0.25, -0.1},
                                              DlaScaleRoundingNearest, scales, &shift, &bound));
  printf("%d\n", scales[2]);
  // CHECK: too big: error: scale factor 32768 is beyond the int16 range (|factor| >= 2^15)
  report("too big", dlaNvdlaScalesFromFactors(1, (double[]){32768}, DlaScaleRoundingTruncate,
                                              scales, &shift, &bound));
  // CHECK: bad rounding: error: unknown scale rounding 7
  report("bad rounding", dlaNvdlaScalesFromFactors(1, (double[]){1}, 7, scales, NULL, NULL));
  int16_t values[2] = {0};
  int64_t biasBound = -1;
  // 65535 and -3: floor at shift 1 gives 32767 and -2.
  // CHECK: bias: ok
  // CHECK-NEXT: 32767 -2 << 1, bound 1
  report("bias", dlaNvdlaBiasToInt16(2, (int32_t[]){65535, -3}, DlaBiasRoundingFloor, values,
                                     &shift, &biasBound));
  printf("%d %d << %d, bound %lld\n", values[0], values[1], shift, (long long)biasBound);
  // CHECK: null bias: error: null or negative bias array
  report("null bias", dlaNvdlaBiasToInt16(2, NULL, DlaBiasRoundingFloor, values, NULL, NULL));
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  // Through the handles, as a generic C client would (dlaContextRegister-
  // Dialects does the same in one call).
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__dla__(), ctx);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__func__(), ctx);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__arith__(), ctx);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__tensor__(), ctx);

  testDialect(ctx);
  testChunkedAttr(ctx);
  testLayoutQueries(ctx);
  testLayoutErrors(ctx);
  testFormatOnly();
  testPipelines(ctx);
  testOnStorage(ctx);
  testNvdlaScale();

  mlirContextDestroy(ctx);
  // CHECK: failures: 0
  printf("failures: %d\n", failures);
  return failures != 0;
}
