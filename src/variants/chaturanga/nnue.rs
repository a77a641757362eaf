//! What a network sees of a chaturanga position: its pieces (the numbering is in
//! [`crate::nnue::features`]).

use super::Chaturanga;
use crate::nnue::features::{
    for_each_piece_in_sets, input_sets_of_boards, BoardPiece, InputSet, NnueGame,
};

impl NnueGame for Chaturanga {
    const NNUE_KINDS: usize = 6;
    const NNUE_KING: usize = super::KING_TYPE as usize;
    // The start position is point-symmetric (kings on e1 and d8).
    const NNUE_HALF_TURN: bool = true;

    fn for_each_piece(&self, f: impl FnMut(BoardPiece)) {
        for_each_piece_in_sets(&self.pieces, &self.colors, 8, f);
    }

    fn input_sets(&self) -> [InputSet; 2] {
        input_sets_of_boards::<Self>(&self.pieces, &self.colors, 0)
    }
}
