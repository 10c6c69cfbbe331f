//! Corpora that arrive packed, through the real binary: a folder of repositories, the same
//! repositories as archives (a wheel, a zip with a top folder, an sdist), and the same files
//! as a Parquet source dataset give the same `files`, `op_calls`, `op_counts` and `findings`
//! rows. Broken archives, broken datasets and bad rows get rows with statuses.

mod common;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use common::{canonical, read_table, scan};

const MODEL: &str = "\
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(x.view(-1, 6))


def demo():
    a = torch.zeros(2, 3)
    return torch.cat([a, a]) @ a
";

/// (repository, path inside it, bytes)
fn files() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    vec![
        ("alpha-1.0", "alpha/model.py", MODEL.as_bytes().to_vec()),
        ("alpha-1.0", "tests/test_model.py", b"import torch\nx = torch.ones(3)\n".to_vec()),
        ("alpha-1.0", "alpha/latin1.py", b"# caf\xe9\nx = 1\n".to_vec()),
        ("beta-2.0", "beta/copy.py", MODEL.as_bytes().to_vec()),
        ("beta-2.0", "beta/big.py", vec![b'#'; 3000]),
        ("gamma", "nb.ipynb", br#"{"cells": [{"cell_type": "code", "source": ["import torch\n", "torch.ones(2)\n"]}]}"#.to_vec()),
    ]
}

fn unpacked(dir: &Path) {
    for (repo, path, bytes) in files() {
        let p = dir.join(repo).join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

fn zip_repo(file: &Path, repo: &str, top: Option<&str>) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(file).unwrap());
    for (r, path, bytes) in files().into_iter().filter(|(r, _, _)| *r == repo) {
        let _ = r;
        let name = match top {
            Some(t) => format!("{t}/{path}"),
            None => path.to_string(),
        };
        w.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(&bytes).unwrap();
    }
    w.start_file("README.md", zip::write::SimpleFileOptions::default())
        .unwrap();
    w.write_all(b"not python").unwrap();
    w.finish().unwrap();
}

fn tar_gz_repo(file: &Path, repo: &str) {
    let gz =
        flate2::write::GzEncoder::new(std::fs::File::create(file).unwrap(), Default::default());
    let mut b = tar::Builder::new(gz);
    for (_, path, bytes) in files().into_iter().filter(|(r, _, _)| *r == repo) {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, format!("{repo}/{path}"), &bytes[..])
            .unwrap();
    }
    b.into_inner().unwrap().finish().unwrap();
}

fn archives(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    // A wheel has no top folder; its name carries more than name and version.
    zip_repo(&dir.join("alpha-1.0-py3-none-any.whl"), "alpha-1.0", None);
    tar_gz_repo(&dir.join("beta-2.0.tar.gz"), "beta-2.0");
    // A GitHub-style zip: one top folder named like the archive.
    zip_repo(&dir.join("gamma.zip"), "gamma", Some("gamma"));
}

fn parquet(file: &Path) {
    use arrow_array::{BinaryArray, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    let rows = files();
    let schema = Arc::new(Schema::new(vec![
        Field::new("repository", DataType::Utf8, true),
        Field::new("file_path", DataType::Utf8, true),
        Field::new("text", DataType::Binary, true),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.0))),
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.1))),
            Arc::new(BinaryArray::from_iter_values(
                rows.iter().map(|r| r.2.as_slice()),
            )),
        ],
    )
    .unwrap();
    // Compressed as public datasets often are (zstd), in row groups of two rows.
    let zstd = parquet::basic::Compression::ZSTD(Default::default());
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(2))
        .set_compression(zstd)
        .build();
    let mut w = parquet::arrow::ArrowWriter::try_new(
        std::fs::File::create(file).unwrap(),
        schema,
        Some(props),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

const TABLES: [(&str, &[&str]); 4] = [
    ("files", &["analysis_ms"]),
    ("op_calls", &[]),
    ("op_counts", &[]),
    ("findings", &["solve_us"]),
];

#[test]
fn archives_and_parquet_datasets_give_the_tables_of_the_unpacked_corpus() {
    let t = tempfile::tempdir().unwrap();
    let (folder, packed, dataset) = (
        t.path().join("folder"),
        t.path().join("packed"),
        t.path().join("d.parquet"),
    );
    unpacked(&folder);
    archives(&packed);
    parquet(&dataset);
    let limit = ["--max-file-size", "2000", "--no-site-packages", "-w", "2"];
    let reports: Vec<std::path::PathBuf> = ["r1", "r2", "r3"]
        .iter()
        .map(|r| t.path().join(r))
        .collect();
    scan(&[&folder], &reports[0], &limit);
    scan(&[&packed], &reports[1], &limit);
    let mut args = limit.to_vec();
    args.extend([
        "--parquet-source",
        dataset.to_str().unwrap(),
        "--parquet-columns",
        "repo=repository,path=file_path,content=text",
    ]);
    scan(&[], &reports[2], &args);
    let files = read_table(&reports[0], "files");
    assert_eq!(files.len(), 6);
    let status = |p: &str| files.iter().find(|f| f["path"] == p).unwrap()["status"].clone();
    assert_eq!(status("beta-2.0/beta/big.py"), "skipped_too_large");
    assert_eq!(status("alpha-1.0/alpha/latin1.py"), "not_utf8");
    assert!(
        !read_table(&reports[0], "findings").is_empty(),
        "the model's bug is found"
    );
    for (table, without) in TABLES {
        let folder_rows = canonical(&read_table(&reports[0], table), without);
        for r in &reports[1..] {
            assert_eq!(
                canonical(&read_table(r, table), without),
                folder_rows,
                "{table} of {}",
                r.display()
            );
        }
    }
}

#[test]
fn broken_archives_datasets_and_rows_get_statuses() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("corpus");
    archives(&root);
    std::fs::write(root.join("broken.zip"), b"PK\x03\x04 not a zip").unwrap();
    // A tarball cut in the middle: what was read before stands, then the archive's row.
    let whole = std::fs::read(root.join("beta-2.0.tar.gz")).unwrap();
    std::fs::write(root.join("cut-1.0.tar.gz"), &whole[..whole.len() / 2]).unwrap();
    let out = t.path().join("r");
    scan(&[&root], &out, &["--no-site-packages"]);
    let files = read_table(&out, "files");
    let row = |p: &str| {
        files
            .iter()
            .find(|f| f["path"] == p)
            .unwrap_or_else(|| panic!("{p}: {files:?}"))
            .clone()
    };
    let broken = row("broken.zip");
    assert_eq!(
        (broken["kind"].as_str(), broken["status"].as_str()),
        ("archive", "unreadable")
    );
    assert!(
        broken["message"].contains("cannot read the archive"),
        "{broken:?}"
    );
    let cut = row("cut-1.0.tar.gz");
    assert_eq!(
        (cut["kind"].as_str(), cut["status"].as_str()),
        ("archive", "unreadable")
    );

    // Datasets: a missing column is one row; null content and a row without a path are rows.
    let dataset = t.path().join("d.parquet");
    parquet(&dataset);
    let out = t.path().join("r2");
    scan(
        &[],
        &out,
        &[
            "--parquet-source",
            dataset.to_str().unwrap(),
            "--no-site-packages",
        ],
    );
    let files = read_table(&out, "files");
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        (files[0]["kind"].as_str(), files[0]["status"].as_str()),
        ("archive", "unreadable")
    );
    assert!(
        files[0]["message"].contains("no column `repo`"),
        "{files:?}"
    );

    use arrow_array::{RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    let schema = Arc::new(Schema::new(vec![
        Field::new("repo", DataType::Utf8, true),
        Field::new("path", DataType::Utf8, true),
        Field::new("content", DataType::Utf8, true),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from(vec![
                Some("r"),
                Some("r"),
                Some("r"),
                Some("r"),
            ])),
            Arc::new(StringArray::from(vec![
                Some("ok.py"),
                None,
                Some("null.py"),
                Some("notes.txt"),
            ])),
            Arc::new(StringArray::from(vec![
                Some("import torch\n"),
                Some("x"),
                None,
                Some("x"),
            ])),
        ],
    )
    .unwrap();
    let bad_rows = t.path().join("rows.parquet");
    let mut w = parquet::arrow::ArrowWriter::try_new(
        std::fs::File::create(&bad_rows).unwrap(),
        schema,
        None,
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let out = t.path().join("r3");
    scan(
        &[],
        &out,
        &[
            "--parquet-source",
            bad_rows.to_str().unwrap(),
            "--no-site-packages",
        ],
    );
    let mut got: Vec<(String, String)> = read_table(&out, "files")
        .into_iter()
        .map(|f| (f["path"].clone(), f["status"].clone()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            ("r/null.py".to_string(), "unreadable".to_string()),
            ("r/ok.py".to_string(), "ok".to_string()),
            ("rows.parquet#0:2".to_string(), "unreadable".to_string()),
        ]
    );
    // A dataset that is not a file: a usage error.
    let o = common::run(&[
        "scan",
        "--parquet-source",
        "/no/such.parquet",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}
