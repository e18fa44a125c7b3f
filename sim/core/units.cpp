#include "core/units.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "core/suggest.hpp"

namespace dlsim {
namespace {

using SuffixTable = std::vector<std::pair<std::string, double>>;

SuffixTable decimal_and_binary(const std::string& base, double scale) {
  SuffixTable t = {{base, scale}};
  const char* dec[] = {"k", "M", "G", "T", "P"};
  double f = 1.0;
  for (const char* p : dec) {
    f *= 1000.0;
    t.emplace_back(std::string(p) + base, f * scale);
  }
  t.emplace_back("K" + base, 1000.0 * scale);  // common spelling of kilo
  const char* bin[] = {"Ki", "Mi", "Gi", "Ti", "Pi"};
  f = 1.0;
  for (const char* p : bin) {
    f *= 1024.0;
    t.emplace_back(std::string(p) + base, f * scale);
  }
  return t;
}

const SuffixTable& table(UnitKind kind) {
  static const std::map<UnitKind, SuffixTable> tables = [] {
    std::map<UnitKind, SuffixTable> m;
    m[UnitKind::bytes] = decimal_and_binary("B", 1.0);
    auto& bw = m[UnitKind::bandwidth];
    for (auto& e : decimal_and_binary("Bps", 1.0)) bw.push_back(e);
    for (auto& e : decimal_and_binary("B/s", 1.0)) bw.push_back(e);
    for (auto& e : decimal_and_binary("bps", 1.0 / 8.0)) bw.push_back(e);
    for (auto& e : decimal_and_binary("bit/s", 1.0 / 8.0)) bw.push_back(e);
    m[UnitKind::time] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0},
                         {"min", 60.0}, {"h", 3600.0}, {"d", 86400.0}};
    m[UnitKind::frequency] = {{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
    auto& fl = m[UnitKind::flop_rate];
    for (auto& e : decimal_and_binary("flops", 1.0))
      if (e.first.find('i') == std::string::npos) fl.push_back(e);
    for (auto& e : decimal_and_binary("FLOPS", 1.0))
      if (e.first.find('i') == std::string::npos) fl.push_back(e);
    return m;
  }();
  return tables.at(kind);
}

std::string example(UnitKind kind) {
  switch (kind) {
    case UnitKind::bytes: return "16GB or 512MiB";
    case UnitKind::bandwidth: return "25Gbps (bits) or 12GBps, 12GB/s (bytes)";
    case UnitKind::time: return "5us, 1.5ms or 10min";
    case UnitKind::frequency: return "2.3GHz";
    case UnitKind::flop_rate: return "15.7Tflops";
  }
  return "";
}

}  // namespace

std::string describe(UnitKind kind) {
  switch (kind) {
    case UnitKind::bytes: return fmt::format("a size with a unit (e.g. {})", example(kind));
    case UnitKind::bandwidth: return fmt::format("a bandwidth with a unit (e.g. {})", example(kind));
    case UnitKind::time: return fmt::format("a duration with a unit (e.g. {})", example(kind));
    case UnitKind::frequency: return fmt::format("a frequency with a unit (e.g. {})", example(kind));
    case UnitKind::flop_rate: return fmt::format("a compute rate with a unit (e.g. {})", example(kind));
  }
  return "";
}

std::string typical_suffix(UnitKind kind) {
  switch (kind) {
    case UnitKind::bytes: return "GB";
    case UnitKind::bandwidth: return "Gbps";
    case UnitKind::time: return "us";
    case UnitKind::frequency: return "GHz";
    case UnitKind::flop_rate: return "Tflops";
  }
  return "";
}

std::vector<std::string> unit_suffixes(UnitKind kind) {
  std::vector<std::string> out;
  for (const auto& [suffix, scale] : table(kind)) out.push_back(suffix);
  return out;
}

double parse_quantity(std::string_view text, UnitKind kind) {
  const std::string s(text);
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(begin, &end);
  if (end == begin) {
    throw UnitError(fmt::format("'{}' does not start with a number; expected {}", s, describe(kind)), "");
  }
  if (number < 0) throw UnitError(fmt::format("'{}' is negative; expected {}", s, describe(kind)), "");
  std::string suffix(end);
  while (!suffix.empty() && suffix.front() == ' ') suffix.erase(suffix.begin());
  if (suffix.empty()) {
    throw UnitError(fmt::format("'{}' has no unit; expected {}", s, describe(kind)),
                    fmt::format("write e.g. '{}{}'", s, typical_suffix(kind)));
  }
  for (const auto& [name, scale] : table(kind)) {
    if (name == suffix) {
      const double value = number * scale;
      if (errno == ERANGE || !std::isfinite(value))
        throw UnitError(fmt::format("'{}' is out of range", s), "");
      return value;
    }
  }
  throw UnitError(fmt::format("'{}' has unknown unit '{}'; expected {}", s, suffix, describe(kind)),
                  suggest(suffix, unit_suffixes(kind)));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (bytes >= 1024.0 && i < 4) {
    bytes /= 1024.0;
    ++i;
  }
  return i == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", bytes, units[i]);
}

std::string format_bandwidth(double bytes_per_s) {
  const double bits = bytes_per_s * 8.0;
  if (bits >= 1e9) return fmt::format("{:.4g} Gbit/s", bits / 1e9);
  if (bits >= 1e6) return fmt::format("{:.4g} Mbit/s", bits / 1e6);
  return fmt::format("{:.4g} bit/s", bits);
}

std::string format_byte_rate(double bytes_per_s) {
  if (bytes_per_s >= 1e9) return fmt::format("{:.4g} GB/s", bytes_per_s / 1e9);
  return fmt::format("{:.4g} MB/s", bytes_per_s / 1e6);
}

std::string format_time(double seconds) {
  if (seconds >= 1.0) return fmt::format("{:.4g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.4g} ms", seconds * 1e3);
  if (seconds >= 1e-6) return fmt::format("{:.4g} us", seconds * 1e6);
  return fmt::format("{:.4g} ns", seconds * 1e9);
}

std::string format_flops(double flops) {
  if (flops >= 1e12) return fmt::format("{:.4g} T", flops / 1e12);
  if (flops >= 1e9) return fmt::format("{:.4g} G", flops / 1e9);
  if (flops >= 1e6) return fmt::format("{:.4g} M", flops / 1e6);
  return fmt::format("{:.4g} ", flops);
}

}  // namespace dlsim
