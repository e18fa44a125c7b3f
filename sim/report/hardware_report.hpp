#pragma once
// `dlsim hw list` and `dlsim hw show NAME`: the catalog with every number's source.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hardware/catalog.hpp"
#include "report/generator.hpp"

namespace dlsim::report {

// {"gpus": [...], "cpus": [...], "instances": [...], "nics": [...], "pcie": [...], "billing": [...]}
nlohmann::ordered_json catalog_json(const hardware::Catalog& catalog);
std::string catalog_text(const hardware::Catalog& catalog, Format format);

// The entry of any kind with this name; nullopt when there is none.
std::optional<nlohmann::ordered_json> catalog_entry_json(const hardware::Catalog& catalog, const std::string& name);
std::optional<std::string> catalog_entry_text(const hardware::Catalog& catalog, const std::string& name,
                                              Format format);
std::vector<std::string> catalog_entry_names(const hardware::Catalog& catalog);

}  // namespace dlsim::report
