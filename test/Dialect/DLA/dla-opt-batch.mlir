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

// CODES: {{^}}0{{$}}
// CODES-NEXT: {{^}}1{{$}}
// CODES-NEXT: {{^}}0{{$}}
// ERR: bad.mlir:1:14: error: expected non-function type
// EMPTY: {{^}}0{{$}}

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
