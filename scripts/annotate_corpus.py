#!/usr/bin/env python3
"""Measure `shapehound annotate` over a corpus: how many units get a signature, the time it
takes, and the jaxtyping round trip on a sample of files.

    python3 scripts/annotate_corpus.py ROOT... [--binary target/release/shapehound]
        [--sample 40] [--seed 0]

- Signatures: one `annotate --format json --no-follow-imports` over the corpus; a unit *gets
  a signature* when some rank variant is admitted (rejected-only units are findings;
  not-settled ones are counted apart).
- Round trip: for a sample of files whose patch is not empty, the file is copied with its
  folder's other files into a scratch folder, the patch applied with `git apply`, and
  `check --no-follow-imports --format json` run on the file before and after: the findings
  (kind and message) must be the same.
"""

import argparse
import json
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
    args = ap.parse_args()

    started = time.monotonic()
    out = run([args.binary, "annotate", "--format", "json", "--no-follow-imports", *args.roots])
    seconds = time.monotonic() - started
    if out.returncode not in (0, 1):
        sys.exit(f"annotate exited {out.returncode}: {out.stderr[-2000:]}")
    doc = json.loads(out.stdout)
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
    print(f"files {len(doc['files'])}, problems {len(doc['problems'])}, {seconds:.1f} s")
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
