//! From a discovered file to analysable source text: size limit, reading, hashing, UTF-8,
//! notebook extraction. Every outcome is a [`FileStatus`]; nothing here panics on input.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::notebook::{self, LineMap};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FileKind {
    Py,
    Ipynb,
}

impl FileKind {
    pub fn from_path(path: &Path) -> Option<FileKind> {
        match path.extension()?.to_str()? {
            "py" => Some(FileKind::Py),
            "ipynb" => Some(FileKind::Ipynb),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Py => "py",
            FileKind::Ipynb => "ipynb",
        }
    }
}

/// What happened to a file. Spelled in the tables by [`FileStatus::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FileStatus {
    Ok,
    ParseError,
    SkippedTooLarge,
    SkippedSymlink,
    /// A FIFO, socket or device under a Python name: never opened.
    SkippedNotRegular,
    /// Parsed and counted, but the analysis spent the file's budget (`crate::budget`).
    OverBudget,
    /// Its content when analysed was not what the scan hashed when it found it.
    ChangedDuringScan,
    NotUtf8,
    Unreadable,
    NotebookNotJson,
    InternalError,
}

impl FileStatus {
    /// The file could not be read as Python (a syntax error, bytes that are not UTF-8, a
    /// notebook that is not JSON, a file that cannot be read): what a user must fix, like a
    /// finding, since it may hide any bug. Both commands exit 1 for it (`exit.rs`).
    pub fn is_error(self) -> bool {
        matches!(
            self,
            FileStatus::ParseError
                | FileStatus::NotUtf8
                | FileStatus::NotebookNotJson
                | FileStatus::Unreadable
        )
    }

    pub const ALL: [FileStatus; 11] = [
        FileStatus::Ok,
        FileStatus::ParseError,
        FileStatus::SkippedTooLarge,
        FileStatus::SkippedSymlink,
        FileStatus::SkippedNotRegular,
        FileStatus::OverBudget,
        FileStatus::ChangedDuringScan,
        FileStatus::NotUtf8,
        FileStatus::Unreadable,
        FileStatus::NotebookNotJson,
        FileStatus::InternalError,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FileStatus::Ok => "ok",
            FileStatus::ParseError => "parse_error",
            FileStatus::SkippedTooLarge => "skipped_too_large",
            FileStatus::SkippedSymlink => "skipped_symlink",
            FileStatus::SkippedNotRegular => "skipped_not_regular",
            FileStatus::OverBudget => "over_budget",
            FileStatus::ChangedDuringScan => "changed_during_scan",
            FileStatus::NotUtf8 => "not_utf8",
            FileStatus::Unreadable => "unreadable",
            FileStatus::NotebookNotJson => "notebook_not_json",
            FileStatus::InternalError => "internal_error",
        }
    }
}

/// Why [`read_bounded`] read nothing.
#[derive(Debug)]
pub enum Refusal {
    /// Not a regular file: what it is (`a FIFO`, `a character device`, ...).
    NotRegular(&'static str),
    /// Over the limit: the size seen, and the limit.
    TooLarge(u64, u64),
    Io(std::io::Error),
}

impl Refusal {
    /// The `files` status it gives.
    pub fn status(&self) -> FileStatus {
        match self {
            Refusal::NotRegular(_) => FileStatus::SkippedNotRegular,
            Refusal::TooLarge(..) => FileStatus::SkippedTooLarge,
            Refusal::Io(_) => FileStatus::Unreadable,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotRegular(what) => write!(f, "{what}, not a regular file; not read"),
            Refusal::TooLarge(size, limit) => {
                write!(f, "{size} bytes is over the size limit of {limit} bytes")
            }
            Refusal::Io(e) => write!(f, "cannot read: {e}"),
        }
    }
}

/// The bytes of the regular file at `path` (symlinks followed), at most `max_bytes` of them.
/// A FIFO, socket or device is never opened (opening a FIFO waits for a writer; a device
/// such as `/dev/zero` reports 0 bytes and never ends), and whatever size `stat` reported,
/// no more than `max_bytes + 1` bytes are read.
pub fn read_bounded(path: &std::path::Path, max_bytes: u64) -> Result<Vec<u8>, Refusal> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(Refusal::Io)?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular(file_type_name(&meta.file_type())));
    }
    if meta.len() > max_bytes {
        return Err(Refusal::TooLarge(meta.len(), max_bytes));
    }
    let file = std::fs::File::open(path).map_err(Refusal::Io)?;
    // Replaced between the two looks: judged by what was opened.
    let opened = file.metadata().map_err(Refusal::Io)?;
    if !opened.is_file() {
        return Err(Refusal::NotRegular(file_type_name(&opened.file_type())));
    }
    let mut bytes = Vec::with_capacity(opened.len().min(max_bytes) as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(Refusal::TooLarge(bytes.len() as u64, max_bytes));
    }
    Ok(bytes)
}

fn file_type_name(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// A failure before parsing, with the location when there is one (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFailure {
    pub status: FileStatus,
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl SourceFailure {
    pub fn new(status: FileStatus, message: impl Into<String>) -> Self {
        SourceFailure {
            status,
            message: message.into(),
            line: None,
            column: None,
        }
    }
}

/// Python source ready for the parser; for notebooks, the code cells joined with a line map.
#[derive(Clone, Debug)]
pub struct SourceText {
    pub text: String,
    pub line_map: Option<LineMap>,
}

/// Number of lines as editors count them (a final line without newline counts).
pub fn count_lines(bytes: &[u8]) -> u64 {
    // Python ends a line at `\n`, `\r\n` or a lone `\r` (old Mac files).
    let ends = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count() as u64;
    if bytes.last().is_some_and(|&b| b != b'\n' && b != b'\r') {
        ends + 1
    } else {
        ends
    }
}

/// Content hash used for deduplication (BLAKE3, first 128 bits, hex).
pub fn content_hash(bytes: &[u8]) -> String {
    let hash = blake3::hash(bytes);
    hash.to_hex()[..32].to_string()
}

/// How notebooks become one Python text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotebookMode {
    /// Code cells with IPython magics and shell escapes blanked, each cell ending in a newline.
    Precise,
    /// TEOSC's `''.join(sources)`: cells glued without separator, magics kept.
    Teosc,
}

/// Decodes file bytes into source text. A UTF-8 BOM is accepted and dropped.
pub fn decode(
    bytes: &[u8],
    kind: FileKind,
    mode: NotebookMode,
) -> Result<SourceText, SourceFailure> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = byte_position(bytes, e.valid_up_to());
        SourceFailure {
            status: FileStatus::NotUtf8,
            message: format!(
                "invalid UTF-8 at byte {} (line {line}, column {column})",
                e.valid_up_to()
            ),
            line: Some(line),
            column: Some(column),
        }
    })?;
    match kind {
        FileKind::Py => Ok(SourceText {
            text: text.to_string(),
            line_map: None,
        }),
        FileKind::Ipynb => {
            let nb = notebook::extract(text, mode)
                .map_err(|msg| SourceFailure::new(FileStatus::NotebookNotJson, msg))?;
            Ok(SourceText {
                text: nb.code,
                line_map: Some(nb.line_map),
            })
        }
    }
}

fn byte_position(bytes: &[u8], offset: usize) -> (u32, u32) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line as u32, column as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_utf8_reports_the_position() {
        let err = decode(b"x = 1\n# caf\xe9\n", FileKind::Py, NotebookMode::Precise).unwrap_err();
        assert_eq!(err.status, FileStatus::NotUtf8);
        assert_eq!((err.line, err.column), (Some(2), Some(6)));
    }

    #[test]
    fn bom_is_accepted() {
        let src = decode(
            b"\xEF\xBB\xBFimport torch\n",
            FileKind::Py,
            NotebookMode::Precise,
        )
        .unwrap();
        assert_eq!(src.text, "import torch\n");
    }

    #[test]
    fn line_counts() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a"), 1);
        assert_eq!(count_lines(b"a\n"), 1);
        assert_eq!(count_lines(b"a\nb"), 2);
        // CR-only (old Mac) and CRLF endings are line ends as Python reads them.
        assert_eq!(count_lines(b"a\rb\rc"), 3);
        assert_eq!(count_lines(b"a\r\nb\r\n"), 2);
        assert_eq!(count_lines(b"a\r"), 1);
    }

    #[test]
    fn hash_is_stable() {
        assert_eq!(content_hash(b"abc"), content_hash(b"abc"));
        assert_ne!(content_hash(b"abc"), content_hash(b"abd"));
        assert_eq!(content_hash(b"").len(), 32);
    }
}
