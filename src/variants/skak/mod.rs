//! Skak, the 7x7 game, as RULES.md (section "skak") defines it.
//!
//! Pieces: `K` Jarkhan (king step), `Q` Adhal (queen), `R` Lanar (rook), `B` Höfdhing
//! (bishop), `P` Fylgdar: one orthogonal step in any of the four directions to an empty
//! square, one diagonal step in any of the four directions to capture, never onto its own
//! back rank, no promotion. There is no check: every pseudo-legal move is legal and
//! capturing the Jarkhan wins. A side with no legal move draws; the 50-move rule counts
//! only captures (the halfmove clock is reset by captures alone); threefold repetition.
//!
//! Choices of this implementation:
//! - The board is embedded in the 8x8 bitboard layout (index = rank * 8 + file), see
//!   [`movegen`]; the position is a handful of bitboards, cheap to copy.
//! - FEN fields: board, side, `-`, `-`, halfmove clock, fullmove number. Both `-` fields
//!   must be `-`; a fullmove number of 0 is rejected. Each side needs exactly one Jarkhan,
//!   except that the side to move may have none: its Jarkhan was captured by the last move
//!   and the game is over (reference position skak-08; such positions also arise in play
//!   and must survive a FEN round trip).
//!   A Fylgdar may stand on any square in a FEN (it can be there in play on the enemy back
//!   rank; on its own back rank it simply cannot move along it).
//! - A captured Jarkhan is recognised by its absence: the side to move without a Jarkhan
//!   has lost ([`Game::ended`]) and has no moves.
//! - `Move::kind` holds the moving piece's kind, so `play` need not look it up.
//! - The hash covers the pieces and the side to move (there are no other rights).

mod eval;
mod movegen;
mod nnue;
mod see;
#[cfg(test)]
mod tests;
mod weights;

use crate::core::fen::{draw_board, parse_board, parse_piece, piece_letter, write_board, Fields};
use crate::core::zobrist::Keys;
use crate::core::{square_name, Color, Game, GameResult, Move};

/// The depth `thoat bench` searches `positions/bench/skak.fen` to (with those positions, it
/// fixes the bench signature).
pub const BENCH_DEPTH: i32 = 18;

/// Piece kind index of the Jarkhan (king).
const JARKHAN: usize = 0;
/// Piece kind index of the Adhal (queen).
const ADHAL: usize = 1;
/// Piece kind index of the Lanar (rook).
const LANAR: usize = 2;
/// Piece kind index of the Höfdhing (bishop).
const HOFDHING: usize = 3;
/// Piece kind index of the Fylgdar (pawn).
const FYLGDAR: usize = 4;
/// The number of piece kinds.
const KINDS: usize = 5;
/// The uppercase (White) FEN letter of each kind, by kind index.
const LETTERS: [char; KINDS] = ['K', 'Q', 'R', 'B', 'P'];

/// Board width and height.
const SIZE: u8 = 7;

/// Zobrist keys: one per (colour, kind, square of the 8x8 layout), then the side key.
static KEYS: Keys<KINDS, 64, { 2 * KINDS * 64 + 1 }> = Keys::new(0x5CA4_7A7A_0000_0007);
/// The key toggled when Black is to move (counted from the end of the pieces).
const SIDE_KEY: usize = 0;

/// The Zobrist key of a piece of `color` and `kind` on `square`.
#[inline(always)]
fn piece_key(color: usize, kind: usize, square: u8) -> u64 {
    KEYS.piece(color, kind, square)
}

/// The FEN fields, for [`Fields::split`].
const FEN_FIELDS: [&str; 6] = [
    "board",
    "side",
    "-",
    "-",
    "halfmove clock",
    "fullmove number",
];

/// A skak position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skak {
    /// The pieces of each side, by [`Color::index`].
    colors: [u64; 2],
    /// The pieces of each kind, both sides together, by kind index.
    kinds: [u64; KINDS],
    /// Zobrist hash of pieces and side to move.
    hash: u64,
    /// The side to move.
    side: Color,
    /// Plies since the last capture (RULES.md: only captures reset it).
    halfmove: u32,
    /// The fullmove number, incremented after Black moves.
    fullmove: u32,
}

impl Skak {
    /// The colour and kind of the piece on `square`, if any.
    fn piece_at(&self, square: u8) -> Option<(Color, usize)> {
        let bit = 1u64 << square;
        let color = if self.colors[0] & bit != 0 {
            Color::White
        } else if self.colors[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = self.kind_at(bit);
        Some((color, kind))
    }

    /// The kind of the piece on the (occupied) square `bit`.
    #[inline(always)]
    fn kind_at(&self, bit: u64) -> usize {
        // The Fylgdar is the most frequent piece, so look for it first.
        [FYLGDAR, ADHAL, LANAR, HOFDHING]
            .into_iter()
            .find(|&k| self.kinds[k] & bit != 0)
            .unwrap_or(JARKHAN)
    }

    /// The FEN letter on `(file, rank)`.
    fn letter(&self, file: u8, rank: u8) -> Option<char> {
        self.piece_at(rank * 8 + file)
            .map(|(color, kind)| piece_letter(&LETTERS, color, kind))
    }

    /// Places a piece (building a position); updates the hash.
    fn put(&mut self, color: Color, kind: usize, square: u8) {
        let bit = 1u64 << square;
        self.colors[color.index()] |= bit;
        self.kinds[kind] |= bit;
        self.hash ^= piece_key(color.index(), kind, square);
    }

    /// An empty board with the given side and clocks (hash of the side only).
    fn empty(side: Color, halfmove: u32, fullmove: u32) -> Skak {
        Skak {
            colors: [0; 2],
            kinds: [0; KINDS],
            hash: if side == Color::Black {
                KEYS.extra(SIDE_KEY)
            } else {
                0
            },
            side,
            halfmove,
            fullmove,
        }
    }
}

impl Game for Skak {
    const NAME: &'static str = "skak";
    const START_FEN: &'static str = "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1";
    const WIDTH: u8 = SIZE;
    const HEIGHT: u8 = SIZE;

    fn from_fen(fen: &str) -> Result<Self, String> {
        let fields = Fields::split(fen, "skak", &FEN_FIELDS)?;
        let placed = parse_board(fields.board(), SIZE, SIZE)?;
        let side = fields.side()?;
        for (index, name) in [(2, "third"), (3, "fourth")] {
            let field = fields.get(index, "-");
            if field != "-" {
                return Err(format!(
                    "the {name} field of a skak FEN must be '-', not '{field}'"
                ));
            }
        }
        let halfmove = fields.counter(4, "halfmove clock", 0)?;
        let fullmove = fields.fullmove(5)?;
        let mut pos = Skak::empty(side, halfmove, fullmove);
        for (file, rank, c) in placed {
            let (color, kind) = parse_piece(&LETTERS, c)?;
            pos.put(color, kind, rank * 8 + file);
        }
        for color in [Color::White, Color::Black] {
            let jarkhans = (pos.kinds[JARKHAN] & pos.colors[color.index()]).count_ones();
            // The side to move may lack its Jarkhan: it was just captured and the game is
            // over (reference position skak-08). The side that just moved cannot.
            let allowed = if color == side { 0..=1 } else { 1..=1 };
            if !allowed.contains(&jarkhans) {
                let name = if color == Color::White {
                    "White"
                } else {
                    "Black"
                };
                return Err(format!(
                    "{name} has {jarkhans} Jarkhans; each side has one (the side to move \
                     none if it was just captured)"
                ));
            }
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            write_board(SIZE, SIZE, |file, rank| self.letter(file, rank)),
            self.side.letter(),
            self.halfmove,
            self.fullmove
        )
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate_moves(moves);
    }

    fn count_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        self.count_legal()
    }

    fn play(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let us = self.side.index();
        let them = 1 - us;
        let kind = mv.kind() as usize;
        if self.colors[them] & to_bit != 0 {
            let captured = self.kind_at(to_bit);
            self.kinds[captured] ^= to_bit;
            self.colors[them] ^= to_bit;
            self.hash ^= piece_key(them, captured, to);
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.kinds[kind] ^= from_bit | to_bit;
        self.colors[us] ^= from_bit | to_bit;
        self.hash ^= piece_key(us, kind, from) ^ piece_key(us, kind, to) ^ KEYS.extra(SIDE_KEY);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = KEYS.pieces(&self.kinds, &self.colors);
        if self.side == Color::Black {
            hash ^= KEYS.extra(SIDE_KEY);
        }
        hash
    }

    fn move_text(&self, mv: Move) -> String {
        let name = |square: u8| square_name(square % 8, square / 8);
        format!("{}{}", name(mv.from()), name(mv.to()))
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.colors[1 - self.side.index()] & (1u64 << mv.to()) != 0
    }

    fn ended(&self) -> Option<GameResult> {
        self.jarkhan_lost()
            .then(|| GameResult::win(self.side.flip(), "jarkhan captured"))
    }

    fn no_moves_result(&self) -> GameResult {
        GameResult::draw("no legal move")
    }

    fn rule_draw(&self) -> Option<&'static str> {
        (self.halfmove >= 100).then_some("fifty-move rule")
    }

    fn color_flipped(&self) -> Self {
        // swap_bytes mirrors the 8 ranks of the layout; the empty rank 8 lands on rank 1,
        // so one rank down puts rank 7 onto rank 1.
        let mirror = |bits: u64| bits.swap_bytes() >> 8;
        let mut flipped = Skak {
            colors: [mirror(self.colors[1]), mirror(self.colors[0])],
            kinds: self.kinds.map(mirror),
            hash: 0,
            side: self.side.flip(),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        flipped.hash = flipped.recompute_hash();
        flipped
    }

    fn board_text(&self) -> String {
        draw_board(SIZE, SIZE, |file, rank| self.letter(file, rank))
    }
}
