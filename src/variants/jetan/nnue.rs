//! What a network sees of a jetan position: its pieces (the numbering is in
//! [`crate::nnue::features`]).

use super::Jetan;
use crate::nnue::features::{for_each_piece_in_sets, BoardPiece, NnueGame};

impl NnueGame for Jetan {
    const NNUE_KINDS: usize = 8;
    const NNUE_KING: usize = super::Piece::Chief as usize;

    fn for_each_piece(&self, f: impl FnMut(BoardPiece)) {
        for_each_piece_in_sets(&self.by_kind, &self.by_color, 10, f);
    }

    /// Every jetan piece moves alike to both wings, and the escape is a right of the
    /// Princess, not of a wing.
    fn mirror_symmetric(&self) -> bool {
        true
    }
}
