// dla-opt --batch (dla-run-onnx's model lists): several inputs compiled with
// the same options in one process; each one's standard error goes to its
// own file and its exit code to stdout; a failing input leaves the next
// unaffected.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "open('%t/bad.mlir', 'w').write('func.func @f( {\n')"
// RUN: %python -c "t = '%t/'; open(t + 'list', 'w').write(''.join('%%s\t%%s\t%%s\n' %% (i, t + o + '.mlir', t + o + '.err') for i, o in (('%s', 'a'), (t + 'bad.mlir', 'b'), ('%s', 'c'))))"
// RUN: dla-opt --batch --canonicalize < %t/list | FileCheck %s --check-prefix=CODES
// RUN: FileCheck %s --input-file=%t/a.mlir
// RUN: FileCheck %s --input-file=%t/c.mlir
// RUN: FileCheck %s --input-file=%t/b.err --check-prefix=ERR
// RUN: wc -c < %t/a.err | FileCheck %s --check-prefix=EMPTY
// RUN: not test -e %t/b.mlir
// A line without its three fields, a diagnostics file that cannot be written:
// RUN: %python -c "open('%t/short', 'w').write('%s\t%t/d.mlir\n')"
// RUN: not dla-opt --batch < %t/short 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %python -c "open('%t/nodir', 'w').write('%s\t%t/e.mlir\t%t/missing/e.err\n')"
// RUN: not dla-opt --batch < %t/nodir 2>&1 | FileCheck %s --check-prefix=NODIR
// The same list through MlirOptMain (--mlir-timing: a context per input):
// RUN: dla-opt --batch --canonicalize --mlir-timing < %t/list | FileCheck %s --check-prefix=CODES
// RUN: FileCheck %s --input-file=%t/c.mlir
//
// The inputs of a batch share one context and pass manager (BatchSession.h);
// diagnostics at an imported model's nodes still name the node, go to their
// own input's file, and are filtered by verbosity, a verifier error at
// parsing included:
// RUN: %python -c "d, t = '%S/Inputs/batch-node-', '%t/'; open(t + 'nodes', 'w').write(''.join('%%s\t%%s\t%%s\n' %% (d + i, t + o + '.mlir', t + o + '.err') for i, o in (('remark.mlir', 'r1'), ('error.mlir', 'e'), ('remark.mlir', 'r2'))))"
// RUN: dla-opt --batch --dla-convert-tosa < %t/nodes | FileCheck %s --check-prefix=CODES
// RUN: FileCheck %s --input-file=%t/r1.err --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/r2.err --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/e.err --check-prefix=NODE-ERROR
// RUN: dla-opt --batch --dla-convert-tosa --mlir-diagnostic-verbosity-level=errors < %t/nodes \
// RUN:   | FileCheck %s --check-prefix=CODES
// RUN: wc -c < %t/r2.err | FileCheck %s --check-prefix=EMPTY
// RUN: FileCheck %s --input-file=%t/e.err --check-prefix=NODE-ERROR
//
// Without the implicit module the pipeline anchors on each input's top-level
// op, as MlirOptMain's does: a func.func, then a module (dla-opt-batch.mlir
// itself), then a func.func again.
// RUN: %python -c "open('%t/func.mlir', 'w').write('func.func @f() -> i32 {\n  %%a = arith.constant 2 : i32\n  %%b = arith.addi %%a, %%a : i32\n  return %%b : i32\n}\n'); open('%t/top', 'w').write(''.join('%%s\t%%s\t%%s\n' %% (i, '%t/' + o + '.mlir', '%t/' + o + '.err') for i, o in (('%t/func.mlir', 'f1'), ('%t/a.mlir', 'm'), ('%t/func.mlir', 'f2'))))"
// RUN: dla-opt --batch --no-implicit-module --canonicalize < %t/top | FileCheck %s --check-prefix=CODES3
// RUN: FileCheck %s --input-file=%t/f2.mlir --check-prefix=TOP
// RUN: FileCheck %s --input-file=%t/m.mlir

// CODES: {{^}}0{{$}}
// CODES-NEXT: {{^}}1{{$}}
// CODES-NEXT: {{^}}0{{$}}
// ERR: bad.mlir:1:14: error: expected non-function type
// CODES3-COUNT-3: {{^}}0{{$}}
// TOP: func.func @f() -> i32 {
// TOP-NEXT: %[[C:.*]] = arith.constant 4 : i32
// TOP-NEXT: return %[[C]]
// REMARK: m.onnx: node 'mm1': remark: stays on the host: its right operand is not a constant
// NODE-ERROR: m.onnx: node 'add1': error: 'tosa.add' op requires the same element type for all operands and results
// EMPTY: {{^}}0{{$}}
// SHORT: dla-opt --batch: expected INPUT<TAB>OUTPUT<TAB>DIAGNOSTICS, got '{{.*}}dla-opt-batch.mlir{{.*}}d.mlir'
// NODIR: dla-opt --batch: cannot write '{{.*}}missing/e.err'

// Folded by --canonicalize in both runs.
// CHECK-LABEL: func.func @sum
// CHECK-NEXT: %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT: return %[[C]]
func.func @sum() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
