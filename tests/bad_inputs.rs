//! Bad input never stops a run and never disappears: each case is a real file in a corpus
//! built here, scanned by the real binary, and read back from Parquet.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

#[test]
fn every_bad_input_gets_a_row_and_the_run_goes_on() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("corpus");
    let repo = corpus.join("repo");
    write(&repo, "ok.py", b"import torch\nx = torch.zeros(2)\n");
    write(&repo, "binary.py", &[0u8, 159, 146, 150, 0xff, 0xfe, 0, 1]);
    write(&repo, "syntax.py", b"def f(:\n    pass\n");
    write(&repo, "nb_bad.ipynb", b"{\"cells\": [");
    write(&repo, "nb_list.ipynb", b"[1, 2, 3]");
    write(&repo, "panics.py", b"import torch\ntorch.ones(1)\n");
    write(&repo, "big.py", &vec![b'#'; 1_600_000]);
    let depth = 10_000;
    let deep = format!("x = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
    write(&repo, "deep.py", deep.as_bytes());
    let long: String = (0..100_000).map(|i| format!("v{i} = {i}\n")).collect();
    write(&repo, "long.py", long.as_bytes());
    write(
        &t.path().join("outside"),
        "secret.py",
        b"import torch\ntorch.kron(a, b)\n",
    );
    std::os::unix::fs::symlink(t.path().join("outside/secret.py"), repo.join("escape.py")).unwrap();
    std::os::unix::fs::symlink(t.path().join("outside"), repo.join("escape_dir")).unwrap();
    std::os::unix::fs::symlink(repo.join("missing.py"), repo.join("dangling.py")).unwrap();
    std::os::unix::fs::symlink(&repo, repo.join("loop")).unwrap();
    // A link to the corpus root at its top level: a loop, not a second copy of the corpus.
    std::os::unix::fs::symlink(&corpus, corpus.join("root_loop")).unwrap();
    // A FIFO under a Python name: opening it would wait for a writer forever.
    let fifo = Command::new("mkfifo")
        .arg(repo.join("fifo.py"))
        .status()
        .unwrap();
    assert!(fifo.success());

    let out = t.path().join("report");
    let output = Command::new(binary())
        .args([
            "scan",
            corpus.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .args(["--max-file-size", "1500000"])
        .env("SHAPEHOUND_INJECT_PANIC", "panics.py")
        .output()
        .unwrap();
    assert!(
        common::completed(&output.status),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let files = read_table(&out, "files");
    let status = |p: &str| by_path(&files, &format!("repo/{p}"))["status"].clone();
    assert_eq!(status("ok.py"), "ok");
    assert_eq!(status("binary.py"), "not_utf8");
    assert_eq!(status("syntax.py"), "parse_error");
    assert_eq!(status("nb_bad.ipynb"), "notebook_not_json");
    assert_eq!(status("nb_list.ipynb"), "notebook_not_json");
    assert_eq!(status("panics.py"), "internal_error");
    assert_eq!(status("big.py"), "skipped_too_large");
    // Nested deeper than CPython's tokenizer allows (200 levels): refused as CPython does.
    assert_eq!(status("deep.py"), "parse_error");
    assert_eq!(status("long.py"), "ok");
    assert_eq!(status("escape.py"), "skipped_symlink");
    assert_eq!(status("dangling.py"), "unreadable");
    assert_eq!(status("fifo.py"), "skipped_not_regular");
    // A folder leaving the root is not entered, and says so.
    let escaped = by_path(&files, "repo/escape_dir");
    assert_eq!(
        (escaped["kind"].as_str(), escaped["status"].as_str()),
        ("folder", "skipped_symlink")
    );
    let panicked = by_path(&files, "repo/panics.py");
    assert!(
        panicked["message"].contains("injected panic"),
        "{panicked:?}"
    );
    let long_row = by_path(&files, "repo/long.py");
    assert_eq!(long_row["lines"], "100000");
    assert_eq!(
        files.len(),
        13,
        "{:#?}",
        files.iter().map(|f| &f["path"]).collect::<Vec<_>>()
    );
    // Nothing from outside the root, nothing twice through the loop.
    let calls = read_table(&out, "op_calls");
    assert!(calls.iter().all(|c| c["operator"] != "torch.kron"));
    assert_eq!(
        calls
            .iter()
            .filter(|c| c["operator"] == "torch.zeros")
            .count(),
        1
    );
    // The loop is reported, once, as a warning.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning:") && stderr.contains("loop"),
        "{stderr}"
    );
}

fn usage_error(args: &[&str]) -> String {
    let output = run(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {stderr}"
    );
    assert!(stderr.starts_with("error"), "{stderr}");
    stderr
}

#[test]
fn bad_arguments_give_one_line_and_exit_code_2() {
    usage_error(&["scan"]);
    usage_error(&["scan", "corpus/sample", "--frobnicate"]);
    usage_error(&["scan", "corpus/sample", "-w", "zero"]);
    usage_error(&["scan", "corpus/sample", "-w", "0"]);
    usage_error(&["bogus-command"]);
    let msg = usage_error(&["scan", "/definitely/not/here"]);
    assert!(msg.contains("does not exist"), "{msg}");
    let msg = usage_error(&["scan", "corpus/sample", "--count-mode", "teosc"]);
    assert!(msg.contains("--op-list"), "{msg}");
    usage_error(&[
        "scan",
        "corpus/sample",
        "--count-mode",
        "teosc",
        "--op-list",
        "/no/such/list.txt",
    ]);
    usage_error(&["scan", "corpus/sample", "--count-mode", "approximate"]);
    usage_error(&["scan", "corpus/sample", "--max-file-size", "huge"]);
    usage_error(&[
        "scan",
        "corpus/sample",
        "-n",
        "2",
        "-p",
        "5",
        "--hostfile",
        "hosts",
    ]);
    usage_error(&["scan", "corpus/sample", "-n", "2", "-p", "0"]);
}

#[test]
fn help_and_version_succeed() {
    for flag in ["--help", "-h"] {
        let help = run(&["scan", flag]);
        assert!(help.status.success());
        assert!(String::from_utf8_lossy(&help.stdout).contains("--count-mode"));
    }
    assert!(run(&["--version"]).status.success());
}

/// `check` lists a FIFO named like a Python file as not read, and finishes (bounded: the
/// test kills it after 60 s).
#[test]
fn check_never_opens_a_fifo() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "ok.py", b"import torch\nx = torch.zeros(2)\n");
    let fifo = t.path().join("x.py");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut child = Command::new(binary())
        .args(["check", t.path().to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("check did not finish with a FIFO in the folder");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("a FIFO, not a regular file"), "{stderr}");
}
