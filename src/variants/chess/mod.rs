//! chess: placeholder until the rules are implemented (see RULES.md).

use crate::core::{Color, Game, GameResult, Move};

/// A chess position.
#[derive(Clone)]
pub struct Chess;

impl Game for Chess {
    const NAME: &'static str = "chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const WIDTH: u8 = 8;
    const HEIGHT: u8 = 8;

    fn from_fen(_fen: &str) -> Result<Self, String> {
        Err("chess is not implemented yet".to_string())
    }
    fn fen(&self) -> String {
        String::new()
    }
    fn side_to_move(&self) -> Color {
        Color::White
    }
    fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
    }
    fn play(&mut self, _mv: Move) {}
    fn hash(&self) -> u64 {
        0
    }
    fn recompute_hash(&self) -> u64 {
        0
    }
    fn move_text(&self, _mv: Move) -> String {
        String::new()
    }
    fn is_tactical(&self, _mv: Move) -> bool {
        false
    }
    fn ended(&self) -> Option<GameResult> {
        None
    }
    fn no_moves_result(&self) -> GameResult {
        GameResult::draw("stalemate")
    }
    fn rule_draw(&self) -> Option<&'static str> {
        None
    }
    fn color_flipped(&self) -> Self {
        self.clone()
    }
    fn board_text(&self) -> String {
        String::new()
    }
}
