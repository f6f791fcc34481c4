//===- EnumTableTest.cpp - The enum tables' completeness check ------------===//
//
// isInDeclarationOrder rejects a table that misses a row, at its end too
// (the enum's Last), so every format-library table is complete by its
// static_assert.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/EnumTable.h"
#include "dla/Format/NvdlaPrecision.h"

#include <gtest/gtest.h>

namespace {
enum class Colour { Red, Green, Blue, Last = Blue };
constexpr dlaformat::EnumEntry<Colour> kComplete[] = {
    {Colour::Red, "red"}, {Colour::Green, "green"}, {Colour::Blue, "blue"}};
constexpr dlaformat::EnumEntry<Colour> kMissingLast[] = {{Colour::Red, "red"},
                                                         {Colour::Green, "green"}};
constexpr dlaformat::EnumEntry<Colour> kOutOfOrder[] = {
    {Colour::Green, "green"}, {Colour::Red, "red"}, {Colour::Blue, "blue"}};

static_assert(dlaformat::isInDeclarationOrder(kComplete, &dlaformat::EnumEntry<Colour>::value));
static_assert(!dlaformat::isInDeclarationOrder(kMissingLast,
                                               &dlaformat::EnumEntry<Colour>::value));
static_assert(!dlaformat::isInDeclarationOrder(kOutOfOrder,
                                               &dlaformat::EnumEntry<Colour>::value));

TEST(EnumTable, CountsEveryEnumerator) {
  EXPECT_EQ(dlaformat::enumCount<dlaformat::nvdla::Precision>(), 3u);
  EXPECT_EQ(dlaformat::enumNameList<dlaformat::nvdla::Precision>(), "int8, int16, fp16");
}
} // namespace
