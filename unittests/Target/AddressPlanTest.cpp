//===- AddressPlanTest.cpp - The address plan against brute force ---------===//
//
// The plan's promises checked independently of how it finds gaps: every
// pair of surfaces live at the same time is disjoint (compared byte range
// by byte range, in 128-bit arithmetic), every offset is aligned, the plan
// lies within its space, and a surface takes the lowest aligned offset free
// of the surfaces placed before it (largest first, as the header states).
// The extreme cases (sums past 2^63, huge alignments, 32-bit spaces) must
// be refused naming the surface, never planned into overlapping bytes.
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaAddressPlan.h"

#include "dla/Format/NvdlaHardware.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlir::dla::regplan;
namespace nv = dlaformat::nvdla;

namespace {
using Wide = __int128;

PlannedSurface surface(std::string name, int64_t bytes, int64_t alignment, int64_t first,
                       int64_t last) {
  PlannedSurface s;
  s.name = std::move(name);
  s.bytes = bytes;
  s.alignment = alignment;
  s.first = first;
  s.last = last;
  return s;
}

bool liveTogether(const PlannedSurface &a, const PlannedSurface &b) {
  return a.first <= b.last && b.first <= a.last;
}

bool disjoint(const PlannedSurface &a, const PlannedSurface &b) {
  if (a.bytes == 0 || b.bytes == 0)
    return true;
  return Wide(a.offset) + a.bytes <= b.offset || Wide(b.offset) + b.bytes <= a.offset;
}

/// Every promise of a successful plan, by brute force over all pairs.
void expectValidPlan(const std::vector<PlannedSurface> &s, const AddressPlanResult &r,
                     const AddressSpace &space) {
  ASSERT_TRUE(r.ok()) << r.error;
  Wide extent = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_GE(s[i].offset, 0) << s[i].name;
    EXPECT_EQ(s[i].offset % s[i].alignment, 0) << s[i].name;
    extent = std::max(extent, Wide(s[i].offset) + s[i].bytes);
    for (size_t j = i + 1; j < s.size(); ++j)
      if (liveTogether(s[i], s[j])) {
        EXPECT_TRUE(disjoint(s[i], s[j])) << s[i].name << " and " << s[j].name;
      }
  }
  EXPECT_EQ(Wide(r.extent), extent);
  EXPECT_LE(Wide(r.extent), Wide(space.maxBytes));
  if (r.extent > 0) {
    EXPECT_LE(Wide(space.base) + r.extent - 1, Wide(space.lastAddress));
  }
}

/// Each surface sits at the lowest aligned offset not colliding with a
/// surface placed before it that is live at the same time.
void expectLowestOffsets(const std::vector<PlannedSurface> &s) {
  std::vector<size_t> order(s.size());
  for (size_t i = 0; i < s.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return s[a].bytes > s[b].bytes; });
  for (size_t k = 0; k < order.size(); ++k) {
    const PlannedSurface &x = s[order[k]];
    for (int64_t at = 0; at < x.offset; at += x.alignment) {
      PlannedSurface moved = x;
      moved.offset = at;
      bool collides = false;
      for (size_t e = 0; e < k && !collides; ++e)
        collides = liveTogether(x, s[order[e]]) && !disjoint(moved, s[order[e]]);
      EXPECT_TRUE(collides) << x.name << " could sit at " << at << ", not " << x.offset;
    }
  }
}
} // namespace

TEST(AddressPlan, RandomSurfacesNeverOverlapWhileLive) {
  std::mt19937_64 rng(44);
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12), layers = 1 + static_cast<int>(rng() % 8);
    std::vector<PlannedSurface> s;
    for (int i = 0; i < n; ++i) {
      int64_t first = static_cast<int64_t>(rng() % (layers + 1)) - 1;
      int64_t last = first + static_cast<int64_t>(rng() % 4);
      s.push_back(surface("s" + std::to_string(i), static_cast<int64_t>(rng() % 200),
                          int64_t(1) << (rng() % 9), first, last));
    }
    AddressSpace space;
    AddressPlanResult r = planAddresses(s, space);
    expectValidPlan(s, r, space);
    expectLowestOffsets(s);
    if (HasFailure())
      FAIL() << "trial " << trial;
  }
}

TEST(AddressPlan, ABoundRefusesExactlyThePlansThatCrossIt) {
  // Placement does not depend on the bound until a surface crosses it: the
  // unbounded plan of the same surfaces says which surface must be named.
  std::mt19937_64 rng(61);
  int refused = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<PlannedSurface> s;
    for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
      int64_t first = static_cast<int64_t>(rng() % 5) - 1;
      s.push_back(surface("s" + std::to_string(i), static_cast<int64_t>(rng() % 300),
                          int64_t(1) << (rng() % 6), first,
                          first + static_cast<int64_t>(rng() % 3)));
    }
    std::vector<PlannedSurface> free = s;
    AddressPlanResult unbounded = planAddresses(free);
    ASSERT_TRUE(unbounded.ok()) << unbounded.error;
    AddressSpace space;
    space.maxBytes = static_cast<int64_t>(rng() % 1200);
    AddressPlanResult r = planAddresses(s, space);
    if (unbounded.extent <= space.maxBytes) {
      expectValidPlan(s, r, space);
      continue;
    }
    ++refused;
    ASSERT_FALSE(r.ok()) << "trial " << trial;
    ASSERT_TRUE(r.surface.has_value());
    const PlannedSurface &named = free[*r.surface];
    EXPECT_GT(named.offset + named.bytes, space.maxBytes) << "trial " << trial;
    // Every surface placed before it (larger, or as large and earlier) fits.
    for (size_t i = 0; i < free.size(); ++i)
      if (free[i].bytes > named.bytes || (free[i].bytes == named.bytes && i < *r.surface)) {
        EXPECT_LE(free[i].offset + free[i].bytes, space.maxBytes) << "trial " << trial;
      }
  }
  EXPECT_GT(refused, 100); // the bound was exercised
}

TEST(AddressPlan, DeadSurfacesAreReused) {
  // Three chained layers: the third result reuses the dead input.
  std::vector<PlannedSurface> s = {surface("arg0", 64, 8, -1, 0), surface("layer0", 64, 8, 0, 1),
                                   surface("layer1", 64, 8, 1, 2)};
  AddressPlanResult r = planAddresses(s);
  expectValidPlan(s, r, {});
  EXPECT_EQ(r.extent, 128);
  EXPECT_EQ(s[2].offset, s[0].offset);
}

TEST(AddressPlan, SixSurfacesOf2To61LiveTogetherAreRefused) {
  // 6 * 2^61 bytes exceed int64_t: the fourth would end at 2^63.
  std::vector<PlannedSurface> s;
  for (int i = 0; i < 6; ++i)
    s.push_back(surface("s" + std::to_string(i), int64_t(1) << 61, 1, -1, 1 << 30));
  AddressPlanResult r = planAddresses(s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.surface, 3u);
  EXPECT_EQ(r.error, "no 64-bit offset holds surface 's3' (2305843009213693952 bytes, aligned "
                     "1) beside the surfaces live at the same time");
}

TEST(AddressPlan, SixSurfacesOf2To61OneAtATimeShareOffsetZero) {
  std::vector<PlannedSurface> s;
  for (int i = 0; i < 6; ++i)
    s.push_back(surface("s" + std::to_string(i), int64_t(1) << 61, 1, i, i));
  AddressPlanResult r = planAddresses(s);
  expectValidPlan(s, r, {});
  EXPECT_EQ(r.extent, int64_t(1) << 61);
}

TEST(AddressPlan, AlignmentPastTheLastOffsetIsRefused) {
  // After a 2-byte surface the next multiple of 2^62 is 2^62: it fits.
  std::vector<PlannedSurface> fits = {surface("a", 2, 1, 0, 0),
                                      surface("b", 1, int64_t(1) << 62, 0, 0)};
  AddressPlanResult r = planAddresses(fits);
  expectValidPlan(fits, r, {});
  EXPECT_EQ(fits[1].offset, int64_t(1) << 62);

  // After 2^62 + 2 bytes the next multiple of 2^62 + 1 is 2^63 + 2.
  std::vector<PlannedSurface> wraps = {surface("a", (int64_t(1) << 62) + 2, 1, 0, 0),
                                       surface("b", 1, (int64_t(1) << 62) + 1, 0, 0)};
  r = planAddresses(wraps);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.surface, 1u);

  // An aligned start whose end overflows: INT64_MAX - 1 + 2.
  std::vector<PlannedSurface> end = {surface("a", 3, 1, 0, 0),
                                     surface("b", 2, INT64_MAX - 1, 0, 0)};
  r = planAddresses(end);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.surface, 1u);
}

TEST(AddressPlan, NonPositiveAlignmentOrNegativeSizeIsRefused) {
  for (auto [bytes, alignment] : {std::pair<int64_t, int64_t>{8, 0}, {8, -8}, {-1, 8}}) {
    std::vector<PlannedSurface> s = {surface("x", bytes, alignment, 0, 0)};
    AddressPlanResult r = planAddresses(s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.surface, 0u);
    EXPECT_NE(r.error.find("a size must be non-negative and an alignment positive"),
              std::string::npos)
        << r.error;
  }
}

TEST(AddressPlan, NvSmallFrom2GiBHasA32BitSpace) {
  // nv_small: MEM_ADDRESS_WIDTH_32, so from 0x80000000 2^31 bytes are
  // addressable, and the runtime allocates at most 2^31 - 1 of them.
  AddressSpace space =
      getNvdlaAddressSpace(nv::getHardwareConfig(nv::HardwareKind::NvSmall), 0x80000000ull);
  EXPECT_EQ(space.lastAddress, 0xffffffffull);
  EXPECT_EQ(space.maxBytes, (int64_t(1) << 31) - 1);

  std::vector<PlannedSurface> fits = {surface("arg0", (int64_t(1) << 31) - 1, 1, -1, 1 << 30)};
  expectValidPlan(fits, planAddresses(fits, space), space);

  // 34 GB: beyond the 32-bit space first.
  std::vector<PlannedSurface> huge = {surface("arg0", int64_t(34) << 30, 8, -1, 1 << 30)};
  AddressPlanResult r = planAddresses(huge, space);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.surface, 0u);
  EXPECT_EQ(r.error, "surface 'arg0' (36507222016 bytes, aligned 8) would occupy bytes [0, "
                     "36507222016) from 0x80000000, beyond nv_small's 32-bit address space "
                     "(last address 0xffffffff)");

  // Exactly the space, one byte over the runtime's bound.
  std::vector<PlannedSurface> full = {surface("arg0", int64_t(1) << 31, 1, -1, 1 << 30)};
  r = planAddresses(full, space);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "surface 'arg0' (2147483648 bytes, aligned 1) would make the plan "
                     "2147483648 bytes, beyond the 2147483647 bytes NVIDIA's runtime "
                     "(NvDlaAllocMem, umd/port/linux) allocates");
}

TEST(AddressPlan, TheSurfaceThatCrossesTheBoundIsNamed) {
  // Two live surfaces that fit alone but not together: the smaller,
  // placed second, crosses the 2^31 - 1 runtime bound.
  AddressSpace space =
      getNvdlaAddressSpace(nv::getHardwareConfig(nv::HardwareKind::NvLarge), 0x80000000ull);
  EXPECT_EQ(space.lastAddress, UINT64_MAX);
  std::vector<PlannedSurface> s = {surface("arg0", int64_t(1) << 30, 32, -1, 1),
                                   surface("layer0", (int64_t(1) << 30) + 32, 32, 0, 1)};
  AddressPlanResult r = planAddresses(s, space);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.surface, 0u);
}

TEST(AddressPlan, ABaseBeyondTheSpaceIsRefused) {
  AddressSpace space =
      getNvdlaAddressSpace(nv::getHardwareConfig(nv::HardwareKind::NvSmall), 0x100000000ull);
  std::vector<PlannedSurface> s = {surface("arg0", 8, 8, -1, 0)};
  AddressPlanResult r = planAddresses(s, space);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(r.surface.has_value());
  EXPECT_EQ(r.error, "the plan's base 0x100000000 is beyond nv_small's 32-bit address space "
                     "(last address 0xffffffff)");
}

TEST(AddressPlan, TheLastAddressIsUsable) {
  // 0xffffff00 + 256 bytes ends exactly at 0xffffffff; one more byte does not.
  AddressSpace space =
      getNvdlaAddressSpace(nv::getHardwareConfig(nv::HardwareKind::NvSmall), 0xffffff00ull);
  std::vector<PlannedSurface> s = {surface("a", 256, 256, -1, 0)};
  expectValidPlan(s, planAddresses(s, space), space);
  s[0].bytes = 257;
  EXPECT_FALSE(planAddresses(s, space).ok());
}
