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
    assert!(
        text.contains("= help: run `shapehound explain feature-mismatch`"),
        "{text}"
    );
    let missing = common::run(&["check", "/definitely/not/here.py"]);
    assert_eq!(missing.status.code(), Some(2));
    let bad_format = common::run(&["check", "--format", "xml", &path]);
    assert_eq!(bad_format.status.code(), Some(2));
}

/// Runs the binary in `cwd` with the colour variables of the test's environment removed and
/// `env` set.
fn run_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(common::binary());
    cmd.current_dir(cwd).args(args);
    for var in ["NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    cmd.output().expect("the shapehound binary runs")
}

/// A project with one finding (`mlp.py`, line 13) and one file that does not parse
/// (`broken.py`, 1:7).
fn finding_and_syntax_error() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "mlp.py", SYMBOLIC_BUG);
    write(dir.path(), "broken.py", "def f(:\n");
    dir
}

#[test]
fn a_file_that_does_not_parse_fails_the_check_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let broken = write(dir.path(), "broken.py", "def f(:\n");
    write(
        dir.path(),
        "fine.py",
        "import torch\nx = torch.zeros(2, 3)\n",
    );
    let root = dir.path().display().to_string();
    let out = common::run(&["check", "--no-site-packages", &root]);
    // Like ruff's syntax-error diagnostic: the check fails.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("warning: {broken}: syntax error at 1:7: ")),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("error[syntax-error]: {broken}:1:7: ")),
        "{stdout}"
    );
    assert!(
        stdout.contains("0 findings in 2 files, 1 file with errors"),
        "{stdout}"
    );

    let out = common::run(&["check", "--no-site-packages", "--format", "json", &root]);
    assert_eq!(out.status.code(), Some(1));
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    let problems = json["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{json}");
    let p = &problems[0];
    assert_eq!(
        (
            &p["path"],
            &p["reason"],
            &p["level"],
            &p["line"],
            &p["column"]
        ),
        (
            &Json::from(broken.as_str()),
            &Json::from("syntax-error"),
            &Json::from("error"),
            &Json::from(1),
            &Json::from(7)
        ),
        "{p}"
    );
    assert!(p["message"].as_str().unwrap().contains("Expected"), "{p}");

    let out = common::run(&["check", "--no-site-packages", "--format", "sarif", &root]);
    assert_eq!(out.status.code(), Some(1));
    let log: Json = serde_json::from_slice(&out.stdout).unwrap();
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true, "{invocation}");
    assert_eq!(invocation["exitCode"], 1, "{invocation}");
    let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{invocation}");
    assert_eq!(notes[0]["level"], "error");
    assert_eq!(notes[0]["descriptor"]["id"], "syntax-error");
    let physical = &notes[0]["locations"][0]["physicalLocation"];
    assert_eq!(
        physical["artifactLocation"]["uri"], "broken.py",
        "{physical}"
    );
    assert_eq!(physical["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(physical["region"]["startLine"], 1);
    assert_eq!(physical["region"]["startColumn"], 7);

    let out = run_in(
        dir.path(),
        &["check", "--no-site-packages", "--format", "github", "."],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("::error file=broken.py,line=1,col=7,title=syntax-error::Expected"),
        "{stdout}"
    );
}

#[test]
fn a_file_over_the_size_limit_is_a_warning_that_keeps_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "fine.py",
        "import torch\nx = torch.zeros(2, 3)\n",
    );
    let out = common::run(&["check", "--format", "json", "--max-file-size", "10", &path]);
    assert_eq!(out.status.code(), Some(0));
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    let p = &json["problems"][0];
    assert_eq!(
        (&p["reason"], &p["level"]),
        (&Json::from("too-large"), &Json::from("warning")),
        "{json}"
    );
    assert!(p.get("line").is_none(), "{p}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("over the size limit of 10 bytes"),
        "{stderr}"
    );
}

#[test]
fn sarif_rules_invocations_and_locations_meet_code_scanning() {
    let dir = finding_and_syntax_error();
    let out = common::run(&[
        "check",
        "--no-site-packages",
        "--format",
        "sarif",
        &dir.path().display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let log: Json = serde_json::from_slice(&out.stdout).unwrap();
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 15);
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        let name = rule["name"].as_str().unwrap();
        assert!(
            !name.eq_ignore_ascii_case(id) && !name.contains('-'),
            "{rule}"
        );
        for text in [
            &rule["fullDescription"]["text"],
            &rule["help"]["text"],
            &rule["help"]["markdown"],
        ] {
            assert!(text.as_str().is_some_and(|t| t.len() > 20), "{rule}");
        }
        assert!(
            rule["helpUri"].as_str().unwrap().starts_with("https://"),
            "{rule}"
        );
        assert_eq!(rule["defaultConfiguration"]["level"], "error");
    }
    let feature = rules
        .iter()
        .find(|r| r["id"] == "feature-mismatch")
        .unwrap();
    assert_eq!(feature["name"], "FeatureMismatch");
    assert!(feature["help"]["markdown"]
        .as_str()
        .unwrap()
        .contains("`in_features`"));
    // Every location is relative to %SRCROOT%, the folder holding the files (they are
    // outside the folder the test runs in).
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert_eq!(root, format!("file://{}/", dir.path().display()));
    let mut locations = Vec::new();
    collect_artifact_locations(run, &mut locations);
    assert!(locations.len() >= 3, "{run}");
    for loc in &locations {
        assert_eq!(loc["uriBaseId"], "%SRCROOT%", "{loc}");
        let uri = loc["uri"].as_str().unwrap();
        assert!(uri == "mlp.py" || uri == "broken.py", "{loc}");
    }
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "feature-mismatch");
    assert!(result["partialFingerprints"]["shapehound/v1"]
        .as_str()
        .is_some_and(|f| f.len() == 16));
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["level"],
        "error"
    );

    // Run from the project folder with a relative path, the root is that folder.
    let out = run_in(
        dir.path(),
        &["check", "--no-site-packages", "--format", "sarif", "mlp.py"],
        &[],
    );
    let log: Json = serde_json::from_slice(&out.stdout).unwrap();
    let run = &log["runs"][0];
    let cwd = dir.path().canonicalize().unwrap();
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        format!("file://{}/", cwd.display())
    );
    assert_eq!(
        run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "mlp.py"
    );
}

fn collect_artifact_locations<'a>(v: &'a Json, out: &mut Vec<&'a Json>) {
    match v {
        Json::Object(map) => {
            for (k, x) in map {
                if k == "artifactLocation" {
                    out.push(x);
                } else {
                    collect_artifact_locations(x, out);
                }
            }
        }
        Json::Array(xs) => xs.iter().for_each(|x| collect_artifact_locations(x, out)),
        _ => {}
    }
}

#[test]
fn github_annotations_escape_their_delimiters() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a,b:c%.py", SYMBOLIC_BUG);
    write(dir.path(), "broken,1.py", "def f(:\n");
    let out = run_in(
        dir.path(),
        &["check", "--no-site-packages", "--format", "github", "."],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with(
            "::error file=a%2Cb%3Ac%25.py,line=13,col=16,endLine=13,endColumn=27,title=feature-mismatch (feature size does not match the layer)::"
        ),
        "{stdout}"
    );
    // Our line breaks are %0A; nothing else breaks the command.
    assert!(lines[0].contains("%0Ain: class `MLP`%0A"), "{stdout}");
    assert!(
        lines[0].ends_with("%0Ahelp: run `shapehound explain feature-mismatch`"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("::error file=broken%2C1.py,line=1,col=7,title=syntax-error::"),
        "{stdout}"
    );
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_and_only_in_text() {
    let dir = finding_and_syntax_error();
    let path = dir.path().join("mlp.py").display().to_string();
    let text = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["check", "--no-site-packages"];
        all.extend_from_slice(args);
        all.push(&path);
        let out = run_in(dir.path(), &all, env);
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let colored = text(&["--color", "always"], &[]);
    assert!(
        colored.contains("\u{1b}[1;31merror[feature-mismatch]\u{1b}[0m"),
        "{colored}"
    );
    assert!(colored.contains("\u{1b}[1;34m-->\u{1b}[0m"), "{colored}");
    assert!(colored.contains("\u{1b}[1;31m^"), "{colored}");
    assert!(colored.contains("\u{1b}[1;34m-"), "{colored}");
    // Stripped of its escapes, it is the plain text.
    let plain = text(&["--color", "never"], &[]);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let stripped = colored
        .split('\u{1b}')
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                &part[part.find('m').unwrap() + 1..]
            }
        })
        .collect::<String>();
    assert_eq!(stripped, plain);
    // Piped, auto is plain; CLICOLOR_FORCE forces colour unless NO_COLOR is set.
    assert!(!text(&[], &[]).contains('\u{1b}'));
    assert!(text(&[], &[("CLICOLOR_FORCE", "1")]).contains('\u{1b}'));
    assert!(!text(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\u{1b}'));
    for format in ["json", "sarif", "github"] {
        let out = text(&["--color", "always", "--format", format], &[]);
        assert!(!out.contains('\u{1b}'), "{format}: {out}");
    }
}

#[test]
fn explain_prints_a_kind_lists_them_all_and_refuses_unknown_ones() {
    let out = common::run(&["explain", "feature-mismatch"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("feature-mismatch (feature size does not match the layer)\n\n"),
        "{stdout}"
    );
    assert!(stdout.contains("`in_features`"), "{stdout}");
    assert!(!stdout.contains("## "), "only the kind's section: {stdout}");

    let out = common::run(&["explain", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The 15 finding kinds and the warning kind.
    assert_eq!(stdout.lines().count(), 16, "{stdout}");
    assert!(stdout.contains("unused-suppression "), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("reshape-numel ") && l.contains("number of elements")),
        "{stdout}"
    );

    let out = common::run(&["explain", "feature-mismatchh"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown finding kind `feature-mismatchh`")
            && stderr.contains("channel-mismatch, feature-mismatch"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
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
    // File by file (`--no-follow-imports`), `Mlp` is unknown: no finding.
    let out = common::run(&["check", "--format", "json", "--no-follow-imports", &model]);
    let code = out.status.code().unwrap_or(-1);
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (code, json["findings"].as_array().unwrap().len()),
        (0, 0),
        "{json}"
    );
    // With imports followed (the default; `--follow-imports` still accepted), Mlp returns
    // width 32 and the head expects 64; the finding is in model.py, at the head's call,
    // whatever runs inside mlp.py. The configuration's `follow-imports = false` turns it off,
    // and the command line wins over the configuration.
    for extra in [
        &[][..],
        &["--follow-imports"],
        &["--no-follow-imports", "--follow-imports"],
    ] {
        let args = [&["check", "--format", "json"][..], extra, &[model.as_str()]].concat();
        let out = common::run(&args);
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        let json: Json = serde_json::from_slice(&out.stdout).unwrap();
        let findings = json["findings"].as_array().unwrap();
        assert_eq!(findings.len(), 1, "{json}");
        assert_eq!(findings[0]["line"], 12, "{json}");
        assert!(findings[0]["path"].as_str().unwrap().ends_with("model.py"));
    }
    std::fs::write(pkg.join("shapehound.toml"), "follow-imports = false\n").unwrap();
    let codes: Vec<Option<i32>> = [&[][..], &["--follow-imports"]]
        .iter()
        .map(|extra| {
            let args = [&["check", "--format", "json"][..], extra, &[model.as_str()]].concat();
            common::run(&args).status.code()
        })
        .collect();
    assert_eq!(codes, [Some(0), Some(1)]);
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
