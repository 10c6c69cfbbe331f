#!/usr/bin/env bash
# The main job on the embedded sample corpus: fetches libz3 when missing, builds, scans
# corpus/sample into reports/sample and prints the summary. Extra arguments go to `scan`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-z3.sh
python3 scripts/sample_fixtures.py
cargo run --release -- scan corpus/sample -o reports/sample --no-gitignore "$@"
