#!/usr/bin/env python3
"""Extract the wild development corpus pinned in corpus/wild.toml from local git snapshots.

    python3 scripts/fetch-wild.py [--manifest corpus/wild.toml] [--dest corpus/wild]
                                  [--mirror DIR] [--only OWNER/NAME,...] [--measure]

The wild corpus is public GitHub code (course notebooks, tutorials, paper implementations,
training scripts, apps...) that shapehound was never developed against; it is used to measure
false alarms and to practise finding triage. Third-party code is never committed: the
destination folder corpus/wild/ is git-ignored.

This script never touches the network. Each repository must already be on this machine as a
git snapshot under the mirror root (default /work/.mirror; override with --mirror DIR or the
environment variable SHAPEHOUND_MIRROR), in the layout

    <mirror root>/<owner>+<name>/...     (a bare repository, or repo/.git, or similar)

The git directory is whichever directory at or below <owner>+<name>/ holds both a HEAD file and
an objects/ folder (the shallowest one wins). Bring a missing snapshot onto the machine with
the workplace's `fetch` tool (`github:<owner>/<name>`), then run this script again.

For every [[repo]] of the manifest (or only those named by --only):

1. find its git directory and check that the pinned `commit` is present (if not, the repo
   fails with a message saying which snapshot to fetch);
2. list the commit's tree (`git ls-tree -r -l -z`) and keep regular files whose names end in
   `.py` or `.ipynb`; symlinks, submodules and files over 4 MiB are skipped;
3. write those files, paths kept, into a staging folder with one `git cat-file --batch`
   process, then replace DEST/<owner>+<name>/ with it (so re-running is idempotent);
4. print the counts and check them against the manifest's py_files / ipynb_files / mb
   (a mismatch is a warning, not an error).

Exit status is non-zero if any repository could not be extracted.

`--measure` extracts nothing: for each selected repository it prints the TOML lines (commit,
py_files, ipynb_files, mb) that describe what would be extracted. Repositories named by --only
that are not in the manifest are measured at their snapshot's HEAD, which is how new entries
are added to corpus/wild.toml.

Standard library only (Python >= 3.11 for tomllib); needs the `git` command.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = REPO_ROOT / "corpus" / "wild.toml"
DEFAULT_DEST = REPO_ROOT / "corpus" / "wild"
DEFAULT_MIRROR = "/work/.mirror"
MIRROR_ENV = "SHAPEHOUND_MIRROR"
KEPT_SUFFIXES = (".py", ".ipynb")
MAX_FILE_BYTES = 4 * 1024 * 1024  # files over 4 MiB are skipped
SEARCH_DEPTH = 4  # how deep below <owner>+<name>/ the git directory may sit
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*$")
COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")
MB_TOLERANCE = 0.005


class WildError(Exception):
    pass


def log(msg: str = "") -> None:
    print(msg, flush=True)


def warn(msg: str) -> None:
    print(f"WARNING: {msg}", file=sys.stderr, flush=True)


def err(msg: str) -> None:
    print(f"ERROR: {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Manifest


def load_manifest(path: Path) -> list[dict]:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise WildError(f"manifest not found: {path}")
    except tomllib.TOMLDecodeError as e:
        raise WildError(f"manifest {path} is not valid TOML: {e}")
    repos = data.get("repo")
    if not isinstance(repos, list) or not repos:
        raise WildError(f"manifest {path} has no [[repo]] entries")
    seen: set[str] = set()
    for i, r in enumerate(repos):
        where = f"manifest {path}, repo #{i + 1}"
        name = r.get("name")
        if not isinstance(name, str) or not NAME_RE.match(name) or name.split("/")[1] in (".", ".."):
            raise WildError(f"{where}: 'name' must be \"owner/name\", not {name!r}")
        commit = r.get("commit")
        if not isinstance(commit, str) or not COMMIT_RE.match(commit):
            raise WildError(f"{where} ({name}): 'commit' must be 40 lowercase hex digits")
        for key in ("py_files", "ipynb_files"):
            if not isinstance(r.get(key), int) or r[key] < 0:
                raise WildError(f"{where} ({name}): '{key}' must be a non-negative integer")
        if not isinstance(r.get("mb"), (int, float)):
            raise WildError(f"{where} ({name}): 'mb' must be a number")
        if name.lower() in seen:
            raise WildError(f"{where}: duplicate repository {name!r}")
        seen.add(name.lower())
    return repos


def folder_name(name: str) -> str:
    owner, repo = name.split("/", 1)
    return f"{owner}+{repo}"


# ---------------------------------------------------------------------------------------------
# Git snapshots


def is_git_dir(d: Path) -> bool:
    return (d / "HEAD").is_file() and (d / "objects").is_dir()


def find_git_dir(mirror: Path, name: str) -> Path:
    base = mirror / folder_name(name)
    if not base.is_dir():
        raise WildError(
            f"{name}: no snapshot at {base}; fetch it first (fetch tool: github:{name}), "
            f"or point --mirror / ${MIRROR_ENV} at the mirror root that holds it"
        )
    # Breadth-first, shallowest first, never following symlinks out of the snapshot folder.
    level = [base]
    for _depth in range(SEARCH_DEPTH + 1):
        found = sorted(d for d in level if is_git_dir(d))
        if found:
            return found[0]
        nxt: list[Path] = []
        for d in level:
            try:
                entries = sorted(d.iterdir())
            except OSError:
                continue
            for e in entries:
                if e.is_dir() and not e.is_symlink() and e.name != "objects":
                    nxt.append(e)
        level = nxt
        if not level:
            break
    raise WildError(
        f"{name}: {base} holds no git directory (a folder with HEAD and objects/); "
        f"fetch the snapshot again (fetch tool: github:{name})"
    )


def git(git_dir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    cmd = ["git", f"--git-dir={git_dir}", *args]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and proc.returncode != 0:
        raise WildError(f"`{' '.join(cmd)}` failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc


def resolve_head(git_dir: Path) -> str:
    return git(git_dir, "rev-parse", "--verify", "HEAD^{commit}").stdout.decode().strip()


def check_commit(git_dir: Path, name: str, commit: str) -> None:
    proc = git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}", check=False)
    if proc.returncode != 0:
        try:
            head = resolve_head(git_dir)
        except WildError:
            head = "unknown"
        raise WildError(
            f"{name}: the pinned commit {commit} is not in the snapshot at {git_dir} "
            f"(its HEAD is {head}); fetch the snapshot of github:{name} that holds it, "
            f"or update the pin in the manifest"
        )


@dataclass
class Entry:
    path: str  # repository-relative, '/'-separated, decoded with surrogateescape
    sha: str
    size: int


@dataclass
class Listing:
    kept: list[Entry] = field(default_factory=list)
    skipped_large: int = 0
    skipped_symlink: int = 0
    skipped_submodule: int = 0
    absent: list[str] = field(default_factory=list)  # blobs the snapshot lacks (e.g. >= 4 MiB)


def safe_path(path: str, name: str) -> PurePosixPath:
    p = PurePosixPath(path)
    if p.is_absolute() or not p.parts or any(x in ("", ".", "..") for x in p.parts) or "\\" in path:
        raise WildError(f"{name}: unsafe path in tree: {path!r}")
    return p


def list_tree(git_dir: Path, name: str, commit: str) -> Listing:
    out = git(git_dir, "ls-tree", "-r", "-l", "-z", "--full-tree", commit).stdout
    listing = Listing()
    for rec in out.split(b"\0"):
        if not rec:
            continue
        meta, _, raw_path = rec.partition(b"\t")
        path = os.fsdecode(raw_path)
        if not path.endswith(KEPT_SUFFIXES):
            continue
        mode, kind, sha, size = meta.split()
        if kind != b"blob":  # a submodule ("commit") named like a source file
            listing.skipped_submodule += 1
            continue
        if mode == b"120000":
            listing.skipped_symlink += 1
            continue
        if not size.isdigit():  # `git ls-tree -l` says BAD when the blob is not in the snapshot
            listing.absent.append(path)
            continue
        nbytes = int(size)
        if nbytes > MAX_FILE_BYTES:
            listing.skipped_large += 1
            continue
        safe_path(path, name)
        listing.kept.append(Entry(path, sha.decode(), nbytes))
    listing.kept.sort(key=lambda e: e.path)
    return listing


def extract(git_dir: Path, name: str, entries: list[Entry], stage: Path) -> list[str]:
    """Write entries below stage via one `git cat-file --batch`; return paths whose blob is absent."""
    missing: list[str] = []
    if not entries:
        return missing
    proc = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        # Request and read one blob at a time so neither pipe can fill up and deadlock.
        for e in entries:
            proc.stdin.write(e.sha.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline()
            if not header:
                raise WildError(f"{name}: git cat-file --batch ended early: "
                                f"{proc.stderr.read().decode(errors='replace').strip()}")
            fields = header.split()
            if len(fields) == 2 and fields[1] == b"missing":
                missing.append(e.path)
                continue
            if len(fields) != 3 or fields[1] != b"blob":
                raise WildError(f"{name}: unexpected reply from git cat-file for {e.path}: {header!r}")
            size = int(fields[2])
            data = proc.stdout.read(size)
            proc.stdout.read(1)  # the newline after the content
            if len(data) != size:
                raise WildError(f"{name}: short read of {e.path} from git cat-file")
            target = stage.joinpath(*PurePosixPath(e.path).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
    finally:
        proc.stdin.close()
        proc.wait()
    return missing


# ---------------------------------------------------------------------------------------------
# Per-repository work


@dataclass
class Counts:
    py: int = 0
    ipynb: int = 0
    nbytes: int = 0

    @property
    def mb(self) -> float:
        return self.nbytes / 1e6

    def add(self, other: "Counts") -> None:
        self.py += other.py
        self.ipynb += other.ipynb
        self.nbytes += other.nbytes


def count(entries: list[Entry]) -> Counts:
    c = Counts()
    for e in entries:
        if e.path.endswith(".py"):
            c.py += 1
        else:
            c.ipynb += 1
        c.nbytes += e.size
    return c


def skipped_note(listing: Listing, missing: list[str]) -> str:
    notes = []
    if listing.skipped_large:
        notes.append(f"{listing.skipped_large} over 4 MiB")
    if listing.skipped_symlink:
        notes.append(f"{listing.skipped_symlink} symlinks")
    if listing.skipped_submodule:
        notes.append(f"{listing.skipped_submodule} submodules")
    if missing:
        notes.append(f"{len(missing)} absent from the snapshot")
    return f"  (skipped: {', '.join(notes)})" if notes else ""


def verify(repo: dict, got: Counts) -> list[str]:
    problems = []
    if got.py != repo["py_files"]:
        problems.append(f"py_files {got.py} != manifest {repo['py_files']}")
    if got.ipynb != repo["ipynb_files"]:
        problems.append(f"ipynb_files {got.ipynb} != manifest {repo['ipynb_files']}")
    if abs(round(got.mb, 2) - float(repo["mb"])) > MB_TOLERANCE:
        problems.append(f"mb {got.mb:.2f} != manifest {float(repo['mb']):.2f}")
    return problems


def process(repo: dict, mirror: Path, dest: Path) -> Counts:
    name, commit = repo["name"], repo["commit"]
    git_dir = find_git_dir(mirror, name)
    check_commit(git_dir, name, commit)
    listing = list_tree(git_dir, name, commit)

    final = dest / folder_name(name)
    stage = dest / f".{folder_name(name)}.staging"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    try:
        # Blobs the snapshot lacks (the store drops files of 4 MiB and more) are reported in the
        # per-repo line; one that vanished between ls-tree and cat-file deserves a warning.
        unreadable = extract(git_dir, name, listing.kept, stage)
        if unreadable:
            warn(f"{name}: {len(unreadable)} file(s) could not be read from the snapshot "
                 f"(e.g. {unreadable[0]}); they were not extracted")
        missing = listing.absent + unreadable
        absent = set(missing)
        kept = [e for e in listing.kept if e.path not in absent]
        if final.exists():
            shutil.rmtree(final)
        stage.rename(final)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    got = count(kept)
    log(f"{name:<58} {got.py:>6} .py {got.ipynb:>5} .ipynb {got.mb:>8.2f} MB"
        f"{skipped_note(listing, missing)}")
    for p in verify(repo, got):
        warn(f"{name}: count mismatch: {p}")
    return got


def measure(repo: dict, mirror: Path) -> None:
    name = repo["name"]
    git_dir = find_git_dir(mirror, name)
    commit = repo.get("commit") or resolve_head(git_dir)
    check_commit(git_dir, name, commit)
    listing = list_tree(git_dir, name, commit)
    # Blobs absent from the snapshot would not be extracted: leave them out of the counts too.
    proc = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch-check"],
        input="".join(e.sha + "\n" for e in listing.kept).encode(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True,
    )
    absent = {line.split()[0].decode() for line in proc.stdout.splitlines() if line.endswith(b" missing")}
    kept = [e for e in listing.kept if e.sha not in absent]
    missing = listing.absent + [e.path for e in listing.kept if e.sha in absent]
    got = count(kept)
    log("[[repo]]")
    log(f'name = "{name}"')
    log(f'commit = "{commit}"')
    log(f'kind = "{repo.get("kind", "")}"')
    log(f"py_files = {got.py}")
    log(f"ipynb_files = {got.ipynb}")
    log(f"mb = {got.mb:.2f}")
    note = skipped_note(listing, missing).strip()
    if note:
        log(f"# {note}")
    if "py_files" in repo:
        for p in verify(repo, got):
            log(f"# differs from the manifest: {p}")
    log()


# ---------------------------------------------------------------------------------------------
# Main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Extract the .py/.ipynb files of the wild corpus (corpus/wild.toml) from local git snapshots.",
    )
    ap.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST, help=f"default: {DEFAULT_MANIFEST}")
    ap.add_argument("--dest", type=Path, default=DEFAULT_DEST, help=f"default: {DEFAULT_DEST}")
    ap.add_argument("--mirror", type=Path, default=None,
                    help=f"mirror root holding <owner>+<name>/ snapshots (default: ${MIRROR_ENV} or {DEFAULT_MIRROR})")
    ap.add_argument("--only", default=None, help="comma-separated owner/name list to process")
    ap.add_argument("--measure", action="store_true",
                    help="extract nothing; print TOML counts for the selected repositories "
                         "(names in --only that are not in the manifest are measured at HEAD)")
    args = ap.parse_args(argv)

    mirror = args.mirror or Path(os.environ.get(MIRROR_ENV) or DEFAULT_MIRROR)
    if shutil.which("git") is None:
        err("the `git` command is required")
        return 2
    try:
        repos = load_manifest(args.manifest)
    except WildError as e:
        err(str(e))
        return 2

    if args.only:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        by_name = {r["name"].lower(): r for r in repos}
        selected = []
        for w in wanted:
            r = by_name.get(w.lower())
            if r is not None:
                selected.append(r)
            elif args.measure and NAME_RE.match(w):
                selected.append({"name": w})
            else:
                err(f"--only: {w!r} is not in {args.manifest}")
                return 2
    else:
        selected = repos

    if args.measure:
        failed = 0
        for r in selected:
            try:
                measure(r, mirror)
            except WildError as e:
                err(str(e))
                failed += 1
        return 1 if failed else 0

    log(f"mirror: {mirror}")
    log(f"dest:   {args.dest}")
    args.dest.mkdir(parents=True, exist_ok=True)
    total = Counts()
    failures: list[str] = []
    for r in selected:
        try:
            total.add(process(r, mirror, args.dest))
        except (WildError, OSError, subprocess.SubprocessError) as e:
            err(str(e))
            failures.append(r["name"])
    done = len(selected) - len(failures)
    log(f"{'TOTAL (' + str(done) + ' repositories)':<58} {total.py:>6} .py {total.ipynb:>5} .ipynb {total.mb:>8.2f} MB")

    if not args.only:
        known = {folder_name(r["name"]) for r in repos}
        stale = sorted(p.name for p in args.dest.iterdir() if p.is_dir() and p.name not in known
                       and not p.name.startswith("."))
        if stale:
            warn(f"{args.dest} holds folders not in the manifest (left alone): {', '.join(stale)}")
    if failures:
        err(f"{len(failures)} repositor{'y' if len(failures) == 1 else 'ies'} could not be extracted: "
            f"{', '.join(failures)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
