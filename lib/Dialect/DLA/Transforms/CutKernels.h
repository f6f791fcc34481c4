//===- CutKernels.h - Convolutions cut by output kernels -------*- C++ -*-===//
#ifndef DLA_LIB_DIALECT_DLA_TRANSFORMS_CUTKERNELS_H
#define DLA_LIB_DIALECT_DLA_TRANSFORMS_CUTKERNELS_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaHardware.h"

namespace mlir::dla {

/// `conv` itself when one layer writes its kernels (DATAOUT_CHANNEL); else
/// the convolutions over consecutive kernels that replace it, each with its
/// part of the on-the-fly SDP after it, joined by a dla.channel_concat,
/// with a remark; failure, with an error saying why, when it cannot be cut.
FailureOr<SmallVector<ConvOp>> cutKernels(ConvOp conv,
                                          const ::dlaformat::nvdla::HardwareConfig &config);

} // namespace mlir::dla

#endif // DLA_LIB_DIALECT_DLA_TRANSFORMS_CUTKERNELS_H
