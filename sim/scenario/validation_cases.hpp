#pragma once
// validation/cases/*.toml: which measured rows dlsim must predict, and how each becomes a
// scenario.  A file holds [[suite]] tables:
//   data      CSV of measured runs (relative to the case file)
//   where     { column = "value", ... }: the rows this suite takes
//   scenario  scenario template; "{column}" is replaced by the row's value
//   kernel    instead of a scenario, one kernel: { signature, phase, device, profile },
//             each with placeholders; predicted is then "milliseconds" or "seconds"
//   skip_unmeasured  true: rows whose measured cell is not a number (N/A) are left out
//   repeated  "median": rows that give one id are repeated runs of one configuration (other
//             campaigns), and the case is measured at their median (band too); without it
//             each row is a case of its own
//   set       { "key" = "value" }: --set overrides, with "{column}" placeholders; a value
//             may be a number or boolean too (passed on as TOML writes it)
//   id, group names with placeholders; group names say CPU or GPU, train or infer, machine
//   measured  column of the measured value; band = [P10 column, P90 column] (optional)
//   predicted key of `dlsim run --format json` to compare with (e.g. throughput_images_per_s)
//   bound_mape_pct  the group's committed bound on mean absolute percentage error
// and may start with a [defaults] table of the same keys, which every suite takes where it
// leaves a key out; its `set` and `where` entries are merged with each suite's, the suite's
// winning (a file's shared profile paths are written once).
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "scenario/scenario.hpp"

namespace dlsim::scenario {

// One kernel's time on a device, from a profile (`dlsim kernel`).
struct KernelQuery {
  std::string signature;
  std::string phase;
  std::string device;   // a catalog GPU
  std::string profile;  // path
};

struct ValidationCase {
  std::string id;
  std::string group;
  std::string scenario;
  std::vector<Override> overrides;
  std::optional<KernelQuery> kernel;  // a kernel case instead of a scenario
  std::string predicted_key;
  double measured = 0;
  double measured_p10 = 0;  // 0 when the data gives no spread
  double measured_p90 = 0;
  double bound_mape_pct = 0;
  SourceLocation row;       // the measured row
};

std::vector<ValidationCase> load_cases(const std::string& path);

}  // namespace dlsim::scenario
