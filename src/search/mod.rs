//! The search: iterative deepening, aspiration windows, principal-variation alpha-beta with
//! quiescence, a shared transposition table and Lazy SMP threads. It is generic over
//! [`SearchGame`] and knows no rules: wins, losses and draws come from the game's own
//! `ended`, `no_moves_result` and `rule_draw`, and repetitions from the position hashes.

pub mod time;
pub mod tt;
mod worker;

use crate::core::{Game, GameResult, GameState, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
pub use time::{Clock, Limits};
pub use tt::TranspositionTable;

/// A win: `MATE - plies to the win`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses by force.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than every score.
pub const INFINITE: i32 = 32_000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// What the search needs from a game beyond its rules: an evaluation and hints for move
/// ordering and pruning. Each game implements it in its own module.
pub trait SearchGame: Game {
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(&self) -> i32;

    /// An ordering score for a tactical move: most valuable victim, least valuable attacker.
    fn tactical_order(&self, mv: Move) -> i32;

    /// Whether the side to move is in check (games with check) — it may not stand pat and
    /// must not pass. Games without check answer `false`.
    fn in_check(&self) -> bool;

    /// The position after passing the turn, where the game makes a null move sound;
    /// `None` where it does not (duck chess, zugzwang-prone endings).
    fn null_move(&self) -> Option<Self>;

    /// The moves the search tries. All legal moves by default; a game whose turns are huge
    /// (duck chess) may return a selection, but never an empty list if legal moves exist.
    fn search_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves);
    }

    /// Fills `moves` with the moves quiescence search tries: the tactical ones, or every
    /// move when in check. Returns whether the side to move has any legal move at all.
    fn quiescence_moves(&self, moves: &mut Vec<Move>) -> bool {
        self.search_moves(moves);
        let any = !moves.is_empty();
        if !self.in_check() {
            moves.retain(|&m| self.is_tactical(m));
        }
        any
    }
}

/// The score of a finished game for the side to move, `ply` plies from the root.
pub fn result_score(result: GameResult, side_to_move: crate::core::Color, ply: usize) -> i32 {
    match result.winner {
        None => 0,
        Some(w) if w == side_to_move => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

/// State shared by all threads of a search: the table, the stop flag and the node count.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set to end the search (by `stop`, the clock, or a limit).
    pub stop: AtomicBool,
    /// Nodes searched by all threads.
    pub nodes: AtomicU64,
}

impl Shared {
    /// Shared state with a table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

impl Shared {
    /// Like [`Shared::new`], but an error instead of an abort when the table cannot be
    /// allocated.
    pub fn try_new(hash_mb: usize) -> Result<Shared, String> {
        Ok(Shared {
            tt: TranspositionTable::try_new(hash_mb)?,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        })
    }
}

/// Settings of one search that are not limits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Worker threads (Lazy SMP).
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
}

/// The answer of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: i32,
    /// The last depth completed.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Where `info` lines go.
pub type Reporter = Arc<dyn Fn(&str) + Send + Sync>;

/// The score as UCI text: `cp <n>` or `mate <moves>`.
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Searches `game` within `limits`; `shared.stop` must be clear when it is called. `pool` runs the Lazy SMP workers; the calling thread is the main one.
pub fn search<G: SearchGame>(
    game: &GameState<G>,
    limits: &Limits,
    settings: &Settings,
    clock: &Clock,
    shared: &Shared,
    pool: Option<&rayon::ThreadPool>,
    report: &Reporter,
) -> Outcome {
    // `stop` is cleared by the caller before the search starts, not here: a `stop` that
    // arrives while this thread is starting must not be lost.
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let helpers = settings.threads.saturating_sub(1);
    let run_main = || {
        let mut main = worker::Worker::new(game, limits, settings, clock, shared, 0);
        let outcome = main.iterate(Some(report));
        shared.stop.store(true, Ordering::Relaxed);
        outcome
    };
    match pool {
        Some(pool) if helpers > 0 => pool.scope(|scope| {
            for id in 1..=helpers {
                scope.spawn(move |_| {
                    let mut helper = worker::Worker::new(game, limits, settings, clock, shared, id);
                    helper.iterate(None);
                });
            }
            run_main()
        }),
        _ => run_main(),
    }
}
