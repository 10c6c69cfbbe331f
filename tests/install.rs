//! `scripts/install.sh`: the installed tree runs on its own, moved elsewhere, loading the
//! libz3 installed beside the binary rather than the checkout's.

use std::path::Path;
use std::process::Command;

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn an_installed_tree_runs_after_it_is_moved() {
    let t = tempfile::tempdir().unwrap();
    let prefix = t.path().join("prefix");
    let installed = Command::new("bash")
        .arg(repo_root().join("scripts/install.sh"))
        .args(["--binary", env!("CARGO_BIN_EXE_shapehound")])
        .arg(&prefix)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&installed.stdout);
    assert!(
        installed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&installed.stderr)
    );
    assert!(stdout.contains("installed shapehound"), "{stdout}");

    let moved = t.path().join("elsewhere").join("tools");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&prefix, &moved).unwrap();
    let binary = moved.join("bin/shapehound");

    // The loader finds libz3 in the moved tree, not in the checkout.
    let ldd = Command::new("ldd").arg(&binary).output().unwrap();
    let libs = String::from_utf8_lossy(&ldd.stdout);
    let z3 = libs.lines().find(|l| l.contains("libz3")).unwrap_or("");
    assert!(
        z3.contains(&*moved.to_string_lossy()) && z3.contains("lib/shapehound/libz3"),
        "{libs}"
    );

    let code = t.path().join("model.py");
    std::fs::write(
        &code,
        "import torch\nfrom torch import nn\n\n\ndef run():\n    return nn.Linear(3, 4)(torch.randn(2, 5))\n",
    )
    .unwrap();
    let checked = Command::new(&binary)
        .args(["check", "--no-site-packages"])
        .arg(&code)
        .env_remove("LD_LIBRARY_PATH")
        .current_dir(t.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{out}");
    assert!(out.contains("feature-mismatch"), "{out}");
}

#[test]
fn install_refuses_unknown_options() {
    let out = Command::new("bash")
        .arg(repo_root().join("scripts/install.sh"))
        .arg("--prefix")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option --prefix"));
}
