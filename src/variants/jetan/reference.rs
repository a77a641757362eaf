//! A slow, straightforward jetan move generator used only by the tests as an independent
//! check of the bitboard generator: a plain array board, every move found by literally
//! walking every path step by step (RULES.md, section jetan). No bitboards, no tables.

use super::tables::Piece;
use crate::core::Color;

/// A board: what stands on each square (index = rank * 10 + file).
pub type Board = [Option<(Color, Piece)>; 100];

/// A position for the reference generator.
#[derive(Clone)]
pub struct RefPos {
    pub board: Board,
    pub side: Color,
    /// Escape rights, indexed by colour.
    pub escape: [bool; 2],
    pub countdown: u32,
    /// The game ended by a capture of a Chief or Princess.
    pub over: bool,
}

/// A move: from, to, and whether it is the Princess's escape.
pub type RefMove = (u8, u8, bool);

type Steps = &'static [(i8, i8)];

const ORTH: Steps = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: Steps = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ANY: Steps = &crate::core::KING_STEPS;

/// The single steps a piece may take at each step of its move, one list per allowed
/// sequence of step kinds.
fn step_sequences(piece: Piece, color: Color) -> &'static [&'static [Steps]] {
    match (piece, color) {
        (Piece::Panthan, Color::White) => &[&[&[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)]]],
        (Piece::Panthan, Color::Black) => &[&[&[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]]],
        (Piece::Thoat, _) => &[&[ORTH, DIAG], &[DIAG, ORTH]],
        (Piece::Warrior, _) => &[&[ORTH, ORTH]],
        (Piece::Padwar, _) => &[&[DIAG, DIAG]],
        (Piece::Dwar, _) => &[&[ORTH, ORTH, ORTH]],
        (Piece::Flier, _) => &[&[DIAG, DIAG, DIAG]],
        (Piece::Chief | Piece::Princess, _) => &[&[ANY, ANY, ANY]],
    }
}

fn jumps(piece: Piece) -> bool {
    matches!(piece, Piece::Flier | Piece::Princess)
}

/// Whether the piece on `from` (given explicitly, the board may not show it) has a path
/// ending on `to`, on `board`.
fn has_path(board: &Board, from: usize, color: Color, piece: Piece, to: usize) -> bool {
    fn walk(
        board: &Board,
        path: &mut Vec<usize>,
        steps: &[Steps],
        jumper: bool,
        to: usize,
    ) -> bool {
        let here = path[path.len() - 1];
        let Some((first, rest)) = steps.split_first() else {
            return here == to;
        };
        // A non-jumper needs every square of the path but the last empty.
        if path.len() > 1 && !jumper && board[here].is_some() {
            return false;
        }
        for &(dx, dy) in *first {
            let file = (here % 10) as i32 + i32::from(dx);
            let rank = (here / 10) as i32 + i32::from(dy);
            if !(0..10).contains(&file) || !(0..10).contains(&rank) {
                continue;
            }
            let next = (rank * 10 + file) as usize;
            if path.contains(&next) {
                continue;
            }
            path.push(next);
            let found = walk(board, path, rest, jumper, to);
            path.pop();
            if found {
                return true;
            }
        }
        false
    }
    step_sequences(piece, color)
        .iter()
        .any(|steps| walk(board, &mut vec![from], steps, jumps(piece), to))
}

/// Whether `sq` is attacked by `by` on `board`: some piece of `by` other than its Princess
/// has a path to it.
fn attacked(board: &Board, sq: usize, by: Color) -> bool {
    (0..100).any(|from| match board[from] {
        Some((color, piece)) if color == by && piece != Piece::Princess => {
            has_path(board, from, color, piece, sq)
        }
        _ => false,
    })
}

impl RefPos {
    /// Every legal move, sorted.
    pub fn moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        if self.over || self.countdown >= 10 {
            return out;
        }
        let us = self.side;
        for from in 0..100 {
            let Some((color, piece)) = self.board[from] else {
                continue;
            };
            if color != us {
                continue;
            }
            for to in 0..100 {
                let normal = to != from && has_path(&self.board, from, color, piece, to);
                if piece != Piece::Princess {
                    let own = matches!(self.board[to], Some((c, _)) if c == us);
                    if normal && !own {
                        out.push((from as u8, to as u8, false));
                    }
                    continue;
                }
                if self.board[to].is_some() {
                    continue;
                }
                // The position after her move, where the attack is judged.
                let mut after = self.board;
                after[from] = None;
                after[to] = Some((us, Piece::Princess));
                if attacked(&after, to, us.flip()) {
                    continue;
                }
                if normal {
                    out.push((from as u8, to as u8, false));
                } else if self.escape[us.index()] {
                    out.push((from as u8, to as u8, true));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The position after `mv`.
    pub fn play(&self, mv: RefMove) -> RefPos {
        let (from, to, escape) = (mv.0 as usize, mv.1 as usize, mv.2);
        let mut next = self.clone();
        let count = |c: Color| self.board.iter().flatten().filter(|p| p.0 == c).count();
        if count(Color::White) <= 3 && count(Color::Black) <= 3 {
            next.countdown += 1;
        }
        if let Some((_, captured)) = self.board[to] {
            next.over |= matches!(captured, Piece::Chief | Piece::Princess);
        }
        next.board[to] = self.board[from];
        next.board[from] = None;
        if escape {
            next.escape[self.side.index()] = false;
        }
        next.side = self.side.flip();
        next
    }

    /// Perft by the reference rules.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| self.play(mv).perft(depth - 1)).sum()
    }

    /// Reads a FEN the simple way (trusted test input).
    pub fn from_fen(fen: &str) -> RefPos {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut board: Board = [None; 100];
        for (row, text) in fields[0].split('/').enumerate() {
            let rank = 9 - row;
            let mut file = 0;
            let mut digits = String::new();
            for c in text.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file += digits.parse::<usize>().unwrap();
                    digits.clear();
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                board[rank * 10 + file] = Some((color, Piece::from_letter(c).unwrap()));
                file += 1;
            }
        }
        let rights = fields.get(2).copied().unwrap_or("-");
        let has = |piece: Piece, color: Color| board.contains(&Some((color, piece)));
        let side = if fields[1] == "w" {
            Color::White
        } else {
            Color::Black
        };
        RefPos {
            board,
            side,
            escape: [rights.contains('Q'), rights.contains('q')],
            countdown: fields.get(3).map_or(0, |c| c.parse().unwrap()),
            over: !has(Piece::Chief, side) || !has(Piece::Princess, side),
        }
    }

    /// The FEN (board, side, escape rights, countdown, fullmove 1).
    pub fn fen(&self) -> String {
        let board = crate::core::fen::write_board(10, 10, |file, rank| {
            let (color, piece) = self.board[rank as usize * 10 + file as usize]?;
            let c = piece.letter();
            Some(match color {
                Color::White => c,
                Color::Black => c.to_ascii_lowercase(),
            })
        });
        let rights = crate::core::testkit::flags_field(&self.escape, "Qq");
        format!(
            "{board} {} {rights} {} 1",
            self.side.letter(),
            self.countdown
        )
    }
}
