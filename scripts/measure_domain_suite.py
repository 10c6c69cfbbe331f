#!/usr/bin/env python3
"""Measure `shapehound check` on the hyperparameter-domain suite (tests/data/domain_suite).

For every program: the findings `check` reports on its model.py against the torch-verified
rows of expected.tsv (scripts/gen_domain_suite.py). A program is

  found     when an error finding sits on a line where some defective combination fails;
  named     when, in addition, every defective combination is named among the values a
            finding says fail (after "fails for", before "; passes for": values separated by
            ", ", a value of several names in parentheses, `lo <= name <= hi` every int of
            that range) and no passing combination is. A
            value names a combination when it gives the same values in the same order: the
            program may call the knob by its own name (`for k in [3, 5]: run(kernel_size=k)`
            says `k=5`);
  a false alarm when a finding sits on a line where no combination fails.

Usage (from the repository root, after `cargo build --release`):
    python3 scripts/measure_domain_suite.py [--binary target/release/shapehound] [--verbose]
"""
import argparse
import csv
import json
import re
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


def failing_part(message):
    """The values a finding says fail: after "fails for", up to "; passes for"; without
    that phrase, the whole message (a finding that names no domain)."""
    if "fails for " not in message:
        return message
    part = message.split("fails for ", 1)[1]
    return part.split("; passes for ", 1)[0].split("; not settled for ", 1)[0]


def failing_values(part):
    """The values in a "fails for" list, each as the tuple of its values."""
    out, depth, current = [], 0, ""
    for ch in part + ", ":
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        current += ch
        if depth == 0 and current.endswith(", "):
            item = current[:-2].strip().strip("()")
            matchers = tuple(m for m in map(matcher, item.split(", ")) if m is not None)
            if matchers:
                out.append(matchers)
            current = ""
    return out


def matcher(part):
    """What one part of a said value matches: `name=v` the value v; `lo <= name <= hi` (a
    range of values the analysis decided as a whole) every int from lo to hi."""
    bounded = re.fullmatch(r"(-?\d+) <= [\w.]+ <= (-?\d+)", part.strip())
    if bounded:
        lo, hi = int(bounded.group(1)), int(bounded.group(2))
        return lambda v: v.lstrip("-").isdigit() and lo <= int(v) <= hi
    if "=" in part:
        said = part.split("=", 1)[1].strip()
        return lambda v: v == said
    return None


def values(combination):
    return tuple(pair.split("=", 1)[1] for pair in combination.split(","))


def names(said, combination):
    """Whether a combination the finding says fails names an expected one: the expected
    values appear in it in order (names may differ, `k` passed on as `kernel_size`, and a
    grid entry may carry fields the torch run did not vary, such as its `name`)."""
    rest = iter(said)
    return all(any(m(v) for m in rest) for v in combination)


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
        findings = [f for f in findings if f.get("severity", "error") == "error"]
        errors = findings
        text = " ".join(failing_part(f.get("message", "")) for f in findings)
        said = [v for f in findings for v in failing_values(failing_part(f.get("message", "")))]
        found = any(f.get("line") in fail_lines for f in errors)
        def said_fails(r):
            return any(names(s, values(r["combination"])) for s in said)

        named = found and all(said_fails(r) for r in failing) and not any(said_fails(r) for r in passing)
        false_alarm = any(f.get("line") not in fail_lines for f in findings)
        totals["programs"] += 1
        totals["found"] += found
        totals["named"] += named
        totals["false_alarm"] += false_alarm
        if args.verbose:
            lines = ",".join(str(f.get("line")) for f in findings) or "-"
            print(f"{folder}\tfound={found}\tnamed={named}\tfalse_alarm={false_alarm}\tlines={lines}")
            if found and not named:
                print(f"\tfailing combinations: {[r['combination'] for r in failing]}\n\tsaid: {text}")
    n = totals["programs"]
    print(
        f"programs {n}: found at a failing line {totals['found']}, defective values named "
        f"{totals['named']}, with a false alarm {totals['false_alarm']}"
    )


if __name__ == "__main__":
    main()
