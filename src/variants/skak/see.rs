//! Static exchange evaluation for skak ([`SearchGame::see_ge`]): the captures on one
//! square, least valuable attacker first, either side stopping when it likes, valued with
//! the evaluation's material weights and a huge value for the Jarkhan.
//!
//! The capturers: the Jarkhan one step any way, the Adhal, Lanar and Höfdhing sliding, and
//! the Fylgdar one step diagonally in all four directions (its orthogonal step never
//! captures) onto any square but its own back rank. After each capture the sliders behind
//! the capturer join as x-rays. There is no check, so no pins: capturing the Jarkhan ends
//! the exchange and the game (it is worth [`ROYAL`]), and a Jarkhan that recaptures onto a
//! defended square is lost, so the exchange refuses to do it.
//!
//! [`SearchGame::see_ge`]: crate::search::SearchGame::see_ge

use super::movegen::fylgdar_area;
use super::weights::WEIGHTS;
use super::{Skak, ADHAL, FYLGDAR, HOFDHING, JARKHAN, KINDS, LANAR};
use crate::core::attacks8::{bishop, rook, FERZ, KING};
use crate::core::{Color, Move};
use crate::variants::swap_list::{least_valuable_first, SwapList};

/// The Jarkhan's exchange value: more than all the other pieces together.
const ROYAL: i32 = 20_000;

/// Exchange values by kind: the Jarkhan [`ROYAL`], the others the evaluation's material
/// weights (its material term of each kind is term `kind - 1`, see `side_terms` in
/// `eval.rs`).
pub(super) const SEE_VALUES: [i32; KINDS] = [
    ROYAL,
    WEIGHTS[ADHAL - 1],
    WEIGHTS[LANAR - 1],
    WEIGHTS[HOFDHING - 1],
    WEIGHTS[FYLGDAR - 1],
];

/// The kinds from the least valuable to the most (by [`SEE_VALUES`]).
const LEAST_VALUABLE_FIRST: [usize; KINDS] = least_valuable_first(&SEE_VALUES);

/// More entries than captures on one square can ever be (28 pieces).
const MAX_EXCHANGE: usize = 30;

impl Skak {
    /// The pieces of both sides that could capture on `square` with the occupancy `occ`
    /// (pieces off `occ` may still be listed: the caller masks them).
    #[inline]
    fn attackers_to(&self, square: u8, occ: u64) -> u64 {
        let s = square as usize;
        let bit = 1u64 << square;
        let mut fylgdar = 0;
        for color in [Color::White, Color::Black] {
            if fylgdar_area(color) & bit != 0 {
                fylgdar |= self.colors[color.index()];
            }
        }
        (KING[s] & self.kinds[JARKHAN])
            | (FERZ[s] & self.kinds[FYLGDAR] & fylgdar)
            | (rook(square, occ) & (self.kinds[ADHAL] | self.kinds[LANAR]))
            | (bishop(square, occ) & (self.kinds[ADHAL] | self.kinds[HOFDHING]))
    }

    /// [`crate::search::SearchGame::see_ge`]: whether `mv` followed by the best exchange on
    /// its destination wins at least `threshold` for the side to move. The exchange's value
    /// is computed exactly (a swap list, minimaxed backwards) and compared at the end.
    pub(super) fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let to_bit = 1u64 << to;
        let them = self.side.flip();
        let mut first_gain = 0;
        if self.colors[them.index()] & to_bit != 0 {
            let victim = self.kind_at(to_bit);
            first_gain = SEE_VALUES[victim];
            if victim == JARKHAN {
                return first_gain >= threshold; // the game is won: nothing follows
            }
        }
        // `Move::kind` is the moving piece's kind.
        let mut on_square = (mv.kind() as usize).min(KINDS - 1);
        // The opponent can always stop: the move never wins more than its own capture, nor
        // loses more than the piece it puts on the square.
        if first_gain < threshold {
            return false;
        }
        if first_gain - SEE_VALUES[on_square] >= threshold {
            return true;
        }

        let mut occ = (self.colors[0] | self.colors[1]) ^ (1u64 << from);
        let mut attackers = self.attackers_to(to, occ);
        let orthogonal = self.kinds[ADHAL] | self.kinds[LANAR];
        let diagonal = self.kinds[ADHAL] | self.kinds[HOFDHING];
        let mut swaps = SwapList::<MAX_EXCHANGE>::new(first_gain);
        let mut side = them;
        while !swaps.is_full() {
            let mine = attackers & occ & self.colors[side.index()];
            let Some((kind, bit)) = LEAST_VALUABLE_FIRST.iter().find_map(|&kind| {
                let candidates = mine & self.kinds[kind];
                (candidates != 0).then(|| (kind, candidates & candidates.wrapping_neg()))
            }) else {
                break;
            };
            swaps.capture(SEE_VALUES[on_square]);
            if on_square == JARKHAN {
                break; // the Jarkhan was taken: the game is over
            }
            occ ^= bit;
            // The sliders behind the capturer, along the line it captured on.
            match kind {
                FYLGDAR | HOFDHING => attackers |= bishop(to, occ) & diagonal,
                LANAR => attackers |= rook(to, occ) & orthogonal,
                _ => attackers |= (bishop(to, occ) & diagonal) | (rook(to, occ) & orthogonal),
            }
            on_square = kind;
            side = side.flip();
        }
        swaps.value() >= threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::variants::see_checks::{self, ExactSee, Material};

    const Q: i32 = SEE_VALUES[ADHAL];
    const R: i32 = SEE_VALUES[LANAR];
    const B: i32 = SEE_VALUES[HOFDHING];
    const P: i32 = SEE_VALUES[FYLGDAR];

    /// The square mirrored across the middle rank (White's view becomes Black's).
    fn mirror(square: u8) -> u8 {
        (6 - square / 8) * 8 + square % 8
    }

    /// The same move with the colours exchanged and the board mirrored.
    fn mirrored(mv: Move) -> Move {
        Move::simple(mirror(mv.from()), mirror(mv.to()), mv.kind())
    }

    /// Exchanges worked out by hand (see [`ExactSee`]), each checked with the colours
    /// exchanged too. The weights in play: Adhal 903, Lanar 498, Höfdhing 307, Fylgdar 138.
    #[rustfmt::skip]
    const EXCHANGES: &[ExactSee] = &[
        // Ra1xa5 takes a lone Höfdhing: +B = +307.
        ("3k3/7/b6/7/7/7/R2K3 w - - 0 1", "a1a5", B, &[]),
        // Qd2xd5, and the Fylgdar c6 takes back diagonally: P - Q = 138 - 903 = -765.
        ("3k3/2p4/3p3/7/7/3Q3/K6 w - - 0 1", "d2d5", P - Q, &[0]),
        // The Fylgdar d6 stands straight behind d5: it steps that way but cannot capture,
        // so Rd1xd5 wins the Fylgdar: +P = +138.
        ("3k3/3p3/3p3/7/7/7/K2R3 w - - 0 1", "d1d5", P, &[]),
        // From e6, diagonally behind, it takes back: P - R = 138 - 498 = -360.
        ("3k3/4p2/3p3/7/7/7/K2R3 w - - 0 1", "d1d5", P - R, &[]),
        // It captures in all four diagonal directions: from c4 (backwards for Black).
        ("3k3/7/3p3/2p4/7/7/K2R3 w - - 0 1", "d1d5", P - R, &[]),
        // But never onto its own back rank: the Fylgdar c6 cannot take back on d7.
        // Rd1xd7 wins the Höfdhing: +B = +307.
        ("k2b3/2p4/7/7/7/7/K2R3 w - - 0 1", "d1d7", B, &[]),
        // A Fylgdar's own diagonal capture: d4xe5 takes a Höfdhing, the Lanar e7 takes
        // back: B - P = 307 - 138 = 169.
        ("3kr2/7/4b2/3P3/7/7/K6 w - - 0 1", "d4e5", B - P, &[]),
        // Rd2xd5 Rd7xd5 Qd1xd5 through d2: Black stops, +B = +307 (without the x-ray:
        // B - R = -191).
        ("3r2k/7/3b3/7/7/3R3/K2Q3 w - - 0 1", "d2d5", B, &[0]),
        // Diagonal: c4xd5 uncovers the Höfdhing b3 behind it. If Rd7xd5 then Bb3xd5, so
        // Black stops: +B = +307 (without the x-ray, B - P = 169).
        ("3r2k/7/3b3/2P4/1B5/7/K6 w - - 0 1", "c4d5", B, &[]),
        // Black's Lanars doubled on d6 and d7: Rd2xd5 Rd6xd5 Qd1xd5 Rd7xd5, and White
        // stops after the first recapture: P - R = -360.
        ("3r2k/3r3/3p3/7/7/3R3/K2Q3 w - - 0 1", "d2d5", P - R, &[]),
        // Bb3xd5 (via c4) Fylgdar c6xd5: B - B = 0.
        ("3k3/2p4/3b3/7/1B5/7/K6 w - - 0 1", "b3d5", 0, &[]),
        // Qd1-d4, attacked by the Fylgdar e5: 0 - Q = -903.
        ("3k3/7/4p2/7/7/7/K2Q3 w - - 0 1", "d1d4", -Q, &[0]),
        // Qd1-d3 is safe: 0.
        ("3k3/7/4p2/7/7/7/K2Q3 w - - 0 1", "d1d3", 0, &[]),
        // The Jarkhan may step into attack (there is no check), and is then lost: d1-d2,
        // where the Fylgdar c3 takes it, -ROYAL; d1-e1 is safe, 0.
        ("7/7/7/3k3/2p4/7/3K3 w - - 0 1", "d1d2", -ROYAL, &[0]),
        ("7/7/7/3k3/2p4/7/3K3 w - - 0 1", "d1e1", 0, &[]),
        // Rd1xd6: the Jarkhan e7 may take back, but the Höfdhing b4 guards d6 (via c5), so
        // it does not: +P = +138.
        ("4k2/3p3/7/1B5/7/7/K2R3 w - - 0 1", "d1d6", P, &[]),
        // Without the Höfdhing it takes the Lanar: P - R = -360.
        ("4k2/3p3/7/7/7/7/K2R3 w - - 0 1", "d1d6", P - R, &[]),
        // Qd1xd7 takes the Jarkhan; the Lanar a7 would take back, but the game is over:
        // +ROYAL.
        ("r2k3/7/7/7/7/7/K2Q3 w - - 0 1", "d1d7", ROYAL, &[10_000]),
        // Even the Jarkhan itself may take the Jarkhan, guarded or not.
        ("7/7/2r4/2k4/2K4/7/7 w - - 0 1", "c3c4", ROYAL, &[]),
    ];

    #[test]
    fn exchanges_are_worth_what_they_were_worked_out_to_be() {
        see_checks::assert_exact_table_and_flipped::<Skak>(EXCHANGES, mirrored);
    }

    #[test]
    fn values_follow_the_evaluation_and_the_order_is_ascending() {
        // The weights in play: Adhal 903, Lanar 498, Höfdhing 307, Fylgdar 138 (the
        // arithmetic in the comments below uses them).
        assert_eq!(&SEE_VALUES[1..], &WEIGHTS[..4]);
        for pair in LEAST_VALUABLE_FIRST.windows(2) {
            assert!(SEE_VALUES[pair[0]] <= SEE_VALUES[pair[1]]);
        }
        assert_eq!(LEAST_VALUABLE_FIRST[KINDS - 1], JARKHAN);
    }

    #[test]
    fn moved_piece_names_colour_and_kind() {
        see_checks::assert_every_moved_piece::<Skak>(Skak::START_FEN, |_| FYLGDAR);
        see_checks::assert_moved_pieces::<Skak>(&[
            ("3k3/7/7/7/7/7/K2Q3 b - - 0 1", "d7d6", KINDS + JARKHAN),
            ("3k3/7/7/7/7/7/K2Q3 w - - 0 1", "d1d5", ADHAL),
        ]);
    }

    /// Thresholds to probe: fine near the material values, coarse out to the Jarkhan's.
    fn thresholds() -> Vec<i32> {
        see_checks::thresholds(2000, ROYAL)
    }

    /// The material of the exchange by the rules (a move's kind is the piece it moves).
    const MATERIAL: Material<Skak> = Material {
        mover: |_, m| SEE_VALUES[m.kind() as usize],
        on: |pos, sq| pos.piece_at(sq).map_or(0, |(_, kind)| SEE_VALUES[kind]),
        promotion: |_| 0,
    };

    #[test]
    fn see_equals_the_exchange_played_by_the_rules_in_random_games() {
        // Skak has no check, so the exchange by the legal moves is exactly the one the SEE
        // computes from attack sets: this checks every capture pattern and x-ray against
        // the move generator.
        let checked =
            see_checks::compare_with_the_rules(0x5EE_5CA5, false, &MATERIAL, |pos, mv, value| {
                panic!(
                    "{} {}: the exchange is worth {value}",
                    pos.fen(),
                    pos.move_text(mv)
                )
            });
        assert!(checked > 10_000, "only {checked} moves checked");
    }

    #[test]
    fn see_is_monotone_in_the_threshold_in_random_games() {
        see_checks::assert_see_monotone_in_random_games::<Skak>(0x5EE_5CA4, &thresholds());
    }
}
