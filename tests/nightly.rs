//! What a platform team's nightly and pull-request runs rely on, through the real binary:
//! finding ids that survive edits, `--baseline`, inline suppressions, exit codes.

mod common;

use std::path::Path;

use common::{read_table, run, Row};

const MODEL: &str = "\
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, d, out):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(d, out)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        return self.fc2(h)


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 8, 3)
        self.d = nn.Conv2d(16, 8, 3)

    def forward(self, x):
        return self.d(self.c(x))
";

/// The night's edits: lines shifted, an unrelated comment, the `Conv` bug fixed, a new bug.
fn edited() -> String {
    let mut s = format!("# header added\n# and another line\n\n{MODEL}");
    s = s.replace(
        "        h = torch.relu(self.fc1(x))\n",
        "        # an unrelated comment\n        h = torch.relu(self.fc1(x))\n",
    );
    s = s.replace("nn.Conv2d(16, 8, 3)", "nn.Conv2d(8, 8, 3)");
    s.push_str("\n\ndef flatten_bad():\n    x = torch.zeros(4, 6)\n    return x.view(5, 5)\n");
    s
}

fn repo(dir: &Path, text: &str) -> std::path::PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join("model.py"), text).unwrap();
    repo
}

fn scan(root: &Path, out: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "scan".to_string(),
        root.display().to_string(),
        "-o".to_string(),
        out.display().to_string(),
        "--no-site-packages".to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&argv);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), text)
}

fn errors(report: &Path) -> Vec<Row> {
    read_table(report, "findings")
        .into_iter()
        .filter(|r| r["severity"] == "error")
        .collect()
}

#[test]
fn a_baseline_sees_exactly_the_new_and_the_fixed_finding() {
    let t = tempfile::tempdir().unwrap();
    let root = repo(t.path(), MODEL);
    let night = t.path().join("night");
    let (code, out) = scan(&root, &night, &["-w", "2"]);
    assert_eq!(code, 1, "findings exit 1: {out}");
    let before = errors(&night);
    assert_eq!(before.len(), 2, "{before:?}");

    std::fs::write(root.join("model.py"), edited()).unwrap();
    // Spelt differently and with another worker count: the ids do not care.
    let spelt = format!("{}/./", root.display());
    let pr = t.path().join("pr");
    let (code, out) = scan(
        Path::new(&spelt),
        &pr,
        &["-w", "1", "--baseline", night.to_str().unwrap()],
    );
    assert_eq!(code, 1, "one new finding: {out}");
    assert!(out.contains("1 new, 1 unchanged, 1 fixed"), "{out}");
    let after = errors(&pr);
    let state = |kind: &str| {
        let r = after.iter().find(|r| r["kind"] == kind).unwrap();
        (r["baseline"].clone(), r["id"].clone())
    };
    let mlp = before
        .iter()
        .find(|r| r["kind"] == "feature-mismatch")
        .unwrap();
    assert_eq!(
        state("feature-mismatch"),
        ("unchanged".into(), mlp["id"].clone())
    );
    assert_eq!(state("reshape-numel").0, "new");
    let fixed = read_table(&pr, "fixed");
    assert_eq!(fixed.len(), 1, "{fixed:?}");
    assert_eq!(fixed[0]["kind"], "channel-mismatch");
    let run_row = &read_table(&pr, "run")[0];
    assert_eq!(
        (
            run_row["findings_new"].as_str(),
            run_row["findings_fixed"].as_str()
        ),
        ("1", "1")
    );

    // A later run into the same folder without a baseline leaves no stale `fixed` table.
    let (code, out) = scan(&root, &pr, &[]);
    assert_eq!(code, 1, "{out}");
    let parts = std::fs::read_dir(pr.join("fixed")).map_or(0, |d| d.count());
    assert_eq!(parts, 0);
    assert_eq!(read_table(&pr, "run")[0]["findings_new"], "null");

    // The new finding fixed too: nothing new, exit 0, though one old finding remains.
    std::fs::write(
        root.join("model.py"),
        edited().replace("x.view(5, 5)", "x.view(6, 4)"),
    )
    .unwrap();
    let (code, out) = scan(
        &root,
        &t.path().join("pr2"),
        &["--baseline", night.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}");
    // `check` names the same findings by the same ids.
    let checked = run(&[
        "check",
        "--format",
        "json",
        "--no-site-packages",
        root.join("model.py").to_str().unwrap(),
    ]);
    let json: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
    let ids: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [mlp["id"].as_str()]);
}

#[test]
fn suppressed_findings_stay_flagged_and_unused_suppressions_are_reported() {
    let t = tempfile::tempdir().unwrap();
    let text = MODEL
        .replace(
            "        return self.fc2(h)\n",
            "        return self.fc2(h)  # shapehound: ignore[feature-mismatch]\n",
        )
        .replace(
            "        return self.d(self.c(x))\n",
            "        return self.d(self.c(x))  # shapehound: ignore[reshape-numel]\n",
        )
        .replace("import torch\n", "import torch  # shapehound: ignore\n");
    let root = repo(t.path(), &text);
    let out = t.path().join("r");
    let (code, printed) = scan(&root, &out, &[]);
    assert_eq!(code, 1, "the channel mismatch is not suppressed: {printed}");
    assert!(printed.contains("1 suppressed"), "{printed}");
    let rows = read_table(&out, "findings");
    let flagged: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["kind"].clone(),
                r["severity"].clone(),
                r["suppressed"].clone(),
            )
        })
        .collect();
    let mut flagged = flagged;
    flagged.sort();
    assert_eq!(
        flagged,
        [
            ("channel-mismatch".into(), "error".into(), "false".into()),
            ("feature-mismatch".into(), "error".into(), "true".into()),
            (
                "unused-suppression".into(),
                "warning".into(),
                "false".into()
            ),
            (
                "unused-suppression".into(),
                "warning".into(),
                "false".into()
            ),
        ]
    );
    let run_row = &read_table(&out, "run")[0];
    assert_eq!(
        (
            run_row["findings"].as_str(),
            run_row["findings_suppressed"].as_str(),
            run_row["warnings"].as_str()
        ),
        ("1", "1", "2")
    );

    // Every finding suppressed: exit 0, and `check` agrees.
    let all = text.replace(
        "        return self.d(self.c(x))  # shapehound: ignore[reshape-numel]\n",
        "        return self.d(self.c(x))  # noqa\n",
    );
    std::fs::write(root.join("model.py"), all).unwrap();
    let (code, printed) = scan(&root, &t.path().join("r2"), &[]);
    assert_eq!(code, 0, "{printed}");
    let checked = run(&[
        "check",
        "--no-site-packages",
        root.join("model.py").to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&checked.stdout);
    let stderr = String::from_utf8_lossy(&checked.stderr);
    assert_eq!(checked.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("0 findings in 1 file (2 suppressed)"),
        "{stdout}"
    );
    assert!(
        stderr.contains(":1: unused suppression `# shapehound: ignore`"),
        "{stderr}"
    );
}

#[test]
fn exit_codes_are_the_same_for_both_commands() {
    let t = tempfile::tempdir().unwrap();
    let root = repo(t.path(), MODEL);
    let file = root.join("model.py");
    let file = file.to_str().unwrap();
    let code = |args: &[&str]| run(args).status.code();
    // Findings: 1; --exit-zero: 0.
    assert_eq!(code(&["check", "--no-site-packages", file]), Some(1));
    assert_eq!(
        code(&["check", "--no-site-packages", "--exit-zero", file]),
        Some(0)
    );
    let (c, out) = scan(&root, &t.path().join("a"), &["--exit-zero", "-q"]);
    assert_eq!(c, 0, "{out}");
    // A file that does not parse: 1 for both.
    let broken = t.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("x.py"), "def f(:\n").unwrap();
    assert_eq!(
        code(&[
            "check",
            "--no-site-packages",
            broken.join("x.py").to_str().unwrap()
        ]),
        Some(1)
    );
    let (c, out) = scan(&broken, &t.path().join("b"), &["-q"]);
    assert_eq!(c, 1, "{out}");
    // A clean project: 0.
    std::fs::write(broken.join("x.py"), "import torch\nx = torch.zeros(2, 3)\n").unwrap();
    let (c, out) = scan(&broken, &t.path().join("c"), &["-q"]);
    assert_eq!(c, 0, "{out}");
    // Usage: 2, for a baseline that is not a report too.
    let not_a_report = t.path().join("nothing");
    std::fs::create_dir_all(&not_a_report).unwrap();
    let (c, out) = scan(
        &root,
        &t.path().join("d"),
        &["--baseline", not_a_report.to_str().unwrap()],
    );
    assert_eq!(c, 2, "{out}");
    assert!(out.contains("is not a scan report"), "{out}");
    assert_eq!(
        code(&["check", "--baseline", not_a_report.to_str().unwrap(), file]),
        Some(2)
    );
    assert_eq!(code(&["scan", "--no-such-flag", "x"]), Some(2));
    // I/O failure: 3 (the report path is a file).
    let blocked = t.path().join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let (c, out) = scan(&root, &blocked, &[]);
    assert_eq!(c, 3, "{out}");
}

#[test]
fn configuration_is_found_upward_and_applied_with_flags_winning() {
    let t = tempfile::tempdir().unwrap();
    let root = repo(t.path(), MODEL);
    std::fs::create_dir_all(root.join("gen")).unwrap();
    std::fs::create_dir_all(root.join("vendored")).unwrap();
    std::fs::write(root.join("gen/copy.py"), MODEL).unwrap();
    std::fs::write(root.join("vendored/copy.py"), MODEL).unwrap();
    std::fs::write(root.join(".gitignore"), "vendored/\n").unwrap();
    std::fs::write(
        root.join("pyproject.toml"),
        "[project]\nname = \"m\"\n\n[tool.shapehound]\nexclude = [\"gen\"]\nignore = [\"channel-mismatch\"]\nworkers = 1\n",
    )
    .unwrap();
    let out = t.path().join("r");
    // Scanning a folder below the configuration: it is found upward.
    let (code, printed) = scan(&root, &out, &["-q"]);
    assert_eq!(code, 1, "{printed}");
    let files: Vec<String> = read_table(&out, "files")
        .into_iter()
        .map(|r| r["path"].clone())
        .collect();
    assert_eq!(
        files,
        ["model.py"],
        "gen/ excluded, vendored/ ignored by git"
    );
    let kinds: Vec<String> = errors(&out)
        .into_iter()
        .map(|r| r["kind"].clone())
        .collect();
    assert_eq!(kinds, ["feature-mismatch"]);
    assert_eq!(read_table(&out, "run")[0]["workers"], "1");
    // Flags win; --no-gitignore and --no-config bring the files back.
    let (_, printed) = scan(&root, &out, &["-q", "-w", "2", "--no-gitignore"]);
    let mut files: Vec<String> = read_table(&out, "files")
        .into_iter()
        .map(|r| r["path"].clone())
        .collect();
    files.sort();
    assert_eq!(files, ["model.py", "vendored/copy.py"], "{printed}");
    assert_eq!(read_table(&out, "run")[0]["workers"], "2");
    let checked = run(&[
        "check",
        "--no-site-packages",
        "--no-config",
        "--format",
        "json",
        root.to_str().unwrap(),
    ]);
    let json: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
    assert_eq!(json["files"], 2, "gen/copy.py and model.py: {json}");
    assert_eq!(json["findings"].as_array().unwrap().len(), 4, "{json}");

    // A bad key or value: exit 2, the file and the key named, for both commands.
    std::fs::write(
        root.join("pyproject.toml"),
        "[tool.shapehound]\nselect = [\"feature-mismatch\", \"typo-kind\"]\n",
    )
    .unwrap();
    let (code, printed) = scan(&root, &out, &[]);
    assert_eq!(code, 2, "{printed}");
    assert!(
        printed.contains("pyproject.toml")
            && printed.contains("`select`: unknown finding kind `typo-kind`"),
        "{printed}"
    );
    let checked = run(&["check", root.join("model.py").to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(2));
    std::fs::write(root.join("shapehound.toml"), "timeout_ms = 5\n").unwrap();
    let checked = run(&["check", root.join("model.py").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&checked.stderr);
    assert_eq!(checked.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("shapehound.toml") && stderr.contains("unknown field `timeout_ms`"),
        "{stderr}"
    );
}

#[test]
fn sarif_json_and_github_carry_suppressions_and_baseline_states() {
    let t = tempfile::tempdir().unwrap();
    let text = MODEL
        .replace(
            "        return self.fc2(h)\n",
            "        return self.fc2(h)  # shapehound: ignore[feature-mismatch]\n",
        )
        .replace("import torch\n", "import torch  # shapehound: ignore\n");
    let root = repo(t.path(), &text);
    let file = root.join("model.py");
    let file = file.to_str().unwrap();
    let out = |format: &str| {
        let o = run(&["check", "--no-site-packages", "--format", format, file]);
        assert_eq!(o.status.code(), Some(1), "the channel mismatch counts");
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let sarif: serde_json::Value = serde_json::from_str(&out("sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let suppressed: Vec<(&str, bool)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap(),
                r.get("suppressions").is_some(),
            )
        })
        .collect();
    assert_eq!(
        suppressed,
        [("feature-mismatch", true), ("channel-mismatch", false)]
    );
    let json: serde_json::Value = serde_json::from_str(&out("json")).unwrap();
    let unused = json["unused_suppressions"].as_array().unwrap();
    assert_eq!((unused.len(), unused[0]["line"].as_u64()), (1, Some(1)));
    let github = out("github");
    assert_eq!(github.matches("::error ").count(), 1, "{github}");
    assert!(
        github.contains("::warning file=") && github.contains("title=unused-suppression"),
        "{github}"
    );

    // Against a baseline of itself, every finding is unchanged.
    let night = t.path().join("night");
    let (_, printed) = scan(&root, &night, &["-q"]);
    let o = run(&[
        "check",
        "--no-site-packages",
        "--format",
        "sarif",
        "--baseline",
        night.to_str().unwrap(),
        file,
    ]);
    assert_eq!(o.status.code(), Some(0), "{printed}");
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let states: Vec<Option<&str>> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["baselineState"].as_str())
        .collect();
    // The suppressed finding has no state: the baseline holds only findings that count.
    assert_eq!(states, [None, Some("unchanged")]);
}

/// A table's rows without what differs between any two runs (timings, the worker).
fn stable(report: &Path, table: &str) -> Vec<String> {
    common::canonical(
        &read_table(report, table),
        &["analysis_ms", "solve_us", "worker"],
    )
}

#[test]
fn a_rescan_reuses_what_did_not_change_and_writes_the_tables_of_a_full_scan() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("corpus");
    for repo in ["shape_bugs", "vision_nets", "nlp_playground"] {
        common::copy_tree(&common::sample_corpus().join(repo), &corpus.join(repo));
    }
    let out = t.path().join("nightly");
    let (code, printed) = scan(&corpus, &out, &["-q"]);
    assert!(matches!(code, 0 | 1), "{printed}");
    assert!(out.join(".cache/manifest.json").is_file());
    let first = read_table(&out, "files");

    // One file edited (lines shifted), one added, one removed.
    let edited = corpus.join("shape_bugs/classify.py");
    let text = std::fs::read_to_string(&edited).unwrap();
    std::fs::write(&edited, format!("# edited\n{text}")).unwrap();
    std::fs::write(
        corpus.join("shape_bugs/added.py"),
        "import torch\nx = torch.zeros(2, 3).view(4)\n",
    )
    .unwrap();
    std::fs::remove_file(corpus.join("shape_bugs/pooling.py")).unwrap();
    let (code, printed) = scan(&corpus, &out, &["-q", "-w", "1"]);
    assert!(matches!(code, 0 | 1), "{printed}");
    let full = t.path().join("full");
    let (code, printed) = scan(&corpus, &full, &["-q", "--no-cache"]);
    assert!(matches!(code, 0 | 1), "{printed}");
    assert!(!full.join(".cache").exists());
    for table in ["files", "op_calls", "op_counts", "findings", "jobs"] {
        assert_eq!(stable(&out, table), stable(&full, table), "{table}");
    }
    // Reused analyses keep the time they took when computed; the edited file was analysed again.
    let again = read_table(&out, "files");
    let micros = |rows: &[Row], path: &str| {
        rows.iter()
            .find(|r| r["path"] == path)
            .map(|r| r["analysis_ms"].clone())
    };
    let unchanged: Vec<&str> = first
        .iter()
        .map(|r| r["path"].as_str())
        .filter(|p| {
            p.ends_with(".py") && *p != "shape_bugs/classify.py" && *p != "shape_bugs/pooling.py"
        })
        .collect();
    assert!(unchanged.len() >= 5, "{unchanged:?}");
    for p in &unchanged {
        assert_eq!(
            micros(&first, p),
            micros(&again, p),
            "{p} was analysed again"
        );
    }
    assert_ne!(
        micros(&first, "shape_bugs/classify.py"),
        micros(&again, "shape_bugs/classify.py")
    );
    // A rescan that changes nothing reads no file's text again and writes no segment.
    let segments = || {
        std::fs::read_dir(out.join(".cache"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with("seg-")
            })
            .count()
    };
    let before = segments();
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let (code, printed) = scan(&corpus, &out, &["-q", "-w", "1"]);
    assert!(matches!(code, 0 | 1), "{printed}");
    assert_eq!(stable(&out, "files"), stable(&full, "files"));
    assert_eq!(segments(), before);
}

const LAYERS: &str = "\
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 16)

    def forward(self, x):
        return self.fc(x)
";

const NET: &str = "\
import torch
import torch.nn as nn

from .layers import Block


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.block(x))


def build():
    return Net()(torch.randn(2, 8))
";

/// With imports followed, a cached analysis holds while the modules it read are unchanged:
/// an edit elsewhere in the repository reuses it, an edit of an imported module does not.
/// Identical files in two packages are analysed each with its own neighbours.
#[test]
fn a_rescan_with_imports_followed_analyses_again_what_read_an_edited_module() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("corpus");
    let repo = corpus.join("proj");
    for (package, width) in [("pkg", 16), ("twin", 12)] {
        std::fs::create_dir_all(repo.join(package)).unwrap();
        std::fs::write(repo.join(package).join("__init__.py"), "").unwrap();
        let layers = LAYERS.replace("Linear(8, 16)", &format!("Linear(8, {width})"));
        std::fs::write(repo.join(package).join("layers.py"), layers).unwrap();
        std::fs::write(repo.join(package).join("model.py"), NET).unwrap();
    }
    std::fs::write(
        repo.join("pkg/other.py"),
        "import torch\ny = torch.zeros(3)\n",
    )
    .unwrap();
    let out = t.path().join("nightly");
    let follow = ["-q", "--follow-imports"];
    let failing = |report: &Path| -> Vec<String> {
        let mut paths: Vec<String> = errors(report).iter().map(|r| r["path"].clone()).collect();
        paths.sort();
        paths
    };
    let analysed_ms = |report: &Path, path: &str| {
        read_table(report, "files")
            .into_iter()
            .find(|r| r["path"] == path)
            .map(|r| r["analysis_ms"].clone())
            .unwrap()
    };
    let (code, printed) = scan(&corpus, &out, &follow);
    assert_eq!(code, 1, "{printed}");
    assert_eq!(failing(&out), ["proj/twin/model.py"]);
    let first = analysed_ms(&out, "proj/pkg/model.py");

    // Another module of the package edited: the model's analysis is reused.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    std::fs::write(
        repo.join("pkg/other.py"),
        "import torch\ny = torch.ones(3)\n",
    )
    .unwrap();
    let (code, printed) = scan(&corpus, &out, &follow);
    assert_eq!(code, 1, "{printed}");
    assert_eq!(analysed_ms(&out, "proj/pkg/model.py"), first);

    // The module it imports edited: analysed again, and the new bug is found.
    let layers = LAYERS.replace("Linear(8, 16)", "Linear(8, 12)");
    std::fs::write(repo.join("pkg/layers.py"), layers).unwrap();
    let (code, printed) = scan(&corpus, &out, &follow);
    assert_eq!(code, 1, "{printed}");
    assert_eq!(failing(&out), ["proj/pkg/model.py", "proj/twin/model.py"]);
    let full = t.path().join("full");
    let (code, printed) = scan(&corpus, &full, &[&follow[..], &["--no-cache"]].concat());
    assert_eq!(code, 1, "{printed}");
    for table in ["files", "op_calls", "op_counts", "findings", "jobs"] {
        assert_eq!(stable(&out, table), stable(&full, table), "{table}");
    }
}

#[test]
fn a_run_that_fails_leaves_its_results_in_the_cache() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("corpus");
    common::copy_tree(
        &common::sample_corpus().join("shape_bugs"),
        &corpus.join("shape_bugs"),
    );
    let out = t.path().join("r");
    let failed = common::binary();
    let failed = std::process::Command::new(failed)
        .args([
            "scan",
            corpus.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-q",
            "-w",
            "1",
        ])
        .env("SHAPEHOUND_INJECT_WRITE_FAILURE", "op_calls")
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(3));
    let cached: u64 = std::fs::read_dir(out.join(".cache"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().starts_with("seg-"))
        .map(|e| e.metadata().unwrap().len())
        .sum();
    assert!(cached > 0, "the failed run's results are kept");
    let (code, printed) = scan(&corpus, &out, &["-q", "-w", "1"]);
    assert!(matches!(code, 0 | 1), "{printed}");
}

#[test]
fn a_cache_that_cannot_be_used_is_a_warning_and_the_scan_goes_on() {
    let t = tempfile::tempdir().unwrap();
    let root = repo(t.path(), MODEL);
    // A file where the cache's folder should be.
    let blocked = t.path().join("cache");
    std::fs::write(&blocked, "").unwrap();
    let (code, printed) = scan(
        &root,
        &t.path().join("r"),
        &["--cache", blocked.to_str().unwrap()],
    );
    assert_eq!(code, 1, "the findings, not a failure: {printed}");
    assert!(
        printed.contains("result cache") && printed.contains("cannot be used"),
        "{printed}"
    );
    assert_eq!(errors(&t.path().join("r")).len(), 2);
}

const HEADS: &str = "\
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, hidden, heads=8):
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, n, d = x.shape
        return self.proj(x).view(b, n, self.heads, d // self.heads)
";

#[test]
fn assumptions_from_the_command_line_and_the_configuration() {
    let t = tempfile::tempdir().unwrap();
    let root = repo(t.path(), HEADS);
    let out = t.path().join("r");
    // Correct for every input: no finding.
    let (code, printed) = scan(&root, &out, &["-q"]);
    assert_eq!(code, 0, "{printed}");
    // Under the configuration's assumption the split into heads cannot work.
    std::fs::write(
        root.join("pyproject.toml"),
        "[tool.shapehound]\nassumptions = [\"hidden % heads == 1\"]\n",
    )
    .unwrap();
    let (code, printed) = scan(&root, &out, &["-q"]);
    assert_eq!(code, 1, "{printed}");
    let found = errors(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0]["line"].as_str(), found[0]["kind"].as_str()),
        ("13", "reshape-numel")
    );
    let run_row = &read_table(&out, "run")[0];
    assert_eq!(run_row["assumptions"], "hidden % heads == 1");
    // The cache does not answer for other assumptions.
    let (code, printed) = scan(&root, &out, &["-q", "--no-config"]);
    assert_eq!(code, 0, "{printed}");
    assert_eq!(read_table(&out, "run")[0]["assumptions"], "null");

    let model = root.join("model.py");
    let model = model.to_str().unwrap();
    let check = |extra: &[&str]| {
        let mut argv = vec!["check", "--no-site-packages", "--no-config", model];
        argv.extend(extra);
        let o = run(&argv);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!(check(&["--assume", "hidden % heads == 1"]).0, Some(1));
    assert_eq!(
        check(&["--assume", "hidden == 64", "--assume", "heads == 8"]).0,
        Some(0)
    );
    // One that reads no unit's inputs is a warning; one that cannot be read, an error.
    let (code, stderr) = check(&["--assume", "y.shape[0] < 3"]);
    assert_eq!(code, Some(0));
    assert!(
        stderr.contains("`y.shape[0] < 3` applied to no unit"),
        "{stderr}"
    );
    let (code, stderr) = check(&["--assume", "x.shape[0] <"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("--assume: assumption `x.shape[0] <`: not a Python expression"),
        "{stderr}"
    );
    let (code, stderr) = check(&["--assume", "len(x) == 2"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("`len(x)` is not supported"), "{stderr}");
    std::fs::write(
        root.join("pyproject.toml"),
        "[tool.shapehound]\nassumptions = [\"3 < 4\"]\n",
    )
    .unwrap();
    let (code, printed) = scan(&root, &out, &["-q"]);
    assert_eq!(code, 2, "{printed}");
    assert!(
        printed.contains("pyproject.toml")
            && printed.contains("`assumptions`: assumption `3 < 4`: names no input"),
        "{printed}"
    );
}

const SWEEP: &str = "\
import json
import os

import torch
import torch.nn as nn


def main():
    with open(os.path.join(os.path.dirname(__file__), \"sweep.json\")) as f:
        cfg = json.load(f)
    for k in cfg[\"kernel_size\"]:
        conv = nn.Conv2d(3, 8, k)
        print(conv(torch.randn(1, 3, 7, 7)).shape)
";

/// A script that loads its sweep from a JSON file beside it: `check` names the values that
/// fail; `scan` analyses identical copies beside different files apart, and analyses the
/// script again when only its JSON file changes.
#[test]
fn configuration_files_beside_a_script_declare_its_domain_and_invalidate_its_cache() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("corpus");
    let repo = corpus.join("proj");
    for (folder, kernels) in [("a", "[3, 9]"), ("b", "[3, 5]")] {
        std::fs::create_dir_all(repo.join(folder)).unwrap();
        std::fs::write(repo.join(folder).join("train.py"), SWEEP).unwrap();
        let json = format!("{{\"kernel_size\": {kernels}}}");
        std::fs::write(repo.join(folder).join("sweep.json"), json).unwrap();
    }
    assert_one_message_ending(&repo.join("a/train.py"), "fails for k=9; passes for k=3");

    let out = t.path().join("nightly");
    let failing = |report: &Path| -> Vec<String> {
        let mut paths: Vec<String> = errors(report).iter().map(|r| r["path"].clone()).collect();
        paths.sort();
        paths
    };
    let (code, printed) = scan(&corpus, &out, &["-q"]);
    assert_eq!(code, 1, "{printed}");
    assert_eq!(failing(&out), ["proj/a/train.py"]);
    // Only the JSON file changes: the script is analysed again.
    std::fs::write(repo.join("b/sweep.json"), "{\"kernel_size\": [3, 11]}").unwrap();
    let (code, printed) = scan(&corpus, &out, &["-q"]);
    assert_eq!(code, 1, "{printed}");
    assert_eq!(failing(&out), ["proj/a/train.py", "proj/b/train.py"]);
    let full = t.path().join("full");
    let (code, printed) = scan(&corpus, &full, &["-q", "--no-cache"]);
    assert_eq!(code, 1, "{printed}");
    for table in ["files", "findings", "jobs"] {
        assert_eq!(stable(&out, table), stable(&full, table), "{table}");
    }
}

/// A unit that fails unless its hyperparameters meet a condition: a warning in every
/// format and table, out of the exit code unless `--strict`, for both commands.
#[test]
fn conditional_failures_are_warnings_that_count_only_when_strict() {
    let t = tempfile::tempdir().unwrap();
    let src = "\
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, hidden_dim, out_dim):
        super().__init__()
        self.fc = nn.Linear(hidden_dim, out_dim)
        self.norm = nn.LayerNorm(hidden_dim)

    def forward(self, x):
        return self.norm(self.fc(x))
";
    let repo = repo(t.path(), src);
    let model = repo.join("model.py").display().to_string();
    let o = run(&["check", &model]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("warning["), "{text}");
    assert!(
        text.contains("fails unless out_dim == hidden_dim"),
        "{text}"
    );
    assert!(text.contains("0 findings in 1 file (1 warning)"), "{text}");
    let o = run(&["check", "--strict", &model]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let o = run(&["check", "--format", "json", &model]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["findings"][0]["severity"], "warning");
    let o = run(&["check", "--format", "sarif", &model]);
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["level"], "warning");
    let o = run(&["check", "--format", "github", &model]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("::warning file="));

    let out = t.path().join("report");
    let (code, printed) = scan(&repo, &out, &["-q", "--no-cache"]);
    assert_eq!(code, 0, "{printed}");
    let rows = read_table(&out, "findings");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["severity"], "warning");
    let (code, printed) = scan(&repo, &out, &["-q", "--no-cache", "--strict"]);
    assert_eq!(code, 1, "{printed}");
}

/// The same sweep from a YAML file (`yaml.safe_load`), by a `pathlib` path.
#[test]
fn a_yaml_configuration_beside_a_script_declares_its_domain() {
    let t = tempfile::tempdir().unwrap();
    let script = "\
from pathlib import Path

import torch
import torch.nn as nn
import yaml


def main():
    with (Path(__file__).parent / \"sweep.yaml\").open() as f:
        cfg = yaml.safe_load(f)
    for k in cfg[\"sweep\"][\"kernel_size\"]:
        conv = nn.Conv2d(3, 8, k)
        print(conv(torch.randn(1, 3, 7, 7)).shape)
";
    std::fs::write(t.path().join("train.py"), script).unwrap();
    std::fs::write(
        t.path().join("sweep.yaml"),
        "sweep:\n  kernel_size: [3, 9, 5]\n",
    )
    .unwrap();
    assert_one_message_ending(
        &t.path().join("train.py"),
        "fails for k=9; passes for k=3, k=5",
    );
}

/// `check` of `path` reports one finding, whose message ends with `ending`.
fn assert_one_message_ending(path: &Path, ending: &str) {
    let path = path.display().to_string();
    let o = run(&["check", "--format", "json", "--exit-zero", &path]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let messages: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].ends_with(ending), "{}", messages[0]);
}
