//===- ModuleGenerator.h - Structure-aware dla module generator -*- C++ -*-===//
//
// Turns fuzzer bytes into a dla module that is valid by construction most of
// the time (shapes, element types and encodings chosen to agree, output
// extents computed with the verifiers' formulas) and sometimes carries one
// deliberate defect (an extreme or off-by-one parameter), so that the
// packers and the lowering see many modules instead of the verifiers
// rejecting nearly all of them.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FUZZ_MODULEGENERATOR_H
#define DLA_FUZZ_MODULEGENERATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace dlafuzz {

/// A module's text and the `max-bytes` limit to pack it under.
struct GeneratedModule {
  std::string text;
  int64_t maxBytes = 0;
};

GeneratedModule generateModule(const uint8_t *data, size_t size);

} // namespace dlafuzz

#endif // DLA_FUZZ_MODULEGENERATOR_H
