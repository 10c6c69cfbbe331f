//! Gives every binary an rpath to the libz3 unpacked by `scripts/ensure-z3.sh`, so that
//! `cargo run` and `cargo test` work without LD_LIBRARY_PATH; searched first, an rpath
//! relative to the binary (`$ORIGIN/../lib/shapehound`), where `scripts/install.sh` puts
//! libz3, so an installed tree works wherever it is moved and without the checkout.
//! Also stamps the build with a digest of its sources (`SHAPEHOUND_SOURCE_DIGEST`): the
//! analyser's identity for the result cache (`src/dataflow/cache.rs`).
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Every file under `dir`, sorted, hashed with its path (std's SipHash with fixed keys: stable
/// within one toolchain, which is all a cache key needs).
fn digest_tree(dir: &Path, h: &mut std::collections::hash_map::DefaultHasher) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            digest_tree(&p, h);
        } else if let Ok(bytes) = std::fs::read(&p) {
            p.hash(h);
            bytes.hash(h);
        }
    }
}

fn main() {
    let lib_dir = std::env::var("Z3_LIBRARY_PATH_OVERRIDE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".deps/z3/lib"));
    // Without it, z3-sys would link whatever libz3 the system has (Debian's is too old: its
    // enums may be numbered differently from the bindings, and it solves some jobs 100x
    // slower), with only a warning. Stop instead.
    if !lib_dir.join("libz3.so").exists() {
        eprintln!(
            "error: libz3 not found in {}; run `bash scripts/ensure-z3.sh` first (or set \
             Z3_LIBRARY_PATH_OVERRIDE to a folder holding libz3.so 4.13.3 or later)",
            lib_dir.display()
        );
        std::process::exit(1);
    }
    println!("cargo:rustc-link-arg=-Wl,-rpath,$ORIGIN/../lib/shapehound");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for part in ["src", "Cargo.lock", "Cargo.toml"] {
        let p = root.join(part);
        if p.is_dir() {
            digest_tree(&p, &mut h);
        } else if let Ok(bytes) = std::fs::read(&p) {
            bytes.hash(&mut h);
        }
        println!("cargo:rerun-if-changed={}", p.display());
    }
    println!(
        "cargo:rustc-env=SHAPEHOUND_SOURCE_DIGEST={:016x}",
        h.finish()
    );
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    println!("cargo:rerun-if-changed=build.rs");
}
