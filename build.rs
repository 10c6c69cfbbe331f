//! Gives every binary an rpath to the libz3 unpacked by `scripts/ensure-z3.sh`, so that
//! `cargo run` and `cargo test` work without LD_LIBRARY_PATH; searched first, an rpath
//! relative to the binary (`$ORIGIN/../lib/shapehound`), where `scripts/install.sh` puts
//! libz3, so an installed tree works wherever it is moved and without the checkout.
use std::path::PathBuf;

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
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    println!("cargo:rerun-if-changed=build.rs");
}
