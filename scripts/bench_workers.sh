#!/usr/bin/env bash
# Full scans with -w 1 and -w 2, alternating, RUNS pairs: median wall time of each, their
# ratio and the median of each pair's ratio, files/s and peak RSS. The machine is shared and
# noisy: compare ratios.
#
#     bash scripts/bench_workers.sh CORPUS [RUNS] [extra scan flags...]
#
# Every scan runs with --no-cache --no-site-packages --exit-zero -q into a fresh folder.
set -euo pipefail
corpus=${1:?corpus folder}
runs=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
bin=${BINARY:-target/release/shapehound}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$(find "$corpus" \( -name '*.py' -o -name '*.ipynb' \) -type f | wc -l)
for i in $(seq "$runs"); do
  for w in 1 2; do
    rm -rf "$work/out"
    /usr/bin/time -f "w$w %e %M" -o "$work/t" "$bin" scan "$corpus" -o "$work/out" -q \
      --no-cache --no-site-packages --exit-zero -w "$w" "$@"
    cat "$work/t" | tee -a "$work/all"
  done
done
python3 - "$work/all" "$files" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
files = int(sys.argv[2])
med = {}
for w in ("w1", "w2"):
    t = [float(r[1]) for r in rows if r[0] == w]
    m = [int(r[2]) for r in rows if r[0] == w]
    med[w] = statistics.median(t)
    print(f"{w}: median {med[w]:.2f} s (runs {', '.join(f'{x:.2f}' for x in t)}), "
          f"{files / med[w]:.0f} files/s, peak RSS {max(m) // 1024} MB")
# The machine's speed drifts over minutes: each pair's own ratio is compared too.
w1 = [float(r[1]) for r in rows if r[0] == "w1"]
w2 = [float(r[1]) for r in rows if r[0] == "w2"]
pairs = [a / b for a, b in zip(w1, w2)]
print(f"-w 2 speed-up: {med['w1'] / med['w2']:.2f}x of the medians, "
      f"{statistics.median(pairs):.2f}x median of the pairs "
      f"({', '.join(f'{p:.2f}' for p in pairs)}) ({files} files)")
PY
