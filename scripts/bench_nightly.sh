#!/usr/bin/env bash
# The nightly benchmark (BENCHMARKS.md, "Nightly rescans"): a full scan of a corpus fills the
# result cache; scripts/edit_corpus.py edits 1% of its files; then, alternating, a full scan
# of the edited corpus without the cache and a rescan from the cache as the full scan left it.
# Prints each run's wall time and peak memory, the medians and their ratio, and whether the
# rescan's tables equal the full scan's (timings and worker columns aside; needs a python
# with duckdb, given as PYTHON).
#
#   bash scripts/bench_nightly.sh [CORPUS=corpus/real] [RUNS=3] [extra scan flags...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
corpus=${1:-corpus/real}
runs=${2:-3}
shift $(( $# > 2 ? 2 : $# ))
bin=target/release/shapehound
work=${WORK:-/tmp/shapehound-nightly}
python=${PYTHON:-python3}

cargo build --release --quiet
rm -rf "$work" && mkdir -p "$work"
cp -a "$corpus" "$work/corpus"
flags=(-w 2 -q --no-site-packages "$@")

timed() { # label, then the scan's arguments
  local label=$1; shift
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/mem" "$bin" scan "$@" || rc=$?
  t1=$(date +%s.%N)
  [[ $rc -le 1 ]] || { echo "$label: scan failed ($rc)" >&2; exit 1; }
  printf '%s %.3f %s\n' "$label" "$(echo "$t1 - $t0" | bc)" "$(tail -1 "$work/mem")" | tee -a "$work/times"
}

timed first "$work/corpus" -o "$work/nightly" "${flags[@]}"
cp -a "$work/nightly/.cache" "$work/cache0"
# Let the edits fall outside the cache's racy window for the files it recorded.
sleep 3
python3 scripts/edit_corpus.py "$work/corpus"
for i in $(seq "$runs"); do
  rm -rf "$work/full"
  timed full "$work/corpus" -o "$work/full" --no-cache "${flags[@]}"
  rm -rf "$work/nightly/.cache" && cp -a "$work/cache0" "$work/nightly/.cache"
  timed rescan "$work/corpus" -o "$work/nightly" "${flags[@]}"
done

median() { grep "^$1 " "$work/times" | awk '{print $2}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mem() { grep "^$1 " "$work/times" | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
full=$(median full); rescan=$(median rescan)
echo "median full scan ${full} s ($(mem full) KB), rescan ${rescan} s ($(mem rescan) KB): $(echo "scale=4; 100 * $rescan / $full" | bc)%"

set +e
"$python" - "$work/full" "$work/nightly" <<'EOF'
import sys
try:
    import duckdb
except ImportError:
    sys.exit(2)
full, rescan = sys.argv[1], sys.argv[2]
skip = {"analysis_ms", "solve_us", "worker"}
same = True
for table in ["files", "op_calls", "op_counts", "findings", "jobs"]:
    cols = [c[0] for c in duckdb.sql(f"describe select * from '{full}/{table}/*.parquet'").fetchall()]
    keep = ", ".join(f'"{c}"' for c in cols if c not in skip)
    q = lambda d: f"select {keep} from '{d}/{table}/*.parquet'"
    a = duckdb.sql(f"select count(*) from ({q(full)} except all {q(rescan)})").fetchall()[0][0]
    b = duckdb.sql(f"select count(*) from ({q(rescan)} except all {q(full)})").fetchall()[0][0]
    n = duckdb.sql(f"select count(*) from ({q(full)})").fetchall()[0][0]
    print(f"{table}: {n} rows, {a} only in the full scan, {b} only in the rescan")
    same &= a == 0 and b == 0
print("tables equal" if same else "TABLES DIFFER")
sys.exit(0 if same else 1)
EOF
case $? in
  0|1) ;;
  *) echo "tables not compared (no duckdb in $python)" ;;
esac
