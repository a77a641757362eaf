//! Shared test helpers: an engine driver, scratch directories. (The perft suites are read by
//! `thoat::core::suite`.)
#![allow(dead_code)]

pub mod engine;

/// A fresh, empty scratch directory for one test of one test binary, `<tmp>/thoat-<binary>-
/// <pid>-<name>`: removed when dropped, kept when the test fails, to be looked at.
pub struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

/// Makes the [`Scratch`] directory of `name`.
pub fn scratch(binary: &str, name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("thoat-{binary}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    Scratch(dir)
}

/// Runs `command` to its end and asserts that it succeeded (showing its standard error if
/// not); its output.
pub fn run_ok(command: &mut std::process::Command) -> std::process::Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("run {command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The games of a PGN text, read by the library's PGN reader; every game must be readable.
pub fn pgn_games(text: &str) -> Vec<thoat::tools::pgn::read::PgnRecord> {
    thoat::tools::pgn::read::read_games(text)
        .into_iter()
        .map(|game| game.expect("readable PGN"))
        .collect()
}
