//! What the search needs from duck chess: the evaluation, a weighted sum of terms
//! ([`Tunable`]; the weights are in `weights.rs`), capture ordering, the static exchange
//! evaluation and the mover's piece (both in `see.rs`), and the move selection of `select.rs`.
//!
//! Duck chess has no check: a king left attacked is captured and the game is lost. The side
//! to move always moves a piece *and* the duck, so what it threatens it will take, and what
//! threatens it must be answered in one turn: a piece move plus one duck square, which can
//! shield one slider line and nothing else. The terms follow from that:
//! - material and piece-square values (the tables mirrored left-right: 32 squares per kind);
//! - mobility: squares each piece attacks outside its own pieces, the duck and enemy pawn
//!   attacks (the duck blocks lines for everyone);
//! - king exposure: the lines open to the king (the squares a queen on its square would
//!   see), enemy attacks on the squares around it and the number of pieces making them, its
//!   flight squares, its pawn shield; for the side to move a king attacked now: by a slider
//!   the duck can shield it, by a knight, pawn or king it must move or capture, by two
//!   pieces one duck cannot save it;
//! - hanging pieces (attacked and undefended, or attacked by a cheaper piece): the side to
//!   move takes those of the other side, and of its own it can save one per turn;
//! - pawn structure (passed pawns by rank, doubled and isolated pawns), bishop pair, rooks on
//!   open files, and the tempo of the side to move.
//!
//! Every term is counted from White's point of view (White's count minus Black's; a term of
//! the side to move counts +1 for White to move, -1 for Black), so one weight serves both.

use super::weights::WEIGHTS;
use super::{Duck, BISHOP, EN_PASSANT, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::core::attacks8::{queen, KING as KING_STEPS};
use crate::core::bits::shift;
use crate::core::moves::mvv_lva;
use crate::core::{Bits, Color, Game, Move};
use crate::search::SearchGame;
use crate::variants::terms::{side_to_move_score, Terms, Tunable};
use crate::variants::{chesslike, pawns8, pst8};

/// Material by piece type for capture ordering, the duck-square choice and the material-only
/// baseline; the king's value only orders its capture first. The evaluation's own material
/// values are weights.
pub(super) const VALUES: [i32; 6] = [100, 310, 330, 500, 900, 20_000];

/// Material of pawn to queen: five terms.
const MATERIAL: usize = 0;
/// Piece-square terms: per kind (pawn to king, then the king in the endgame) 32 squares,
/// files a-d (e-h mirrored onto them), rank 1 first as each side sees its own board.
const PST: usize = MATERIAL + 5;
/// The king's table in the endgame: when the enemy's pieces are worth at most this much.
const KING_END: usize = 6;
const ENDGAME_PIECES: i32 = 1300;
/// Attacked squares, per kind: knight, bishop, rook, queen.
const MOBILITY: usize = PST + 7 * 32;
/// Squares a queen on the king's square would see.
const KING_OPEN: usize = MOBILITY + 4;
/// Enemy (piece, square) attacks on the king and the squares around it.
const KING_ZONE_ATTACKS: usize = KING_OPEN + 1;
/// At least two, at least three enemy pieces attack the king's zone.
const KING_ZONE_ATTACKERS_2: usize = KING_ZONE_ATTACKS + 1;
const KING_ZONE_ATTACKERS_3: usize = KING_ZONE_ATTACKERS_2 + 1;
/// Squares next to the king it could step to: not its own pieces, not the duck, not attacked.
const KING_FLIGHT: usize = KING_ZONE_ATTACKERS_3 + 1;
/// Own pawns in front of the king (its zone moved one rank forward).
const KING_SHIELD: usize = KING_FLIGHT + 1;
/// The side to move's king attacked by one slider (the duck can shield it), by one knight,
/// pawn or king (it must move or capture), by two or more pieces (one duck cannot help).
const STM_KING_SLIDER: usize = KING_SHIELD + 1;
const STM_KING_LEAPER: usize = STM_KING_SLIDER + 1;
const STM_KING_TWICE: usize = STM_KING_LEAPER + 1;
/// Hanging pieces of the side to move, and a second one (only one can be saved per turn).
const STM_WEAK: usize = STM_KING_TWICE + 1;
const STM_WEAK_2: usize = STM_WEAK + 1;
/// Hanging pieces of the side not to move: the side to move threatens to take them.
const THREATENED_BY_STM: usize = STM_WEAK_2 + 1;
/// Mop-up, for a side ahead by a piece against at most [`ENDGAME_PIECES`]: the enemy king's
/// distance from the centre, and how near the two kings are (7 - distance).
const MOPUP_EDGE: usize = THREATENED_BY_STM + 1;
const MOPUP_CLOSE: usize = MOPUP_EDGE + 1;
/// Passed pawns on ranks 2 to 7 (as their side sees the board).
const PASSED: usize = MOPUP_CLOSE + 1;
const DOUBLED: usize = PASSED + 6;
const ISOLATED: usize = DOUBLED + 1;
const BISHOP_PAIR: usize = ISOLATED + 1;
const ROOK_OPEN: usize = BISHOP_PAIR + 1;
const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
const TEMPO: usize = ROOK_SEMI_OPEN + 1;
/// The number of terms.
const TERMS: usize = TEMPO + 1;

/// The piece-square term of a piece of `white` on `square`.
#[inline]
fn pst_term(kind: usize, white: bool, square: u8) -> usize {
    let (file, rank) = (square % 8, square / 8);
    let rank = if white { rank } else { 7 - rank };
    PST + kind * 32 + (rank * 4 + file.min(7 - file)) as usize
}

/// The squares one side attacks, for hanging pieces and the king's flight squares.
#[derive(Clone, Copy, Default)]
struct Attacks {
    /// Attacked by any piece.
    all: u64,
    /// Attacked twice, or by a pawn, knight, king or adjacent slider: a defence the enemy's
    /// duck cannot cut (it can block one slider's line to a square not next to it).
    solid: u64,
    /// Attacked by pawns.
    pawns: u64,
    /// Attacked by pawns, knights or bishops.
    minors: u64,
    /// Attacked by anything below a queen.
    rooks: u64,
}

impl Duck {
    /// Adds the terms of `color`'s pieces that need only its own attacks (material,
    /// piece-square, mobility, pawn structure, rooks' files, the attacks on the enemy king's
    /// zone) with `sign`, and returns its attacks.
    #[inline(always)]
    fn side_terms<T: Terms>(
        &self,
        color: Color,
        enemy_pawn_attacks: u64,
        enemy_pieces: i32,
        terms: &mut T,
    ) -> Attacks {
        let sign = if color == Color::White { 1 } else { -1 };
        let white = color == Color::White;
        let own = self.colors[color.index()];
        let enemy = self.colors[color.flip().index()];
        let occupied = own | enemy | self.duck;
        let area = !(own | self.duck | enemy_pawn_attacks);
        let zone = self
            .king_square(color.flip())
            .map_or(0, |k| KING_STEPS[k as usize] | 1 << k);

        for kind in PAWN..KING {
            let count = (self.pieces[kind] & own).count_ones() as i32;
            terms.add(MATERIAL + kind, sign * count);
        }
        for kind in PAWN..KING {
            for sq in (self.pieces[kind] & own).squares() {
                terms.add(pst_term(kind, white, sq), sign);
            }
        }
        let king_table = if enemy_pieces <= ENDGAME_PIECES {
            KING_END
        } else {
            KING
        };
        for sq in (self.pieces[KING] & own).squares() {
            terms.add(pst_term(king_table, white, sq), sign);
        }

        let pawns = self.pieces[PAWN] & own;
        let pawn_attacks = pawns8::pawn_attacks(pawns, white);
        let mut attacks = Attacks {
            all: pawn_attacks,
            solid: pawn_attacks,
            pawns: pawn_attacks,
            ..Attacks::default()
        };
        let mut zone_attacks = 0;
        let mut zone_attackers = 0;
        for (kind, term) in [(KNIGHT, 0), (BISHOP, 1), (ROOK, 2), (QUEEN, 3)] {
            for sq in (self.pieces[kind] & own).squares() {
                let reach = chesslike::piece_reach(kind, sq, occupied);
                let near = if kind == KNIGHT {
                    reach
                } else {
                    reach & KING_STEPS[sq as usize]
                };
                attacks.solid |= near | attacks.all & reach;
                attacks.all |= reach;
                terms.add(MOBILITY + term, sign * (reach & area).count_ones() as i32);
                let on_zone = (reach & zone).count_ones() as i32;
                zone_attacks += on_zone;
                zone_attackers += i32::from(on_zone > 0);
            }
            if kind == BISHOP {
                attacks.minors = attacks.all;
            } else if kind == ROOK {
                attacks.rooks = attacks.all;
            }
        }
        if let Some(king) = self.king_square(color) {
            attacks.solid |= KING_STEPS[king as usize];
            attacks.all |= KING_STEPS[king as usize];
        }
        terms.add(KING_ZONE_ATTACKS, -sign * zone_attacks);
        terms.add(
            KING_ZONE_ATTACKERS_2,
            -sign * i32::from(zone_attackers >= 2),
        );
        terms.add(
            KING_ZONE_ATTACKERS_3,
            -sign * i32::from(zone_attackers >= 3),
        );

        // Pawn structure.
        let enemy_pawns = self.pieces[PAWN] & enemy;
        for pawn in pawns8::pawns(pawns, enemy_pawns, white) {
            if pawn.passed {
                terms.add(PASSED + pawn.rank - 1, sign);
            }
            if pawn.doubled {
                terms.add(DOUBLED, sign);
            }
            if pawn.isolated {
                terms.add(ISOLATED, sign);
            }
        }
        if (self.pieces[BISHOP] & own).count_ones() >= 2 {
            terms.add(BISHOP_PAIR, sign);
        }
        let (open, half_open) = pawns8::rook_files(self.pieces[ROOK] & own, pawns, enemy_pawns);
        terms.add(ROOK_OPEN, sign * open);
        terms.add(ROOK_SEMI_OPEN, sign * half_open);
        attacks
    }

    /// The pieces of `color` (king excluded) that the enemy attacks and that are not solidly
    /// defended (see [`Attacks::solid`]) or are attacked by a cheaper piece.
    #[inline(always)]
    fn weak_pieces(&self, color: Color, ours: &Attacks, theirs: &Attacks) -> u64 {
        let own = self.colors[color.index()];
        let attacked = own & theirs.all;
        let undefended = attacked & !ours.solid;
        let by_cheaper = (self.pieces[KNIGHT] | self.pieces[BISHOP]) & theirs.pawns
            | self.pieces[ROOK] & theirs.minors
            | self.pieces[QUEEN] & theirs.rooks;
        (undefended | attacked & by_cheaper) & !self.pieces[KING]
    }

    /// Adds the king-exposure terms of `color`'s king with the sign of `color`.
    #[inline(always)]
    fn king_terms<T: Terms>(&self, color: Color, theirs: &Attacks, terms: &mut T) {
        let Some(king) = self.king_square(color) else {
            return;
        };
        let sign = if color == Color::White { 1 } else { -1 };
        let own = self.colors[color.index()];
        let occupied = self.colors[0] | self.colors[1] | self.duck;
        terms.add(KING_OPEN, sign * queen(king, occupied).count_ones() as i32);
        let steps = KING_STEPS[king as usize];
        let flight = steps & !own & !self.duck & !theirs.all;
        terms.add(KING_FLIGHT, sign * flight.count_ones() as i32);
        let forward = if color == Color::White { 8 } else { -8 };
        let shield = shift(steps | 1 << king, forward) & own & self.pieces[PAWN];
        terms.add(KING_SHIELD, sign * shield.count_ones() as i32);
        if color == self.side {
            let attackers = self.attackers(king, color.flip(), occupied);
            let sliders = self.slider_attackers(king, color.flip(), occupied);
            let term = match (attackers.count_ones(), sliders != 0) {
                (0, _) => return,
                (1, true) => STM_KING_SLIDER,
                (1, false) => STM_KING_LEAPER,
                _ => STM_KING_TWICE,
            };
            terms.add(term, sign);
        }
    }
}

impl Duck {
    /// The mop-up terms: a side a piece ahead against little drives the enemy king to the
    /// edge and brings its own king near (a lone king is captured with the duck's help).
    #[inline(always)]
    fn mopup_terms<T: Terms>(&self, pieces: [i32; 2], terms: &mut T) {
        let (Some(white_king), Some(black_king)) = (
            self.king_square(Color::White),
            self.king_square(Color::Black),
        ) else {
            return;
        };
        let sign = if pieces[0] >= pieces[1] + 300 && pieces[1] <= ENDGAME_PIECES {
            1
        } else if pieces[1] >= pieces[0] + 300 && pieces[0] <= ENDGAME_PIECES {
            -1
        } else {
            return;
        };
        let loser = if sign == 1 { black_king } else { white_king };
        let (file, rank) = (i32::from(loser % 8), i32::from(loser / 8));
        let edge = (2 * file - 7).abs() / 2 + (2 * rank - 7).abs() / 2;
        let files = (i32::from(white_king % 8) - i32::from(black_king % 8)).abs();
        let ranks = (i32::from(white_king / 8) - i32::from(black_king / 8)).abs();
        terms.add(MOPUP_EDGE, sign * edge);
        terms.add(MOPUP_CLOSE, sign * (7 - files.max(ranks)));
    }
}

impl Tunable for Duck {
    const TERM_NAMES: &'static [&'static str] = &NAMES;

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn add_terms<T: Terms>(&self, terms: &mut T) {
        let white_pawns = self.pieces[PAWN] & self.colors[0];
        let black_pawns = self.pieces[PAWN] & self.colors[1];
        let white_pawn_attacks = pawns8::pawn_attacks(white_pawns, true);
        let black_pawn_attacks = pawns8::pawn_attacks(black_pawns, false);
        let pieces = [Color::White, Color::Black].map(|color| {
            let own = self.colors[color.index()];
            (KNIGHT..KING)
                .map(|k| VALUES[k] * (self.pieces[k] & own).count_ones() as i32)
                .sum::<i32>()
        });
        let white = self.side_terms(Color::White, black_pawn_attacks, pieces[1], terms);
        let black = self.side_terms(Color::Black, white_pawn_attacks, pieces[0], terms);
        self.mopup_terms(pieces, terms);
        self.king_terms(Color::White, &black, terms);
        self.king_terms(Color::Black, &white, terms);

        let us = self.side;
        let sign = if us == Color::White { 1 } else { -1 };
        let (ours, theirs) = if us == Color::White {
            (&white, &black)
        } else {
            (&black, &white)
        };
        let weak = self.weak_pieces(us, ours, theirs).count_ones() as i32;
        terms.add(STM_WEAK, sign * weak);
        terms.add(STM_WEAK_2, sign * i32::from(weak >= 2));
        let threatened = self.weak_pieces(us.flip(), theirs, ours).count_ones() as i32;
        terms.add(THREATENED_BY_STM, sign * threatened);
        terms.add(TEMPO, sign);
    }
}

impl SearchGame for Duck {
    // Twice the quiet moves before late-move pruning gained at 3+0.03 (docs/search.md,
    // session 39): a duck chess node has some thirty times a chess node's moves (each piece
    // move with every empty square for the duck).
    const LATE_MOVE_PERCENT: i32 = 200;

    fn material(&self) -> i32 {
        pst8::material_balance(&self.pieces, &self.colors, &VALUES, self.side.index())
    }

    fn evaluate(&self) -> i32 {
        side_to_move_score(self, &WEIGHTS)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let victim = if mv.kind() == EN_PASSANT {
            VALUES[PAWN]
        } else {
            self.piece_at(mv.to()).map_or(0, |k| VALUES[k])
        };
        let attacker = self.piece_at(mv.from()).map_or(0, |k| VALUES[k]);
        let promotion = VALUES[mv.promotion() as usize % 6] * i32::from(mv.promotion() != 0);
        mvv_lva(victim, attacker.min(1000), promotion)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see_at_least(mv, threshold)
    }

    fn moved_piece(&self, mv: Move) -> usize {
        self.moved_piece_slot(mv)
    }

    fn null_move(&self) -> Option<Self> {
        None // every turn moves the duck: passing is not a move of this game
    }

    fn search_moves(&self, moves: &mut Vec<Move>) {
        self.staged_moves(moves, |_| true, false);
    }

    /// Captures and promotions, each with its single most urgent duck square.
    fn quiescence_moves(&self, moves: &mut Vec<Move>) -> bool {
        self.staged_moves(moves, |m| self.is_tactical(m), true)
    }
}

/// The term names, in weight order.
#[rustfmt::skip]
const NAMES: [&str; TERMS] = [
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "pst_p_a1", "pst_p_b1", "pst_p_c1", "pst_p_d1",
    "pst_p_a2", "pst_p_b2", "pst_p_c2", "pst_p_d2",
    "pst_p_a3", "pst_p_b3", "pst_p_c3", "pst_p_d3",
    "pst_p_a4", "pst_p_b4", "pst_p_c4", "pst_p_d4",
    "pst_p_a5", "pst_p_b5", "pst_p_c5", "pst_p_d5",
    "pst_p_a6", "pst_p_b6", "pst_p_c6", "pst_p_d6",
    "pst_p_a7", "pst_p_b7", "pst_p_c7", "pst_p_d7",
    "pst_p_a8", "pst_p_b8", "pst_p_c8", "pst_p_d8",
    "pst_n_a1", "pst_n_b1", "pst_n_c1", "pst_n_d1",
    "pst_n_a2", "pst_n_b2", "pst_n_c2", "pst_n_d2",
    "pst_n_a3", "pst_n_b3", "pst_n_c3", "pst_n_d3",
    "pst_n_a4", "pst_n_b4", "pst_n_c4", "pst_n_d4",
    "pst_n_a5", "pst_n_b5", "pst_n_c5", "pst_n_d5",
    "pst_n_a6", "pst_n_b6", "pst_n_c6", "pst_n_d6",
    "pst_n_a7", "pst_n_b7", "pst_n_c7", "pst_n_d7",
    "pst_n_a8", "pst_n_b8", "pst_n_c8", "pst_n_d8",
    "pst_b_a1", "pst_b_b1", "pst_b_c1", "pst_b_d1",
    "pst_b_a2", "pst_b_b2", "pst_b_c2", "pst_b_d2",
    "pst_b_a3", "pst_b_b3", "pst_b_c3", "pst_b_d3",
    "pst_b_a4", "pst_b_b4", "pst_b_c4", "pst_b_d4",
    "pst_b_a5", "pst_b_b5", "pst_b_c5", "pst_b_d5",
    "pst_b_a6", "pst_b_b6", "pst_b_c6", "pst_b_d6",
    "pst_b_a7", "pst_b_b7", "pst_b_c7", "pst_b_d7",
    "pst_b_a8", "pst_b_b8", "pst_b_c8", "pst_b_d8",
    "pst_r_a1", "pst_r_b1", "pst_r_c1", "pst_r_d1",
    "pst_r_a2", "pst_r_b2", "pst_r_c2", "pst_r_d2",
    "pst_r_a3", "pst_r_b3", "pst_r_c3", "pst_r_d3",
    "pst_r_a4", "pst_r_b4", "pst_r_c4", "pst_r_d4",
    "pst_r_a5", "pst_r_b5", "pst_r_c5", "pst_r_d5",
    "pst_r_a6", "pst_r_b6", "pst_r_c6", "pst_r_d6",
    "pst_r_a7", "pst_r_b7", "pst_r_c7", "pst_r_d7",
    "pst_r_a8", "pst_r_b8", "pst_r_c8", "pst_r_d8",
    "pst_q_a1", "pst_q_b1", "pst_q_c1", "pst_q_d1",
    "pst_q_a2", "pst_q_b2", "pst_q_c2", "pst_q_d2",
    "pst_q_a3", "pst_q_b3", "pst_q_c3", "pst_q_d3",
    "pst_q_a4", "pst_q_b4", "pst_q_c4", "pst_q_d4",
    "pst_q_a5", "pst_q_b5", "pst_q_c5", "pst_q_d5",
    "pst_q_a6", "pst_q_b6", "pst_q_c6", "pst_q_d6",
    "pst_q_a7", "pst_q_b7", "pst_q_c7", "pst_q_d7",
    "pst_q_a8", "pst_q_b8", "pst_q_c8", "pst_q_d8",
    "pst_k_a1", "pst_k_b1", "pst_k_c1", "pst_k_d1",
    "pst_k_a2", "pst_k_b2", "pst_k_c2", "pst_k_d2",
    "pst_k_a3", "pst_k_b3", "pst_k_c3", "pst_k_d3",
    "pst_k_a4", "pst_k_b4", "pst_k_c4", "pst_k_d4",
    "pst_k_a5", "pst_k_b5", "pst_k_c5", "pst_k_d5",
    "pst_k_a6", "pst_k_b6", "pst_k_c6", "pst_k_d6",
    "pst_k_a7", "pst_k_b7", "pst_k_c7", "pst_k_d7",
    "pst_k_a8", "pst_k_b8", "pst_k_c8", "pst_k_d8",
    "pst_k_end_a1", "pst_k_end_b1", "pst_k_end_c1", "pst_k_end_d1",
    "pst_k_end_a2", "pst_k_end_b2", "pst_k_end_c2", "pst_k_end_d2",
    "pst_k_end_a3", "pst_k_end_b3", "pst_k_end_c3", "pst_k_end_d3",
    "pst_k_end_a4", "pst_k_end_b4", "pst_k_end_c4", "pst_k_end_d4",
    "pst_k_end_a5", "pst_k_end_b5", "pst_k_end_c5", "pst_k_end_d5",
    "pst_k_end_a6", "pst_k_end_b6", "pst_k_end_c6", "pst_k_end_d6",
    "pst_k_end_a7", "pst_k_end_b7", "pst_k_end_c7", "pst_k_end_d7",
    "pst_k_end_a8", "pst_k_end_b8", "pst_k_end_c8", "pst_k_end_d8",
    "mobility_knight",
    "mobility_bishop",
    "mobility_rook",
    "mobility_queen",
    "king_open_lines",
    "king_zone_attacks",
    "king_zone_attackers_2",
    "king_zone_attackers_3",
    "king_flight",
    "king_shield",
    "stm_king_attacked_slider",
    "stm_king_attacked_leaper",
    "stm_king_attacked_twice",
    "stm_weak_pieces",
    "stm_weak_pieces_2",
    "threatened_by_stm",
    "mopup_edge",
    "mopup_close",
    "passed_rank_2",
    "passed_rank_3",
    "passed_rank_4",
    "passed_rank_5",
    "passed_rank_6",
    "passed_rank_7",
    "doubled_pawn",
    "isolated_pawn",
    "bishop_pair",
    "rook_open_file",
    "rook_semi_open_file",
    "tempo",
];

// The weights and the names must match the terms.
const _: () = assert!(WEIGHTS.len() == TERMS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::zobrist::splitmix64;
    use crate::core::Game;

    fn pos(fen: &str) -> Duck {
        Duck::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn count(fen: &str, term: usize) -> i32 {
        pos(fen).features().0[term]
    }

    /// Positions of random games from the openings book, every ply until the game ends.
    fn random_positions() -> Vec<Duck> {
        let book = include_str!("../../../positions/openings/duck.epd");
        let mut seed = 0xD0C4_E7A1u64;
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for line in book.lines().filter(|l| !l.starts_with('#')).take(40) {
            let fen = line.split(';').next().unwrap_or_default();
            let mut p = pos(fen);
            for _ in 0..80 {
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                positions.push(p);
                let (next, r) = splitmix64(seed);
                seed = next;
                p.play(moves[(r % moves.len() as u64) as usize]);
            }
        }
        positions
    }

    #[test]
    fn evaluate_is_the_weighted_sum_of_the_terms_and_colour_blind() {
        let positions = random_positions();
        assert!(positions.len() > 1000, "{}", positions.len());
        let mut nonzero = [false; TERMS];
        for p in &positions {
            let sign = if p.side == Color::White { 1 } else { -1 };
            assert_eq!(p.evaluate(), sign * p.white_score(), "{}", p.fen());
            crate::variants::terms::check_parts_add_up(p);
            let flipped = p.color_flipped();
            assert_eq!(p.evaluate(), flipped.evaluate(), "{}", p.fen());
            for (seen, &n) in nonzero.iter_mut().zip(&p.features().0) {
                *seen |= n != 0;
            }
        }
        // Every term occurs but the piece-square ones (some squares are never reached, pawns
        // on ranks 1 and 8 never) and mop-up (endgames: tested below).
        let missing: Vec<&str> = (0..TERMS)
            .filter(|&t| !nonzero[t] && !NAMES[t].starts_with("pst_") && t != MOPUP_EDGE)
            .filter(|&t| t != MOPUP_CLOSE)
            .map(|t| NAMES[t])
            .collect();
        assert!(missing.is_empty(), "terms never seen: {missing:?}");
    }

    #[test]
    fn names_are_unique_and_one_per_weight() {
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TERMS);
        assert_eq!(Duck::TERM_NAMES.len(), Duck::weights().len());
        assert_eq!(NAMES[pst_term(KNIGHT, true, 21)], "pst_n_c3"); // f3 mirrors onto c3
        assert_eq!(NAMES[pst_term(KNIGHT, false, 45)], "pst_n_c3"); // f6 for Black
    }

    #[test]
    fn start_position_is_the_tempo() {
        let start = pos(Duck::START_FEN);
        assert_eq!(start.evaluate(), WEIGHTS[TEMPO]);
        let features = start.features().0;
        assert!(features
            .iter()
            .enumerate()
            .all(|(t, &n)| n == 0 || t == TEMPO));
    }

    #[test]
    fn king_attacks_on_the_side_to_move() {
        // A rook on the e-file: the duck can shield it.
        assert_eq!(count("4r2k/8/8/8/8/8/8/4K3 w - - 0 1", STM_KING_SLIDER), 1);
        // With the duck already in the way there is no attack.
        assert_eq!(
            count("4r2k/8/8/4*3/8/8/8/4K3 w - - 0 1", STM_KING_SLIDER),
            0
        );
        // A knight: no shield.
        assert_eq!(count("7k/8/8/8/8/3n4/8/4K3 w - - 0 1", STM_KING_LEAPER), 1);
        // Rook and knight: one duck cannot save it.
        assert_eq!(count("4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1", STM_KING_TWICE), 1);
        // Black to move with its king attacked counts for White's side of the sum.
        assert_eq!(count("4k3/8/8/8/8/8/8/4RK2 b - - 0 1", STM_KING_SLIDER), -1);
        // The side not to move's king: none of these terms (the search captures it).
        assert_eq!(count("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", STM_KING_SLIDER), 0);
    }

    #[test]
    fn king_exposure_counts_open_lines_flight_and_shield() {
        // King g1 behind f2 g2 h2: a queen there would see a1..f1, h1 and the three pawns;
        // on h8, the eighth rank, the h-file down to h2 and the long diagonal.
        let sheltered = "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
        assert_eq!(count(sheltered, KING_SHIELD), 0); // Black's shield cancels White's
        let p = pos("7k/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        assert_eq!(p.features().0[KING_SHIELD], 3);
        assert_eq!(p.features().0[KING_OPEN], (6 + 1 + 3) - (7 + 6 + 7));
        // The duck on f1 closes a line and a flight square.
        let duck = pos("7k/8/8/8/8/8/5PPP/5*K1 w - - 0 1");
        assert_eq!(duck.features().0[KING_OPEN], (1 + 1 + 3) - (7 + 6 + 7));
        assert_eq!(
            duck.features().0[KING_FLIGHT],
            p.features().0[KING_FLIGHT] - 1
        );
    }

    #[test]
    fn hanging_pieces_for_and_against_the_side_to_move() {
        // White's bishop attacks the undefended knight on f6: White, to move, threatens it.
        let fen = "4k3/8/5n2/8/8/2B5/8/4K3 w - - 0 1";
        assert_eq!(count(fen, THREATENED_BY_STM), 1);
        assert_eq!(count(fen, STM_WEAK), 0);
        // Black to move: its own knight hangs.
        let fen = "4k3/8/5n2/8/8/2B5/8/4K3 b - - 0 1";
        assert_eq!(count(fen, STM_WEAK), -1);
        // A pawn-defended knight attacked by a bishop is not hanging ...
        assert_eq!(
            count("4k3/6p1/5n2/8/8/2B5/8/4K3 w - - 0 1", THREATENED_BY_STM),
            0
        );
        // ... but a rook attacked by a knight is, defended or not; two hang: the second counts.
        let fen = "4k3/8/3r1r2/8/4N3/8/8/4K3 b - - 0 1";
        assert_eq!(count(fen, STM_WEAK), -2);
        assert_eq!(count(fen, STM_WEAK_2), -1);
    }

    #[test]
    fn pawn_structure() {
        // White: passed d5, doubled and isolated a-pawns; Black: h7 passed too (nothing
        // stops it) and isolated.
        let fen = "4k3/7p/8/3P4/8/P7/P7/4K3 w - - 0 1";
        let f = pos(fen).features().0;
        assert_eq!(f[PASSED + 3], 1); // d5: rank 5
        assert_eq!(f[PASSED], 1 - 1); // a2 (White, rank 2) and h7 (Black, its rank 2)
        assert_eq!(f[PASSED + 1], 1); // a3: the a2 pawn behind it does not stop it
        assert_eq!(f[DOUBLED], 1); // a2 has a3 in front
        assert_eq!(f[ISOLATED], 3 - 1);
        // An enemy pawn on a neighbouring file ahead stops a passed pawn.
        assert_eq!(count("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1", PASSED + 3), 0);
    }

    #[test]
    fn mopup_and_the_endgame_king() {
        // White's rook against a lone king on h8 (3 + 3 from the centre), kings 2 apart.
        let f = pos("7k/8/5K2/8/8/8/8/R7 w - - 0 1").features().0;
        assert_eq!((f[MOPUP_EDGE], f[MOPUP_CLOSE]), (6, 5));
        // Both kings use the endgame table: White's f6 (c6 mirrored), Black's h8 (its a1).
        assert_eq!(f[PST + KING_END * 32 + 5 * 4 + 2], 1);
        assert_eq!(f[PST + KING_END * 32], -1);
        // Black a queen up: its side, negative.
        let f = pos("k7/8/8/8/8/8/1K6/7q w - - 0 1").features().0;
        assert_eq!((f[MOPUP_EDGE], f[MOPUP_CLOSE]), (-(2 + 2), -(7 - 6)));
        // Equal pieces: no mop-up; with queens on, the middle-game king table.
        let f = pos("qr5k/8/8/8/8/8/8/QR4K1 w - - 0 1").features().0;
        assert_eq!((f[MOPUP_EDGE], f[MOPUP_CLOSE]), (0, 0));
        assert_eq!(f[PST + KING * 32 + 1], 1); // g1 as b1
    }

    #[test]
    fn mobility_is_blocked_by_the_duck() {
        let open = count("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", MOBILITY + 2);
        let blocked = count("4k3/8/8/8/*7/8/8/R3K3 w - - 0 1", MOBILITY + 2);
        assert_eq!(open, 7 + 3); // a2..a8, b1..d1
        assert_eq!(blocked, 2 + 3);
    }
}
