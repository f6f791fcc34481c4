//===- OutOfMemory.h - an out-of-memory error instead of an abort -*- C++ -*-===//
//
// A module too large for the memory left (the textual form of packed
// weights holds each byte as two hex digits beside the module's own copy:
// about 5x the weights) ended dla-opt with an uncaught std::bad_alloc
// (abort, exit 134). With these handlers it is one error line naming the
// way out, the partial output file removed, exit 1.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_OPT_OUTOFMEMORY_H
#define DLA_OPT_OUTOFMEMORY_H

namespace mlir::dla {

/// Installs the handlers of operator new and of LLVM's allocations.
void installOutOfMemoryHandlers();

} // namespace mlir::dla

#endif // DLA_OPT_OUTOFMEMORY_H
