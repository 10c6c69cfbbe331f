#!/usr/bin/env bash
# The test command: fetches libz3 when missing (scripts/ensure-z3.sh), then runs every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-z3.sh
cargo test --all-targets "$@"
