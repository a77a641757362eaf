//! What the search needs from chaturanga: the evaluation (material for the old, weak
//! pieces, a piece-square table per type, the king's table for the middle game and the
//! endgame, the leap right in hand) as a weighted sum of terms ([`Tunable`]: the weights are
//! in `weights.rs`, fitted by `thoat tune`), capture ordering and the null move.

use super::weights::WEIGHTS;
use super::{Chaturanga, CHARIOT, COUNSELLOR, ELEPHANT, EMPTY, HORSE, KING_TYPE, PAWN};
use crate::core::moves::mvv_lva;
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;
use crate::variants::pst8;
use crate::variants::terms::{side_to_move_score, Terms, Tunable};

/// Material by type: pawn, horse, elephant, chariot, counsellor, king, for capture ordering
/// and the material-only baseline (the evaluation's own values are the tuned weights). The
/// elephant and the counsellor reach few squares and are worth far less than a bishop or a
/// queen.
const VALUES: [i32; 6] = [100, 300, 140, 500, 170, 20_000];

/// The first term of each type's piece-square table (64 terms, `pst8` order), after the
/// five material terms; the king has one table for the middle game and one for the endgame.
const TABLE: [usize; 5] = [5, 5 + 64, 5 + 2 * 64, 5 + 3 * 64, 5 + 4 * 64];
const KING_MIDDLE: usize = 5 + 5 * 64;
const KING_END: usize = KING_MIDDLE + 64;
/// The king's once-only leap still in hand.
const LEAP: usize = KING_END + 64;
/// The number of terms.
const TERMS: usize = LEAP + 1;

impl Chaturanga {
    /// Adds the terms of `color`'s pieces with `sign` (+1 White, -1 Black).
    #[inline(always)]
    fn side_terms<T: Terms>(&self, color: Color, sign: i32, endgame: bool, terms: &mut T) {
        // Black's pieces are seen by a half turn, the game's own symmetry (the kings start
        // on e1 and d8), so that a table serves both sides alike.
        let turn = if color == Color::White { 0 } else { 63 };
        for kind in [PAWN, HORSE, ELEPHANT, CHARIOT, COUNSELLOR] {
            let pieces = self.of(color, kind);
            terms.add(kind as usize, sign * pieces.count_ones() as i32);
            for sq in pieces.squares() {
                terms.add(
                    TABLE[kind as usize] + pst8::pst_index(true, sq ^ turn),
                    sign,
                );
            }
        }
        let king = if endgame { KING_END } else { KING_MIDDLE };
        for sq in self.of(color, KING_TYPE).squares() {
            terms.add(king + pst8::pst_index(true, sq ^ turn), sign);
        }
        if self.has_leap(color) {
            terms.add(LEAP, sign);
        }
    }
}

impl Tunable for Chaturanga {
    const TERM_NAMES: &'static [&'static str] = &crate::term_names!(
        board8,
        ["pawn", "horse", "elephant", "chariot", "counsellor"],
        [
            "pawn",
            "horse",
            "elephant",
            "chariot",
            "counsellor",
            "king_mid",
            "king_end"
        ],
        ["leap_right"]
    );

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn add_terms<T: Terms>(&self, terms: &mut T) {
        // Few chariots and horses left: the king's endgame table.
        let heavy = (self.pieces[CHARIOT as usize] | self.pieces[HORSE as usize]).count_ones();
        let endgame = heavy <= 3;
        self.side_terms(Color::White, 1, endgame, terms);
        self.side_terms(Color::Black, -1, endgame, terms);
    }
}

// The weights, the names and the terms agree in number.
const _: () = assert!(WEIGHTS.len() == TERMS && <Chaturanga as Tunable>::TERM_NAMES.len() == TERMS);
// `moved_piece` names each colour and type by its mailbox code, below `EMPTY`.
const _: () = assert!(EMPTY as usize <= crate::search::PIECE_SLOTS);

impl SearchGame for Chaturanga {
    // Quiet mates behind late moves: the suite's mates in 2 at low node budgets
    // (docs/search.md, session 28).
    const LATE_QUIET_CHECKS: bool = true;

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
        side_to_move_score(self, &WEIGHTS)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let value = |sq: u8| VALUES[(self.board[sq as usize] % 6) as usize];
        let victim = if self.occupied() & (1u64 << mv.to()) != 0 {
            value(mv.to())
        } else {
            0
        };
        let promotion = 100 * i32::from(mv.promotion() != 0);
        mvv_lva(victim, value(mv.from()).min(1000), promotion)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see_at_least(mv, threshold)
    }

    fn moved_piece(&self, mv: Move) -> usize {
        // The mailbox code, `colour * 6 + type`: below 12.
        self.board[mv.from() as usize] as usize
    }

    fn gives_check(&self, mv: Move) -> bool {
        Chaturanga::gives_check(self, mv)
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
        passed.pass_turn();
        Some(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{testkit, Game};

    #[test]
    fn start_is_balanced_and_null_move_hash_is_exact() {
        let start = Chaturanga::from_fen(Chaturanga::START_FEN).unwrap();
        assert_eq!(start.evaluate(), 0);
        testkit::assert_null_move_is_exact::<Chaturanga>(Chaturanga::START_FEN);
    }
}
