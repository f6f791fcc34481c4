// The compiler's table plans (TablePlans.cpp, SoftmaxTables.cpp, printed by
// dla-table-chains) equal utils/dla-ref/softmax_int8_model.py's planner,
// segment by segment (knot, multiplier, shift, values), for the int8
// softmax's exp at the recognizer's two score scales and the reciprocal
// over 40 keys (docs/WholeNetworks.md: 13, 9 and 21 passes), and for the
// tosa.table programs of docs/Activations.md (whose stated errors from the
// function the passes, run in numpy's unit arithmetic, reproduce).

// RUN: dla-table-chains exp 0.0317 > %t.e1
// RUN: %python %dla_ref/table_chains_check.py %t.e1 exp 0.0317 | FileCheck %s --check-prefix=E1
// E1: same: exp 0.0317, 13 segments
// E1-NEXT: passes: from the table 1 (exact below 8: 0)

// RUN: dla-table-chains exp 0.387 > %t.e2
// RUN: %python %dla_ref/table_chains_check.py %t.e2 exp 0.387 | FileCheck %s --check-prefix=E2
// E2: same: exp 0.387, 9 segments
// E2-NEXT: passes: from the table 1 (exact below 8: 0)

// RUN: dla-table-chains exp 0.02 > %t.e3
// RUN: %python %dla_ref/table_chains_check.py %t.e3 exp 0.02 | FileCheck %s --check-prefix=E3
// E3: same: exp 0.02, 13 segments

// More than 16 segments (kMaxTableSegments, a tosa.table's limit): the
// reciprocal's chain over S = 127..5080, exact where r < 16.
// RUN: dla-table-chains reciprocal 40 > %t.r
// RUN: %python %dla_ref/table_chains_check.py %t.r reciprocal 40 | FileCheck %s --check-prefix=R
// R: same: reciprocal 40, 21 segments
// R-NEXT: passes: from the table 1 (exact below 16: 0)

// The tosa.table programs, exact (docs/Activations.md: 29 passes, 0.500
// steps from the function; 39, 0.498; 28, 0.496; within one step of the
// table they took 9, 13 and 13).
// RUN: %python %dla_ref/table_chains_check.py --entries sigmoid 0.0625 0 0.007874015748031496 0 > %t.s1
// RUN: xargs dla-table-chains table < %t.s1 > %t.p1
// RUN: %python %dla_ref/table_chains_check.py %t.p1 table sigmoid 0.0625 0 0.007874015748031496 0 | FileCheck %s --check-prefix=T1
// T1: same: table sigmoid {{.*}}, 29 segments
// T1-NEXT: passes: from the table 0 {{.*}}, from the function 0.500
// RUN: %python %dla_ref/table_chains_check.py --entries tanh 0.03 5 0.0078125 -1 > %t.s2
// RUN: xargs dla-table-chains table < %t.s2 > %t.p2
// RUN: %python %dla_ref/table_chains_check.py %t.p2 table tanh 0.03 5 0.0078125 -1 | FileCheck %s --check-prefix=T2
// T2: same: table tanh {{.*}}, 39 segments
// T2-NEXT: passes: from the table 0 {{.*}}, from the function 0.498
// RUN: %python %dla_ref/table_chains_check.py --entries sigmoid 0.1 0 0.00390625 -128 > %t.s3
// RUN: xargs dla-table-chains table < %t.s3 > %t.p3
// RUN: %python %dla_ref/table_chains_check.py %t.p3 table sigmoid 0.1 0 0.00390625 -128 | FileCheck %s --check-prefix=T3
// T3: same: table sigmoid {{.*}}, 28 segments
// T3-NEXT: passes: from the table 0 {{.*}}, from the function 0.496

// The tool's errors.
// RUN: not dla-table-chains reciprocal 40 20 2>&1 | FileCheck %s --check-prefix=ERR-R
// ERR-R: error: the reciprocal table has no chain of 20 segments
// RUN: not dla-table-chains exp 0.0317 12 2>&1 | FileCheck %s --check-prefix=ERR-E
// ERR-E: error: the exp table has no chain of 12 segments
// RUN: not dla-table-chains exp 0 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not dla-table-chains reciprocal 4.5 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not dla-table-chains 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: error: usage: dla-table-chains exp S_SCALE [MAX] | reciprocal KEYS [MAX] | table V0 .. V255
// RUN: not dla-table-chains table 1 2 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: %python %dla_ref/table_chains_check.py --entries sigmoid 0.0625 0 0.007874015748031496 0 | sed 's/^[^ ]* /x /' > %t.bad
// RUN: not xargs dla-table-chains table < %t.bad 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: entry 'x' is not an int8 value
// A zigzag: no chain (not monotone), no 16 ramps.
// RUN: %python -c "print(' '.join(str((i %% 2) * 100) for i in range(256)))" > %t.zig
// RUN: not xargs dla-table-chains table < %t.zig 2>&1 | FileCheck %s --check-prefix=ZIG
// ZIG: error: the target has no SDP lookup table (SDP_LUT_ENABLE: the Y stage) and its table is no interpolant of 16 segments within 1 output step
