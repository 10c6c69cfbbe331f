#!/usr/bin/env bash
# Fetch libz3 5.3.3 (the version z3-sys 0.14.1 binds) from the z3-solver wheel on PyPI and unpack
# its lib/ and include/ into .deps/z3. Debian's Z3 is too old and building Z3 from source is not
# viable on small machines (see ARCHITECTURE.md, "Z3"). Idempotent: does nothing when present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.deps/z3"
version="5.3.3.0"
if [ -f "$dest/lib/libz3.so" ] && [ -f "$dest/include/z3.h" ] && [ "$(cat "$dest/VERSION" 2>/dev/null)" = "$version" ]; then
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "ensure-z3: downloading z3-solver==$version wheel from PyPI" >&2
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --platform manylinux_2_27_x86_64 --python-version 3.11 \
  -d "$tmp" "z3-solver==$version" >&2
wheel="$(ls "$tmp"/z3_solver-*.whl | head -n 1)"
python3 - "$wheel" "$tmp/unpacked" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.startswith(("z3/lib/", "z3/include/")):
            z.extract(name, sys.argv[2])
PY
rm -rf "$dest"
mkdir -p "$dest"
mv "$tmp/unpacked/z3/lib" "$tmp/unpacked/z3/include" "$dest/"
# z3-sys links `-lz3`; the wheel ships libz3.so.5.3 (and sometimes libz3.so).
if [ ! -e "$dest/lib/libz3.so" ]; then
  so="$(ls "$dest"/lib/libz3.so* | head -n 1)"
  ln -s "$(basename "$so")" "$dest/lib/libz3.so"
fi
echo "$version" > "$dest/VERSION"
echo "ensure-z3: libz3 ready in $dest/lib" >&2
