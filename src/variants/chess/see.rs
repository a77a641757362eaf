//! Static exchange evaluation (SEE) for chess in Stockfish's threshold form
//! ([`Chess::see_at_least`]), and the mover's piece for the history tables
//! ([`Chess::moved_piece_slot`]).
//!
//! The exchange: `mv` is made, then the two sides take turns capturing on its destination
//! square, each with its least valuable attacker, and either side may stop whenever it likes
//! (the side that made `mv` only after `mv`). The answer is whether the material won, in
//! [`VALUES`], is at least the threshold. Details:
//! - Material is [`VALUES`] (the values capture ordering and the material baseline use);
//!   the king's 20,000 is larger than everything else on the board together, so a king
//!   recaptures only when the other side cannot take it back (capturing the king ends the
//!   exchange, like the illegal move it stands for).
//! - X-rays: each capturer leaves the occupancy, and the bishops, rooks and queens behind it
//!   on the same line join. The square `mv` left is empty from the start, so a slider behind
//!   the moving piece joins at once.
//! - Promotions: `mv`'s promotion wins the new piece's value less the pawn's, and the new
//!   piece is the one at risk on the square. A pawn recapturing on the last rank promotes to
//!   a queen the same way.
//! - En passant: the victim is a pawn, and its square is emptied (a slider behind it on the
//!   file joins). Castling is worth 0: `see_at_least` is `threshold <= 0`.
//! - Pins are ignored: a pinned piece captures like any other (Stockfish leaves out pinned
//!   attackers while their pinner stands; this is the simpler, slightly less exact choice).
//! - Quiet moves capture nothing: the answer says whether the piece stands safely enough on
//!   its new square (a queen on a square a pawn attacks: `see_at_least(mv, 0)` is false).
//!
//! The loop keeps one number, the balance (material won by the side that made `mv` less the
//! threshold), and the invariant that the side about to capture stands badly if it stops:
//! the balance is negative for the mover's side, at least 0 for the other. It captures; if
//! that still leaves it standing badly, the other side stops and the exchange is decided,
//! else the roles change. Sides without an attacker lose where they stand.

use super::eval::VALUES;
use super::{Chess, BISHOP, CASTLE, EN_PASSANT, KING, KNIGHT, PAWN, PROMOTION, QUEEN, ROOK};
use crate::core::attacks8::{self, bishop, rook};
use crate::core::Move;
use crate::variants::see8::Exchange;

/// Thresholds are clamped to this: far beyond any balance (a king and all the material of
/// both sides), so clamping changes no answer and the sums cannot overflow.
const THRESHOLD_LIMIT: i32 = 1 << 24;
/// Ranks 1 and 8: a pawn capturing there promotes.
const LAST_RANKS: u64 = 0xff | 0xff << 56;
/// What a pawn gains by becoming a queen.
const QUEEN_PROMOTION: i32 = VALUES[QUEEN] - VALUES[PAWN];

/// `MOVER[kind]`: the piece type a move of that kind moves (kinds 0-5 are piece types, a
/// double push, en passant and promotion move a pawn, castling the king).
const MOVER: [usize; 16] = {
    let mut mover = [PAWN; 16];
    let mut kind = 0;
    while kind < 6 {
        mover[kind] = kind;
        kind += 1;
    }
    mover[CASTLE as usize] = KING;
    mover
};

impl Chess {
    /// The piece `mv` moves as `colour * 6 + type` (below 12): from the move's kind alone.
    #[inline]
    pub(super) fn moved_piece_slot(&self, mv: Move) -> usize {
        self.side.index() * 6 + MOVER[mv.kind() as usize & 15]
    }

    /// The pieces of both colours attacking `sq` with occupancy `occupied`.
    #[inline(always)]
    fn attackers_of_both(&self, sq: u8, occupied: u64) -> u64 {
        let p = &self.pieces;
        let s = sq as usize & 63;
        (attacks8::PAWN_ATTACKS[1][s] & p[PAWN] & self.colors[0])
            | (attacks8::PAWN_ATTACKS[0][s] & p[PAWN] & self.colors[1])
            | (attacks8::KNIGHT[s] & p[KNIGHT])
            | (attacks8::KING[s] & p[KING])
            | (bishop(sq, occupied) & (p[BISHOP] | p[QUEEN]))
            | (rook(sq, occupied) & (p[ROOK] | p[QUEEN]))
    }

    /// Whether `mv` (legal here) followed by the best exchange on its destination wins at
    /// least `threshold` centipawns for the side to move (see the module doc).
    pub(super) fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let kind = mv.kind();
        if kind == CASTLE {
            return threshold <= 0;
        }
        let (from, to) = (mv.from() & 63, mv.to() & 63);
        let to_bit = 1u64 << to;
        let us = self.side.index();
        let mut occupied = (self.colors[0] | self.colors[1]) & !(1u64 << from);
        let victim = if kind == EN_PASSANT {
            occupied &= !(1u64 << (to ^ 8));
            VALUES[PAWN]
        } else if self.colors[us ^ 1] & to_bit != 0 {
            VALUES[self.captured_kind(to_bit)]
        } else {
            0
        };
        let mover = MOVER[kind as usize & 15];
        let mut balance = victim - threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
        let mut on_square = VALUES[mover];
        if kind == PROMOTION {
            let new = mv.promotion() as usize % 6;
            balance += VALUES[new] - VALUES[PAWN];
            on_square = VALUES[new];
        }
        if balance < 0 {
            return false; // not enough even if nothing is taken back
        }
        let their_promotion = if to_bit & LAST_RANKS != 0 {
            QUEEN_PROMOTION
        } else {
            0
        };
        if balance - on_square - their_promotion >= 0 {
            return true; // enough even if the piece is taken back at once
        }
        occupied |= to_bit;
        self.exchange(to, occupied, balance, on_square, mover == KING)
    }

    /// The captures on `to` after the first move (the shared loop of `see8`).
    #[inline(always)]
    fn exchange(
        &self,
        to: u8,
        occupied: u64,
        balance: i32,
        on_square: i32,
        king_on_square: bool,
    ) -> bool {
        let exchange = Exchange {
            pieces: &self.pieces,
            colors: self.colors,
            values: &VALUES,
            first: self.side.index(),
        };
        let attackers = self.attackers_of_both(to, occupied);
        exchange.holds(to, occupied, attackers, balance, on_square, king_on_square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::core::testkit;
    use crate::core::Game;
    use crate::search::SearchGame;
    use crate::variants::see_checks::{self, ChessLikeSee, Mailbox};

    /// Checks `see_ge(move, threshold) == expected` for each (threshold, expected).
    fn check(fen: &str, text: &str, cases: &[(i32, bool)]) {
        see_checks::assert_see_cases(fen, text, cases, reference_see);
    }

    // Values: P 100, N 320, B 330, R 500, Q 900, K 20,000.

    #[test]
    fn winning_capture_of_an_undefended_piece() {
        // Rd1xd5 takes the knight and nothing takes back: +320.
        let fen = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        check(fen, "d1d5", &[(0, true), (320, true), (321, false)]);
    }

    #[test]
    fn queen_takes_a_pawn_defended_by_a_pawn() {
        // Qd1xd5 +100, c6xd5 -900: black takes back, 100 - 900 = -800.
        let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
        check(fen, "d1d5", &[(0, false), (-799, false), (-800, true)]);
    }

    #[test]
    fn pawn_takes_a_defended_queen() {
        // e4xd5 +900, c6xd5 -100: 800 whatever black does.
        let fen = "4k3/8/2p5/3q4/4P3/8/8/4K3 w - - 0 1";
        check(fen, "e4d5", &[(800, true), (801, false)]);
    }

    #[test]
    fn equal_trade_is_zero() {
        // Ne3xd5 +320, e6xd5 -320: 0. True at 0, false at 1.
        let fen = "4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1";
        check(fen, "e3d5", &[(0, true), (1, false), (-1, true)]);
    }

    #[test]
    fn rook_battery_x_ray_recaptures() {
        // Rd2xd5 +320, Rd8xd5 -500, Rd1xd5 (behind d2) +500: 320 whether black takes back
        // or not. Without the x-ray black's recapture would leave 320 - 500 = -180.
        let fen = "3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1";
        check(fen, "d2d5", &[(0, true), (320, true), (321, false)]);
    }

    #[test]
    fn bishop_behind_the_queen_x_ray() {
        // Qc2xe4 +320, Re8xe4 -900 (-580), Bb1xe4 through c2 and d3 +500 (-80). White
        // takes back (-80 is better than -580), so black's recapture is worth -80 to it and
        // it makes it: -80. Without the bishop's x-ray it would be -580.
        let fen = "4r1k1/8/8/8/4n3/8/2Q5/1B4K1 w - - 0 1";
        check(fen, "c2e4", &[(-100, true), (-80, true), (-79, false)]);
    }

    #[test]
    fn queen_in_front_of_the_rook_must_capture_first() {
        // Nf3xe5 +100, Nc6xe5 -320 (-220), Qe2xe5 +320 (100), Re8xe5 -900 (-800), Re1xe5
        // +500 (-300). Backwards: black ends on -300 rather than 100; so white's queen
        // recapture is worth -300 against -220 for stopping: white stops, and black's
        // knight recapture wins: -220.
        let fen = "4r1k1/8/2n5/4p3/8/5N2/4Q3/4R1K1 w - - 0 1";
        check(fen, "f3e5", &[(-220, true), (-219, false)]);
        // Rook in front, queen behind: Nxe5 +100, Nxe5 -320 (-220), Rxe5 +320 (100),
        // Rxe5 -500 (-400), Qxe5 +500 (100): black gains nothing by taking back: 100.
        let fen = "4r1k1/8/2n5/4p3/8/5N2/4R3/4Q1K1 w - - 0 1";
        check(fen, "f3e5", &[(100, true), (101, false)]);
    }

    #[test]
    fn en_passant_empties_the_captured_pawns_square() {
        // e5xd6 e.p. +100, c7xd6 -100 (0), Rd1xd6 +100 through d5, which the captured pawn
        // left (100): black gains nothing by taking back: 100 (it would be 0 if d5 still
        // blocked the rook).
        let fen = "4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 2";
        check(fen, "e5d6", &[(0, true), (100, true), (101, false)]);
        // Without the rook: +100 -100 = 0.
        let fen = "4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 2";
        check(fen, "e5d6", &[(0, true), (1, false)]);
    }

    #[test]
    fn promotion_capture() {
        // b7xa8=Q: +500 for the rook, +800 for pawn to queen (1300); Nb6xa8 -900: 400.
        let fen = "r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1";
        check(fen, "b7a8q", &[(400, true), (401, false)]);
        // b7xa8=N: +500 +220 (720); Nxa8 -320: 400 again.
        check(fen, "b7a8n", &[(400, true), (401, false)]);
    }

    #[test]
    fn promotion_push_and_the_rook_behind_the_pawn() {
        // b7-b8=Q +800, Rh8xb8 -900: -100.
        let fen = "7r/1P6/8/8/8/8/8/K6k w - - 0 1";
        check(fen, "b7b8q", &[(0, false), (-100, true), (-99, false)]);
        // With a rook on b1, which sees b8 once b7 is empty: +800, Rxb8 -900 (-100),
        // Rxb8 +500 (400): black gains nothing by taking: 400.
        let fen = "7r/1P6/8/8/8/7k/8/KR6 w - - 0 1";
        check(fen, "b7b8q", &[(400, true), (401, false)]);
    }

    #[test]
    fn quiet_move_to_an_attacked_square() {
        // Qd1-d4, attacked by the pawn e5: 0 - 900 = -900.
        let fen = "4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1";
        check(fen, "d1d4", &[(0, false), (-900, true), (-901, true)]);
        // Qd1-d3 is safe: 0.
        check(fen, "d1d3", &[(0, true), (1, false)]);
    }

    #[test]
    fn king_cannot_recapture_on_a_defended_square() {
        // Rd1xd7 +100; Ke8xd7 would be answered by Bb5xd7 (the king lost): black stops, 100.
        let fen = "4k3/3p4/8/1B6/8/8/8/3RK3 w - - 0 1";
        check(fen, "d1d7", &[(100, true), (101, false)]);
        // Without the bishop the king takes the rook: 100 - 500 = -400.
        let fen = "4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1";
        check(fen, "d1d7", &[(0, false), (-400, true), (-399, false)]);
    }

    #[test]
    fn pinned_defenders_still_recapture() {
        // The documented simplification: the knight d7, pinned by Bb5, takes back on e5:
        // Re1xe5 +100, Nd7xe5 -500: -400 (a pin-aware SEE would say +100).
        let fen = "4k3/3n4/8/1B2p3/8/8/8/4R1K1 w - - 0 1";
        check(fen, "e1e5", &[(0, false), (-400, true), (-399, false)]);
    }

    #[test]
    fn castling_is_worth_zero() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        check(fen, "e1g1", &[(0, true), (-1, true), (1, false)]);
    }

    #[test]
    fn black_to_move_and_moved_piece() {
        // Black's Nf6xe4 +100, Nc3xe4 -320: -220.
        let fen = "4k3/8/5n2/8/4P3/2N5/8/4K3 b - - 0 1";
        check(fen, "f6e4", &[(-220, true), (-219, false)]);
        let p: Chess = testkit::pos(fen);
        let mv = testkit::legal(&p, "f6e4");
        assert_eq!(p.moved_piece(mv), 6 + KNIGHT);
        let white: Chess = testkit::pos("r3k3/1P6/1n6/8/8/8/8/4K2R w K - 0 1");
        for (text, piece) in [("b7a8q", PAWN), ("e1g1", KING), ("h1h5", ROOK)] {
            let mv = testkit::legal(&white, text);
            assert_eq!(white.moved_piece(mv), piece, "{text}");
        }
    }

    /// An independent SEE for the tests ([`see_checks::mailbox_exchange`]). Same rules as the
    /// module doc: least valuable attacker first (the lowest square among equals), a king's
    /// capture ends it.
    fn reference_see(p: &Chess, mv: Move) -> i32 {
        if mv.kind() == CASTLE {
            return 0;
        }
        let mut board: Mailbox = [None; 64];
        for (sq, square) in board.iter_mut().enumerate() {
            *square = p.piece_on(sq as u8);
        }
        let (from, to) = (mv.from() as usize, mv.to() as usize);
        let us = p.side.index();
        let mut mover = board[from].map_or(PAWN, |(_, kind)| kind);
        let mut gain = board[to].map_or(0, |(_, kind)| VALUES[kind]);
        if mv.kind() == EN_PASSANT {
            gain = VALUES[PAWN];
            board[to ^ 8] = None;
        }
        if mv.kind() == PROMOTION {
            mover = mv.promotion() as usize;
            gain += VALUES[mover] - VALUES[PAWN];
        }
        board[from] = None;
        board[to] = Some((us, mover));
        see_checks::mailbox_exchange(&mut board, to, us ^ 1, gain, &VALUES)
    }

    #[test]
    fn random_positions_monotone_bounded_and_agreeing_with_the_reference() {
        let checked = ChessLikeSee {
            starts: &[
                Chess::START_FEN,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8",
            ],
            games: 12,
            plies: 40,
            quiet_every: 1,
            step: 25,
            values: VALUES,
            kind: |p: &Chess, mv| {
                let from_bit = 1u64 << mv.from();
                (0..6).find(|&k| p.pieces[k] & from_bit != 0).unwrap_or(6)
            },
            victim: |p: &Chess, mv| {
                let to_bit = 1u64 << mv.to();
                if mv.kind() == EN_PASSANT {
                    VALUES[PAWN]
                } else {
                    (0..5)
                        .find(|&k| p.pieces[k] & to_bit != 0)
                        .map_or(0, |k| VALUES[k])
                }
            },
            promotion: |mv| (mv.kind() == PROMOTION).then_some(mv.promotion() as usize),
            reference: reference_see,
        }
        .check(Rng::new(0x5EE, 1));
        assert!(checked > 200, "only {checked} captures");
    }
}
