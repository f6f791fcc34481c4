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
    takes the convolution's output precision and keeps the bit depth, or
    widens int8 to int16 after a direct or image input convolution, as
    NVIDIA's v1 C model and firmware do; LRN and pooling convert nothing). The tables live once, in
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
    - `winograd=fastest` is `auto` where the format library's performance
      model (`compareLayers`, at the target's configuration, 1 GHz and
      10 GB/s) estimates the layer faster as Winograd than direct: a
      memory-bound layer reads 16/9 of the weights as Winograd and stays
      direct (docs/PerformanceModel.md, "Decisions"); the remark gives
      both estimates.
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
                          "turn eligible direct convolutions with constant weights into Winograd"),
               clEnumValN(::mlir::dla::WinogradPolicy::Fastest, "fastest",
                          "as auto, where the performance model (dla/Format/NvdlaPerformance.h) "
                          "estimates fewer cycles than direct"))}]>,
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
  let summary = "Plan convolutions whose data and weights exceed the convolution buffer as bands of output rows and columns, or cut their input channels";
  let description = [{
    For every `dla.conv` of an NVDLA target, asks the format
    library (`dla/Format/NvdlaConvBuffer.h`, NVIDIA's compiler's rules) how
    many convolution-buffer banks its input rows and weights take. When all
    the input fits beside all the weights, two kernel groups or one (the
    hardware then streams the kernel groups itself), nothing changes.
    Otherwise the convolution runs by output rows ("partial height", as
    NVIDIA's compiler does): the pass sets `rows_per_part`, and the
    register plan (`describeNetwork`) makes it several hardware layers, each
    reading the input rows its output rows' windows cover (the top and
    bottom padding only where the band touches the edge) and writing its
    rows, at address offsets into the same input and result buffers; a
    fused (`on_the_fly`) `dla.sdp` runs with each band, its per-element
    operands read at the same rows. No tensor is cut and no host op copies
    rows. Each planned layer gets a remark with the banks and bytes per
    part; a layer whose single output row does not fit is an error naming
    the buffer's size.

    Kernels are not cut for the buffer's sake: the hardware streams kernel
    groups (ping-pong or one group at a time), and NVIDIA's compiler has no
    software split by kernels either (`splitWeightsAndData` is "not yet
    supported"); only more kernels than one layer writes are (below). Winograd
    convolutions are planned with the Winograd sizes (the extended input
    cube, 4x4 transformed taps) and never cut: one that does not fit is an
    error (NVIDIA's compiler falls back to direct mode; `winograd=auto`
    keeps such a layer direct).

    Weight banks: a convolution cut into bands gives its weights all the
    banks they take (each band then reuses what the first loaded), two
    kernel groups or one (every band reads them again, but each band has
    more rows, so there are fewer). NVIDIA's compiler takes the first of
    these that leaves room for a band; with `weight-banks=fastest` (the
    default) the pass takes the one the performance model
    (`dla/Format/NvdlaPerformance.h`) estimates fastest, records it as
    `weight_banks` when it is not NVIDIA's, and says both estimates in the
    remark. With `bank-entries` (a smaller buffer than the model's) it
    keeps NVIDIA's order.

    Where not even one output column's window fits beside one kernel
    group, or its input channels exceed one layer's (DATAIN_CHANNEL,
    8192), an fp16 convolution is cut by input channels
    (`planConvChannelCut`): it becomes one `dla.conv` per run of whole
    channel atoms, over a `dla.channel_slice` of its input (a view: no
    copy) by a constant slice of its weights, and an on-the-fly `dla.sdp`
    after each part but the first adds the previous part's result, read per
    element from memory (the first part takes the bias; the last part's
    addition moves into the SDP that followed the convolution when that one
    has no batch-norm or element-wise operand of its own, else that SDP
    reads the sum from memory). Each partial sum is rounded to fp16: the
    remark counts the roundings. Integer pipelines are refused with the
    reason (their parts would need int16 partial sums and offline adds).

    A convolution of more kernels than one layer writes (DATAOUT_CHANNEL,
    8192: a fully connected layer of more outputs) runs as parts over
    consecutive kernels, each with its part of the weights, the bias and
    the on-the-fly SDP's operands (per channel, per element: a channel
    view), joined in place by a `dla.channel_concat`: exact in every
    precision.

    Apart from those roundings, what the convolution computes does not
    change.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target: nv_full, nv_large, nv_small (NVDLA), nvdla:<config>, or htp; "
           "overrides the module's dla.target">,
    Option<"banks", "banks", "int64_t", /*default=*/"0",
           "Banks of the convolution buffer the compiler may use (NVIDIA's profiles allot "
           "fewer to leave room); 0: all of the target's CBUF_BANK_NUMBER">,
    Option<"weightBanks", "weight-banks", "::mlir::dla::WeightBankPolicy",
           /*default=*/"::mlir::dla::WeightBankPolicy::Fastest",
           "The banks a cut convolution's weights take",
           [{::llvm::cl::values(
               clEnumValN(::mlir::dla::WeightBankPolicy::Nvidia, "nvidia",
                          "NVIDIA's order: all weights, two kernel groups, one"),
               clEnumValN(::mlir::dla::WeightBankPolicy::Fastest, "fastest",
                          "the allotment the performance model estimates fastest"))}]>,
    Option<"bankEntries", "bank-entries", "int64_t", /*default=*/"0",
           "Entries per bank (0: the target's CBUF_BANK_DEPTH); fewer model a smaller "
           "buffer, as tests do to force splits on small layers">,
  ];
  let statistics = [
    Statistic<"numSplit", "split-convolutions", "Convolutions run by bands of output rows">,
    Statistic<"numParts", "parts", "Hardware layers they become">,
    Statistic<"numByTime", "weight-banks-by-time", "Cut convolutions whose weight banks the model chose over NVIDIA's">,
    Statistic<"numChannelCut", "channel-cuts", "Convolutions cut by input channels (each part's SDP adding the previous part's sums)">,
    Statistic<"numKernelCut", "kernel-cuts", "Convolutions of more than 8192 kernels cut by kernels (parts joined in place)">,
  ];
  let dependentDialects = ["::mlir::dla::DLADialect", "::mlir::arith::ArithDialect"];
}

def DLAOutlineNvdlaProgram : Pass<"dla-outline-nvdla-program", "::mlir::ModuleOp"> {
  let summary = "Outline a compiled network's accelerator layers into one function: its NVDLA program";
  let description = [{
    A compiled int8 network is host work before its layers (quantizing the
    input, relayouting it into feature data), the layers, and host work
    after them (the head a layer does not compute, dequantizing, softmax).
    When no host operation sits between two layers (none reads a layer's
    result and feeds a layer), the layers are one program for NVIDIA's
    runtime: the pass moves every layer op and channel view of each
    function into a private function `@<name>_nvdla` (marked
    `dla.nvdla_program`; the constants they read cloned in), called where
    they were. Its arguments are the feature data the layers read from the
    host, its results what the host reads back. `dla-translate
    --dla-to-nvdla-loadable` writes the marked function; `dla-compile`
    does this for the bundle's `model.nvdla` and names the host steps on
    either side in the manifest.

    Ops of NVIDIA's runtime emulator (`dla.emu_softmax`, `dla.emu_power`)
    that read a layer's result (or such an op's) move too, after the
    layers: the loadable runs them as an EMU task after its DLA task. One
    whose result a layer reads is an error at it (the DLA task runs first).

    A host operation between layers is an error at that operation: the
    network is not one program (it would run as several loadables with
    host work between them). A function without layers is left alone.

    ```mlir
    %f = dla.relayout %q : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8, #feat>
    %c = dla.conv %f, %w ...
    %y = dla.relayout %c : ... -> tensor<1x8x4x4xi8>
    // becomes
    %c = func.call @main_nvdla(%f) : (...) -> tensor<1x8x4x4xi8, #feat>
    ```
  }];
  let statistics = [
    Statistic<"numLayers", "layers", "Layer ops moved into NVDLA programs">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // DLA_PASSES_TD
