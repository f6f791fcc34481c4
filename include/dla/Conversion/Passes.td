//===- Passes.td - Conversions into and out of the dla dialect -*- tablegen -*-===//
#ifndef DLA_CONVERSION_PASSES_TD
#define DLA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def DLAConvertTosa : Pass<"dla-convert-tosa", "::mlir::ModuleOp"> {
  let summary = "Offload the TOSA operations an NVDLA target runs to dla layer ops";
  let description = [{
    Rewrites the TOSA operations of a network that the NVDLA target can run
    into `dla` layer ops and leaves everything else in TOSA for the host:

    | TOSA | dla |
    |---|---|
    | `tosa.conv2d` (constant weight) | `dla.conv direct` (bias included) |
    | `tosa.depthwise_conv2d` (constant weight) | one `dla.conv direct` per channel group |
    | `tosa.max_pool2d`, `tosa.avg_pool2d` (no padding) | `dla.pool max` / `average`; a window the PDP cannot hold (kernel above 8, padding above 7) as a chain of them, with a remark |
    | `tosa.clamp` to [0, +inf) (ReLU) | `dla.sdp ... relu` |
    | `tosa.clamp` to other bounds (ReLU6, hard-sigmoid, integer clamps) | `dla.clamp` |
    | `tosa.rescale` of an integer convolution or of a sum of two rescaled maps | the SDP's stage program (below) |
    | `tosa.add` of two feature maps | `dla.sdp ... eltwise` |
    | `tosa.add` of a per-channel constant | `dla.sdp ... bias` |
    | `tosa.mul` by a per-channel constant, optionally followed by `tosa.add` of one | `dla.sdp ... batchnorm` |
    | `tosa.resize` nearest by integer factors that repeats pixels (`docs/Resize.md`) | `dla.upsample` |
    | `tosa.conv2d` (constant weight) read by a pixel shuffle (reshape, transpose, reshape: a transposed convolution as TOSA decomposes it), optionally cropped and with a bias added | a `dla.conv direct` per output phase and `dla.interleave` (`docs/Resize.md` "Pixel shuffles") |
    | softmax (reduce_max, sub, exp, reduce_sum, reciprocal, mul) of a dequantized int8 layer result, int8 target | `dla.emu_softmax` (NVIDIA's runtime emulator; `emulator=false` keeps it on the host) |

    TOSA is NHWC with OHWI weights; the layer ops are NCHW with KCRS weights.
    Constant weights are transposed at compile time (a `dense_resource` blob,
    then `arith.truncf` to the target precision, which `--dla-pack-weights`
    fuses into packing). Activations get an explicit `tosa.transpose` and
    `tosa.cast` on each side of every layer op; the pass cancels the pairs
    that meet between two offloaded layers, so the transposes that survive
    mark the partition boundary, where layout assignment puts its
    relayouts. An SDP layer that reads a convolution's only result runs
    `on_the_fly`, and consecutive SDP stages merge into one layer.

    Quantized (integer) TOSA runs on an integer target: a `tosa.rescale` of
    a convolution's accumulator becomes its on-the-fly SDP program, of a sum
    of two rescaled maps an offline SDP; integer clamps `dla.clamp`
    (`docs/IntegerAttributes.md` decision 19).

    With `summary=true` a remark on the module counts the layers on the
    accelerator and on the host and the share of multiply-accumulates
    offloaded: `remark: dla-convert-tosa: 52 of 60 layers on nv_small int8
    (99.1% of the multiply-accumulates); 8 stay on the host`.

    What the target cannot run stays in TOSA with a remark that says why,
    e.g. `remark: stays on the host: no NVDLA layer computes tosa.exp`.
    No layer it writes exceeds a register field
    (`dla/Format/NvdlaRegisters.h`; docs/IntegerAttributes.md decision 20).
    Legality comes from the precision-conversion tables of the format
    library (`dla/Format/NvdlaConversion.h`).

    ```mlir
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>,
        pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>)
        -> tensor<1x8x8x4xf32>
    // becomes
    %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : ... -> tensor<1x3x8x8xf32>
    %h = tosa.cast %t : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf16>
    %c = dla.conv direct %h, %wk, %bk stride [1, 1] pad [1, 1, 1, 1]
        : tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>, tensor<4xf16> -> tensor<1x4x8x8xf16>
    %f = tosa.cast %c : (tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf32>
    %y = tosa.transpose %f {perms = array<i32: 0, 2, 3, 1>} : ... -> tensor<1x8x8x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::dla::DLADialect",
    "::mlir::tosa::TosaDialect",
  ];
  let options = [
    Option<"targetOption", "target", "std::string", /*default=*/"\"\"",
           "NVDLA target (nv_full, nv_large, nv_small or nvdla:<config>); default: "
           "the module's dla.target, else nv_full. Recorded on the module as dla.target">,
    Option<"config", "config", "std::string", /*default=*/"\"\"",
           "Deprecated alias of target (warns)">,
    Option<"precision", "precision", "::dlaformat::nvdla::Precision",
           /*default=*/"::dlaformat::nvdla::Precision::Fp16",
           "Precision the offloaded layers compute in; floating-point networks "
           "offload only in fp16",
           "::mlir::dla::EnumTableValues<::dlaformat::nvdla::Precision>()">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Remark, on the module, how many layers (and what share of the "
           "multiply-accumulates) run on the accelerator">,
    Option<"emulator", "emulator", "bool", /*default=*/"true",
           "On an int8 target, the softmax of a layer's dequantized 1xCx1x1 "
           "result becomes dla.emu_softmax (NVIDIA's runtime emulator, an EMU "
           "task after the DLA task; int8 probabilities in steps of 1/128) "
           "instead of host float arithmetic">,
  ];
}

// The fp16 arithmetic of the reference patterns (ReferenceOptions).
defvar Fp16ArithmeticOption = Option<"fp16Arithmetic", "fp16-arithmetic",
    "::mlir::dla::Fp16Arithmetic", "::mlir::dla::Fp16Arithmetic::Hardware",
    "What fp16 layers on nv_full compute: hardware (NVDLA's arithmetic, bit-exact "
    "with its C model) or ideal (exact products in f32, one rounding)",
    [{::llvm::cl::values(
        clEnumValN(::mlir::dla::Fp16Arithmetic::Hardware, "hardware",
                   "NVDLA's arithmetic (the v1 C model's)"),
        clEnumValN(::mlir::dla::Fp16Arithmetic::Ideal, "ideal",
                   "exact products in f32, one rounding at the output"))}]>;

def DLATestSoftmaxChains : Pass<"dla-test-softmax-chains", "::mlir::func::FuncOp"> {
  let summary = "Test hook: the int8 softmax's exp and reciprocal chains on marked ops";
  let description = [{
    The chains of the int8 softmax over a row of keys on nv_small
    (docs/WholeNetworks.md, "The softmax over 40 keys on nv_small"),
    planned by SoftmaxTables.cpp and built by TablePrograms.cpp, on ops a
    test marks; the softmax's recognizer is to call the builders, until
    then this pass lets tests run them:
    - an op of one rank-4 int8 result marked `dla.test_exp_scale = s`
      (its result d = m - s - 128 for scores at scale s): the exp
      e = 127 exp(-s (d + 128)) as offline SDP passes over that result
      (`emitTableProgram`, step 4), which its users then read;
    - a `dla.conv` marked `dla.test_reciprocal_keys = N` (its accumulator
      the sum S of a row's e over N keys, S in 127..127 N): the reciprocal
      r = rint(127^2 / S) as a chain over that accumulator, per segment a
      copy of the convolution and an on-the-fly SDP
      (`emitAccumulatorChain`, step 6).
    Tests: test/Conversion/TosaToDLA/test-softmax-chains.mlir,
    test/Execution/reciprocal-chain.test, test/Execution/exp-chain.test,
    test/NvdlaCModel/trace-reciprocal-chain.test.
  }];
  let dependentDialects = ["::mlir::dla::DLADialect"];
  let options = [
    Option<"maxSegments", "max-segments", "unsigned", /*default=*/"24",
           "the segments allowed (SoftmaxTables.h kSoftmaxMaxSegments)">,
  ];
}

def DLALowerToReference : Pass<"dla-lower-to-reference"> {
  let summary = "Lower NVDLA layer ops to upstream linalg/arith/tensor (executable reference)";
  let description = [{
    Gives every layer op (`dla.conv` direct / Winograd / image, `dla.sdp`,
    `dla.pool`, `dla.lrn`) the meaning of the NVDLA unit that runs it, as
    upstream `linalg` / `arith` / `math` / `tensor` ops on plain logical
    tensors, so that a compiled network executes on the CPU (with
    `--dla-lower-to-llvm` and `mlir-runner` or the ExecutionEngine).

    Operands and results keep their accelerator encodings: an encoded
    operand is read through `dla.relayout` to row-major, and the row-major
    result is written back through `dla.relayout` to the result's encoding.
    The memory formats between layers stay exactly the accelerator's; the
    memref lowering turns the relayouts into code that reads and writes
    those bytes.

    Arithmetic follows the "real precision in pipeline" of NVDLA's
    precision-conversion tables (asked from `dla/Format/NvdlaConversion.h`;
    an invalid layer is diagnosed with the table's message):
    - fp16 pipelines multiply f16 values exactly in f32 and accumulate in
      f32 (CACC's fp32), then round once to the output precision: to f16
      nearest-even, with overflow clipped to +-65504 ("exceeding maximal
      normal value ... clipped to max normalized value");
    - int8 / int16 convolutions accumulate in i32 / i64 (CACC int32 /
      int48), SDP int32 pipelines compute in i64; integer outputs saturate;
      float -> integer rounds half away from zero (the convertor's rounding)
      and saturates;
    - the ops carry no convertor parameters, so every convertor is the
      identity (offset 0, scale 1, shift 0);
    - pooling compares / sums in the pipeline type; average divides by
      kh * kw with padded elements counted as zero (PDP pads with a value
      and multiplies by the reciprocal kernel size); max / min ignore
      padding;
    - LRN computes `x / (k + alpha / size * sum x^2)^beta` in f32 over the
      channels [c - (size-1)/2, c + size/2] clipped to the tensor, then
      rounds to the output precision.
    `docs/ReferenceSemantics.md` holds the full table.

    ```mlir
    %y = dla.pool max %x kernel [2, 2] stride [2, 2]
        : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x2x2xf16, #dla.feature<fp16>>
    // becomes
    %p = dla.relayout %x : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x4x4xf16>
    %e = linalg.generic ... arith.extf ... : tensor<1x8x4x4xf32>
    %m = linalg.generic {iterator_types = [parallel x 4, reduction x 2]} ... arith.maximumf
    %t = linalg.generic ... arith.truncf ... : tensor<1x8x2x2xf16>
    %y = dla.relayout %t : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16, #dla.feature<fp16>>
    ```

    Layer ops with dynamic shapes are diagnosed, not lowered.

    `fp16-arithmetic` (docs/NvdlaFp16.md "The CPU execution"): on an
    NVDLA nv_full target, `hardware` (the default) computes a direct fp16
    convolution, its bias and the fp16 SDP's X stages as NVDLA does, bit
    for bit with NVIDIA's v1 C model: CMAC's block-floating-point atoms,
    CACC's 48-bit accumulator and its fp32, the SDP's fp32 steps, the
    output converter (calls into the runtime functions of
    `dla/ExecutionRuntime/NvdlaRuntime.h`; a convolution followed only by
    on-the-fly SDPs hands them CACC's fp32, unrounded); `ideal` keeps the
    f32 meaning above (exact products, one rounding at the output). Other
    targets always compute `ideal`. An fp16 convolution `hardware` does not
    cover (Winograd other than 3x3 at stride 1, or without stored taps)
    keeps `ideal`'s meaning with a located remark saying why.

    With `skip-storage-layers`, the hardware layers that
    `--dla-lower-to-memref` runs in a `dla.on_storage` and
    `--dla-lower-buffers-to-reference` can run are left alone: those with
    an encoded operand or result whose every operand and result has a
    storage buffer type (compressed weights: their three surfaces, once a
    constant is packed into them). The rest
    (plain layers among them) is lowered here. Layer ops already in a
    `dla.on_storage` are never lowered here.
  }];
  let options = [
    Option<"skipStorageLayers", "skip-storage-layers", "bool", /*default=*/"false",
           "Leave the encoded layer ops that the memref lowering runs on their "
           "storage (dla.on_storage)">,
    Fp16ArithmeticOption,
  ];
  // bufferization, memref, scf: Winograd weights read from their storage
  // bytes (ReferenceWinograd.h); func: the runtime calls of fp16 layers.
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"];
}

def DLAEncodingsToMemref : Pass<"dla-encodings-to-memref", "::mlir::ModuleOp"> {
  let summary = "Lower dla-encoded tensors to storage byte buffers with explicit strides";
  let description = [{
    Materializes every `dla` encoding before bufferization (as IREE's
    MaterializeEncoding does): a type converter maps an encoded tensor to
    its storage bytes `tensor<BYTES x i8>`, every op with an encoded type is
    illegal, and a partial conversion rewrites
    - function arguments and results to their storage bytes (the ABI: an
      encoded tensor crosses a function boundary as `memref<BYTES x i8>`,
      aligned as the NVDLA alignment table says, 64 B for chunked layouts;
      after bufferization each storage argument is used through
      `memref.assume_alignment` with that alignment);
    - packed constants (`arith.constant dense_resource<...>`, from
      `--dla-pack-weights`) to `memref.global` constants on the same blob,
      aligned (256 B for weights); compressed weights to three globals
      (`__dla_weights_wgs`, `_wmb`, `_data`);
    - `dla.relayout` of a non-constant to loops: the destination is zeroed
      (padding), then every element moves through the typed strided views
      the format library describes (`memref.view` + `memref.reinterpret_cast`
      to `memref<..., strided<[...], offset: ...>>`; one view per pixel
      component, 32-bit words with bit fields for 10-bit pixels). Layouts
      with no strided view (most NVDLA weights) go through a compile-time
      table of byte offsets;
    - `dla.to_storage` / `dla.from_storage` to the storage itself;
    - hardware layers with an encoded operand or result (a layer op, or a
      convolution and the SDP it runs on the fly with) to a
      `dla.on_storage` on the storage buffers of their operands, the
      result written into a new storage buffer; the layer ops move into its
      body unchanged. Layer ops without any encoding are left alone (run
      `--dla-lower-to-reference` for them).
    Upstream One-Shot Bufferize (function boundaries, identity layouts) then
    runs on the encoding-free module.

    Host ops are not lowered here: the `--dla-lower-to-memref` pipeline
    (lib/Pipelines) runs the host lowering (TOSA to linalg, plain layer ops
    through `--dla-lower-to-reference`, `--dla-pack-weights`) and then this
    pass, so it takes any module that mixes host TOSA and dla ops.

    Diagnosed, never bufferized: dynamic shapes with an encoding, relayouts
    of non-constants into compressed or Winograd weights ("only constants
    pack into ..."), encoded constants that are not packed blobs, and any
    other op with an encoded operand.

    ```mlir
    func.func @f(%x: tensor<1x20x5x6xf16>) -> tensor<1x20x5x6xf16, #dla.feature<fp16>> {
      %y = dla.relayout %x : tensor<1x20x5x6xf16> -> tensor<1x20x5x6xf16, #dla.feature<fp16>>
      return %y : tensor<1x20x5x6xf16, #dla.feature<fp16>>
    }
    // becomes
    func.func @f(%x: memref<1x20x5x6xf16>) -> memref<1920xi8> {
      %s = memref.alloc() {alignment = 32 : i64} : memref<1920xi8>
      linalg.fill ins(%c0_i8 : i8) outs(%s : memref<1920xi8>)
      %v = memref.view %s[%c0][] : memref<1920xi8> to memref<960xf16>
      %t = memref.reinterpret_cast %v to offset: [0], sizes: [1, 2, 5, 6, 16],
          strides: [960, 480, 96, 16, 1] : memref<960xf16> to
          memref<1x2x5x6x16xf16, strided<[960, 480, 96, 16, 1]>>
      scf.for ... { memref.load %x[...]; memref.store ..., %t[...] }
      return %s : memref<1920xi8>
    }
    ```
  }];
  let options = [
    Option<"skipBufferize", "skip-bufferize", "bool", /*default=*/"false",
           "Stop after materializing encodings (tensors of storage bytes), "
           "before One-Shot Bufferize">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"];
}

def DLALowerBuffersToReference
    : Pass<"dla-lower-buffers-to-reference", "::mlir::ModuleOp"> {
  let summary = "Execute dla.on_storage on the CPU";
  let description = [{
    Runs each `dla.on_storage` (what `--dla-lower-to-memref` makes of an
    encoded hardware layer) on the CPU, to check that the memref form means
    what the tensor form means: every operand's storage is unpacked into a
    row-major buffer (the relayout loops of `--dla-lower-to-memref`), the
    layer ops of the body are computed on those buffers by the same
    patterns as `--dla-lower-to-reference`, and each result is packed into
    its storage. The tensors this makes are bufferized
    (`convert-elementwise-to-linalg`, `one-shot-bufferize`), so the module
    stays in the memref world. `--dla-lower-to-llvm` runs it after
    `--dla-lower-to-memref`.

    ```mlir
    dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<512xi8>) {
    ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>):
      %p = dla.pool max %a kernel [2, 2] stride [2, 2]
          : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
      dla.yield %p : tensor<1x16x4x4xf16, #dla.feature<fp16>>
    }
    // becomes: unpack loops from %x into memref<1x16x8x8xf16>, the linalg
    // of dla.pool, pack loops into %y
    ```
  }];
  let options = [Fp16ArithmeticOption];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    // The storage copies (StorageCopy.cpp) move vectors.
    "::mlir::vector::VectorDialect"];
}

#endif // DLA_CONVERSION_PASSES_TD
