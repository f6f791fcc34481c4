//===- TosaToDLA.h - TOSA onto NVDLA layer ops ------------------*- C++ -*-===//
//
// The patterns of --dla-convert-tosa, for a compiler that runs them in a
// rewrite of its own: the TOSA ops an NVDLA configuration runs become dla
// layer ops (between transposes and casts at the boundary), and each
// offloaded kind of TOSA op has a rule that says why an instance stays on
// the host and what it computes.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_CONVERSION_TOSATODLA_TOSATODLA_H
#define DLA_CONVERSION_TOSATODLA_TOSATODLA_H

#include "dla/Format/NvdlaConversion.h"
#include "dla/Format/NvdlaHardware.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::dla::tosa_to_dla {

/// What the offloaded layers run on: a hardware configuration and the
/// precision every layer computes in.
struct OffloadTarget {
  ::dlaformat::nvdla::HardwareConfig config;
  ::dlaformat::nvdla::Precision precision;
  /// Softmax of int8 logits in NVIDIA's runtime emulator (dla.emu_softmax).
  bool emulator = true;

  /// The element type of offloaded feature data, weights and aux data.
  Type getElementType(MLIRContext *context) const;
  /// Empty when the precision tables allow `query`, else the tables'
  /// message.
  std::string check(const ::dlaformat::nvdla::ConversionQuery &query) const;
  /// check() of an offline SDP reading and writing feature data in the
  /// target precision (every SDP-only layer's first question).
  std::string checkOfflineSdp() const;
  /// Empty when a TOSA tensor of element type `type` can be computed in the
  /// target precision, else why not.
  std::string checkSourceType(Type type) const;
};

/// What --dla-convert-tosa knows of each TOSA op it offloads, by op name:
/// why an instance stays on the host (empty: nothing stops it) and the
/// multiply-accumulates it computes. The populate functions add a rule
/// beside their patterns, so an op that gains a pattern gains its host
/// remark and its share in the summary in the same place.
class OffloadRules {
public:
  struct Rule {
    std::function<std::string(Operation *, const OffloadTarget &)> whyNot;
    std::function<int64_t(Operation *)> macs;
  };

  /// The rule of `OpTy`: `whyNot` as its patterns refuse, `macs` (none: 0).
  template <typename OpTy>
  void add(std::string (*whyNot)(OpTy, const OffloadTarget &),
           int64_t (*macs)(OpTy) = nullptr) {
    Rule rule;
    rule.whyNot = [whyNot](Operation *op, const OffloadTarget &target) {
      return whyNot(cast<OpTy>(op), target);
    };
    if (macs)
      rule.macs = [macs](Operation *op) { return macs(cast<OpTy>(op)); };
    bool added = rules.try_emplace(OpTy::getOperationName(), std::move(rule)).second;
    assert(added && "one rule per op");
    (void)added;
  }
  /// The rule of `op`'s name, or null.
  const Rule *lookup(Operation *op) const {
    auto it = rules.find(op->getName().getStringRef());
    return it == rules.end() ? nullptr : &it->second;
  }

private:
  llvm::StringMap<Rule> rules;
};

/// Every offload pattern of --dla-convert-tosa for `target` (the layers,
/// the SDP fusion, the boundary clean-up), and the rules of the ops they
/// offload.
void populateTosaToDLAPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                               const OffloadTarget &target);

/// Why `op`, left in TOSA after conversion, stays on the host (its rule's
/// reason); nullopt for ops that move or reinterpret data (transpose,
/// reshape, const, cast, ...), which get no remark.
std::optional<std::string> explainHostOp(Operation *op, const OffloadRules &rules,
                                         const OffloadTarget &target);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_CONVERSION_TOSATODLA_TOSATODLA_H
