//! The search finds forced wins in every game and always answers with a legal move.

use std::sync::Arc;
use thoat::core::game::parse_move;
use thoat::core::{GameState, Move};
use thoat::search::{search, Clock, Limits, Reporter, SearchGame, Settings, Shared, MATE};
use thoat::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

/// Searches `fen` to `depth` plies with `threads` threads; returns best move and score.
fn think<G: SearchGame>(fen: &str, depth: i32, threads: usize) -> (Option<Move>, i32, G) {
    let position = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let game = GameState::new(position.clone());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let clock = Clock::new(&limits, 0, 0);
    let shared = Shared::new(16);
    let settings = Settings {
        threads,
        multipv: 1,
    };
    let quiet: Reporter = Arc::new(|_: &str| {});
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let outcome = search(
        &game,
        &limits,
        &settings,
        &clock,
        &shared,
        Some(&pool),
        &quiet,
    );
    (outcome.best, outcome.score, position)
}

/// Asserts that the side to move has a forced win in at most `moves` moves in each
/// position, that the search scores it so, and that the winning move is one of `accept`
/// when given.
fn assert_wins<G: SearchGame>(cases: &[(&str, u32, &[&str])]) {
    for &(fen, moves, accept) in cases {
        let plies = 2 * moves as i32 - 1;
        let (best, score, position) = think::<G>(fen, plies + 1, 1);
        let best = best.unwrap_or_else(|| panic!("{fen}: no move"));
        let text = position.move_text(best);
        assert!(
            score >= MATE - plies,
            "{fen}: win in {moves} not found: score {score}, move {text}"
        );
        assert!(
            accept.is_empty() || accept.contains(&text.as_str()),
            "{fen}: {text} not in {accept:?}"
        );
        assert_eq!(parse_move(&position, &text), Ok(best));
    }
}

#[test]
fn skak_jarkhan_captures() {
    assert_wins::<Skak>(&[
        ("3k3/2p4/7/3Q3/1P5/7/r2K3 w - - 0 30", 1, &["d4d7"]),
        ("6k/5pp/7/7/7/7/R2K3 w - - 0 1", 2, &["a1a7"]),
    ]);
}
