//! Unit tests of the chess rules: counts checked by hand, FEN errors, hash and results.

use super::*;
use crate::core::game::{parse_move, perft};

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn move_texts(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut moves = Vec::new();
    p.generate(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
    texts.sort();
    texts
}

#[test]
fn start_position_perft() {
    let p = pos(Chess::START_FEN);
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 3), 8902);
}
