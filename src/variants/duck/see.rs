//! Static exchange evaluation (SEE) for duck chess in Stockfish's threshold form
//! ([`Duck::see_at_least`]), and the mover's piece for the history tables
//! ([`Duck::moved_piece_slot`]).
//!
//! The exchange: the turn `mv` is made, then the two sides take turns capturing on its
//! destination square, each with its least valuable attacker, and either side may stop
//! whenever it likes (the side that made `mv` only after `mv`). The answer is whether the
//! material won, in [`VALUES`], is at least the threshold.
//!
//! **The duck.** It stands where `mv` puts it (`mv.extra()`) during the whole exchange: the
//! piece's start square is emptied first (and an en-passant victim's square), then the duck
//! is placed, so the duck may stand on the square the piece just left. The duck's square
//! before `mv` is free. The duck moves of the later turns of the exchange are ignored: every
//! capture in it is a piece move alone. The duck is a blocker that nothing captures and no
//! slider passes (it is never removed, so nothing x-rays through it); knights, kings and
//! pawns capture past it as usual. So the duck this turn places can shield the moved piece
//! from a slider's recapture, or (badly placed) cut off a slider of our own behind it.
//!
//! **Kings.** There is no check; a king may be captured, and that ends the game. The king is
//! worth [`VALUES`]' 20,000, more than everything else together: capturing it wins 20,000
//! and ends the exchange (nothing takes back), so a king capture is a winning exchange at
//! every threshold up to 20,000 (the search uses far smaller ones). A king that moves or
//! recaptures onto an attacked square is taken: the side only does it when the other side
//! cannot take back.
//!
//! The rest as in chess (`variants/chess/see.rs`): x-rays (each capturer leaves the
//! occupancy and the sliders behind it join), promotions (`mv`'s promotion wins the new
//! piece's value less the pawn's and the new piece is the one at risk; a pawn recapturing on
//! the last rank becomes a queen), en passant (the victim is a pawn and its square is
//! emptied), castling worth 0 (`threshold <= 0`), quiet moves capturing nothing (is the piece
//! safe enough on its new square?). There are no pins in a game without check.
//!
//! The exchange itself is `see8`'s, shared with chess.

use super::eval::VALUES;
use super::{bit, Duck, CASTLE, EN_PASSANT, KING, KNIGHT, PAWN};
use crate::core::{Color, Move};
use crate::variants::see8::{Exchange, FirstMove};

impl Duck {
    /// The piece `mv` moves as `colour * 6 + type` (below 12). Move kinds do not name the
    /// piece here, so it is read off the boards: exactly one has the start square, and the
    /// sum of `type * (has it)` is that type, without a branch.
    #[inline]
    pub(super) fn moved_piece_slot(&self, mv: Move) -> usize {
        let from = bit(mv.from() & 63);
        let kind: usize = (KNIGHT..=KING)
            .map(|k| usize::from(self.pieces[k] & from != 0) * k)
            .sum();
        self.side.index() * 6 + kind
    }

    /// Whether the turn `mv` (legal here) followed by the best exchange on its destination
    /// wins at least `threshold` centipawns for the side to move (see the module doc).
    pub(super) fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let kind = mv.kind();
        if kind == CASTLE {
            return threshold <= 0;
        }
        let (from, to) = (mv.from() & 63, mv.to() & 63);
        let us = self.side;
        let mut occupied = (self.colors[0] | self.colors[1]) & !bit(from);
        let victim = if kind == EN_PASSANT {
            let captured = match us {
                Color::White => to.wrapping_sub(8),
                Color::Black => to.wrapping_add(8),
            };
            occupied &= !bit(captured & 63);
            Some(PAWN)
        } else if self.colors[us.flip().index()] & bit(to) != 0 {
            self.piece_at(to)
        } else {
            None
        };
        let first = FirstMove {
            to,
            mover: self.piece_at(from).unwrap_or(PAWN),
            victim,
            promotion: (mv.promotion() != 0).then(|| mv.promotion() as usize % 6),
        };
        // The duck blocks from the square the turn puts it on; the boards still have the
        // moved piece (and an en-passant victim) where it may now stand, so its square
        // holds no capturer.
        let duck = bit(mv.extra() & 63);
        let exchange = Exchange {
            pieces: &self.pieces,
            colors: [self.colors[0] & !duck, self.colors[1] & !duck],
            values: &VALUES,
            first: us.index(),
        };
        exchange.at_least(&first, occupied | duck, threshold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::core::Game;
    use crate::variants::chesslike::ROOK;
    use crate::variants::see_checks::{self, ChessLikeSee, Mailbox, SeeCases};

    /// Turns and the answers at some thresholds: FEN, turn, (threshold, expected) pairs
    /// (values: P 100, N 310, B 330, R 500, Q 900, K 20,000).
    #[rustfmt::skip]
    const TURNS: &[SeeCases] = &[
        // Rd1xd5 takes the knight, nothing takes back: +310.
        ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5,d5h4", &[(0, true), (310, true), (311, false)]),
        // Nc3xd5 +100. With the duck on d6 (or d7) between the rook d8 and d5 nothing takes
        // back: +100. With the duck on a1 Rd8xd5 takes the knight: 100 - 310 = -210.
        ("3rk3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5,d5d6", &[(100, true), (101, false)]),
        ("3rk3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5,d5d7", &[(100, true), (101, false)]),
        ("3rk3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5,d5a1", &[(0, false), (-210, true), (-209, false)]),
        // The duck now on d7 blocks the rook, but it must move: on a1 it blocks nothing.
        ("3rk3/3*4/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5,d5a1", &[(0, false), (-210, true)]),
        ("3rk3/3*4/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5,d5d6", &[(100, true), (101, false)]),
        // Rd2xd5 +310, Rd8xd5 -500, Rd1xd5 (behind d2) +500: 310 either way.
        ("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5,d5h5", &[(310, true), (311, false)]),
        // The duck on d2, the square the rook left, blocks Rd1: Rd8xd5 wins, 310 - 500.
        ("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5,d5d2", &[(0, false), (-190, true), (-189, false)]),
        // The duck on d7 blocks black's rook instead: +310 and nothing takes back.
        ("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5,d5d7", &[(310, true), (311, false)]),
        // Nc3xd5 +100, Nf6xd5 -310 jumps the duck on e5: -210.
        ("4k3/8/5n2/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5,d5e5", &[(0, false), (-210, true), (-209, false)]),
        // Qc2xe4 +310, Re8xe4 -900 (-590), Bb1xe4 +500 (-90): black takes back, -90.
        ("4r1k1/8/8/8/4n3/8/2Q5/1B4K1 w - - 0 1", "c2e4,e4h4", &[(-90, true), (-89, false)]),
        // The duck on c2 (just left by the queen) cuts the bishop off: 310 - 900 = -590.
        ("4r1k1/8/8/8/4n3/8/2Q5/1B4K1 w - - 0 1", "c2e4,e4c2", &[(-100, false), (-590, true), (-591, true)]),
        // The duck on e6 shields the queen from the rook: +310.
        ("4r1k1/8/8/8/4n3/8/2Q5/1B4K1 w - - 0 1", "c2e4,e4e6", &[(310, true), (311, false)]),
        // Qe1xe8: the king is taken (the rook a8 "defends" it, but the game is over):
        // +20,000, true at every threshold up to that.
        ("r3k3/8/8/8/8/8/8/4QK2 w - - 0 1", "e1e8,e8e4", &[(0, true), (900, true), (20_000, true), (20_001, false)]),
        // Ke1-e2 on the file of the rook e8: taken, -20,000. The duck on e5 shields it: 0.
        ("4r1k1/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2,e2a1", &[(0, false), (-19_999, false), (-20_000, true)]),
        ("4r1k1/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2,e2e5", &[(0, true), (1, false)]),
        // Ke2xe3 +100, then the rook e1 sees e3 through e2 and takes the king: -19,900.
        // With the duck on e2, the square the king left, the rook is cut off: +100.
        ("4k3/8/8/8/8/4p3/4K3/4r3 w - - 0 1", "e2e3,e3a8", &[(0, false), (-19_900, true), (-19_899, false)]),
        ("4k3/8/8/8/8/4p3/4K3/4r3 w - - 0 1", "e2e3,e3e2", &[(100, true), (101, false)]),
        // Rd1xd7 +100; Ke8xd7 would lose the king to Bb5xd7: black stops, +100.
        ("4k3/3p4/8/1B6/8/8/8/3RK3 w - - 0 1", "d1d7,d7h4", &[(100, true), (101, false)]),
        // The duck on c6 shields d7 from the bishop: Kxd7 is safe, 100 - 500 = -400.
        ("4k3/3p4/8/1B6/8/8/8/3RK3 w - - 0 1", "d1d7,d7c6", &[(0, false), (-400, true), (-399, false)]),
        // e5xd6 e.p. +100; Rd8xd6 -100: 0. The duck on d7 shields: +100. The duck on d5 (the
        // captured pawn's square, empty after the capture) is behind d6: still 0.
        ("3rk3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6,d6a1", &[(0, true), (1, false)]),
        ("3rk3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6,d6d5", &[(0, true), (1, false)]),
        ("3rk3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6,d6d7", &[(100, true), (101, false)]),
        // b7xa8=Q +500 +800 (1300), Nb6xa8 -900: 400. The duck cannot stop the knight.
        ("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8q,a8h1", &[(400, true), (401, false)]),
        // b7xa8=N +500 +210 (710), Nxa8 -310: 400.
        ("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8n,a8b7", &[(400, true), (401, false)]),
        // Castling is worth 0.
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1,g1a3", &[(0, true), (1, false)]),
        // Qd1-d4 next to the pawn e5 (it captures past any duck): -900.
        ("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d4,d4c5", &[(0, false), (-900, true)]),
        // Qd1-d3 is safe: 0.
        ("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d3,d3c5", &[(0, true), (1, false)]),
    ];

    #[test]
    fn turns_answer_as_worked_out_by_hand() {
        see_checks::assert_see_table(TURNS, Some(reference_see));
    }

    #[test]
    fn moved_piece_by_colour_and_type() {
        let white = "r3k3/1P6/1n6/8/8/8/8/4K2R w K - 0 1";
        see_checks::assert_moved_pieces::<Duck>(&[
            (white, "b7a8q,a8h8", PAWN),
            (white, "e1g1,g1a3", KING),
            (white, "h1h5,h5h6", ROOK),
            (
                "r3k3/1P6/1n6/8/8/8/8/4K2R b - - 0 1",
                "b6a4,a4a5",
                6 + KNIGHT,
            ),
        ]);
    }

    /// An independent SEE for the tests ([`see_checks::reference_see`], the duck a blocker
    /// on its new square). Same rules as the module doc.
    fn reference_see(p: &Duck, mv: Move) -> i32 {
        if mv.kind() == CASTLE {
            return 0;
        }
        // The duck is no piece: the board has no duck before the turn.
        let mut board: Mailbox = [None; 64];
        for (sq, square) in board.iter_mut().enumerate() {
            let sq = sq as u8;
            *square = p
                .piece_at(sq)
                .zip(p.color_at(sq))
                .map(|(k, c)| (c.index(), k));
        }
        let promotion = (mv.promotion() != 0).then_some(mv.promotion() as usize);
        let en_passant = mv.kind() == EN_PASSANT;
        let duck = Some(mv.extra() as usize);
        let us = p.side.index();
        see_checks::reference_see(board, us, mv, en_passant, promotion, duck, &VALUES)
    }

    #[test]
    fn random_turns_monotone_bounded_and_agreeing_with_the_reference() {
        let checked = ChessLikeSee {
            starts: &[
                Duck::START_FEN,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            ],
            games: 8,
            plies: 30,
            // A sample of the quiet turns: they are many.
            quiet_every: 7,
            step: 50,
            values: VALUES,
            kind: |p: &Duck, mv| {
                let from_bit = 1u64 << mv.from();
                (0..6).find(|&k| p.pieces[k] & from_bit != 0).unwrap_or(6)
            },
            victim: |p: &Duck, mv| {
                if mv.kind() == EN_PASSANT {
                    VALUES[PAWN]
                } else {
                    p.piece_at(mv.to())
                        .filter(|_| p.colors[p.side.flip().index()] & 1u64 << mv.to() != 0)
                        .map_or(0, |k| VALUES[k])
                }
            },
            promotion: |mv| (mv.promotion() != 0).then_some(mv.promotion() as usize),
            reference: reference_see,
        }
        .check(Rng::new(0xD0C, 2));
        assert!(checked > 500, "only {checked} captures");
    }
}
