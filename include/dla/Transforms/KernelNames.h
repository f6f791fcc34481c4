//===- KernelNames.h - Names of the functions the lowerings write -*- C++ -*-===//
//
// The lowerings outline loops into private functions whose names start with
// kKernelPrefix; each reads and writes only its memref arguments (nothing
// captured), which the buffer passes rely on.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TRANSFORMS_KERNELNAMES_H
#define DLA_TRANSFORMS_KERNELNAMES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::dla {

/// --dla-outline-kernels' functions: `__dla_kernel`, `__dla_kernel_N`.
inline constexpr llvm::StringLiteral kKernelPrefix = "__dla_kernel";
/// The relayout loops --dla-encodings-to-memref writes once per form.
inline constexpr llvm::StringLiteral kRelayoutFunction = "__dla_kernel_relayout";

} // namespace mlir::dla

#endif // DLA_TRANSFORMS_KERNELNAMES_H
