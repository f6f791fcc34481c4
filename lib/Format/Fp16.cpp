//===- Fp16.cpp - IEEE binary16 <-> binary32 conversion ------------------===//

#include "dla/Format/Fp16.h"

using namespace dla::format;

std::string_view dla::format::getFp16RoundingName(Fp16Rounding rounding) {
  switch (rounding) {
  case Fp16Rounding::TiesToEven:
    return "ties-to-even";
  case Fp16Rounding::TiesAwayFromZero:
    return "ties-away-from-zero";
  }
  return "unknown";
}

void dla::format::convertFp32ToFp16(const float *src, uint16_t *dst, int64_t count,
                                    Fp16Rounding rounding) {
  if (rounding == Fp16Rounding::TiesAwayFromZero) {
    for (int64_t i = 0; i < count; ++i)
      dst[i] = fp32ToFp16(src[i], Fp16Rounding::TiesAwayFromZero);
  } else {
    for (int64_t i = 0; i < count; ++i)
      dst[i] = fp32ToFp16(src[i], Fp16Rounding::TiesToEven);
  }
}

void dla::format::convertFp16ToFp32(const uint16_t *src, float *dst, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    dst[i] = fp16ToFp32(src[i]);
}
