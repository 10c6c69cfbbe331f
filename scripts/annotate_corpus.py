#!/usr/bin/env python3
"""Measure `shapehound annotate` over a corpus: how many units get a signature, the time it
takes, and the jaxtyping round trip on a sample of files.

    python3 scripts/annotate_corpus.py ROOT... [--binary target/release/shapehound]
        [--sample 40] [--seed 0] [--jobs 1]

- Signatures: `annotate --format json --no-follow-imports` over the corpus (with `--jobs N`,
  the roots shared out over N processes, largest first); the wall time and the processes' CPU
  time are printed (CPU time is what a shared machine disturbs least); a unit *gets
  a signature* when some rank variant is admitted (rejected-only units are findings;
  not-settled ones are counted apart).
- Round trip: for a sample of files whose patch is not empty, the file is copied with its
  folder's other files into a scratch folder, the patch applied with `git apply`, and
  `check --no-follow-imports --format json` run on the file before and after: the findings
  (kind and message) must be the same.
"""

import argparse
import concurrent.futures
import json
import resource
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(args, cwd=None):
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, check=False)


def verdicts(binary, path, cwd):
    out = run([binary, "check", "--no-follow-imports", "--format", "json", "--exit-zero", path], cwd)
    if out.returncode not in (0, 1):
        return None
    doc = json.loads(out.stdout)
    return sorted((f["kind"], f["message"]) for f in doc["findings"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "shapehound"))
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()

    # Roots shared out over the processes, largest first, each to the least loaded.
    size = {r: sum(p.stat().st_size for p in Path(r).rglob("*.py")) for r in args.roots}
    shares = [[] for _ in range(max(args.jobs, 1))]
    loads = [0] * len(shares)
    for r in sorted(args.roots, key=lambda r: -size[r]):
        k = loads.index(min(loads))
        shares[k].append(r)
        loads[k] += size[r]
    shares = [s for s in shares if s]
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(len(shares)) as pool:
        outs = list(pool.map(
            lambda roots: run([args.binary, "annotate", "--format", "json", "--no-follow-imports", *roots]),
            shares,
        ))
    seconds = time.monotonic() - started
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    doc = {"files": [], "problems": []}
    for out in outs:
        if out.returncode not in (0, 1):
            sys.exit(f"annotate exited {out.returncode}: {out.stderr[-2000:]}")
        part = json.loads(out.stdout)
        doc["files"] += part["files"]
        doc["problems"] += part["problems"]
    units = Counter()
    kinds = Counter()
    candidates = []
    for f in doc["files"]:
        admitted_here = 0
        for s in f["signatures"]:
            states = {v["admission"] for v in s["variants"]}
            state = (
                "admitted" if "admitted" in states
                else "rejected" if states == {"rejected"}
                else "not settled"
            )
            units[state] += 1
            kinds[(s["kind"], state)] += 1
            admitted_here += state == "admitted"
        if admitted_here and f["path"].endswith(".py"):
            candidates.append(f["path"])
    total = sum(units.values())
    print(
        f"files {len(doc['files'])}, problems {len(doc['problems'])}, {seconds:.1f} s wall, "
        f"{cpu.ru_utime + cpu.ru_stime:.1f} s CPU in {len(shares)} processes"
    )
    print(f"units {total}: " + ", ".join(f"{k} {n} ({100 * n / max(total, 1):.1f}%)" for k, n in sorted(units.items())))
    for (kind, state), n in sorted(kinds.items()):
        print(f"  {kind:9} {state:12} {n}")

    random.Random(args.seed).shuffle(candidates)
    agree = differ = failed = tried = 0
    for path in candidates:
        if tried == args.sample:
            break
        with tempfile.TemporaryDirectory() as scratch:
            src = Path(path)
            work = Path(scratch) / "repo"
            shutil.copytree(src.parent, work, ignore=shutil.ignore_patterns("*.ipynb", ".git"))
            patch = run([args.binary, "annotate", "--format", "jaxtyping", "--no-follow-imports", src.name], cwd=work)
            if not patch.stdout.strip():
                continue
            tried += 1
            before = verdicts(args.binary, src.name, work)
            (work / "p.diff").write_text(patch.stdout)
            applied = run(["git", "apply", "p.diff"], cwd=work)
            after = verdicts(args.binary, src.name, work) if applied.returncode == 0 else None
            if before is None or after is None:
                failed += 1
                print(f"  failed: {path}: {applied.stderr.strip()[:200]}")
            elif before == after:
                agree += 1
            else:
                differ += 1
                print(f"  differs: {path}\n    before {before}\n    after  {after}")
    print(f"round trip on {tried} sampled files: same findings {agree}, different {differ}, could not apply or check {failed}")


if __name__ == "__main__":
    main()
