#!/usr/bin/env bash
# Runs a command that must fail with a given exit status and say something on stderr:
#   expect_exit.sh STATUS PATTERN COMMAND...
set -uo pipefail
status=$1 pattern=$2
shift 2
err=$("$@" 2>&1 >/dev/null)
got=$?
echo "$err"
if [[ $got -ne $status ]]; then
  echo "expected exit status $status, got $got" >&2
  exit 1
fi
grep -q -- "$pattern" <<< "$err" || { echo "expected stderr to match '$pattern'" >&2; exit 1; }
