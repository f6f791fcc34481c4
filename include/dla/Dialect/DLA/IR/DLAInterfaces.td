//===- DLAInterfaces.td - Interfaces of the dla dialect ----*- tablegen -*-===//
#ifndef DLA_INTERFACES_TD
#define DLA_INTERFACES_TD

include "mlir/IR/OpBase.td"

def DLA_LayoutEncodingAttr : AttrInterface<"LayoutEncodingAttr"> {
  let cppNamespace = "::mlir::dla";
  let description = [{
    A tensor encoding that places every logical element at a byte offset of
    a storage buffer. Every `dla` encoding implements it by binding its
    format-library description to the tensor's shape and element type; all
    derived questions (storage size, byte offset of an element, strided view,
    packing) are then answered by the bound layout, so the formulas live in
    one place.

    Padding and gaps of the storage hold zero unless the encoding says
    otherwise.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Binds the encoding to a logical shape and element type. Reports a
        diagnostic through `emitError` and fails when the shape or element
        type cannot be laid out (wrong rank, dynamic sizes, overflow, ...).
      }],
      /*retTy=*/"::llvm::FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>",
      /*methodName=*/"bind",
      /*args=*/(ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
                    "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError)>,
    InterfaceMethod<
      /*desc=*/[{
        A packer that turns constants of this encoding, shape and element
        type into their storage surfaces (the constant folder's work).
        Defaults to one surface packed through `bind`; encodings whose
        storage is not a plain layout (compressed weights, Winograd) supply
        their own.
      }],
      /*retTy=*/"::llvm::FailureOr<std::unique_ptr<::dlaformat::ConstantPacker>>",
      /*methodName=*/"getConstantPacker",
      /*args=*/(ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
                    "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        auto bound = $_attr.bind(shape, elementType, emitError);
        if (::mlir::failed(bound))
          return ::mlir::failure();
        return ::dlaformat::makeBoundLayoutPacker(std::move(*bound),
                                                    /*alignment=*/64);
      }]>,
    InterfaceMethod<
      /*desc=*/[{
        The inputs of a batch that data of this encoding and `shape` holds,
        each at its batch stride (NVDLA's BATCH_NUMBER, or one hardware
        operation per input): N of feature data and of per-element operand
        data; 1 by default (weights, images, per-channel and per-layer data).
      }],
      /*retTy=*/"int64_t",
      /*methodName=*/"getBatchInputs",
      /*args=*/(ins "::llvm::ArrayRef<int64_t>":$shape),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{ return 1; }]>,
  ];
  let extraSharedClassDeclaration = [{
    /// Storage size in bytes, padding included.
    ::llvm::FailureOr<int64_t>
    getStorageBytes(::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
                    ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const {
      auto bound = $_attr.bind(shape, elementType, emitError);
      if (::mlir::failed(bound))
        return ::mlir::failure();
      return (*bound)->getStorageBytes();
    }
    /// Byte offset in storage of the logical element at `index`.
    ::llvm::FailureOr<int64_t>
    getByteOffset(::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
                  ::llvm::ArrayRef<int64_t> index,
                  ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// The storage buffers (size, alignment) and typed strided views of the
    /// bound layout, as the format library describes them. Compressed
    /// weights (no BoundLayout): their packer's three surfaces, sizes -1
    /// (data-dependent), no views.
    ::llvm::FailureOr<::dlaformat::StorageDescription>
    getStorageDescription(::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
                          ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// The layout as a strided view, or failure (with a diagnostic) when the
    /// layout is not a strided view.
    ::llvm::FailureOr<::dlaformat::StridedView>
    getStridedView(::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
                   ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
  }];
}

def DLA_PrecisionConversionOpInterface : OpInterface<"PrecisionConversionOpInterface"> {
  let cppNamespace = "::mlir::dla";
  let description = [{
    A layer op that runs on an NVDLA unit and may convert precision between
    its input and output. `--dla-check-precision` asks each such op for its
    query (layer kind, mode, input kind, output precision) and checks it
    against the precision-conversion tables of the format library.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        The precision-conversion question this op poses. Fails with a
        diagnostic when the op's types do not name NVDLA precisions.
      }],
      /*retTy=*/"::llvm::FailureOr<::dlaformat::nvdla::ConversionQuery>",
      /*methodName=*/"getConversionQuery">,
    InterfaceMethod<
      /*desc=*/[{
        Records the verdict of a valid conversion: the real precision in the
        pipeline and, for convolutions, the weight precision. Fails with a
        diagnostic when the op contradicts it (e.g. weights of another
        precision).
      }],
      /*retTy=*/"::llvm::LogicalResult",
      /*methodName=*/"annotatePrecision",
      /*args=*/(ins "const ::dlaformat::nvdla::ConversionVerdict &":$verdict),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        ::mlir::dla::recordPipelinePrecision($_op, verdict);
        return ::mlir::success();
      }]>,
  ];
}

def DLA_LayerOpInterface : OpInterface<"LayerOpInterface"> {
  let cppNamespace = "::mlir::dla";
  let description = [{
    One NVDLA layer: an op that a hardware unit computes. Everything that
    treats layers asks this interface (the memref and reference lowerings,
    the register-program and loadable writers, the offload summary, the
    bundle through the C API), so a new layer op joins all of them by
    implementing it. The methods without a default must be written: a layer
    op that forgets one does not link.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        The unit the layer runs on, and for the SDP whether it reads its
        input from memory or from the convolution pipeline.
      }],
      /*retTy=*/"::dlaformat::nvdla::LayerKind",
      /*methodName=*/"getLayerKind">,
    InterfaceMethod<
      /*desc=*/[{
        The multiply-accumulates one run of the layer computes (the
        convolution pipeline's work; 0 for the units that compute none).
        0 for shapes that are not static.
      }],
      /*retTy=*/"int64_t",
      /*methodName=*/"getMacs">,
    InterfaceMethod<
      /*desc=*/[{
        What the hardware reads operand `operandNumber` as: feature data,
        an image, weights, a convolution's bias, or an SDP memory operand.
      }],
      /*retTy=*/"::mlir::dla::LayerOperandRole",
      /*methodName=*/"getOperandRole",
      /*args=*/(ins "unsigned":$operandNumber)>,
    InterfaceMethod<
      /*desc=*/[{
        The layer op whose result this one reads inside the same hardware
        layer, without a trip through memory (an on_the_fly SDP's
        convolution); null when the op runs on its own. The memref lowering
        runs the two in one `dla.on_storage`.
      }],
      /*retTy=*/"::mlir::Operation *",
      /*methodName=*/"getFusedProducer",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return nullptr;">,
  ];
  let extraSharedClassDeclaration = [{
    /// The unit's name as NVIDIA's documents write it ("CONV/CACC", "SDP").
    ::llvm::StringRef getHardwareUnit() {
      std::string_view unit = ::dlaformat::nvdla::getHardwareUnit($_op.getLayerKind());
      return ::llvm::StringRef(unit.data(), unit.size());
    }
  }];
}

def DLA_LayoutConstrainedOpInterface : OpInterface<"LayoutConstrainedOpInterface"> {
  let cppNamespace = "::mlir::dla";
  let description = [{
    An op that reads and writes its tensors in accelerator formats: it says
    which encodings it accepts on a target, as whole variants (one encoding
    per operand and per result) in order of preference. Its verifier rejects
    encodings no variant accepts (`verifyLayoutLegality`), and
    `--dla-assign-layouts` picks one variant per op at the least relayout
    cost. An encoding is accepted when it equals the variant's or differs
    only in what the hardware reads through registers (strides, data size,
    compression, post-extension, rounding; `acceptsEncoding`).
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        The variants the op accepts on `target`, most preferred first. A
        null encoding leaves that operand or result unconstrained. An empty
        list: the op cannot run on the target.
      }],
      /*retTy=*/"::llvm::SmallVector<::mlir::dla::LayoutVariant>",
      /*methodName=*/"getLayoutVariants",
      /*args=*/(ins "const ::dlaformat::Target &":$target),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        // Feature data in, feature data out.
        return ::mlir::dla::getFeatureLayoutVariants($_op, target);
      }]>,
    InterfaceMethod<
      /*desc=*/"How messages name operand `operandNumber` (`input`, `weight`, ...).",
      /*retTy=*/"::llvm::StringRef",
      /*methodName=*/"getLayoutOperandName",
      /*args=*/(ins "unsigned":$operandNumber),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{ return "input"; }]>,
  ];
  // After the op's own verifier, so that shapes and element types are sane.
  let verify = [{
    if (::mlir::failed(::mlir::dla::verifyTargetPrecision($_op)))
      return ::mlir::failure();
    return ::mlir::dla::verifyLayoutLegality($_op);
  }];
  let verifyWithRegions = 1;
}

def DLA_ChannelViewOpInterface : OpInterface<"ChannelViewOpInterface"> {
  let cppNamespace = "::mlir::dla";
  let description = [{
    A view of feature data: its result or its inputs are channels of one
    tensor's storage at an address offset (`dla.channel_slice`,
    `dla.channel_concat`; `dla.as_weights` and `dla.reshape_view` at offset
    0). No unit computes it; the writers place it in its
    parent's memory, the storage lowering moves its bytes. Asked wherever
    layers and views are told apart from host ops (`isLayerOrView`).
  }];
}

def DLA_EmulatorOpInterface : OpInterface<"EmulatorOpInterface"> {
  let cppNamespace = "::mlir::dla";
  let description = [{
    An op NVIDIA's runtime runs on the CPU as an EMU task of a loadable
    (`umd/core/src/runtime/Emulator.cpp`): it reads and writes int8 feature
    data the DLA task's layers leave in memory, converting between int8 and
    float with two scale factors (`emu_common_op_desc`). It is no hardware
    layer: the loadable writer gives it a task of its own after the DLA
    task, the CPU execution computes what the emulator computes, and the
    register trace (which has no emulator) refuses it.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/"The int8 input's value per step: x_float = x * input_scale.",
      /*retTy=*/"float",
      /*methodName=*/"getInputScaleFactor",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return $_op.getInputScale().convertToFloat();">,
    InterfaceMethod<
      /*desc=*/"The int8 output's value per step: y = trunc(y_float / output_scale).",
      /*retTy=*/"float",
      /*methodName=*/"getOutputScaleFactor",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return $_op.getOutputScale().convertToFloat();">,
  ];
}

#endif // DLA_INTERFACES_TD
