// dlsim: predicts how fast, and at what price, a network trains or serves on given hardware.
// The only place that catches errors and picks exit codes (DESIGN.md):
//   0 success, 2 bad input, 3 a configuration that cannot run, 1 anything else.
#include <algorithm>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/suggest.hpp"
#include "report/generator.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dlsim: a performance simulator for deep-learning clusters"};
  app.set_version_flag("--version", "dlsim " + dlsim::report::version() + " (" + dlsim::report::commit() + ")");
  app.require_subcommand(1);
  dlsim::cli::add_model_command(app);
  dlsim::cli::add_hw_command(app);
  dlsim::cli::add_run_command(app);
  dlsim::cli::add_calibrate_command(app);
  dlsim::cli::add_validate_command(app);
  dlsim::cli::add_kernel_command(app);
  dlsim::cli::add_sweep_commands(app);
  dlsim::cli::add_plan_command(app);
  // CLI11 would say only "a subcommand is required"; name the unknown one instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> commands;
    for (const auto* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
    if (std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
      std::cerr << "dlsim: unknown command '" << argv[1] << "' (" << dlsim::suggest(argv[1], commands) << ")\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
    return 0;
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const dlsim::InputError& e) {
    std::cerr << e.what() << '\n';
    return 2;
  } catch (const dlsim::UnrunnableError& e) {
    std::cerr << "cannot run: " << e.what() << '\n';
    return 3;
  } catch (const dlsim::CheckFailed& e) {
    std::cerr << "check failed: " << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << '\n';
    return 1;
  }
}
