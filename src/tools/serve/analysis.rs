//! The board's "Analyse" switch: the engine thinks on a copy of the shown position on a
//! thread of its own, so that no request waits for it and the game can still be moved in.
//! The lines arrive through the search's `info ... multipv k ...` reports and are read by
//! polling ([`Analysis::lines`]). An analysis ends when its time is up
//! ([`MAX_ANALYSIS_MS`] at most, so an abandoned page does not think forever), when it is
//! stopped, or when it is dropped: dropping sets the search's stop flag and joins the thread.

use crate::core::GameState;
use crate::search::{search, Clock, Limits, Reporter, SearchGame, Settings, Shared};
use crate::tools::analyze::{parse_info, PvLine};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest analysis, in milliseconds.
pub const MAX_ANALYSIS_MS: u64 = 60_000;
/// The most lines one analysis shows (the page's selector offers 1 to 3).
pub const MAX_MULTIPV: usize = 3;
/// Transposition table of one analysis, in MiB: it runs long, on one position.
const ANALYSIS_HASH_MB: usize = 16;

/// What the search has reported so far.
#[derive(Default)]
struct Found {
    /// The best lines, best first, at most `multipv` of them.
    lines: Vec<PvLine>,
    /// The search has returned (time up, depth exhausted, or stopped).
    done: bool,
}

/// What may stop an analysis and tell whether it still runs, from outside its game (the
/// server's bound on analyses running at once), without the game's lock.
#[derive(Clone)]
pub struct Handle {
    shared: Arc<Shared>,
    found: Arc<Mutex<Found>>,
}

impl Handle {
    /// Asks the search to stop; it returns within a few thousand nodes.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the search is still thinking.
    pub fn is_running(&self) -> bool {
        !lock(&self.found).done
    }
}

/// One running (or finished) analysis of one position.
pub struct Analysis {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
    started: Instant,
    multipv: usize,
    fen: String,
}

/// A snapshot of an analysis for the page.
pub struct Progress {
    /// Still thinking.
    pub running: bool,
    /// The best lines so far, best first, scores from the side to move's view.
    pub lines: Vec<PvLine>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

impl Analysis {
    /// Starts thinking on `game` (which must not be over) with `multipv` lines (1 to
    /// [`MAX_MULTIPV`]) for `movetime_ms` (at most [`MAX_ANALYSIS_MS`]).
    pub fn start<G: SearchGame>(
        game: GameState<G>,
        multipv: usize,
        movetime_ms: u64,
    ) -> Result<Analysis, String> {
        let multipv = multipv.clamp(1, MAX_MULTIPV);
        let shared = Arc::new(
            Shared::try_new(ANALYSIS_HASH_MB)
                .map_err(|e| format!("no memory for the analysis: {e}"))?,
        );
        let found = Arc::new(Mutex::new(Found::default()));
        let handle = Handle {
            shared: Arc::clone(&shared),
            found: Arc::clone(&found),
        };
        let limits = Limits {
            movetime: Some(movetime_ms.clamp(1, MAX_ANALYSIS_MS)),
            ..Limits::default()
        };
        let settings = Settings {
            multipv,
            ..Settings::default()
        };
        let fen = game.position.fen();
        let thread = std::thread::Builder::new()
            .name("thoat-analysis".into())
            .spawn(move || {
                let sink = Arc::clone(&found);
                let reporter: Reporter = Arc::new(move |info: &str| {
                    if let Some((k, line)) = parse_info(info) {
                        merge_line(&mut lock(&sink).lines, k, line, multipv);
                    }
                });
                let clock = Clock::new(&limits, game.position.side_to_move().index(), 0);
                search(&game, &limits, &settings, &clock, &shared, None, &reporter);
                lock(&found).done = true;
            })
            .map_err(|e| format!("cannot start the analysis: {e}"))?;
        Ok(Analysis {
            handle,
            thread: Some(thread),
            started: Instant::now(),
            multipv,
            fen,
        })
    }

    /// The handle that stops it from elsewhere.
    pub fn handle(&self) -> Handle {
        self.handle.clone()
    }

    /// The lines asked for.
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// The FEN of the position it thinks on.
    pub fn fen(&self) -> &str {
        &self.fen
    }

    /// What it has found so far.
    pub fn progress(&self) -> Progress {
        let found = lock(&self.handle.found);
        Progress {
            running: !found.done,
            lines: found.lines.clone(),
            nodes: self.handle.shared.nodes.load(Ordering::Relaxed),
            elapsed: self.started.elapsed(),
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.handle.stop();
        if let Some(thread) = self.thread.take() {
            // A search that panicked has nothing more to give; the board goes on.
            let _ = thread.join();
        }
    }
}

fn lock(found: &Mutex<Found>) -> MutexGuard<'_, Found> {
    // The reporter only ever stores whole lines, so a poisoned lock still holds good ones.
    found.lock().unwrap_or_else(|p| p.into_inner())
}

/// Takes in line `k` (1-based) of a new report. The search reports an iteration's lines in
/// order, 1 to `multipv`, so lines before `k` are of the new depth and lines from `k` on are
/// of the previous one: the previous depth's lines stay shown until the new ones replace
/// them, except those whose first move the new depth has already given (no move twice).
fn merge_line(lines: &mut Vec<PvLine>, k: usize, line: PvLine, multipv: usize) {
    let at = k.saturating_sub(1).min(lines.len());
    lines.insert(at, line);
    let (new, old) = lines.split_at(at + 1);
    let keep: Vec<PvLine> = old
        .iter()
        .filter(|o| !new.iter().any(|n| n.pv.first() == o.pv.first()))
        .cloned()
        .collect();
    lines.truncate(at + 1);
    lines.extend(keep);
    lines.truncate(multipv);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::tools::analyze::Score;
    use crate::variants::Chess;

    fn line(depth: i32, first: &str) -> PvLine {
        PvLine {
            score: Score::Cp(depth),
            pv: vec![first.to_string()],
            depth,
        }
    }

    fn firsts(lines: &[PvLine]) -> Vec<(String, i32)> {
        lines.iter().map(|l| (l.pv[0].clone(), l.depth)).collect()
    }

    #[test]
    fn a_new_depth_replaces_lines_in_order_and_never_shows_a_move_twice() {
        let mut lines = Vec::new();
        for (k, first) in [(1, "e2e4"), (2, "d2d4"), (3, "g1f3")] {
            merge_line(&mut lines, k, line(5, first), 3);
        }
        // Depth 6 prefers d2d4: the old d2d4 line goes, the old e2e4 and g1f3 stay for now.
        merge_line(&mut lines, 1, line(6, "d2d4"), 3);
        let expected = [("d2d4", 6), ("e2e4", 5), ("g1f3", 5)];
        assert_eq!(firsts(&lines), expected.map(|(m, d)| (m.to_string(), d)));
        merge_line(&mut lines, 2, line(6, "g1f3"), 3);
        let expected = [("d2d4", 6), ("g1f3", 6), ("e2e4", 5)];
        assert_eq!(firsts(&lines), expected.map(|(m, d)| (m.to_string(), d)));
        merge_line(&mut lines, 3, line(6, "c2c4"), 3);
        let expected = [("d2d4", 6), ("g1f3", 6), ("c2c4", 6)];
        assert_eq!(firsts(&lines), expected.map(|(m, d)| (m.to_string(), d)));
        // One line asked for: one kept.
        let mut single = Vec::new();
        merge_line(&mut single, 1, line(1, "e2e4"), 1);
        merge_line(&mut single, 1, line(2, "d2d4"), 1);
        assert_eq!(firsts(&single), [("d2d4".to_string(), 2)]);
    }

    /// Dropping a long analysis stops its search and joins its thread at once; the thread
    /// let go of what it shared.
    #[test]
    fn dropping_an_analysis_stops_and_joins_its_thread() {
        let game = GameState::new(Chess::from_fen(Chess::START_FEN).expect("start"));
        let analysis = Analysis::start(game, 2, MAX_ANALYSIS_MS).expect("started");
        let deadline = Instant::now() + Duration::from_secs(20);
        while analysis.progress().lines.len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let progress = analysis.progress();
        assert!(progress.running);
        assert_eq!(progress.lines.len(), 2);
        let handle = analysis.handle();
        let dropped = Instant::now();
        drop(analysis);
        assert!(dropped.elapsed() < Duration::from_secs(2));
        assert!(!handle.is_running());
        // Only this handle still holds the search's state: the thread's copies are gone.
        assert_eq!(Arc::strong_count(&handle.shared), 1);
        assert_eq!(Arc::strong_count(&handle.found), 1);
    }

    #[test]
    fn an_analysis_ends_by_itself_when_its_time_is_up() {
        let game = GameState::new(Chess::from_fen(Chess::START_FEN).expect("start"));
        let analysis = Analysis::start(game, 1, 50).expect("started");
        let deadline = Instant::now() + Duration::from_secs(20);
        while analysis.progress().running && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let progress = analysis.progress();
        assert!(!progress.running);
        assert!(!progress.lines.is_empty());
        assert!(progress.nodes > 0);
    }
}
