//! What the search needs from chess: the evaluation (material, piece-square tables, the
//! king's tables for the middle game and the endgame blended by the phase, bishop pair) as a
//! weighted sum of terms ([`Tunable`]: the weights are in `weights.rs`, fitted by `thoat
//! tune`), capture ordering, the static exchange evaluation and the mover's piece (both in
//! `see.rs`) and the null move.

use super::weights::WEIGHTS;
use super::{Chess, BISHOP, KEYS, KING, KNIGHT, PAWN, QUEEN, ROOK, SIDE_KEY};
use crate::core::moves::mvv_lva;
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;
use crate::variants::pst8;
use crate::variants::terms::{side_to_move_score, Terms, Tunable};

/// Material by piece type (pawn, knight, bishop, rook, queen, king), for capture ordering
/// and the material-only baseline (the evaluation's own values are the tuned weights).
pub(crate) const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];
/// Game phase weight of each piece type; 24 in the start position.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase in sixths (0 to 6): the king's middle-game table counts `phase` times and its
/// endgame table `6 - phase` times, so the blend stays a weighted sum of terms (its weights
/// are a sixth of the tables' values).
const PHASE_STEPS: i32 = 6;

/// The first term of each type's piece-square table (64 terms, `pst8` order), after the
/// five material terms.
const TABLE: [usize; 5] = [5, 5 + 64, 5 + 2 * 64, 5 + 3 * 64, 5 + 4 * 64];
const KING_MIDDLE: usize = 5 + 5 * 64;
const KING_END: usize = KING_MIDDLE + 64;
/// Two bishops or more.
const BISHOP_PAIR: usize = KING_END + 64;
/// The number of terms.
const TERMS: usize = BISHOP_PAIR + 1;

impl Chess {
    /// Adds the terms of the pieces of colour index `color` with `sign` (+1 White, -1 Black).
    #[inline(always)]
    fn side_terms<T: Terms>(&self, color: usize, sign: i32, phase: i32, terms: &mut T) {
        let own = self.colors[color];
        let white = color == Color::White.index();
        for kind in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
            let pieces = self.pieces[kind] & own;
            terms.add(kind, sign * pieces.count_ones() as i32);
            for sq in pieces.squares() {
                terms.add(TABLE[kind] + pst8::pst_index(white, sq), sign);
            }
        }
        for sq in (self.pieces[KING] & own).squares() {
            let i = pst8::pst_index(white, sq);
            terms.add(KING_MIDDLE + i, sign * phase);
            terms.add(KING_END + i, sign * (PHASE_STEPS - phase));
        }
        if (self.pieces[BISHOP] & own).count_ones() >= 2 {
            terms.add(BISHOP_PAIR, sign);
        }
    }
}

impl Tunable for Chess {
    const TERM_NAMES: &'static [&'static str] = &crate::term_names!(
        board8,
        ["pawn", "knight", "bishop", "rook", "queen"],
        ["pawn", "knight", "bishop", "rook", "queen", "king_mid", "king_end"],
        ["bishop_pair"]
    );

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn add_terms<T: Terms>(&self, terms: &mut T) {
        let phase = (0..6)
            .map(|k| PHASE[k] * self.pieces[k].count_ones() as i32)
            .sum::<i32>()
            .min(24)
            * PHASE_STEPS
            / 24;
        self.side_terms(Color::White.index(), 1, phase, terms);
        self.side_terms(Color::Black.index(), -1, phase, terms);
    }
}

// The weights, the names and the terms agree in number.
const _: () = assert!(WEIGHTS.len() == TERMS && <Chess as Tunable>::TERM_NAMES.len() == TERMS);

impl SearchGame for Chess {
    fn material(&self) -> i32 {
        pst8::material_balance(&self.pieces, &self.colors, &VALUES, self.side.index())
    }

    fn evaluate(&self) -> i32 {
        side_to_move_score(self, &WEIGHTS)
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
        // Unlike the other games, the king's value is not capped: its captures are ordered
        // well behind others of the same victim.
        mvv_lva(victim, attacker, promotion)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see_at_least(mv, threshold)
    }

    fn moved_piece(&self, mv: Move) -> usize {
        self.moved_piece_slot(mv)
    }

    fn in_check(&self) -> bool {
        Chess::in_check(self)
    }

    fn quiescence_moves(&self, moves: &mut Vec<Move>) -> bool {
        moves.clear();
        if Chess::in_check(self) {
            self.legal_moves(&mut super::movegen::Lister(moves));
            return !moves.is_empty();
        }
        let enemy = self.colors[self.side.flip().index()];
        self.legal_moves(&mut super::movegen::TacticalLister { moves, enemy });
        // Without a capture the position may still be a stalemate: count the quiet moves.
        !moves.is_empty() || crate::core::Game::count_moves(self, &mut Vec::new()) > 0
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
        passed.hash ^= KEYS.extra(SIDE_KEY);
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

    /// Quiescence's list is exactly the tactical moves of `generate`, in its order (all
    /// moves in check), and it says whether any legal move exists: over random games, and in
    /// a stalemate and a position whose only moves are quiet.
    #[test]
    fn quiescence_moves_are_the_tactical_moves_in_generation_order() {
        let mut rng = crate::core::rng::Rng::from_state(7);
        let (mut all, mut tactical) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for _ in 0..60 {
            let mut pos = Chess::from_fen(Chess::START_FEN).unwrap();
            for _ in 0..120 {
                pos.generate(&mut all);
                let any = pos.quiescence_moves(&mut tactical);
                let expected: Vec<Move> = if pos.in_check() {
                    all.clone()
                } else {
                    all.iter()
                        .copied()
                        .filter(|&m| pos.is_tactical(m))
                        .collect()
                };
                assert_eq!(tactical, expected, "{}", pos.fen());
                assert_eq!(any, !all.is_empty(), "{}", pos.fen());
                checked += 1;
                if all.is_empty() {
                    break;
                }
                pos.play(all[rng.below(all.len())]);
            }
        }
        assert!(checked > 3000);
        for (fen, any) in [
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false),
            ("k7/8/1K6/8/8/8/8/7R b - - 0 1", true),
        ] {
            let pos = Chess::from_fen(fen).unwrap();
            assert_eq!(pos.quiescence_moves(&mut tactical), any, "{fen}");
            assert!(tactical.is_empty(), "{fen}");
        }
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
