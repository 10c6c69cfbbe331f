//! Packed corpora: wheels (`.whl`), zip archives (`.zip`) and sdists or other tarballs
//! (`.tar.gz`, `.tgz`, `.tar`) read as repositories without unpacking.
//!
//! An archive at the top of a corpus root (or given as a root) is one repository. Its name is
//! the archive's name without the extension; a wheel's is its distribution and version
//! (`transformers-5.23.0-py3-none-any.whl` → `transformers-5.23.0`), as the folders of an
//! unpacked corpus are named. A top folder named like the repository (an sdist's
//! `name-version/`, a GitHub archive's `repo-main/`) is left out of the paths, so an archive
//! and its unpacked folder give the same `path` column. Members are read in archive order,
//! streamed: `.py` and `.ipynb` members under no skipped folder (`walk::SKIPPED_DIRS`), each
//! read whole unless it is over the size limit (then only its size is known). A member that
//! cannot be read, a link, and an archive that cannot be read (or stops partway) get `files`
//! rows with their status, never a crash.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::walk::SKIPPED_DIRS;
use super::FileKind;

/// The archive formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ArchiveKind {
    Zip,
    TarGz,
    Tar,
}

impl ArchiveKind {
    /// The format an archive's name says, with the name's length without the extension.
    pub fn of(name: &str) -> Option<(ArchiveKind, usize)> {
        let lower = name.to_ascii_lowercase();
        for (ext, kind) in [
            (".whl", ArchiveKind::Zip),
            (".zip", ArchiveKind::Zip),
            (".tar.gz", ArchiveKind::TarGz),
            (".tgz", ArchiveKind::TarGz),
            (".tar", ArchiveKind::Tar),
        ] {
            if lower.len() > ext.len() && lower.ends_with(ext) {
                return Some((kind, name.len() - ext.len()));
            }
        }
        None
    }
}

/// The repository name of an archive file (see the module documentation).
pub fn repo_name(file_name: &str) -> Option<String> {
    let (_, stem_len) = ArchiveKind::of(file_name)?;
    let stem = &file_name[..stem_len];
    if file_name.to_ascii_lowercase().ends_with(".whl") {
        let mut parts = stem.splitn(3, '-');
        if let (Some(name), Some(version)) = (parts.next(), parts.next()) {
            return Some(format!("{name}-{version}"));
        }
    }
    Some(stem.to_string())
}

/// One member as the walk hands it on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Member {
    Bytes(Vec<u8>),
    /// Over the size limit: its size, never read.
    TooLarge(u64),
    /// Could not be read (why), or is a link (never followed).
    Unreadable(String),
    Link,
}

/// Reads the Python members of the archive at `path` (of repository `repo`), calling `emit`
/// with each one's path inside the repository, kind and content. An error says why the
/// archive could not be read from that point on (members already emitted stand).
pub fn read_members(
    path: &Path,
    kind: ArchiveKind,
    repo: &str,
    max_bytes: u64,
    mut emit: impl FnMut(String, FileKind, Member),
) -> Result<(), String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    match kind {
        ArchiveKind::Zip => read_zip(BufReader::new(file), repo, max_bytes, &mut emit),
        ArchiveKind::TarGz => read_tar(
            flate2::read::GzDecoder::new(BufReader::new(file)),
            repo,
            max_bytes,
            &mut emit,
        ),
        ArchiveKind::Tar => read_tar(BufReader::new(file), repo, max_bytes, &mut emit),
    }
}

/// The member's path inside the repository, or `None` when it is not analysed (not Python,
/// under a skipped folder, or a path that leaves the archive).
fn member_path(name: &str, repo: &str) -> Option<(String, FileKind)> {
    let name = name.trim_start_matches("./");
    let name = match name.split_once('/') {
        Some((top, rest)) if top == repo => rest,
        _ => name,
    };
    let kind = FileKind::from_path(Path::new(name))?;
    let parts: Vec<&str> = name.split('/').collect();
    let (file, folders) = parts.split_last()?;
    if file.is_empty()
        || name.starts_with('/')
        || folders
            .iter()
            .any(|f| f.is_empty() || *f == ".." || SKIPPED_DIRS.contains(f))
    {
        return None;
    }
    Some((name.to_string(), kind))
}

fn read_zip<R: Read + std::io::Seek>(
    reader: R,
    repo: &str,
    max_bytes: u64,
    emit: &mut impl FnMut(String, FileKind, Member),
) -> Result<(), String> {
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| e.to_string())?;
    for i in 0..archive.len() {
        let mut entry = match archive.by_index(i) {
            Ok(e) => e,
            // The central directory listed it, but its data cannot be reached.
            Err(e) => return Err(format!("member {i}: {e}")),
        };
        if entry.is_dir() {
            continue;
        }
        let name = match entry.name() {
            Ok(name) => name.into_owned(),
            Err(e) => return Err(format!("member {i}: {e}")),
        };
        let Some((path, kind)) = member_path(&name, repo) else {
            continue;
        };
        let (link, size) = (entry.is_symlink(), entry.size());
        emit(path, kind, member(link, size, &mut entry, max_bytes));
    }
    Ok(())
}

fn read_tar<R: Read>(
    reader: R,
    repo: &str,
    max_bytes: u64,
    emit: &mut impl FnMut(String, FileKind, Member),
) -> Result<(), String> {
    let mut archive = tar::Archive::new(reader);
    for entry in archive.entries().map_err(|e| e.to_string())? {
        let mut entry = entry.map_err(|e| e.to_string())?;
        let name = match entry.path() {
            Ok(p) => super::walk::path_text(&p),
            Err(e) => return Err(e.to_string()),
        };
        let Some((path, kind)) = member_path(&name, repo) else {
            continue;
        };
        let entry_type = entry.header().entry_type();
        let link = entry_type.is_symlink() || entry_type.is_hard_link();
        if !link && !entry_type.is_file() {
            continue;
        }
        let size = entry.size();
        emit(path, kind, member(link, size, &mut entry, max_bytes));
    }
    Ok(())
}

/// A member as the walk hands it on: a link is never followed, one over the size limit
/// (by its header) never read.
fn member(link: bool, size: u64, reader: &mut impl Read, max_bytes: u64) -> Member {
    if link {
        Member::Link
    } else if size > max_bytes {
        Member::TooLarge(size)
    } else {
        read_bounded(reader, max_bytes)
    }
}

/// A member's bytes, never more than `max_bytes` (a header may understate its size).
fn read_bounded(reader: &mut impl Read, max_bytes: u64) -> Member {
    let mut bytes = Vec::new();
    match reader.take(max_bytes + 1).read_to_end(&mut bytes) {
        Ok(n) if n as u64 > max_bytes => Member::TooLarge(n as u64),
        Ok(_) => Member::Bytes(bytes),
        Err(e) => Member::Unreadable(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn names_of_archives() {
        assert_eq!(
            repo_name("transformers-5.23.0-py3-none-any.whl").as_deref(),
            Some("transformers-5.23.0")
        );
        assert_eq!(
            repo_name("fairseq-0.12.2.tar.gz").as_deref(),
            Some("fairseq-0.12.2")
        );
        assert_eq!(repo_name("repo-main.ZIP").as_deref(), Some("repo-main"));
        assert_eq!(repo_name("x.tgz").as_deref(), Some("x"));
        assert_eq!(repo_name("notes.txt"), None);
        assert_eq!(repo_name(".zip"), None);
    }

    #[test]
    fn member_paths_drop_the_repository_folder_and_skip_what_the_walk_skips() {
        let p = |n: &str| member_path(n, "pkg-1.0").map(|(p, _)| p);
        assert_eq!(p("pkg-1.0/pkg/a.py").as_deref(), Some("pkg/a.py"));
        assert_eq!(p("./pkg-1.0/a.py").as_deref(), Some("a.py"));
        assert_eq!(p("pkg/a.py").as_deref(), Some("pkg/a.py"));
        assert_eq!(p("other/a.ipynb").as_deref(), Some("other/a.ipynb"));
        assert_eq!(p("pkg-1.0/PKG-INFO"), None);
        assert_eq!(p("pkg/__pycache__/a.py"), None);
        assert_eq!(p("../escape.py"), None);
        assert_eq!(p("/abs.py"), None);
    }

    fn zip_with(entries: &[(&str, &[u8])]) -> tempfile::NamedTempFile {
        let f = tempfile::Builder::new().suffix(".zip").tempfile().unwrap();
        let mut w = zip::ZipWriter::new(f.reopen().unwrap());
        for (name, bytes) in entries {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap();
        f
    }

    #[test]
    fn zip_members_are_read_with_limits_and_a_broken_archive_is_an_error() {
        let f = zip_with(&[
            ("r/a.py", b"import torch\n"),
            ("r/big.py", &[b'#'; 100]),
            ("r/README.md", b"no"),
        ]);
        let mut got = Vec::new();
        read_members(f.path(), ArchiveKind::Zip, "r", 50, |p, _, m| {
            got.push((p, m))
        })
        .unwrap();
        assert_eq!(
            got,
            vec![
                (
                    "a.py".to_string(),
                    Member::Bytes(b"import torch\n".to_vec())
                ),
                ("big.py".to_string(), Member::TooLarge(100)),
            ]
        );
        let broken = tempfile::Builder::new().suffix(".zip").tempfile().unwrap();
        std::fs::write(broken.path(), b"PK\x03\x04 not really").unwrap();
        assert!(read_members(broken.path(), ArchiveKind::Zip, "r", 50, |_, _, _| {}).is_err());
    }

    #[test]
    fn tarballs_are_streamed_and_a_truncated_one_keeps_what_was_read() {
        let f = tempfile::Builder::new()
            .suffix(".tar.gz")
            .tempfile()
            .unwrap();
        {
            let gz = flate2::write::GzEncoder::new(f.reopen().unwrap(), Default::default());
            let mut b = tar::Builder::new(gz);
            for (name, body) in [
                ("p-1/x.py", &b"x = 1\n"[..]),
                ("p-1/sub/y.py", &[b'y'; 4000][..]),
            ] {
                let mut h = tar::Header::new_gnu();
                h.set_size(body.len() as u64);
                h.set_mode(0o644);
                h.set_cksum();
                b.append_data(&mut h, name, body).unwrap();
            }
            b.into_inner().unwrap().finish().unwrap();
        }
        let mut got = Vec::new();
        read_members(f.path(), ArchiveKind::TarGz, "p-1", 1 << 20, |p, _, m| {
            got.push((p, matches!(m, Member::Bytes(_))))
        })
        .unwrap();
        assert_eq!(got, vec![("x.py".into(), true), ("sub/y.py".into(), true)]);
        // Cut short: the first member stands, then an error.
        let bytes = std::fs::read(f.path()).unwrap();
        std::fs::write(f.path(), &bytes[..bytes.len() / 2]).unwrap();
        let r = read_members(f.path(), ArchiveKind::TarGz, "p-1", 1 << 20, |_, _, _| {});
        assert!(r.is_err(), "{r:?}");
    }
}
