//===- OutOfMemory.cpp - an out-of-memory error instead of an abort -------===//

#include "OutOfMemory.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Signals.h"

#include <cstring>
#include <new>
#include <unistd.h>

namespace {

/// Nothing here allocates: the message is static, written with write(2).
[[noreturn]] void outOfMemory() {
  static const char message[] =
      "dla-opt: error: out of memory. A module's textual form prints every weight as hex "
      "(with the module's own copy, about 5x the weight bytes at the peak); "
      "--emit-bytecode writes them as they are (about 2x)\n";
  ssize_t written = ::write(2, message, sizeof(message) - 1);
  (void)written;
  // Removes the partial output file (ToolOutputFile registered it).
  llvm::sys::RunInterruptHandlers();
  ::_exit(1);
}

void llvmOutOfMemory(void *, const char *, bool) { outOfMemory(); }

} // namespace

void mlir::dla::installOutOfMemoryHandlers() {
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(llvmOutOfMemory);
}
