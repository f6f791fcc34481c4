//===- DLAToMemRef.h - dla encodings to storage buffers ---------*- C++ -*-===//
//
// The patterns of --dla-encodings-to-memref, for a compiler that runs them
// in a conversion of its own: every dla-encoded tensor becomes its storage
// bytes (tensor<BYTES x i8>), relayouts loops over the format library's
// views, packed constants memref.globals, encoded hardware layers a
// dla.on_storage.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_CONVERSION_DLATOMEMREF_DLATOMEMREF_H
#define DLA_CONVERSION_DLATOMEMREF_DLATOMEMREF_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <memory>

namespace mlir::dla {

/// Encoded tensor types to tensor<BYTES x i8> of their storage; every other
/// type (compressed weights, whose surfaces are data-dependent, among them)
/// unchanged.
std::unique_ptr<TypeConverter> createStorageTypeConverter();

/// Diagnoses, located, what the conversion cannot lower (dynamic shapes,
/// weights only constants can pack, ...), so that it cannot fail half-way
/// or drop an encoding. Run it before applying the patterns.
LogicalResult checkEncodingsToMemref(ModuleOp module);

/// Marks illegal what the conversion rewrites: ops with an encoded type
/// (layer ops outside a dla.on_storage), relayouts and storage casts.
void populateEncodingsToMemrefLegality(ConversionTarget &target);

/// Function signatures, calls and returns, relayouts, constants, compressed
/// weights, storage casts, and encoded hardware layers, over `converter`
/// (createStorageTypeConverter's).
void populateEncodingsToMemrefPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

/// dla.channel_slice / dla.channel_concat of feature data as byte moves of
/// their surfaces (part of populateEncodingsToMemrefPatterns).
void populateChannelViewStoragePatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);

} // namespace mlir::dla

#endif // DLA_CONVERSION_DLATOMEMREF_DLATOMEMREF_H
