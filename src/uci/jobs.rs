//! The work the UCI loop runs on its own threads, so that the input thread stays free for
//! `isready`, `stop` and `quit`: a search, or a `go perft`.

use super::{send, Output};
use crate::core::{Game, Move};
use crate::search::{search, Clock, Limits, Reporter, Settings, Shared};
use crate::variants::AnyGame;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A search or a `go perft` running in the background.
pub(super) struct Running {
    /// Set to stop it.
    pub halt: Arc<AtomicBool>,
    /// The search's clock (for `ponderhit`); `None` for a perft.
    pub clock: Option<Arc<Clock>>,
    /// Set by the thread just before it prints `bestmove` (or the perft's result): from then
    /// on a new `go` is accepted (a GUI that has read `bestmove` may send `go` before the
    /// thread ended).
    pub answered: Arc<AtomicBool>,
    pub handle: JoinHandle<()>,
}

/// The texts of a best move and of the reply expected after it.
fn move_pair_text<G: Game>(
    position: &G,
    best: Option<Move>,
    reply: Option<Move>,
) -> (Option<String>, Option<String>) {
    let Some(best) = best else {
        return (None, None);
    };
    let reply_text = reply.map(|r| {
        let mut after = position.clone();
        after.play(best);
        after.move_text(r)
    });
    (Some(position.move_text(best)), reply_text)
}

/// How a background job answers: it sets `answered`, then prints its answer (in that
/// order, so that a GUI that has read the answer finds a new `go` accepted).
pub(super) struct Answer {
    pub answered: Arc<AtomicBool>,
    pub out: Output,
}

impl Answer {
    fn send(&self, line: &str) {
        self.answered.store(true, Ordering::SeqCst);
        send(&self.out, line);
    }
}

/// Everything a background search needs, moved into its thread.
pub(super) struct SearchJob {
    pub game: AnyGame,
    pub limits: Limits,
    pub settings: Settings,
    pub clock: Arc<Clock>,
    pub shared: Arc<Shared>,
    pub pool: Option<Arc<rayon::ThreadPool>>,
    pub halt: Arc<AtomicBool>,
    pub answer: Answer,
}

impl SearchJob {
    pub fn run(self) {
        let out = Arc::clone(&self.answer.out);
        let report: Reporter = Arc::new(move |line: &str| send(&out, line));
        let (best, ponder) = crate::on_game!(&self.game, g => {
            let outcome = search(
                g,
                &self.limits,
                &self.settings,
                &self.clock,
                &self.shared,
                self.pool.as_deref(),
                &report,
            );
            move_pair_text(&g.position, outcome.best, outcome.ponder)
        });
        // UCI: in infinite or ponder mode the best move waits for `stop` or `ponderhit`.
        // `stop` and `ponderhit` unpark this thread, so the wait ends at once; the timeout
        // is only a safety net.
        while (self.limits.infinite || self.clock.pondering()) && !self.halt.load(Ordering::SeqCst)
        {
            std::thread::park_timeout(std::time::Duration::from_millis(50));
        }
        let line = match (best, ponder) {
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
            (Some(b), None) => format!("bestmove {b}"),
            (None, _) => "bestmove (none)".to_string(),
        };
        self.answer.send(&line);
    }
}

/// Everything a background `go perft` needs, moved into its thread.
pub(super) struct PerftJob {
    pub game: AnyGame,
    pub depth: u32,
    pub threads: usize,
    pub halt: Arc<AtomicBool>,
    pub answer: Answer,
}

impl PerftJob {
    /// Counts and prints the divide and its time in one write, so that no other line falls
    /// in between; when stopped, only `info string perft stopped` (a partial divide would
    /// read as a wrong count).
    pub fn run(self) {
        let mut text = Vec::new();
        let reply = match self
            .game
            .perft(self.depth, self.threads, &self.halt, &mut text)
        {
            Ok(Some(report)) => format!(
                "{}\ninfo string perft time {} ms nps {}",
                String::from_utf8_lossy(&text).trim_end(),
                report.millis,
                report.nps()
            ),
            Ok(None) => "info string perft stopped".to_string(),
            Err(e) => format!("info string error: perft output failed: {e}"),
        };
        self.answer.send(&reply);
    }
}
