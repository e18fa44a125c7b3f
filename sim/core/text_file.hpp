#pragma once
// Whole-file reads for every input dlsim parses (scenarios, profiles, CSV, benchmark JSON).
#include <string>

namespace dlsim {

// The file's text; throws InputError naming the file, what was `expected` and a suggestion
// when it cannot be opened.
std::string read_text_file(const std::string& path, const std::string& expected, const std::string& suggestion = "");

// Whether `path` names a regular file; a name the system refuses (too long, a component that
// is a file) names none, rather than throwing.
bool is_regular_file(const std::string& path);

}  // namespace dlsim
