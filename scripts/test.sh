#!/usr/bin/env bash
# Sets up and builds dlsim, then runs every test:
#   1. all ctest labels (unit, sim, validation, bad_input; gpu skips without a GPU);
#   2. a clang build with AddressSanitizer and UndefinedBehaviorSanitizer that reruns the
#      unit and bad-input tests;
#   3. the libFuzzer targets (scenario parsing, ONNX import), seeded with the repository's
#      files, for FUZZ_SECONDS each (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --sanitizers

jobs=$(nproc)
ctest --test-dir build --output-on-failure -j"$jobs"

cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DDLSIM_SANITIZE=ON -DDLSIM_FUZZ=ON
cmake --build build-sanitize
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-sanitize --output-on-failure -j"$jobs" -L 'unit|bad_input'

seconds=${FUZZ_SECONDS:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scenario" "$work/onnx"
build-sanitize/tests/fuzz/scenario_fuzz -max_total_time="$seconds" -print_final_stats=1 \
  "$work/scenario" scenarios scenarios/models tests/data/bad
build-sanitize/tests/fuzz/onnx_fuzz -max_total_time="$seconds" -print_final_stats=1 \
  "$work/onnx" validation/oracle/onnx tests/data/bad
echo "test.sh: all tests passed"
