#!/usr/bin/env python3
"""Verify the cross-file shape-bug suite under real PyTorch and write tests/data/cross_file_suite.json.

Every case is a folder tests/cross_file/cases/NNN_slug/ holding bug/ (a small multi-file PyTorch project
with exactly one shape bug), fixed/ (the same project with the bug fixed, every file line-aligned with
its bug/ twin) and case.toml (description, style, run, cause; see tests/cross_file/README.md).

For bug/ and fixed/ of every case this script runs the entry (`run`) in a fresh subprocess with
cwd = the project folder, PYTHONDONTWRITEBYTECODE=1, OMP_NUM_THREADS=1 and a 60 s timeout. The entry
is either a script path relative to the project root ("train.py") or "-m dotted.module". It is run
through a small wrapper (runpy.run_path / runpy.run_module) that keeps Python's own sys.path[0] rule
(the script's folder for a script, the cwd for -m) and reports the traceback frames on failure.

A case is confirmed when
  * bug/ raises RuntimeError, ValueError, IndexError, TypeError or AssertionError; the innermost
    traceback frame inside the project folder is the crash site (crash_file, crash_line);
  * fixed/ runs without an exception;
  * case.toml is well formed; bug/ and fixed/ hold the same set of .py files, each pair has the same
    number of lines, at least one file differs, the `cause` file is one that differs, and
    crash_file != cause (unless the case sets same_file_ok = true).

Usage:
    /root/torchenv/bin/python scripts/gen_cross_file_suite.py                 # verify all, write JSON
    /root/torchenv/bin/python scripts/gen_cross_file_suite.py --only 001_cnn_flatten_img_size   # print only
    /root/torchenv/bin/python scripts/gen_cross_file_suite.py -o /tmp/cross_file_suite.json -j 1

Exits non-zero, naming the cases that are not confirmed and why, if any case fails.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "tests" / "cross_file" / "cases"
DEFAULT_OUT = ROOT / "tests" / "data" / "cross_file_suite.json"
TIMEOUT_S = 60

SHAPE_ERRORS = {"RuntimeError", "ValueError", "IndexError", "TypeError", "AssertionError"}
STYLES = [
    "from-module-import", "import-module", "import-as", "relative", "relative-dot", "package-reexport",
    "star", "config-constants", "config-dataclass", "config-dict", "subclass", "function", "registry",
    "namespace-package", "nested-package",
]
REQUIRED_KEYS = ("description", "style", "run", "cause")
KNOWN_KEYS = set(REQUIRED_KEYS) | {"same_file_ok"}

# Runs inside the subprocess (python -P -c WRAPPER RESULT_PATH MODE TARGET), cwd = the project folder.
# -P keeps the cwd off sys.path while the wrapper imports its own modules; the wrapper then puts the
# entry's sys.path[0] in place exactly as `python train.py` / `python -m pkg.main` would.
WRAPPER = r"""
import json, os, runpy, sys, traceback
result_path, mode, target = sys.argv[1], sys.argv[2], sys.argv[3]
def report(doc):
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
if mode == "script":
    path = os.path.abspath(target)
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(path))
else:
    sys.argv = [target]
    sys.path.insert(0, os.getcwd())
try:
    if mode == "script":
        runpy.run_path(path, run_name="__main__")
    else:
        runpy.run_module(target, run_name="__main__", alter_sys=True)
except SystemExit as e:
    if e.code not in (None, 0):
        report({"ok": False, "error_type": "SystemExit", "message": str(e.code), "frames": []})
        raise
    report({"ok": True})
except BaseException as e:
    text = str(e).strip()
    frames = [{"file": fr.filename, "line": fr.lineno, "name": fr.name}
              for fr in traceback.extract_tb(e.__traceback__)]
    report({"ok": False, "error_type": type(e).__name__,
            "message": text.splitlines()[0] if text else "", "frames": frames})
    raise
else:
    report({"ok": True})
"""


# ----------------------------------------------------------------------------------------------- running

def run_entry(project, run):
    """Run one project's entry in a fresh subprocess. Returns (outcome dict or None, problem or None)."""
    if run.startswith("-m "):
        mode, target = "module", run[3:].strip()
    else:
        mode, target = "script", run
    fd, result_path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    os.unlink(result_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH", "PYTHONSTARTUP")}
    env.update(PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    try:
        proc = subprocess.run([sys.executable, "-P", "-c", WRAPPER, result_path, mode, target],
                              capture_output=True, text=True, timeout=TIMEOUT_S, env=env, cwd=str(project))
        if not os.path.exists(result_path):
            tail = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
            return None, f"runner exited with {proc.returncode} without a result: {tail}"
        with open(result_path, encoding="utf-8") as f:
            outcome = json.load(f)
        if outcome.get("ok") and proc.returncode != 0:
            return None, f"entry reported success but the process exited with {proc.returncode}"
        return outcome, None
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s"
    finally:
        try:
            os.unlink(result_path)
        except OSError:
            pass


def crash_site(project, frames):
    """The innermost traceback frame inside the project folder: (relative path, line) or (None, None)."""
    root = os.path.realpath(project)
    for fr in reversed(frames):
        path = os.path.realpath(fr["file"])
        if path.startswith(root + os.sep) and os.path.isfile(path):
            return Path(os.path.relpath(path, root)).as_posix(), fr["line"]
    return None, None


# ----------------------------------------------------------------------------------------------- checks

def py_files(project):
    return sorted(p.relative_to(project).as_posix() for p in project.rglob("*.py")
                  if "__pycache__" not in p.parts)


def load_meta(case_dir):
    problems = []
    try:
        with open(case_dir / "case.toml", "rb") as f:
            meta = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        return {}, [f"case.toml unreadable: {e}"]
    for key in REQUIRED_KEYS:
        if not isinstance(meta.get(key), str) or not meta.get(key).strip():
            problems.append(f"case.toml: {key} missing or not a string")
    unknown = sorted(set(meta) - KNOWN_KEYS)
    if unknown:
        problems.append(f"case.toml: unknown keys {unknown}")
    if "style" in meta and meta["style"] not in STYLES:
        problems.append(f"unknown style {meta['style']!r}")
    if not isinstance(meta.get("same_file_ok", False), bool):
        problems.append("same_file_ok must be true or false")
    run = meta.get("run")
    if isinstance(run, str):
        if run.startswith("-m "):
            if not all(part.isidentifier() for part in run[3:].strip().split(".")):
                problems.append(f"run {run!r}: not a dotted module name")
        elif not run.endswith(".py") or run.startswith("/") or ".." in Path(run).parts:
            problems.append(f"run {run!r}: must be a .py path relative to the project root or '-m module'")
    return meta, problems


def check_case(case_dir):
    """Returns (entry for the JSON, list of problems)."""
    meta, problems = load_meta(case_dir)
    bug_dir, fixed_dir = case_dir / "bug", case_dir / "fixed"
    entry = {"name": case_dir.name, "description": meta.get("description"), "style": meta.get("style"),
             "run": meta.get("run"), "cause": meta.get("cause"), "cause_lines": [], "crash_file": None,
             "crash_line": None, "error_type": None, "message": None, "fixed_ok": False, "confirmed": False}
    if not bug_dir.is_dir() or not fixed_dir.is_dir():
        return entry, problems + ["bug/ or fixed/ missing"]

    bug_files, fixed_files = py_files(bug_dir), py_files(fixed_dir)
    if bug_files != fixed_files:
        problems.append(f"bug/ and fixed/ hold different .py files: "
                        f"{sorted(set(bug_files) ^ set(fixed_files))}")
    if not 2 <= len(bug_files) <= 5:
        problems.append(f"bug/ holds {len(bug_files)} .py files (want 2 to 5)")
    changed = {}
    for rel in sorted(set(bug_files) & set(fixed_files)):
        a = (bug_dir / rel).read_text(encoding="utf-8").splitlines()
        b = (fixed_dir / rel).read_text(encoding="utf-8").splitlines()
        if len(a) != len(b):
            problems.append(f"{rel}: bug/ has {len(a)} lines, fixed/ {len(b)}: not line-aligned")
            continue
        diff = [i + 1 for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if diff:
            changed[rel] = diff
    if not changed:
        problems.append("bug/ and fixed/ are identical")
    cause = meta.get("cause")
    if isinstance(cause, str):
        if cause not in bug_files:
            problems.append(f"cause {cause!r} is not a .py file of the project")
        elif cause not in changed:
            problems.append(f"cause {cause!r} does not differ between bug/ and fixed/")
        else:
            entry["cause_lines"] = changed[cause]
    run = meta.get("run")
    if isinstance(run, str) and not run.startswith("-m ") and run not in bug_files:
        problems.append(f"run {run!r} is not a file of the project")
    if problems and not isinstance(run, str):
        return entry, problems

    outcome, problem = run_entry(bug_dir, run)
    if problem:
        problems.append(f"bug/: {problem}")
    elif outcome["ok"]:
        problems.append("bug/ ran without an exception")
    else:
        entry["error_type"] = outcome["error_type"]
        entry["message"] = outcome["message"]
        entry["crash_file"], entry["crash_line"] = crash_site(bug_dir, outcome["frames"])
        if outcome["error_type"] not in SHAPE_ERRORS:
            problems.append(f"bug/ raised {outcome['error_type']}: {outcome['message']}")
        if entry["crash_file"] is None:
            problems.append("bug/: no traceback frame inside the project")
        elif entry["crash_file"] == cause and not meta.get("same_file_ok", False):
            problems.append(f"crash site {entry['crash_file']}:{entry['crash_line']} is in the cause file")

    outcome, problem = run_entry(fixed_dir, run)
    if problem:
        problems.append(f"fixed/: {problem}")
    elif not outcome["ok"]:
        problems.append(f"fixed/ raised {outcome['error_type']}: {outcome['message']}")
    else:
        entry["fixed_ok"] = True

    entry["confirmed"] = not problems
    return entry, problems


# ----------------------------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", metavar="NAME", help="check one case and print its entry; writes nothing")
    ap.add_argument("-o", "--out", default=str(DEFAULT_OUT), help="output JSON (default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                    help="cases checked in parallel")
    args = ap.parse_args()

    case_dirs = sorted(p for p in CASES_DIR.iterdir() if p.is_dir())
    if args.only:
        case_dirs = [p for p in case_dirs if p.name == args.only]
        if not case_dirs:
            sys.exit(f"no case named {args.only!r} under {CASES_DIR}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(check_case, case_dirs))

    failed = []
    for entry, problems in results:
        status = "ok " if entry["confirmed"] else "BAD"
        site = f"{entry['crash_file']}:{entry['crash_line']}" if entry["crash_file"] else "-"
        print(f"{status} {entry['name']:<40} {entry['error_type'] or '-':<15} {site}")
        for p in problems:
            print(f"      {p}")
        if not entry["confirmed"]:
            failed.append(entry["name"])

    if args.only:
        print(json.dumps(results[0][0], indent=1))
    else:
        import torch
        doc = {"torch_version": torch.__version__, "generator": "scripts/gen_cross_file_suite.py",
               "cases": sorted((e for e, _ in results), key=lambda e: e["name"])}
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out} ({len(doc['cases'])} cases, {len(doc['cases']) - len(failed)} confirmed)")
    if failed:
        sys.exit(f"not confirmed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
