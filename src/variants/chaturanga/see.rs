//! Static exchange evaluation for chaturanga ([`SearchGame::see_ge`]): the captures on one
//! square, least valuable attacker first, either side stopping when it likes, valued with
//! the evaluation's material weights and a huge value for the king.
//!
//! The capturers are the attackers of RULES.md "Attacked": [`Chaturanga::attackers_with_reach`]
//! and the king's knight leap while its side holds the right (the leap may capture). Only
//! the chariot slides, so only chariots join as x-rays, behind a chariot or king that left
//! the square's rank or file. A pawn takes part on its last rank only where it promotes
//! there, with the count of that piece type followed through the exchange: when a chariot
//! is taken on a8, a pawn on b7 may promote to a chariot by recapturing there.
//!
//! Simplifications: a pinned piece captures like any other, and so does a piece whose
//! capture RULES.md forbids because it would let an enemy pawn promote onto its own king's
//! square ([`Chaturanga::latent_captures`]). A king never captures into an attacked
//! square: its huge value makes the exchange refuse it. The leap right is judged after the
//! move being evaluated (a check by it takes the right away, RULES.md step 2) and lost to
//! a horse that captures on the square (it checks the king a knight's move away), but not
//! to other checks later in the exchange; a capture that gives check is answered like any
//! other.
//!
//! [`SearchGame::see_ge`]: crate::search::SearchGame::see_ge

use super::weights::WEIGHTS;
use super::{
    Chaturanga, CHARIOT, COUNSELLOR, ELEPHANT, EMPTY, HORSE, KING_TYPE, LAST_RANK, PAWN,
    PROMOTION_TYPE, START_COUNT,
};
use crate::core::attacks8::{self, KNIGHT};
use crate::core::{Color, Game, Move};
use crate::variants::swap_list::{least_valuable_first, SwapList};

/// The king's exchange value: more than all the other pieces together.
const ROYAL: i32 = 20_000;

/// Exchange values by type: the evaluation's material weights (its material term of each
/// type has the type's number, see `side_terms` in `eval.rs`), the king [`ROYAL`].
pub(super) const SEE_VALUES: [i32; 6] = [
    WEIGHTS[PAWN as usize],
    WEIGHTS[HORSE as usize],
    WEIGHTS[ELEPHANT as usize],
    WEIGHTS[CHARIOT as usize],
    WEIGHTS[COUNSELLOR as usize],
    ROYAL,
];

/// The types from the least valuable to the most (by [`SEE_VALUES`]).
const LEAST_VALUABLE_FIRST: [usize; 6] = least_valuable_first(&SEE_VALUES);

/// More entries than captures on one square can ever be (32 pieces).
const MAX_EXCHANGE: usize = 34;

impl Chaturanga {
    /// [`crate::search::SearchGame::see_ge`]: whether `mv` followed by the best exchange on
    /// its destination wins at least `threshold` for the side to move. The exchange's value
    /// is computed exactly (a swap list, minimaxed backwards) and compared at the end.
    pub(super) fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let to_bit = 1u64 << to;
        let victim = self.board[to as usize];

        // The side whose pawns promote on `to`, the type they promote to there, and how
        // many more of that type it may still gain by promotion (RULES.md: fewer than at
        // the start). Pawns of the other side never attack a last-rank square of this one.
        let promoter = if LAST_RANK[Color::White.index()] & to_bit != 0 {
            Some(Color::White)
        } else if LAST_RANK[Color::Black.index()] & to_bit != 0 {
            Some(Color::Black)
        } else {
            None
        };
        let (promo_type, mut room) = match promoter {
            Some(c) => {
                let t = PROMOTION_TYPE[c.index()][(to % 8) as usize];
                let have = self.of(c, t).count_ones() as i32;
                (t, START_COUNT[t as usize] as i32 - have)
            }
            None => (PAWN, 0),
        };

        // The move itself: its victim, and a promotion's gain.
        let mut first_gain = 0;
        let mut on_square = self.board[from as usize] % 6;
        if victim != EMPTY {
            let victim_type = victim % 6;
            first_gain = SEE_VALUES[victim_type as usize];
            if promoter == Some(them) && victim_type == promo_type {
                room += 1;
            }
        }
        if mv.promotion() != 0 {
            on_square = mv.promotion() % 6;
            first_gain += SEE_VALUES[on_square as usize] - SEE_VALUES[PAWN as usize];
            room -= 1;
        }
        // The opponent can always stop: the move never wins more than its own capture ...
        if first_gain < threshold {
            return false;
        }
        // ... and never loses more than the piece now on the square, unless the opponent
        // recaptures with a promotion.
        if first_gain - SEE_VALUES[on_square as usize] >= threshold && promoter != Some(them) {
            return true;
        }

        let mut occ = self.occupied() ^ (1u64 << from);
        let mut attackers = self.attackers_with_reach(to, Color::White, occ, !0)
            | self.attackers_with_reach(to, Color::Black, occ, !0);
        if self.has_leap(us) {
            attackers |= KNIGHT[to as usize] & self.of(us, KING_TYPE);
        }
        if self.leap_after(mv, to) {
            attackers |= KNIGHT[to as usize] & self.of(them, KING_TYPE);
        }

        let mut swaps = SwapList::<MAX_EXCHANGE>::new(first_gain);
        let mut side = them;
        while !swaps.is_full() {
            let mine = attackers & occ & self.colors[side.index()];
            let pawns_may = promoter != Some(side) || (promo_type != PAWN && room > 0);
            let Some((kind, bit)) = LEAST_VALUABLE_FIRST.iter().find_map(|&kind| {
                let candidates = mine & self.pieces[kind];
                (candidates != 0 && (kind != PAWN as usize || pawns_may))
                    .then(|| (kind as u8, candidates & candidates.wrapping_neg()))
            }) else {
                break;
            };
            let captured = on_square;
            let mut value = SEE_VALUES[captured as usize];
            on_square = kind;
            if kind == PAWN && promoter == Some(side) {
                on_square = promo_type;
                value += SEE_VALUES[promo_type as usize] - SEE_VALUES[PAWN as usize];
                room -= 1;
            } else if promoter == Some(side.flip()) && captured == promo_type {
                room += 1;
            }
            swaps.capture(value);
            if captured == KING_TYPE {
                break; // the king was taken: the capture before was illegal, refused below
            }
            occ ^= bit;
            if kind == HORSE {
                // A horse on `to` checks the enemy king a knight's move away: its leap
                // right is lost.
                attackers &= !(KNIGHT[to as usize] & self.of(side.flip(), KING_TYPE));
            }
            if kind == CHARIOT || kind == KING_TYPE {
                attackers |= attacks8::rook(to, occ) & self.pieces[CHARIOT as usize];
            }
            side = side.flip();
        }
        swaps.value() >= threshold
    }

    /// Whether the opponent's king holds the leap right after `mv` and could leap onto
    /// `to`: the move takes the right away if it checks that king (RULES.md step 2), which
    /// is settled by making the move, only in this rare case.
    fn leap_after(&self, mv: Move, to: u8) -> bool {
        let them = self.side.flip();
        if !self.has_leap(them) || KNIGHT[to as usize] & self.of(them, KING_TYPE) == 0 {
            return false;
        }
        let mut child = *self;
        child.play(mv);
        child.has_leap(them)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::see_checks::{self, ExactSee, Material};

    const P: i32 = SEE_VALUES[PAWN as usize];
    const N: i32 = SEE_VALUES[HORSE as usize];
    const B: i32 = SEE_VALUES[ELEPHANT as usize];
    const R: i32 = SEE_VALUES[CHARIOT as usize];
    const Q: i32 = SEE_VALUES[COUNSELLOR as usize];

    /// The same move with the colours exchanged, after a half turn of the board.
    fn half_turn(mv: Move) -> Move {
        Move::new(mv.from() ^ 63, mv.to() ^ 63, 0, mv.kind(), mv.promotion())
    }

    /// Exchanges worked out by hand (see [`ExactSee`]), each checked with the colours
    /// exchanged too. The weights in play: pawn 95, horse 295, elephant 117, chariot 518,
    /// counsellor 160.
    #[rustfmt::skip]
    const EXCHANGES: &[ExactSee] = &[
        // Rd1xd5 takes a lone horse: +N = +295.
        ("3k4/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", N, &[0]),
        // Rd1xd5 exd5: P - R = 95 - 518 = -423.
        ("3k4/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", P - R, &[0]),
        // Rd2xd5: if Rd7xd5 then Rd1xd5 through d2, so Black stops: +N = +295. Without
        // the x-ray it would be N - R = -223.
        ("7k/3r4/8/3n4/8/8/3R4/3R3K w - - 0 1", "d2d5", N, &[0]),
        // Black's chariots doubled on d7 and d8: Rd2xd5 Rd7xd5 Rd1xd5 Rd8xd5, and White
        // may stop after the first recapture: P - R = -423 either way. Without Black's
        // x-ray White would come out a pawn up.
        ("3r3k/3r4/8/3p4/8/8/3R4/3R3K w - - 0 1", "d2d5", P - R, &[0]),
        // Nc3xd5 exd5: N - N = 0, true at 0, false at 1.
        ("3k4/8/4p3/3n4/8/2N5/8/4K3 w - - 0 1", "c3d5", 0, &[]),
        // Nb1-c3, where the pawn d4 takes it: 0 - N = -295.
        ("3k4/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1c3", -N, &[0]),
        // Nb1-a3 is safe: exactly 0.
        ("3k4/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1a3", 0, &[]),
        // Re1xe5, and the elephant c7 jumps over the white pawn d6 to take back: P - R.
        ("3k4/2b5/3P4/4p3/8/8/8/K3R3 w - - 0 1", "e1e5", P - R, &[]),
        // The counsellors d4 and d6 both guard e5 one step diagonally.
        // Re1xe5 Qd6xe5 Qd4xe5: P - R + Q = 95 - 518 + 160 = -263 (Black stops there).
        ("3k4/8/3q4/4p3/3Q4/8/8/K3R3 w - - 0 1", "e1e5", P - R + Q, &[]),
        // Qd4xe5 Qd6xe5 Re1xe5: P - Q + Q = +P, so Black does not take back.
        ("3k4/8/3q4/4p3/3Q4/8/8/K3R3 w - - 0 1", "d4e5", P, &[]),
        // Re2xe7: the king d8 may not take back, the elephant c5 guards e7: +P = +95.
        ("3k4/4p3/8/2B5/8/8/4R3/K7 w - - 0 1", "e2e7", P, &[]),
        // Without the elephant the king takes the chariot: P - R = -423.
        ("3k4/4p3/8/8/8/8/4R3/K7 w - - 0 1", "e2e7", P - R, &[]),
        // Re2xe6, and the king d8 takes back with its knight leap: P - R = -423.
        ("3k4/8/4p3/8/8/8/4R3/K7 w k - 0 1", "e2e6", P - R, &[]),
        // Without the right it cannot: +P.
        ("3k4/8/4p3/8/8/8/4R3/K7 w - - 0 1", "e2e6", P, &[]),
        // Nd4xe6 uncovers Rd1's check on d8, which takes the right away (RULES.md step 2),
        // so the king cannot leap back: +P (with the leap it would be P - N = -200).
        ("3k4/8/4p3/8/3N4/8/8/K2R4 w k - 0 1", "d4e6", P, &[]),
        // Re1xe6 f7xe6 Nd4xe6, and the horse on e6 checks d8, so the king cannot leap
        // back: P - R + P = -328 (with the leap, Kxe6 would make it P - R).
        ("3k4/5p2/4p3/8/3N4/8/8/K3R3 w k - 0 1", "e1e6", 2 * P - R, &[]),
        // Our own horse does not cost our king its leap: Nb4xd3 e4xd3 Ke1xd3 by the leap,
        // B - N + P = 117 - 295 + 95 = -83 (without the king, B - N = -178).
        ("3k4/8/8/8/1N2p3/3b4/8/4K3 w K - 0 1", "b4d3", B - N + P, &[]),
        // b7xa8=R takes a chariot and promotes: R + (R - P) = 941, then Nb6xa8 takes the new
        // chariot: 941 - 518 = R - P = 423.
        ("r2k4/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8r", R - P, &[]),
        // Undefended: 2R - P = 941.
        ("r2k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8r", 2 * R - P, &[]),
        // A quiet promotion to a horse, on a square no one attacks: N - P = 200.
        ("3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", N - P, &[]),
        // White has both chariots, so b7 may not take on a8 at first. Ra1xa8 (horse),
        // Rc8xa8, and now White has one chariot: b7xa8=R. So Black does not recapture:
        // +N = +295 (with the pawn left out it would be N - R = -223).
        ("n1rk4/1P6/8/8/8/8/7R/R6K w - - 0 1", "a1a8", N, &[0]),
        // Rd1xd8 takes an elephant; Rh8xd8; the pawn c7 may never promote on d8:
        // B - R = 117 - 518 = -401.
        ("3b3r/2P5/k7/8/8/8/6K1/3R4 w - - 0 1", "d1d8", B - R, &[0]),
    ];

    #[test]
    fn exchanges_are_worth_what_they_were_worked_out_to_be() {
        see_checks::assert_exact_table_and_flipped::<Chaturanga>(EXCHANGES, half_turn);
    }

    #[test]
    fn values_follow_the_evaluation_and_the_order_is_ascending() {
        // The weights in play: pawn 95, horse 295, elephant 117, chariot 518,
        // counsellor 160 (the arithmetic in the comments below uses them).
        assert_eq!(&SEE_VALUES[..5], &WEIGHTS[..5]);
        for pair in LEAST_VALUABLE_FIRST.windows(2) {
            assert!(SEE_VALUES[pair[0]] <= SEE_VALUES[pair[1]]);
        }
        assert_eq!(LEAST_VALUABLE_FIRST[5], KING_TYPE as usize);
    }

    #[test]
    fn moved_piece_names_colour_and_type() {
        see_checks::assert_every_moved_piece::<Chaturanga>(Chaturanga::START_FEN, |mv| {
            // White (colour 0): horses b1 g1 (type 1), elephants c1 f1 (2), counsellor d1
            // (4), the king's leaps from e1 (5), pawns (0).
            let expected = match mv.from() {
                1 | 6 => HORSE,
                2 | 5 => ELEPHANT,
                3 => COUNSELLOR,
                4 => KING_TYPE,
                _ => PAWN,
            };
            expected as usize
        });
        let black = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Kk - 0 1";
        see_checks::assert_moved_pieces::<Chaturanga>(&[(black, "b8c6", 6 + HORSE as usize)]);
    }

    /// Thresholds to probe: fine near the material values, coarse out to the king's.
    fn thresholds() -> Vec<i32> {
        see_checks::thresholds(1600, ROYAL)
    }

    /// The material of the exchange by the rules.
    const MATERIAL: Material<Chaturanga> = Material {
        mover: |pos, m| SEE_VALUES[(pos.board[m.from() as usize] % 6) as usize],
        on: |pos, sq| match pos.board[sq as usize] {
            EMPTY => 0,
            code => SEE_VALUES[(code % 6) as usize],
        },
        promotion: |mv| match mv.promotion() {
            0 => 0,
            t => SEE_VALUES[t as usize] - P,
        },
    };

    #[test]
    fn see_nearly_always_equals_the_exchange_played_by_the_rules() {
        // The exchange by the legal moves differs from the SEE only where the SEE
        // simplifies: a pinned piece, a capture that gives check (the reply must answer
        // it), a leap right lost to a later check, a capture made illegal by the promotion
        // rule. In these random games that is 190 of 125407 moves.
        let mut differ = 0;
        let checked =
            see_checks::compare_with_the_rules(0x5EE_C4A8, true, &MATERIAL, |_, _, _| differ += 1);
        assert!(checked > 100_000, "only {checked} moves checked");
        assert!(differ * 500 < checked, "{differ} of {checked} moves differ");
    }

    #[test]
    fn see_is_monotone_in_the_threshold_in_random_games() {
        see_checks::assert_see_monotone_in_random_games::<Chaturanga>(0x5EE_C4A7, &thresholds());
    }
}
