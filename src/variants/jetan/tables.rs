//! Move tables for jetan, built once from the step rules of RULES.md.
//!
//! Every jetan move is a path of single steps that visits no square twice. Pieces that jump
//! (Flier, Princess) and one-step pieces (Panthan) have a fixed destination set per square.
//! For the other pieces the tables hold a tree of path prefixes per square: the first
//! intermediate squares, each with the destinations reached from it and (for three-step
//! pieces) the second intermediate squares with theirs. At run time only the prefixes whose
//! squares are empty are walked, so blocking is exact per path (a set-based flood fill
//! would wrongly let a path revisit squares or pass around blockers).

use crate::core::Color;
use std::sync::OnceLock;

/// Squares on the board.
pub const SQUARES: usize = 100;
/// Files (and ranks) on the board.
pub const SIDE: i8 = 10;
/// Every square of the board.
pub const BOARD: u128 = (1u128 << SQUARES) - 1;

/// The bit of square `sq`.
#[inline(always)]
pub const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// The eight piece kinds, in FEN-letter order `P T W A D F K Q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Piece {
    /// Panthan: one step forward, diagonally forward or sideways.
    Panthan = 0,
    /// Thoat: one orthogonal and one diagonal step, either order.
    Thoat = 1,
    /// Warrior: two orthogonal steps.
    Warrior = 2,
    /// Padwar: two diagonal steps.
    Padwar = 3,
    /// Dwar: three orthogonal steps.
    Dwar = 4,
    /// Flier: three diagonal steps, jumping.
    Flier = 5,
    /// Chief: three steps in any direction.
    Chief = 6,
    /// Princess: three steps in any direction, jumping; never captures.
    Princess = 7,
}

impl Piece {
    /// Every kind, indexed by its number.
    pub const ALL: [Piece; 8] = [
        Piece::Panthan,
        Piece::Thoat,
        Piece::Warrior,
        Piece::Padwar,
        Piece::Dwar,
        Piece::Flier,
        Piece::Chief,
        Piece::Princess,
    ];

    /// The uppercase FEN letter. The game itself reads and writes letters with
    /// [`LETTERS`]; the test's reference generator asks the piece.
    #[cfg(test)]
    pub const fn letter(self) -> char {
        LETTERS[self as usize]
    }

    /// The kind of an uppercase or lowercase FEN letter (for the test's reference generator).
    #[cfg(test)]
    pub fn from_letter(c: char) -> Option<Piece> {
        let upper = c.to_ascii_uppercase();
        Piece::ALL.into_iter().find(|p| p.letter() == upper)
    }
}

/// The uppercase (White) FEN letter of each kind, by its number.
pub const LETTERS: [char; 8] = ['P', 'T', 'W', 'A', 'D', 'F', 'K', 'Q'];

/// A step as (file delta, rank delta).
type Step = (i8, i8);

const ORTH: &[Step] = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: &[Step] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KING: &[Step] = &crate::core::KING_STEPS;
const PANTHAN_WHITE: &[Step] = &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)];
const PANTHAN_BLACK: &[Step] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)];

/// The step sequences a piece may make: each move follows one of them, step by step.
fn sequences(piece: Piece, color: Color) -> Vec<Vec<&'static [Step]>> {
    match piece {
        Piece::Panthan => vec![vec![match color {
            Color::White => PANTHAN_WHITE,
            Color::Black => PANTHAN_BLACK,
        }]],
        Piece::Thoat => vec![vec![ORTH, DIAG], vec![DIAG, ORTH]],
        Piece::Warrior => vec![vec![ORTH, ORTH]],
        Piece::Padwar => vec![vec![DIAG, DIAG]],
        Piece::Dwar => vec![vec![ORTH, ORTH, ORTH]],
        Piece::Flier => vec![vec![DIAG, DIAG, DIAG]],
        Piece::Chief | Piece::Princess => vec![vec![KING, KING, KING]],
    }
}

/// Every path (start square included) of `piece` from `sq` on an empty board: steps stay
/// on the board and no square is visited twice.
pub fn paths(piece: Piece, color: Color, sq: u8) -> Vec<Vec<u8>> {
    fn extend(path: &mut Vec<u8>, rest: &[&[Step]], out: &mut Vec<Vec<u8>>) {
        let Some((steps, rest)) = rest.split_first() else {
            out.push(path.clone());
            return;
        };
        let here = path[path.len() - 1] as i8;
        for &(dx, dy) in *steps {
            let (file, rank) = (here % SIDE + dx, here / SIDE + dy);
            if !(0..SIDE).contains(&file) || !(0..SIDE).contains(&rank) {
                continue;
            }
            let next = (rank * SIDE + file) as u8;
            if path.contains(&next) {
                continue;
            }
            path.push(next);
            extend(path, rest, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    for sequence in sequences(piece, color) {
        extend(&mut vec![sq], &sequence, &mut out);
    }
    out
}

/// A first intermediate square of a blocked piece's path.
#[derive(Clone, Copy, Debug)]
pub struct First {
    /// Destinations of the paths through this square when all their squares are empty:
    /// two-step paths, and three-step paths through any of the second squares.
    pub open_dests: u128,
    /// The second squares below this one (empty for two-step pieces).
    pub seconds: u128,
    /// The intermediate square.
    pub sq: u8,
    /// Range of this square's second intermediate squares in [`Tables::second`].
    pub lo: u16,
    /// End of that range.
    pub hi: u16,
}

/// A second intermediate square of a three-step path, under its [`First`].
#[derive(Clone, Copy, Debug)]
pub struct Second {
    /// Destinations of the paths through the first square and this one.
    pub dests: u128,
    /// The intermediate square.
    pub sq: u8,
}

/// The pieces that are blocked by what stands on their path, in [`Tables::tree`] order.
pub const TREE_PIECES: [Piece; 5] = [
    Piece::Thoat,
    Piece::Warrior,
    Piece::Padwar,
    Piece::Dwar,
    Piece::Chief,
];

/// All move tables.
pub struct Tables {
    /// Panthan destinations by colour and square.
    pub panthan: [[u128; SQUARES]; 2],
    /// Flier destinations (it jumps).
    pub flier: [u128; SQUARES],
    /// Princess destinations of a normal move (she jumps).
    pub princess: [u128; SQUARES],
    /// For each of [`TREE_PIECES`] and square: the range of
    /// the first path squares in [`Tables::first`].
    pub tree: [[(u16, u16); SQUARES]; 5],
    /// First path squares of all trees.
    pub first: Vec<First>,
    /// Second path squares of all trees.
    pub second: Vec<Second>,
    /// Squares within three king steps (Chebyshev distance 3) of each square, the square
    /// itself included: where every piece that can reach a square stands.
    pub near3: [u128; SQUARES],
}

impl Tables {
    fn build() -> Tables {
        let mut t = Tables {
            panthan: [[0; SQUARES]; 2],
            flier: [0; SQUARES],
            princess: [0; SQUARES],
            tree: [[(0, 0); SQUARES]; 5],
            first: Vec::new(),
            second: Vec::new(),
            near3: [0; SQUARES],
        };
        let union = |piece, color, sq| {
            paths(piece, color, sq)
                .iter()
                .fold(0u128, |acc, p| acc | bit(p[p.len() - 1]))
        };
        for sq in 0..SQUARES as u8 {
            let s = sq as usize;
            t.panthan[0][s] = union(Piece::Panthan, Color::White, sq);
            t.panthan[1][s] = union(Piece::Panthan, Color::Black, sq);
            t.flier[s] = union(Piece::Flier, Color::White, sq);
            t.princess[s] = union(Piece::Princess, Color::White, sq);
            for other in 0..SQUARES as u8 {
                let (df, dr) = (
                    (sq % 10) as i8 - (other % 10) as i8,
                    (sq / 10) as i8 - (other / 10) as i8,
                );
                if df.abs() <= 3 && dr.abs() <= 3 {
                    t.near3[s] |= bit(other);
                }
            }
            for (slot, piece) in TREE_PIECES.into_iter().enumerate() {
                t.tree[slot][s] = t.add_tree(&paths(piece, Color::White, sq));
            }
        }
        t
    }

    /// Adds the prefix tree of `paths` (all of one piece and square, all of two or three
    /// steps) and returns its range in `first`.
    fn add_tree(&mut self, paths: &[Vec<u8>]) -> (u16, u16) {
        let lo = self.first.len();
        for path in paths {
            let s1 = path[1];
            let index = match self.first[lo..].iter().position(|f| f.sq == s1) {
                Some(i) => lo + i,
                None => {
                    self.first.push(First {
                        open_dests: 0,
                        seconds: 0,
                        sq: s1,
                        lo: 0,
                        hi: 0,
                    });
                    self.first.len() - 1
                }
            };
            if path.len() == 3 {
                self.first[index].open_dests |= bit(path[2]);
            }
        }
        // Second squares, grouped under their first square (kept contiguous).
        for index in lo..self.first.len() {
            let s1 = self.first[index].sq;
            let start = self.second.len();
            for path in paths.iter().filter(|p| p.len() == 4 && p[1] == s1) {
                let s2 = path[2];
                self.first[index].seconds |= bit(s2);
                self.first[index].open_dests |= bit(path[3]);
                match self.second[start..].iter_mut().find(|s| s.sq == s2) {
                    Some(second) => second.dests |= bit(path[3]),
                    None => self.second.push(Second {
                        dests: bit(path[3]),
                        sq: s2,
                    }),
                }
            }
            self.first[index].lo = to_u16(start);
            self.first[index].hi = to_u16(self.second.len());
        }
        (to_u16(lo), to_u16(self.first.len()))
    }
}

fn to_u16(n: usize) -> u16 {
    u16::try_from(n).expect("jetan tables fit u16 indices")
}

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}

/// Destinations of a path-tree piece from `sq` given the occupied squares `occ`: every
/// square at the end of a path whose intermediate squares are all empty.
#[inline(always)]
pub fn tree_reach(t: &Tables, slot: usize, sq: u8, occ: u128) -> u128 {
    let (lo, hi) = t.tree[slot][sq as usize];
    let mut reach = 0;
    for first in &t.first[lo as usize..hi as usize] {
        if occ & bit(first.sq) != 0 {
            continue;
        }
        if occ & first.seconds == 0 {
            // Every path through this square is open.
            reach |= first.open_dests;
            continue;
        }
        for second in &t.second[first.lo as usize..first.hi as usize] {
            if occ & bit(second.sq) == 0 {
                reach |= second.dests;
            }
        }
    }
    reach
}
