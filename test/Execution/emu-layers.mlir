// dla.emu_softmax / dla.emu_power executed on 400 random layers through
// mlir-runner, every value identical to utils/dla-ref/emulator_ref.py, the
// numpy model of NVIDIA's runtime emulator (Emulator.cpp's int8 softmax and
// power: fp16 steps rounded with ties away from zero as NVIDIA's half.h
// does, libm's expf / powf, the truncating saturate). The cases
// (int_cases_emu.py) include products midway between two fp16 values,
// softmax over 1..300 channels and powers of negative bases (NaN -> 0).
//
// Through --dla-lower-to-reference and upstream loops:
// RUN: %python %dla_ref/run_layers.py --kind emu --count 200 --seed 31 --opt dla-opt --bin %llvm_bin | FileCheck %s
// CHECK: 200 of 200 cases match
//
// Through --dla-lower-to-llvm (the CPU kernels dla-run-onnx runs), half of
// them on NVDLA feature data:
// RUN: %python %dla_ref/run_layers.py --kind emu --count 200 --seed 32 --path llvm --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=LLVM
// LLVM: 200 of 200 cases match
