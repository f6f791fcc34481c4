//===- PassOptions.h - Typed options of the dla passes ----------*- C++ -*-===//
//
// Enum-valued pass and pipeline options are parsed by LLVM's command line
// (`cl::values`), so a typo is rejected with the list of valid values before
// any pass runs.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_TRANSFORMS_PASSOPTIONS_H
#define DLA_DIALECT_DLA_TRANSFORMS_PASSOPTIONS_H

#include "dla/Format/EnumTable.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::dla {

/// Whether --dla-assign-layouts turns eligible direct convolutions with
/// constant weights into Winograd: never, always, or where the performance
/// model estimates fewer cycles (docs/PerformanceModel.md, "Decisions").
enum class WinogradPolicy { Off, Auto, Fastest };

/// How many convolution-buffer banks --dla-split-convolutions gives the
/// weights of a convolution it cuts into bands: NVIDIA's order (all, two
/// kernel groups, one: the first that leaves room for a band), or the one
/// the performance model estimates fastest.
enum class WeightBankPolicy { Nvidia, Fastest };

/// A `cl::opt` modifier: the values of a format-library enum, spelled by its
/// name table (dla/Format/EnumTable.h), so options keep no second list.
template <typename E> struct EnumTableValues {
  template <typename Opt> void apply(Opt &opt) const {
    for (E value : ::dlaformat::enumValues<E>()) {
      std::string_view name = ::dlaformat::enumName(value);
      llvm::StringRef ref(name.data(), name.size());
      opt.getParser().addLiteralOption(ref, value, ref);
    }
  }
};

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_TRANSFORMS_PASSOPTIONS_H
