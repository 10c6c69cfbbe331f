//! `shapehound annotate` through the real binary: the signatures of digest 000's listings
//! as text and JSON, the jaxtyping patch, assumptions, and errors.

mod common;

use common::run;

const LISTINGS: &str = "\
import torch
import torch.nn as nn


class FixedConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(in_channels=4, out_channels=2, kernel_size=2)

    def forward(self, x):
        return self.conv(x)


class ReshapeControlFlow(nn.Module):
    def forward(self, x):
        if x.reshape(100).size()[0] < 100:
            return torch.dropout(x, p=0.5, train=False)
        else:
            return torch.relu(x)


def patches(x):
    b, c, h, w = x.shape
    return x.reshape(b, c, h * w)
";

fn write(dir: &std::path::Path) -> String {
    let path = dir.join("listings.py");
    std::fs::write(&path, LISTINGS).unwrap();
    path.display().to_string()
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn text_lists_ranks_static_dims_requirements_returns_and_decided_branches() {
    let t = tempfile::tempdir().unwrap();
    let path = write(t.path());
    let o = run(&["annotate", &path]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = stdout(&o);
    for line in [
        "  class FixedConv (line 5): admitted [x:3], [x:4]; rejected [x:1], [x:2], [x:5], [x:6]",
        "    [x:4] x: [x.shape[0], x.shape[1], x.shape[2], x.shape[3]]",
        "      static x.shape[1] = 4",
        "      requires 2 <= x.shape[2]",
        "      returns [x.shape[0], 2, x.shape[2] - 1, x.shape[3] - 1]",
        "      branch at line 16: x.reshape(100).size()[0] < 100 is never taken",
        "  function patches (line 22): admitted [x:4]",
        "      returns [x.shape[0], x.shape[1], x.shape[2]*x.shape[3]]",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}\n---\n{text}");
    }
}

#[test]
fn assumptions_narrow_the_ranks_and_json_lists_every_variant() {
    let t = tempfile::tempdir().unwrap();
    let path = write(t.path());
    let o = run(&[
        "annotate",
        "--format",
        "json",
        "--assume",
        "5 <= x.shape[2] <= 20",
        "--assume",
        "2 <= x.shape[3] <= 10",
        &path,
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let sigs = doc["files"][0]["signatures"].as_array().unwrap();
    let fixed = sigs.iter().find(|s| s["unit"] == "FixedConv").unwrap();
    let admitted: Vec<&str> = fixed["variants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["admission"] == "admitted")
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(admitted, ["x:4"]);
    let v4 = fixed["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["variant"] == "x:4")
        .unwrap();
    assert_eq!(v4["fixed"][0]["dim"], "x.shape[1]");
    assert_eq!(v4["fixed"][0]["value"], 4);
    assert_eq!(v4["requires"].as_array().unwrap().len(), 0);
    assert!(doc["problems"].as_array().unwrap().is_empty());
}

#[test]
fn jaxtyping_is_a_patch_that_applies_and_checks_the_same() {
    let t = tempfile::tempdir().unwrap();
    write(t.path());
    let o = common::run_in(
        t.path(),
        &["annotate", "--format", "jaxtyping", "listings.py"],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let patch = stdout(&o);
    for line in [
        "--- a/listings.py",
        "+++ b/listings.py",
        "+from jaxtyping import Shaped",
        "+    def forward(self, x: Shaped[torch.Tensor, \"*xbatch 4 x1 x2\"]):",
        "+def patches(x: Shaped[torch.Tensor, \"x0 x1 x2 x3\"]) -> Shaped[torch.Tensor, \"x0 x1 x2*x3\"]:",
    ] {
        assert!(patch.lines().any(|l| l == line), "{line}\n---\n{patch}");
    }
    std::fs::write(t.path().join("p.diff"), &patch).unwrap();
    let before = run(&["check", "--format", "json", "--exit-zero", &write(t.path())]);
    let applied = std::process::Command::new("git")
        .args(["apply", "p.diff"])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(applied.status.success(), "{applied:?}");
    let annotated = std::fs::read_to_string(t.path().join("listings.py")).unwrap();
    assert!(annotated.contains("def patches(x: Shaped["), "{annotated}");
    let path = t.path().join("listings.py").display().to_string();
    let after = run(&["check", "--format", "json", "--exit-zero", &path]);
    let findings = |o: &std::process::Output| {
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        doc["findings"].as_array().unwrap().len()
    };
    assert_eq!(findings(&before), findings(&after));
}

#[test]
fn a_missing_path_or_a_bad_assumption_is_a_usage_error() {
    let o = run(&["annotate", "/no/such/file.py"]);
    assert_eq!(o.status.code(), Some(2));
    let t = tempfile::tempdir().unwrap();
    let path = write(t.path());
    let o = run(&["annotate", "--assume", "x.shape[ <= 3", &path]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

#[test]
fn a_file_that_does_not_parse_is_a_problem_and_exit_one() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("bad.py");
    std::fs::write(&path, "def f(:\n").unwrap();
    let o = run(&["annotate", &path.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.py"));
}

/// `scan --signatures` writes what `annotate` prints, one row per variant; a rescan from the
/// cache writes the same rows; without the flag the table is empty.
#[test]
fn scan_writes_the_signatures_table_annotate_prints() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("corpus").join("proj");
    std::fs::create_dir_all(&repo).unwrap();
    write(&repo);
    let out = t.path().join("report");
    let corpus = t.path().join("corpus");
    let scan = |extra: &[&str]| {
        let mut args = vec![
            "scan",
            corpus.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-q",
            "--no-site-packages",
        ];
        args.extend(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        let mut rows = common::read_table(&out, "signatures");
        rows.sort_by(|a, b| (&a["unit"], &a["variant"]).cmp(&(&b["unit"], &b["variant"])));
        rows
    };
    let rows = scan(&["--signatures"]);
    let row = |unit: &str, variant: &str| {
        rows.iter()
            .find(|r| r["unit"] == unit && r["variant"] == variant)
            .cloned()
            .unwrap_or_else(|| panic!("{unit} {variant}: {rows:?}"))
    };
    let v4 = row("FixedConv", "x:4");
    assert_eq!(v4["admission"], "admitted");
    assert_eq!(v4["path"], "proj/listings.py");
    assert_eq!(v4["fixed"], "x.shape[1] = 4");
    assert_eq!(
        v4["returns"],
        "[x.shape[0], 2, x.shape[2] - 1, x.shape[3] - 1]"
    );
    assert_eq!(row("FixedConv", "x:1")["admission"], "rejected");
    assert_eq!(
        row("ReshapeControlFlow", "x:2")["branches"],
        "16: x.reshape(100).size()[0] < 100: never"
    );
    assert_eq!(rows.len(), 13, "6 + 6 + 1 variants");
    assert_eq!(scan(&["--signatures"]), rows, "from the cache");
    assert!(scan(&[]).is_empty());
}
