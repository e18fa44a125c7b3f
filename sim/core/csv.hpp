#pragma once
// Comma-separated tables as the measured-run files keep them (RFC 4180: quoted fields may
// hold commas, doubled quotes and newlines).  The first row names the columns.
#include <map>
#include <string>
#include <vector>

namespace dlsim {

struct CsvRow {
  int line = 0;  // 1-based line where the row starts
  std::map<std::string, std::string> fields;
};

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<CsvRow> rows;
};

// Throws InputError (file, line) for an unterminated quote or a row whose field count
// differs from the header's.
CsvTable parse_csv(const std::string& text, const std::string& source_name);
CsvTable read_csv(const std::string& path);

}  // namespace dlsim
