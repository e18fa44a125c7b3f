#include "core/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace dlsim {

std::string read_text_file(const std::string& path, const std::string& expected, const std::string& suggestion) {
  std::ifstream in(path);
  if (!in) throw InputError(Problem{{path, 0, 0}, "", "", expected, suggestion});
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

}  // namespace dlsim
