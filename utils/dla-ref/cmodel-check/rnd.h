// Random register and data values, biased towards the extremes of a field.
#include <cstdint>
#include <cstdio>
#include <random>

static std::mt19937_64 rng(12345);

static int64_t rnd(int bits, bool sign = true) {
  int64_t lo = sign ? -(1LL << (bits - 1)) : 0;
  int64_t hi = sign ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
  switch (rng() % 8) {
  case 0: return lo;
  case 1: return hi;
  case 2: return 0;
  case 3: return sign ? (int64_t)(rng() % 5) - 2 : (int64_t)(rng() % 3);
  default: return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
  }
}
