#!/usr/bin/env python3
"""Regenerates README.md's model-zoo accuracy table: dlsim's parameter and multiply-add
counts against torchvision's (validation/oracle/torchvision_reference.json) and, for
Inception-v4, timm's published figures.

    validation/zoo_table.py build/sim/cli/dlsim           rewrite the table in README.md
    validation/zoo_table.py build/sim/cli/dlsim --check   exit 1 if README.md is stale
"""
import json
import pathlib
import subprocess
import sys

from generated_section import update

ROOT = pathlib.Path(__file__).resolve().parent.parent
# timm's model card for inception_v4.tf_in1k: "Params (M): 42.7, GMACs: 12.3".
PUBLISHED = {"inception_v4": ("timm model card (42.7 M, 12.3 GMACs)", 42.7e6, 12.3e9)}


def dlsim_model(dlsim, name):
    out = subprocess.run([dlsim, "model", name, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def zoo_or_export(dlsim, name):
    """(dlsim's account, row label): the zoo's network, else its ONNX training export."""
    out = subprocess.run([dlsim, "model", name, "--format", "json"], capture_output=True, text=True)
    if out.returncode == 0:
        return json.loads(out.stdout), name
    export = ROOT / "validation/oracle/onnx" / f"{name}_train.onnx"
    return dlsim_model(dlsim, str(export)), f"{name} (ONNX import)"


def table(dlsim):
    oracle = json.loads((ROOT / "validation/oracle/torchvision_reference.json").read_text())
    ref, version = oracle["models"], oracle["torchvision"]
    rows = ["| model | reference | params (reference) | params (dlsim) | MACs (reference) | MACs (dlsim) | MAC error |",
            "|---|---|---:|---:|---:|---:|---:|"]
    for name, r in ref.items():
        m, label = zoo_or_export(dlsim, name)
        err = abs(m["forward_macs_per_sample"] - r["macs"]) / r["macs"] * 100
        rows.append(f"| {label} | torchvision {version} | {r['params']:,} | {m['params']:,} | {r['macs']:,} | {m['forward_macs_per_sample']:,} | {err:.3f}% |")
    for name, (source, params, macs) in PUBLISHED.items():
        m = dlsim_model(dlsim, name)
        err = abs(m["forward_macs_per_sample"] - macs) / macs * 100
        rows.append(f"| {name} | {source} | {params / 1e6:.1f} M | {m['params']:,} | {macs / 1e9:.1f} G | "
                    f"{m['forward_macs_per_sample']:,} | {err:.1f}% (rounding) |")
    return "\n".join(rows)


def main():
    return update("zoo-table", table(sys.argv[1]), "--check" in sys.argv, "validation/zoo_table.py build/sim/cli/dlsim")


if __name__ == "__main__":
    sys.exit(main())
