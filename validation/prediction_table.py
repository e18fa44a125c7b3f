#!/usr/bin/env python3
"""Regenerates README.md's prediction accuracy table: `dlsim validate --format markdown`
on the committed cases (validation/cases/), measured runs and calibration profiles.

    validation/prediction_table.py build/sim/cli/dlsim           rewrite the table in README.md
    validation/prediction_table.py build/sim/cli/dlsim --check   exit 1 if README.md is stale
"""
import subprocess
import sys

from readme_section import update


def main():
    dlsim = sys.argv[1]
    out = subprocess.run([dlsim, "validate", "--format", "markdown"], capture_output=True, text=True)
    if not out.stdout:
        print(out.stderr)
        return 1
    return update("validation-table", out.stdout, "--check" in sys.argv,
                  "validation/prediction_table.py build/sim/cli/dlsim")


if __name__ == "__main__":
    sys.exit(main())
