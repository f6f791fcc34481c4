//===- CutInputChannels.h - Convolutions cut by input channels -*- C++ -*-===//
#ifndef DLA_LIB_DIALECT_DLA_TRANSFORMS_CUTINPUTCHANNELS_H
#define DLA_LIB_DIALECT_DLA_TRANSFORMS_CUTINPUTCHANNELS_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaConvBuffer.h"

namespace mlir::dla {

/// `conv` itself when `q` (its buffer query) plans whole; else the
/// convolutions over consecutive input channels that replace it
/// (nv::planConvChannelCut), each part's on-the-fly SDP adding the previous
/// part's result, with a remark; failure, with an error naming the buffer,
/// when it cannot be cut.
FailureOr<SmallVector<ConvOp>> cutInputChannels(ConvOp conv,
                                                const ::dlaformat::nvdla::HardwareConfig &config,
                                                const ::dlaformat::nvdla::ConvBufferQuery &q);

} // namespace mlir::dla

#endif // DLA_LIB_DIALECT_DLA_TRANSFORMS_CUTINPUTCHANNELS_H
