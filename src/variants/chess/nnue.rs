//! What a network sees of a chess position: its pieces (the numbering is in
//! [`crate::nnue::features`]).

use super::Chess;
use crate::nnue::features::{
    for_each_piece_in_sets, input_sets_of_boards, BoardPiece, InputSet, NnueGame,
};

impl NnueGame for Chess {
    const NNUE_KINDS: usize = 6;
    const NNUE_KING: usize = crate::variants::chesslike::KING;

    fn for_each_piece(&self, f: impl FnMut(BoardPiece)) {
        for_each_piece_in_sets(&self.pieces, &self.colors, 8, f);
    }

    /// Chess's rules are the same on both wings; only castling tells them apart.
    fn mirror_symmetric(&self) -> bool {
        self.castling == 0
    }

    fn input_sets(&self) -> [InputSet; 2] {
        input_sets_of_boards::<Self>(&self.pieces, &self.colors, 0)
    }
}
