//===- CompileTimeConstant.h - What --dla-pack-weights folds ---*- C++ -*-===//
//
// One predicate for "this value is known at compile time", shared by the
// layout assignment (which costs such relayouts as free and compresses
// them) and the packer (which folds them), so the two never disagree.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_TRANSFORMS_COMPILETIMECONSTANT_H
#define DLA_DIALECT_DLA_TRANSFORMS_COMPILETIMECONSTANT_H

#include "dla/Format/Fp16.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::dla {

/// A value --dla-pack-weights folds: an arith.constant, or an f32 -> f16
/// arith.truncf of an unencoded one (the rounding fused into packing, as
/// imported f32 weights arrive).
struct CompileTimeConstant {
  arith::ConstantOp constant;
  /// The fused rounding, when the value is a truncf of `constant`.
  arith::TruncFOp truncf;
  ::dlaformat::Fp16Rounding rounding = ::dlaformat::Fp16Rounding::TiesToEven;
};

std::optional<CompileTimeConstant> matchCompileTimeConstant(Value value);

/// The raw bytes of `value`'s logical elements in its own element type
/// (an f32 constant's truncf rounded to f16 as the packer rounds), when the
/// data is held contiguously (non-splat dense or dense_resource elements).
std::optional<std::vector<char>> readCompileTimeBytes(const CompileTimeConstant &c);

/// The values of an integer constant (8, 16, 32 or 64 bits; signless and
/// signed sign-extended, unsigned zero-extended), splats included; nullopt
/// for other element types or data not held at compile time.
std::optional<std::vector<int64_t>> readCompileTimeIntegers(const CompileTimeConstant &c);

/// Elements [first, first + count) of `c` along dimension `dim`, as a new
/// constant at `b`'s insertion point (an f32 constant under a truncf is
/// cut before the rounding, and the truncf cloned: the rounding stays the
/// packer's); nullopt when the data is not held at compile time.
std::optional<Value> sliceCompileTimeConstant(OpBuilder &b, Location loc,
                                              const CompileTimeConstant &c, int64_t dim,
                                              int64_t first, int64_t count);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_TRANSFORMS_COMPILETIMECONSTANT_H
