//! Piece-square tables for 8x8 chess-like games, from White's point of view, written as the
//! board is printed (rank 8 first). `pst_index(color, square)` maps a square to the table.
//! The values are those of the well-known "simplified evaluation function" (Chess
//! Programming Wiki); chess and duck chess start from them.

use crate::core::Bits;

/// Pawn.
#[rustfmt::skip]
pub const PAWN: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];

/// Knight.
#[rustfmt::skip]
pub const KNIGHT: [i32; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];

/// Bishop.
#[rustfmt::skip]
pub const BISHOP: [i32; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];

/// Rook.
#[rustfmt::skip]
pub const ROOK: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];

/// Queen.
#[rustfmt::skip]
pub const QUEEN: [i32; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];

/// King in the middle game: stay home behind the pawns.
#[rustfmt::skip]
pub const KING_MIDDLE: [i32; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];

/// King in the endgame: come to the centre.
#[rustfmt::skip]
pub const KING_END: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Material plus piece-square value of the pawns to queens (types 0 to 4) on `own`, for
/// White (`white`) or Black: `values[k]` plus the table entry of each piece.
pub fn piece_square_sum(pieces: &[u64; 6], own: u64, white: bool, values: &[i32; 6]) -> i32 {
    let tables = [&PAWN, &KNIGHT, &BISHOP, &ROOK, &QUEEN];
    let mut score = 0;
    for (kind, table) in tables.iter().enumerate() {
        for sq in (pieces[kind] & own).squares() {
            score += values[kind] + table[pst_index(white, sq)];
        }
    }
    score
}

/// The material balance of a chess-like position for the side with index `us`: `values[k]`
/// for each piece of type `k` (pawn to queen; the king, type 5, is not counted).
pub fn material_balance(pieces: &[u64; 6], colors: &[u64; 2], values: &[i32; 6], us: usize) -> i32 {
    let side = |c: usize| -> i32 {
        (0..5)
            .map(|k| values[k] * (pieces[k] & colors[c]).count_ones() as i32)
            .sum()
    };
    side(us) - side(us ^ 1)
}

/// The table index of `square` (rank * 8 + file) for a piece of `white` or not.
#[inline]
pub const fn pst_index(white: bool, square: u8) -> usize {
    let (file, rank) = (square % 8, square / 8);
    let row = if white { 7 - rank } else { rank };
    (row * 8 + file) as usize
}
