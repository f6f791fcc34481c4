"""dla.onnx: ONNX models -> TOSA (MLIR text) for dla-opt (dla-import-onnx).

Op families: ops_nn (convolution, pooling, batch-norm, LRN), ops_math
(element-wise, activations, reductions, Softmax, Gemm/MatMul), ops_shape
(reshape, slices, concatenation, shape folding, Resize), ops_quant
(QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul, ConvInteger,
MatMulInteger)."""

from .builder import ImportError_ as ImportFailure
from .importer import import_model, load_model, parse_input_shape

__all__ = ["ImportFailure", "import_model", "load_model", "parse_input_shape"]
