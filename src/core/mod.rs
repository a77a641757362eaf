//! Vocabulary shared by every game: colours, moves, the [`Game`] trait, board geometry,
//! bit iteration, Zobrist keys, FEN board helpers, the seeded random generator and the perft
//! suites (and, for unit tests, `testkit`). No game rules live here.

pub mod attacks8;
pub mod bits;
pub mod fen;
pub mod game;
pub mod moves;
pub mod perft;
pub mod rng;
pub mod suite;
#[cfg(test)]
pub mod testkit;
pub mod zobrist;

pub use bits::Bits;
pub use game::{Game, GameResult, GameState};
pub use moves::Move;

/// The two sides. `White` starts at the bottom (rank 1), `Black` at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side letter.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses a FEN side field (`w` or `b`).
    pub fn from_fen_field(s: &str) -> Result<Color, String> {
        match s {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            _ => Err(format!("side to move must be 'w' or 'b', not '{s}'")),
        }
    }
}

/// The eight knight leaps as (file, rank) steps.
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The eight king steps as (file, rank) steps, the orthogonal ones first: also the eight
/// directions a queen slides in.
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The name of the square at `file` (0 = `a`) and `rank` (0 = rank 1): `a1`, `j10`.
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank as u32 + 1)
}

/// Parses a square name such as `e4` or `j10` on a board `width` x `height`;
/// returns `(file, rank)` counted from 0.
pub fn parse_square(s: &str, width: u8, height: u8) -> Option<(u8, u8)> {
    let mut chars = s.chars();
    let file_char = chars.next()?;
    if !file_char.is_ascii_lowercase() {
        return None;
    }
    let file = file_char as u8 - b'a';
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.starts_with('0') {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    if file >= width || rank == 0 || rank > height {
        return None;
    }
    Some((file, rank - 1))
}

/// A square as `(file, rank)`, both counted from 0.
pub type FileRank = (u8, u8);

/// Splits a move text such as `e2e4`, `a9a10`, `b7b8n` into its two squares and the rest.
/// Returns `None` when the text does not start with two square names.
pub fn split_move_squares(text: &str, width: u8, height: u8) -> Option<(FileRank, FileRank, &str)> {
    let bytes = text.as_bytes();
    // A square is a letter followed by one or two digits; try both lengths.
    let square_len = |start: usize| -> Option<usize> {
        if start >= bytes.len() || !bytes[start].is_ascii_lowercase() {
            return None;
        }
        let mut end = start + 1;
        while end < bytes.len() && end - start <= 2 && bytes[end].is_ascii_digit() {
            end += 1;
        }
        (end > start + 1).then_some(end - start)
    };
    let len1 = square_len(0)?;
    let from = parse_square(&text[..len1], width, height)?;
    let len2 = square_len(len1)?;
    let to = parse_square(&text[len1..len1 + len2], width, height)?;
    Some((from, to, &text[len1 + len2..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_on_ten_by_ten() {
        for file in 0..10 {
            for rank in 0..10 {
                let name = square_name(file, rank);
                assert_eq!(parse_square(&name, 10, 10), Some((file, rank)));
            }
        }
        assert_eq!(parse_square("j10", 10, 10), Some((9, 9)));
        assert_eq!(parse_square("k1", 10, 10), None);
        assert_eq!(parse_square("a11", 10, 10), None);
        assert_eq!(parse_square("a0", 10, 10), None);
        assert_eq!(parse_square("a01", 10, 10), None);
        assert_eq!(parse_square("h8", 7, 7), None);
    }

    #[test]
    fn move_squares_split_with_two_digit_ranks() {
        let cases = [
            ("a9a10", 10, Some(((0, 8), (0, 9), ""))),
            ("j10i9", 10, Some(((9, 9), (8, 8), ""))),
            ("b7b8n", 8, Some(((1, 6), (1, 7), "n"))),
            ("e2e4,e4d5", 8, Some(((4, 1), (4, 3), ",e4d5"))),
            ("e2", 8, None),
            ("", 8, None),
            ("z9z9", 8, None),
        ];
        for (text, size, expected) in cases {
            assert_eq!(split_move_squares(text, size, size), expected, "{text}");
        }
    }
}
