//! Standard FIDE chess (RULES.md, section "chess"), built for a fast, exactly legal move
//! generator: 8x8 bitboards (square = rank * 8 + file), copy-make with an incremental Zobrist
//! hash, and bulk counting of the last perft ply ([`Game::count_moves`]).
//!
//! Choices where RULES.md leaves room:
//! - FEN: six fields, board and side required, the rest default to `- - 0 1` (read and
//!   written by [`crate::variants::chesslike`], as in duck chess). The castling field is `-`
//!   or a subset of `KQkq` in any order, each letter once, and each right needs its king and
//!   rook on their original squares. The en-passant square must be on rank 6 (White to move)
//!   or rank 3 (Black to move), with the pawn that just made its double push in front of it
//!   and the two squares it crossed empty. The fullmove number starts at 1.
//! - The hash covers the board, the side to move, the castling rights and the en-passant
//!   file only when an en-passant capture is legal (RULES.md: repetition compares it only
//!   then); the FEN still writes the square after every double push.
//! - Draws by rule: the fifty-move rule (halfmove clock of 100 or more) and insufficient
//!   material (K v K, K and one minor piece v K, only kings and bishops with every bishop on
//!   squares of one colour).

mod eval;
mod movegen;
mod nnue;
mod see;
mod weights;

use crate::core::fen::{draw_board, parse_board, parse_piece, piece_letter, write_board, Fields};
use crate::core::zobrist::Keys;
use crate::core::{Bits, Color, Game, GameResult, Move};
use crate::variants::chesslike::{self, castle_rook, en_passant_capturers, en_passant_victim};
use crate::variants::chesslike::{BISHOP, KING, KNIGHT, LETTERS, NO_SQUARE, PAWN, QUEEN, ROOK};
use crate::variants::chesslike::{CASTLING_KEEP, RANK_1, RANK_8};
use movegen::{Counter, Lister};

/// The depth `thoat bench` searches `positions/bench/chess.fen` to (with those positions, it
/// fixes the bench signature).
pub const BENCH_DEPTH: i32 = 13;

/// Move kinds. Kinds 0-5 are ordinary moves of that piece type (captures included).
const DOUBLE_PUSH: u8 = 6;
const EN_PASSANT: u8 = 7;
/// The king's move of a castling, `e1g1` style; the rook follows.
const CASTLE: u8 = 8;
/// A pawn's move to the last rank; the move's promotion field holds the new piece type.
const PROMOTION: u8 = 9;

/// Zobrist keys: the pieces, then the side to move, 4 castling rights and 8 en-passant
/// files (the indices below count from the end of the pieces).
type ChessKeys = Keys<6, 64, { 768 + 1 + 4 + 8 }>;
/// A constant, so that `CASTLING_KEYS` can be built from it at compile time; play reads the
/// one static copy.
const ALL_KEYS: ChessKeys = Keys::new(0xC4E5_5000_0000_0001);
static KEYS: ChessKeys = ALL_KEYS;
const SIDE_KEY: usize = 0;
const CASTLING_KEY: usize = 1;
const EP_KEY: usize = 5;

/// The key of a piece of `color` and `kind` on `sq`.
#[inline(always)]
fn piece_key(color: usize, kind: usize, sq: u8) -> u64 {
    KEYS.piece(color, kind, sq & 63)
}

/// `CASTLING_KEYS[rights]`: the combined key of a set of castling rights (4 bits).
static CASTLING_KEYS: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut bit = 0;
        while bit < 4 {
            if rights & (1 << bit) != 0 {
                table[rights] ^= ALL_KEYS.extra(CASTLING_KEY + bit);
            }
            bit += 1;
        }
        rights += 1;
    }
    table
};

/// The combined key of a set of castling rights.
#[inline(always)]
fn castling_key(rights: u8) -> u64 {
    CASTLING_KEYS[rights as usize & 15]
}

/// The key of the en-passant file of `sq`.
#[inline(always)]
fn ep_key(sq: u8) -> u64 {
    KEYS.extra(EP_KEY + (sq as usize & 7))
}

const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;

/// A chess position.
#[derive(Clone, Debug)]
pub struct Chess {
    /// Squares of each piece type, both colours.
    pieces: [u64; 6],
    /// Squares of each colour.
    colors: [u64; 2],
    /// Zobrist hash, kept up to date by `play`.
    hash: u64,
    side: Color,
    /// Castling right bits (`WHITE_KING_SIDE` ...).
    castling: u8,
    /// The square a pawn skipped with a double push on the last move, or `NO_SQUARE`.
    ep: u8,
    /// Whether the side to move has a legal en-passant capture (then the hash has `ep`).
    ep_capturable: bool,
    halfmove: u32,
    fullmove: u32,
}

impl Chess {
    /// The colour index and piece type on `sq`, if any.
    fn piece_on(&self, sq: u8) -> Option<(usize, usize)> {
        let bit = 1u64 << (sq & 63);
        let color = (0..2).find(|&c| self.colors[c] & bit != 0)?;
        let kind = (0..6).find(|&k| self.pieces[k] & bit != 0)?;
        Some((color, kind))
    }

    /// The FEN letter on `sq`, if any.
    fn letter_on(&self, sq: u8) -> Option<char> {
        let (color, kind) = self.piece_on(sq)?;
        let color = if color == 0 {
            Color::White
        } else {
            Color::Black
        };
        Some(piece_letter(&LETTERS, color, kind))
    }

    /// Puts a piece on an empty square (FEN parsing and colour flipping).
    fn put(&mut self, color: usize, kind: usize, sq: u8) {
        self.colors[color] |= 1u64 << sq;
        self.pieces[kind] |= 1u64 << sq;
    }

    /// Whether the side to move has a legal en-passant capture on `ep`.
    fn compute_ep_capturable(&self) -> bool {
        self.ep != NO_SQUARE
            && self
                .en_passant_candidates()
                .squares()
                .any(|from| self.en_passant_legal(from))
    }

    /// The type of the enemy piece captured on `bit` (never the king).
    #[inline(always)]
    fn captured_kind(&self, bit: u64) -> usize {
        if self.pieces[PAWN] & bit != 0 {
            PAWN
        } else if self.pieces[KNIGHT] & bit != 0 {
            KNIGHT
        } else if self.pieces[BISHOP] & bit != 0 {
            BISHOP
        } else if self.pieces[ROOK] & bit != 0 {
            ROOK
        } else {
            QUEEN
        }
    }

    /// Removes or adds pieces of one colour and type (the caller updates the hash).
    #[inline(always)]
    fn toggle(&mut self, color: usize, kind: usize, bits: u64) {
        self.pieces[kind] ^= bits;
        self.colors[color] ^= bits;
    }

    /// Whether neither side can ever checkmate (RULES.md's list).
    fn insufficient_material(&self) -> bool {
        let p = &self.pieces;
        if p[PAWN] | p[ROOK] | p[QUEEN] != 0 {
            return false;
        }
        let minors = p[KNIGHT] | p[BISHOP];
        minors.count_ones() <= 1
            || (p[KNIGHT] == 0
                && (p[BISHOP] & LIGHT_SQUARES == 0 || p[BISHOP] & !LIGHT_SQUARES == 0))
    }
}

impl Game for Chess {
    const NAME: &'static str = "chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const WIDTH: u8 = 8;
    const HEIGHT: u8 = 8;

    fn from_fen(fen: &str) -> Result<Self, String> {
        let fields = Fields::split(fen, "chess", &chesslike::FEN_FIELDS)?;
        let mut pos = Chess {
            pieces: [0; 6],
            colors: [0; 2],
            hash: 0,
            side: fields.side()?,
            castling: 0,
            ep: NO_SQUARE,
            ep_capturable: false,
            halfmove: 0,
            fullmove: 1,
        };
        for (file, rank, letter) in parse_board(fields.board(), 8, 8)? {
            let (color, kind) = parse_piece(&LETTERS, letter)?;
            pos.put(color.index(), kind, rank * 8 + file);
        }
        for (color, name) in [(0, "White"), (1, "Black")] {
            let kings = (pos.pieces[KING] & pos.colors[color]).count_ones();
            if kings != 1 {
                return Err(format!("{name} has {kings} kings, needs exactly one"));
            }
        }
        if pos.pieces[PAWN] & (RANK_1 | RANK_8) != 0 {
            return Err("a pawn stands on rank 1 or 8".to_string());
        }
        let them = pos.side.flip().index();
        let occupied = pos.colors[0] | pos.colors[1];
        if pos.attackers(pos.king_square(them), them ^ 1, occupied) != 0 {
            return Err("the side not to move is in check".to_string());
        }
        pos.castling = chesslike::parse_castling(fields.get(2, "-"), &pos.pieces, &pos.colors)?;
        pos.ep =
            chesslike::parse_en_passant(fields.get(3, "-"), pos.side, &pos.pieces, &pos.colors)?;
        pos.halfmove = fields.counter(4, "halfmove clock", 0)?;
        pos.fullmove = fields.fullmove(5)?;
        pos.ep_capturable = pos.compute_ep_capturable();
        pos.hash = pos.recompute_hash();
        Ok(pos)
    }

    fn fen(&self) -> String {
        let board = write_board(8, 8, |file, rank| self.letter_on(rank * 8 + file));
        let rest = chesslike::fen_fields(
            self.side,
            self.castling,
            self.ep,
            self.halfmove,
            self.fullmove,
        );
        format!("{board} {rest}")
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.legal_moves(&mut Lister(moves));
    }

    fn count_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        let mut counter = Counter(0);
        self.legal_moves(&mut counter);
        counter.0
    }

    fn play(&mut self, mv: Move) {
        let us = self.side.index();
        let them = us ^ 1;
        let (from, to, kind) = (mv.from() & 63, mv.to() & 63, mv.kind());
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let mut hash = self.hash ^ KEYS.extra(SIDE_KEY);
        if self.ep_capturable {
            hash ^= ep_key(self.ep);
        }
        self.ep = NO_SQUARE;
        self.ep_capturable = false;
        self.halfmove = self.halfmove.saturating_add(1);

        if self.colors[them] & to_bit != 0 {
            let captured = self.captured_kind(to_bit);
            self.toggle(them, captured, to_bit);
            hash ^= piece_key(them, captured, to);
            self.halfmove = 0;
        }
        let moved = match kind {
            DOUBLE_PUSH | EN_PASSANT | PROMOTION => PAWN,
            CASTLE => KING,
            k => k as usize % 6,
        };
        self.toggle(us, moved, from_bit | to_bit);
        hash ^= piece_key(us, moved, from) ^ piece_key(us, moved, to);
        if moved == PAWN {
            self.halfmove = 0;
        }
        match kind {
            EN_PASSANT => {
                let captured = en_passant_victim(to);
                self.toggle(them, PAWN, 1u64 << captured);
                hash ^= piece_key(them, PAWN, captured);
            }
            CASTLE => {
                let (rook_from, rook_to) = castle_rook(to);
                self.toggle(us, ROOK, 1u64 << rook_from | 1u64 << rook_to);
                hash ^= piece_key(us, ROOK, rook_from) ^ piece_key(us, ROOK, rook_to);
            }
            PROMOTION => {
                let new = mv.promotion() as usize % 6;
                self.pieces[PAWN] ^= to_bit;
                self.pieces[new] ^= to_bit;
                hash ^= piece_key(us, PAWN, to) ^ piece_key(us, new, to);
            }
            _ => {}
        }
        if self.castling != 0 {
            let rights = self.castling & CASTLING_KEEP[from as usize] & CASTLING_KEEP[to as usize];
            if rights != self.castling {
                hash ^= castling_key(self.castling ^ rights);
                self.castling = rights;
            }
        }
        self.side = self.side.flip();
        if us == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        if kind == DOUBLE_PUSH {
            self.ep = (from + to) / 2;
            if self.en_passant_candidates() != 0 && self.compute_ep_capturable() {
                self.ep_capturable = true;
                hash ^= ep_key(self.ep);
            }
        }
        self.hash = hash;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = KEYS.pieces(&self.pieces, &self.colors) ^ castling_key(self.castling);
        if self.side == Color::Black {
            hash ^= KEYS.extra(SIDE_KEY);
        }
        if self.ep_capturable {
            hash ^= ep_key(self.ep);
        }
        hash
    }

    fn move_text(&self, mv: Move) -> String {
        let promotion = (mv.kind() == PROMOTION).then_some(mv.promotion() as usize % 6);
        chesslike::move_text(mv.from() & 63, mv.to() & 63, promotion)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        matches!(mv.kind(), EN_PASSANT | PROMOTION)
            || self.colors[self.side.flip().index()] & (1u64 << (mv.to() & 63)) != 0
    }

    fn ended(&self) -> Option<GameResult> {
        None // chess never captures a king
    }

    fn no_moves_result(&self) -> GameResult {
        if self.in_check() {
            GameResult::win(self.side.flip(), "checkmate")
        } else {
            GameResult::draw("stalemate")
        }
    }

    fn rule_draw(&self) -> Option<&'static str> {
        if self.halfmove >= 100 {
            Some("fifty-move rule")
        } else if self.insufficient_material() {
            Some("insufficient material")
        } else {
            None
        }
    }

    fn color_flipped(&self) -> Self {
        let mut flipped = Chess {
            pieces: self.pieces.map(u64::swap_bytes),
            colors: [self.colors[1].swap_bytes(), self.colors[0].swap_bytes()],
            hash: 0,
            side: self.side.flip(),
            castling: chesslike::flip_castling(self.castling),
            ep: chesslike::flip_en_passant(self.ep),
            ep_capturable: false,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        flipped.ep_capturable = flipped.compute_ep_capturable();
        flipped.hash = flipped.recompute_hash();
        flipped
    }

    fn board_text(&self) -> String {
        draw_board(8, 8, |file, rank| self.letter_on(rank * 8 + file))
    }
}

#[cfg(test)]
mod tests;
