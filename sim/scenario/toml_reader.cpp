#include "scenario/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/suggest.hpp"

namespace dlsim::scenario {

SourceLocation location_of(const toml::node& node) { return location_of(node.source()); }

SourceLocation location_of(const toml::source_region& src) {
  const std::string file = src.path ? *src.path : "";
  // Values that came from --set carry the flag itself as their "file"; a line means nothing there.
  if (file.rfind("--set", 0) == 0) return {file, 0, 0};
  return {file, static_cast<int>(src.begin.line), static_cast<int>(src.begin.column)};
}

std::string show(const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* f = node.as_floating_point()) return fmt::format("{}", f->get());  // 0.95, not 0.94999999999999996
  std::ostringstream out;
  node.visit([&out](const auto& n) { out << n; });
  return out.str();
}

TableReader::TableReader(const toml::table& table, std::string key_prefix, ProblemList& problems,
                         const OverrideSources* overrides)
    : table_(table), prefix_(std::move(key_prefix)), problems_(problems), overrides_(overrides) {}

SourceLocation TableReader::locate(const std::string& key_path, const toml::source_region& region) const {
  SourceLocation where = location_of(region);
  // Values merged in from --set lose their source in the copy: find the flag that set them.
  if (where.file.empty() && overrides_) {
    for (const auto& [set_key, text] : *overrides_)
      if (set_key == key_path || set_key.rfind(key_path + ".", 0) == 0) return {"--set " + text, 0, 0};
  }
  return where;
}

void TableReader::problem(const std::string& key, const std::string& value, const std::string& expected,
                          const std::string& suggestion) {
  const toml::node* node = table_.get(key);
  problems_.add(Problem{locate(path(key), (node ? *node : static_cast<const toml::node&>(table_)).source()),
                        path(key), value, expected, suggestion});
}

const toml::node* TableReader::get(const std::string& key, bool required, const std::string& expected) {
  known_.insert(key);
  const toml::node* node = table_.get(key);
  if (!node && required) problem(key, "", fmt::format("is required: {}", expected));
  return node;
}

std::optional<std::string> TableReader::string(const std::string& key, bool required) {
  const auto* node = get(key, required, "a string");
  if (!node) return std::nullopt;
  if (!node->is_string()) {
    problem(key, show(*node), "expected a string (in double quotes)");
    return std::nullopt;
  }
  return node->as_string()->get();
}

std::optional<std::string> TableReader::choice(const std::string& key, const std::vector<std::string>& allowed,
                                               bool required) {
  const auto* node = get(key, required, fmt::format("one of {}", fmt::join(allowed, ", ")));
  if (!node) return std::nullopt;
  if (!node->is_string()) {
    problem(key, show(*node), fmt::format("expected one of \"{}\"", fmt::join(allowed, "\", \"")));
    return std::nullopt;
  }
  const std::string value = node->as_string()->get();
  for (const auto& a : allowed)
    if (a == value) return value;
  // The list of valid values is in the message already: suggest only a likely typo.
  const std::string hint = suggest(value, allowed);
  problem(key, value, fmt::format("expected one of \"{}\"", fmt::join(allowed, "\", \"")),
          hint.rfind("did you mean", 0) == 0 ? hint : "");
  return std::nullopt;
}

std::optional<int64_t> TableReader::integer(const std::string& key, int64_t min, int64_t max, bool required) {
  const auto* node = get(key, required, "an integer");
  if (!node) return std::nullopt;
  if (!node->is_integer()) {
    problem(key, show(*node), fmt::format("expected an integer from {} to {}", min, max));
    return std::nullopt;
  }
  const int64_t v = node->as_integer()->get();
  if (v < min || v > max) {
    problem(key, show(*node), fmt::format("expected an integer from {} to {}", min, max));
    return std::nullopt;
  }
  return v;
}

std::optional<double> TableReader::number(const std::string& key, double min, double max, bool required) {
  const auto* node = get(key, required, "a number");
  if (!node) return std::nullopt;
  std::optional<double> v;
  if (node->is_floating_point()) v = node->as_floating_point()->get();
  if (node->is_integer()) v = static_cast<double>(node->as_integer()->get());
  if (!v || !std::isfinite(*v) || *v < min || *v > max) {
    problem(key, show(*node), fmt::format("expected a number from {} to {}", min, max));
    return std::nullopt;
  }
  return v;
}

std::optional<bool> TableReader::boolean(const std::string& key) {
  const auto* node = get(key, false, "true or false");
  if (!node) return std::nullopt;
  if (!node->is_boolean()) {
    problem(key, show(*node), "expected true or false");
    return std::nullopt;
  }
  return node->as_boolean()->get();
}

std::optional<double> TableReader::quantity(const std::string& key, UnitKind kind, bool required) {
  const auto* node = get(key, required, describe(kind));
  if (!node) return std::nullopt;
  if (!node->is_string()) {
    problem(key, show(*node), fmt::format("expected {} in quotes; a bare number has no unit", describe(kind)),
            node->is_number() ? fmt::format("write \"{}{}\"", show(*node), typical_suffix(kind)) : "");
    return std::nullopt;
  }
  try {
    return parse_quantity(node->as_string()->get(), kind);
  } catch (const UnitError& e) {
    problem(key, node->as_string()->get(), e.what(), e.suggestion());
    return std::nullopt;
  }
}

std::optional<std::vector<int64_t>> TableReader::integers(const std::string& key, size_t min_count, size_t max_count,
                                                          int64_t min, int64_t max, bool required) {
  const std::string expected =
      fmt::format("an integer from {} to {}, or a list of {} to {} of them", min, max, min_count, max_count);
  const auto* node = get(key, required, expected);
  if (!node) return std::nullopt;
  std::vector<int64_t> out;
  if (node->is_integer()) {
    out.push_back(node->as_integer()->get());
  } else if (const auto* arr = node->as_array()) {
    for (const auto& item : *arr) {
      if (!item.is_integer()) {
        problem(key, show(*node), fmt::format("expected {}", expected));
        return std::nullopt;
      }
      out.push_back(item.as_integer()->get());
    }
  } else {
    problem(key, show(*node), fmt::format("expected {}", expected));
    return std::nullopt;
  }
  bool ok = out.size() >= (node->is_integer() ? 1 : min_count) && out.size() <= max_count;
  for (auto v : out) ok = ok && v >= min && v <= max;
  if (!ok) {
    problem(key, show(*node), fmt::format("expected {}", expected));
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<std::string>> TableReader::strings(const std::string& key, bool required) {
  const auto* node = get(key, required, "a list of strings");
  if (!node) return std::nullopt;
  const auto* arr = node->as_array();
  std::vector<std::string> out;
  if (arr)
    for (const auto& item : *arr)
      if (item.is_string()) out.push_back(item.as_string()->get());
  if (!arr || out.size() != arr->size() || out.empty()) {
    problem(key, show(*node), "expected a non-empty list of strings, e.g. [\"a\", \"b\"]");
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<double>> TableReader::numbers(const std::string& key, bool required) {
  const auto* node = get(key, required, "a list of numbers");
  if (!node) return std::nullopt;
  const auto* arr = node->as_array();
  std::vector<double> out;
  if (arr)
    for (const auto& item : *arr) {
      if (item.is_floating_point()) out.push_back(item.as_floating_point()->get());
      if (item.is_integer()) out.push_back(static_cast<double>(item.as_integer()->get()));
    }
  const bool finite = std::all_of(out.begin(), out.end(), [](double v) { return std::isfinite(v); });
  if (!arr || out.size() != arr->size() || out.empty() || !finite) {
    problem(key, show(*node), "expected a non-empty list of finite numbers, e.g. [0.5, 2]");
    return std::nullopt;
  }
  return out;
}

const toml::table* TableReader::table(const std::string& key) {
  const auto* node = get(key, false, "a table");
  if (!node) return nullptr;
  if (!node->is_table()) {
    problem(key, show(*node), fmt::format("expected a section [{}]", path(key)));
    return nullptr;
  }
  return node->as_table();
}

std::vector<std::string> TableReader::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, _] : table_) out.emplace_back(key.str());
  return out;
}

std::string TableReader::shown(const std::string& key) const {
  const toml::node* node = table_.get(key);
  return node ? show(*node) : "";
}

std::optional<TableReader> TableReader::section(const std::string& key) {
  const toml::table* t = table(key);
  if (!t) return std::nullopt;
  return TableReader(*t, path(key), problems_, overrides_);
}

const toml::array* TableReader::array_of_tables(const std::string& key) {
  const auto* node = get(key, false, "an array of tables");
  if (!node) return nullptr;
  if (!node->is_array_of_tables()) {
    problem(key, show(*node), fmt::format("expected an array of tables, written [[{}]]", path(key)));
    return nullptr;
  }
  return node->as_array();
}

void TableReader::finish() {
  std::vector<std::string> known(known_.begin(), known_.end());
  for (const auto& [key, node] : table_) {
    const std::string name(key.str());
    (void)node;
    if (known_.count(name)) continue;
    problems_.add(Problem{locate(path(name), key.source()), path(name), "", "unknown key", suggest(name, known)});
  }
}

toml::table parse_document(const std::string& text, const std::string& source_name, const std::string& suggestion) {
  try {
    return toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    throw InputError(
        Problem{location_of(e.source()), "", "", fmt::format("not valid TOML: {}", e.description()), suggestion});
  }
}

}  // namespace dlsim::scenario
