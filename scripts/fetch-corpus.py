#!/usr/bin/env python3
"""Fetch the real corpus pinned in corpus/manifest.toml and unpack its Python sources.

    python3 scripts/fetch-corpus.py [--manifest corpus/manifest.toml] [--dest corpus/real]
                                    [--only NAME,...] [--cache DIR]

For every package of the manifest:

1. `pip download --no-deps` the pinned release (a wheel with `--only-binary=:all:` and
   `--python-version`/`--platform` pins; an sdist with `--no-binary NAME`) into a temporary
   folder (or `--cache DIR`, where verified archives are kept and reused);
2. check that pip produced exactly the pinned file name and that its sha256 matches the manifest
   (a mismatch is fatal: nothing is unpacked);
3. unpack only `.py` and `.ipynb` members into `DEST/<name>-<version>/` (an sdist's top folder
   `<name>-<version>/` is stripped), write an empty `pyproject.toml` there if none exists (so that
   the folder is one repository when scanned on its own), and finally a `.complete` marker.

A package whose `.complete` marker records the manifest's sha256 is skipped, so the script is
idempotent. Unpacking happens in a hidden staging folder that is renamed into place only once
complete. Standard library only (Python >= 3.11 for tomllib). Exit status is non-zero if any
package failed. Third-party code fetched here must never be committed: DEST is git-ignored.

Note: `pip download` of an sdist prepares its metadata, which runs the package's build backend
(setup.py) in an isolated build environment.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path, PurePosixPath

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = REPO_ROOT / "corpus" / "manifest.toml"
DEFAULT_DEST = REPO_ROOT / "corpus" / "real"
KEPT_SUFFIXES = (".py", ".ipynb")
MARKER = ".complete"


class FetchError(Exception):
    pass


def log(msg: str) -> None:
    print(msg, flush=True)


def err(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Manifest


def load_manifest(path: Path) -> tuple[dict, list[dict]]:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise FetchError(f"manifest not found: {path}")
    except tomllib.TOMLDecodeError as e:
        raise FetchError(f"manifest {path} is not valid TOML: {e}")
    packages = data.get("package")
    if not isinstance(packages, list) or not packages:
        raise FetchError(f"manifest {path} has no [[package]] entries")
    seen = set()
    for i, p in enumerate(packages):
        where = f"manifest {path}, package #{i + 1}"
        for key in ("name", "version", "kind", "filename", "sha256"):
            if not isinstance(p.get(key), str) or not p[key]:
                raise FetchError(f"{where}: missing or empty string field '{key}'")
        if p["kind"] not in ("wheel", "sdist"):
            raise FetchError(f"{where} ({p['name']}): kind must be 'wheel' or 'sdist', not {p['kind']!r}")
        if len(p["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in p["sha256"]):
            raise FetchError(f"{where} ({p['name']}): sha256 must be 64 lowercase hex digits")
        if p["kind"] == "wheel" and not p["filename"].endswith(".whl"):
            raise FetchError(f"{where} ({p['name']}): a wheel's filename must end in .whl")
        if p["kind"] == "sdist" and not p["filename"].endswith((".tar.gz", ".zip", ".tgz")):
            raise FetchError(f"{where} ({p['name']}): an sdist's filename must end in .tar.gz, .tgz or .zip")
        if p["name"] in seen:
            raise FetchError(f"{where}: duplicate package name {p['name']!r}")
        seen.add(p["name"])
    settings = {k: v for k, v in data.items() if k != "package"}
    return settings, packages


def folder_name(pkg: dict) -> str:
    return f"{pkg['name']}-{pkg['version']}"


# ---------------------------------------------------------------------------------------------
# Download and verification


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def pip_command(pkg: dict, settings: dict, download_dir: Path) -> list[str]:
    cmd = [
        sys.executable, "-m", "pip", "download",
        "--no-deps",
        "--disable-pip-version-check",
        "--progress-bar", "off",
        "--dest", str(download_dir),
    ]
    if pkg["kind"] == "wheel":
        cmd += ["--only-binary=:all:"]
        python_version = pkg.get("python_version", settings.get("python_version", "3.11"))
        cmd += ["--python-version", python_version]
        if "platform" in pkg:
            cmd += ["--platform", pkg["platform"]]
        if "abi" in pkg:
            cmd += ["--implementation", pkg.get("implementation", "cp"), "--abi", pkg["abi"]]
    else:
        cmd += ["--no-binary", pkg["name"]]
    cmd.append(f"{pkg['name']}=={pkg['version']}")
    return cmd


def download(pkg: dict, settings: dict, download_dir: Path, keep_bad: bool) -> Path:
    """Return the path of the verified artifact, downloading it unless a verified copy exists."""
    target = download_dir / pkg["filename"]
    if target.is_file():
        if sha256_of(target) == pkg["sha256"]:
            log(f"  using cached {target}")
            return target
        log(f"  cached {target} has the wrong sha256; downloading again")
        target.unlink()
    cmd = pip_command(pkg, settings, download_dir)
    log(f"  $ python3 {' '.join(cmd[1:])}")
    started = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-20:])
        raise FetchError(f"pip download failed (exit {proc.returncode}) for {pkg['name']}=={pkg['version']}:\n{tail}")
    if not target.is_file():
        stem = re.sub(r"[-_.]+", "_", pkg["name"]).lower()
        got = sorted(p.name for p in download_dir.iterdir() if re.sub(r"[-_.]+", "_", p.name).lower().startswith(stem))
        raise FetchError(
            f"pip did not produce the pinned artifact {pkg['filename']} for {pkg['name']}=={pkg['version']}"
            f" (found: {', '.join(got) or 'nothing'}); check the manifest's kind/platform fields"
        )
    actual = sha256_of(target)
    if actual != pkg["sha256"]:
        if keep_bad:
            bad = target.with_name(target.name + ".sha256-mismatch")
            target.replace(bad)
            fate = f"the file was kept as {bad} for inspection"
        else:
            target.unlink()
            fate = "the file was discarded (use --cache DIR to keep it)"
        raise FetchError(
            f"SHA256 MISMATCH for {pkg['filename']}:\n"
            f"    manifest: {pkg['sha256']}\n"
            f"    download: {actual}\n"
            f"  {fate}; nothing was unpacked"
        )
    log(f"  downloaded {pkg['filename']} ({target.stat().st_size / 1e6:.1f} MB, sha256 ok) in {time.monotonic() - started:.1f}s")
    return target


# ---------------------------------------------------------------------------------------------
# Unpacking


def safe_relpath(member: str, strip_top: str | None) -> PurePosixPath | None:
    """The member's path below the package folder, or None if it must be skipped."""
    p = PurePosixPath(member.replace("\\", "/"))
    parts = [x for x in p.parts if x not in ("", ".")]
    if strip_top is not None:
        if not parts or parts[0] != strip_top:
            return None
        parts = parts[1:]
    if not parts or p.is_absolute() or any(x == ".." for x in parts) or ":" in parts[0]:
        raise FetchError(f"unsafe member path in archive: {member!r}")
    return PurePosixPath(*parts)


def sdist_top(names: list[str]) -> str | None:
    tops = {PurePosixPath(n.replace("\\", "/")).parts[0] for n in names if n.strip("/")}
    return tops.pop() if len(tops) == 1 else None


def write_member(stage: Path, rel: PurePosixPath, data: bytes) -> None:
    out = stage.joinpath(*rel.parts)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)


def unpack(pkg: dict, archive: Path, stage: Path) -> tuple[int, int, int]:
    """Extract .py/.ipynb members into stage; returns (py files, ipynb files, bytes)."""
    n_py = n_nb = n_bytes = 0

    def keep(rel: PurePosixPath, data: bytes) -> None:
        nonlocal n_py, n_nb, n_bytes
        write_member(stage, rel, data)
        if rel.name.endswith(".py"):
            n_py += 1
        else:
            n_nb += 1
        n_bytes += len(data)

    name = archive.name
    if name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as z:
            infos = [i for i in z.infolist() if not i.is_dir()]
            top = sdist_top([i.filename for i in infos]) if pkg["kind"] == "sdist" else None
            for info in infos:
                if not info.filename.endswith(KEPT_SUFFIXES):
                    continue
                rel = safe_relpath(info.filename, top)
                if rel is not None:
                    keep(rel, z.read(info))
    elif name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(archive, "r:gz") as t:
            members = t.getmembers()
            top = sdist_top([m.name for m in members])
            for m in members:
                if not m.isfile() or not m.name.endswith(KEPT_SUFFIXES):
                    continue  # directories, symlinks, hard links, devices and other files
                rel = safe_relpath(m.name, top)
                if rel is None:
                    continue
                f = t.extractfile(m)
                if f is None:
                    continue
                keep(rel, f.read())
    else:
        raise FetchError(f"unknown archive type: {name}")
    return n_py, n_nb, n_bytes


# ---------------------------------------------------------------------------------------------
# Driver


def is_complete(dest_dir: Path, pkg: dict) -> bool:
    marker = dest_dir / MARKER
    if not marker.is_file():
        return False
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return info.get("sha256") == pkg["sha256"] and info.get("filename") == pkg["filename"]


def fetch_one(pkg: dict, settings: dict, dest: Path, cache: Path | None) -> str:
    """Fetch and unpack one package; returns 'skipped' or 'fetched'. Raises FetchError."""
    final = dest / folder_name(pkg)
    if is_complete(final, pkg):
        log(f"[skip] {folder_name(pkg)}: already unpacked ({final / MARKER} present)")
        return "skipped"
    log(f"[fetch] {folder_name(pkg)} ({pkg['kind']}: {pkg['filename']})")
    stage = dest / f".staging-{folder_name(pkg)}"
    if stage.exists():
        shutil.rmtree(stage)
    with tempfile.TemporaryDirectory(prefix="fetch-corpus-") as tmp:
        download_dir = cache if cache is not None else Path(tmp)
        download_dir.mkdir(parents=True, exist_ok=True)
        archive = download(pkg, settings, download_dir, keep_bad=cache is not None)
        stage.mkdir(parents=True)
        try:
            n_py, n_nb, n_bytes = unpack(pkg, archive, stage)
            if n_py + n_nb == 0:
                raise FetchError(f"{pkg['filename']} holds no .py or .ipynb file")
            marker_toml = stage / "pyproject.toml"
            if not marker_toml.exists():
                marker_toml.write_text("", encoding="utf-8")
            if final.exists():
                log(f"  removing incomplete or outdated {final}")
                shutil.rmtree(final)
            (stage / MARKER).write_text(
                json.dumps(
                    {
                        "name": pkg["name"],
                        "version": pkg["version"],
                        "filename": pkg["filename"],
                        "sha256": pkg["sha256"],
                        "py_files": n_py,
                        "ipynb_files": n_nb,
                        "bytes": n_bytes,
                    },
                    indent=2,
                )
                + "\n",
                encoding="utf-8",
            )
            stage.rename(final)
        except BaseException:
            shutil.rmtree(stage, ignore_errors=True)
            raise
    log(f"  unpacked {n_py} .py + {n_nb} .ipynb files ({n_bytes / 1e6:.2f} MB) into {final}")
    for key, actual in (("py_files", n_py), ("ipynb_files", n_nb)):
        if key in pkg and pkg[key] != actual:
            log(f"  note: manifest says {key} = {pkg[key]}, unpacked {actual}")
    return "fetched"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST, help="manifest (default: %(default)s)")
    ap.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="where packages are unpacked (default: %(default)s)")
    ap.add_argument("--only", default=None, help="comma-separated package names to fetch (default: all)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep downloaded archives in this folder and reuse them (default: a temporary folder);"
                         " must not be inside DEST")
    args = ap.parse_args(argv)

    try:
        settings, packages = load_manifest(args.manifest)
    except FetchError as e:
        err(f"error: {e}")
        return 2

    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        known = {p["name"] for p in packages}
        unknown = [n for n in wanted if n not in known]
        if unknown:
            err(f"error: --only names not in the manifest: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
            return 2
        packages = [p for p in packages if p["name"] in wanted]

    dest = args.dest.resolve()
    cache = args.cache.resolve() if args.cache else None
    if cache is not None and (cache == dest or dest in cache.parents):
        err("error: --cache must not be inside --dest (the archives would become part of the corpus)")
        return 2
    dest.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    failures: list[tuple[str, str]] = []
    counts = {"fetched": 0, "skipped": 0}
    for pkg in packages:
        try:
            counts[fetch_one(pkg, settings, dest, cache)] += 1
        except FetchError as e:
            err(f"[FAILED] {folder_name(pkg)}: {e}")
            failures.append((folder_name(pkg), str(e).splitlines()[0]))
        except OSError as e:
            err(f"[FAILED] {folder_name(pkg)}: {type(e).__name__}: {e}")
            failures.append((folder_name(pkg), f"{type(e).__name__}: {e}"))

    # Folders left over from other manifest versions are not part of the pinned corpus.
    expected = {folder_name(p) for p in load_manifest(args.manifest)[1]}
    stray = sorted(p.name for p in dest.iterdir() if p.is_dir() and p.name not in expected)
    if stray:
        log(f"warning: folders in {dest} not in the manifest (remove them for a pinned corpus): {', '.join(stray)}")

    log(f"done in {time.monotonic() - started:.1f}s: {counts['fetched']} fetched, {counts['skipped']} already present,"
        f" {len(failures)} failed")
    if failures:
        for name, msg in failures:
            err(f"  failed: {name}: {msg}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
