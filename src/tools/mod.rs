//! One-shot jobs on top of the rules and the search: bench, PGN, analyze, match, the
//! robustness tools, the browser board and evaluation tuning. None of them knows the UCI
//! loop (`uci`), which is a front end like `main`: it may run them (`bench`), not
//! the other way round.

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod matches;
pub mod pgn;
pub mod robust;
pub mod serve;
pub mod tune;

/// Waits up to `grace` for a child engine (already told to `quit`) to exit, then kills it;
/// always reaps it, so no zombie is left.
pub fn reap(child: &mut std::process::Child, grace: std::time::Duration) {
    let deadline = std::time::Instant::now() + grace;
    while std::time::Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
}
