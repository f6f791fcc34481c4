//===- Passes.td - Passes of the dla dialect ---------------*- tablegen -*-===//
#ifndef DLA_PASSES_TD
#define DLA_PASSES_TD

include "mlir/Pass/PassBase.td"

def DLAPackWeights : Pass<"dla-pack-weights", "::mlir::ModuleOp"> {
  let summary = "Fold dla.relayout of constants into packed dense_resource storage";
  let description = [{
    Every `dla.relayout` whose source is an `arith.constant` becomes an
    `arith.constant` of the relayout's result type whose value is a
    `dense_resource` blob holding the exact storage bytes of the result
    encoding: padding included (zero), elements little-endian, each element
    in ceil(bitwidth / 8) bytes. Source constants left without users are
    erased. The packed data is never materialized as a `DenseElementsAttr`;
    independent constants are packed in parallel on the context's thread
    pool.

    Before:
    ```mlir
    %c = arith.constant dense<...> : tensor<1x3x5x30xi8>
    %p = dla.relayout %c : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
    ```
    After:
    ```mlir
    %p = arith.constant dense_resource<dla_packed> : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
    {-#
      dialect_resources: { builtin: { dla_packed: "0x40000000000102..." } }
    #-}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"int64_t(1) << 31",
           "Diagnose, before allocating it, the constant whose packing would "
           "take the pass past this many bytes (default 2 GiB): the sum over "
           "every constant of its storage surfaces, temporaries (compressed "
           "weights at their worst) and copy of the source. Not counted: the "
           "input module, and the textual printer, which holds 4 to 6 more "
           "bytes per byte of a packed constant while it prints it "
           "(--emit-bytecode: none), so a run peaks below 7 x max-bytes plus "
           "the input">,
  ];
}

def DLACheckPrecision : Pass<"dla-check-precision"> {
  let summary = "Check NVDLA precision conversions of layer ops and annotate them";
  let description = [{
    Checks every layer op (`dla.conv`, `dla.sdp`, `dla.pool`, `dla.lrn`)
    against NVDLA's precision-conversion rules: the four tables of the
    in-memory format document (convolution, SDP offline, LRN, pooling, with
    the errata of the spec README) and the prose rules (conversion only in
    image input mode; direct and Winograd convert nothing; on-the-fly SDP
    takes the convolution's output precision and keeps the bit depth; LRN
    and pooling convert nothing). The tables live once, in
    `dla/Format/NvdlaConversion.h`.

    A valid op is annotated with `pipeline_precision` (the real precision in
    the pipeline) and, for convolutions, `weight_precision`; its weights must
    have that precision. An invalid op gets an error naming the table or
    rule, the configured input and output, and the legal outputs:

    ```
    error: invalid precision conversion for LRN layer: int8 feature data -> fp16 (valid: int8)
    ```

    The pass fails if any op is invalid.

    ```mlir
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xi8> -> tensor<1x8x2x2xi8>
    // becomes
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] {pipeline_precision = #dla.pipeline_precision<int8>} : ...
    ```
  }];
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
  ];
  // bufferization, memref, scf: Winograd weights read from their storage
  // bytes (ReferenceWinograd.h).
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"];
}

def DLAAssignLayouts : Pass<"dla-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every tensor of the layer ops an accelerator encoding, at the least relayout cost";
  let description = [{
    For every function, picks one layout variant per op that implements
    `LayoutConstrainedOpInterface` (the NVDLA layer ops; upstream linalg
    named ops on an HTP target) and inserts `dla.relayout` where a value must
    change form. The target is the `target` option, else the module's
    `dla.target`, else NVDLA nv_full; the pass records it on the module.

    - Function arguments and results keep the types they declare: relayouts
      go at the boundary. An encoding the user wrote (an argument, a
      relayout, a layer op result) is never changed: a conflicting reader gets
      a relayout.
    - Cost of a relayout = bytes read + bytes written, padding included
      (storage bytes of both encodings, from the format library). The choice
      minimises the total: exactly when the graph of ops and values is a
      forest (chains, trees, values with several readers); on graphs with
      reconvergent paths an exact spanning forest is improved by local moves
      and the function's remark says the result is the best found.
    - Readers that accept the same feature data with other strides read one
      buffer (the hardware reads sub-cubes of a larger cube): no relayout.
    - Constant operands are relayouted at compile time (`--dla-pack-weights`
      folds them): they cost nothing at run time. With `compression`,
      constant weights take `compressed` when WGS + WMB + data are smaller
      than the dense stream (sizes from the format library's packer).
    - `winograd=auto` turns an eligible direct convolution with constant
      weights (an arith.truncf of an f32 constant included) into Winograd,
      with a remark either way (why a convolution stays direct, or that the
      configuration has no Winograd). Weights that are an arith.truncf of
      an f32 constant are relayouted from the f32 constant (transformed in
      f32, rounded once with the truncf's rounding, as NVIDIA's compiler
      does); the truncf goes when nothing else reads it. Integer weights
      (quantized already) turn Winograd only where their taps
      round(G q G^T) are exact (integral, in range): elsewhere Winograd
      would round them again or saturate (NVIDIA's compiler never takes
      Winograd at int8).
    - The summary remark counts the Winograd convolutions and compressed
      weights (`dla-run-onnx --layouts` prints them).
    - Every relayout gets a remark with its cost and reason; statistics
      count relayouts and bytes.

    ```mlir
    func.func @f(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16> {
      %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16> -> tensor<1x16x4x4xf16>
      return %y : tensor<1x16x4x4xf16>
    }
    // becomes
    func.func @f(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16> {
      %0 = dla.relayout %x : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
      %y = dla.pool max %0 kernel [2, 2] stride [2, 2]
          : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
      %1 = dla.relayout %y : tensor<1x16x4x4xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16>
      return %1 : tensor<1x16x4x4xf16>
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target: nv_full, nv_large, nv_small (NVDLA), nvdla:<config>, or htp; "
           "overrides the module's dla.target">,
    Option<"winograd", "winograd", "::mlir::dla::WinogradPolicy",
           /*default=*/"::mlir::dla::WinogradPolicy::Off",
           "Whether eligible direct convolutions become Winograd",
           [{::llvm::cl::values(
               clEnumValN(::mlir::dla::WinogradPolicy::Off, "off",
                          "keep every convolution's mode"),
               clEnumValN(::mlir::dla::WinogradPolicy::Auto, "auto",
                          "turn eligible direct convolutions with constant weights into Winograd"))}]>,
    Option<"compression", "compression", "bool", /*default=*/"true",
           "Compress constant weights when WGS + WMB + data are smaller than the "
           "dense stream (on configurations whose hardware reads compressed weights)">,
    Option<"pixelFormat", "pixel-format", "std::string", /*default=*/"\"\"",
           "Pixel format of image-convolution inputs that are not encoded "
           "(e.g. T_A8B8G8R8); default: the first format of the table that fits">,
    Option<"banks", "banks", "int64_t", /*default=*/"0",
           "As --dla-split-convolutions' banks: winograd=auto takes Winograd only "
           "where the layer fits them">,
    Option<"bankEntries", "bank-entries", "int64_t", /*default=*/"0",
           "As --dla-split-convolutions' bank-entries">,
  ];
  let statistics = [
    Statistic<"numRelayouts", "relayouts", "Relayouts inserted that run at run time">,
    Statistic<"numRelayoutBytes", "relayout-bytes", "Bytes read + written by those relayouts">,
    Statistic<"numConstantRelayouts", "constant-relayouts", "Relayouts of constants (packed at compile time)">,
    Statistic<"numCompressed", "compressed-weights", "Constant weights given the compressed format">,
    Statistic<"numWinograd", "winograd", "Direct convolutions turned into Winograd">,
  ];
  let dependentDialects = ["::mlir::dla::DLADialect"];
}

def DLASplitConvolutions : Pass<"dla-split-convolutions", "::mlir::ModuleOp"> {
  let summary = "Cut convolutions whose data and weights exceed the convolution buffer into layers that fit";
  let description = [{
    For every `dla.conv` of an NVDLA target, asks the format
    library (`dla/Format/NvdlaConvBuffer.h`, NVIDIA's compiler's rules) how
    many convolution-buffer banks its input rows and weights take. When all
    the input fits beside all the weights, two kernel groups or one (the
    hardware then streams the kernel groups itself), nothing changes.
    Otherwise the convolution is cut by output rows ("partial height", as
    NVIDIA's compiler does) into convolutions that each fit: each reads the
    input rows its output rows' windows cover (`tensor.extract_slice`, the
    top and bottom padding only where the part touches the edge), and the
    parts' outputs are concatenated (`tensor.concat`). A fused
    (`on_the_fly`) `dla.sdp` is cut with its convolution, its per-element
    operands by the same rows. Each split gets a remark with the banks and
    bytes per part; a layer whose single output row does not fit is an
    error naming the buffer's size.

    Kernels are not cut: the hardware streams kernel groups (ping-pong or
    one group at a time), and NVIDIA's compiler has no software split by
    kernels either (`splitWeightsAndData` is "not yet supported"). Winograd
    convolutions are planned with the Winograd sizes (the extended input
    cube, 4x4 transformed taps) and never cut: one that does not fit is an
    error (NVIDIA's compiler falls back to direct mode; `winograd=auto`
    keeps such a layer direct). A convolution that needs a cut but cannot
    take one is a located error saying why: its operands already carry
    layouts (this pass runs before `--dla-assign-layouts`), its fused SDP's
    element-wise operand has no static shape, or another op reads its
    accumulator beside the fused SDP.

    The result computes exactly what the convolution did.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target: nv_full, nv_large, nv_small (NVDLA), nvdla:<config>, or htp; "
           "overrides the module's dla.target">,
    Option<"banks", "banks", "int64_t", /*default=*/"0",
           "Banks of the convolution buffer the compiler may use (NVIDIA's profiles allot "
           "fewer to leave room); 0: all of the target's CBUF_BANK_NUMBER">,
    Option<"bankEntries", "bank-entries", "int64_t", /*default=*/"0",
           "Entries per bank (0: the target's CBUF_BANK_DEPTH); fewer model a smaller "
           "buffer, as tests do to force splits on small layers">,
  ];
  let statistics = [
    Statistic<"numSplit", "split-convolutions", "Convolutions cut by output rows">,
    Statistic<"numParts", "parts", "Convolutions they became">,
  ];
  let dependentDialects = ["::mlir::dla::DLADialect", "::mlir::tensor::TensorDialect"];
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
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    // The storage copies (StorageCopy.cpp) move vectors.
    "::mlir::vector::VectorDialect"];
}

def DLAOutlineKernels : Pass<"dla-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Outline each linalg op on memrefs into a private function";
  let description = [{
    Every linalg op on buffers, and every loop nest at the top of a
    function body (the relayout loops of `--dla-lower-to-memref`), becomes a
    call to a private `func.func` holding it alone, marked `no_inline`: its
    memref operands are arguments cast to dynamic sizes (row-major stays
    row-major, a unit innermost stride stays known), the constants it reads
    are cloned in. A `memref.copy` into or out of a strided view (a padded
    input, a slice of a concatenation) becomes a `linalg.copy` kernel first:
    its LLVM lowering would call the runtime's `memrefCopy`, one `memcpy`
    per element. Identical kernels (same op, same body) then share one
    function (`duplicate-function-elimination`): one per layer kind rather
    than per layer. An op with reductions first gets the parallel loop of
    its output's innermost dimension innermost (a convolution's output
    column), a stream LLVM vectorizes; each output element keeps the order
    of its sum. What it is for: the JIT compiles a
    network as a few hundred small functions, one per layer kind and shape,
    instead of one straight-line function of thousands of loops, which
    LLVM's passes and register allocator handle in superlinear time. The
    arithmetic is untouched: each op computes what it computed inline.
    A body left without loops (calls, allocations, frees) is compiled
    unoptimized (`passthrough = ["noinline", "optnone"]`: LLVM has nothing
    to speed up there) and cut into blocks of 8 calls (`cf.br`):
    instruction selection works a block at a time, in time growing faster
    than the block.

    ```mlir
    linalg.fill ins(%c0 : f32) outs(%a : memref<1x8x24x96xf32>)
    // becomes
    %d = memref.cast %a : memref<1x8x24x96xf32> to memref<?x?x?x?xf32>
    func.call @__dla_kernel(%d) {no_inline} : (memref<?x?x?x?xf32>) -> ()
    func.func private @__dla_kernel(%arg0: memref<?x?x?x?xf32>) attributes {no_inline} {
      %c0 = arith.constant 0.0 : f32
      linalg.fill ins(%c0 : f32) outs(%arg0 : memref<?x?x?x?xf32>)
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect", "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def DLAVectorizeKernels : Pass<"dla-vectorize-kernels", "::mlir::ModuleOp"> {
  let summary = "Register-tiled vector loops for linalg ops with reductions";
  let description = [{
    A linalg op on buffers with reductions (a convolution, a pooling
    window, a matrix product) whose output's innermost dimension `w` is a
    parallel loop, whose body is element-wise `arith` / `math` (no integer
    division) and whose inputs read `w` only in their innermost index as
    `c * w + ...` (unit innermost stride) becomes explicit loops: the
    parallel loops, then tiles of 16 output columns (masked at the edge),
    and inside each tile the reduction loops in the op's order with the
    accumulators in vectors; an input read along `w` is one masked load (a
    gather for c > 1), another a broadcast scalar. A parallel dimension of
    the output that some vector input does not read (a convolution's
    output channel) is blocked by 8 (4 for 64-bit accumulators): that
    input's vector serves 8 accumulators. Each output element applies the
    body to the same operands in the same order as the scalar loops, so
    the results are identical bit for bit; only loads and stores of the
    accumulators are saved (LLVM keeps the column loop vectorized but
    streams every output row through memory once per product).

    ```mlir
    linalg.generic {... iterator_types = ["parallel", "parallel", "parallel",
                     "reduction", "parallel"]} ins(%x, %w : ...) outs(%y : ...)
    // becomes
    scf.for %n ... scf.for %oh ... scf.for %f = 0 to %F8 step 8 {
      scf.for %ow = 0 to %OW step 16 {
        %m = vector.create_mask ...
        %acc0 = vector.maskedload %y[...], %m, %zero ... (8 accumulators)
        %r:8 = scf.for %c ... iter_args(...) {
          %xv = vector.maskedload %x[...]        // shared by the 8
          %w0 = vector.broadcast (memref.load %w[%f, %c])
          ... arith.mulf, arith.addf per accumulator
        }
        vector.maskedstore %y[...], %m, %r#0 ...
      }
    }  // then %f from %F8 to %F one at a time
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect"];
}

def DLAFreeAfterLastUse : Pass<"dla-free-after-last-use", "::mlir::func::FuncOp"> {
  let summary = "Free each buffer after its last use instead of at the end of its block";
  let description = [{
    Runs after `ownership-based-buffer-deallocation`, which frees every
    buffer a block allocates in one `bufferization.dealloc` at the block's
    end: in a network's body (one block of thousands of layers) every
    intermediate tensor then stays allocated until the function returns
    (the PaddleOCR recognizer in int8 with layouts: 3.7 GB per input
    line), and `buffer-deallocation-simplification` compares each pair of
    those buffers (minutes). Here, a buffer of that dealloc that a
    `memref.alloc` of the same block made, owned unconditionally (a
    constant true condition), that no retained value may alias, and
    whose every alias (`BufferViewFlowAnalysis`: views, region and branch
    arguments, results of unknown ops) is used only inside this block,
    is freed by a `memref.dealloc` right after the last op of the block
    that uses it or an alias, and leaves the block-end dealloc. A buffer
    that escapes where the analysis cannot follow (a call, its pointer
    taken as an index, a tensor made of it) keeps the block-end dealloc.

    ```mlir
    %a = memref.alloc() : memref<8xf32>
    linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
    memref.copy %a, %b : memref<8xf32> to memref<8xf32>
    ... (more layers)
    %base, ... = memref.extract_strided_metadata %a : ...
    bufferization.dealloc (%base : memref<f32>) if (%true)
    // becomes
    %a = memref.alloc() : memref<8xf32>
    linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
    memref.copy %a, %b : memref<8xf32> to memref<8xf32>
    memref.dealloc %a : memref<8xf32>
    ... (more layers)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def DLAResultsThroughPointer : Pass<"dla-results-through-pointer", "::mlir::ModuleOp"> {
  let summary = "Write a function's many results through its C interface's pointer";
  let description = [{
    Runs on the LLVM dialect. A function's results are one struct of their
    memref descriptors, built with `llvm.insertvalue` and returned by
    value; its C interface (`_mlir_ciface_NAME`, what the execution engine
    calls) stores that struct through its first argument. With many
    results (dla-calibrate's network returns every activation: 222
    descriptors, 2400 scalars) LLVM's instruction selection of the return
    and of the stored call result costs time growing faster than the
    scalars (1.3 s of the calibration's 2.2 s of code generation). A
    function returning a struct of 64 scalars or more, called only by its
    C interface, which stores the result, takes the pointer as a new first
    argument instead and stores each scalar through it; its C interface
    passes the pointer on. The C interface's signature and what it stores
    are unchanged; the function's own signature changes (results through
    the pointer, no return value).

    ```mlir
    llvm.func @main(%a: i64) -> !llvm.struct<(i64, ...)> {
      ...
      llvm.return %s : !llvm.struct<(i64, ...)>
    }
    llvm.func @_mlir_ciface_main(%r: !llvm.ptr, %a: i64) {
      %s = llvm.call @main(%a) : (i64) -> !llvm.struct<(i64, ...)>
      llvm.store %s, %r : !llvm.struct<(i64, ...)>, !llvm.ptr
      llvm.return
    }
    // becomes
    llvm.func @main(%r: !llvm.ptr, %a: i64) {
      ... // each scalar of %s stored at its llvm.getelementptr in %r
      llvm.return
    }
    llvm.func @_mlir_ciface_main(%r: !llvm.ptr, %a: i64) {
      llvm.call @main(%r, %a) : (!llvm.ptr, i64) -> ()
      llvm.return
    }
    ```
  }];
}

def DLAFoldAggregates : Pass<"dla-fold-aggregates"> {
  let summary = "Replace each llvm.extractvalue of a known llvm.insertvalue by the value";
  let description = [{
    Runs on the LLVM dialect (nested on `llvm.func`). `--convert-to-llvm`
    builds a memref descriptor (a struct: pointers, offset, sizes,
    strides) with `llvm.insertvalue` for every buffer a network allocates
    or views, and takes it apart again with `llvm.extractvalue` at every
    call of a kernel: in a network's body most ops are these. Each
    `llvm.extractvalue` whose element the chain of `llvm.insertvalue`
    under it sets (the op's own folder, applied in place until it reaches
    the value) is replaced by that value; the aggregates and constants
    left unused are erased. Nothing else changes: `--canonicalize` on the
    same lowered module took 0.96 s against this pass's 0.08 s. What it
    is for: the JIT's instruction selection at `-O0` (FastISel, and
    always for the unoptimized network body) has no struct values and falls
    back to the slower SelectionDAG for every block holding one. The int8
    classifier on nv_small with `--layouts`: 284k lines of LLVM dialect ->
    123k, `dla-run-onnx --opt-level 0` compile 8.0-8.2 s -> 7.2-7.3 s, the
    same outputs; run times unchanged (the detector with and without
    `--layouts`).

    ```mlir
    %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64)>
    %d1 = llvm.insertvalue %q, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
    %a = llvm.extractvalue %d1[1] : !llvm.struct<(ptr, ptr, i64)>
    llvm.call @k(%a) : (!llvm.ptr) -> ()
    // becomes
    llvm.call @k(%q) : (!llvm.ptr) -> ()
    ```
  }];
}

def DLAFlattenGlobals : Pass<"dla-flatten-globals", "::mlir::ModuleOp"> {
  let summary = "Give every multi-dimensional memref.global one dimension";
  let description = [{
    Each `memref.global` of a static, row-major memref of rank 2 or more
    (the constants a network reads: weights, tables) becomes a global of
    rank 1 with the same elements, alignment and constness, and each
    `memref.get_global` of it a `memref.get_global` of the flat global and
    a `memref.expand_shape` back to the old type: the readers see the same
    buffer. What it is for: `--convert-to-llvm` gives a global of type
    `memref<6625x120x1x1xf32>` the nested type
    `!llvm.array<6625 x array<120 x array<1 x array<1 x f32>>>>`, which the
    translation to LLVM IR builds as 795,000 uniqued constant arrays of one
    element (hundreds of MB and seconds of JIT for a 3 MB weight); a flat
    array is one `ConstantDataArray` of the raw bytes.

    ```mlir
    memref.global "private" constant @w : memref<2x3xf32> = dense<...>
    %0 = memref.get_global @w : memref<2x3xf32>
    // becomes
    memref.global "private" constant @w : memref<6xf32> = dense<...>
    %f = memref.get_global @w : memref<6xf32>
    %0 = memref.expand_shape %f [[0, 1]] output_shape [2, 3]
        : memref<6xf32> into memref<2x3xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // DLA_PASSES_TD
