//===- EnumTable.h - One name table per format-library enum -----*- C++ -*-===//
//
// Every enum the format library exposes has exactly one table, next to its
// declaration, whose entry i describes enumerator i and has a `name` (the
// keyword) and, where a sentence names the value differently, a `prose`:
//
//   enum class Precision { Int8, Int16, Fp16, Last = Fp16 };
//   inline constexpr EnumEntry<Precision> kPrecisionNames[] = {
//       {Precision::Int8, "int8"}, {Precision::Int16, "int16"}, ...};
//   constexpr const auto &enumEntries(Precision) { return kPrecisionNames; }
//   static_assert(isInDeclarationOrder(kPrecisionNames, &EnumEntry<Precision>::value));
//
// A table that holds more than names (pixel formats, hardware configurations,
// chunked presets) is its own name table: adding a value is one enumerator
// plus one row. Everything that spells a value (the library's messages, the
// dialect's attribute parsers and printers, the C API, Python, the docs)
// goes through the helpers below, found by argument-dependent lookup on the
// enum.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_ENUMTABLE_H
#define DLA_FORMAT_ENUMTABLE_H

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace dlaformat {

/// A row of a table that holds names only.
template <typename E> struct EnumEntry {
  E value;
  /// The keyword: textual IR, C API, Python.
  std::string_view name;
  /// How a message names the value, when not by its keyword.
  std::string_view prose = {};
};

/// True when row i of `table` holds enumerator i in `field` and the table
/// has a row for every enumerator up to the enum's `Last` (each table enum
/// declares `Last = <its last enumerator>`): the table can be indexed by the
/// enum and lists every enumerator once, in order.
template <typename Table, typename Row, typename E>
constexpr bool isInDeclarationOrder(const Table &table, E Row::*field) {
  size_t i = 0;
  for (const Row &row : table)
    if (static_cast<size_t>(row.*field) != i++)
      return false;
  return i == static_cast<size_t>(E::Last) + 1;
}

namespace detail {
template <typename Table> struct TableSize;
template <typename Row, size_t N> struct TableSize<Row[N]> {
  static constexpr size_t value = N;
};
template <typename Row, size_t N> struct TableSize<std::array<Row, N>> {
  static constexpr size_t value = N;
};

template <typename Row, typename = void> struct HasProse : std::false_type {};
template <typename Row>
struct HasProse<Row, std::void_t<decltype(std::declval<const Row &>().prose)>>
    : std::true_type {};
} // namespace detail

/// The number of enumerators.
template <typename E> constexpr size_t enumCount() {
  return detail::TableSize<std::remove_cv_t<std::remove_reference_t<decltype(enumEntries(E{}))>>>::value;
}

/// Every enumerator in declaration order.
template <typename E> constexpr std::array<E, enumCount<E>()> enumValues() {
  std::array<E, enumCount<E>()> values{};
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<E>(i);
  return values;
}

/// The keyword of `value`.
template <typename E> constexpr std::string_view enumName(E value) {
  return std::data(enumEntries(E{}))[static_cast<size_t>(value)].name;
}

/// How a message names `value`: its prose where the table has one, else its
/// keyword.
template <typename E> constexpr std::string_view enumProse(E value) {
  const auto &row = std::data(enumEntries(E{}))[static_cast<size_t>(value)];
  if constexpr (detail::HasProse<std::decay_t<decltype(row)>>::value)
    if (!row.prose.empty())
      return row.prose;
  return row.name;
}

/// The value whose keyword is `name` (exact spelling).
template <typename E> constexpr std::optional<E> parseEnum(std::string_view name) {
  size_t i = 0;
  for (const auto &row : enumEntries(E{})) {
    if (row.name == name)
      return static_cast<E>(i);
    ++i;
  }
  return std::nullopt;
}

/// Every keyword in declaration order, joined by `separator`: the list an
/// "unknown ..." diagnostic offers.
template <typename E> std::string enumNameList(std::string_view separator = ", ") {
  std::string list;
  for (const auto &row : enumEntries(E{})) {
    if (!list.empty())
      list += separator;
    list += row.name;
  }
  return list;
}

namespace nvdla {
using dlaformat::enumCount;
using dlaformat::enumName;
using dlaformat::enumNameList;
using dlaformat::enumProse;
using dlaformat::enumValues;
using dlaformat::parseEnum;
} // namespace nvdla

} // namespace dlaformat

#endif // DLA_FORMAT_ENUMTABLE_H
