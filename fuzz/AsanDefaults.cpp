//===- AsanDefaults.cpp - the harnesses' own ASan defaults ----------------===//
//
// LLVM's headers poison allocator memory from the instrumented project code
// which the uninstrumented libLLVM.so / libMLIR.so then touch legitimately:
// without allow_user_poisoning=0 a harness run by hand (README, "Sanitizers
// and fuzzing") stopped on its own seed corpus with a use-after-poison in
// libMLIR. Built into every harness, so the README's commands run as
// written; ASAN_OPTIONS still overrides it.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }
