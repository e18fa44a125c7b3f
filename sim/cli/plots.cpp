#include "cli/plots.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/process.hpp"

namespace dlsim::cli {

std::vector<std::string> draw_plots(const std::vector<report::Plot>& plots, const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> written;
  bool drawn = true;
  for (const auto& plot : plots) {
    const auto script = fs::path(dir) / (plot.name + ".gp");
    std::ofstream(script) << report::gnuplot_script(plot);
    written.push_back(script.string());
    if (!drawn) continue;
    // gnuplot runs in the folder, so that the script names its picture without a path.
    const std::string folder = fs::absolute(dir).string();
    drawn = folder.find('\'') == std::string::npos &&
            run_program({"gnuplot", "-e", fmt::format("cd '{}'", folder), plot.name + ".gp"}) == 0;
    if (drawn)
      written.push_back((fs::path(dir) / (plot.name + ".svg")).string());
    else
      std::cerr << fmt::format("plots: gnuplot could not draw {} (install it: apt-get install gnuplot-nox); the "
                               "scripts are written, `gnuplot NAME.gp` in {} draws them\n",
                               script.string(), dir);
  }
  return written;
}

}  // namespace dlsim::cli
