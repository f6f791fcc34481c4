//===- InitAllDialects.h - Every dialect a dla tool registers ---*- C++ -*-===//
//
// One list shared by dla-opt, the C API (dlaContextRegisterDialects) and
// through it Python: a dialect added here reaches all three.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_INITALLDIALECTS_H
#define DLA_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
namespace dla {

/// Inserts the dla dialect, every upstream dialect and the upstream
/// extensions (external interface models: bufferization, to-LLVM), as
/// mlir-opt registers them.
void registerAllDialects(DialectRegistry &registry);

/// Attaches the HTP layouts of upstream linalg named ops
/// (LayoutConstrainedOpInterface external models); registerAllDialects does.
void registerHtpLinalgLayoutModels(DialectRegistry &registry);

} // namespace dla
} // namespace mlir

#endif // DLA_INITALLDIALECTS_H
