#pragma once
// The dlsim subcommands.  Each registers its options on the CLI11 app and runs when chosen;
// none catches errors (main.cpp maps them to exit codes).

#include <CLI/CLI.hpp>

namespace dlsim::cli {

void add_model_command(CLI::App& app);
void add_hw_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);
void add_validate_command(CLI::App& app);
void add_kernel_command(CLI::App& app);
void add_sweep_commands(CLI::App& app);
void add_plan_command(CLI::App& app);

}  // namespace dlsim::cli
