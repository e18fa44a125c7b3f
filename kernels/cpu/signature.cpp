#include "signature.hpp"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace dlsim::kernels {
namespace {

std::vector<int64_t> numbers(const std::string& text, char separator, const std::string& word) {
  std::vector<int64_t> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, separator);) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("signature word '" + word + "' is not <name><integers>");
    out.push_back(std::stoll(item));
  }
  return out;
}

}  // namespace

int64_t Signature::get(const std::string& name) const { return list(name, 1)[0]; }

const std::vector<int64_t>& Signature::list(const std::string& name, size_t count) const {
  auto it = fields.find(name);
  if (it == fields.end() || it->second.size() != count)
    throw std::invalid_argument("signature '" + text + "' lacks field '" + name + "' with " + std::to_string(count) +
                                " value(s)");
  return it->second;
}

Signature parse_signature(const std::string& text) {
  Signature s;
  s.text = text;
  std::istringstream in(text);
  if (!(in >> s.op >> s.dtype)) throw std::invalid_argument("signature '" + text + "' has no operator and type");
  for (std::string word; in >> word;) {
    if (std::isdigit(static_cast<unsigned char>(word[0]))) {
      s.shapes.push_back(numbers(word, 'x', word));
      continue;
    }
    size_t split = 0;
    while (split < word.size() && std::isalpha(static_cast<unsigned char>(word[split]))) ++split;
    if (split == word.size()) {
      s.flags.insert(word);
    } else {
      s.fields[word.substr(0, split)] = numbers(word.substr(split), ',', word);
    }
  }
  return s;
}

std::vector<std::string> read_signatures(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open signature file '" + path + "'");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::string line; std::getline(in, line);) {
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty() || line[0] == '#' || !seen.insert(line).second) continue;
    out.push_back(line);
  }
  return out;
}

}  // namespace dlsim::kernels
