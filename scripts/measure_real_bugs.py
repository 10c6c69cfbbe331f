#!/usr/bin/env python3
"""Measure shapehound on the real-world bug set: shape bugs people posted publicly.

The set is described by the committed manifests corpus/real_bugs/*.toml (one [[case]] per bug:
source URL, every edit made to complete the posted code, torch's error, the failing line, the
fix). The completed code is third-party and lives in the git-ignored corpus/real_bugs/cases/<name>/
(bug.py, and fixed.py when the fix is known); scripts/gen_bug_suite.py verifies it under real
torch:

    /root/torchenv/bin/python scripts/gen_bug_suite.py --cases corpus/real_bugs/cases \\
        --manifest corpus/real_bugs/qa.toml --manifest ...

This script runs `shapehound check --format json` on every bug.py and fixed.py and reports, case by
case, whether a finding sits on the manifest's failing line (found), only elsewhere (elsewhere), or
nowhere (missed), and whether the fixed twin has any finding (a false alarm).

    python3 scripts/measure_real_bugs.py [--binary target/release/shapehound] [--json OUT] \
        [--python-path /root/torchenv/lib/python3.11/site-packages]

`--python-path` is passed on to `check` (the installed packages the posted code imports, such
as torchvision, analysed from their source); without it `check` detects an active virtualenv or
the site-packages of the `python3` on PATH, as it does for any user.

Standard library only. Exits 0; the figures are the output.
"""
import argparse
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "corpus" / "real_bugs"
CASES = MANIFESTS / "cases"


def findings(binary, path, extra):
    out = subprocess.run([str(binary), "check", "--format", "json", *extra, str(path)],
                         capture_output=True, text=True, timeout=300)
    try:
        return json.loads(out.stdout).get("findings", [])
    except json.JSONDecodeError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "shapehound"))
    ap.add_argument("--json", metavar="OUT", help="write the per-case results here")
    ap.add_argument("--python-path", action="append", default=[], metavar="DIR",
                    help="installed packages for check (repeatable)")
    args = ap.parse_args()
    extra = [a for p in args.python_path for a in ("--python-path", p)]

    cases = []
    for manifest in sorted(MANIFESTS.glob("*.toml")):
        with open(manifest, "rb") as f:
            cases.extend(tomllib.load(f).get("case", []))
    results = []
    for case in sorted(cases, key=lambda c: c["name"]):
        folder = CASES / case["name"]
        bug = folder / "bug.py"
        if not bug.is_file():
            print(f"absent   {case['name']} (run the manifest's completion first)", file=sys.stderr)
            continue
        found = findings(args.binary, bug, extra)
        fixed = folder / "fixed.py"
        twin = findings(args.binary, fixed, extra) if fixed.is_file() else []
        lines = sorted({f["line"] for f in found or []})
        verdict = ("error" if found is None else "found" if case["line"] in lines
                   else "elsewhere" if lines else "missed")
        twin_alarm = bool(twin)
        results.append({"name": case["name"], "source": case["source"], "line": case["line"],
                        "verdict": verdict, "finding_lines": lines, "fixed_alarm": twin_alarm,
                        "kinds": sorted({f["kind"] for f in found or []})})
        mark = " FIXED-TWIN-ALARM" if twin_alarm else ""
        print(f"{verdict:9} {case['name']} (line {case['line']}; findings at {lines}){mark}")

    n = len(results)
    found = sum(r["verdict"] == "found" for r in results)
    elsewhere = sum(r["verdict"] == "elsewhere" for r in results)
    alarms = sum(r["fixed_alarm"] for r in results)
    print(f"\n{found} of {n} found at the failing line ({100 * found / max(n, 1):.1f}%), "
          f"{elsewhere} with a finding elsewhere only, {alarms} fixed twins with a finding")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
