//===- Passes.td - Passes on upstream IR for the JIT ------*- tablegen -*-===//
//
// Generic passes that --dla-lower-to-llvm runs after the dla lowerings: they
// know nothing of the dla dialect (memref, linalg, func, LLVM only).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TRANSFORMS_PASSES_TD
#define DLA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    parallel loops, then tiles of 16 output columns, whole tiles unmasked
    and the last, partial one under a mask (x86 has no masked load of
    16-bit elements: LLVM makes one of f16 a branch per lane), and inside
    each tile the reduction loops in the op's order with the accumulators
    in vectors; an input read along `w` is one load (a gather for c > 1),
    another a broadcast scalar. The innermost parallel dimension of the
    output that some vector input does not read (an NCHW convolution's
    output channel; an NHWC one's output column, not its batch of 1) is
    blocked by 8 (4 for 64-bit accumulators): that input's vector serves
    8 accumulators. Each output element applies the
    body to the same operands in the same order as the scalar loops, so
    the results are identical bit for bit; only loads and stores of the
    accumulators are saved (LLVM keeps the column loop vectorized but
    streams every output row through memory once per product).

    ```mlir
    linalg.generic {... iterator_types = ["parallel", "parallel", "parallel",
                     "reduction", "parallel"]} ins(%x, %w : ...) outs(%y : ...)
    // becomes
    scf.for %n ... scf.for %oh ... scf.for %f = 0 to %F8 step 8 {
      scf.for %ow = 0 to %OW16 step 16 {
        %acc0 = vector.load %y[...] ... (8 accumulators)
        %r:8 = scf.for %c ... iter_args(...) {
          %xv = vector.load %x[...]              // shared by the 8
          %w0 = vector.broadcast (memref.load %w[%f, %c])
          ... arith.mulf, arith.addf per accumulator
        }
        vector.store %r#0, %y[...] ...
      }
      scf.for %ow = %OW16 to %OW step 16 {      // the partial tile
        %m = vector.create_mask ...             // maskedload, maskedstore
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

def DLAIntegerResizeBorders
    : Pass<"dla-integer-resize-borders", "::mlir::func::FuncOp"> {
  let summary = "Give host integer bilinear tosa.resize non-negative offsets over an edge-padded input";
  let description = [{
    `tosa-to-linalg` computes an integer bilinear `tosa.resize` with a
    negative offset (ONNX's half-pixel coordinates) wrong at the borders:
    the source index rounds toward zero there instead of down. This pass
    pads such a resize's input by its edge rows and columns (what ONNX's
    clamp of the coordinate reads) and moves the offset on by one input
    pixel (and the border back by one), the same interpolation with a
    non-negative offset. Part of the host lowering of
    `--dla-lower-to-memref`, before `tosa-to-linalg`.
  }];
}

def DLAVectorFriendlyConvolutions
    : Pass<"dla-vector-friendly-convolutions", "::mlir::func::FuncOp"> {
  let summary = "Give host NHWC convolutions filters that --dla-vectorize-kernels vectorizes";
  let description = [{
    `tosa-to-linalg-named` lowers a host `tosa.conv2d` to
    `linalg.conv_2d_nhwc_fhwc`: the output's innermost dimension is the
    output channel `f`, which the filter reads in its outermost index, so
    `--dla-vectorize-kernels` leaves it to scalar loops whose innermost
    loop is a float reduction over the input channels (LLVM does not
    vectorize it without reassociating). Here the filter is transposed to
    HWCF (`linalg.transpose`, once per call) and the convolution becomes
    `linalg.conv_2d_nhwc_hwcf` (the float forms: the `_q` forms with zero
    points are left as they are, not measured): `f` innermost in
    both, one vector load of the filter per tap. A depthwise
    `linalg.depthwise_conv_2d_nhwc_hwcm` with a channel multiplier of 1
    becomes `linalg.depthwise_conv_2d_nhwc_hwc` (the channel innermost in
    the input, the filter and the output) between reshapes. Each output
    element sums the same products in the same order (the reduction loops
    are those of the op it replaces): the results are unchanged, bit for
    bit. What it is for: a float network left on the host (dla-calibrate's
    float run, `--no-offload`) ran its convolutions 10-30x slower than the
    same network's offloaded layers.

    ```mlir
    %y = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x34x34x16xf32>, tensor<8x3x3x16xf32>)
        outs(%b : tensor<1x32x32x8xf32>) -> tensor<1x32x32x8xf32>
    // becomes
    %t = linalg.transpose ins(%w : tensor<8x3x3x16xf32>) outs(%e : tensor<3x3x16x8xf32>)
        permutation = [1, 2, 3, 0]
    %y = linalg.conv_2d_nhwc_hwcf ins(%x, %t : tensor<1x34x34x16xf32>, tensor<3x3x16x8xf32>)
        outs(%b : tensor<1x32x32x8xf32>) -> tensor<1x32x32x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

#endif // DLA_TRANSFORMS_PASSES_TD
