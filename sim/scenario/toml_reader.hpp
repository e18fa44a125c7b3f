#pragma once
// Typed, located access to one TOML table.  Every getter records the key as known; a
// wrong type, range or unit becomes a Problem (file, line, column, key path, value, what
// was expected, a suggestion) in the shared ProblemList, so one pass reports everything;
// finish() reports every key nobody asked for, with the closest known key.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "core/error.hpp"
#include "core/text_file.hpp"
#include "core/units.hpp"

namespace dlsim::scenario {

SourceLocation location_of(const toml::node& node);
SourceLocation location_of(const toml::source_region& region);

// Dotted key -> the `--set key=value` argument that set it.
using OverrideSources = std::vector<std::pair<std::string, std::string>>;

class TableReader {
 public:
  TableReader(const toml::table& table, std::string key_prefix, ProblemList& problems,
              const OverrideSources* overrides = nullptr);

  std::optional<std::string> string(const std::string& key, bool required = false);
  std::optional<std::string> choice(const std::string& key, const std::vector<std::string>& allowed,
                                    bool required = false);
  std::optional<int64_t> integer(const std::string& key, int64_t min, int64_t max, bool required = false);
  std::optional<double> number(const std::string& key, double min, double max, bool required = false);
  std::optional<bool> boolean(const std::string& key);
  std::optional<double> quantity(const std::string& key, UnitKind kind, bool required = false);
  // An integer or a list of min_count to max_count integers (kernel = 3 or kernel = [1, 7]),
  // each from min to max.
  std::optional<std::vector<int64_t>> integers(const std::string& key, size_t min_count, size_t max_count,
                                               int64_t min, int64_t max, bool required = false);
  std::optional<std::vector<std::string>> strings(const std::string& key, bool required = false);
  std::optional<std::vector<double>> numbers(const std::string& key, bool required = false);
  const toml::table* table(const std::string& key);
  // The section at `key` read on its own, its problems in the same list (nullopt if absent).
  std::optional<TableReader> section(const std::string& key);
  const toml::array* array_of_tables(const std::string& key);

  // Marks a key as known without reading it (sections handled elsewhere).
  void allow(const std::string& key) { known_.insert(key); }
  bool has(const std::string& key) const { return table_.contains(key); }
  // The table's keys, in order, and a key's value as the user wrote it (empty if absent).
  std::vector<std::string> keys() const;
  std::string shown(const std::string& key) const;
  const std::string& prefix() const { return prefix_; }
  // Adds a problem located at `key` (or at the table when the key is absent).
  void problem(const std::string& key, const std::string& value, const std::string& expected,
               const std::string& suggestion = "");
  // Reports unknown keys.  Call after every getter.
  void finish();

 private:
  const toml::node* get(const std::string& key, bool required, const std::string& expected);
  SourceLocation locate(const std::string& key_path, const toml::source_region& region) const;
  std::string path(const std::string& key) const {
    return prefix_.empty() ? key : key.empty() ? prefix_ : prefix_ + "." + key;
  }

  const toml::table& table_;
  std::string prefix_;
  ProblemList& problems_;
  const OverrideSources* overrides_;
  std::set<std::string> known_;
};

// A whole TOML document; a syntax error becomes InputError at its line and column, with
// `suggestion` (may be empty) as the hint.
toml::table parse_document(const std::string& text, const std::string& source_name,
                           const std::string& suggestion = "");

// The text of a node as the user wrote it, for error messages.
std::string show(const toml::node& node);

}  // namespace dlsim::scenario
