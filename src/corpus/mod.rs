//! Corpus: which repositories and files a run covers, and how each file's bytes become source
//! text (notebooks included). Nothing here parses Python.

pub mod dataset;
pub mod installed;
pub mod notebook;
pub mod packed;
pub mod roles;
pub mod selection;
pub mod source;
pub mod walk;

pub use source::{FileKind, FileStatus};
pub use walk::{
    discover_repos, walk_repo, DiscoveredFile, FolderNotEntered, RepoRoot, WalkOptions,
};
