//! What the search needs from chess: a first evaluation (material, piece-square tables with
//! the king's table blended from middle game to endgame, bishop pair), capture ordering and
//! the null move.

use super::{Chess, BISHOP, KEYS, KING, KNIGHT, PAWN, QUEEN, ROOK, SIDE_KEY};
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;
use crate::variants::pst8;

/// Material by piece type (pawn, knight, bishop, rook, queen, king).
pub(crate) const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];
/// Game phase weight of each piece type; 24 in the start position.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

impl Chess {
    fn side_score(&self, color: usize, phase: i32) -> i32 {
        let own = self.colors[color];
        let white = color == Color::White.index();
        let mut score = pst8::piece_square_sum(&self.pieces, own, white, &VALUES);
        for sq in (self.pieces[KING] & own).squares() {
            let i = pst8::pst_index(white, sq);
            score += (pst8::KING_MIDDLE[i] * phase + pst8::KING_END[i] * (24 - phase)) / 24;
        }
        if (self.pieces[BISHOP] & own).count_ones() >= 2 {
            score += 30;
        }
        score
    }
}

impl SearchGame for Chess {
    fn material(&self) -> i32 {
        pst8::material_balance(&self.pieces, &self.colors, &VALUES, self.side.index())
    }

    fn evaluate(&self) -> i32 {
        let phase = (0..6)
            .map(|k| PHASE[k] * self.pieces[k].count_ones() as i32)
            .sum::<i32>()
            .min(24);
        let us = self.side.index();
        self.side_score(us, phase) - self.side_score(us ^ 1, phase)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let victim = self
            .piece_on(mv.to() & 63)
            .map_or(VALUES[PAWN], |(_, kind)| VALUES[kind]);
        let attacker = self
            .piece_on(mv.from() & 63)
            .map_or(VALUES[PAWN], |(_, kind)| VALUES[kind]);
        let promotion = if mv.kind() == super::PROMOTION {
            VALUES[mv.promotion() as usize % 6]
        } else {
            0
        };
        victim * 8 + promotion - attacker / 10
    }

    fn in_check(&self) -> bool {
        Chess::in_check(self)
    }

    fn null_move(&self) -> Option<Self> {
        // Only with a piece besides pawns and king: pawn endings are full of zugzwang.
        let own = self.colors[self.side.index()];
        let pieces =
            self.pieces[KNIGHT] | self.pieces[BISHOP] | self.pieces[ROOK] | self.pieces[QUEEN];
        if own & pieces == 0 || Chess::in_check(self) {
            return None;
        }
        let mut passed = self.clone();
        if passed.ep_capturable {
            passed.hash ^= super::ep_key(passed.ep);
        }
        passed.ep = super::NO_SQUARE;
        passed.ep_capturable = false;
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
    fn start_position_is_balanced_and_symmetric() {
        let start = Chess::from_fen(Chess::START_FEN).unwrap();
        assert_eq!(start.evaluate(), 0);
        let pos =
            Chess::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        assert_eq!(pos.evaluate(), -pos.color_flipped().evaluate());
    }

    #[test]
    fn null_move_keeps_the_hash_exact() {
        let pos = Chess::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
            .unwrap();
        let passed = pos.null_move().unwrap();
        assert_eq!(passed.hash(), passed.recompute_hash());
        assert_eq!(passed.side_to_move(), Color::Black);
    }
}
