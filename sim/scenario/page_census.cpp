#include "scenario/page_census.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "core/csv.hpp"
#include "core/error.hpp"

namespace dlsim::scenario {
namespace {

constexpr const char* kColumns[] = {"model", "batch",       "server_threads", "deployment",      "protocol",
                                    "mode",  "concurrency", "input",          "pass_page_faults"};

int64_t whole_number(const CsvRow& row, const std::string& column, const std::string& source) {
  const std::string& text = row.fields.at(column);
  int64_t value = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0)
    throw InputError(Problem{{source, row.line, 0}, column, text, "a whole number of at least 0",
                             "make the census again: validation/page_census.py LATENCIES --out CENSUS"});
  return value;
}

}  // namespace

std::string to_string(const PageCensusKey& k) {
  const std::string stack = k.deployment == "in-process" ? "in process" : fmt::format("{} {} {}", k.deployment,
                                                                                     k.protocol, k.mode);
  return fmt::format("{} at batch {} on {} thread{}, {}, {} client{}, {}", k.model, k.batch, k.threads,
                     k.threads == 1 ? "" : "s", stack, k.clients, k.clients == 1 ? "" : "s", k.input);
}

PageCensus PageCensus::read(const std::string& path) {
  const CsvTable table = read_csv(path);
  for (const char* column : kColumns)
    if (std::find(table.columns.begin(), table.columns.end(), column) == table.columns.end())
      throw InputError(Problem{{path, 1, 0}, column, "", "a page census's column (validation/page_census.py writes it)",
                               "make the census again: validation/page_census.py LATENCIES --out CENSUS"});
  PageCensus census;
  census.source_ = path;
  for (const auto& row : table.rows) {
    Row r;
    r.key.model = row.fields.at("model");
    r.key.batch = whole_number(row, "batch", path);
    r.key.threads = static_cast<int>(whole_number(row, "server_threads", path));
    r.key.deployment = row.fields.at("deployment");
    r.key.protocol = row.fields.at("protocol");
    r.key.mode = row.fields.at("mode");
    r.key.clients = static_cast<int>(whole_number(row, "concurrency", path));
    r.key.input = row.fields.at("input");
    r.pages = whole_number(row, "pass_page_faults", path);
    census.rows_.push_back(std::move(r));
  }
  return census;
}

std::optional<int64_t> PageCensus::pages(const PageCensusKey& k) const {
  for (const auto& r : rows_) {
    const auto& c = r.key;
    if (c.model == k.model && c.batch == k.batch && c.threads == k.threads && c.deployment == k.deployment &&
        c.protocol == k.protocol && c.mode == k.mode && c.clients == k.clients && c.input == k.input)
      return r.pages;
  }
  return std::nullopt;
}

std::vector<std::string> PageCensus::models() const {
  std::set<std::string> names;
  for (const auto& r : rows_) names.insert(r.key.model);
  return {names.begin(), names.end()};
}

}  // namespace dlsim::scenario
