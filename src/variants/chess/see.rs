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
//! The exchange itself is `see8`'s, shared with duck chess.

use super::eval::VALUES;
use super::{Chess, CASTLE, EN_PASSANT, KING, PAWN, PROMOTION};
use crate::core::Move;
use crate::variants::see8::{Exchange, FirstMove};

/// `MOVER[kind]`: the piece type a move of that kind moves (kinds 0-5 are piece types, a
/// double push, en passant and promotion move a pawn, castling the king).
pub(super) const MOVER: [usize; 16] = {
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
            Some(PAWN)
        } else if self.colors[us ^ 1] & to_bit != 0 {
            Some(self.captured_kind(to_bit))
        } else {
            None
        };
        let first = FirstMove {
            to,
            mover: MOVER[kind as usize & 15],
            victim,
            promotion: (kind == PROMOTION).then(|| mv.promotion() as usize % 6),
        };
        let exchange = Exchange {
            pieces: &self.pieces,
            colors: self.colors,
            values: &VALUES,
            first: us,
        };
        exchange.at_least(&first, occupied, threshold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::core::Game;
    use crate::variants::chesslike::{KNIGHT, ROOK};
    use crate::variants::see_checks::{self, ChessLikeSee, Mailbox, SeeCases};

    /// Exchanges and the answers at some thresholds: FEN, move, (threshold, expected) pairs
    /// (values: P 100, N 320, B 330, R 500, Q 900, K 20,000).
    #[rustfmt::skip]
    const EXCHANGES: &[SeeCases] = &[
        // Rd1xd5 takes the knight and nothing takes back: +320.
        ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", &[(0, true), (320, true), (321, false)]),
        // Qd1xd5 +100, c6xd5 -900: black takes back, 100 - 900 = -800.
        ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", &[(0, false), (-799, false), (-800, true)]),
        // e4xd5 +900, c6xd5 -100: 800 whatever black does.
        ("4k3/8/2p5/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", &[(800, true), (801, false)]),
        // Ne3xd5 +320, e6xd5 -320: 0. True at 0, false at 1.
        ("4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", &[(0, true), (1, false), (-1, true)]),
        // Rd2xd5 +320, Rd8xd5 -500, Rd1xd5 (behind d2) +500: 320 whether black takes back
        // or not. Without the x-ray black's recapture would leave 320 - 500 = -180.
        ("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5", &[(0, true), (320, true), (321, false)]),
        // Qc2xe4 +320, Re8xe4 -900 (-580), Bb1xe4 through c2 and d3 +500 (-80). White
        // takes back (-80 is better than -580), so black's recapture is worth -80 to it and
        // it makes it: -80. Without the bishop's x-ray it would be -580.
        ("4r1k1/8/8/8/4n3/8/2Q5/1B4K1 w - - 0 1", "c2e4", &[(-100, true), (-80, true), (-79, false)]),
        // Nf3xe5 +100, Nc6xe5 -320 (-220), Qe2xe5 +320 (100), Re8xe5 -900 (-800), Re1xe5
        // +500 (-300). Backwards: black ends on -300 rather than 100; so white's queen
        // recapture is worth -300 against -220 for stopping: white stops, and black's
        // knight recapture wins: -220.
        ("4r1k1/8/2n5/4p3/8/5N2/4Q3/4R1K1 w - - 0 1", "f3e5", &[(-220, true), (-219, false)]),
        // Rook in front, queen behind: Nxe5 +100, Nxe5 -320 (-220), Rxe5 +320 (100),
        // Rxe5 -500 (-400), Qxe5 +500 (100): black gains nothing by taking back: 100.
        ("4r1k1/8/2n5/4p3/8/5N2/4R3/4Q1K1 w - - 0 1", "f3e5", &[(100, true), (101, false)]),
        // e5xd6 e.p. +100, c7xd6 -100 (0), Rd1xd6 +100 through d5, which the captured pawn
        // left (100): black gains nothing by taking back: 100 (it would be 0 if d5 still
        // blocked the rook).
        ("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 2", "e5d6", &[(0, true), (100, true), (101, false)]),
        // Without the rook: +100 -100 = 0.
        ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", &[(0, true), (1, false)]),
        // b7xa8=Q: +500 for the rook, +800 for pawn to queen (1300); Nb6xa8 -900: 400.
        ("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8q", &[(400, true), (401, false)]),
        // b7xa8=N: +500 +220 (720); Nxa8 -320: 400 again.
        ("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8n", &[(400, true), (401, false)]),
        // b7-b8=Q +800, Rh8xb8 -900: -100.
        ("7r/1P6/8/8/8/8/8/K6k w - - 0 1", "b7b8q", &[(0, false), (-100, true), (-99, false)]),
        // With a rook on b1, which sees b8 once b7 is empty: +800, Rxb8 -900 (-100),
        // Rxb8 +500 (400): black gains nothing by taking: 400.
        ("7r/1P6/8/8/8/7k/8/KR6 w - - 0 1", "b7b8q", &[(400, true), (401, false)]),
        // Qd1-d4, attacked by the pawn e5: 0 - 900 = -900.
        ("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d4", &[(0, false), (-900, true), (-901, true)]),
        // Qd1-d3 is safe: 0.
        ("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d3", &[(0, true), (1, false)]),
        // Rd1xd7 +100; Ke8xd7 would be answered by Bb5xd7 (the king lost): black stops, 100.
        ("4k3/3p4/8/1B6/8/8/8/3RK3 w - - 0 1", "d1d7", &[(100, true), (101, false)]),
        // Without the bishop the king takes the rook: 100 - 500 = -400.
        ("4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7", &[(0, false), (-400, true), (-399, false)]),
        // The documented simplification: the knight d7, pinned by Bb5, takes back on e5:
        // Re1xe5 +100, Nd7xe5 -500: -400 (a pin-aware SEE would say +100).
        ("4k3/3n4/8/1B2p3/8/8/8/4R1K1 w - - 0 1", "e1e5", &[(0, false), (-400, true), (-399, false)]),
        // Castling is worth 0.
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", &[(0, true), (-1, true), (1, false)]),
        // Black to move: Nf6xe4 +100, Nc3xe4 -320: -220.
        ("4k3/8/5n2/8/4P3/2N5/8/4K3 b - - 0 1", "f6e4", &[(-220, true), (-219, false)]),
    ];

    #[test]
    fn exchanges_answer_as_worked_out_by_hand() {
        see_checks::assert_see_table(EXCHANGES, Some(reference_see));
    }

    #[test]
    fn moved_piece_by_colour_and_type() {
        let promotion = "r3k3/1P6/1n6/8/8/8/8/4K2R w K - 0 1";
        see_checks::assert_moved_pieces::<Chess>(&[
            ("4k3/8/5n2/8/4P3/2N5/8/4K3 b - - 0 1", "f6e4", 6 + KNIGHT),
            (promotion, "b7a8q", PAWN),
            (promotion, "e1g1", KING),
            (promotion, "h1h5", ROOK),
        ]);
    }

    /// An independent SEE for the tests ([`see_checks::reference_see`]).
    fn reference_see(p: &Chess, mv: Move) -> i32 {
        if mv.kind() == CASTLE {
            return 0;
        }
        let mut board: Mailbox = [None; 64];
        for (sq, square) in board.iter_mut().enumerate() {
            *square = p.piece_on(sq as u8);
        }
        let promotion = (mv.kind() == PROMOTION).then_some(mv.promotion() as usize);
        let en_passant = mv.kind() == EN_PASSANT;
        let us = p.side.index();
        see_checks::reference_see(board, us, mv, en_passant, promotion, None, &VALUES)
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
