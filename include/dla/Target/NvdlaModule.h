//===- NvdlaModule.h - The function an NVDLA program is written for -*- C++ -*-===//
//
// What the writers of NVDLA programs (the register trace, the loadable) do
// to a module before planNetwork (NvdlaProgram.h), shared so that they
// agree: the one function they write, and, for a loadable, that function
// with its compile-time constants as arguments whose bytes the program
// carries and its boundary relayouts (host layout <-> NVDLA feature data)
// left to the program's user.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLAMODULE_H
#define DLA_TARGET_NVDLAMODULE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::dla {

/// The module's one function with a body (what a program is written for);
/// a located error when there is none or several.
FailureOr<func::FuncOp> getProgramFunction(ModuleOp module);

/// An argument of a prepared function.
struct ProgramArgument {
  /// The storage bytes of a constant moved out of the body (packed by
  /// --dla-pack-weights), nullopt for an input of the function.
  std::optional<std::vector<uint8_t>> constant;
  /// Where the value came from (the constant's location, or the function's).
  Location loc;
};

/// Rewrites `func` in place into the form planNetwork takes for a whole
/// program: each arith.constant of an encoded type (dense_resource storage
/// bytes) becomes an argument; an argument the body only relayouts into
/// NVDLA feature data (after tosa.transposes, if any) becomes that feature
/// data, and a result relayouted out of feature data (then transposed) for
/// the return is returned as feature data. Located
/// errors for what a program cannot hold (host operations, constants not
/// packed, arguments used otherwise). One ProgramArgument per argument.
FailureOr<std::vector<ProgramArgument>> prepareProgramFunction(func::FuncOp func);

} // namespace mlir::dla

#endif // DLA_TARGET_NVDLAMODULE_H
