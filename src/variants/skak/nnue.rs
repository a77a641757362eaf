//! What a network sees of a skak position: its pieces (the numbering is in
//! [`crate::nnue::features`]).

use super::Skak;
use crate::nnue::features::{for_each_piece_in_sets, BoardPiece, NnueGame};

impl NnueGame for Skak {
    const NNUE_KINDS: usize = super::KINDS;
    const NNUE_KING: usize = super::JARKHAN;

    fn for_each_piece(&self, f: impl FnMut(BoardPiece)) {
        for_each_piece_in_sets(&self.kinds, &self.colors, 8, f);
    }

    /// Skak has no castling and its rules are the same on both wings.
    fn mirror_symmetric(&self) -> bool {
        true
    }
}
