//! The result cache that makes a rescan cheap: what analysing and solving each content
//! group produced, keyed by its content key (content hash and kind, with the import layout
//! when imports are followed), valid for one analyser version and one set of options (a
//! digest in `manifest.json`; another digest: the cache is not read, and rewritten).
//!
//! Storage: `CACHE/seg-<run>-<worker>.bin`, each a sequence of bincode records written as
//! they are made and flushed as the run goes, so a run that fails midway leaves what it
//! computed for the rerun (a truncated last record is ignored). A run appends only what it
//! computed (a rescan that changes nothing writes nothing); once the cache has more than
//! `COMPACT_AFTER` segments, the next run copies every entry it uses into its own segments
//! and, having committed its report, removes the older ones, so entries no file uses any
//! more do not pile up. Every process of a run reads the whole cache (the segments in
//! parallel); each worker writes its own segment.
//!
//! A file whose size, modification time and inode are those recorded when it was last read
//! (and not modified within two seconds before that, git's rule against racy timestamps)
//! is not read again: its content hash and line count come from the record (`Record::Stat`,
//! file-by-file scans only: resolution across files reads every file's imports).
//!
//! What is cached is what a scan's rows are made from, never the rows' paths: identical
//! content under another path, or a renamed file, is a hit. Timings and the worker that
//! solved a job come from the run that computed them. A Z3 timeout is cached like any
//! other result (a rescan does not retry it: `--no-cache` does).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::shape_jobs::ContentKey;
use crate::analysis::FileAnalysis;
use crate::corpus::FileStatus;
use crate::eval::imports::ImportSearch;
use crate::findings::identity::LineDigests;
use crate::findings::suppress::Suppression;
use crate::findings::Finding;
use crate::operators::CallSite;
use crate::reports::tables::{JobRow, SignatureRow};

/// Bumped when what a record holds changes shape.
const FORMAT: u32 = 4;

/// Segments past which a run compacts the cache.
const COMPACT_AFTER: usize = 16;

/// A content group's analysis, without its units (their solved results are `Solved`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CachedAnalysis {
    pub status: FileStatus,
    pub message: Option<String>,
    pub error_line: Option<u32>,
    pub error_column: Option<u32>,
    pub calls: Vec<(CallSite, Option<(u32, u32)>)>,
    pub relative_imports: Vec<String>,
    pub lines: LineDigests,
    pub suppressions: Vec<Suppression>,
    pub micros: u64,
    /// How many units the group has, and constraint jobs over all of them.
    pub units: u32,
    pub jobs: u64,
    /// The modules the analysis looked up and what it found ([`modules_read`]): it holds
    /// while every one still resolves to the same file with the same text.
    pub modules: Vec<ModuleRead>,
}

/// A module name looked up and a digest of what it resolved to (its file, search folder and
/// text); `None`: not found.
pub type ModuleRead = (String, Option<[u8; 32]>);

/// What `names` resolve to under `search` now: the analysis of a file that imports from
/// other files depends on nothing else of them. Loading goes through the thread's cache of
/// parsed modules, which the analysis shares. Names of data files read
/// (`eval::data_files::DATA_READ`) are their text's digest, search or not.
pub fn modules_read(search: Option<&ImportSearch>, names: &[String]) -> Vec<ModuleRead> {
    names
        .iter()
        .map(|name| (name.clone(), module_read(search, name)))
        .collect()
}

/// A digest of what `name` resolves to under `search` now: its file, search folder and text;
/// for a data file, of its text (read as the analysis reads it).
fn module_read(search: Option<&ImportSearch>, name: &str) -> Option<[u8; 32]> {
    use std::os::unix::ffi::OsStrExt;
    if let Some(path) = name.strip_prefix(crate::eval::data_files::DATA_READ) {
        let text = crate::eval::data_files::data_text(std::path::Path::new(path), Path::new("/"));
        return text.map(|t| *blake3::hash(t.as_bytes()).as_bytes());
    }
    search?.load(name).map(|m| {
        let mut h = blake3::Hasher::new();
        for part in [m.path.as_os_str(), m.root.as_os_str()] {
            h.update(&(part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.update(m.text.as_bytes());
        *h.finalize().as_bytes()
    })
}

/// Which analysis of a content group solved units belong to: a digest of the modules it read
/// (0 when it read none). A group analysed again because an imported file changed keeps its
/// key; its units solved before must not be mixed with the new analysis.
pub fn generation(modules: &[ModuleRead]) -> u64 {
    if modules.is_empty() {
        return 0;
    }
    let mut h = blake3::Hasher::new();
    for (name, found) in modules {
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update(found.as_ref().map_or(&[0u8; 32], |d| d));
    }
    let mut first = [0u8; 8];
    first.copy_from_slice(&h.finalize().as_bytes()[..8]);
    u64::from_le_bytes(first)
}

impl CachedAnalysis {
    /// What is kept of an analysis; `None` for outcomes that depend on the moment (a file
    /// that changed while read, an internal error).
    pub fn of(
        a: &FileAnalysis,
        units: u32,
        jobs: u64,
        modules: Vec<ModuleRead>,
    ) -> Option<CachedAnalysis> {
        if matches!(
            a.status,
            FileStatus::ChangedDuringScan | FileStatus::InternalError | FileStatus::Unreadable
        ) {
            return None;
        }
        Some(CachedAnalysis {
            status: a.status,
            message: a.message.clone(),
            error_line: a.error_line,
            error_column: a.error_column,
            calls: a.calls.iter().map(|c| (c.site.clone(), c.cell)).collect(),
            relative_imports: a.relative_imports.clone(),
            lines: a.lines.clone(),
            suppressions: a.suppressions.clone(),
            micros: a.micros,
            units,
            jobs,
            modules,
        })
    }

    /// Whether the analysis still holds for a file whose imports resolve under `search`:
    /// every module it looked up resolves to what it did (a file edited, added in front of it
    /// in the search order, or removed makes it stale).
    pub fn holds(&self, search: Option<&ImportSearch>) -> bool {
        self.modules
            .iter()
            .all(|(name, found)| module_read(search, name) == *found)
    }

    /// [`generation`] of the analysis.
    pub fn generation(&self) -> u64 {
        generation(&self.modules)
    }

    /// The analysis back (no units: they come solved).
    pub fn into_analysis(self) -> FileAnalysis {
        FileAnalysis {
            status: self.status,
            message: self.message,
            error_line: self.error_line,
            error_column: self.error_column,
            calls: self
                .calls
                .into_iter()
                .map(|(site, cell)| crate::analysis::LocatedCall { site, cell })
                .collect(),
            relative_imports: self.relative_imports,
            modules_looked_up: self.modules.into_iter().map(|(name, _)| name).collect(),
            units: Vec::new(),
            lines: self.lines,
            suppressions: self.suppressions,
            micros: self.micros,
        }
    }
}

/// One unit of a group, solved: its `jobs` rows and its finding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CachedSolved {
    pub index: u32,
    /// The [`generation`] of the analysis whose unit this is.
    pub generation: u64,
    pub rows: Vec<JobRow>,
    pub findings: Vec<Finding>,
    /// Its `signatures` rows (with `--signatures`, part of the cache's digest).
    #[serde(default)]
    pub signatures: Vec<SignatureRow>,
}

/// What a file was when it was read: what identifies that state, and what was read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStat {
    pub size: u64,
    pub mtime_ns: i128,
    pub inode: u64,
    pub hash: String,
    pub lines: u64,
    /// Whether it names `__file__` (`FileMeta::beside`).
    pub beside: bool,
}

impl FileStat {
    /// The identifying part of a file's metadata: (size, mtime in ns, inode).
    pub fn identity(meta: &std::fs::Metadata) -> (u64, i128, u64) {
        use std::os::unix::fs::MetadataExt;
        let mtime = meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128;
        (meta.len(), mtime, meta.ino())
    }
}

/// One record of a segment.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Record {
    Analysis(ContentKey, CachedAnalysis),
    Solved(ContentKey, CachedSolved),
    /// A file's state when read (`abs path` as bytes).
    Stat(Vec<u8>, FileStat),
}

impl Record {
    /// The state of the file at `path` when read.
    pub fn stat(path: &Path, stat: FileStat) -> Record {
        use std::os::unix::ffi::OsStrExt;
        Record::Stat(path.as_os_str().as_bytes().to_vec(), stat)
    }
}

/// A group found in the cache: its analysis and every unit solved.
#[derive(Clone, Debug)]
pub struct Hit {
    pub analysis: CachedAnalysis,
    /// In unit order.
    pub solved: Vec<CachedSolved>,
}

/// What the cache holds of one content group.
#[derive(Debug, Default)]
struct Group {
    analysis: Option<CachedAnalysis>,
    solved: Vec<CachedSolved>,
}

/// The cache as a run reads it. A group is taken out when a run uses it (each content group
/// is analysed once per run): no copy is made, and its memory goes as the run goes.
#[derive(Debug, Default)]
pub struct ResultCache {
    dir: PathBuf,
    groups: std::sync::Mutex<HashMap<ContentKey, Group>>,
    stats: HashMap<Vec<u8>, FileStat>,
    /// The segments read (removed once a compacting run has committed).
    segments: Vec<PathBuf>,
    opened_at: Option<std::time::SystemTime>,
}

/// One segment's records, in order (read whole: decoding from memory is faster than from a
/// buffered reader).
fn read_segment(path: &Path) -> Vec<Record> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let mut rest: &[u8] = &bytes;
    let mut out = Vec::new();
    // A truncated or damaged tail (a run that died mid-write) ends the segment.
    while !rest.is_empty() {
        match bincode::deserialize_from::<_, Record>(&mut rest) {
            Ok(record) => out.push(record),
            Err(_) => break,
        }
    }
    out
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Manifest {
    format: u32,
    options: String,
}

impl ResultCache {
    /// Reads the cache in `dir` made with the same `options` digest; another digest (or no
    /// cache, or an unreadable one) gives an empty cache whose folder is emptied and
    /// stamped with this digest. Errors only when the folder cannot be written.
    pub fn open(dir: &Path, options: &str) -> std::io::Result<ResultCache> {
        std::fs::create_dir_all(dir)?;
        let manifest_path = dir.join("manifest.json");
        let wanted = Manifest {
            format: FORMAT,
            options: options.to_string(),
        };
        let current: Option<Manifest> = std::fs::read(&manifest_path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        let mut cache = ResultCache {
            dir: dir.to_path_buf(),
            opened_at: Some(std::time::SystemTime::now()),
            ..ResultCache::default()
        };
        let segments = segments(dir)?;
        if current.as_ref() != Some(&wanted) {
            for s in segments {
                let _ = std::fs::remove_file(s);
            }
            let text = serde_json::to_vec_pretty(&wanted).map_err(std::io::Error::other)?;
            let tmp = dir.join("manifest.json.tmp");
            std::fs::write(&tmp, text)?;
            std::fs::rename(tmp, manifest_path)?;
            return Ok(cache);
        }
        // Segments are read in parallel and merged in order: a later record of a key wins.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = segments.len().div_ceil(threads.max(1)).max(1);
        let read: Vec<Vec<Record>> = std::thread::scope(|scope| {
            let handles: Vec<_> = segments
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || part.iter().flat_map(|p| read_segment(p)).collect())
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for records in read {
            cache.add(records);
        }
        cache.segments = segments;
        Ok(cache)
    }

    fn add(&mut self, records: Vec<Record>) {
        let groups = self.groups.get_mut().unwrap_or_else(|e| e.into_inner());
        for record in records {
            match record {
                Record::Analysis(key, a) => {
                    groups.entry(key).or_default().analysis = Some(a);
                }
                Record::Solved(key, s) => {
                    let list = &mut groups.entry(key).or_default().solved;
                    if !list
                        .iter()
                        .any(|x| (x.index, x.generation) == (s.index, s.generation))
                    {
                        list.push(s);
                    }
                }
                Record::Stat(path, stat) => {
                    self.stats.insert(path, stat);
                }
            }
        }
    }

    /// The group's cached results, taken out, when its analysis and every unit are there.
    pub fn hit(&self, key: &ContentKey) -> Option<Hit> {
        let mut groups = self.groups.lock().unwrap_or_else(|e| e.into_inner());
        let group = groups.get_mut(key)?;
        let analysis = group.analysis.as_ref()?;
        let (units, generation) = (analysis.units as usize, analysis.generation());
        // Units solved for an earlier analysis of the group are not this one's.
        group.solved.retain(|s| s.generation == generation);
        group.solved.sort_by_key(|s| s.index);
        let complete = group.solved.len() == units
            && group
                .solved
                .iter()
                .enumerate()
                .all(|(i, s)| s.index == i as u32);
        if !complete {
            return None;
        }
        let group = groups.remove(key)?;
        Some(Hit {
            analysis: group.analysis?,
            solved: group.solved,
        })
    }

    /// The recorded state of the file at `path` when its metadata still says the same,
    /// and it was not modified within two seconds before the cache was opened (a write in
    /// the same tick as the recording could have gone unseen).
    pub fn unchanged(&self, path: &Path, meta: &std::fs::Metadata) -> Option<&FileStat> {
        use std::os::unix::ffi::OsStrExt;
        let stat = self.stats.get(path.as_os_str().as_bytes())?;
        let (size, mtime, inode) = FileStat::identity(meta);
        let opened = self
            .opened_at?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos() as i128;
        let settled = mtime < opened - 2_000_000_000;
        (settled && (stat.size, stat.mtime_ns, stat.inode) == (size, mtime, inode)).then_some(stat)
    }

    /// A writer for one worker's new segment.
    pub fn writer(&self, run: &str, worker: usize) -> std::io::Result<SegmentWriter> {
        let path = self.dir.join(format!("seg-{run}-{worker:05}.bin"));
        Ok(SegmentWriter {
            out: Some(BufWriter::new(File::create(&path)?)),
            path,
            unflushed: 0,
            written: 0,
        })
    }

    /// Whether this run copies the entries it uses into its own segments (and then retires
    /// those it read): when the cache has grown past `COMPACT_AFTER` segments.
    pub fn compacting(&self) -> bool {
        self.segments.len() > COMPACT_AFTER
    }

    /// Once the run's report is committed, in a compacting run: the segments it read are
    /// superseded by those it wrote (which hold every entry it used). A segment written since
    /// the cache was opened (another process of a cluster run sharing the folder) stays.
    pub fn retire_read_segments(&self) {
        if !self.compacting() {
            return;
        }
        for s in &self.segments {
            let older = std::fs::metadata(s)
                .and_then(|m| m.modified())
                .is_ok_and(|m| self.opened_at.is_some_and(|o| m < o));
            if older {
                let _ = std::fs::remove_file(s);
            }
        }
    }

    /// Content groups held (not yet used by this run).
    pub fn len(&self) -> usize {
        self.groups.lock().map_or(0, |g| g.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn segments(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seg-") && n.ends_with(".bin"))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// One worker's segment of the cache being written.
pub struct SegmentWriter {
    path: PathBuf,
    out: Option<BufWriter<File>>,
    unflushed: usize,
    written: usize,
}

impl SegmentWriter {
    /// Appends a record; flushed every few records, so what a failing run computed stays.
    pub fn write(&mut self, record: &Record) -> std::io::Result<()> {
        let Some(out) = &mut self.out else {
            return Ok(());
        };
        bincode::serialize_into(&mut *out, record).map_err(std::io::Error::other)?;
        self.unflushed += 1;
        self.written += 1;
        if self.unflushed >= 64 {
            self.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.unflushed = 0;
        match &mut self.out {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }

    /// Flushes; a segment that got no record is removed.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.flush()?;
        if self.written == 0 && self.out.take().is_some() {
            std::fs::remove_file(&self.path)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::FileKind;

    fn key(h: &str) -> ContentKey {
        (h.to_string(), FileKind::Py)
    }

    fn analysis(units: u32) -> CachedAnalysis {
        CachedAnalysis {
            status: FileStatus::Ok,
            message: None,
            error_line: None,
            error_column: None,
            calls: Vec::new(),
            relative_imports: Vec::new(),
            lines: LineDigests::default(),
            suppressions: Vec::new(),
            micros: 5,
            units,
            jobs: 0,
            modules: Vec::new(),
        }
    }

    fn solved(index: u32) -> CachedSolved {
        CachedSolved {
            index,
            generation: 0,
            rows: Vec::new(),
            findings: Vec::new(),
            signatures: Vec::new(),
        }
    }

    #[test]
    fn a_group_is_a_hit_only_with_every_unit_and_survives_a_truncated_tail() {
        let t = tempfile::tempdir().unwrap();
        let cache = ResultCache::open(t.path(), "opts").unwrap();
        assert!(cache.is_empty());
        let mut w = cache.writer("r1", 0).unwrap();
        w.write(&Record::Analysis(key("a"), analysis(2))).unwrap();
        w.write(&Record::Solved(key("a"), solved(1))).unwrap();
        w.write(&Record::Analysis(key("b"), analysis(1))).unwrap();
        w.write(&Record::Solved(key("b"), solved(0))).unwrap();
        w.flush().unwrap();
        drop(w);
        // A record cut in half at the end, as by a killed run.
        let seg = t.path().join("seg-r1-00000.bin");
        let mut bytes = std::fs::read(&seg).unwrap();
        let mut tail = bincode::serialize(&Record::Solved(key("a"), solved(0))).unwrap();
        tail.truncate(tail.len() / 2);
        bytes.extend(tail);
        std::fs::write(&seg, bytes).unwrap();

        let cache = ResultCache::open(t.path(), "opts").unwrap();
        assert!(cache.hit(&key("a")).is_none(), "unit 0 of `a` is missing");
        assert_eq!(cache.hit(&key("b")).unwrap().solved.len(), 1);
        // Taken out once used: a run analyses each content group once.
        assert!(cache.hit(&key("b")).is_none());
        // Other options: nothing is read, and the old segments go.
        let other = ResultCache::open(t.path(), "other").unwrap();
        assert!(other.is_empty());
        assert!(!seg.exists());
    }

    /// A group analysed again (an imported module changed) keeps its key: a later run's
    /// analysis wins, and only the units solved for it count.
    #[test]
    fn units_solved_for_an_earlier_analysis_are_not_mixed_in() {
        let t = tempfile::tempdir().unwrap();
        let cache = ResultCache::open(t.path(), "opts").unwrap();
        let read = |digest: u8| vec![("pkg.layers".to_string(), Some([digest; 32]))];
        let with = |modules| CachedAnalysis {
            modules,
            ..analysis(2)
        };
        let old = generation(&read(1));
        let new = generation(&read(2));
        assert_ne!(old, new);
        let mut w = cache.writer("r1", 0).unwrap();
        w.write(&Record::Analysis(key("a"), with(read(1)))).unwrap();
        for index in [0, 1] {
            let s = CachedSolved {
                generation: old,
                ..solved(index)
            };
            w.write(&Record::Solved(key("a"), s)).unwrap();
        }
        w.finish().unwrap();
        // The next run re-analysed `a` but solved only its unit 1 before it died.
        let mut w = cache.writer("r2", 0).unwrap();
        w.write(&Record::Analysis(key("a"), with(read(2)))).unwrap();
        let s = CachedSolved {
            generation: new,
            ..solved(1)
        };
        w.write(&Record::Solved(key("a"), s)).unwrap();
        w.finish().unwrap();
        let cache = ResultCache::open(t.path(), "opts").unwrap();
        assert!(
            cache.hit(&key("a")).is_none(),
            "unit 0 of the new analysis is missing"
        );
    }
}
