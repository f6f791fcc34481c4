//===- NvdlaWeightFormats.cpp - The registration rows of weight formats --===//
//
// One row per weight format: its keyword, its name in messages, and its ops
// (rules, geometry, programs), which live in the format's own file.
//
//===----------------------------------------------------------------------===//

#include "NvdlaWeightImpl.h"

using namespace dlaformat;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::detail;

namespace {
constexpr std::array<WeightFormatInfo, kNumWeightFormats> kWeightFormats = {{
    {WeightFormat::Direct, "direct", "direct", &kDirectWeightOps},
    {WeightFormat::Image, "image", "image", &kImageWeightOps},
    {WeightFormat::Winograd, "winograd", "Winograd", &kWinogradWeightOps},
    {WeightFormat::Deconvolution, "deconv", "deconvolution", &kDeconvolutionWeightOps},
}};
static_assert(isInDeclarationOrder(kWeightFormats, &WeightFormatInfo::value));
} // namespace

const std::array<WeightFormatInfo, kNumWeightFormats> &dlaformat::nvdla::weightFormatTable() {
  return kWeightFormats;
}
