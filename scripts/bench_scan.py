#!/usr/bin/env python3
"""Benchmark driver: shapehound (1 and 2 workers) against the plain-Python TEOSC baseline.

    python3 scripts/bench_scan.py --binary target/release/shapehound --corpus corpus/real --runs 3

Each configuration is run --runs times (after --warmup unmeasured runs); the table shows the
median wall time and, derived from it, files/s and MB/s, the median CPU time (user+sys of the
child and its descendants), files per CPU-second and the peak RSS (largest over the runs).
Files and bytes are those of every *.py / *.ipynb under the corpus, counted by this script (and
read once, which also warms the page cache). MB = 10^6 bytes.

CPU time and peak RSS come from GNU `/usr/bin/time -v` when it exists, else from the rusage of
the child as returned by os.wait4 (the `resource` module's struct). A configuration whose
executable is missing is skipped with a message; a configuration whose command fails is
reported and makes the exit status non-zero.

Configurations (placeholders: {binary} {corpus} {tmpdir} {python} {op_list} {repo}):
    w1      {binary} scan {corpus} -o {tmpdir} --quiet -w 1
    w2      {binary} scan {corpus} -o {tmpdir} --quiet -w 2
    python  {python} {repo}/scripts/teosc_baseline.py --op-list {op_list} {corpus}
Choose with --configs w1,python; add others with --config NAME='TEMPLATE' (repeatable).
{tmpdir} is a fresh, not yet existing folder inside a per-run temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OP_LIST = REPO_ROOT.parent / "shared" / "reference" / "teosc" / "pytorch_operations.txt"
GNU_TIME = "/usr/bin/time"
EXTENSIONS = (".py", ".ipynb")

BUILTIN_CONFIGS = {
    "w1": "{binary} scan {corpus} -o {tmpdir} --quiet -w 1",
    "w2": "{binary} scan {corpus} -o {tmpdir} --quiet -w 2",
    "python": "{python} {repo}/scripts/teosc_baseline.py --op-list {op_list} {corpus}",
}


def corpus_size(root: Path) -> tuple[int, int]:
    """(files, bytes) of the .py/.ipynb files under root; reads each file (warms the cache)."""
    files = total = 0
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            if name.endswith(EXTENSIONS):
                with open(os.path.join(dirpath, name), "rb") as f:
                    total += len(f.read())
                files += 1
    return files, total


def gnu_time_usable() -> bool:
    if not (os.path.isfile(GNU_TIME) and os.access(GNU_TIME, os.X_OK)):
        return False
    try:
        probe = subprocess.run([GNU_TIME, "-v", "true"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0 and "Maximum resident set size" in probe.stderr


def parse_gnu_time(text: str) -> tuple[float, float]:
    """(cpu seconds, max RSS bytes) from `/usr/bin/time -v` output."""
    def field(label: str) -> float:
        m = re.search(rf"^\s*{re.escape(label)}:\s*([0-9.]+)\s*$", text, re.MULTILINE)
        if not m:
            raise ValueError(f"'{label}' not found in /usr/bin/time output")
        return float(m.group(1))

    cpu = field("User time (seconds)") + field("System time (seconds)")
    rss = field("Maximum resident set size (kbytes)") * 1024
    return cpu, rss


def run_once(argv: list[str], use_gnu_time: bool, workdir: Path) -> dict:
    """Run argv once; returns wall, cpu, rss, returncode and the tail of stderr."""
    out_path = workdir / "stdout.txt"
    err_path = workdir / "stderr.txt"
    time_path = workdir / "time.txt"
    cmd = [GNU_TIME, "-v", "-o", str(time_path)] + argv if use_gnu_time else argv
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if use_gnu_time:
        cpu, rss = parse_gnu_time(time_path.read_text(errors="replace"))
    else:
        # ru_maxrss is in KiB on Linux (bytes on macOS).
        cpu = usage.ru_utime + usage.ru_stime
        rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    tail = err_path.read_text(errors="replace").strip().splitlines()[-15:]
    return {"wall": wall, "cpu": cpu, "rss": rss, "returncode": proc.returncode, "stderr_tail": tail}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("--binary", default="target/release/shapehound", help="shapehound executable (default: %(default)s)")
    ap.add_argument("--corpus", default="corpus/real", help="corpus root (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=3, help="measured runs per configuration (default: %(default)s)")
    ap.add_argument("--warmup", type=int, default=0, help="unmeasured runs before the measured ones (default: %(default)s)")
    ap.add_argument("--op-list", default=str(DEFAULT_OP_LIST), help="TEOSC op list for the baseline (default: %(default)s)")
    ap.add_argument("--python", default=sys.executable, help="interpreter for the baseline (default: %(default)s)")
    ap.add_argument("--configs", default="w1,w2,python", help="configurations to run, in order (default: %(default)s)")
    ap.add_argument("--config", action="append", default=[], metavar="NAME=TEMPLATE",
                    help="define or override a configuration (also add NAME to --configs, or it is appended)")
    ap.add_argument("--no-gnu-time", action="store_true", help="measure CPU/RSS with os.wait4 rusage even if /usr/bin/time exists")
    ap.add_argument("--json", metavar="OUT", help="also write the results as JSON")
    args = ap.parse_args(argv)

    if args.runs < 1:
        ap.error("--runs must be at least 1")
    configs = dict(BUILTIN_CONFIGS)
    order = [c.strip() for c in args.configs.split(",") if c.strip()]
    for spec in args.config:
        name, sep, template = spec.partition("=")
        if not sep or not name.strip() or not template.strip():
            ap.error(f"--config expects NAME=TEMPLATE, got {spec!r}")
        configs[name.strip()] = template.strip()
        if name.strip() not in order:
            order.append(name.strip())
    unknown = [c for c in order if c not in configs]
    if unknown:
        ap.error(f"unknown configuration(s): {', '.join(unknown)} (known: {', '.join(configs)})")

    corpus = Path(args.corpus)
    if not corpus.is_dir():
        print(f"error: corpus {corpus} is not a directory (fetch it: python3 scripts/fetch-corpus.py)", file=sys.stderr)
        return 2
    n_files, n_bytes = corpus_size(corpus)
    if n_files == 0:
        print(f"error: no .py/.ipynb files under {corpus}", file=sys.stderr)
        return 2
    mb = n_bytes / 1e6
    use_gnu_time = not args.no_gnu_time and gnu_time_usable()
    print(f"corpus: {corpus} — {n_files} files, {mb:.2f} MB (.py/.ipynb)")
    print(f"CPU/RSS measured with: {'/usr/bin/time -v' if use_gnu_time else 'os.wait4 rusage'}")
    print(f"runs per configuration: {args.runs} (+{args.warmup} warm-up); machine: {os.cpu_count()} CPUs")
    print()

    # A bare name is looked up on PATH; anything with a slash is a path (relative to the cwd).
    found = args.binary if "/" in args.binary else shutil.which(args.binary)
    binary = Path(found) if found else Path(args.binary)
    binary_ok = binary.is_file() and os.access(binary, os.X_OK)
    values = {
        "binary": shlex.quote(str(binary)),
        "corpus": shlex.quote(str(corpus)),
        "python": shlex.quote(args.python),
        "op_list": shlex.quote(args.op_list),
        "repo": shlex.quote(str(REPO_ROOT)),
    }

    results: dict[str, dict] = {}
    failed = False
    for name in order:
        template = configs[name]
        if "{binary}" in template and not binary_ok:
            print(f"[skip] {name}: binary {binary} not found or not executable (build it: cargo build --release)")
            results[name] = {"status": "skipped", "reason": f"missing binary {binary}"}
            continue
        if "{op_list}" in template and not os.path.isfile(args.op_list):
            print(f"[skip] {name}: op list {args.op_list} not found (pass --op-list)")
            results[name] = {"status": "skipped", "reason": f"missing op list {args.op_list}"}
            continue
        runs = []
        error = None
        for i in range(args.warmup + args.runs):
            measured = i >= args.warmup
            with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as tmp:
                tmp = Path(tmp)
                command = template.format(tmpdir=shlex.quote(str(tmp / "out")), **values)
                argv_ = shlex.split(command)
                if i == 0:
                    print(f"[run] {name}: {command}")
                r = run_once(argv_, use_gnu_time, tmp)
            label = f"run {i - args.warmup + 1}/{args.runs}" if measured else f"warm-up {i + 1}/{args.warmup}"
            if r["returncode"] != 0:
                error = f"exit status {r['returncode']}"
                print(f"  {label}: FAILED ({error}); last lines of stderr:")
                for line in r["stderr_tail"]:
                    print(f"    | {line}")
                break
            print(f"  {label}: {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU, {r['rss'] / 1e6:.0f} MB peak RSS")
            if measured:
                runs.append(r)
        if error:
            failed = True
            results[name] = {"status": "failed", "reason": error, "command": command}
            continue
        wall = statistics.median(r["wall"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        results[name] = {
            "status": "ok",
            "command": command,
            "runs": len(runs),
            "median_s": wall,
            "walls_s": [r["wall"] for r in runs],
            "files_per_s": n_files / wall,
            "mb_per_s": mb / wall,
            "cpu_s": cpu,
            "files_per_cpu_s": n_files / cpu if cpu > 0 else None,
            "peak_rss_mb": max(r["rss"] for r in runs) / 1e6,
        }

    print()
    print("| config | runs | median s | files/s | MB/s | CPU s | files/CPU-s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in order:
        r = results[name]
        if r["status"] != "ok":
            print(f"| {name} | {r['status']}: {r['reason']} | | | | | | |")
            continue
        fpc = f"{r['files_per_cpu_s']:.0f}" if r["files_per_cpu_s"] is not None else "n/a"
        print(f"| {name} | {r['runs']} | {r['median_s']:.2f} | {r['files_per_s']:.0f} | {r['mb_per_s']:.2f} |"
              f" {r['cpu_s']:.2f} | {fpc} | {r['peak_rss_mb']:.0f} |")
    print()

    def ratio(slow: str, fast: str) -> str:
        a, b = results.get(slow), results.get(fast)
        if not a or not b or a["status"] != "ok" or b["status"] != "ok":
            return "n/a"
        return f"{a['median_s'] / b['median_s']:.2f}x"

    ratios = {
        "w2/w1 speed-up": ratio("w1", "w2"),
        "w2 vs python speed-up": ratio("python", "w2"),
        "w1 vs python speed-up": ratio("python", "w1"),
    }
    for label, value in ratios.items():
        print(f"{label}: {value}")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"corpus": str(corpus), "files": n_files, "bytes": n_bytes,
                       "measured_with": "gnu-time" if use_gnu_time else "wait4",
                       "configs": results, "ratios": ratios}, f, indent=2)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
