//! Jetan's Chief-capture draw in the search: the side that is behind takes the enemy Chief
//! with a lesser piece (a draw at once), and the side that is ahead does not leave its
//! Chief where a lesser enemy piece can take it.

use thoat::core::game::parse_move;
use thoat::core::{Game, GameState, Move};
use thoat::search::{search_quietly, Limits, Settings, Shared};
use thoat::variants::Jetan;

/// Searches `fen` to `depth` plies on one thread; returns the best move and its score.
fn think(fen: &str, depth: i32) -> (Move, i32, Jetan) {
    think_with_contempt(fen, depth, 0)
}

/// The same with the given contempt.
fn think_with_contempt(fen: &str, depth: i32, contempt: i32) -> (Move, i32, Jetan) {
    let position = Jetan::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let game = GameState::new(position.clone());
    let limits = Limits::fixed_depth(depth);
    let shared = Shared::new(4);
    let settings = Settings {
        contempt,
        ..Settings::default()
    };
    let outcome = search_quietly(&game, &limits, &settings, &shared);
    let best = outcome.best.unwrap_or_else(|| panic!("{fen}: no move"));
    (best, outcome.score, position)
}

/// White: Chief e1, Princess j1, Dwar a5, Flier b5. Black: Chief j10, Princess a10, and a
/// Thoat on d3 that reaches e1 (d2, then diagonally to e1).
const CHIEF_EN_PRISE: &str = "q8k/10/10/10/10/DF8/10/3t6/10/4K4Q";

#[test]
fn the_side_behind_takes_the_chief_for_a_draw() {
    let fen = format!("{CHIEF_EN_PRISE} b - 0 1");
    let (best, score, position) = think(&fen, 4);
    assert_eq!(position.move_text(best), "d3e1");
    assert_eq!(score, 0);
}

/// Contempt moves the value of a draw for the side to move at the root, whichever side ends
/// the game: here the root's own capture, scored where the opponent is to move.
#[test]
fn contempt_is_the_draws_cost_to_the_root_side() {
    let fen = format!("{CHIEF_EN_PRISE} b - 0 1");
    for contempt in [30, -30] {
        let (best, score, position) = think_with_contempt(&fen, 4, contempt);
        // Losing is worse than any draw, so the capture stays best.
        assert_eq!(position.move_text(best), "d3e1", "contempt {contempt}");
        assert_eq!(score, -contempt);
    }
}

#[test]
fn the_side_ahead_keeps_its_chief_out_of_reach() {
    let fen = format!("{CHIEF_EN_PRISE} w - 0 1");
    let (best, score, position) = think(&fen, 4);
    let mut after = position.clone();
    after.play(best);
    let mut replies = Vec::new();
    after.generate(&mut replies);
    for reply in replies {
        let mut next = after.clone();
        next.play(reply);
        assert!(
            next.ended().is_none(),
            "{} lets {} end the game",
            position.move_text(best),
            after.move_text(reply)
        );
    }
    assert!(score > 300, "score {score}");
    assert_eq!(parse_move(&position, &position.move_text(best)), Ok(best));
}
