//! The search: iterative deepening, aspiration windows, principal-variation alpha-beta with
//! quiescence, a shared transposition table and Lazy SMP threads. It is generic over
//! [`SearchGame`] and knows no rules: wins, losses and draws come from the game's own
//! `ended`, `no_moves_result` and `rule_draw`, and repetitions from the position hashes.

pub mod history;
mod picker;
pub mod time;
pub mod tt;
mod worker;

use crate::core::{Game, GameResult, GameState, Move};
use history::ThreadData;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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
/// How many pieces (kind and colour) [`SearchGame::moved_piece`] may name.
pub const PIECE_SLOTS: usize = 16;

/// What the search needs from a game beyond its rules: an evaluation and hints for move
/// ordering and pruning. Each game implements it in its own module.
pub trait SearchGame: Game + crate::nnue::features::NnueGame {
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(&self) -> i32;

    /// Material alone, in centipawns from the side to move's point of view: the baseline
    /// evaluation that [`EvalMode::Material`] selects, so that the full evaluation can be
    /// measured against it in games.
    fn material(&self) -> i32;

    /// An ordering score for a tactical move: most valuable victim, least valuable attacker.
    fn tactical_order(&self, mv: Move) -> i32;

    /// Static exchange evaluation: whether `mv` (legal here), followed by the best sequence
    /// of captures on its destination square, in which either side may stop when it likes,
    /// wins at least `threshold` centipawns of material for the side to move. A quiet move
    /// with `threshold <= 0` is true unless it puts the piece where it is lost. The search
    /// uses it to order captures (losing ones last) and to prune losing moves near the leaves.
    fn see_ge(&self, mv: Move, threshold: i32) -> bool;

    /// The piece `mv` (legal here) moves, as a number below [`PIECE_SLOTS`] that differs by
    /// kind and colour: with the destination square it indexes the history tables.
    fn moved_piece(&self, mv: Move) -> usize;

    /// Whether `mv` (legal here) puts the opponent in check, answered without playing it:
    /// the search asks before it decides to prune the move, so a pruned move is never
    /// played. Games without check (the default) answer `false`; a debug assertion in the
    /// search checks every answer against the played move.
    fn gives_check(&self, _mv: Move) -> bool {
        false
    }

    /// Whether late-move pruning, once a node has tried its few quiet moves, still tries
    /// the remaining quiet moves that give check (in generation order): a quiet mate behind
    /// many quiet moves is then found at the depth it needs. Off by default: in chess the
    /// checks cost more time than they gained (docs/search.md, session 23).
    const LATE_QUIET_CHECKS: bool = false;

    /// The margins of the search's pruning by the static evaluation (razoring, reverse
    /// futility, the null move's extra reduction, probcut, futility, quiescence's delta), in
    /// percent of the defaults: a game whose evaluation errs more near the leaves wants them
    /// wider. Each game's figure is a match's (docs/search.md, sessions 37 and 39).
    const MARGIN_PERCENT: i32 = 100;

    /// How many quiet moves a node tries before late-move pruning drops the rest, in
    /// percent of `(3 + depth^2) / (2 - improving)`: a game whose nodes have many more
    /// quiet moves (duck chess: every piece move with every duck square) wants more of them
    /// tried. Each game's figure is a match's (docs/search.md, session 39).
    const LATE_MOVE_PERCENT: i32 = 100;

    /// Whether the side to move is in check (games with check) — it may not stand pat and
    /// must not pass. Games without check (the default) answer `false`.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether the side to move, not in check, may still lose on the next move (games without
    /// check: its jetan Princess or skak Jarkhan can be captured). Such a position is not
    /// quiet: the search neither cuts it off by its static evaluation (reverse futility) nor
    /// tries a null move there, as if the side to move could pass.
    fn threatened(&self) -> bool {
        false
    }

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
    /// The deepest iteration any thread has completed in this search.
    deepest: Deepest,
    /// The moves threads are searching right now.
    busy: BusyMoves,
    /// Each thread's move statistics, kept from one search to the next.
    threads: Mutex<Vec<ThreadData>>,
}

/// Which (position, move) pairs some thread is searching right now: the "simplified ABDADA"
/// addition to Lazy SMP. A thread that meets a move another thread is already searching
/// searches its other moves first and that one last, so that the threads split the tree
/// instead of walking the same subtree side by side; by the time it comes back, the other
/// thread's result is usually in the table. A lossy table of hashes: a collision only
/// changes the order of moves, never the result.
struct BusyMoves(Vec<AtomicU64>);

impl BusyMoves {
    const SIZE: usize = 1 << 15;

    fn new() -> Self {
        BusyMoves((0..Self::SIZE).map(|_| AtomicU64::new(0)).collect())
    }

    #[inline]
    fn slot(&self, key: u64, mv: Move) -> (&AtomicU64, u64) {
        let tag = key ^ u64::from(mv.bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (&self.0[(tag >> 49) as usize & (Self::SIZE - 1)], tag)
    }

    #[inline]
    fn is_busy(&self, key: u64, mv: Move) -> bool {
        let (slot, tag) = self.slot(key, mv);
        slot.load(Ordering::Relaxed) == tag
    }

    #[inline]
    fn enter(&self, key: u64, mv: Move) {
        let (slot, tag) = self.slot(key, mv);
        slot.store(tag, Ordering::Relaxed);
    }

    #[inline]
    fn leave(&self, key: u64, mv: Move) {
        let (slot, tag) = self.slot(key, mv);
        // Only this entry: another thread may have taken the slot since.
        let _ = slot.compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Lazy SMP bookkeeping of one search: which depth the main thread is on, and the deepest
/// iteration completed by any thread with its score and principal variation. A thread that
/// finishes a depth first publishes it; the others then abandon that depth and go deeper,
/// and the search answers with the deepest line, so two threads reach a depth sooner than
/// one instead of completing the same iteration twice.
#[derive(Default)]
struct Deepest {
    /// The depth the main thread is searching (helpers skip it).
    main_depth: AtomicI32,
    /// The depth of `line` (0: none yet), readable without the lock.
    depth: AtomicI32,
    /// The score and principal variation of the deepest completed iteration.
    line: Mutex<(i32, Vec<Move>)>,
}

impl Deepest {
    fn reset(&self) {
        self.main_depth.store(0, Ordering::Relaxed);
        self.depth.store(0, Ordering::Relaxed);
    }

    /// Records a completed iteration if it is the deepest so far.
    fn publish(&self, depth: i32, score: i32, pv: &[Move]) {
        let mut line = self
            .line
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if depth > self.depth.load(Ordering::Relaxed) {
            *line = (score, pv.to_vec());
            self.depth.store(depth, Ordering::Release);
        }
    }

    /// The deepest completed iteration: depth, score and principal variation.
    fn get(&self) -> (i32, i32, Vec<Move>) {
        let line = self
            .line
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (self.depth.load(Ordering::Acquire), line.0, line.1.clone())
    }
}

impl Shared {
    /// Shared state with a table of `hash_mb` MiB (see [`TranspositionTable::new`]).
    pub fn new(hash_mb: usize) -> Shared {
        Shared::with_table(TranspositionTable::new(hash_mb))
    }

    /// Shared state with a table of `hash_mb` MiB, or an error if the memory is not there.
    pub fn try_new(hash_mb: usize) -> Result<Shared, String> {
        TranspositionTable::try_new(hash_mb).map(Shared::with_table)
    }

    fn with_table(tt: TranspositionTable) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deepest: Deepest::default(),
            busy: BusyMoves::new(),
            threads: Mutex::new(Vec::new()),
        }
    }

    /// Forgets the table and every thread's statistics (`ucinewgame`, a new game).
    pub fn clear(&self) {
        self.tt.clear();
        // Dropped, not zeroed: the next search makes fresh ones, which are the same as
        // cleared ones, and their zero pages cost nothing until used. Zeroing 256 threads'
        // tables (8 MiB each) in place took seconds.
        self.thread_data().clear();
    }

    /// Keeps the statistics of at most `threads` threads (the `Threads` option): those of
    /// threads that no longer search are only memory.
    pub fn keep_threads(&self, threads: usize) {
        self.thread_data().truncate(threads);
    }

    fn thread_data(&self) -> std::sync::MutexGuard<'_, Vec<ThreadData>> {
        self.threads
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes the statistics of `count` threads out (made fresh where missing) for a search.
    /// Searches on one `Shared` run one at a time (the UCI loop, every tool); a second one at
    /// once would only start from fresh statistics.
    fn take_thread_data(&self, count: usize) -> Vec<ThreadData> {
        let mut data = std::mem::take(&mut *self.thread_data());
        data.resize_with(count.max(data.len()), ThreadData::default);
        data
    }

    /// Puts the statistics back after a search.
    fn return_thread_data(&self, data: Vec<ThreadData>) {
        *self.thread_data() = data;
    }
}

/// Which evaluation the search uses (the UCI option `Evaluation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalMode {
    /// The game's full (classical) evaluation ([`SearchGame::evaluate`]).
    Full,
    /// Material only ([`SearchGame::material`]): the baseline for measuring the full one.
    Material,
    /// No search at all: a uniformly random legal move (a baseline opponent for matches).
    Random,
    /// The game's network: [`Settings::network`], else the one built into the binary
    /// (`nets/`); the full evaluation for a game that has neither.
    #[default]
    Nnue,
}

impl EvalMode {
    /// Parses `full`, `material`, `random` or `nnue` (case-insensitive).
    pub fn from_name(name: &str) -> Result<EvalMode, String> {
        match name.to_ascii_lowercase().as_str() {
            "full" => Ok(EvalMode::Full),
            "material" => Ok(EvalMode::Material),
            "random" => Ok(EvalMode::Random),
            "nnue" => Ok(EvalMode::Nnue),
            _ => Err(format!(
                "option 'Evaluation' takes full, material, random or nnue, not '{}'",
                name.escape_debug()
            )),
        }
    }
}

/// The engine's default contempt in play (UCI `Contempt`, the browser board): a draw is
/// worth a quarter pawn less than an even position, so it plays on for a win (Stockfish 9
/// to 11 played with 24). Measured in jetan, where the side that is behind can force a draw
/// by taking the enemy Chief with a lesser piece: full evaluation against material only,
/// both at 0 and both at 25, +138 and +182 Elo (docs/matches.md). Analysis
/// (`thoat analyze`), `bench` and self-play data use 0 ([`Settings::default`]).
pub const DEFAULT_CONTEMPT: i32 = 25;

/// Settings of one search that are not limits. The default is one thread, one line, the
/// network (the full evaluation for a game without one) and no contempt.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Worker threads (Lazy SMP).
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// The evaluation to use.
    pub eval: EvalMode,
    /// The network that [`EvalMode::Nnue`] evaluates with; one of another game is ignored.
    pub network: Option<std::sync::Arc<crate::nnue::network::Network>>,
    /// Centipawns a draw is worth less than an even position to the side to move at the
    /// root (its opponent values a draw that much more): positive plays on for a win.
    pub contempt: i32,
}

impl Settings {
    /// The network the search evaluates `G` with: with `Evaluation nnue` its
    /// [`Settings::game_network`], none otherwise.
    pub fn network_of<G: SearchGame>(&self) -> Option<&crate::nnue::network::Network> {
        match self.eval {
            EvalMode::Nnue => self.game_network::<G>(),
            _ => None,
        }
    }

    /// `G`'s network whatever the evaluation: the settings' network when it is one of `G`'s
    /// (so that its inputs fit the game's), else the game's built-in one.
    pub fn game_network<G: SearchGame>(&self) -> Option<&crate::nnue::network::Network> {
        self.network
            .as_deref()
            .filter(|n| {
                n.game == G::NAME && n.layers.inputs == crate::nnue::features::input_count::<G>()
            })
            .or_else(|| crate::nnue::embedded::network::<G>())
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            eval: EvalMode::Nnue,
            network: None,
            contempt: 0,
        }
    }
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
    /// Transposition-table look-ups of the main thread, and how many found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
}

impl Outcome {
    /// Answers with a completed line of `depth`: its first move to play, its second to ponder
    /// on. An empty line changes nothing.
    fn take_line(&mut self, depth: i32, score: i32, pv: &[Move]) {
        if let Some(&best) = pv.first() {
            self.best = Some(best);
            self.ponder = pv.get(1).copied();
            self.score = score;
            self.depth = depth;
        }
    }
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

/// A uniformly random legal move (among `searchmoves` when given), no search. The
/// seed mixes the position's hash with the clock, so games differ from run to run.
fn random_move<G: SearchGame>(game: &GameState<G>, limits: &Limits) -> Outcome {
    let mut moves = Vec::new();
    game.position.generate(&mut moves);
    if !limits.searchmoves.is_empty() {
        moves.retain(|m| limits.searchmoves.contains(m));
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // SplitMix64 finaliser: one well-mixed number from hash and time.
    let mut z = game.position.hash() ^ nanos.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    Outcome {
        best: (!moves.is_empty()).then(|| moves[(z % moves.len() as u64) as usize]),
        depth: 0,
        nodes: 1,
        ..Outcome::default()
    }
}

/// Searches `game` within `limits` on the calling thread alone, with no `info` output and
/// a clock without overhead: the entry point for tools and tests. Clears `shared.stop`.
pub fn search_quietly<G: SearchGame>(
    game: &GameState<G>,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
) -> Outcome {
    let quiet: Reporter = Arc::new(|_: &str| {});
    let clock = Clock::new(limits, game.position.side_to_move().index(), 0);
    shared.stop.store(false, Ordering::Relaxed);
    search(game, limits, settings, &clock, shared, None, &quiet)
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
    shared.deepest.reset();
    if settings.eval == EvalMode::Random {
        return random_move(game, limits);
    }
    shared.tt.new_search();
    let threads = settings.threads.max(1);
    let helpers = if pool.is_some() { threads - 1 } else { 0 };
    let mut data = shared.take_thread_data(helpers + 1);
    let (main_data, helper_data) = data.split_at_mut(1);
    let main_data = &mut main_data[0];
    let run_main = |main_data: &mut ThreadData| {
        let mut main = worker::Worker::new(game, limits, settings, clock, shared, 0, main_data);
        let outcome = main.iterate(Some(report));
        shared.stop.store(true, Ordering::Relaxed);
        outcome
    };
    let outcome = match pool {
        Some(pool) if helpers > 0 => pool.scope(|scope| {
            for (index, helper_data) in helper_data.iter_mut().take(helpers).enumerate() {
                scope.spawn(move |_| {
                    let mut helper = worker::Worker::new(
                        game,
                        limits,
                        settings,
                        clock,
                        shared,
                        index + 1,
                        helper_data,
                    );
                    helper.iterate(None);
                });
            }
            run_main(main_data)
        }),
        _ => run_main(main_data),
    };
    shared.return_thread_data(data);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::variants::Chess;

    fn searched_once(shared: &Shared) {
        let game = GameState::new(Chess::from_fen(Chess::START_FEN).expect("start position"));
        let limits = Limits::fixed_depth(7);
        let outcome = search_quietly(&game, &limits, &Settings::default(), shared);
        assert!(outcome.best.is_some());
    }

    fn killers_known(shared: &Shared) -> usize {
        let data = shared.take_thread_data(1);
        let known = data[0]
            .killers
            .iter()
            .flatten()
            .filter(|&&m| m != Move::NONE)
            .count();
        shared.return_thread_data(data);
        known
    }

    /// `Evaluation random` keeps to `go searchmoves` (it chose among all moves before).
    #[test]
    fn a_random_move_is_one_of_the_searchmoves() {
        let game = GameState::new(Chess::from_fen(Chess::START_FEN).expect("start position"));
        let mut moves = Vec::new();
        game.position.generate(&mut moves);
        let limits = Limits {
            searchmoves: vec![moves[7]],
            ..Limits::default()
        };
        let settings = Settings {
            eval: EvalMode::Random,
            ..Settings::default()
        };
        for _ in 0..20 {
            let outcome = search_quietly(&game, &limits, &settings, &Shared::new(1));
            assert_eq!(outcome.best, Some(moves[7]));
        }
    }

    #[test]
    fn the_default_settings_search_one_line_on_one_thread() {
        let settings = Settings::default();
        assert_eq!((settings.threads, settings.multipv), (1, 1));
        assert_eq!((settings.eval, settings.contempt), (EvalMode::Nnue, 0));
    }

    /// Forgetting is dropping: nothing is kept to be zeroed later, and a lower `Threads`
    /// keeps only the statistics of the threads that still search.
    #[test]
    fn clear_and_fewer_threads_keep_no_tables() {
        let shared = Shared::new(1);
        let retained = |shared: &Shared| shared.thread_data().len();
        shared.return_thread_data(shared.take_thread_data(8));
        assert_eq!(retained(&shared), 8);
        shared.keep_threads(3);
        assert_eq!(retained(&shared), 3);
        shared.clear();
        assert_eq!(retained(&shared), 0);
        searched_once(&shared);
        assert_eq!(retained(&shared), 1);
    }

    /// What a search learns stays for the next `go`; `clear` (`ucinewgame`) forgets it.
    #[test]
    fn thread_data_lives_across_searches_until_cleared() {
        let shared = Shared::new(1);
        assert_eq!(killers_known(&shared), 0);
        searched_once(&shared);
        let learned = killers_known(&shared);
        assert!(learned > 0, "a depth-7 search records killers");
        shared.tt.clear();
        assert_eq!(killers_known(&shared), learned, "kept across searches");
        shared.clear();
        assert_eq!(killers_known(&shared), 0, "cleared with the table");
    }
}
