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

/// Inserts the dla dialect and every upstream dialect a dla pipeline reads
/// or produces.
void registerAllDialects(DialectRegistry &registry);

/// Attaches the HTP layouts of upstream linalg named ops
/// (LayoutConstrainedOpInterface external models); registerAllDialects does.
void registerHtpLinalgLayoutModels(DialectRegistry &registry);

} // namespace dla
} // namespace mlir

#endif // DLA_INITALLDIALECTS_H
