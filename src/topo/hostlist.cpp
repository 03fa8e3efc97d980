// Slurm hostlist expressions (see topo/hostlist.hpp).
#include "allocsim/topo/hostlist.hpp"

#include <cctype>
#include <cstdint>

#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw InputError("bad hostlist '" + std::string(text) + "': " + why);
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  return true;
}

// 'text' (appended, not operator+: GCC 12 warns -Wrestrict on "'" + std::string(...)).
std::string quoted(std::string_view text) {
  std::string out(1, '\'');
  out.append(text);
  out.push_back('\'');
  return out;
}

std::uint64_t number(std::string_view whole, std::string_view digits) {
  if (!all_digits(digits))
    bad(whole, quoted(digits) + " is not a number; expected digits, e.g. [0-3,7]");
  if (digits.size() > 9) bad(whole, quoted(digits) + " has more than 9 digits");
  return std::stoull(std::string(digits));
}

std::string padded(std::uint64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// The numbers of one bracket group's inside ("0-3,12,18-20"), as zero-padded strings.
std::vector<std::string> bracket_values(std::string_view whole, std::string_view inside,
                                        std::size_t max_names) {
  std::vector<std::string> values;
  if (inside.empty()) bad(whole, "empty brackets []; expected numbers or ranges, e.g. [0-3,7]");
  std::size_t start = 0;
  while (start <= inside.size()) {
    const std::size_t comma = std::min(inside.find(',', start), inside.size());
    const std::string_view item = inside.substr(start, comma - start);
    if (item.empty()) bad(whole, "an empty item between commas in brackets");
    const std::size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      values.push_back(padded(number(whole, item), item.size()));
    } else {
      const std::string_view low_text = item.substr(0, dash), high_text = item.substr(dash + 1);
      const std::uint64_t low = number(whole, low_text), high = number(whole, high_text);
      if (high < low)
        bad(whole,
            "the range " + std::string(item) + " goes down; expected LOW-HIGH with LOW <= HIGH");
      if (high - low >= max_names)
        bad(whole, "expands to more than " + std::to_string(max_names) + " names");
      for (std::uint64_t v = low; v <= high; ++v) values.push_back(padded(v, low_text.size()));
    }
    if (values.size() > max_names)
      bad(whole, "expands to more than " + std::to_string(max_names) + " names");
    start = comma + 1;
  }
  return values;
}

// One comma-free item outside brackets: literal text and bracket groups.
void expand_item(std::string_view whole, std::string_view item, std::size_t max_names,
                 std::vector<std::string>& out) {
  std::vector<std::string> partial{""};
  std::size_t pos = 0;
  while (pos < item.size()) {
    const std::size_t open = item.find('[', pos);
    const std::size_t close_before = item.find(']', pos);
    if (close_before < open) bad(whole, "']' without '['; expected names such as tux[0-3,7]");
    const std::string_view literal =
        item.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos);
    for (std::string& p : partial) p += literal;
    if (open == std::string_view::npos) break;
    const std::size_t close = item.find(']', open);
    if (close == std::string_view::npos)
      bad(whole, "'[' without ']'; expected names such as tux[0-3,7]");
    const std::string_view inside = item.substr(open + 1, close - open - 1);
    if (inside.find('[') != std::string_view::npos)
      bad(whole, "nested '['; expected names such as tux[0-3,7]");
    const std::vector<std::string> values = bracket_values(whole, inside, max_names);
    if (partial.size() * values.size() > max_names)
      bad(whole, "expands to more than " + std::to_string(max_names) + " names");
    std::vector<std::string> next;
    next.reserve(partial.size() * values.size());
    for (const std::string& p : partial)
      for (const std::string& v : values) next.push_back(p + v);
    partial = std::move(next);
    pos = close + 1;
  }
  for (std::string& p : partial) {
    if (out.size() >= max_names)
      bad(whole, "expands to more than " + std::to_string(max_names) + " names");
    out.push_back(std::move(p));
  }
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view text, std::size_t max_names) {
  if (text.empty()) bad(text, "empty; expected names such as tux[0-3],dev5");
  for (char c : text)
    if (std::isspace(static_cast<unsigned char>(c)) != 0)
      bad(text, "contains white space; expected names such as tux[0-3],dev5");
  std::vector<std::string> names;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '[') ++depth;
    if (i < text.size() && text[i] == ']') --depth;
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      const std::string_view item = text.substr(start, i - start);
      if (item.empty()) bad(text, "an empty name between commas");
      expand_item(text, item, max_names, names);
      start = i + 1;
    }
  }
  return names;
}

namespace {

/// A name split into a prefix and its trailing digits ("tux07" -> "tux", "07"); a name ending
/// in more than 9 digits is kept whole (no number), so the numbers fit an int.
std::pair<std::string, std::string> split_number(const std::string& name) {
  std::size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
  if (name.size() - digits > 9) return {name, ""};
  return {name.substr(0, digits), name.substr(digits)};
}

}  // namespace

std::string compress_hostlist(const std::vector<std::string>& names) {
  std::string out;
  std::size_t i = 0;
  while (i < names.size()) {
    const auto [prefix, number] = split_number(names[i]);
    // The names after i with the same prefix and a number of the same width.
    std::size_t end = i + 1;
    while (end < names.size()) {
      const auto [next_prefix, next_number] = split_number(names[end]);
      if (number.empty() || next_prefix != prefix || next_number.size() != number.size()) break;
      ++end;
    }
    if (!out.empty()) out += ',';
    if (end == i + 1) {
      out += names[i];
      i = end;
      continue;
    }
    out += prefix + '[';
    for (std::size_t j = i; j < end;) {  // runs of consecutive numbers as first-last
      std::size_t last = j;
      while (last + 1 < end && std::stoi(split_number(names[last + 1]).second) ==
                                   std::stoi(split_number(names[last]).second) + 1)
        ++last;
      if (j > i) out += ',';
      out += split_number(names[j]).second;
      if (last > j) out += '-' + split_number(names[last]).second;
      j = last + 1;
    }
    out += ']';
    i = end;
  }
  return out;
}

}  // namespace allocsim
