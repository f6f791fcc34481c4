/* Uses the installed C API alone: context, dialect handles, layout query,
 * a textual pass pipeline. */
#include "dla-c/Dialects.h"
#include "dla-c/Passes.h"

#include <stdio.h>

static void print(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  dlaContextRegisterDialects(ctx);
  mlirRegisterDLAPasses();

  MlirType type = {NULL};
  DlaStatus status = dlaTypeParse(
      ctx, mlirStringRefCreateFromCString("tensor<1x3x5x30xi8, #dla.chunked<crouton>>"), &type);
  int64_t bytes = 0;
  if (dlaStatusIsOk(status))
    status = dlaTypeGetStorageBytes(type, &bytes);
  if (!dlaStatusIsOk(status)) {
    fprintf(stderr, "error: %s\n", dlaStatusGetMessage(status));
    dlaStatusDestroy(status);
    return 1;
  }
  printf("storage bytes: %lld\n", (long long)bytes);

  MlirModule module = {NULL};
  status = dlaModuleParse(
      ctx,
      mlirStringRefCreateFromCString(
          "func.func @f() -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>> {\n"
          "  %c = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi8>\n"
          "  %p = dla.relayout %c : tensor<2x3xi8> -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>\n"
          "  return %p : tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>\n"
          "}\n"),
      &module);
  if (dlaStatusIsOk(status))
    status = dlaRunPassPipeline(mlirModuleGetOperation(module),
                                mlirStringRefCreateFromCString("builtin.module(dla-pack-weights)"));
  if (!dlaStatusIsOk(status)) {
    fprintf(stderr, "error: %s\n", dlaStatusGetMessage(status));
    dlaStatusDestroy(status);
    return 1;
  }
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  printf("\n");
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
