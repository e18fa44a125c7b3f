#include "core/text_file.hpp"

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

}  // namespace dlsim
