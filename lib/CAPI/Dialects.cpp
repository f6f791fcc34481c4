//===- Dialects.cpp - C API of the dla dialect ----------------------------===//
//
// Thin wrappers: the dialect answers through the LayoutEncodingAttr interface
// (mlir::dla::bindTensorLayout), the format library does the arithmetic, and
// diagnostics are captured into DlaStatus messages instead of being printed.
//
//===----------------------------------------------------------------------===//

#include "dla-c/Dialects.h"
#include "Status.h"
#include "dla/Format/ConstantPacker.h"
#include "dla/Format/NvdlaConversion.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/FeatureCopy.h"
#include "dla/InitAllDialects.h"

#include "mlir-c/Diagnostics.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <unistd.h>

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
using ::dlacapi::error;
using ::dlacapi::ok;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(DLA, dla, mlir::dla::DLADialect)

namespace {

/// Where a diagnostic is, as a user reads it: "file:line:col", the name of
/// a name location (an ONNX node), else the printed location.
std::string locationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":" << file.getColumn();
  else if (auto name = dyn_cast<NameLoc>(loc))
    os << name.getName().getValue();
  else if (!isa<UnknownLoc>(loc))
    os << loc;
  return text;
}

StringRef severityText(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

int severityCode(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return MlirDiagnosticError;
  case DiagnosticSeverity::Warning:
    return MlirDiagnosticWarning;
  case DiagnosticSeverity::Note:
    return MlirDiagnosticNote;
  case DiagnosticSeverity::Remark:
    return MlirDiagnosticRemark;
  }
  return MlirDiagnosticError;
}

/// One diagnostic as a status message line: "loc: message" for an error,
/// "loc: note: message" for the others.
std::string diagnosticLine(Diagnostic &diag) {
  std::string loc = locationText(diag.getLocation());
  std::string severity = diag.getSeverity() == DiagnosticSeverity::Error
                             ? ""
                             : severityText(diag.getSeverity()).str() + ": ";
  return (loc.empty() ? "" : loc + ": ") + severity + diag.str();
}

/// Collects every diagnostic emitted on a context while alive, so that it
/// can be returned in a DlaStatus rather than printed.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          append(diag);
          return mlir::success();
        }) {}

  DlaStatus fail(StringRef prefix = {}) {
    std::string message = prefix.str();
    if (!message.empty() && !text.empty())
      message += ": ";
    message += text;
    return error(std::move(message));
  }

private:
  void append(Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    if (!text.empty())
      os << "\n";
    print(os, diag);
    for (Diagnostic &note : diag.getNotes()) {
      os << "\n";
      print(os, note);
    }
  }

  static void print(llvm::raw_ostream &os, Diagnostic &diag) { os << diagnosticLine(diag); }

  std::string text;
  ScopedDiagnosticHandler handler;
};

/// Binds a type's layout; diagnostics go to `capture`.
DlaStatus bindType(MlirType wrapped, std::unique_ptr<fmt::BoundLayout> &result) {
  if (mlirTypeIsNull(wrapped))
    return error("null type");
  Type type = unwrap(wrapped);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    std::string message;
    llvm::raw_string_ostream(message) << "expected a ranked tensor type, got " << type;
    return error(std::move(message));
  }
  if (!tensor.hasStaticShape()) {
    std::string message;
    llvm::raw_string_ostream(message)
        << tensor << " has a dynamic shape; layouts are bound to static shapes";
    return error(std::move(message));
  }
  MLIRContext *context = tensor.getContext();
  DiagnosticCapture capture(context);
  FailureOr<std::unique_ptr<fmt::BoundLayout>> bound =
      bindTensorLayout(tensor, [&] { return emitError(UnknownLoc::get(context)); });
  if (failed(bound))
    return capture.fail();
  result = std::move(*bound);
  return ok();
}

} // namespace

void dlaContextRegisterDialects(MlirContext context) {
  DialectRegistry registry;
  registerAllDialects(registry);
  unwrap(context)->appendDialectRegistry(registry);
  unwrap(context)->getOrLoadDialect<DLADialect>();
}

//===----------------------------------------------------------------------===//
// #dla.chunked
//===----------------------------------------------------------------------===//

bool dlaAttributeIsAChunked(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<ChunkedAttr>(unwrap(attr));
}

MlirTypeID dlaChunkedAttrGetTypeID(void) { return wrap(TypeID::get<ChunkedAttr>()); }

MlirAttribute dlaChunkedAttrGet(MlirContext context, intptr_t numPairs, const int64_t *dims,
                                const int64_t *sizes) {
  MLIRContext *ctx = unwrap(context);
  auto emit = [&] { return emitError(UnknownLoc::get(ctx)); };
  if (numPairs < 0 || (numPairs > 0 && (!dims || !sizes))) {
    emit() << "invalid chunked layout: null or negative pair arrays";
    return MlirAttribute{nullptr};
  }
  return wrap(ChunkedAttr::getChecked(emit, ctx, ArrayRef<int64_t>(dims, numPairs),
                                      ArrayRef<int64_t>(sizes, numPairs)));
}

MlirAttribute dlaChunkedAttrGetPreset(MlirContext context, MlirStringRef name) {
  std::optional<fmt::ChunkedPreset> preset =
      fmt::parseEnum<fmt::ChunkedPreset>(std::string_view(name.data, name.length));
  if (!preset) {
    emitError(UnknownLoc::get(unwrap(context)))
        << "unknown chunked layout preset '" << unwrap(name) << "'";
    return MlirAttribute{nullptr};
  }
  return wrap(ChunkedAttr::get(unwrap(context), fmt::ChunkedLayout::getPreset(*preset)));
}

intptr_t dlaChunkedAttrGetNumPairs(MlirAttribute attr) {
  auto chunked = dyn_cast_or_null<ChunkedAttr>(unwrap(attr));
  return chunked ? static_cast<intptr_t>(chunked.getDims().size()) : 0;
}

int64_t dlaChunkedAttrGetDim(MlirAttribute attr, intptr_t pos) {
  auto chunked = dyn_cast_or_null<ChunkedAttr>(unwrap(attr));
  if (!chunked || pos < 0 || pos >= static_cast<intptr_t>(chunked.getDims().size()))
    return -1;
  return chunked.getDims()[pos];
}

int64_t dlaChunkedAttrGetSize(MlirAttribute attr, intptr_t pos) {
  auto chunked = dyn_cast_or_null<ChunkedAttr>(unwrap(attr));
  if (!chunked || pos < 0 || pos >= static_cast<intptr_t>(chunked.getSizes().size()))
    return -1;
  return chunked.getSizes()[pos];
}

int64_t dlaChunkedAttrGetRank(MlirAttribute attr) {
  auto chunked = dyn_cast_or_null<ChunkedAttr>(unwrap(attr));
  return chunked ? chunked.getRank() : -1;
}

MlirStringRef dlaChunkedAttrGetPresetName(MlirAttribute attr) {
  auto chunked = dyn_cast_or_null<ChunkedAttr>(unwrap(attr));
  if (!chunked)
    return mlirStringRefCreate("", 0);
  std::optional<fmt::ChunkedPreset> preset = chunked.getPreset();
  if (!preset)
    return mlirStringRefCreate("", 0);
  std::string_view name = fmt::enumName(*preset);
  return mlirStringRefCreate(name.data(), name.size());
}

//===----------------------------------------------------------------------===//
// Layout queries
//===----------------------------------------------------------------------===//

bool dlaAttributeIsALayoutEncoding(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<LayoutEncodingAttr>(unwrap(attr));
}

DlaStatus dlaTypeBindLayout(MlirType tensorType, DlaBoundLayout *result) {
  std::unique_ptr<fmt::BoundLayout> bound;
  DlaStatus status = bindType(tensorType, bound);
  if (dlaStatusIsOk(status) && result)
    *result = ::dlacapi::wrap(std::move(bound));
  return status;
}

DlaStatus dlaTypeDescribeStorage(MlirType tensorType, DlaStorageDescription *result) {
  auto tensor = dyn_cast_or_null<RankedTensorType>(
      mlirTypeIsNull(tensorType) ? Type() : unwrap(tensorType));
  auto layout = tensor ? dyn_cast_or_null<LayoutEncodingAttr>(tensor.getEncoding()) : nullptr;
  if (!layout || !tensor.hasStaticShape()) {
    // Row-major, or the errors bindType gives.
    std::unique_ptr<fmt::BoundLayout> bound;
    DlaStatus status = bindType(tensorType, bound);
    if (dlaStatusIsOk(status) && result)
      *result = dlaBoundLayoutDescribeStorage(DlaBoundLayout{bound.get()});
    return status;
  }
  MLIRContext *context = tensor.getContext();
  DiagnosticCapture capture(context);
  FailureOr<fmt::StorageDescription> d = layout.getStorageDescription(
      tensor.getShape(), tensor.getElementType(),
      [&] { return emitError(UnknownLoc::get(context)); });
  if (failed(d))
    return capture.fail();
  if (result)
    *result = DlaStorageDescription{new fmt::StorageDescription(std::move(*d))};
  return ok();
}

DlaStatus dlaTypeGetStorageBytes(MlirType tensorType, int64_t *bytes) {
  std::unique_ptr<fmt::BoundLayout> bound;
  DlaStatus status = bindType(tensorType, bound);
  if (dlaStatusIsOk(status) && bytes)
    *bytes = bound->getStorageBytes();
  return status;
}

DlaStatus dlaTypeGetByteOffset(MlirType tensorType, intptr_t rank, const int64_t *index,
                               int64_t *offset) {
  std::unique_ptr<fmt::BoundLayout> bound;
  DlaStatus status = bindType(tensorType, bound);
  if (!dlaStatusIsOk(status))
    return status;
  return dlaBoundLayoutGetByteOffset(DlaBoundLayout{bound.get()}, rank, index, offset);
}

DlaStatus dlaTypePack(MlirType tensorType, const void *logical, size_t logicalBytes,
                      void *storage, size_t storageBytes) {
  std::unique_ptr<fmt::BoundLayout> bound;
  DlaStatus status = bindType(tensorType, bound);
  if (!dlaStatusIsOk(status))
    return status;
  return dlaBoundLayoutPack(DlaBoundLayout{bound.get()}, logical, logicalBytes, storage,
                            storageBytes);
}

DlaStatus dlaTypeUnpack(MlirType tensorType, const void *storage, size_t storageBytes,
                        void *logical, size_t logicalBytes) {
  std::unique_ptr<fmt::BoundLayout> bound;
  DlaStatus status = bindType(tensorType, bound);
  if (!dlaStatusIsOk(status))
    return status;
  return dlaBoundLayoutUnpack(DlaBoundLayout{bound.get()}, storage, storageBytes, logical,
                              logicalBytes);
}

//===----------------------------------------------------------------------===//
// Constant packers
//===----------------------------------------------------------------------===//

namespace {
/// What a DlaConstantPacker points at.
struct PackerHandle {
  std::unique_ptr<fmt::ConstantPacker> packer;
  fmt::StorageSurfaces surfaces;
  std::vector<int64_t> planned;
};
PackerHandle *unwrapPacker(DlaConstantPacker p) { return static_cast<PackerHandle *>(p.ptr); }
fmt::PackSource source(const void *logical, size_t bytes) {
  fmt::PackSource s;
  s.data = static_cast<const char *>(logical);
  s.bytes = static_cast<int64_t>(bytes);
  return s;
}
} // namespace

DlaStatus dlaTypeCreateConstantPacker(MlirType wrapped, DlaConstantPacker *result) {
  if (mlirTypeIsNull(wrapped))
    return error("null type");
  auto tensor = dyn_cast<RankedTensorType>(unwrap(wrapped));
  if (!tensor || !tensor.hasStaticShape()) {
    std::string message;
    llvm::raw_string_ostream(message) << "expected a statically shaped ranked tensor type, got "
                                      << unwrap(wrapped);
    return error(std::move(message));
  }
  MLIRContext *context = tensor.getContext();
  DiagnosticCapture capture(context);
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(context)); };
  FailureOr<std::unique_ptr<fmt::ConstantPacker>> packer;
  if (auto layout = dyn_cast_or_null<LayoutEncodingAttr>(tensor.getEncoding())) {
    packer = layout.getConstantPacker(tensor.getShape(), tensor.getElementType(), emitError);
  } else {
    auto bound = bindTensorLayout(tensor, emitError);
    if (failed(bound))
      return capture.fail();
    packer = fmt::makeBoundLayoutPacker(std::move(*bound), /*alignment=*/64);
  }
  if (failed(packer))
    return capture.fail();
  auto *handle = new PackerHandle{std::move(*packer), {}, {}};
  handle->surfaces = handle->packer->getSurfaces();
  if (result)
    *result = DlaConstantPacker{handle};
  else
    delete handle;
  return ok();
}

void dlaConstantPackerDestroy(DlaConstantPacker packer) { delete unwrapPacker(packer); }

intptr_t dlaConstantPackerGetNumSurfaces(DlaConstantPacker packer) {
  return static_cast<intptr_t>(unwrapPacker(packer)->surfaces.names.size());
}

const char *dlaConstantPackerGetSurfaceName(DlaConstantPacker packer, intptr_t pos) {
  const auto &names = unwrapPacker(packer)->surfaces.names;
  if (pos < 0 || static_cast<size_t>(pos) >= names.size())
    return nullptr;
  return names[static_cast<size_t>(pos)].c_str();
}

DlaStatus dlaConstantPackerPlan(DlaConstantPacker packer, const void *logical,
                                size_t logicalBytes, int64_t *surfaceBytes) {
  PackerHandle *h = unwrapPacker(packer);
  if (!h || !logical || !surfaceBytes)
    return error("plan: null packer or buffer");
  if (!h->planned.empty())
    return error("plan: this packer has already planned its surfaces; make a new one");
  fmt::Expected<std::vector<int64_t>> sizes =
      h->packer->planSurfaces(source(logical, logicalBytes));
  if (!sizes)
    return error(sizes.message());
  h->planned = *sizes;
  std::copy(sizes->begin(), sizes->end(), surfaceBytes);
  return ok();
}

DlaStatus dlaConstantPackerPack(DlaConstantPacker packer, const void *logical,
                                size_t logicalBytes, void *const *surfaces) {
  PackerHandle *h = unwrapPacker(packer);
  if (!h || !logical || !surfaces)
    return error("pack: null packer or buffer");
  if (h->planned.empty())
    return error("pack: plan the surfaces first (dlaConstantPackerPlan)");
  std::vector<char *> out;
  for (size_t i = 0; i < h->planned.size(); ++i) {
    if (!surfaces[i])
      return error("pack: null surface " + std::to_string(i));
    out.push_back(static_cast<char *>(surfaces[i]));
  }
  if (fmt::Status s = h->packer->pack(source(logical, logicalBytes), out); !s)
    return error(s.message());
  return ok();
}

//===----------------------------------------------------------------------===//
// Resource blobs
//===----------------------------------------------------------------------===//

DlaStatus dlaDenseResourceAttrGetBlob(MlirAttribute attr, MlirStringRef *key, const void **data,
                                      size_t *size) {
  if (!key || !data || !size)
    return error("dlaDenseResourceAttrGetBlob: null result pointer");
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(unwrap(attr));
  if (!resource) {
    std::string text;
    if (!mlirAttributeIsNull(attr))
      llvm::raw_string_ostream(text) << unwrap(attr);
    return error("not a dense_resource attribute: " + (text.empty() ? "<null>" : text));
  }
  DenseResourceElementsHandle handle = resource.getRawHandle();
  AsmResourceBlob *blob = handle.getBlob();
  if (!blob)
    return error("dense_resource<" + handle.getKey().str() + "> has no data");
  ArrayRef<char> bytes = blob->getData();
  *key = wrap(handle.getKey());
  *data = bytes.data();
  *size = bytes.size();
  return ok();
}

//===----------------------------------------------------------------------===//
// Layer ops
//===----------------------------------------------------------------------===//

const char *dlaOperationGetHardwareUnit(MlirOperation op) {
  // A copy between feature layouts runs on BDMA where the configuration has
  // one (the outlining pass and the loadable writer ask the same); any
  // other relayout is the host's.
  if (isBdmaCopy(unwrap(op)))
    return "BDMA";
  auto layer = dyn_cast_or_null<LayerOpInterface>(unwrap(op));
  if (!layer)
    return nullptr;
  // getHardwareUnit returns views of string literals: NUL-terminated.
  return layer.getHardwareUnit().data();
}

bool dlaOperationRunsInEmulator(MlirOperation op) {
  return isa_and_nonnull<EmulatorOpInterface>(unwrap(op));
}

bool dlaOperationComputes(MlirOperation op) {
  Operation *o = unwrap(op);
  if (!o || o->hasTrait<OpTrait::IsTerminator>() || isa<FunctionOpInterface, ModuleOp>(o))
    return false;
  // A channel view of feature data is an address offset into its parent
  // (ViewOps.cpp), dla.as_weights its source's address: the layers around
  // it read and write in place.
  if (isa<dla::ChannelViewOpInterface>(o) &&
      isa_and_nonnull<dla::FeatureAttr, dla::WeightAttr>(
          cast<RankedTensorType>(o->getResult(0).getType()).getEncoding()))
    return false;
  // What holds a value: nothing in, nothing done but producing it.
  return o->getNumOperands() != 0 || !isPure(o);
}

//===----------------------------------------------------------------------===//
// Diagnosing helpers
//===----------------------------------------------------------------------===//

DlaStatus dlaModuleParse(MlirContext context, MlirStringRef source, MlirModule *result) {
  MLIRContext *ctx = unwrap(context);
  DiagnosticCapture capture(ctx);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(unwrap(source), ParserConfig(ctx), "<input>");
  if (!module)
    return capture.fail();
  if (result)
    *result = MlirModule{module.release().getOperation()};
  return ok();
}

DlaStatus dlaTypeParse(MlirContext context, MlirStringRef source, MlirType *result) {
  DiagnosticCapture capture(unwrap(context));
  Type type = parseType(unwrap(source), unwrap(context));
  if (!type)
    return capture.fail();
  if (result)
    *result = wrap(type);
  return ok();
}

DlaStatus dlaAttributeParse(MlirContext context, MlirStringRef source, MlirAttribute *result) {
  DiagnosticCapture capture(unwrap(context));
  Attribute attr = parseAttribute(unwrap(source), unwrap(context));
  if (!attr)
    return capture.fail();
  if (result)
    *result = wrap(attr);
  return ok();
}

DlaStatus dlaRunPassPipeline(MlirOperation op, MlirStringRef pipeline) {
  return dlaRunPassPipelineWithDiagnostics(op, pipeline, nullptr, nullptr, /*printOps=*/true,
                                           /*maxErrorLines=*/0);
}


DlaStatus dlaRunPassPipelineWithDiagnostics(MlirOperation op, MlirStringRef pipeline,
                                            DlaDiagnosticCallback callback, void *userData,
                                            bool printOps, intptr_t maxErrorLines) {
  if (mlirOperationIsNull(op))
    return error("null operation");
  Operation *operation = unwrap(op);
  MLIRContext *ctx = operation->getContext();

  // The failure's text, line by line; every diagnostic for the callback,
  // which is called after the run, on this thread (passes on functions
  // emit theirs from worker threads).
  std::vector<std::string> lines;
  struct Held {
    int severity;
    std::string location, message;
  };
  std::vector<Held> held;
  auto report = [&](Diagnostic &diag) {
    // Remarks go to the callback only: a failure's message is its errors.
    if (diag.getSeverity() != DiagnosticSeverity::Remark)
      lines.push_back(diagnosticLine(diag));
    held.push_back({severityCode(diag.getSeverity()), locationText(diag.getLocation()), diag.str()});
  };
  auto deliver = [&] {
    if (callback)
      for (Held &h : held)
        callback(h.severity, mlirStringRefCreate(h.location.data(), h.location.size()),
                 mlirStringRefCreate(h.message.data(), h.message.size()), userData);
  };
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    report(diag);
    for (Diagnostic &note : diag.getNotes())
      report(note);
    return mlir::success();
  });
  auto fail = [&](std::string message) {
    deliver();
    size_t shown = lines.size();
    if (maxErrorLines > 0 && shown > static_cast<size_t>(maxErrorLines))
      shown = static_cast<size_t>(maxErrorLines);
    for (size_t i = 0; i < shown; ++i)
      message += (i ? "\n" : ": ") + lines[i];
    if (shown < lines.size())
      message += "\n(" + std::to_string(lines.size() - shown) + " more diagnostics)";
    return error(std::move(message));
  };

  // The FailureOr overload: the (str, pm) overload nests its input, so an
  // anchored "builtin.module(...)" would silently run nothing.
  std::string parseError;
  llvm::raw_string_ostream errorStream(parseError);
  FailureOr<OpPassManager> parsed = parsePassPipeline(unwrap(pipeline), errorStream);
  if (failed(parsed)) {
    std::string message = "invalid pass pipeline '" + unwrap(pipeline).str() + "'";
    if (!parseError.empty())
      message += ": " + StringRef(parseError).trim().str();
    return fail(message);
  }
  PassManager pm(ctx, parsed->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  // A pass failing on the module would otherwise attach all of it (100s of
  // KB for a network) to its error as "see current operation".
  bool printedOps = ctx->shouldPrintOpOnDiagnostic();
  ctx->printOpOnDiagnostic(printOps);
  LogicalResult result = pm.run(operation);
  ctx->printOpOnDiagnostic(printedOps);
  if (failed(result))
    return fail("pass pipeline '" + unwrap(pipeline).str() + "' failed");
  deliver();
  return ok();
}

void dlaPrintRegisteredPasses(MlirStringCallback callback, void *userData) {
  // mlir::printRegisteredPasses writes to llvm::outs() (file descriptor 1):
  // its output is caught in a temporary file for the callback.
  llvm::outs().flush();
  fflush(stdout);
  FILE *tmp = tmpfile();
  int saved = tmp ? dup(1) : -1;
  if (!tmp || saved < 0 || dup2(fileno(tmp), 1) < 0) {
    if (tmp)
      fclose(tmp);
    if (saved >= 0)
      close(saved);
    return;
  }
  printRegisteredPasses();
  llvm::outs().flush();
  dup2(saved, 1);
  close(saved);
  std::string text;
  rewind(tmp);
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, tmp)) > 0;)
    text.append(buffer, n);
  fclose(tmp);
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}
