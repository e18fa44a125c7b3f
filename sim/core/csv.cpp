#include "core/csv.hpp"

#include "core/error.hpp"
#include "core/text_file.hpp"

namespace dlsim {
namespace {

// Splits the text into records of fields; `starts` gets each record's first line.
std::vector<std::vector<std::string>> records(const std::string& text, const std::string& source,
                                              std::vector<int>& starts) {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  int line = 1, record_line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (c == '"') quoted = false;
      else field += c;
      if (c == '\n') ++line;
      continue;
    }
    if (c == '"') quoted = any = true;
    else if (c == ',') record.push_back(std::move(field)), field.clear(), any = true;
    else if (c == '\r') continue;
    else if (c == '\n') {
      if (any || !field.empty()) {
        record.push_back(std::move(field));
        out.push_back(std::move(record));
        starts.push_back(record_line);
      }
      record.clear(), field.clear(), any = false;
      record_line = ++line;
    } else {
      field += c, any = true;
    }
  }
  if (quoted) throw InputError(Problem{{source, record_line, 0}, "", "", "a closing quote for the field", ""});
  if (any || !field.empty()) {
    record.push_back(std::move(field));
    out.push_back(std::move(record));
    starts.push_back(record_line);
  }
  return out;
}

}  // namespace

CsvTable parse_csv(const std::string& text, const std::string& source) {
  std::vector<int> starts;
  auto rows = records(text, source, starts);
  CsvTable table;
  if (rows.empty()) throw InputError(Problem{{source, 1, 0}, "", "", "a header row naming the columns", ""});
  table.columns = rows.front();
  for (size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() != table.columns.size())
      throw InputError(Problem{{source, starts[r], 0}, "", std::to_string(rows[r].size()) + " fields",
                               std::to_string(table.columns.size()) + " fields, one per column of the header",
                               "quote fields that contain commas"});
    CsvRow row{starts[r], {}};
    for (size_t c = 0; c < rows[r].size(); ++c) row.fields[table.columns[c]] = rows[r][c];
    table.rows.push_back(std::move(row));
  }
  return table;
}

CsvTable read_csv(const std::string& path) {
  return parse_csv(read_text_file(path, "a readable CSV file", "check the path"), path);
}

}  // namespace dlsim
