//! The exchange loop of the static exchange evaluation of the two games with chess pieces
//! on 8x8 (chess and duck chess; each game's `see.rs` handles the first move and what is
//! special to it). After the first move each side in turn captures on the square with its
//! least valuable attacker (a pawn reaching the last rank becomes a queen), sliders behind
//! the capturer join, and a side stops as soon as capturing no longer saves it.

use crate::core::attacks8::{bishop, rook};

/// Piece types, numbered as chess and duck chess number them (the knight is 1).
pub(super) const PAWN: usize = 0;
pub(super) const BISHOP: usize = 2;
pub(super) const ROOK: usize = 3;
pub(super) const QUEEN: usize = 4;
pub(super) const KING: usize = 5;

/// Rank 1 and rank 8, where a pawn promotes.
const LAST_RANKS: u64 = 0xff | 0xff << 56;

/// The position as the exchange sees it.
pub struct Exchange<'a> {
    /// Squares of each piece type, both colours.
    pub pieces: &'a [u64; 6],
    /// Squares of each colour's capturers (duck chess leaves the duck's square out).
    pub colors: [u64; 2],
    /// The game's piece values (the king's huge).
    pub values: &'a [i32; 6],
    /// The side that made the first move.
    pub first: usize,
}

impl Exchange<'_> {
    /// The captures on `to` after the first move: the other side is to capture, standing
    /// badly (`balance`, from the first mover's side, is at least 0). `attackers` are the
    /// pieces of both sides attacking `to` through `occupied`; `on_square` is the value of
    /// the piece on `to` and `king_on_square` whether it is a king. Whether the first mover
    /// ends at least even.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn holds(
        &self,
        to: u8,
        mut occupied: u64,
        mut attackers: u64,
        mut balance: i32,
        mut on_square: i32,
        mut king_on_square: bool,
    ) -> bool {
        let p = self.pieces;
        let diagonal = p[BISHOP] | p[QUEEN];
        let straight = p[ROOK] | p[QUEEN];
        let promotes = (1u64 << (to & 63)) & LAST_RANKS != 0;
        let queen_promotion = self.values[QUEEN] - self.values[PAWN];
        let first = self.first;
        let mut side = first ^ 1;
        loop {
            let own = attackers & occupied & self.colors[side];
            if own == 0 {
                break; // it cannot capture: it loses where it stands
            }
            let mut kind = PAWN;
            while kind < KING && own & p[kind] == 0 {
                kind += 1;
            }
            let pieces = own & p[kind];
            let capturer = pieces & pieces.wrapping_neg();
            let promotion = if kind == PAWN && promotes {
                queen_promotion
            } else {
                0
            };
            let gain = on_square + promotion;
            balance += if side == first { gain } else { -gain };
            if king_on_square || (balance >= 0) != (side == first) {
                // A king was taken (the game is over), or the capture did not save the
                // capturer's side: the other side stops, and the balance stands.
                break;
            }
            on_square = self.values[kind] + promotion;
            king_on_square = kind == KING;
            occupied ^= capturer;
            if matches!(kind, PAWN | BISHOP | QUEEN | KING) {
                attackers |= bishop(to, occupied) & diagonal;
            }
            if matches!(kind, ROOK | QUEEN | KING) {
                attackers |= rook(to, occupied) & straight;
            }
            side ^= 1;
        }
        balance >= 0
    }
}
