//! What the search needs from chess: the evaluation as a weighted sum of terms ([`Tunable`]:
//! the weights are in `weights.rs`), capture ordering, the static exchange evaluation and the
//! mover's piece (both in `see.rs`) and the null move.
//!
//! The terms, each White's count minus Black's:
//! - material, a piece-square table per type, the king's middle-game and endgame tables
//!   blended by the phase, the bishop pair;
//! - mobility: squares each knight, bishop, rook and queen attacks that hold no own piece and
//!   no enemy pawn's attack;
//! - pawns: passed pawns by rank, in the middle game and the endgame (the blend as the king's
//!   tables), doubled and isolated pawns; rooks on open and half-open files; pawns attacking an
//!   enemy piece;
//! - the king: own pawns in front of it, and the enemy's attacks on the squares around it and
//!   the number of pieces making them, all fading with the phase as the attackers leave;
//! - the tempo of the side to move.
//!
//! A term that fades with the phase counts `phase` (0 to 6) times, so its weight is a sixth
//! of its full middle-game value; an endgame term counts `6 - phase` times.

use super::weights::WEIGHTS;
use super::{Chess, BISHOP, KEYS, KNIGHT, PAWN, QUEEN, ROOK, SIDE_KEY};
use crate::core::attacks8::KING as KING_STEPS;
use crate::core::bits::shift;
use crate::core::moves::mvv_lva;
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;
use crate::variants::terms::{side_to_move_score, Terms, Tunable};
use crate::variants::{chesslike, pawns8, pst8};

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
/// Attacked squares per kind: knight, bishop, rook, queen.
const MOBILITY: usize = BISHOP_PAIR + 1;
/// Passed pawns on ranks 2 to 7 as their side sees the board: middle game, endgame.
const PASSED_MIDDLE: usize = MOBILITY + 4;
const PASSED_END: usize = PASSED_MIDDLE + 6;
const DOUBLED: usize = PASSED_END + 6;
const ISOLATED: usize = DOUBLED + 1;
const ROOK_OPEN: usize = ISOLATED + 1;
const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Enemy knights, bishops, rooks and queens attacked by own pawns.
const PAWN_THREATS: usize = ROOK_SEMI_OPEN + 1;
/// Own pawns on the three squares in front of the king and beside it (middle game).
const KING_SHIELD: usize = PAWN_THREATS + 1;
/// (piece, square) attacks on the enemy king and the squares around it; at least two, at
/// least three pieces making them (middle game).
const KING_ATTACKS: usize = KING_SHIELD + 1;
const KING_ATTACKERS_2: usize = KING_ATTACKS + 1;
const KING_ATTACKERS_3: usize = KING_ATTACKERS_2 + 1;
/// Passed pawns whose next square is occupied (endgame).
const PASSED_BLOCKED: usize = KING_ATTACKERS_3 + 1;
/// For each passed pawn, the enemy king's distance to its next square minus the own king's,
/// times the pawn's rank beyond the 3rd (endgame): the kings race to the pawn.
const PASSED_KINGS: usize = PASSED_BLOCKED + 1;
/// The side to move.
const TEMPO: usize = PASSED_KINGS + 1;
/// The number of terms.
const TERMS: usize = TEMPO + 1;

/// The king's distance between two squares.
#[inline(always)]
fn distance(a: u8, b: u8) -> i32 {
    let files = (i32::from(a % 8) - i32::from(b % 8)).abs();
    let ranks = (i32::from(a / 8) - i32::from(b / 8)).abs();
    files.max(ranks)
}

impl Chess {
    /// Adds the terms of the pieces of colour index `color` with `sign` (+1 White, -1 Black);
    /// `enemy_pawn_attacks` are the squares the other side's pawns attack.
    #[inline(always)]
    fn side_terms<T: Terms>(
        &self,
        color: usize,
        sign: i32,
        phase: i32,
        enemy_pawn_attacks: u64,
        terms: &mut T,
    ) {
        let own = self.colors[color];
        let enemy = self.colors[color ^ 1];
        let white = color == Color::White.index();
        for kind in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
            let pieces = self.pieces[kind] & own;
            terms.add(kind, sign * pieces.count_ones() as i32);
            for sq in pieces.squares() {
                terms.add(TABLE[kind] + pst8::pst_index(white, sq), sign);
            }
        }
        let king = self.king_square(color);
        let i = pst8::pst_index(white, king);
        terms.add(KING_MIDDLE + i, sign * phase);
        terms.add(KING_END + i, sign * (PHASE_STEPS - phase));
        if (self.pieces[BISHOP] & own).count_ones() >= 2 {
            terms.add(BISHOP_PAIR, sign);
        }

        // Mobility and the attacks on the enemy king's zone.
        let occupied = own | enemy;
        let area = !(own | enemy_pawn_attacks);
        let enemy_king = self.king_square(color ^ 1);
        let zone = KING_STEPS[enemy_king as usize] | 1 << enemy_king;
        let (mut zone_attacks, mut zone_attackers) = (0, 0);
        for (kind, term) in [(KNIGHT, 0), (BISHOP, 1), (ROOK, 2), (QUEEN, 3)] {
            for sq in (self.pieces[kind] & own).squares() {
                let reach = chesslike::piece_reach(kind, sq, occupied);
                terms.add(MOBILITY + term, sign * (reach & area).count_ones() as i32);
                let on_zone = (reach & zone).count_ones() as i32;
                zone_attacks += on_zone;
                zone_attackers += i32::from(on_zone > 0);
            }
        }
        terms.add(KING_ATTACKS, sign * phase * zone_attacks);
        terms.add(
            KING_ATTACKERS_2,
            sign * phase * i32::from(zone_attackers >= 2),
        );
        terms.add(
            KING_ATTACKERS_3,
            sign * phase * i32::from(zone_attackers >= 3),
        );

        // Pawns, rooks' files, the king's shield.
        let pawns = self.pieces[PAWN] & own;
        let enemy_pawns = self.pieces[PAWN] & enemy;
        let endgame = PHASE_STEPS - phase;
        for pawn in pawns8::pawns(pawns, enemy_pawns, white) {
            if pawn.passed {
                terms.add(PASSED_MIDDLE + pawn.rank - 1, sign * phase);
                terms.add(PASSED_END + pawn.rank - 1, sign * endgame);
                let stop = if white {
                    pawn.square + 8
                } else {
                    pawn.square - 8
                };
                if occupied & 1 << stop != 0 {
                    terms.add(PASSED_BLOCKED, sign * endgame);
                }
                let race = distance(enemy_king, stop) - distance(king, stop);
                let weight = (pawn.rank as i32 - 2).max(0);
                terms.add(PASSED_KINGS, sign * endgame * race * weight);
            }
            if pawn.doubled {
                terms.add(DOUBLED, sign);
            }
            if pawn.isolated {
                terms.add(ISOLATED, sign);
            }
        }
        let (open, half_open) = pawns8::rook_files(self.pieces[ROOK] & own, pawns, enemy_pawns);
        terms.add(ROOK_OPEN, sign * open);
        terms.add(ROOK_SEMI_OPEN, sign * half_open);
        let pieces =
            self.pieces[KNIGHT] | self.pieces[BISHOP] | self.pieces[ROOK] | self.pieces[QUEEN];
        let threats = pawns8::pawn_attacks(pawns, white) & enemy & pieces;
        terms.add(PAWN_THREATS, sign * threats.count_ones() as i32);
        let forward = if white { 8 } else { -8 };
        let shield = shift(KING_STEPS[king as usize] | 1 << king, forward) & pawns;
        terms.add(KING_SHIELD, sign * phase * shield.count_ones() as i32);
    }
}

impl Tunable for Chess {
    const TERM_NAMES: &'static [&'static str] = &crate::term_names!(
        board8,
        ["pawn", "knight", "bishop", "rook", "queen"],
        ["pawn", "knight", "bishop", "rook", "queen", "king_mid", "king_end"],
        [
            "bishop_pair",
            "mobility_knight",
            "mobility_bishop",
            "mobility_rook",
            "mobility_queen",
            "passed_mid_rank_2",
            "passed_mid_rank_3",
            "passed_mid_rank_4",
            "passed_mid_rank_5",
            "passed_mid_rank_6",
            "passed_mid_rank_7",
            "passed_end_rank_2",
            "passed_end_rank_3",
            "passed_end_rank_4",
            "passed_end_rank_5",
            "passed_end_rank_6",
            "passed_end_rank_7",
            "doubled",
            "isolated",
            "rook_open",
            "rook_semi_open",
            "pawn_threats",
            "king_shield_mid",
            "king_attacks_mid",
            "king_attackers_2_mid",
            "king_attackers_3_mid",
            "passed_blocked_end",
            "passed_kings_end",
            "tempo"
        ]
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
        let (white, black) = (Color::White.index(), Color::Black.index());
        let white_pawns = self.pieces[PAWN] & self.colors[white];
        let black_pawns = self.pieces[PAWN] & self.colors[black];
        let white_pawn_attacks = pawns8::pawn_attacks(white_pawns, true);
        let black_pawn_attacks = pawns8::pawn_attacks(black_pawns, false);
        self.side_terms(white, 1, phase, black_pawn_attacks, terms);
        self.side_terms(black, -1, phase, white_pawn_attacks, terms);
        terms.add(TEMPO, if self.side == Color::White { 1 } else { -1 });
    }
}

// The weights, the names and the terms agree in number.
const _: () = assert!(WEIGHTS.len() == TERMS && <Chess as Tunable>::TERM_NAMES.len() == TERMS);

impl SearchGame for Chess {
    // Wider pruning margins than the defaults gained at 3+0.03: 1.3 times them in session
    // 37, 1.6 times in session 39 (docs/search.md).
    const MARGIN_PERCENT: i32 = 160;

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

    fn gives_check(&self, mv: Move) -> bool {
        Chess::gives_check(self, mv)
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
    fn start_position_is_the_tempo_and_the_evaluation_colour_blind() {
        let start = Chess::from_fen(Chess::START_FEN).unwrap();
        assert_eq!(start.evaluate(), WEIGHTS[TEMPO]);
        let pos =
            Chess::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        assert_eq!(pos.evaluate(), pos.color_flipped().evaluate());
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

    fn features(fen: &str) -> Vec<i32> {
        Chess::from_fen(fen).unwrap().features().0
    }

    #[test]
    fn pawn_and_rook_terms_count_what_they_say() {
        // White: Re1, Kg1, pawns a2 a3 d6; Black: Rd8, Kg8, pawns g7 h7. Phase: two rooks,
        // 4/24 of the start = 1 sixth.
        let f = features("3r2k1/6pp/3P4/8/8/P7/P7/4R1K1 w - - 0 1");
        // Every pawn is passed: d6 (rank 6), a3 (rank 3), a2 (rank 2); g7 and h7 (Black's rank 2).
        assert_eq!((f[PASSED_MIDDLE + 4], f[PASSED_END + 4]), (1, 5));
        assert_eq!((f[PASSED_MIDDLE + 1], f[PASSED_END + 1]), (1, 5));
        assert_eq!((f[PASSED_MIDDLE], f[PASSED_END]), (1 - 2, 5 - 10));
        assert_eq!(f[DOUBLED], 1); // a2, behind a3
        assert_eq!(f[ISOLATED], 3); // a2, a3, d6; g7 and h7 stand beside each other
        assert_eq!(f[ROOK_OPEN], 1); // e1
        assert_eq!(f[ROOK_SEMI_OPEN], -1); // d8: only White's d6 on the d-file
                                           // Re1: e2-e8, a1-d1, f1 = 12; Rd8: d7, d6, a8-c8, e8, f8 = 7.
        assert_eq!(f[MOBILITY + 2], 12 - 7);
        assert_eq!(f[TEMPO], 1);
    }

    #[test]
    fn threats_shield_and_king_attacks() {
        // White: Kg1 behind f2 g2 h2, Qg4, Nh6, e4; Black: Kg8, Nd5, Bf5, Black to move.
        // Phase: three minor pieces and a queen, 7/24 = 1 sixth.
        let f = features("6k1/8/7N/3n1b2/4P1Q1/8/5PPP/6K1 b - - 0 1");
        assert_eq!(f[PAWN_THREATS], 2); // e4 attacks d5 and f5
        assert_eq!(f[KING_SHIELD], 3); // f2, g2, h2; Black's king has none
                                       // On g8's zone: Nh6 attacks g8 and f7, Qg4 attacks g7 and g8; Black attacks nothing
                                       // around g1.
        assert_eq!(f[KING_ATTACKS], 4);
        assert_eq!((f[KING_ATTACKERS_2], f[KING_ATTACKERS_3]), (1, 0));
        assert_eq!(f[TEMPO], -1);
    }

    #[test]
    fn null_move_keeps_the_hash_exact() {
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        crate::core::testkit::assert_null_move_is_exact::<Chess>(fen);
    }
}
