#!/usr/bin/env python3
"""Regenerates README.md's prediction accuracy table: `dlsim validate --format markdown`
on the committed cases (validation/cases/), measured runs and calibration profiles.

    validation/prediction_table.py build/sim/cli/dlsim           rewrite the table in README.md
    validation/prediction_table.py build/sim/cli/dlsim --check   exit 1 if README.md is stale
"""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- validation-table:begin -->", "<!-- validation-table:end -->"


def main():
    dlsim = sys.argv[1]
    out = subprocess.run([dlsim, "validate", "--format", "markdown"], capture_output=True, text=True)
    if not out.stdout:
        print(out.stderr)
        return 1
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    updated = text[:start] + "\n" + out.stdout.rstrip("\n") + "\n" + text[stop:]
    if "--check" in sys.argv:
        if updated != text:
            print("README.md's validation table is stale: run validation/prediction_table.py build/sim/cli/dlsim")
            return 1
        return 0
    readme.write_text(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
