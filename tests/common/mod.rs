//! Shared test helpers: an engine driver, scratch directories. (The perft suites are read by
//! `thoat::core::suite`.)
#![allow(dead_code)]

pub mod engine;

/// A fresh, empty scratch directory for one test of one test binary: `<tmp>/thoat-<binary>-
/// <pid>-<name>`.
pub fn scratch(binary: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("thoat-{binary}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
