//! Duck chess (Tim Paulden, 2016), as RULES.md ("duck") specifies it.
//!
//! A turn is one chess move followed by placing the duck on an empty square (a *different*
//! one when it is already on the board; the square the piece just left counts as empty).
//! The duck blocks sliders, pawn pushes and castling paths, knights jump it, nothing captures
//! it. There is no check: capturing the king wins, and a player without a legal move at the
//! start of the turn wins ("fowling"). Draws: 50-move rule and threefold repetition only.
//!
//! Choices made here:
//! - One [`Move`] is a whole turn: `from`/`to`/`kind`/`promotion` describe the piece move and
//!   `extra` the duck square. Text: `e2e4,e4d5` (`<from><to>[promo],<to><duck>`).
//! - A FEN may lack the king of the side to move only when the other king is present and the
//!   duck is on the board: that is exactly the position after a king capture (every turn,
//!   the capturing one too, places the duck), which [`Game::fen`] must be able to write and
//!   read back. Any other missing king is rejected.
//! - Castling rights in a FEN must match a king and rook on their start squares, and an
//!   en-passant square must match a pawn that could just have made a double push; otherwise the
//!   field does not fit and the FEN is rejected.
//! - The hash covers pieces, side, castling, the duck square, and the en-passant file only
//!   when a pawn of the side to move can actually capture (the duck not on that square).
//!
//! Board layout: 8x8 `u64` bitboards, square = rank * 8 + file.

mod eval;
mod fen;
mod movegen;
mod nnue;
mod see;
mod select;
#[cfg(test)]
mod tests;
mod weights;

use crate::core::fen::{draw_board, piece_letter};
use crate::core::zobrist::Keys;
use crate::core::{Color, Game, GameResult, Move};
use crate::variants::chesslike::{self, castle_rook, en_passant_capturers, en_passant_victim};
use crate::variants::chesslike::{BISHOP, KING, KNIGHT, LETTERS, NO_SQUARE, PAWN, QUEEN, ROOK};
use crate::variants::chesslike::{CASTLING_KEEP, WHITE_KING_SIDE};

/// The depth `thoat bench` searches `positions/bench/duck.fen` to (with those positions, it
/// fixes the bench signature).
pub const BENCH_DEPTH: i32 = 10;

/// Move kinds stored in [`Move::kind`].
const NORMAL: u8 = 0;
const DOUBLE_PUSH: u8 = 1;
const EN_PASSANT: u8 = 2;
const CASTLE: u8 = 3;

/// Zobrist keys: the pieces, then 16 castling sets, 8 en-passant files, 64 duck squares and
/// the side (the indices below count from the end of the pieces).
static KEYS: Keys<6, 64, { 768 + 16 + 8 + 64 + 1 }> = Keys::new(0xD0C4_C4E5_5000_0002);
const CASTLING_KEYS: usize = 0;
const EP_KEYS: usize = CASTLING_KEYS + 16;
const DUCK_KEYS: usize = EP_KEYS + 8;
const SIDE_KEY: usize = DUCK_KEYS + 64;

#[inline]
fn piece_key(color: Color, piece: usize, sq: u8) -> u64 {
    KEYS.piece(color.index(), piece, sq)
}

#[inline]
fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// A duck-chess position. Small and `Copy`: search and perft clone it for every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duck {
    /// Squares of each piece type, both colours ([`PAWN`] .. [`KING`]).
    pieces: [u64; 6],
    /// Squares of each colour's pieces (the duck belongs to neither).
    colors: [u64; 2],
    /// The duck's square as a bitboard; 0 before it is first placed.
    duck: u64,
    /// Side to move.
    side: Color,
    /// Castling-right bits ([`WHITE_KING_SIDE`] ...).
    castling: u8,
    /// The square a pawn skipped with a double push on the last move, or [`NO_SQUARE`].
    ep: u8,
    /// Plies since the last capture or pawn move.
    halfmove: u32,
    /// Full move number of the FEN.
    fullmove: u32,
    /// Zobrist hash, kept incrementally.
    hash: u64,
}

impl Duck {
    /// The name of the square where the turn `mv` (a legal move of some position) puts the
    /// duck, so that a board can show it without reading the move text.
    pub fn duck_square(mv: Move) -> String {
        crate::core::square_name(mv.extra() % 8, mv.extra() / 8)
    }

    /// The piece type on `sq` (either colour), if any.
    #[inline]
    fn piece_at(&self, sq: u8) -> Option<usize> {
        let b = bit(sq);
        self.pieces.iter().position(|&p| p & b != 0)
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    fn color_at(&self, sq: u8) -> Option<Color> {
        let b = bit(sq);
        if self.colors[0] & b != 0 {
            Some(Color::White)
        } else if self.colors[1] & b != 0 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Whether the side to move has lost its king (the last move captured it).
    #[inline]
    fn king_captured(&self) -> bool {
        self.pieces[KING] & self.colors[self.side.index()] == 0
    }

    /// The hash contribution of the en-passant square: its file key when a pawn of the side
    /// to move can capture there (the duck not on it), else 0.
    #[inline]
    fn ep_key(&self) -> u64 {
        if self.ep == NO_SQUARE || self.duck & bit(self.ep) != 0 {
            return 0;
        }
        if en_passant_capturers(&self.pieces, &self.colors, self.side.index(), self.ep) == 0 {
            0
        } else {
            KEYS.extra(EP_KEYS + (self.ep % 8) as usize)
        }
    }

    #[inline]
    fn duck_key(&self) -> u64 {
        if self.duck == 0 {
            0
        } else {
            KEYS.extra(DUCK_KEYS + self.duck.trailing_zeros() as usize)
        }
    }

    /// Adds or removes a piece, keeping the hash.
    #[inline]
    fn toggle(&mut self, color: Color, piece: usize, sq: u8) {
        let b = bit(sq);
        self.pieces[piece] ^= b;
        self.colors[color.index()] ^= b;
        self.hash ^= piece_key(color, piece, sq);
    }

    /// The FEN letter on `sq`: a piece, `*` for the duck, or none.
    fn letter_at(&self, sq: u8) -> Option<char> {
        if self.duck & bit(sq) != 0 {
            return Some('*');
        }
        let piece = self.piece_at(sq)?;
        Some(piece_letter(&LETTERS, self.color_at(sq)?, piece))
    }

    /// The hash part of the castling rights.
    #[inline]
    fn castling_key(&self) -> u64 {
        KEYS.extra(CASTLING_KEYS + self.castling as usize)
    }
}

impl Game for Duck {
    const NAME: &'static str = "duck";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const WIDTH: u8 = 8;
    const HEIGHT: u8 = 8;

    fn from_fen(text: &str) -> Result<Self, String> {
        fen::parse(text)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.king_captured() {
            return;
        }
        let mut sink = movegen::ListSink::new(self, moves);
        self.piece_moves(&mut sink);
    }

    fn count_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        if self.king_captured() {
            return 0;
        }
        let mut sink = movegen::CountSink::new(self);
        self.piece_moves(&mut sink);
        sink.total()
    }

    fn play(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let kind = mv.kind();
        self.hash ^= self.ep_key() ^ self.duck_key() ^ self.castling_key();

        // A generated move always starts on a piece of the side to move.
        let moving = self.piece_at(from).unwrap_or(PAWN);
        let mut reset_clock = moving == PAWN;
        if kind == EN_PASSANT {
            self.toggle(them, PAWN, en_passant_victim(to));
        } else if let Some(captured) = self.piece_at(to) {
            self.toggle(them, captured, to);
            reset_clock = true;
        }
        self.toggle(us, moving, from);
        let promotion = mv.promotion() as usize;
        self.toggle(us, if promotion != 0 { promotion } else { moving }, to);
        if kind == CASTLE {
            let (rook_from, rook_to) = castle_rook(to);
            self.toggle(us, ROOK, rook_from);
            self.toggle(us, ROOK, rook_to);
        }

        self.castling &= CASTLING_KEEP[from as usize] & CASTLING_KEEP[to as usize];
        self.halfmove = if reset_clock {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.ep = if kind == DOUBLE_PUSH {
            (from + to) / 2
        } else {
            NO_SQUARE
        };
        self.duck = bit(mv.extra());
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash ^= KEYS.extra(SIDE_KEY) ^ self.ep_key() ^ self.duck_key() ^ self.castling_key();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = KEYS.pieces(&self.pieces, &self.colors)
            ^ self.castling_key()
            ^ self.ep_key()
            ^ self.duck_key();
        if self.side == Color::Black {
            hash ^= KEYS.extra(SIDE_KEY);
        }
        hash
    }

    fn move_text(&self, mv: Move) -> String {
        let promotion = (mv.promotion() != 0).then_some(mv.promotion() as usize);
        let piece_move = chesslike::move_text(mv.from(), mv.to(), promotion);
        // The duck's move: from where the piece went (RULES.md's notation) to its square.
        let duck_move = chesslike::move_text(mv.to(), mv.extra(), None);
        format!("{piece_move},{duck_move}")
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.kind() == EN_PASSANT
            || mv.promotion() != 0
            || self.colors[self.side.flip().index()] & bit(mv.to()) != 0
    }

    fn ended(&self) -> Option<GameResult> {
        self.king_captured()
            .then(|| GameResult::win(self.side.flip(), "king captured"))
    }

    fn no_moves_result(&self) -> GameResult {
        GameResult::win(self.side, "fowling")
    }

    fn rule_draw(&self) -> Option<&'static str> {
        (self.halfmove >= 100).then_some("fifty-move rule")
    }

    fn color_flipped(&self) -> Self {
        let mut flipped = *self;
        for squares in flipped.pieces.iter_mut() {
            *squares = squares.swap_bytes();
        }
        flipped.colors = [self.colors[1].swap_bytes(), self.colors[0].swap_bytes()];
        flipped.duck = self.duck.swap_bytes();
        flipped.side = self.side.flip();
        flipped.castling = chesslike::flip_castling(self.castling);
        flipped.ep = chesslike::flip_en_passant(self.ep);
        flipped.hash = flipped.recompute_hash();
        flipped
    }

    fn board_text(&self) -> String {
        draw_board(8, 8, |file, rank| self.letter_at(rank * 8 + file))
    }
}
