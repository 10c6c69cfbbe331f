#!/usr/bin/env python3
"""Run every queries/*.sql against one shapehound report directory and print the results.

    python3 queries/run_queries.py REPORT_DIR [--teosc-report DIR] [--check] [--expect FILE]
                                   [--max-rows N]

Each .sql file may contain the literal placeholder {report}; it is replaced with REPORT_DIR
(single quotes escaped for use inside a SQL string literal). A query that also reads
{teosc_report} (a TEOSC-mode report of the same corpus) runs only with --teosc-report.
Queries run in file-name order with the `duckdb` Python package.

--check       validate structural properties of the known queries (teosc_top40,
              top40_canonical, operators_per_repo, construct_apply, shares_by_role,
              shares_by_family, parse_failures, findings, jobs_by_result, precise_vs_teosc)
              against the raw report tables, each recomputed another way.
--expect FILE also check facts from a JSON file (see queries/README.md for the keys).

Exit status: 0 = success, 1 = a check or expectation failed, 2 = usage error, missing
report, or SQL error.

Dependencies: duckdb (pip install duckdb) and the standard library.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from decimal import Decimal
from pathlib import Path

try:
    import duckdb
except ImportError:  # pragma: no cover - environment problem
    sys.stderr.write("run_queries.py: the 'duckdb' Python package is required (pip install duckdb)\n")
    sys.exit(2)

QUERIES_DIR = Path(__file__).resolve().parent
PLACEHOLDER = "{report}"
TEOSC_PLACEHOLDER = "{teosc_report}"
TABLES = ("files", "op_calls", "op_counts", "run", "findings", "jobs")

EXPECT_KEYS = {
    "top40_contains": list,      # operators that must be in the top-40 table
    "top40_excludes": list,      # operators that must not be in the top-40 table
    "operators_present": list,   # operators with a count > 0 somewhere in op_counts
    "operators_absent": list,    # operators absent from op_counts (or only zero counts)
    "failures_min": int,         # lower bound on parse_failures rows
    "failures_max": int,         # upper bound on parse_failures rows
    "failures": dict,            # {path: {"status": str, "error_line": int}} (both keys optional)
    "repos_min": int,            # lower bound on operators_per_repo rows
    "repos": list,               # exact set of repos in operators_per_repo
    "findings": list,            # exact set of findings as "path:line:kind"
}


class Result:
    def __init__(self, columns: list[str], rows: list[tuple]):
        self.columns = columns
        self.rows = rows

    def col(self, name: str) -> list:
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def dicts(self) -> list[dict]:
        return [dict(zip(self.columns, r)) for r in self.rows]


def sql_literal_path(report: str) -> str:
    return report.replace("'", "''")


def render(sql_text: str, report: str, teosc_report: str | None = None) -> str:
    if teosc_report is not None:
        sql_text = sql_text.replace(TEOSC_PLACEHOLDER, sql_literal_path(teosc_report))
    return sql_text.replace(PLACEHOLDER, sql_literal_path(report))


def run(con, sql: str) -> Result:
    cur = con.execute(sql)
    columns = [d[0] for d in cur.description] if cur.description else []
    return Result(columns, cur.fetchall())


def fmt_cell(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, float):
        return f"{v:.4f}".rstrip("0").rstrip(".") if math.isfinite(v) else str(v)
    return str(v).replace("\n", "\\n")


def print_table(title: str, res: Result, max_rows: int, out=sys.stdout) -> None:
    out.write(f"== {title} ({len(res.rows)} row{'s' if len(res.rows) != 1 else ''})\n")
    shown = res.rows if max_rows <= 0 else res.rows[:max_rows]
    cells = [[fmt_cell(v) for v in row] for row in shown]
    widths = [len(c) for c in res.columns]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], min(len(c), 80))
    numeric = [
        all(isinstance(r[i], (int, float, Decimal)) or r[i] is None for r in shown) and bool(shown)
        for i in range(len(res.columns))
    ]

    def line(values):
        parts = []
        for i, v in enumerate(values):
            v = v if len(v) <= 80 else v[:77] + "..."
            parts.append(v.rjust(widths[i]) if numeric[i] else v.ljust(widths[i]))
        return " | ".join(parts).rstrip()

    out.write(line(res.columns) + "\n")
    out.write("-+-".join("-" * w for w in widths) + "\n")
    for row in cells:
        out.write(line(row) + "\n")
    if len(shown) < len(res.rows):
        out.write(f"... {len(res.rows) - len(shown)} more rows\n")
    out.write("\n")


class Checker:
    def __init__(self):
        self.failures: list[str] = []
        self.passed = 0

    def check(self, ok: bool, what: str) -> bool:
        if ok:
            self.passed += 1
        else:
            self.failures.append(what)
        return ok


def as_float(v) -> float:
    return float(v) if v is not None else float("nan")


def check_top40(c: Checker, res: Result, con, report: str) -> None:
    name = "teosc_top40"
    counts = [int(v) for v in res.col("count")]
    ops = res.col("operator")
    n_ops = run(con, render(
        "SELECT COUNT(*) FROM (SELECT operator FROM read_parquet('{report}/op_counts/*.parquet') "
        "GROUP BY operator)", report)).rows[0][0]
    c.check(len(res.rows) <= 40, f"{name}: {len(res.rows)} rows > 40")
    c.check(len(res.rows) == min(40, n_ops),
            f"{name}: {len(res.rows)} rows, expected min(40, {n_ops} distinct operators)")
    c.check(res.col("rank") == list(range(1, len(res.rows) + 1)), f"{name}: ranks are not 1..{len(res.rows)}")
    c.check(len(set(ops)) == len(ops), f"{name}: duplicate operators")
    bad_order = [i for i in range(1, len(counts)) if counts[i] > counts[i - 1]]
    c.check(not bad_order, f"{name}: counts increase at rank(s) {[i + 1 for i in bad_order]}")
    bad_ties = [i for i in range(1, len(counts)) if counts[i] == counts[i - 1] and ops[i] < ops[i - 1]]
    c.check(not bad_ties, f"{name}: tie not broken by operator ascending at rank(s) {[i + 1 for i in bad_ties]}")
    for col in ("share_all_pct", "share_top40_pct"):
        vals = [as_float(v) for v in res.col(col)]
        bad = [(ops[i], vals[i]) for i, v in enumerate(vals) if not (0.0 < v <= 100.0)]
        c.check(not bad, f"{name}: {col} outside (0, 100]: {bad[:5]}")
    if res.rows:
        total = sum(as_float(v) for v in res.col("share_top40_pct"))
        c.check(abs(total - 100.0) <= 0.1, f"{name}: share_top40_pct sums to {total:.4f}, expected 100 ± 0.1")
        all_share = sum(as_float(v) for v in res.col("share_all_pct"))
        c.check(all_share <= 100.0 + 0.1, f"{name}: share_all_pct sums to {all_share:.4f} > 100")
    # Recompute the top counts independently of the query under test.
    ref = run(con, render(
        "SELECT operator, SUM(count) AS n FROM read_parquet('{report}/op_counts/*.parquet') "
        "GROUP BY operator ORDER BY n DESC, operator ASC LIMIT 40", report)).rows
    c.check([(o, int(n)) for o, n in ref] == list(zip(ops, counts)),
            f"{name}: (operator, count) rows differ from an independent recomputation over op_counts")


def check_operators_per_repo(c: Checker, res: Result, con, report: str) -> None:
    name = "operators_per_repo"
    ref = run(con, render(
        "SELECT repo, COUNT(DISTINCT operator) AS d, SUM(count) AS n, MAX(count) AS m FROM ("
        "  SELECT repo, operator, SUM(count) AS count FROM read_parquet('{report}/op_counts/*.parquet')"
        "  GROUP BY repo, operator) GROUP BY repo", report)).rows
    ref_by_repo = {r: (int(d), int(n), int(m)) for r, d, n, m in ref}
    repos = res.col("repo")
    c.check(len(repos) == len(set(repos)), f"{name}: a repo appears more than once")
    c.check(set(repos) == set(ref_by_repo),
            f"{name}: repos differ from op_counts (missing {sorted(set(ref_by_repo) - set(repos))}, "
            f"extra {sorted(set(repos) - set(ref_by_repo))})")
    for row in res.dicts():
        exp = ref_by_repo.get(row["repo"])
        if exp is None:
            continue
        c.check(int(row["total_calls"]) == exp[1],
                f"{name}: {row['repo']}: total_calls {row['total_calls']} != op_counts sum {exp[1]}")
        c.check(int(row["distinct_operators"]) == exp[0],
                f"{name}: {row['repo']}: distinct_operators {row['distinct_operators']} != {exp[0]}")
        c.check(row["top_count"] is not None and int(row["top_count"]) == exp[2],
                f"{name}: {row['repo']}: top_count {row['top_count']} != max per-operator count {exp[2]}")
    keys = [(-int(r["total_calls"]), r["repo"]) for r in res.dicts()]
    c.check(keys == sorted(keys), f"{name}: not ordered by total_calls desc, repo asc")


def check_parse_failures(c: Checker, res: Result, con, report: str) -> None:
    name = "parse_failures"
    ref = run(con, render(
        "SELECT repo, path, status FROM read_parquet('{report}/files/*.parquet') "
        "WHERE status IS DISTINCT FROM 'ok'", report)).rows
    c.check(len(res.rows) == len(ref), f"{name}: {len(res.rows)} rows but files has {len(ref)} non-ok rows")
    got = sorted((r["repo"], r["path"], r["status"]) for r in res.dicts())
    c.check(got == sorted(ref), f"{name}: (repo, path, status) rows differ from the non-ok rows of files")
    c.check(all(s != "ok" for s in res.col("status")), f"{name}: contains status 'ok'")
    keys = [(r["repo"], r["path"]) for r in res.dicts()]
    c.check(keys == sorted(keys), f"{name}: not ordered by repo, path")


def run_totals(con, report: str) -> dict:
    res = run(con, render("SELECT * FROM read_parquet('{report}/run/*.parquet')", report))
    return res.dicts()[0] if res.rows else {}


def check_findings(c: Checker, res: Result, con, report: str) -> None:
    name = "findings"
    ref = run(con, render(
        "SELECT repo, path, line, kind FROM read_parquet('{report}/findings/*.parquet')", report)).rows
    got = sorted((r["repo"], r["path"], r["line"], r["kind"]) for r in res.dicts())
    c.check(got == sorted(ref), f"{name}: (repo, path, line, kind) rows differ from the findings table")
    totals = run_totals(con, report)
    counted = run(con, render(
        "SELECT count(*) FROM read_parquet('{report}/findings/*.parquet') "
        "WHERE severity = 'error' AND NOT suppressed", report)).rows[0][0]
    c.check(totals.get("findings") == counted,
            f"{name}: {counted} errors but run.findings is {totals.get('findings')}")
    c.check(all(n is not None and n >= 0 for n in res.col("related_spans")), f"{name}: bad related_spans")
    keys = [(r["kind"], r["repo"], r["path"], r["line"], r["column"]) for r in res.dicts()]
    c.check(keys == sorted(keys), f"{name}: not ordered by kind, repo, path, line, column")


def check_jobs_by_result(c: Checker, res: Result, con, report: str) -> None:
    name = "jobs_by_result"
    totals = run_totals(con, report)
    by_result = {r["result"]: r for r in res.dicts()}
    c.check(set(by_result) <= {"sat", "unsat", "unknown", "skipped"}, f"{name}: unknown results {sorted(by_result)}")
    c.check(sum(int(n) for n in res.col("jobs")) == totals.get("jobs"),
            f"{name}: jobs sum to {sum(int(n) for n in res.col('jobs'))} but run.jobs is {totals.get('jobs')}")
    for result in ("sat", "unsat", "unknown", "skipped"):
        n = int(by_result[result]["jobs"]) if result in by_result else 0
        c.check(totals.get(f"jobs_{result}") == n, f"{name}: {result}: {n} jobs but run.jobs_{result} is "
                                                      f"{totals.get(f'jobs_{result}')}")
    c.check(sum(int(n) for n in res.col("z3_jobs")) == totals.get("jobs_z3"), f"{name}: z3_jobs != run.jobs_z3")
    ref = run(con, render("SELECT sum(jobs) FROM read_parquet('{report}/files/*.parquet') "
                          "WHERE duplicate_of IS NULL", report)).rows
    c.check(int(ref[0][0] or 0) == totals.get("jobs"),
            f"{name}: files.jobs of analysed files sum to {ref[0][0]} but run.jobs is {totals.get('jobs')}")


def check_top40_canonical(c: Checker, res: Result, con, report: str) -> None:
    name = "top40_canonical"
    ref = run(con, render(
        "SELECT canonical, COUNT(*) AS n, COUNT(DISTINCT operator) FROM "
        "read_parquet('{report}/op_calls/*.parquet') "
        "GROUP BY canonical ORDER BY n DESC, canonical ASC LIMIT 40", report)).rows
    got = [(r["canonical"], int(r["count"]), int(r["names"])) for r in res.dicts()]
    c.check(got == [(o, int(n), int(k)) for o, n, k in ref],
            f"{name}: rows differ from a recomputation over op_calls")
    c.check(res.col("rank") == list(range(1, len(res.rows) + 1)), f"{name}: ranks are not 1..n")


def check_construct_apply(c: Checker, res: Result, con, report: str) -> None:
    name = "construct_apply"
    ref = run(con, render(
        "SELECT operator, call_kind, COUNT(*) FROM read_parquet('{report}/op_calls/*.parquet') "
        "WHERE call_kind IN ('construct', 'apply') AND operator LIKE 'torch.nn.%' "
        "GROUP BY ALL", report)).rows
    want: dict[str, list[int]] = {}
    for op, kind, n in ref:
        want.setdefault(op, [0, 0])[0 if kind == "construct" else 1] += int(n)
    got = {r["operator"]: [int(r["constructed"] or 0), int(r["applied"])] for r in res.dicts()}
    c.check(got == want, f"{name}: counts differ from a recomputation over op_calls")
    c.check(all(int(r["total"]) == sum(got[r["operator"]]) for r in res.dicts()),
            f"{name}: total is not constructed + applied")


def check_shares(c: Checker, res: Result, con, report: str, name: str, column: str) -> None:
    total = run(con, render(f"SELECT COUNT(*) FROM read_parquet('{{report}}/op_calls/*.parquet')",
                            report)).rows[0][0]
    ref = dict(run(con, render(f"SELECT {column}, COUNT(*) FROM read_parquet('{{report}}/op_calls/*.parquet') "
                               f"GROUP BY ALL", report)).rows)
    got = {r[column]: int(r["calls"]) for r in res.dicts() if int(r["calls"]) > 0}
    c.check(got == {k: int(v) for k, v in ref.items()},
            f"{name}: calls per {column} differ from a recomputation over op_calls")
    c.check(sum(got.values()) == total, f"{name}: calls sum to {sum(got.values())}, op_calls has {total}")
    if total:
        share = sum(as_float(v) for v in res.col("share_pct"))
        c.check(abs(share - 100.0) <= 0.1, f"{name}: share_pct sums to {share:.2f}")


def check_shares_by_role(c: Checker, res: Result, con, report: str) -> None:
    check_shares(c, res, con, report, "shares_by_role", "role")
    ok = run(con, render("SELECT COUNT(*) FROM read_parquet('{report}/files/*.parquet') WHERE status = 'ok'",
                         report)).rows[0][0]
    c.check(sum(int(n) for n in res.col("files")) == ok, "shares_by_role: files do not sum to the ok files")


def check_shares_by_family(c: Checker, res: Result, con, report: str) -> None:
    check_shares(c, res, con, report, "shares_by_family", "family")
    for r in res.dicts():
        parts = sum(int(r[k]) for k in ("call", "construct", "apply", "method", "operator"))
        c.check(parts == int(r["calls"]), f"shares_by_family: {r['family']}: call kinds do not add up")


def teosc_key(operator: str, call_kind: str) -> str:
    last = operator.rsplit(".", 1)[-1]
    if operator.startswith("torch.nn.") and call_kind in ("construct", "apply"):
        return "nn." + last
    return last


def check_precise_vs_teosc(c: Checker, res: Result, con, report: str, teosc_report: str) -> None:
    name = "precise_vs_teosc"
    teosc = {k: int(n) for k, n in run(con, render(
        "SELECT operator, COUNT(*) FROM read_parquet('{report}/op_calls/*.parquet') GROUP BY ALL",
        teosc_report)).rows}
    precise: dict[str, int] = {}
    for op, kind, n in run(con, render(
            "SELECT operator, call_kind, COUNT(*) FROM read_parquet('{report}/op_calls/*.parquet') GROUP BY ALL",
            report)).rows:
        key = teosc_key(op, kind)
        precise[key] = precise.get(key, 0) + int(n)
    got = {r["key"]: (int(r["teosc"]), int(r["precise"])) for r in res.dicts()}
    want = {k: (n, precise.get(k, 0)) for k, n in teosc.items()}
    c.check(got == want, f"{name}: counts differ from a recomputation over both op_calls tables")
    c.check(all(int(r["difference"]) == int(r["precise"]) - int(r["teosc"]) for r in res.dicts()),
            f"{name}: difference is not precise - teosc")
    c.check(all((r["why"] == "same") == (int(r["difference"]) == 0) for r in res.dicts()),
            f"{name}: `same` does not match a zero difference")


CHECKS = {
    "teosc_top40": check_top40,
    "top40_canonical": check_top40_canonical,
    "construct_apply": check_construct_apply,
    "shares_by_role": check_shares_by_role,
    "shares_by_family": check_shares_by_family,
    "operators_per_repo": check_operators_per_repo,
    "parse_failures": check_parse_failures,
    "findings": check_findings,
    "jobs_by_result": check_jobs_by_result,
}


def load_expect(path: Path) -> dict:
    with open(path, encoding="utf-8") as fh:
        exp = json.load(fh)
    if not isinstance(exp, dict):
        raise ValueError("expectation file must contain a JSON object")
    for key, value in exp.items():
        if key.startswith("_"):  # comments, e.g. "_comment"
            continue
        if key not in EXPECT_KEYS:
            raise ValueError(f"unknown expectation key {key!r} (known: {', '.join(sorted(EXPECT_KEYS))})")
        if not isinstance(value, EXPECT_KEYS[key]) or isinstance(value, bool):
            raise ValueError(f"expectation {key!r} must be a {EXPECT_KEYS[key].__name__}")
    return exp


def check_expect(c: Checker, exp: dict, results: dict[str, Result], con, report: str) -> None:
    def need(query: str) -> Result | None:
        r = results.get(query)
        c.check(r is not None, f"expect: query {query}.sql was not run")
        return r

    if "top40_contains" in exp or "top40_excludes" in exp:
        top = need("teosc_top40")
        if top is not None:
            ops = set(top.col("operator"))
            for op in exp.get("top40_contains", []):
                c.check(op in ops, f"expect: {op} is not in the top 40")
            for op in exp.get("top40_excludes", []):
                c.check(op not in ops, f"expect: {op} is in the top 40 but should not be")
    if "operators_present" in exp or "operators_absent" in exp:
        rows = run(con, render(
            "SELECT operator, SUM(count) FROM read_parquet('{report}/op_counts/*.parquet') GROUP BY operator",
            report)).rows
        totals = {o: int(n) for o, n in rows}
        for op in exp.get("operators_present", []):
            c.check(totals.get(op, 0) > 0, f"expect: {op} has no calls in op_counts")
        for op in exp.get("operators_absent", []):
            c.check(totals.get(op, 0) == 0, f"expect: {op} has {totals.get(op, 0)} calls but should be absent")
    if any(k in exp for k in ("failures_min", "failures_max", "failures")):
        pf = need("parse_failures")
        if pf is not None:
            n = len(pf.rows)
            if "failures_min" in exp:
                c.check(n >= exp["failures_min"], f"expect: {n} failures < failures_min {exp['failures_min']}")
            if "failures_max" in exp:
                c.check(n <= exp["failures_max"], f"expect: {n} failures > failures_max {exp['failures_max']}")
            by_path = {r["path"]: r for r in pf.dicts()}
            for path, want in exp.get("failures", {}).items():
                got = by_path.get(path)
                if not c.check(got is not None, f"expect: {path} is not among the failures"):
                    continue
                if "status" in want:
                    c.check(got["status"] == want["status"],
                            f"expect: {path}: status {got['status']!r}, expected {want['status']!r}")
                if "error_line" in want:
                    c.check(got["error_line"] == want["error_line"],
                            f"expect: {path}: error_line {got['error_line']}, expected {want['error_line']}")
    if "repos_min" in exp or "repos" in exp:
        opr = need("operators_per_repo")
        if opr is not None:
            repos = opr.col("repo")
            if "repos_min" in exp:
                c.check(len(repos) >= exp["repos_min"], f"expect: {len(repos)} repos < repos_min {exp['repos_min']}")
            if "repos" in exp:
                c.check(sorted(repos) == sorted(exp["repos"]),
                        f"expect: repos {sorted(repos)} != expected {sorted(exp['repos'])}")
    if "findings" in exp:
        fr = need("findings")
        if fr is not None:
            got = sorted(f"{r['path']}:{r['line']}:{r['kind']}" for r in fr.dicts())
            c.check(got == sorted(exp["findings"]), f"expect: findings {got} != expected {sorted(exp['findings'])}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", help="report directory containing files/, op_calls/, op_counts/, run/")
    ap.add_argument("--teosc-report", metavar="DIR",
                    help="a TEOSC-mode report of the same corpus, for queries reading {teosc_report}")
    ap.add_argument("--check", action="store_true", help="validate structural properties of the results")
    ap.add_argument("--expect", type=Path, metavar="FILE", help="JSON file of expected facts to check")
    ap.add_argument("--queries", type=Path, default=QUERIES_DIR, metavar="DIR",
                    help="directory holding the *.sql files (default: this script's directory)")
    ap.add_argument("--max-rows", type=int, default=50, metavar="N",
                    help="print at most N rows per query (0 = all; default 50)")
    args = ap.parse_args(argv)

    report = args.report.rstrip("/") or "/"
    teosc_report = args.teosc_report.rstrip("/") or "/" if args.teosc_report else None
    for folder in [report] + ([teosc_report] if teosc_report else []):
        missing = [t for t in TABLES[:3] if not any(Path(folder, t).glob("*.parquet"))]
        if missing:
            sys.stderr.write(f"run_queries.py: {folder}: no *.parquet under {', '.join(t + '/' for t in missing)}\n")
            return 2
    sql_files = sorted(args.queries.glob("*.sql"))
    if not sql_files:
        sys.stderr.write(f"run_queries.py: no *.sql files in {args.queries}\n")
        return 2
    try:
        expect = load_expect(args.expect) if args.expect else None
    except (OSError, ValueError) as e:
        sys.stderr.write(f"run_queries.py: --expect {args.expect}: {e}\n")
        return 2

    con = duckdb.connect(database=":memory:")
    results: dict[str, Result] = {}
    for f in sql_files:
        text = f.read_text(encoding="utf-8")
        if TEOSC_PLACEHOLDER in text and teosc_report is None:
            print(f"== {f.name}: skipped (reads a TEOSC-mode report: give --teosc-report DIR)\n")
            continue
        try:
            res = run(con, render(text, report, teosc_report))
        except duckdb.Error as e:
            sys.stderr.write(f"run_queries.py: {f.name}: {e}\n")
            return 2
        results[f.stem] = res
        print_table(f.name, res, args.max_rows)

    if not (args.check or expect):
        return 0
    c = Checker()
    try:
        if args.check:
            for stem, fn in CHECKS.items():
                if c.check(stem in results, f"check: {stem}.sql not found in {args.queries}"):
                    fn(c, results[stem], con, report)
            if teosc_report is not None and c.check("precise_vs_teosc" in results,
                                                    "check: precise_vs_teosc.sql was not run"):
                check_precise_vs_teosc(c, results["precise_vs_teosc"], con, report, teosc_report)
        if expect:
            check_expect(c, expect, results, con, report)
    except duckdb.Error as e:
        sys.stderr.write(f"run_queries.py: check query failed: {e}\n")
        return 2
    for msg in c.failures:
        print(f"FAIL {msg}")
    print(f"checks: {c.passed} passed, {len(c.failures)} failed")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
