#pragma once
// Draws charts into a folder: NAME.gp (the script, data inline) and, with gnuplot,
// NAME.svg.  Without gnuplot the scripts are still written and one line says so.
#include <string>
#include <vector>

#include "report/plot.hpp"

namespace dlsim::cli {

// Returns the files written, in the order of `plots`.
std::vector<std::string> draw_plots(const std::vector<report::Plot>& plots, const std::string& dir);

}  // namespace dlsim::cli
