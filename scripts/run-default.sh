#!/usr/bin/env bash
# Sets up and builds dlsim, then runs the default scenario (scenarios/default.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/sim/cli/dlsim run scenarios/default.toml "$@"
