//===- ModelDiagnostics.cpp - Diagnostics at imported model nodes ---------===//

#include "ModelDiagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// "model.onnx: node 'conv1'" (several names when a pattern fused the
/// locations of several nodes); empty when `loc` names no node.
static std::string describe(Location loc) {
  SmallVector<StringRef> names;
  FileLineColLoc file;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner)) {
      if (!llvm::is_contained(names, name.getName().getValue()))
        names.push_back(name.getName().getValue());
    } else if (auto position = dyn_cast<FileLineColLoc>(inner); position && !file) {
      file = position;
    }
    return WalkResult::advance();
  });
  if (names.empty())
    return {};
  std::string text;
  llvm::raw_string_ostream os(text);
  if (file) {
    os << file.getFilename().getValue();
    // Line 0: the importer's "the whole model", no position in it.
    if (file.getLine() != 0)
      os << ":" << file.getLine() << ":" << file.getColumn();
    os << ": ";
  }
  os << (names.size() == 1 ? "node " : "nodes ");
  llvm::interleaveComma(names, os, [&](StringRef name) { os << "'" << name << "'"; });
  return text;
}

static llvm::SourceMgr::DiagKind kindOf(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Error:
    return llvm::SourceMgr::DK_Error;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  }
  llvm_unreachable("unknown diagnostic severity");
}

static void print(Location loc, StringRef where, const Twine &message,
                  DiagnosticSeverity severity) {
  std::string place = where.str();
  if (place.empty()) {
    llvm::raw_string_ostream os(place);
    if (auto file = loc->findInstanceOf<FileLineColLoc>())
      os << file.getFilename().getValue() << ":" << file.getLine() << ":" << file.getColumn();
    else
      os << loc;
  }
  llvm::SMDiagnostic(place, kindOf(severity), message.str()).print(nullptr, llvm::errs());
}

DiagnosticEngine::HandlerID mlir::dla::registerModelDiagnostics(MLIRContext *context, bool warnings,
                                                                bool remarks, bool notes) {
  return context->getDiagEngine().registerHandler([=](Diagnostic &diag) -> LogicalResult {
    std::string where = describe(diag.getLocation());
    if (where.empty())
      return failure();
    DiagnosticSeverity severity = diag.getSeverity();
    if ((severity == DiagnosticSeverity::Warning && !warnings) ||
        (severity == DiagnosticSeverity::Remark && !remarks))
      return success();
    print(diag.getLocation(), where, diag.str(), severity);
    if (notes)
      for (Diagnostic &note : diag.getNotes())
        print(note.getLocation(), describe(note.getLocation()), note.str(), note.getSeverity());
    return success();
  });
}
