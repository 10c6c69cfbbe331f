//! `shapehound check` end to end: the real binary on files written here, its JSON and SARIF
//! read back, its exit codes.

mod common;

use std::path::Path;

use serde_json::Value as Json;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn check_json(path: &str) -> (i32, Json) {
    let out = common::run(&["check", "--format", "json", path]);
    let code = out.status.code().unwrap_or(-1);
    let json: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    (code, json)
}

const SYMBOLIC_BUG: &str = "\
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
";

#[test]
fn a_symbolic_bug_is_found_at_the_failing_line_with_its_definition() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "mlp.py", SYMBOLIC_BUG);
    let (code, json) = check_json(&path);
    assert_eq!(code, 1, "{json}");
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{json}");
    let f = &findings[0];
    assert_eq!(f["kind"], "feature-mismatch");
    assert_eq!(f["line"], 13);
    assert_eq!(f["operator"], "torch.nn.Linear");
    assert_eq!(f["unit"], "MLP");
    // The conflicting definition: the Linear built in __init__.
    let related: Vec<i64> = f["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line"].as_i64().unwrap())
        .collect();
    assert!(related.contains(&9), "{related:?}");
    assert!(f["witness"].as_str().unwrap().contains("d = "), "{f}");
}

#[test]
fn the_fixed_program_has_no_finding_and_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let fixed = SYMBOLIC_BUG.replace("nn.Linear(d, out)", "nn.Linear(2 * d, out)");
    let path = write(dir.path(), "mlp.py", &fixed);
    let (code, json) = check_json(&path);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["findings"].as_array().unwrap().len(), 0);
    assert_eq!(json["files"], 1);
}

#[test]
fn a_concrete_entry_call_is_checked_with_its_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let text = "\
import torch
import torch.nn as nn

net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 30 * 30, 10))
ok = net(torch.randn(2, 3, 32, 32))
bad = net(torch.randn(2, 3, 28, 28))
";
    let path = write(dir.path(), "seq.py", text);
    let (code, json) = check_json(&path);
    assert_eq!(code, 1, "{json}");
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{json}");
    assert_eq!(findings[0]["line"], 6);
    assert_eq!(findings[0]["kind"], "feature-mismatch");
}

#[test]
fn unknown_values_and_guarded_paths_are_never_alarms() {
    let dir = tempfile::tempdir().unwrap();
    let text = "\
import torch
import torch.nn as nn
from .layers import Block


class Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.block = Block(cfg)
        self.fc = nn.Linear(cfg.dim, 10)

    def forward(self, x):
        try:
            y = x.view(-1, 7)
        except RuntimeError:
            y = x
        if x.dim() == 3:
            x = x.unsqueeze(0)
        return self.fc(self.block(x))
";
    let path = write(dir.path(), "net.py", text);
    let (code, json) = check_json(&path);
    assert_eq!(code, 0, "{json}");
}

#[test]
fn sarif_is_a_2_1_0_log_with_rules_and_locations() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "mlp.py", SYMBOLIC_BUG);
    let out = common::run(&["check", "--format", "sarif", &path]);
    assert_eq!(out.status.code(), Some(1));
    let log: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "shapehound");
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "feature-mismatch");
    let rule_index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(
        run["tool"]["driver"]["rules"][rule_index]["id"],
        "feature-mismatch"
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        13
    );
}

#[test]
fn text_output_has_a_code_frame_and_usage_errors_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "mlp.py", SYMBOLIC_BUG);
    let out = common::run(&["check", &path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error[feature-mismatch]"), "{text}");
    assert!(text.contains("13 |         return self.fc2(h)"), "{text}");
    assert!(text.contains("^^^"), "{text}");
    let missing = common::run(&["check", "/definitely/not/here.py"]);
    assert_eq!(missing.status.code(), Some(2));
    let bad_format = common::run(&["check", "--format", "xml", &path]);
    assert_eq!(bad_format.status.code(), Some(2));
}

#[test]
fn a_file_that_does_not_parse_is_reported_and_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "broken.py", "def f(:\n");
    write(
        dir.path(),
        "fine.py",
        "import torch\nx = torch.zeros(2, 3)\n",
    );
    let out = common::run(&["check", &dir.path().display().to_string()]);
    // Like a finding, it is for the user to fix (exit 1), and the other files are checked.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken.py") && stderr.contains("syntax error"),
        "{stderr}"
    );
}

#[test]
fn runs_cut_short_by_a_budget_are_a_warning_never_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    // The bug comes after the budget: the run is cut short before it and proves nothing.
    let body: String = (0..20).map(|i| format!("v{i} = {i}\n")).collect();
    write(
        dir.path(),
        "long.py",
        &format!("import torch\n{body}y = torch.zeros(2, 3) @ torch.zeros(4, 5)\n"),
    );
    let path = dir.path().join("long.py").display().to_string();
    let cut = common::run(&["check", "--no-site-packages", "--unit-steps", "10", &path]);
    assert_eq!(cut.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&cut.stderr);
    assert!(stderr.contains("statement budget"), "{stderr}");
    let full = common::run(&["check", "--no-site-packages", &path]);
    assert_eq!(
        full.status.code(),
        Some(1),
        "the bug is found within the default budget"
    );
}

#[test]
fn imports_run_classes_from_other_files_of_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("pkg");
    std::fs::create_dir_all(pkg.join("layers")).unwrap();
    write(&pkg, "__init__.py", "");
    write(&pkg.join("layers"), "__init__.py", "from .mlp import Mlp\n");
    write(
        &pkg.join("layers"),
        "mlp.py",
        "import torch.nn as nn\n\n\nclass Mlp(nn.Module):\n    def __init__(self, d, hidden):\n        \
         super().__init__()\n        self.fc1 = nn.Linear(d, hidden)\n        self.fc2 = nn.Linear(hidden, d)\n\n    \
         def forward(self, x):\n        return self.fc2(self.fc1(x))\n",
    );
    let model = write(
        &pkg,
        "model.py",
        "import torch.nn as nn\nfrom .layers import Mlp\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        \
         super().__init__()\n        self.mlp = Mlp(32, 64)\n        self.head = nn.Linear(64, 10)\n\n    \
         def forward(self, x):\n        return self.head(self.mlp(x))\n",
    );
    // File by file (the default), `Mlp` is unknown: no finding.
    let out = common::run(&["check", "--format", "json", &model]);
    let code = out.status.code().unwrap_or(-1);
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (code, json["findings"].as_array().unwrap().len()),
        (0, 0),
        "{json}"
    );
    // With imports followed, Mlp returns width 32 and the head expects 64; the finding is in
    // model.py, at the head's call, whatever runs inside mlp.py.
    let out = common::run(&["check", "--format", "json", "--follow-imports", &model]);
    assert_eq!(out.status.code(), Some(1));
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{json}");
    assert_eq!(findings[0]["line"], 12, "{json}");
    assert!(findings[0]["path"].as_str().unwrap().ends_with("model.py"));
}

/// An installed library (a site-packages folder with its metadata) whose builder makes the
/// model: analysed from its source with `--python-path`, unknown without it.
#[test]
fn installed_packages_are_read_with_python_path() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let vision = site.join("vision");
    std::fs::create_dir_all(&vision).unwrap();
    std::fs::create_dir_all(site.join("vision-1.0.dist-info")).unwrap();
    write(
        &site.join("vision-1.0.dist-info"),
        "METADATA",
        "Name: vision\nRequires-Dist: torch\n",
    );
    write(
        &site.join("vision-1.0.dist-info"),
        "top_level.txt",
        "vision\n",
    );
    write(&vision, "__init__.py", "from vision import models\n");
    write(
        &vision,
        "models.py",
        "import torch.nn as nn\n\ndef handle_legacy_interface(**weights):\n    return lambda f: f\n\n\
         class Net(nn.Module):\n    def __init__(self, num_classes=1000):\n        super().__init__()\n        \
         self.fc = nn.Linear(8, num_classes)\n\n    def forward(self, x):\n        return self.fc(x)\n\n\
         @handle_legacy_interface(weights=(\"pretrained\", \"DEFAULT\"))\n\
         def net(*, weights=None, **kwargs):\n    return Net(**kwargs)\n",
    );
    let script = write(
        dir.path(),
        "train.py",
        "import torch\nimport torch.nn as nn\nfrom vision import models\n\n\
         backbone = models.net(pretrained=False)\nhead = nn.Linear(512, 10)\n\
         y = head(backbone(torch.randn(2, 8)))\n",
    );
    let site_arg = site.display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json", "--no-site-packages"];
        args.extend_from_slice(extra);
        args.push(&script);
        let out = common::run(&args);
        let json: Json = serde_json::from_slice(&out.stdout).unwrap_or(Json::Null);
        (out.status.code(), json)
    };
    // Without the folder the backbone is unknown: nothing to report.
    let (code, json) = run(&[]);
    assert_eq!(code, Some(0), "{json}");
    // With it, the backbone gives 1000 features and the head expects 512 (line 7); the
    // legacy `pretrained=False` is `weights=None`.
    let (code, json) = run(&["--python-path", &site_arg]);
    assert_eq!(code, Some(1), "{json}");
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{json}");
    assert_eq!(findings[0]["line"], 7, "{json}");
    assert!(findings[0]["path"].as_str().unwrap().ends_with("train.py"));
    // A distribution not built on torch is never read.
    write(
        &site.join("vision-1.0.dist-info"),
        "METADATA",
        "Name: vision\nRequires-Dist: numpy\n",
    );
    let (code, json) = run(&["--python-path", &site_arg]);
    assert_eq!(code, Some(0), "{json}");
    // A folder that does not exist is a usage error.
    let missing = dir.path().join("missing").display().to_string();
    let out = common::run(&["check", "--python-path", &missing, &script]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--python-path") && stderr.contains("missing"),
        "{stderr}"
    );
}
