#!/usr/bin/env python3
"""Measure `shapehound check` on the hyperparameter-domain suite (tests/data/domain_suite).

For every program: the findings `check` reports on its model.py against the torch-verified
rows of expected.tsv (scripts/gen_domain_suite.py). A program is

  found     when an error finding sits on a line where some defective combination fails;
  named     when, in addition, every defective combination is named in a finding's text
            (each of its `name=value` pairs appears) and no passing combination is;
  a false alarm when a finding sits on a line where no combination fails.

Usage (from the repository root, after `cargo build --release`):
    python3 scripts/measure_domain_suite.py [--binary target/release/shapehound] [--verbose]
"""
import argparse
import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tests" / "data" / "domain_suite"


def expected_rows():
    rows = defaultdict(list)
    with open(SUITE / "expected.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            rows[row["folder"]].append(row)
    return rows


def findings_of(binary, model):
    out = subprocess.run(
        [binary, "check", str(model), "--format", "json", "--exit-zero", "--color", "never"],
        capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        sys.exit(f"{model}: check exited {out.returncode}: {out.stderr.strip()}")
    report = json.loads(out.stdout)
    return report["findings"] if isinstance(report, dict) else report


def mentions(text, combination):
    return all(pair in text for pair in combination.split(","))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "shapehound"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    totals = defaultdict(int)
    for folder, rows in sorted(expected_rows().items()):
        failing = [r for r in rows if r["result"] == "fail"]
        passing = [r for r in rows if r["result"] == "pass"]
        fail_lines = {int(r["line"]) for r in failing}
        findings = findings_of(args.binary, SUITE / folder / "model.py")
        errors = [f for f in findings if f.get("severity", "error") == "error"]
        text = " ".join(f.get("message", "") for f in findings)
        found = any(f.get("line") in fail_lines for f in errors)
        named = found and all(mentions(text, r["combination"]) for r in failing) and not any(
            mentions(text, r["combination"]) for r in passing
        )
        false_alarm = any(f.get("line") not in fail_lines for f in findings)
        totals["programs"] += 1
        totals["found"] += found
        totals["named"] += named
        totals["false_alarm"] += false_alarm
        if args.verbose:
            lines = ",".join(str(f.get("line")) for f in findings) or "-"
            print(f"{folder}\tfound={found}\tnamed={named}\tfalse_alarm={false_alarm}\tlines={lines}")
    n = totals["programs"]
    print(
        f"programs {n}: found at a failing line {totals['found']}, defective values named "
        f"{totals['named']}, with a false alarm {totals['false_alarm']}"
    )


if __name__ == "__main__":
    main()
