#!/usr/bin/env bash
# Installs shapehound into PREFIX (default ~/.local): the binary in PREFIX/bin, the libz3 it
# links in PREFIX/lib/shapehound, found relative to the binary ($ORIGIN rpath, see build.rs).
# The installed tree needs nothing from the checkout: it can be moved, the checkout deleted.
#
#   bash scripts/install.sh [--binary PATH] [PREFIX]
#
# --binary installs an already built binary of this checkout instead of building one
# (`cargo build --release --locked`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { echo "usage: bash scripts/install.sh [--binary PATH] [PREFIX]" >&2; exit 2; }

binary=""
prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || usage; binary="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$prefix" ] || usage; prefix="$1"; shift ;;
  esac
done
prefix="${prefix:-$HOME/.local}"

bash "$root/scripts/ensure-z3.sh"
if [ -z "$binary" ]; then
  (cd "$root" && cargo build --release --locked --quiet)
  binary="$root/target/release/shapehound"
fi
if [ ! -x "$binary" ]; then
  echo "install.sh: no executable at $binary" >&2
  exit 1
fi
if command -v readelf > /dev/null && ! readelf -d "$binary" | grep -q 'ORIGIN/../lib/shapehound'; then
  echo "install.sh: $binary was built without the relative rpath (rebuild it: build.rs adds it)" >&2
  exit 1
fi

mkdir -p "$prefix/bin" "$prefix/lib/shapehound"
# Copy to a temporary name, then rename: a running shapehound keeps its file.
for lib in "$root"/.deps/z3/lib/libz3.so.*; do
  name="$(basename "$lib")"
  cp -L "$lib" "$prefix/lib/shapehound/.$name.new"
  mv -f "$prefix/lib/shapehound/.$name.new" "$prefix/lib/shapehound/$name"
done
cp "$binary" "$prefix/bin/.shapehound.new"
chmod 755 "$prefix/bin/.shapehound.new"
mv -f "$prefix/bin/.shapehound.new" "$prefix/bin/shapehound"

version="$("$prefix/bin/shapehound" --version)"
echo "installed $version: $prefix/bin/shapehound (libz3 in $prefix/lib/shapehound)"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
