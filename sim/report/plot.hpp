#pragma once
// Charts as gnuplot scripts: a Plot holds its series; gnuplot_script() writes a script that
// draws it into an SVG with the data inline, so that the script alone reproduces the
// picture (`gnuplot NAME.gp`).  Drawing it is the caller's (cli/plots.hpp).
#include <string>
#include <utility>
#include <vector>

namespace dlsim::report {

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in this order
  std::string style = "linespoints";              // gnuplot's: "points", "lines dashtype 2", ...
  int color = 0;                                  // gnuplot's line colour index; 0: the next
};

struct Plot {
  std::string name;  // file stem: NAME.gp draws NAME.svg
  std::string title, x_label, y_label;
  bool log_x = false;
  std::vector<Series> series;
};

std::string gnuplot_script(const Plot& plot);

}  // namespace dlsim::report
