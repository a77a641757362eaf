//! What a network sees of a duck chess position: its pieces and the duck, a neutral piece
//! (the numbering is in [`crate::nnue::features`]).

use super::Duck;
use crate::nnue::features::{
    for_each_piece_in_sets, input_sets_of_boards, BoardPiece, InputSet, NnueGame,
};

impl NnueGame for Duck {
    const NNUE_KINDS: usize = 6;
    const NNUE_KING: usize = crate::variants::chesslike::KING;
    const NNUE_NEUTRAL: bool = true;

    fn for_each_piece(&self, mut f: impl FnMut(BoardPiece)) {
        for_each_piece_in_sets(&self.pieces, &self.colors, 8, &mut f);
        if self.duck != 0 {
            let square = self.duck.trailing_zeros() as u8;
            f(BoardPiece {
                kind: 0,
                owner: None,
                file: square % 8,
                rank: square / 8,
            });
        }
    }

    /// The rules are the same on both wings (the duck's too); only castling tells them apart.
    fn mirror_symmetric(&self) -> bool {
        self.castling == 0
    }

    fn input_sets(&self) -> [InputSet; 2] {
        input_sets_of_boards::<Self>(&self.pieces, &self.colors, self.duck)
    }
}
