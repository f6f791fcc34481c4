//===- LayerOperandRole.h - What a layer reads an operand as ----*- C++ -*-===//
//
// LayerOpInterface::getOperandRole's answer: the kind of surface the
// hardware reads, which decides its format family and which DMA reads it.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_IR_LAYEROPERANDROLE_H
#define DLA_DIALECT_DLA_IR_LAYEROPERANDROLE_H

namespace mlir::dla {

enum class LayerOperandRole {
  Feature,    ///< feature data (a layer's input cube)
  Image,      ///< pixel data (an image convolution's input)
  Weight,     ///< convolution weights (CDMA's weight DMA)
  ConvBias,   ///< a convolution's bias (the SDP's BS stage, in hardware)
  SdpOperand, ///< an SDP memory operand (bias, batch-norm, element-wise, PReLU)
};

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_LAYEROPERANDROLE_H
