#!/usr/bin/env python3
"""Verify the shape-bug suite under real PyTorch and write tests/data/bug_suite.json.

Every case is a folder tests/bugs/cases/NNN_slug/ holding bug.py (a small PyTorch program with exactly one
shape bug), fixed.py (the same program, line-aligned, with the bug fixed) and case.toml (category, where,
symbolic, description, runs; see tests/bugs/README.md). For every case this script runs bug.py's runs and
fixed.py's runs, each file in its own fresh subprocess (timeout 60 s), single-threaded, with
torch.manual_seed(0) before every run. A run is either "__main__" (execute the file as a script) or Python
statements executed after the file's code has been exec'd in a fresh namespace.

A case is confirmed when
  * every run of bug.py raises (RuntimeError, ValueError, IndexError, TypeError or AssertionError), all runs
    with the same exception class and the same innermost traceback line inside bug.py (the "bug line");
  * every run of fixed.py completes without an exception;
  * case.toml is well formed, bug.py and fixed.py have the same number of lines and differ, and the entry
    rules hold: symbolic = true cases have no entry call of their own and at least 3 runs (none "__main__"),
    symbolic = false cases have runs = ["__main__"].

Usage:
    /root/torchenv/bin/python scripts/gen_bug_suite.py              # verify all, write tests/data/bug_suite.json
    /root/torchenv/bin/python scripts/gen_bug_suite.py --only 001_cnn_width_channels   # one case, print only
    /root/torchenv/bin/python scripts/gen_bug_suite.py -j 1 -o /tmp/bug_suite.json

Exits non-zero (and says which case and why) if any case is not confirmed. A few cases annotate with
jaxtyping; when it is not installed those cases fail with a message saying so
(`/root/torchenv/bin/pip install jaxtyping`).
"""
import argparse
import ast
import builtins
import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import tomllib
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "tests" / "bugs" / "cases"
DEFAULT_OUT = ROOT / "tests" / "data" / "bug_suite.json"
TIMEOUT_S = 60

CATEGORIES = [
    "conv_channels", "flatten_linear", "linear_features", "reshape_numel", "cat_stack", "matmul",
    "broadcast", "embedding", "rnn_input", "attention_heads", "permute_arity", "squeeze_unsqueeze",
    "kernel_too_large", "pooling_zero", "loss_target", "other",
]
WHERES = ["init", "forward", "call_site", "function"]
SHAPE_ERRORS = {"RuntimeError", "ValueError", "IndexError", "TypeError", "AssertionError"}
OPTIONAL_MODULES = {"jaxtyping": "/root/torchenv/bin/pip install jaxtyping", "einops": "/root/torchenv/bin/pip install einops"}


# ----------------------------------------------------------------------------------------------- worker

def worker(path, runs_json, result_path):
    """Runs inside the subprocess: execute every run of one file, write a JSON list of outcomes."""
    import torch

    torch.set_num_threads(1)
    path = os.path.realpath(path)
    runs = json.loads(runs_json)
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec")
    results = []
    for run in runs:
        torch.manual_seed(0)
        as_main = run == "__main__"
        ns = {"__name__": "__main__" if as_main else "bug_suite_case", "__file__": path,
              "__builtins__": builtins, "torch": torch}
        try:
            exec(code, ns)
            if not as_main:
                exec(compile(run, "<run>", "exec"), ns)
            results.append({"ok": True})
        except Exception as e:  # noqa: BLE001 - every exception is an outcome
            frames = [fr.lineno for fr in traceback.extract_tb(e.__traceback__)
                      if os.path.realpath(fr.filename) == path]
            text = str(e).strip()
            missing = e.name if isinstance(e, ModuleNotFoundError) else None
            results.append({"ok": False, "error_type": type(e).__name__,
                            "message": text.splitlines()[0] if text else "", "frames": frames,
                            "missing_module": missing})
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(results, f)


def run_file(path, runs):
    """Run one file's runs in a fresh subprocess; returns (outcomes or None, problem string or None)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        result_path = tmp.name
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    try:
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--worker", str(path), json.dumps(runs), result_path],
            capture_output=True, text=True, timeout=TIMEOUT_S, env=env, cwd=str(path.parent))
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
            return None, f"worker exited with {proc.returncode}: {tail}"
        with open(result_path, encoding="utf-8") as f:
            return json.load(f), None
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s"
    finally:
        try:
            os.unlink(result_path)
        except OSError:
            pass


# ----------------------------------------------------------------------------------------------- checks

def has_entry_call(source):
    """True if the module has code that runs on import or as a script: a top-level call expression or an
    `if __name__ == "__main__":` block."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            return True
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            return True
    return False


def load_manifest(path):
    """A manifest's `[[case]]` tables by `name`: the metadata of cases whose folders hold only code (posted
    third-party code kept in a git-ignored folder, described by a committed manifest)."""
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    return {c["name"]: c for c in doc.get("case", []) if isinstance(c, dict) and "name" in c}


MANIFEST = {}


def load_case(case_dir):
    problems = []
    meta = {}
    if case_dir.name in MANIFEST:
        meta = MANIFEST[case_dir.name]
    else:
        try:
            with open(case_dir / "case.toml", "rb") as f:
                meta = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            return meta, [f"case.toml unreadable: {e}"]
    if meta.get("category") not in CATEGORIES:
        problems.append(f"unknown category {meta.get('category')!r}")
    if meta.get("where") not in WHERES:
        problems.append(f"unknown where {meta.get('where')!r}")
    if not isinstance(meta.get("symbolic"), bool):
        problems.append("symbolic must be true or false")
    if not isinstance(meta.get("description"), str) or not meta.get("description"):
        problems.append("description missing")
    runs = meta.get("runs")
    if not isinstance(runs, list) or not runs or not all(isinstance(r, str) for r in runs):
        problems.append("runs must be a non-empty list of strings")
    if not isinstance(meta.get("blind", False), bool):
        problems.append("blind must be true or false")
    source = meta.get("source")
    if source is not None and not (isinstance(source, str) and source.startswith("http")):
        problems.append("source must be the URL the bug comes from")
    return meta, problems


def check_case(case_dir):
    name = case_dir.name
    meta, problems = load_case(case_dir)
    bug_path, fixed_path = case_dir / "bug.py", case_dir / "fixed.py"
    entry = {"name": name, "category": meta.get("category"), "where": meta.get("where"),
             "symbolic": meta.get("symbolic"), "blind": meta.get("blind", False),
             "source": meta.get("source"),
             "description": meta.get("description"), "bug_line": None,
             "fix_lines": [], "frames": [], "error_type": None, "message": None, "fixed_ok": False,
             "confirmed": False}
    if not bug_path.is_file() or not fixed_path.is_file():
        return entry, problems + ["bug.py or fixed.py missing"]
    bug_src = bug_path.read_text(encoding="utf-8")
    fixed_src = fixed_path.read_text(encoding="utf-8")
    bug_lines, fixed_lines = bug_src.splitlines(), fixed_src.splitlines()
    if len(bug_lines) != len(fixed_lines):
        problems.append(f"bug.py has {len(bug_lines)} lines, fixed.py {len(fixed_lines)}: not line-aligned")
    entry["fix_lines"] = [i + 1 for i, (a, b) in enumerate(zip(bug_lines, fixed_lines)) if a != b]
    if not entry["fix_lines"] and len(bug_lines) == len(fixed_lines):
        problems.append("bug.py and fixed.py are identical")
    runs = meta.get("runs") if isinstance(meta.get("runs"), list) else []
    if meta.get("symbolic") is True:
        if len(runs) < 3 or "__main__" in runs:
            problems.append("symbolic case needs >= 3 runs and no \"__main__\" run")
        for label, src in (("bug.py", bug_src), ("fixed.py", fixed_src)):
            if has_entry_call(src):
                problems.append(f"symbolic case but {label} has its own entry call")
        if meta.get("where") == "call_site":
            problems.append("a call_site case cannot be symbolic")
    elif meta.get("symbolic") is False:
        if runs != ["__main__"]:
            problems.append("non-symbolic case must use runs = [\"__main__\"]")
        if not has_entry_call(bug_src):
            problems.append("non-symbolic case but bug.py has no entry call")
    if problems:
        return entry, problems

    bug_out, err = run_file(bug_path, runs)
    if err:
        return entry, [f"bug.py: {err}"]
    fixed_out, err = run_file(fixed_path, runs)
    if err:
        return entry, [f"fixed.py: {err}"]

    for outcome in bug_out + fixed_out:
        mod = outcome.get("missing_module")
        if mod:
            hint = OPTIONAL_MODULES.get(mod, "")
            return entry, [f"module {mod!r} is not installed" + (f" (install with: {hint})" if hint else "")]

    entry["fixed_ok"] = all(o["ok"] for o in fixed_out)
    for run, o in zip(runs, fixed_out):
        if not o["ok"]:
            problems.append(f"fixed.py raised {o['error_type']} on run {run!r}: {o['message']}")
    for run, o in zip(runs, bug_out):
        if o["ok"]:
            problems.append(f"bug.py ran clean on run {run!r}")
        elif o["error_type"] not in SHAPE_ERRORS:
            problems.append(f"bug.py raised {o['error_type']} (not a shape error) on run {run!r}: {o['message']}")
        elif not o["frames"]:
            problems.append(f"bug.py raised on run {run!r} but no traceback frame is in bug.py")
    first = bug_out[0]
    if not first["ok"]:
        entry.update(bug_line=first["frames"][-1] if first["frames"] else None, frames=first["frames"],
                     error_type=first["error_type"], message=first["message"])
    failed = [o for o in bug_out if not o["ok"] and o["frames"]]
    if len({o["frames"][-1] for o in failed}) > 1:
        problems.append("bug line differs between runs: " + ", ".join(str(o["frames"][-1]) for o in failed))
    if len({o["error_type"] for o in failed}) > 1:
        problems.append("exception class differs between runs: " + ", ".join(o["error_type"] for o in failed))
    entry["confirmed"] = not problems
    return entry, problems


# ----------------------------------------------------------------------------------------------- main

def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], sys.argv[4])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="check only this case (repeatable); prints the result, does not write the JSON")
    ap.add_argument("-o", "--output", default=str(DEFAULT_OUT), help="JSON output (default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="cases checked in parallel (default 2)")
    ap.add_argument("--cases", default=str(CASES_DIR), metavar="DIR",
                    help="folder of case folders (default %(default)s), e.g. a held-out set kept elsewhere")
    ap.add_argument("--manifest", action="append", metavar="TOML",
                    help="take case metadata from this manifest's [[case]] tables (by folder name) instead of "
                         "each folder's case.toml (repeatable)")
    args = ap.parse_args()
    for path in args.manifest or []:
        MANIFEST.update(load_manifest(path))

    cases_dir = Path(args.cases).resolve()
    case_dirs = sorted(p for p in cases_dir.iterdir() if p.is_dir()) if cases_dir.is_dir() else []
    if args.only:
        wanted = set(args.only)
        case_dirs = [p for p in case_dirs if p.name in wanted]
        missing = wanted - {p.name for p in case_dirs}
        if missing:
            print(f"no such case: {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    if not case_dirs:
        print(f"no cases under {cases_dir}", file=sys.stderr)
        return 2

    import torch  # only for the version recorded in the JSON

    for mod, hint in OPTIONAL_MODULES.items():
        if importlib.util.find_spec(mod) is None and any(
                f"import {mod}" in (d / "bug.py").read_text(encoding="utf-8") or
                f"from {mod} " in (d / "bug.py").read_text(encoding="utf-8")
                for d in case_dirs if (d / "bug.py").is_file()):
            print(f"NOTE: {mod} is not installed; the cases that import it will fail ({hint})", file=sys.stderr)

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(check_case, d): d.name for d in case_dirs}
        for fut in concurrent.futures.as_completed(futures):
            entry, problems = fut.result()
            results[entry["name"]] = (entry, problems)
            status = "ok " if entry["confirmed"] else "FAIL"
            detail = f"line {entry['bug_line']}: {entry['error_type']}: {entry['message']}"
            print(f"{status} {entry['name']}: {detail}" if entry["confirmed"] else
                  f"{status} {entry['name']}: " + "; ".join(problems), flush=True)

    entries = [results[n][0] for n in sorted(results)]
    failed = [(n, results[n][1]) for n in sorted(results) if not results[n][0]["confirmed"]]
    if not args.only:
        doc = {"torch_version": torch.__version__.split("+")[0], "generator": "scripts/gen_bug_suite.py",
               "cases": entries}
        out = Path(args.output)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}")

    n_ok = len(entries) - len(failed)
    by_cat = {c: sum(1 for e in entries if e["category"] == c and e["confirmed"]) for c in CATEGORIES}
    by_where = {w: sum(1 for e in entries if e["where"] == w and e["confirmed"]) for w in WHERES}
    n_sym = sum(1 for e in entries if e["symbolic"] is True and e["confirmed"])
    print(f"{n_ok}/{len(entries)} cases confirmed ({n_sym} symbolic)")
    if not args.only:
        print("by category: " + ", ".join(f"{c} {n}" for c, n in by_cat.items()))
        print("by where:    " + ", ".join(f"{w} {n}" for w, n in by_where.items()))
    if failed:
        print("NOT CONFIRMED:", file=sys.stderr)
        for name, problems in failed:
            for p in problems:
                print(f"  {name}: {p}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
