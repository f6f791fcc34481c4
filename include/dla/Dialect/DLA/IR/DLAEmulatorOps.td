//===- DLAEmulatorOps.td - Ops NVIDIA's runtime emulates ---*- tablegen -*-===//
//
// NVIDIA's runtime runs two operations on the CPU, between or after the DLA
// tasks of a loadable: softmax and power (emu_interface.h,
// NVDLA_EMU_OP_SOFTMAX / NVDLA_EMU_OP_POWER; Emulator.cpp computes them).
// These ops are what it computes, to the bit: the loadable writer makes
// them an EMU task, the CPU execution models Emulator.cpp's arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_EMULATOR_OPS_TD
#define DLA_EMULATOR_OPS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// A scale factor: finite and greater than 0.
def DLA_ScaleFactor : ConfinedAttr<F32Attr, [AttrConstraint<
    CPred<"::llvm::cast<::mlir::FloatAttr>($_self).getValue().isFiniteNonZero() && "
          "!::llvm::cast<::mlir::FloatAttr>($_self).getValue().isNegative()">,
    "whose value is finite and greater than 0">]>;

/// int8 feature data, one batch (the emulator runs batch 0 of its cube).
def DLA_EmulatorTensor : 4DTensorOf<[I8]>;

/// An op of NVIDIA's runtime emulator: int8 in, int8 out, each with its
/// scale factor (emu_common_op_desc).
class DLA_EmulatorOp<string mnemonic, list<Trait> traits = []>
    : DLA_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType,
        DeclareOpInterfaceMethods<DLA_EmulatorOpInterface>,
        DeclareOpInterfaceMethods<DLA_LayoutConstrainedOpInterface>])> {
  let results = (outs DLA_EmulatorTensor:$output);
  let hasVerifier = 1;
}

def DLA_EmuSoftmaxOp : DLA_EmulatorOp<"emu_softmax"> {
  let summary = "Softmax over channels, as NVIDIA's runtime emulator computes it";
  let description = [{
    The softmax of a 1xCx1x1 int8 cube over its C channels, computed as
    `Emulator::executeSoftmax` does for int8 data (NVIDIA's runtime,
    `umd/core/src/runtime/Emulator.cpp`), in this order:

    - `h[c] = half(x[c] * input_scale)`: the product in float, rounded to
      fp16 to nearest with ties away from zero (NVIDIA's `half.h`:
      HALF_ROUND_STYLE 1, HALF_ROUND_TIES_TO_EVEN 0);
    - `m = max h[c]`; `s = expf(h[0] - m) + expf(h[1] - m) + ...` in float,
      in channel order;
    - `p[c] = half(expf(h[c] - m) / s)`, rounded as above;
    - `y[c] = int8(min(max(p[c] / output_scale, -128), 127))`, the cast
      truncating toward zero (`saturate<float, int8>`).

    The emulator reads the C values as consecutive bytes: on NVDLA feature
    data (`#dla.feature`, both sides equal) a surface must be one atom.

    ```mlir
    %p = dla.emu_softmax %logits {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32}
        : tensor<1x2x1x1xi8, #dla.feature<int8, config = nv_small>>
    ```
  }];
  let arguments = (ins DLA_EmulatorTensor:$input,
                   DLA_ScaleFactor:$input_scale,
                   DLA_ScaleFactor:$output_scale);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def DLA_EmuPowerOp : DLA_EmulatorOp<"emu_power"> {
  let summary = "(shift + scale * x) ^ power, as NVIDIA's runtime emulator computes it";
  let description = [{
    Element by element of a 1xCxHxW int8 cube, as `Emulator::executePower`
    does for int8 data (NVIDIA's runtime, `Emulator.cpp`), all in float:
    `v = x * input_scale`, `y = powf(shift + scale * v, power) /
    output_scale`, then `int8(min(max(y, -128), 127))`, the cast truncating
    toward zero. On NVDLA feature data both sides have one encoding.

    ```mlir
    %y = dla.emu_power %x {power = 2.0 : f32, scale = 1.0 : f32, shift = 0.0 : f32,
                           input_scale = 0.0625 : f32, output_scale = 0.25 : f32}
        : tensor<1x8x4x4xi8>
    ```
  }];
  let arguments = (ins DLA_EmulatorTensor:$input, F32Attr:$power, F32Attr:$scale,
                   F32Attr:$shift,
                   DLA_ScaleFactor:$input_scale,
                   DLA_ScaleFactor:$output_scale);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

#endif // DLA_EMULATOR_OPS_TD
