//! Gives every binary an rpath to the libz3 unpacked by `scripts/ensure-z3.sh`, so that
//! `cargo run` and `cargo test` work without LD_LIBRARY_PATH.
use std::path::PathBuf;

fn main() {
    let lib_dir = std::env::var("Z3_LIBRARY_PATH_OVERRIDE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".deps/z3/lib"));
    if !lib_dir.join("libz3.so").exists() {
        println!(
            "cargo:warning=libz3 not found in {}; run `bash scripts/ensure-z3.sh` first",
            lib_dir.display()
        );
    }
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    println!("cargo:rerun-if-changed=build.rs");
}
