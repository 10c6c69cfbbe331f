//! The fault suite: a corpus generated to hurt (FIFOs, devices, 2 MB generated files,
//! symbolic products, budget-spending code, code CPython refuses), and runs that are killed,
//! interrupted, run twice at once or fail to write. Each case runs the real binary and reads
//! the real Parquet back.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Peak resident memory of the largest child waited for so far, in bytes.
fn children_peak_memory() -> u64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss as u64 * 1024
}

/// A function whose `view` multiplies 40 sums of symbolic dims: expanded, a polynomial of
/// degree 80 that Z3's preprocessing never finishes within its timeout.
fn symbolic_products() -> String {
    let dims: Vec<String> = (0..40).map(|i| format!("(h*{}+n)*(w+m)", i + 2)).collect();
    format!(
        "import torch\ndef f(x, y):\n    b, c, h, w = x.shape\n    n, m = y.shape\n    return x.view({})\n",
        dims.join(", ")
    )
}

/// Modules whose `forward`s loop long enough to spend the file's statement budget.
fn budget_spender() -> String {
    let mut src = String::from("import torch\nimport torch.nn as nn\n");
    for i in 0..400 {
        src.push_str(&format!(
            "class M{i}(nn.Module):\n    def forward(self, x):\n        for k in range(60):\n            x = x + 1\n            x = x * 2\n        return x\n"
        ));
    }
    src
}

#[test]
fn a_hostile_corpus_is_scanned_in_bounded_time_and_memory() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("corpus/repo");
    write(
        &repo,
        "bug.py",
        b"import torch\ny = torch.zeros(2, 3) @ torch.zeros(4, 5)\n",
    );
    let chain = |prefix: &str, link: &str, n: usize, end: &str| {
        format!(
            "import torch\nx = torch.zeros(2)\ny = {prefix}{}{end}\n",
            link.repeat(n)
        )
    };
    write(&repo, "unary.py", chain("", "-", 1_000_000, "x").as_bytes());
    write(
        &repo,
        "calls.py",
        chain("x", ".relu()", 280_000, "").as_bytes(),
    );
    write(&repo, "plus.py", chain("", "x + ", 450_000, "x").as_bytes());
    let nested = format!("x = {}{}\n", "[".repeat(500_000), "]".repeat(500_000));
    write(&repo, "nested.py", nested.as_bytes());
    write(&repo, "products.py", symbolic_products().as_bytes());
    write(&repo, "steps.py", budget_spender().as_bytes());
    write(&repo, "tabs.py", b"if x:\n\tpass\n        pass\n");
    write(&repo, "bom2.py", "\u{feff}\u{feff}x = 1\n".as_bytes());
    write(&repo, "cr.py", b"import torch\rx = 1\ry = 2\r");
    assert!(Command::new("mkfifo")
        .arg(repo.join("fifo.py"))
        .status()
        .unwrap()
        .success());
    // A character device under a Python name (root only: elsewhere the case is left out).
    let device = Command::new("mknod")
        .arg(repo.join("zero.py"))
        .args(["c", "1", "5"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());

    let out = t.path().join("report");
    let started = Instant::now();
    let output = Command::new(binary())
        .args(["scan", "-w", "2", "-q", "--no-site-packages", "-o"])
        .arg(&out)
        .arg(t.path().join("corpus"))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let peak = children_peak_memory();
    assert!(
        common::completed(&output.status),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
    assert!(peak < 1 << 30, "peak memory {peak} bytes");

    let files = read_table(&out, "files");
    let status = |p: &str| by_path(&files, &format!("repo/{p}"))["status"].clone();
    let expected = [
        ("bug.py", "ok"),
        // Deeper than CPython compiles or tokenizes: refused before parsing.
        ("unary.py", "parse_error"),
        ("calls.py", "parse_error"),
        ("plus.py", "parse_error"),
        ("nested.py", "parse_error"),
        ("products.py", "ok"),
        ("steps.py", "over_budget"),
        ("tabs.py", "parse_error"),
        ("bom2.py", "parse_error"),
        ("cr.py", "ok"),
        ("fifo.py", "skipped_not_regular"),
    ];
    for (path, want) in expected {
        assert_eq!(status(path), want, "{path}");
    }
    if device {
        assert_eq!(status("zero.py"), "skipped_not_regular");
    }
    assert_eq!(by_path(&files, "repo/cr.py")["lines"], "3");
    assert!(by_path(&files, "repo/tabs.py")["message"].contains("inconsistent use of tabs"));

    // Over budget is recorded on the jobs, never a finding; the real bug is still found.
    let jobs = read_table(&out, "jobs");
    assert!(
        jobs.iter().any(|j| j["path"] == "repo/steps.py"
            && j["result"] == "skipped"
            && j["skip_reason"].starts_with("budget:")),
        "no budget rows for steps.py"
    );
    let findings = read_table(&out, "findings");
    let paths: Vec<&str> = findings.iter().map(|f| f["path"].as_str()).collect();
    assert_eq!(paths, ["repo/bug.py"]);
}

/// Three files whose constraint jobs keep Z3 busy for several seconds each.
fn slow_corpus(root: &Path) -> PathBuf {
    let corpus = root.join("slow");
    for copy in 0..3 {
        let mut src = String::from("import torch\ndef f(x):\n    b, c, h, w = x.shape\n");
        for i in 0..40 {
            src.push_str(&format!(
                "    x = x.reshape(b*{}, c, h*w//{}+{}, -1)\n",
                i + 2 + copy,
                i + 2,
                i
            ));
        }
        src.push_str("    return x\n");
        write(&corpus, &format!("r/slow{copy}.py"), src.as_bytes());
    }
    corpus
}

fn start_slow_scan(corpus: &Path, out: &Path) -> Child {
    Command::new(binary())
        .args(["scan", "-q", "--no-site-packages", "--timeout-ms", "60000"])
        .args(["--job-budget-ms", "120000", "-o"])
        .arg(out)
        .arg(corpus)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The report as a reader sees it: every table's rows, and whether staging is left over.
fn snapshot(out: &Path) -> Vec<Vec<String>> {
    ["files", "op_calls", "jobs", "findings", "run"]
        .iter()
        .map(|t| canonical(&read_table(out, t), &[]))
        .collect()
}

fn previous_report(t: &Path) -> (PathBuf, Vec<Vec<String>>) {
    let out = t.join("report");
    let done = scan(&[&sample_corpus()], &out, &["--no-site-packages"]);
    assert!(common::completed(&done.status));
    let before = snapshot(&out);
    assert_eq!(before[4].len(), 1, "one run row");
    (out, before)
}

fn wait_with_deadline(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, sig) };
}

#[test]
fn a_killed_or_interrupted_run_leaves_the_previous_report_as_it_was() {
    let t = tempfile::tempdir().unwrap();
    let (out, before) = previous_report(t.path());
    let corpus = slow_corpus(t.path());

    // kill -9 while Z3 works: nothing of the new run is in the report.
    let mut run = start_slow_scan(&corpus, &out);
    std::thread::sleep(Duration::from_millis(1500));
    signal(&run, libc::SIGKILL);
    run.wait().unwrap();
    assert_eq!(snapshot(&out), before, "after kill -9");

    // Ctrl-C while Z3 works: the run ends within a second and says the report is unchanged.
    let mut run = start_slow_scan(&corpus, &out);
    std::thread::sleep(Duration::from_millis(1500));
    signal(&run, libc::SIGINT);
    let status = wait_with_deadline(&mut run, Duration::from_secs(1));
    let status = status.expect("Ctrl-C did not end the run within a second");
    assert_eq!(status.code(), Some(130));
    let mut stderr = String::new();
    std::io::Read::read_to_string(run.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.contains("interrupted") && stderr.contains("unchanged"),
        "{stderr}"
    );
    assert_eq!(snapshot(&out), before, "after Ctrl-C");
    assert!(!out.join(".staging-p0").exists(), "staging left behind");
}

#[test]
fn a_second_run_into_the_same_report_fails_at_once() {
    let t = tempfile::tempdir().unwrap();
    let (out, before) = previous_report(t.path());
    let mut first = start_slow_scan(&slow_corpus(t.path()), &out);
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let second = Command::new(binary())
        .args(["scan", "-q", "--no-site-packages", "-o"])
        .arg(&out)
        .arg(sample_corpus())
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(second.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("another scan is writing"), "{stderr}");
    signal(&first, libc::SIGKILL);
    first.wait().unwrap();
    assert_eq!(snapshot(&out), before);
}

#[test]
fn a_failing_disk_ends_the_run_and_keeps_the_previous_report() {
    let t = tempfile::tempdir().unwrap();
    let (out, before) = previous_report(t.path());
    let failed = Command::new(binary())
        .args(["scan", "-q", "--no-site-packages", "-w", "2", "-o"])
        .arg(&out)
        .arg(sample_corpus())
        .env("SHAPEHOUND_INJECT_WRITE_FAILURE", "op_calls")
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(
        stderr.contains("no space left on device") && stderr.contains("unchanged"),
        "{stderr}"
    );
    assert_eq!(snapshot(&out), before);
    assert!(!out.join(".staging-p0").exists(), "staging left behind");
}

#[test]
fn a_rename_failing_at_commit_ends_every_worker_and_says_the_report_is_incomplete() {
    let t = tempfile::tempdir().unwrap();
    let (out, _) = previous_report(t.path());
    // Worker 1's part of `findings` cannot be renamed onto a non-empty folder; worker 0's can.
    let blocker = out.join("findings").join("part-00001.parquet");
    let _ = std::fs::remove_file(&blocker);
    std::fs::create_dir_all(blocker.join("inside")).unwrap();
    let mut run = Command::new(binary())
        .args(["scan", "-q", "--no-site-packages", "-w", "2", "-o"])
        .arg(&out)
        .arg(sample_corpus())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_with_deadline(&mut run, Duration::from_secs(60));
    if status.is_none() {
        run.kill().unwrap();
    }
    let stderr = stderr_of(&mut run);
    assert_eq!(status.and_then(|s| s.code()), Some(3), "{stderr}");
    assert!(
        stderr.contains("part-00001.parquet") && stderr.contains("incomplete"),
        "{stderr}"
    );
    assert!(
        !out.join("run").join("part-00000.parquet").exists(),
        "a report whose commit failed has no run row"
    );
}

/// A hostfile for two processes on this machine, on ports unlikely to be taken.
fn hostfile(dir: &Path, salt: u16) -> PathBuf {
    let base = 30_000 + (std::process::id() % 5_000) as u16 * 6 + salt * 2;
    let path = dir.join(format!("hosts{salt}"));
    std::fs::write(&path, format!("127.0.0.1:{base}\n127.0.0.1:{}\n", base + 1)).unwrap();
    path
}

fn cluster_process(corpus: &Path, out: &Path, hosts: &Path, index: u32, extra: &[&str]) -> Child {
    Command::new(binary())
        .args(["scan", "-q", "--no-site-packages", "-n", "2", "--hostfile"])
        .arg(hosts)
        .args(["-p", &index.to_string(), "-o"])
        .arg(out)
        .args(extra)
        .arg(corpus)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut text).unwrap();
    text
}

#[test]
fn cluster_runs_keep_odd_names_and_fail_cleanly() {
    use std::os::unix::ffi::OsStrExt;
    let t = tempfile::tempdir().unwrap();
    // Two names that are not UTF-8 and differ only in their invalid byte.
    let corpus = t.path().join("odd");
    std::fs::create_dir_all(corpus.join("r")).unwrap();
    for (byte, op) in [(0xffu8, "zeros"), (0xfe, "ones")] {
        let mut name = b"a".to_vec();
        name.extend([byte]);
        name.extend(b".py");
        let path = corpus.join("r").join(std::ffi::OsStr::from_bytes(&name));
        std::fs::write(path, format!("import torch\nx = torch.{op}(2)\n")).unwrap();
    }
    let out = t.path().join("cluster");
    let hosts = hostfile(t.path(), 0);
    let mut second = cluster_process(&corpus, &out, &hosts, 1, &[]);
    let mut first = cluster_process(&corpus, &out, &hosts, 0, &[]);
    let limit = Duration::from_secs(60);
    let status = wait_with_deadline(&mut first, limit).expect("process 0 hung");
    assert!(common::completed(&status), "{}", stderr_of(&mut first));
    let status = wait_with_deadline(&mut second, limit).expect("process 1 hung");
    assert!(common::completed(&status), "{}", stderr_of(&mut second));
    let mut paths: Vec<String> = read_table(&out, "files")
        .iter()
        .map(|f| f["path"].clone())
        .collect();
    paths.sort();
    assert_eq!(paths, ["r/a\\xfe.py", "r/a\\xff.py"]);

    // A peer killed mid-run: the other ends at once, with a clear error, its report intact.
    let (out, before) = previous_report(t.path());
    let slow = slow_corpus(t.path());
    let hosts = hostfile(t.path(), 1);
    let long = ["--timeout-ms", "60000", "--job-budget-ms", "120000"];
    let mut second = cluster_process(&slow, &out, &hosts, 1, &long);
    let mut first = cluster_process(&slow, &out, &hosts, 0, &long);
    std::thread::sleep(Duration::from_millis(2500));
    signal(&second, libc::SIGKILL);
    second.wait().unwrap();
    let status = wait_with_deadline(&mut first, Duration::from_secs(10));
    let status = status.expect("the surviving process did not end within 10 s");
    assert_eq!(status.code(), Some(3));
    let stderr = stderr_of(&mut first);
    assert!(stderr.contains("lost the connection"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(snapshot(&out), before);

    // A peer that never comes: an error after --connect-timeout, not an endless wait.
    let hosts = hostfile(t.path(), 2);
    let mut alone = cluster_process(&slow, &out, &hosts, 0, &["--connect-timeout", "2"]);
    let status = wait_with_deadline(&mut alone, Duration::from_secs(15));
    assert_eq!(status.expect("waited forever").code(), Some(3));
    assert!(stderr_of(&mut alone).contains("did not connect within 2 s"));
    assert_eq!(snapshot(&out), before);
}

#[test]
fn ctrl_c_ends_a_check_at_once() {
    let t = tempfile::tempdir().unwrap();
    let corpus = slow_corpus(t.path());
    let mut check = Command::new(binary())
        .args(["check", "--no-site-packages", "--timeout-ms", "60000"])
        .args(["--job-budget-ms", "120000"])
        .arg(corpus.join("r/slow0.py"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    signal(&check, libc::SIGINT);
    let status = wait_with_deadline(&mut check, Duration::from_secs(1));
    assert_eq!(status.expect("still running").code(), Some(130));
}
