#!/usr/bin/env python3
"""TEOSC-style operator counter: the plain-Python benchmark baseline.

    python3 scripts/teosc_baseline.py --op-list FILE [--json OUT] ROOT...

This is the approach of the TEOSC thesis (a plain `ast` walk, one process) and is what
shapehound is compared against in scripts/bench_scan.py. It deliberately reproduces TEOSC's
counting rules, quirks included; do not "fix" them here (shapehound's precise mode does that):

* Op list: every stripped line of FILE that is non-empty and does not start with '#' is a key;
  a line starting with 'nn.' also adds the key line[3:]. Keys keep their case; list order kept.
* Files: every *.py and *.ipynb under the roots (os.walk). A .py file is read as UTF-8; a
  notebook is json-loaded and the 'source' of its code cells is concatenated with no separator.
  The text is ast.parse'd and every node from ast.walk is visited.
* Calls: for `X.attr(...)`: if X is the bare name `nn`, the key "nn." + attr is counted if
  present; then, independently, attr.lower() is counted if present. For `name(...)`:
  name.lower() is counted if present. Any other callee shape is ignored.
* Any exception for a file prints "[ERROR] Analysis failed for <path>: <msg>" on stderr and the
  file is left out of the counts.

Prints files scanned (found), files failed, total counted calls, elapsed wall seconds, files/s,
MB/s (MB = 10^6 bytes of the files found) and the top 20 keys. `--json OUT` writes
{files_scanned, failed, counts (non-zero only, list order), seconds, total_calls, bytes}.
"""

import argparse
import ast
import json
import os
import sys
import time

EXTENSIONS = (".py", ".ipynb")


def load_op_list(path):
    """Keys of the op list, in list order, each mapped to a zero count."""
    counts = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            counts.setdefault(line, 0)
            if line.startswith("nn."):
                counts.setdefault(line[3:], 0)
    return counts


def iter_files(roots):
    for root in roots:
        if os.path.isfile(root):
            if root.endswith(EXTENSIONS):
                yield root
            continue
        if not os.path.isdir(root):
            print(f"[ERROR] not a file or directory: {root}", file=sys.stderr)
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()  # deterministic order; the counts do not depend on it
            for name in sorted(filenames):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(dirpath, name)


def read_source(path):
    if path.endswith(".ipynb"):
        with open(path, encoding="utf-8") as f:
            notebook = json.load(f)
        code = []
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code":
                code.extend(cell["source"])  # a list of lines, or one string
        return "".join(code)
    with open(path, encoding="utf-8") as f:
        return f.read()


def count_calls(tree, counts):
    """Add the TEOSC counts of one module to `counts`; returns the number counted."""
    n = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and func.value.id == "nn":
                key = "nn." + func.attr
                if key in counts:
                    counts[key] += 1
                    n += 1
            key = func.attr.lower()
            if key in counts:
                counts[key] += 1
                n += 1
        elif isinstance(func, ast.Name):
            key = func.id.lower()
            if key in counts:
                counts[key] += 1
                n += 1
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description="TEOSC-style PyTorch operator counter (plain Python ast baseline)")
    ap.add_argument("--op-list", required=True, help="operator list, one name per line ('#' lines ignored)")
    ap.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    ap.add_argument("roots", nargs="+", metavar="ROOT", help="folders (or files) to scan")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    counts = load_op_list(args.op_list)
    files = 0
    failed = 0
    total_bytes = 0
    total_calls = 0
    for path in iter_files(args.roots):
        files += 1
        try:
            total_bytes += os.path.getsize(path)
            source = read_source(path)
            tree = ast.parse(source)
        except Exception as e:  # noqa: BLE001 - TEOSC logs and skips any failure
            failed += 1
            print(f"[ERROR] Analysis failed for {path}: {e}", file=sys.stderr)
            continue
        # Only reading and parsing can fail, so a failed file never adds to the counts.
        total_calls += count_calls(tree, counts)
    seconds = time.perf_counter() - started

    mb = total_bytes / 1e6
    print(f"files scanned: {files} ({files - failed} ok, {failed} failed)")
    print(f"files failed:  {failed}")
    print(f"counted calls: {total_calls}")
    print(f"elapsed:       {seconds:.2f} s")
    print(f"throughput:    {files / seconds if seconds else 0:.1f} files/s, {mb / seconds if seconds else 0:.2f} MB/s"
          f" ({mb:.2f} MB)")
    order = {key: i for i, key in enumerate(counts)}
    top = sorted((k for k, n in counts.items() if n), key=lambda k: (-counts[k], order[k]))[:20]
    print("top 20 operators:")
    width = max((len(k) for k in top), default=0)
    for rank, key in enumerate(top, 1):
        print(f"  {rank:2d}. {key:<{width}}  {counts[key]}")

    if args.json:
        result = {
            "files_scanned": files,
            "failed": failed,
            "counts": {k: n for k, n in counts.items() if n},
            "seconds": seconds,
            "total_calls": total_calls,
            "bytes": total_bytes,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
