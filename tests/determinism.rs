//! The same corpus gives the same rows whatever the number of workers or processes:
//! `-w 1`, `-w 2`, and two processes on 127.0.0.1 (`-n 2 -p 0|1 -h hostfile`), where
//! constraint jobs and solved results cross the process boundary.

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// Columns that measure the run rather than describe the corpus (and which worker solved a
/// job, which depends on timing).
const TIMING: &[&str] = &["analysis_ms", "solve_us", "worker"];

fn tables(report: &Path) -> Vec<(String, Vec<String>)> {
    ["files", "op_calls", "op_counts", "findings", "jobs"]
        .iter()
        .map(|t| (t.to_string(), canonical(&read_table(report, t), TIMING)))
        .collect()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_bounded(mut child: Child, limit: Duration) -> std::process::Output {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("cluster process did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn one_worker_two_workers_and_two_processes_write_the_same_rows() {
    same_rows_for_any_workers(&[]);
}

/// Module resolution is a join: its result, and so every table, is the same however the
/// files are spread over workers and processes.
#[test]
fn imports_followed_give_the_same_rows_for_any_workers() {
    same_rows_for_any_workers(&["--follow-imports", "--no-site-packages"]);
}

fn same_rows_for_any_workers(extra: &[&str]) {
    let t = tempfile::tempdir().unwrap();
    let corpus = sample_corpus();
    let w1 = t.path().join("w1");
    let w2 = t.path().join("w2");
    let with = |w: &'static str| [&["-w", w][..], extra].concat();
    scan(&[&corpus], &w1, &with("1"));
    scan(&[&corpus], &w2, &with("2"));

    let cluster = t.path().join("cluster");
    let hostfile = t.path().join("hosts.txt");
    std::fs::write(
        &hostfile,
        format!("127.0.0.1:{}\n127.0.0.1:{}\n", free_port(), free_port()),
    )
    .unwrap();
    let spawn = |index: &str| {
        Command::new(binary())
            .args([
                "scan",
                corpus.to_str().unwrap(),
                "-o",
                cluster.to_str().unwrap(),
                "--quiet",
                "--no-gitignore",
            ])
            .args([
                "-w",
                "1",
                "-n",
                "2",
                "-p",
                index,
                "--hostfile",
                hostfile.to_str().unwrap(),
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let p0 = spawn("0");
    let p1 = spawn("1");
    for out in [
        wait_bounded(p0, Duration::from_secs(120)),
        wait_bounded(p1, Duration::from_secs(120)),
    ] {
        assert!(
            common::completed(&out.status),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let one = tables(&w1);
    assert!(one.iter().all(|(_, rows)| !rows.is_empty()));
    assert_eq!(one, tables(&w2), "-w 1 and -w 2 differ");
    assert_eq!(one, tables(&cluster), "-w 1 and two processes differ");
    // Two workers, two part files per table; the run table is written once.
    for table in ["files", "findings", "jobs"] {
        let parts = std::fs::read_dir(cluster.join(table)).unwrap().count();
        assert_eq!(parts, 2, "{table}");
    }
    // Jobs were balanced over both processes' workers.
    let workers: std::collections::BTreeSet<String> = read_table(&cluster, "jobs")
        .iter()
        .map(|j| j["worker"].clone())
        .collect();
    assert_eq!(workers.len(), 2, "{workers:?}");
    let run = read_table(&cluster, "run");
    assert_eq!(run.len(), 1);
    assert_eq!(
        (run[0]["workers"].as_str(), run[0]["processes"].as_str()),
        ("2", "2")
    );
}

#[test]
fn a_smaller_rerun_leaves_no_stale_parts() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("r");
    scan(&[&sample_corpus()], &out, &["-w", "3"]);
    assert_eq!(std::fs::read_dir(out.join("op_calls")).unwrap().count(), 3);
    scan(&[&sample_corpus()], &out, &["-w", "1"]);
    assert_eq!(std::fs::read_dir(out.join("op_calls")).unwrap().count(), 1);
    let files = read_table(&out, "files");
    assert_eq!(files.len(), 30);
    assert_eq!(std::fs::read_dir(out.join("jobs")).unwrap().count(), 1);
}
