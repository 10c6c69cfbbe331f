//! Reports are replaced, never overwritten in place. A run writes its parts under
//! `OUT/.staging-p<process>/`; only when every worker of the run has written all of its parts
//! are they renamed into place. The `run` table is removed before the first rename and written
//! last, so a report with a `run` row is complete, and a run that fails or is interrupted
//! before committing leaves the previous report as it was. A lock per process
//! (`OUT/.lock-p<process>`) makes a second run into the same folder fail at once.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

use super::parquet::part_path;
use super::ReportError;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
    move |source| ReportError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// An exclusive lock on a report folder for one process of a run, released when dropped
/// (and by the kernel when the process dies, however it dies).
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
}

impl OutputLock {
    pub fn acquire(out: &Path, process: usize) -> Result<OutputLock, ReportError> {
        std::fs::create_dir_all(out).map_err(io(out))?;
        let path = out.join(format!(".lock-p{process}"));
        let file = File::create(&path).map_err(io(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(OutputLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(ReportError::Locked {
                out: out.display().to_string(),
                lock: path.display().to_string(),
            }),
            Err(std::fs::TryLockError::Error(source)) => Err(ReportError::Io {
                path: path.display().to_string(),
                source,
            }),
        }
    }
}

/// Where this process's parts are written until the run commits.
#[derive(Clone, Debug)]
pub struct Staging {
    pub out: PathBuf,
    pub dir: PathBuf,
}

impl Staging {
    /// A fresh staging folder (what a killed run left there is removed). Call with the
    /// output lock held.
    pub fn create(out: &Path, process: usize) -> Result<Staging, ReportError> {
        let dir = out.join(format!(".staging-p{process}"));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
        }
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        Ok(Staging {
            out: out.to_path_buf(),
            dir,
        })
    }

    /// Moves worker `worker`'s staged part of `table` into place (an atomic rename).
    pub fn commit_part(&self, table: &str, worker: usize) -> Result<(), ReportError> {
        let from = part_path(&self.dir, table, worker);
        let to = part_path(&self.out, table, worker);
        let folder = self.out.join(table);
        std::fs::create_dir_all(&folder).map_err(io(&folder))?;
        std::fs::rename(&from, &to).map_err(io(&to))
    }

    /// Removes the parts of `table` in the report whose worker index `remove` selects.
    pub fn remove_parts(
        &self,
        table: &str,
        remove: impl Fn(usize) -> bool,
    ) -> Result<(), ReportError> {
        let folder = self.out.join(table);
        let Ok(entries) = std::fs::read_dir(&folder) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let index = name
                .strip_prefix("part-")
                .and_then(|n| n.strip_suffix(".parquet"))
                .and_then(|n| n.parse::<usize>().ok());
            if index.is_some_and(&remove) {
                std::fs::remove_file(entry.path()).map_err(io(&entry.path()))?;
            }
        }
        Ok(())
    }

    /// Removes the staging folder and whatever is in it (best effort: nothing else reads it).
    pub fn discard(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a run has done to its report folder, for a signal or a fatal error that ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Writing staged parts: the previous report is untouched.
    Writing = 0,
    /// Renaming parts into place (milliseconds): an interruption waits for it to end.
    Committing = 1,
    /// The report is complete.
    Committed = 2,
}

static PHASE: AtomicU8 = AtomicU8::new(Phase::Writing as u8);

pub fn set_phase(phase: Phase) {
    PHASE.store(phase as u8, Ordering::SeqCst);
}

pub fn phase() -> Phase {
    match PHASE.load(Ordering::SeqCst) {
        0 => Phase::Writing,
        1 => Phase::Committing,
        _ => Phase::Committed,
    }
}

/// Ends the process at once, for a signal or a failure no worker can recover from: what is
/// staged is discarded, a commit under way is waited out, the message says what state the
/// report is in. Other threads may be inside Z3 or writing: nothing of theirs is unwound.
pub fn abandon(staging: &Staging, reason: &str, code: i32) -> ! {
    while phase() == Phase::Committing {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let state = match phase() {
        Phase::Writing => {
            staging.discard();
            format!(
                "the previous report in `{}` is unchanged",
                staging.out.display()
            )
        }
        _ => format!("the report in `{}` is complete", staging.out.display()),
    };
    eprintln!("error: {reason}; {state}");
    // SAFETY: `_exit` ends the process without running atexit handlers or destructors,
    // which other threads (Z3 among them) may still be using.
    unsafe { libc::_exit(code) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_folder_fails_and_a_released_one_is_free() {
        let t = tempfile::tempdir().unwrap();
        let first = OutputLock::acquire(t.path(), 0).unwrap();
        let second = OutputLock::acquire(t.path(), 0).unwrap_err();
        assert!(matches!(second, ReportError::Locked { .. }), "{second}");
        assert!(second.to_string().contains("another scan"), "{second}");
        // Another process index of the same cluster run has its own lock.
        let other = OutputLock::acquire(t.path(), 1);
        assert!(other.is_ok());
        drop(first);
        assert!(OutputLock::acquire(t.path(), 0).is_ok());
    }

    #[test]
    fn committing_moves_staged_parts_and_leftovers_are_cleared() {
        let t = tempfile::tempdir().unwrap();
        let staging = Staging::create(t.path(), 0).unwrap();
        std::fs::create_dir_all(staging.dir.join("files")).unwrap();
        std::fs::write(part_path(&staging.dir, "files", 3), b"new").unwrap();
        std::fs::create_dir_all(t.path().join("files")).unwrap();
        std::fs::write(part_path(t.path(), "files", 3), b"old").unwrap();
        std::fs::write(part_path(t.path(), "files", 9), b"stale").unwrap();
        staging.commit_part("files", 3).unwrap();
        staging.remove_parts("files", |i| i >= 4).unwrap();
        assert_eq!(
            std::fs::read(part_path(t.path(), "files", 3)).unwrap(),
            b"new"
        );
        assert!(!part_path(t.path(), "files", 9).exists());
        // A leftover staging folder (a killed run) is cleared by the next run.
        std::fs::write(staging.dir.join("junk"), b"x").unwrap();
        let again = Staging::create(t.path(), 0).unwrap();
        assert!(!again.dir.join("junk").exists());
        again.discard();
        assert!(!again.dir.exists());
    }
}
