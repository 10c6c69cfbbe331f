#!/usr/bin/env python3
"""Edits a fraction of a corpus's Python files in place, as a night of commits would: the
nightly benchmark (BENCHMARKS.md, "Nightly rescans") scans, runs this, and rescans.

The files are chosen by a seeded shuffle of the sorted `.py` paths, so the same arguments
edit the same files. Edits alternate between a comment line added at the top (every line
shifts) and a small function appended at the end (new code to analyse).

    python3 scripts/edit_corpus.py CORPUS [--fraction 0.01] [--seed 1]
"""
import argparse
import random
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--fraction", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    files = sorted(p for p in args.corpus.rglob("*.py") if p.is_file() and not p.is_symlink())
    if not files:
        print(f"no .py files under {args.corpus}", file=sys.stderr)
        return 2
    random.Random(args.seed).shuffle(files)
    chosen = files[: max(1, round(len(files) * args.fraction))]
    for i, path in enumerate(sorted(chosen)):
        text = path.read_bytes()
        if i % 2 == 0:
            edited = b"# edited by scripts/edit_corpus.py\n" + text
        else:
            sep = b"" if text.endswith(b"\n") or not text else b"\n"
            edited = text + sep + b"\n\ndef _edited_by_edit_corpus(x):\n    return x\n"
        path.write_bytes(edited)
    print(f"edited {len(chosen)} of {len(files)} files under {args.corpus}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
