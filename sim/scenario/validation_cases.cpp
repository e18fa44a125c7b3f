#include "scenario/validation_cases.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/csv.hpp"
#include "core/suggest.hpp"
#include "scenario/toml_reader.hpp"

namespace dlsim::scenario {
namespace {

namespace fs = std::filesystem;

// Replaces every "{column}" by the row's value; unknown columns are problems.
std::string fill(const std::string& pattern, const CsvRow& row, const std::vector<std::string>& columns,
                 TableReader& r, const std::string& key) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '{') {
      out += pattern[i];
      continue;
    }
    const size_t close = pattern.find('}', i);
    const std::string column = pattern.substr(i + 1, close == std::string::npos ? 0 : close - i - 1);
    auto it = row.fields.find(column);
    if (close == std::string::npos || it == row.fields.end()) {
      r.problem(key, pattern, "placeholders that name columns of the data", suggest(column, columns));
      return out;
    }
    out += it->second;
    i = close;
  }
  return out;
}

bool is_number(const CsvRow& row, const std::string& column) {
  auto it = row.fields.find(column);
  if (it == row.fields.end()) return false;
  char* end = nullptr;
  std::strtod(it->second.c_str(), &end);
  return !it->second.empty() && end && *end == '\0';
}

double number(const CsvRow& row, const std::string& column, const std::string& file) {
  auto it = row.fields.find(column);
  try {
    if (it != row.fields.end()) return std::stod(it->second);
  } catch (const std::exception&) {
  }
  throw InputError(Problem{{file, row.line, 0}, column, it == row.fields.end() ? "" : it->second, "a number", ""});
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string prediction_asked(const ValidationCase& c) {
  std::string out = c.scenario;
  for (const auto& o : c.overrides) out += "\n" + o.key + "=" + o.value;
  return out;
}

// One case per id, in the order the ids first appear, measured at the median of its rows
// (the first row located); rows of one id that ask for different predictions are an error.
std::vector<ValidationCase> median_of_repeats(std::vector<ValidationCase> cases) {
  std::vector<ValidationCase> out;
  std::map<std::string, std::vector<const ValidationCase*>> rows_of;
  for (const auto& c : cases) {
    auto& rows = rows_of[c.id];
    if (rows.empty()) out.push_back(c);
    else if (prediction_asked(*rows.front()) != prediction_asked(c))
      throw InputError(Problem{c.row, "id", c.id,
                               fmt::format("rows of one id asking for one prediction (row {} asks for another)",
                                           rows.front()->row.line),
                               "put the column that tells them apart into the id"});
    rows.push_back(&c);
  }
  for (auto& c : out) {
    std::vector<double> measured, p10, p90;
    for (const ValidationCase* row : rows_of[c.id]) {
      measured.push_back(row->measured);
      p10.push_back(row->measured_p10);
      p90.push_back(row->measured_p90);
    }
    c.measured = median(measured);
    c.measured_p10 = median(p10);
    c.measured_p90 = median(p90);
  }
  return out;
}

// A suite reads each key from itself or, where it leaves the key out, from the file's
// [defaults]; problems are located where the value was written.
class SuiteKeys {
 public:
  SuiteKeys(TableReader& suite, TableReader* defaults) : suite_(suite), defaults_(defaults) {}
  TableReader& operator[](const std::string& key) {
    if (!defaults_) return suite_;
    defaults_->allow(key);
    return !suite_.has(key) && defaults_->has(key) ? *defaults_ : suite_;
  }
  // A table of `key`'s entries, the defaults' first and the suite's over them.  A value is a
  // string, or a number or boolean written as TOML writes it (a set value is read as TOML
  // again, as --set reads it).
  std::vector<std::pair<std::string, std::string>> entries(const std::string& key) {
    std::vector<std::pair<std::string, std::string>> out;
    for (TableReader* r : {defaults_, &suite_})
      if (const auto* t = r ? r->table(key) : nullptr)
        for (const auto& [k, v] : *t) {
          const std::string name(k.str());
          auto it = std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == name; });
          if (it == out.end()) it = out.insert(out.end(), std::pair<std::string, std::string>(name, ""));
          if (v.is_string()) it->second = v.value_or(std::string());
          else if (v.is_boolean() || v.is_integer() || v.is_floating_point()) it->second = show(v);
          else r->problem(key + "." + name, show(v), "a string, number or boolean");
        }
    return out;
  }

 private:
  TableReader& suite_;
  TableReader* defaults_;
};

void read_suite(TableReader& r, TableReader* defaults, const fs::path& base, std::vector<ValidationCase>& out) {
  SuiteKeys from(r, defaults);
  const auto data = from["data"].string("data", true);
  const auto scenario = from["scenario"].string("scenario");
  const auto id = from["id"].string("id", true);
  const auto group = from["group"].string("group", true);
  const auto measured = from["measured"].string("measured", true);
  const auto predicted = from["predicted"].string("predicted", true);
  const auto bound = from["bound_mape_pct"].number("bound_mape_pct", 0, 1000, true);
  const auto band = from["band"].strings("band");
  const bool skip_unmeasured = from["skip_unmeasured"].boolean("skip_unmeasured").value_or(false);
  const auto repeated = from["repeated"].string("repeated");
  if (repeated && *repeated != "median")
    from["repeated"].problem("repeated", *repeated, "\"median\" (rows of one id combined), or no key (each row a case)");
  std::vector<std::pair<std::string, std::string>> kernel;
  if (const auto* t = from["kernel"].table("kernel")) {
    for (const auto& [k, v] : *t) kernel.emplace_back(std::string(k.str()), v.value_or(std::string()));
    for (const char* key : {"signature", "phase", "device", "profile"})
      if (std::none_of(kernel.begin(), kernel.end(), [&](const auto& kv) { return kv.first == key; }))
        from["kernel"].problem(std::string("kernel.") + key, "", "a value (kernel = { signature, phase, device, profile })");
  }
  if (scenario.has_value() == !kernel.empty())
    from["scenario"].problem("scenario", scenario.value_or(""), "either a scenario or a kernel table, not both or neither");
  const auto where = from.entries("where");
  const auto sets = from.entries("set");
  if (band && band->size() != 2) from["band"].problem("band", "", "[P10 column, P90 column]");
  r.finish();
  if (!data || !id || !group || !measured || !predicted || !bound || scenario.has_value() == !kernel.empty()) return;
  const std::string file = (base / *data).lexically_normal().string();
  const CsvTable table = read_csv(file);
  std::vector<ValidationCase> cases;
  for (const auto& row : table.rows) {
    bool take = true;
    for (const auto& [column, value] : where) take = take && row.fields.count(column) && row.fields.at(column) == value;
    if (!take || (skip_unmeasured && !is_number(row, *measured))) continue;
    ValidationCase c;
    c.id = fill(*id, row, table.columns, from["id"], "id");
    c.group = fill(*group, row, table.columns, from["group"], "group");
    if (scenario)
      c.scenario = (base / fill(*scenario, row, table.columns, from["scenario"], "scenario")).lexically_normal().string();
    if (!kernel.empty()) {
      std::map<std::string, std::string> k;
      for (const auto& [key, value] : kernel) k[key] = fill(value, row, table.columns, from["kernel"], "kernel." + key);
      c.kernel = KernelQuery{k["signature"], k["phase"], k["device"],
                             (base / k["profile"]).lexically_normal().string()};
    }
    for (const auto& [key, value] : sets)
      c.overrides.push_back(parse_override(key + "=" + fill(value, row, table.columns, from["set"], "set." + key)));
    c.predicted_key = *predicted;
    c.measured = number(row, *measured, file);
    if (band && band->size() == 2) {
      c.measured_p10 = number(row, (*band)[0], file);
      c.measured_p90 = number(row, (*band)[1], file);
    }
    c.bound_mape_pct = *bound;
    c.row = {file, row.line, 0};
    cases.push_back(std::move(c));
  }
  if (repeated) cases = median_of_repeats(std::move(cases));
  out.insert(out.end(), std::make_move_iterator(cases.begin()), std::make_move_iterator(cases.end()));
}

}  // namespace

std::vector<ValidationCase> load_cases(const std::string& path) {
  const toml::table root =
      parse_document(read_text_file(path, "a readable case file", "validation/cases/ holds them"), path);
  ProblemList problems;
  TableReader top(root, "", problems);
  std::vector<ValidationCase> out;
  std::optional<TableReader> defaults;
  if (const auto* t = top.table("defaults")) defaults.emplace(*t, "defaults", problems);
  if (const auto* suites = top.array_of_tables("suite")) {
    size_t i = 0;
    for (const auto& suite : *suites) {
      TableReader r(*suite.as_table(), fmt::format("suite[{}]", i++), problems);
      read_suite(r, defaults ? &*defaults : nullptr, fs::path(path).parent_path(), out);
    }
  } else {
    top.problem("suite", "", "at least one [[suite]]");
  }
  if (defaults) defaults->finish();
  top.finish();
  problems.throw_if_any();
  return out;
}

}  // namespace dlsim::scenario
