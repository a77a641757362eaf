//! Move generation and bulk counting for skak on the 7x7 board embedded in the 8x8 layout.
//!
//! Square index = rank * 8 + file with file and rank 0..6, so file `h` and rank 8 of the 8x8
//! layout are never part of the board. They act as a guard band: a one-step shift of a
//! bitboard that leaves the board across any edge lands on file `h`, on rank 8 or falls off
//! the word, and masking with [`BOARD`] removes it. Slider attacks come from the shared 8x8
//! magic tables; the occupancy never has bits off the board, so the only off-board squares
//! a ray can reach are its last step onto file `h` or rank 8, which the mask removes too.

use super::{Skak, ADHAL, FYLGDAR, HOFDHING, JARKHAN, LANAR};
use crate::core::attacks8::{bishop, rook, KING};
use crate::core::bits::shift;
use crate::core::{Bits, Color, Move};

/// The 49 real squares: files a-g of ranks 1-7.
pub const BOARD: u64 = 0x007F_7F7F_7F7F_7F7F;

/// Rank 1, White's back rank, which White's Fylgdar may never enter.
const RANK_1: u64 = 0x7F;
/// Rank 7, Black's back rank, which Black's Fylgdar may never enter.
const RANK_7: u64 = 0x7F << 48;

/// Fylgdar step directions as index offsets: north, south, east, west.
const ORTHOGONAL: [i8; 4] = [8, -8, 1, -1];
/// Fylgdar capture directions as index offsets: north-east, north-west, south-east, south-west.
const DIAGONAL: [i8; 4] = [9, 7, -7, -9];

/// The squares a side's Fylgdar may move or capture onto: the board without its back rank.
#[inline(always)]
pub(super) const fn fylgdar_area(side: Color) -> u64 {
    match side {
        Color::White => BOARD & !RANK_1,
        Color::Black => BOARD & !RANK_7,
    }
}

/// The bitboards that move generation needs, taken once per position.
struct Sides {
    /// The mover's pieces.
    own: u64,
    /// Every square a non-Fylgdar piece of the mover may go to: on the board, not its own.
    targets: u64,
    /// Every occupied square.
    occupied: u64,
    /// Empty squares a Fylgdar may step onto.
    fylgdar_steps: u64,
    /// Enemy pieces a Fylgdar may capture.
    fylgdar_captures: u64,
}

impl Skak {
    /// The bitboards for the side to move.
    #[inline(always)]
    fn sides(&self) -> Sides {
        let us = self.side.index();
        let own = self.colors[us];
        let enemy = self.colors[1 - us];
        let occupied = own | enemy;
        let area = fylgdar_area(self.side);
        Sides {
            own,
            targets: BOARD & !own,
            occupied,
            fylgdar_steps: area & !occupied,
            fylgdar_captures: area & enemy,
        }
    }

    /// Whether the side to move has lost its Jarkhan: the game is over and there are no moves.
    #[inline(always)]
    pub(super) fn jarkhan_lost(&self) -> bool {
        self.kinds[JARKHAN] & self.colors[self.side.index()] == 0
    }

    /// Whether an enemy piece can capture the side to move's Jarkhan now (there is no check:
    /// the search only uses it to know the position is not quiet).
    pub(super) fn jarkhan_attacked(&self) -> bool {
        let us = self.side.index();
        let jarkhan = self.kinds[JARKHAN] & self.colors[us];
        let Some(square) = jarkhan.squares().next() else {
            return false;
        };
        let enemy = self.colors[1 - us];
        let occupied = self.colors[us] | enemy;
        let fylgdar = self.kinds[FYLGDAR] & enemy;
        let by_fylgdar = DIAGONAL
            .iter()
            .any(|&delta| shift(fylgdar, delta) & jarkhan & fylgdar_area(self.side.flip()) != 0);
        let i = square as usize;
        by_fylgdar
            || KING[i] & self.kinds[JARKHAN] & enemy != 0
            || rook(square, occupied) & (self.kinds[ADHAL] | self.kinds[LANAR]) & enemy != 0
            || bishop(square, occupied) & (self.kinds[ADHAL] | self.kinds[HOFDHING]) & enemy != 0
    }

    /// Appends every legal move (there is no check, so every pseudo-legal move is legal).
    pub(super) fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.jarkhan_lost() {
            return;
        }
        let s = self.sides();
        let fylgdar = self.kinds[FYLGDAR] & s.own;
        for delta in ORTHOGONAL {
            push_shifted(moves, shift(fylgdar, delta) & s.fylgdar_steps, delta);
        }
        for delta in DIAGONAL {
            push_shifted(moves, shift(fylgdar, delta) & s.fylgdar_captures, delta);
        }
        for from in (self.kinds[JARKHAN] & s.own).squares() {
            push_from(moves, from, KING[from as usize] & s.targets, JARKHAN);
        }
        for from in (self.kinds[ADHAL] & s.own).squares() {
            let attacks = rook(from, s.occupied) | bishop(from, s.occupied);
            push_from(moves, from, attacks & s.targets, ADHAL);
        }
        for from in (self.kinds[LANAR] & s.own).squares() {
            push_from(moves, from, rook(from, s.occupied) & s.targets, LANAR);
        }
        for from in (self.kinds[HOFDHING] & s.own).squares() {
            push_from(moves, from, bishop(from, s.occupied) & s.targets, HOFDHING);
        }
    }

    /// The number of legal moves, by population counts of the target sets alone: every
    /// pseudo-legal move is legal, and each (piece, target) pair is one move.
    pub(super) fn count_legal(&self) -> u64 {
        if self.jarkhan_lost() {
            return 0;
        }
        let s = self.sides();
        let fylgdar = self.kinds[FYLGDAR] & s.own;
        // Each direction maps Fylgdar to targets one-to-one, so counting per direction is exact.
        let mut count = 0;
        for delta in ORTHOGONAL {
            count += (shift(fylgdar, delta) & s.fylgdar_steps).count_ones();
        }
        for delta in DIAGONAL {
            count += (shift(fylgdar, delta) & s.fylgdar_captures).count_ones();
        }
        for from in (self.kinds[JARKHAN] & s.own).squares() {
            count += (KING[from as usize] & s.targets).count_ones();
        }
        // An Adhal is a Lanar plus a Höfdhing; the two target sets never overlap.
        for from in ((self.kinds[ADHAL] | self.kinds[LANAR]) & s.own).squares() {
            count += (rook(from, s.occupied) & s.targets).count_ones();
        }
        for from in ((self.kinds[ADHAL] | self.kinds[HOFDHING]) & s.own).squares() {
            count += (bishop(from, s.occupied) & s.targets).count_ones();
        }
        count as u64
    }
}

/// Appends the Fylgdar moves whose destinations are `targets`, each from `delta` back.
#[inline(always)]
fn push_shifted(moves: &mut Vec<Move>, targets: u64, delta: i8) {
    for to in targets.squares() {
        let from = (to as i8 - delta) as u8;
        moves.push(Move::simple(from, to, FYLGDAR as u8));
    }
}

/// Appends the moves of the piece of `kind` on `from` to each square of `targets`.
#[inline(always)]
fn push_from(moves: &mut Vec<Move>, from: u8, targets: u64, kind: usize) {
    for to in targets.squares() {
        moves.push(Move::simple(from, to, kind as u8));
    }
}
