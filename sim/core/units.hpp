#pragma once
// Quantities with units, parsed in one place ("25Gbps", "16GiB", "5us", "2.3GHz",
// "15.7Tflops").  Every value inside dlsim is in SI base units (bytes, bytes per second,
// seconds, hertz, floating-point operations per second); the unit is in the variable's
// name, never only in a comment.
//
// Suffixes follow SimGrid's conventions: "bps" is bits per second and "Bps" (or "B/s")
// bytes per second; decimal prefixes are powers of 1000 and binary ones ("KiB", "GiB")
// powers of 1024.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dlsim {

enum class UnitKind { bytes, bandwidth, time, frequency, flop_rate };

// "a size in bytes (e.g. 16GB, 512MiB)" and so on.
std::string describe(UnitKind kind);

// The suffix a user most likely means for a kind ("Gbps" for a bandwidth).
std::string typical_suffix(UnitKind kind);

// The suffixes a kind accepts, for error messages and suggestions.
std::vector<std::string> unit_suffixes(UnitKind kind);

// Parses "<number><suffix>" into SI base units.  Throws UnitError on a missing or unknown
// suffix, a bare number, a negative or non-finite value.
double parse_quantity(std::string_view text, UnitKind kind);

class UnitError : public std::invalid_argument {
 public:
  UnitError(std::string message, std::string suggestion)
      : std::invalid_argument(std::move(message)), suggestion_(std::move(suggestion)) {}
  const std::string& suggestion() const { return suggestion_; }

 private:
  std::string suggestion_;
};

// Human-readable forms for reports: "25 Gbit/s", "16.0 GiB", "5.0 us".
std::string format_bytes(double bytes);
std::string format_bandwidth(double bytes_per_s);    // in bits: "25 Gbit/s" (networks)
std::string format_byte_rate(double bytes_per_s);    // in bytes: "900 GB/s" (memory, PCIe, NVLink)
std::string format_time(double seconds);
std::string format_flops(double flops);

}  // namespace dlsim
