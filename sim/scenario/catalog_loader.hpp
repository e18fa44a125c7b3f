#pragma once
// Parses the hardware catalog's data files (compiled into dlsim; see sim/hardware) and
// checks that every reference between entries resolves.

#include "hardware/catalog.hpp"

namespace dlsim::scenario {

// The built-in catalog, parsed once.  Throws InputError if a data file is malformed.
const hardware::Catalog& builtin_catalog();

// Parses catalog files given as {name, text}: the built-in ones, or a test's.
hardware::Catalog parse_catalog(const std::vector<hardware::CatalogFile>& files);

}  // namespace dlsim::scenario
