#pragma once
// Whole-file reads for every input dlsim parses (scenarios, profiles, CSV, benchmark JSON).
#include <string>

namespace dlsim {

// The file's text; throws InputError naming the file, what was `expected` and a suggestion
// when it cannot be opened.
std::string read_text_file(const std::string& path, const std::string& expected, const std::string& suggestion = "");

}  // namespace dlsim
