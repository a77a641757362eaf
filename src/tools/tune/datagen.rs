//! `thoat datagen`: positions for tuning, from games the engine plays against itself in
//! process. Each game starts from an opening of the book (round robin over the book, in an
//! order shuffled by the seed), plays a few uniformly random plies (from the seed and the
//! game's number, so that games from one opening differ), then every move is a node-limited
//! single-thread search with a fresh hash table per game. The result comes from
//! `GameState::result()`; a game longer than the ply limit is a draw.
//!
//! Kept: quiet positions, where the game is not over, the side to move is not in check, the
//! search's move is not tactical (`Game::is_tactical`) and its score is no forced win or loss,
//! and not within the first plies after the random ones. Each becomes one line
//! `<fen> ; <result for White: 1, 0.5 or 0>`, or with `scores` (for `thoat train`)
//! `<fen> ; <the search's score in centipawns for White> ; <result>`.
//!
//! The output depends only on the binary, the book, the seed and the limits: the searches are
//! node-limited on one thread with a table cleared at each game's start, and games are
//! written in their number's order whatever `--threads` is.

use crate::core::rng::Rng;
use crate::core::{Color, GameState};
use crate::search::{search_quietly, Limits, SearchGame, Settings, Shared, MATE_BOUND};
use crate::tools::matches::openings::parse_openings;
use crate::variants::Variant;
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

/// The hash table of each game's searches, MiB.
const HASH_MB: usize = 4;
/// Games played between two writes of the output (and progress lines).
const BATCH: usize = 64;

/// How `thoat datagen` plays.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// Games to play.
    pub games: usize,
    /// Node limit of each move's search.
    pub nodes: u64,
    /// Seed of the book order and the random plies.
    pub seed: u64,
    /// Uniformly random plies after the opening (0 to this many, from the seed).
    pub random_plies: u32,
    /// Plies after the random ones whose positions are not kept.
    pub skip_plies: u32,
    /// Plies after which a game is a draw.
    pub max_plies: u32,
    /// Games played at the same time.
    pub threads: usize,
    /// Write each position's search score too.
    pub scores: bool,
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// White wins, Black wins, draws (the ply limit included).
    pub outcomes: [usize; 3],
    /// Games that reached the ply limit.
    pub capped: usize,
    /// Positions written.
    pub positions: usize,
}

/// The seeded generator of the book order (stream `u64::MAX`) and of each game's random
/// plies (stream = the game's number).
fn rng(seed: u64, stream: u64) -> Rng {
    Rng::mixed(seed, stream, 0xD1B5_4A32_D192_ED03)
}

/// The book in the order the games use it: shuffled by the seed (Fisher-Yates).
fn book_order(book: &[String], seed: u64) -> Vec<String> {
    let mut order = book.to_vec();
    rng(seed, u64::MAX).shuffle(&mut order);
    order
}

/// One game: its kept positions (FEN) and its result for White (2 = 1, 1 = ½, 0 = 0, in
/// halves so that it stays an integer).
struct Played {
    /// The kept positions with the search's score for White.
    fens: Vec<(String, i32)>,
    halves: u8,
    capped: bool,
}

fn play_game<G: SearchGame>(
    opening: &str,
    index: usize,
    recipe: &Recipe,
    shared: &Shared,
) -> Result<Played, String> {
    let position = G::from_fen(opening).map_err(|e| format!("opening '{opening}': {e}"))?;
    let mut game = GameState::new(position);
    let mut rng = rng(recipe.seed, index as u64);
    let mut moves = Vec::new();
    for _ in 0..rng.below(recipe.random_plies as usize + 1) {
        game.position.generate(&mut moves);
        if moves.is_empty() || game.result().is_some() {
            break;
        }
        game.play(moves[rng.below(moves.len())]);
    }
    shared.clear();
    let settings = Settings::default();
    let limits = Limits::fixed_nodes(recipe.nodes.max(1));
    let mut fens = Vec::new();
    for ply in 0..recipe.max_plies {
        if let Some(result) = game.result() {
            let halves = match result.winner {
                Some(Color::White) => 2,
                Some(Color::Black) => 0,
                None => 1,
            };
            return Ok(Played {
                fens,
                halves,
                capped: false,
            });
        }
        let outcome = search_quietly(&game, &limits, &settings, shared);
        let Some(best) = outcome.best else {
            // `result()` said the game goes on, so a move exists: the search must find one.
            return Err(format!(
                "no move from the search in {}",
                game.position.fen()
            ));
        };
        if ply >= recipe.skip_plies
            && !game.position.in_check()
            && !game.position.is_tactical(best)
            && outcome.score.abs() < MATE_BOUND
        {
            let white_score = match game.position.side_to_move() {
                Color::White => outcome.score,
                Color::Black => -outcome.score,
            };
            fens.push((game.position.fen(), white_score));
        }
        game.play(best);
    }
    Ok(Played {
        fens,
        halves: 1,
        capped: true,
    })
}

/// Plays the games of `recipe` from `book` (FENs of `variant`), writes the kept positions to
/// `out` and a progress line per batch to `log`.
pub fn run(
    variant: Variant,
    book: &[String],
    recipe: &Recipe,
    out: &mut impl Write,
    log: &mut impl Write,
) -> Result<Summary, String> {
    crate::with_game!(variant, G => run_for::<G>(book, recipe, out, log))
}

fn run_for<G: SearchGame>(
    book: &[String],
    recipe: &Recipe,
    out: &mut impl Write,
    log: &mut impl Write,
) -> Result<Summary, String> {
    crate::core::attacks8::init();
    if book.is_empty() {
        return Err("the openings book is empty".to_string());
    }
    let order = book_order(book, recipe.seed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(recipe.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", recipe.threads))?;
    let start = Instant::now();
    let mut summary = Summary::default();
    let write_error = |e: std::io::Error| format!("cannot write the positions: {e}");
    for first in (0..recipe.games).step_by(BATCH) {
        let last = (first + BATCH).min(recipe.games);
        let played: Vec<Result<Played, String>> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map_init(
                    || Shared::new(HASH_MB),
                    |shared, index| {
                        play_game::<G>(&order[index % order.len()], index, recipe, shared)
                    },
                )
                .collect()
        });
        for game in played {
            let game = game?;
            let result = match game.halves {
                2 => "1",
                1 => "0.5",
                _ => "0",
            };
            for (fen, score) in &game.fens {
                if recipe.scores {
                    writeln!(out, "{fen} ; {score} ; {result}").map_err(write_error)?;
                } else {
                    writeln!(out, "{fen} ; {result}").map_err(write_error)?;
                }
            }
            summary.games += 1;
            summary.positions += game.fens.len();
            summary.outcomes[match game.halves {
                2 => 0,
                0 => 1,
                _ => 2,
            }] += 1;
            summary.capped += usize::from(game.capped);
        }
        out.flush().map_err(write_error)?;
        let _ = writeln!(
            log,
            "datagen {}: {} / {} games, {} positions, {} s",
            G::NAME,
            summary.games,
            recipe.games,
            summary.positions,
            start.elapsed().as_secs()
        );
    }
    let [w, b, d] = summary.outcomes;
    let _ = writeln!(
        log,
        "datagen {}: {} games (1-0 {w}, 0-1 {b}, draw {d}, {} at the ply limit), {} positions, {} ms",
        G::NAME,
        summary.games,
        summary.capped,
        summary.positions,
        start.elapsed().as_millis()
    );
    Ok(summary)
}

/// Reads the book of `variant` from `path`.
pub fn read_book(variant: Variant, path: &std::path::Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the openings {}: {e}", path.display()))?;
    parse_openings(variant, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::parse_move;
    use crate::core::Game;
    use crate::variants::Skak;

    fn tiny(seed: u64, threads: usize) -> Recipe {
        Recipe {
            games: 2,
            nodes: 200,
            seed,
            random_plies: 2,
            skip_plies: 2,
            max_plies: 300,
            threads,
            scores: false,
        }
    }

    fn generate(recipe: &Recipe) -> (String, Summary) {
        let book = vec![Skak::START_FEN.to_string()];
        let mut out = Vec::new();
        let summary = run(Variant::Skak, &book, recipe, &mut out, &mut Vec::new()).unwrap();
        (String::from_utf8(out).unwrap(), summary)
    }

    #[test]
    fn lines_are_quiet_positions_with_a_result() {
        let (text, summary) = generate(&tiny(5, 1));
        assert_eq!(summary.games, 2);
        assert_eq!(summary.outcomes.iter().sum::<usize>(), 2);
        assert_eq!(text.lines().count(), summary.positions);
        assert!(summary.positions > 10, "{text}");
        for line in text.lines() {
            let (fen, result) = line.split_once(" ; ").expect("fen ; result");
            assert!(["1", "0.5", "0"].contains(&result), "{line}");
            let position = Skak::from_fen(fen).expect("the FEN parses");
            assert_eq!(position.fen(), fen);
            assert!(position.ended().is_none());
            // The position has moves that play and print back.
            let mut moves = Vec::new();
            position.generate(&mut moves);
            assert!(!moves.is_empty(), "{line}");
            for mv in moves {
                let text = position.move_text(mv);
                assert_eq!(parse_move(&position, &text), Ok(mv));
            }
        }
    }

    #[test]
    fn with_scores_every_line_reads_as_a_training_sample() {
        let (plain, _) = generate(&tiny(5, 1));
        let (text, summary) = generate(&Recipe {
            scores: true,
            ..tiny(5, 1)
        });
        let (samples, errors) = crate::nnue::data::read_samples::<Skak>(
            &text,
            crate::nnue::features::InputLayout::Plain,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(samples.len(), summary.positions);
        // The same games: the same positions and results, a score between them.
        for (with, without) in text.lines().zip(plain.lines()) {
            let mut fields = with.split(" ; ");
            let (fen, score, result) = (fields.next(), fields.next(), fields.next());
            assert_eq!(format!("{} ; {}", fen.unwrap(), result.unwrap()), without);
            assert!(score
                .unwrap()
                .parse::<i32>()
                .is_ok_and(|s| s.abs() < 30_000));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_file_for_any_threads() {
        let (a, _) = generate(&tiny(9, 1));
        let (b, _) = generate(&tiny(9, 2));
        assert_eq!(a, b);
        let (c, _) = generate(&tiny(10, 1));
        assert_ne!(a, c);
    }

    #[test]
    fn the_book_order_is_a_seeded_permutation() {
        let book: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let a = book_order(&book, 1);
        assert_eq!(a, book_order(&book, 1));
        assert_ne!(a, book_order(&book, 2));
        let mut sorted = a.clone();
        sorted.sort_by_key(|s| s.parse::<u32>().unwrap());
        assert_eq!(sorted, book);
    }
}
