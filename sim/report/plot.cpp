#include "report/plot.hpp"

#include <fmt/format.h>

namespace dlsim::report {
namespace {

// A string as a gnuplot double-quoted literal.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

}  // namespace

std::string gnuplot_script(const Plot& plot) {
  std::string out = fmt::format(
      "# Drawn by dlsim; `gnuplot {0}.gp` writes {0}.svg.\n"
      "set terminal svg size 720,480 dynamic font \"sans,12\" background rgb \"white\"\n"
      "set output {1}\n",
      plot.name, quoted(plot.name + ".svg"));
  for (size_t i = 0; i < plot.series.size(); ++i) {
    out += fmt::format("$s{} << EOD\n", i);
    for (const auto& [x, y] : plot.series[i].points) out += fmt::format("{:.9g} {:.9g}\n", x, y);
    out += "EOD\n";
  }
  out += fmt::format("set title {}\nset xlabel {}\nset ylabel {}\n", quoted(plot.title), quoted(plot.x_label),
                     quoted(plot.y_label));
  out += "set grid\nset key left top Left reverse box opaque\nset yrange [0:*]\n";
  if (plot.log_x) out += "set logscale x 2\n";
  std::string plots;
  for (size_t i = 0; i < plot.series.size(); ++i)
    if (!plot.series[i].points.empty())
      plots += fmt::format("{}$s{} using 1:2 with {}{} title {}", plots.empty() ? "" : ", \\\n     ", i,
                           plot.series[i].style,
                           plot.series[i].color > 0 ? fmt::format(" linecolor {}", plot.series[i].color) : "",
                           quoted(plot.series[i].title));
  out += plots.empty() ? "set label \"no data\" at graph 0.5, graph 0.5 center\nplot 0 notitle\n" : "plot " + plots + "\n";
  return out;
}

}  // namespace dlsim::report
