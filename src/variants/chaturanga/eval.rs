//! What the search needs from chaturanga: a first evaluation (material for the old, weak
//! pieces, centralisation, pawn advance, king shelter, the leap right in hand), capture
//! ordering and the null move.

use super::{Chaturanga, CHARIOT, COUNSELLOR, ELEPHANT, HORSE, KEYS, KING_TYPE, PAWN, SIDE_KEY};
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;
use crate::variants::pst8;

/// Material by type: pawn, horse, elephant, chariot, counsellor, king. The elephant and the
/// counsellor reach few squares and are worth far less than a bishop or a queen.
const VALUES: [i32; 6] = [100, 300, 140, 500, 170, 20_000];

impl Chaturanga {
    fn side_score(&self, color: Color, endgame: bool) -> i32 {
        let white = color == Color::White;
        let mut score = 0;
        for kind in [PAWN, HORSE, ELEPHANT, CHARIOT, COUNSELLOR, KING_TYPE] {
            for sq in self.of(color, kind).squares() {
                let i = pst8::pst_index(white, sq);
                score += match kind {
                    KING_TYPE if endgame => pst8::KING_END[i],
                    KING_TYPE => pst8::KING_MIDDLE[i] / 2,
                    PAWN => VALUES[0] + pst8::PAWN[i] / 2,
                    HORSE => VALUES[1] + pst8::KNIGHT[i],
                    CHARIOT => VALUES[3] + pst8::ROOK[i],
                    // Elephant and counsellor: a small pull to the centre.
                    _ => VALUES[kind as usize] + pst8::BISHOP[i] / 2,
                };
            }
        }
        if self.has_leap(color) {
            score += 15;
        }
        score
    }
}

impl SearchGame for Chaturanga {
    fn material(&self) -> i32 {
        let side = |c: Color| -> i32 {
            [PAWN, HORSE, ELEPHANT, CHARIOT, COUNSELLOR]
                .into_iter()
                .map(|k| VALUES[k as usize] * self.of(c, k).count_ones() as i32)
                .sum()
        };
        side(self.side) - side(self.side.flip())
    }

    fn evaluate(&self) -> i32 {
        let heavy = (self.pieces[CHARIOT as usize] | self.pieces[HORSE as usize]).count_ones();
        let endgame = heavy <= 3;
        self.side_score(self.side, endgame) - self.side_score(self.side.flip(), endgame)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let value = |sq: u8| VALUES[(self.board[sq as usize] % 6) as usize];
        let victim = if self.occupied() & (1u64 << mv.to()) != 0 {
            value(mv.to())
        } else {
            0
        };
        victim * 8 + 100 * i32::from(mv.promotion() != 0) - value(mv.from()).min(1000) / 10
    }

    fn in_check(&self) -> bool {
        Chaturanga::in_check(self)
    }

    fn null_move(&self) -> Option<Self> {
        let strong = self.of(self.side, CHARIOT) | self.of(self.side, HORSE);
        if strong == 0 || Chaturanga::in_check(self) {
            return None;
        }
        let mut passed = *self;
        passed.side = self.side.flip();
        passed.hash ^= KEYS[SIDE_KEY];
        Some(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    #[test]
    fn start_is_balanced_and_null_move_hash_is_exact() {
        let start = Chaturanga::from_fen(Chaturanga::START_FEN).unwrap();
        assert_eq!(start.evaluate(), 0);
        let passed = start.null_move().unwrap();
        assert_eq!(passed.hash(), passed.recompute_hash());
    }
}
