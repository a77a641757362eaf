//! `soak`: many fast self-play games per game, in process, each move found by a
//! node-limited search under a real clock and checked before it is played:
//! - the move is in the legal move list of the rules generator, its text parses back to it
//!   (`parse_move`), and for chess the move is checked against a second, independent legality
//!   test (a plain ray walk for "is my king attacked after the move", no magic bitboards);
//! - after the move the incremental hash equals the recomputed one and the FEN round-trips;
//! - no panic, no search without an answer while moves exist, no time loss (each side has
//!   a clock of 10 s + 100 ms per move that the search's own time management must respect).
//!
//! The first 0-7 plies of each game are random legal moves (from the seed), so the games
//! differ although the search is deterministic.

use crate::core::game::parse_move;
use crate::core::rng::Rng;
use crate::core::{Color, Game, GameState};
use crate::search::{search, Clock, Limits, Reporter, SearchGame, Settings, Shared};
use crate::variants::{Chess, Variant};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The clock of each side at the start and its increment, in milliseconds.
const CLOCK_MS: u64 = 10_000;
const INCREMENT_MS: u64 = 100;

/// What to play.
#[derive(Clone, Debug)]
pub struct SoakConfig {
    /// Games to play.
    pub games: u64,
    /// Node limit of each move's search.
    pub nodes: u64,
    /// Seed of the random opening plies.
    pub seed: u64,
    /// Plies after which a game is stopped unfinished.
    pub max_plies: usize,
}

/// The figures of a soak.
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    /// Games played.
    pub games: u64,
    /// Moves played by the search (and checked).
    pub moves: u64,
    /// White wins, Black wins, draws, games stopped at the ply limit.
    pub outcomes: [u64; 4],
    /// The longest time one move took, in milliseconds.
    pub slowest_move_ms: u128,
    /// Wall time.
    pub millis: u128,
    /// Crashes, illegal moves, time losses, missing moves, each described.
    pub failures: Vec<String>,
}

/// Plays `config.games` games of `variant` and writes a summary line (and every failure).
pub fn run(
    variant: Variant,
    config: &SoakConfig,
    out: &mut impl Write,
) -> std::io::Result<SoakReport> {
    crate::core::attacks8::init();
    let start = Instant::now();
    let mut report = SoakReport::default();
    let shared = Shared::new(1);
    for index in 0..config.games {
        let mut rng = Rng::new(config.seed, index);
        let played = catch_unwind(AssertUnwindSafe(
            || crate::with_game!(variant, G => play_game::<G>(&mut rng, config, &shared)),
        ));
        report.games += 1;
        if report.games % 250 == 0 {
            // Progress, so that an interrupted soak still leaves its figures.
            writeln!(
                out,
                "progress {}: {} games, {} moves, {} failures, {} ms",
                variant.name(),
                report.games,
                report.moves,
                report.failures.len(),
                start.elapsed().as_millis()
            )?;
            out.flush()?;
        }
        match played {
            Ok(game) => {
                report.moves += game.moves;
                report.outcomes[game.outcome] += 1;
                report.slowest_move_ms = report.slowest_move_ms.max(game.slowest_ms);
                for f in game.failures {
                    let line = format!(
                        "FAIL {} game {index} (seed {}): {f}",
                        variant.name(),
                        config.seed
                    );
                    writeln!(out, "{line}")?;
                    report.failures.push(line);
                }
            }
            Err(panic) => {
                let text = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let line = format!("FAIL {} game {index}: panic: {text}", variant.name());
                writeln!(out, "{line}")?;
                report.failures.push(line);
            }
        }
    }
    report.millis = start.elapsed().as_millis();
    let [w, b, d, capped] = report.outcomes;
    writeln!(
        out,
        "soak {}: {} games, {} moves checked, 1-0 {w} 0-1 {b} draw {d} unfinished {capped}, \
         {} failures, slowest move {} ms, {} ms",
        variant.name(),
        report.games,
        report.moves,
        report.failures.len(),
        report.slowest_move_ms,
        report.millis
    )?;
    Ok(report)
}

/// One game's figures.
struct Played {
    moves: u64,
    /// 0 White won, 1 Black won, 2 draw, 3 unfinished.
    outcome: usize,
    slowest_ms: u128,
    failures: Vec<String>,
}

fn play_game<G: SearchGame>(rng: &mut Rng, config: &SoakConfig, shared: &Shared) -> Played {
    let mut game = GameState::new(G::from_fen(G::START_FEN).expect("start FEN parses"));
    let mut played = Played {
        moves: 0,
        outcome: 3,
        slowest_ms: 0,
        failures: Vec::new(),
    };
    let mut moves = Vec::new();
    for _ in 0..rng.below(8) {
        if game.result().is_some() {
            break;
        }
        game.position.generate(&mut moves);
        let mv = *rng.pick(&moves);
        game.play(mv);
    }
    shared.clear();
    let quiet: Reporter = Arc::new(|_: &str| {});
    let settings = Settings::default();
    let mut clocks = [CLOCK_MS; 2];
    for _ in 0..config.max_plies {
        if let Some(result) = game.result() {
            played.outcome = match result.winner {
                Some(Color::White) => 0,
                Some(Color::Black) => 1,
                None => 2,
            };
            return played;
        }
        let side = game.position.side_to_move().index();
        let limits = Limits {
            nodes: Some(config.nodes),
            time: [Some(clocks[0]), Some(clocks[1])],
            increment: [INCREMENT_MS; 2],
            ..Limits::default()
        };
        let clock = Clock::new(&limits, side, 10);
        shared.stop.store(false, Ordering::Relaxed);
        let t0 = Instant::now();
        let outcome = search(&game, &limits, &settings, &clock, shared, None, &quiet);
        let took = t0.elapsed();
        played.slowest_ms = played.slowest_ms.max(took.as_millis());
        let fen = game.position.fen();
        if took > Duration::from_millis(clocks[side]) {
            played.failures.push(format!(
                "time loss: {took:?} with {} ms left in {fen}",
                clocks[side]
            ));
            return played;
        }
        clocks[side] = clocks[side] - took.as_millis() as u64 + INCREMENT_MS;
        let Some(best) = outcome.best else {
            played
                .failures
                .push(format!("no move from the search in {fen}"));
            return played;
        };
        game.position.generate(&mut moves);
        let text = game.position.move_text(best);
        if !moves.contains(&best) || parse_move(&game.position, &text) != Ok(best) {
            played
                .failures
                .push(format!("illegal move {text} in {fen}"));
            return played;
        }
        if let Some(problem) = independent_check(&game.position, &text) {
            played.failures.push(format!("{problem} ({text} in {fen})"));
            return played;
        }
        game.play(best);
        played.moves += 1;
        let pos = &game.position;
        if pos.hash() != pos.recompute_hash() {
            played
                .failures
                .push(format!("hash wrong after {text} in {fen}"));
            return played;
        }
        match G::from_fen(&pos.fen()) {
            Ok(again) if again.fen() == pos.fen() => {}
            _ => {
                played
                    .failures
                    .push(format!("FEN {} does not round-trip", pos.fen()));
                return played;
            }
        }
    }
    played
}

/// A legality check that shares no code with the game's generator, where one is cheap:
/// for chess, the king of the side that moved must not be attacked afterwards (by a plain
/// walk over the board text of the FEN). `None` when the move passes or for other games.
fn independent_check<G: Game>(pos: &G, text: &str) -> Option<String> {
    if G::NAME != Chess::NAME {
        return None;
    }
    let mut after = pos.clone();
    let mv = parse_move(pos, text).ok()?;
    after.play(mv);
    let fen = after.fen();
    let board = parse_board(&fen)?;
    // The side that moved is the one not to move now.
    let mover_white = fen.split(' ').nth(1) == Some("b");
    let king = if mover_white { 'K' } else { 'k' };
    let (kf, kr) = (0..8)
        .flat_map(|f| (0..8).map(move |r| (f, r)))
        .find(|&(f, r)| board[r][f] == Some(king))?;
    if attacked(&board, kf as i32, kr as i32, !mover_white) {
        return Some(format!("{text} leaves its own king attacked (ray check)"));
    }
    None
}

type Board = [[Option<char>; 8]; 8];

/// The board of a chess FEN, `[rank][file]`, rank 0 = rank 1.
fn parse_board(fen: &str) -> Option<Board> {
    let mut board: Board = [[None; 8]; 8];
    for (i, row) in fen.split(' ').next()?.split('/').enumerate() {
        let rank = 7usize.checked_sub(i)?;
        let mut file = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else {
                *board.get_mut(rank)?.get_mut(file)? = Some(c);
                file += 1;
            }
        }
    }
    Some(board)
}

/// Whether square (f, r) is attacked by the pieces of `by_white`.
fn attacked(board: &Board, f: i32, r: i32, by_white: bool) -> bool {
    let at = |f: i32, r: i32| -> Option<char> {
        if (0..8).contains(&f) && (0..8).contains(&r) {
            board[r as usize][f as usize]
        } else {
            None
        }
    };
    let own = |c: char| c.is_ascii_uppercase() == by_white;
    let is = |f: i32, r: i32, kinds: &str| {
        at(f, r).is_some_and(|c| own(c) && kinds.contains(c.to_ascii_lowercase()))
    };
    let pawn_dir = if by_white { -1 } else { 1 };
    if is(f - 1, r + pawn_dir, "p") || is(f + 1, r + pawn_dir, "p") {
        return true;
    }
    for (df, dr) in crate::core::KNIGHT_LEAPS {
        if is(f + i32::from(df), r + i32::from(dr), "n") {
            return true;
        }
    }
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) == (0, 0) {
                continue;
            }
            if is(f + df, r + dr, "k") {
                return true;
            }
            let sliders = if df == 0 || dr == 0 { "rq" } else { "bq" };
            let (mut x, mut y) = (f + df, r + dr);
            while (0..8).contains(&x) && (0..8).contains(&y) {
                if let Some(c) = at(x, y) {
                    if own(c) && sliders.contains(c.to_ascii_lowercase()) {
                        return true;
                    }
                    break;
                }
                x += df;
                y += dr;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_check_sees_pins_and_checks() {
        crate::core::attacks8::init();
        // White king e1, black rook e8: moving the e2 pawn's neighbour is fine, but a
        // position where the king stands in the rook's file is attacked.
        let board = parse_board("4r2k/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(attacked(&board, 4, 0, false));
        assert!(!attacked(&board, 3, 0, false));
        let board = parse_board("7k/8/8/8/8/8/3p4/4K3 w - - 0 1").unwrap();
        assert!(attacked(&board, 4, 0, false), "pawn d2 attacks e1");
        assert!(!attacked(&board, 3, 0, false));
        // A legal move passes.
        let pos = Chess::from_fen(Chess::START_FEN).unwrap();
        assert_eq!(independent_check(&pos, "e2e4"), None);
    }
}
