//! What a network sees of a jetan position: its pieces (the numbering is in
//! [`crate::nnue::features`]).

use super::Jetan;
use crate::core::Color;
use crate::nnue::features::{BoardPiece, NnueGame};

impl NnueGame for Jetan {
    const NNUE_KINDS: usize = 8;

    fn for_each_piece(&self, mut f: impl FnMut(BoardPiece)) {
        for (kind, &set) in self.by_kind.iter().enumerate() {
            for owner in [Color::White, Color::Black] {
                let mut bits = set & self.by_color[owner.index()];
                while bits != 0 {
                    let square = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    f(BoardPiece {
                        kind,
                        owner: Some(owner),
                        file: square % 10,
                        rank: square / 10,
                    });
                }
            }
        }
    }
}
