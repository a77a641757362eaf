//! Pawn facts of the 8x8 chess-like evaluations (chess and duck chess): where pawns attack,
//! which pawns are passed, doubled or isolated, and which files are open. Square = rank * 8 +
//! file; White's pawns move up.

use crate::core::bits::shift;
use crate::core::Bits;

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
const FILE_H: u64 = FILE_A << 7;

/// The squares the pawns `pawns` attack, moving up (`white`) or down.
#[inline(always)]
pub fn pawn_attacks(pawns: u64, white: bool) -> u64 {
    let forward = if white { 8 } else { -8 };
    shift(pawns & !FILE_A, forward - 1) | shift(pawns & !FILE_H, forward + 1)
}

/// The squares in front of `square` as a pawn of that colour moves (the ranks beyond it).
#[inline(always)]
pub fn ahead(square: u8, white: bool) -> u64 {
    match (white, square / 8) {
        (true, 7) => 0,
        (true, r) => !0u64 << ((r + 1) * 8),
        (false, r) => (1u64 << (r * 8)) - 1,
    }
}

/// The files next to the file of `square`.
#[inline(always)]
pub fn neighbour_files(square: u8) -> u64 {
    let file = FILE_A << (square % 8);
    shift(file & !FILE_H, 1) | shift(file & !FILE_A, -1)
}

/// What one pawn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pawn {
    /// Its square.
    pub square: u8,
    /// Its rank as its side sees the board (0 = own back rank).
    pub rank: usize,
    /// No enemy pawn ahead of it on its file or the files beside, and not on the last rank.
    pub passed: bool,
    /// An own pawn ahead of it on its file.
    pub doubled: bool,
    /// No own pawn on the files beside.
    pub isolated: bool,
}

/// The pawns `pawns` of one side against `enemy_pawns`.
#[inline(always)]
pub fn pawns(pawns: u64, enemy_pawns: u64, white: bool) -> impl Iterator<Item = Pawn> {
    pawns.squares().map(move |sq| {
        let file = FILE_A << (sq % 8);
        let beside = neighbour_files(sq);
        let rank = usize::from(if white { sq / 8 } else { 7 - sq / 8 });
        let ahead = ahead(sq, white);
        Pawn {
            square: sq,
            rank,
            passed: enemy_pawns & (file | beside) & ahead == 0 && (1..7).contains(&rank),
            doubled: pawns & file & ahead != 0,
            isolated: pawns & beside == 0,
        }
    })
}

/// A rook's file for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum File {
    /// No pawn on it.
    Open,
    /// Only enemy pawns on it.
    SemiOpen,
    /// An own pawn on it.
    Closed,
}

/// The file of `square` for the side whose pawns are `own_pawns`.
#[inline(always)]
pub fn file(square: u8, own_pawns: u64, enemy_pawns: u64) -> File {
    let file = FILE_A << (square % 8);
    if own_pawns & file != 0 {
        File::Closed
    } else if enemy_pawns & file != 0 {
        File::SemiOpen
    } else {
        File::Open
    }
}

/// How many of the rooks `rooks` stand on open and on half-open files for the side whose pawns
/// are `own_pawns`.
#[inline(always)]
pub fn rook_files(rooks: u64, own_pawns: u64, enemy_pawns: u64) -> (i32, i32) {
    let (mut open, mut half_open) = (0, 0);
    for sq in rooks.squares() {
        match file(sq, own_pawns, enemy_pawns) {
            File::Open => open += 1,
            File::SemiOpen => half_open += 1,
            File::Closed => {}
        }
    }
    (open, half_open)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(squares: &[u8]) -> u64 {
        squares.iter().fold(0, |b, &s| b | 1 << s)
    }

    #[test]
    fn attacks_do_not_wrap_around_the_board() {
        // a2 and h2 (White), a7 (Black).
        assert_eq!(pawn_attacks(bits(&[8, 15]), true), bits(&[17, 22]));
        assert_eq!(pawn_attacks(bits(&[48]), false), bits(&[41]));
    }

    #[test]
    fn passed_doubled_isolated() {
        // White: a2, a3, d5; Black: e7 (stops nothing of a, blocks d5's neighbour file).
        let white = bits(&[8, 16, 35]);
        let black = bits(&[52]);
        let facts: Vec<Pawn> = pawns(white, black, true).collect();
        let a2 = facts[0];
        assert_eq!(
            (a2.rank, a2.passed, a2.doubled, a2.isolated),
            (1, true, true, true)
        );
        let a3 = facts[1];
        assert_eq!(
            (a3.rank, a3.passed, a3.doubled, a3.isolated),
            (2, true, false, true)
        );
        let d5 = facts[2];
        assert_eq!((d5.rank, d5.passed, d5.isolated), (4, false, true));
        // Black's e7 from its own side: rank 1, not passed (White's d5 is ahead, beside).
        let e7: Vec<Pawn> = pawns(black, white, false).collect();
        assert_eq!((e7[0].rank, e7[0].passed), (1, false));
        assert_eq!(file(3, white, black), File::Closed); // d1: White's d-pawn
        assert_eq!(file(4, white, black), File::SemiOpen);
        assert_eq!(file(7, white, black), File::Open);
    }
}
