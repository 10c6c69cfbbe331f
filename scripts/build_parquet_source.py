#!/usr/bin/env python3
"""Build a Parquet source dataset from a folder of repositories, the way public code datasets
store code: one row per file, columns `repo`, `path` (inside the repository) and `content`
(the file's bytes, lossless).

    python3 scripts/build_parquet_source.py CORPUS_DIR OUT.parquet [--row-group-rows N]

Every top-level folder of CORPUS_DIR is a repository; every `.py` and `.ipynb` file under it
is a row (symlinks are not followed). Rows are sorted by repository and path. Needs the
`duckdb` Python package (as queries/run_queries.py does). Used to check that
`shapehound scan --parquet-source OUT.parquet` gives the tables of `shapehound scan CORPUS_DIR`
(BENCHMARKS.md, "Corpus scale").
"""
import argparse
import os
import sys
from pathlib import Path

import duckdb


def rows(corpus: Path):
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir() and not p.is_symlink()):
        for dirpath, dirnames, filenames in os.walk(repo):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith((".py", ".ipynb")):
                    continue
                full = Path(dirpath, name)
                if full.is_symlink() or not full.is_file():
                    continue
                yield repo.name, full.relative_to(repo).as_posix(), full.read_bytes()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--row-group-rows", type=int, default=2048)
    args = ap.parse_args()
    con = duckdb.connect()
    con.execute("CREATE TABLE files (repo VARCHAR, path VARCHAR, content BLOB)")
    batch = []
    n = 0
    for row in rows(args.corpus):
        batch.append(row)
        if len(batch) >= 1000:
            con.executemany("INSERT INTO files VALUES (?, ?, ?)", batch)
            n += len(batch)
            batch = []
    if batch:
        con.executemany("INSERT INTO files VALUES (?, ?, ?)", batch)
        n += len(batch)
    out = str(args.out).replace("'", "''")
    con.execute(
        f"COPY (SELECT * FROM files ORDER BY repo, path) TO '{out}' "
        f"(FORMAT PARQUET, ROW_GROUP_SIZE {args.row_group_rows}, COMPRESSION SNAPPY)"
    )
    print(f"{n} files from {args.corpus} into {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
