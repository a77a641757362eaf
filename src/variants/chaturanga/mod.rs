//! Chaturanga as on the Chess Variant Pages (after Murray and Gollon), with the project's
//! choices from RULES.md (the authority):
//!
//! - pieces: king, counsellor (ferz), elephant (alfil, jumps), horse, chariot (rook), pawn
//!   (single step, no en passant);
//! - the king may make one knight's move per game while it holds the leap right; the right
//!   is lost by leaping or by being put in check; a normal king move keeps it;
//! - after a move: (1) the mover loses its right if it leapt, (2) the opponent loses its
//!   right if its king is now attacked, (3) the move is legal only if the mover's king is
//!   not attacked, counting the opponent's leap only if the right survived (2);
//! - a pawn promotes to the start piece of the file it reaches (d8/e1 never), only while its
//!   side has fewer of that type than at the start, and may not reach the last rank
//!   otherwise; a pawn attacks a last-rank square only where it could promote;
//! - checkmate wins, the stalemated player wins, 50-move rule and repetition draw.
//!
//! The rules are point-symmetric (White's counsellor promotes on e8, Black's on d1), so
//! [`Game::color_flipped`] turns the board by 180 degrees instead of mirroring the ranks.

mod eval;
mod movegen;
mod nnue;
mod see;
#[cfg(test)]
mod tests;
mod weights;

use crate::core::attacks8::KNIGHT;
use crate::core::fen::{draw_board, parse_board, parse_piece, piece_letter, write_board, Fields};
use crate::core::zobrist::Keys;
use crate::core::{square_name, Bits, Color, Game, GameResult, Move};

/// The depth `thoat bench` searches `positions/bench/chaturanga.fen` to (with those positions, it
/// fixes the bench signature).
pub const BENCH_DEPTH: i32 = 14;

/// Piece type codes, also the promotion codes of a [`Move`] (pawns never are one).
const PAWN: u8 = 0;
const HORSE: u8 = 1;
const ELEPHANT: u8 = 2;
const CHARIOT: u8 = 3;
const COUNSELLOR: u8 = 4;
const KING_TYPE: u8 = 5;
/// The mailbox value of an empty square; occupied squares hold `colour * 6 + type`.
const EMPTY: u8 = 12;

/// Move kind of the king's knight move (the leap); 0 is every other move.
const KIND_LEAP: u8 = 1;

/// FEN letters (White's) by piece type.
const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];
/// The FEN fields, for [`Fields::split`].
const FEN_FIELDS: [&str; 6] = [
    "board",
    "side",
    "king leap",
    "en passant (-)",
    "halfmove clock",
    "fullmove number",
];
/// Pieces of each type a side has at the start: promotion needs fewer than this.
const START_COUNT: [u32; 6] = [8, 2, 2, 2, 1, 1];

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// The rank where each side's pawns promote.
const LAST_RANK: [u64; 2] = [RANK_8, RANK_1];

/// The piece a pawn of each side promotes to on each file of its last rank; `PAWN` = never.
const PROMOTION_TYPE: [[u8; 8]; 2] = [
    [
        CHARIOT, HORSE, ELEPHANT, PAWN, COUNSELLOR, ELEPHANT, HORSE, CHARIOT,
    ],
    [
        CHARIOT, HORSE, ELEPHANT, COUNSELLOR, PAWN, ELEPHANT, HORSE, CHARIOT,
    ],
];

/// Zobrist keys: the pieces by mailbox code, then the side key, then the two leap rights
/// (the indices below count from the end of the pieces).
static KEYS: Keys<6, 64, { 12 * 64 + 3 }> = Keys::new(0xC4A7_0A46_A000_0003);
const SIDE_KEY: usize = 0;
const LEAP_KEY: usize = 1;

#[inline]
fn piece_key(code: u8, sq: u8) -> u64 {
    KEYS.coded(code as usize, sq)
}

/// A chaturanga position. Small and `Copy`, because perft and search copy it for each move.
#[derive(Clone, Copy, Debug)]
pub struct Chaturanga {
    /// Pieces of both colours by type (`PAWN`..`KING_TYPE`).
    pieces: [u64; 6],
    /// All pieces of each colour.
    colors: [u64; 2],
    /// `colour * 6 + type` on each square, `EMPTY` if none.
    board: [u8; 64],
    side: Color,
    /// Bit 0: White may still leap; bit 1: Black.
    leap: u8,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

impl Chaturanga {
    /// Gives the turn to the other side, the hash following: the end of every move, and
    /// the whole of a null move.
    #[inline(always)]
    fn pass_turn(&mut self) {
        self.side = self.side.flip();
        self.hash ^= KEYS.extra(SIDE_KEY);
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    fn of(&self, color: Color, kind: u8) -> u64 {
        self.pieces[kind as usize] & self.colors[color.index()]
    }

    #[inline]
    fn king_square(&self, color: Color) -> u8 {
        self.of(color, KING_TYPE).trailing_zeros() as u8
    }

    #[inline]
    fn has_leap(&self, color: Color) -> bool {
        self.leap & (1 << color.index()) != 0
    }

    /// The last-rank squares that `color`'s pawns may reach now: the promotion squares of
    /// the types it has fewer of than at the start.
    #[inline]
    fn promotion_squares(&self, color: Color) -> u64 {
        let mut squares = 0;
        for kind in [HORSE, ELEPHANT, CHARIOT, COUNSELLOR] {
            if self.of(color, kind).count_ones() < START_COUNT[kind as usize] {
                squares |= PROMOTION_SQUARES[color.index()][kind as usize];
            }
        }
        squares
    }

    /// The squares `color`'s pawns may move or capture onto: all but the last rank's
    /// squares where they cannot promote now.
    #[inline]
    fn pawn_reach(&self, color: Color) -> u64 {
        !LAST_RANK[color.index()] | self.promotion_squares(color)
    }

    /// Whether `by` attacks `sq` (RULES.md "Attacked"), its king's leap counted when `by`
    /// holds the right.
    #[inline]
    fn attacked(&self, sq: u8, by: Color) -> bool {
        self.attackers_with_reach(sq, by, self.occupied(), self.pawn_reach(by)) != 0
            || (self.has_leap(by) && KNIGHT[sq as usize] & self.of(by, KING_TYPE) != 0)
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        self.attacked(self.king_square(self.side), self.side.flip())
    }

    fn put(&mut self, code: u8, sq: u8) {
        let bit = 1u64 << sq;
        self.pieces[(code % 6) as usize] |= bit;
        self.colors[(code / 6) as usize] |= bit;
        self.board[sq as usize] = code;
        self.hash ^= piece_key(code, sq);
    }

    fn remove(&mut self, sq: u8) {
        let code = self.board[sq as usize];
        let bit = 1u64 << sq;
        self.pieces[(code % 6) as usize] &= !bit;
        self.colors[(code / 6) as usize] &= !bit;
        self.board[sq as usize] = EMPTY;
        self.hash ^= piece_key(code, sq);
    }

    fn clear_leap(&mut self, color: Color) {
        if self.has_leap(color) {
            self.leap &= !(1 << color.index());
            self.hash ^= KEYS.extra(LEAP_KEY + color.index());
        }
    }

    /// The FEN letter on a square.
    fn letter(&self, sq: u8) -> Option<char> {
        let code = self.board[sq as usize];
        let color = if code >= 6 {
            Color::Black
        } else {
            Color::White
        };
        (code != EMPTY).then(|| piece_letter(&LETTERS, color, (code % 6) as usize))
    }

    fn empty() -> Chaturanga {
        Chaturanga {
            pieces: [0; 6],
            colors: [0; 2],
            board: [EMPTY; 64],
            side: Color::White,
            leap: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    fn parse_leap(field: &str) -> Result<u8, String> {
        match field {
            "Kk" => Ok(3),
            "K" => Ok(1),
            "k" => Ok(2),
            "-" => Ok(0),
            _ => Err(format!(
                "king-leap field must be 'Kk', 'K', 'k' or '-', not '{}'",
                field.escape_debug()
            )),
        }
    }

    fn leap_text(&self) -> &'static str {
        ["-", "K", "k", "Kk"][self.leap as usize]
    }

    /// Checks what RULES.md says a FEN must satisfy, on a parsed position.
    fn validate(&self) -> Result<(), String> {
        for color in [Color::White, Color::Black] {
            let kings = self.of(color, KING_TYPE).count_ones();
            if kings != 1 {
                return Err(format!("{color:?} must have exactly one king, not {kings}"));
            }
        }
        if self.pieces[PAWN as usize] & (RANK_1 | RANK_8) != 0 {
            return Err("a pawn stands on the first or last rank".to_string());
        }
        let waiting = self.side.flip();
        if self.attacked(self.king_square(waiting), self.side) {
            return Err(format!("the side not to move ({waiting:?}) is in check"));
        }
        Ok(())
    }
}

/// [`PROMOTION_TYPE`] as square sets: `PROMOTION_SQUARES[colour][type]`.
static PROMOTION_SQUARES: [[u64; 6]; 2] = {
    let mut table = [[0u64; 6]; 2];
    let mut color = 0;
    while color < 2 {
        let mut file = 0;
        while file < 8 {
            let kind = PROMOTION_TYPE[color][file] as usize;
            if kind != PAWN as usize {
                table[color][kind] |= (FILE_A << file) & LAST_RANK[color];
            }
            file += 1;
        }
        color += 1;
    }
    table
};

impl Game for Chaturanga {
    const NAME: &'static str = "chaturanga";
    const START_FEN: &'static str = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1";
    const WIDTH: u8 = 8;
    const HEIGHT: u8 = 8;

    fn from_fen(fen: &str) -> Result<Self, String> {
        let fields = Fields::split(fen, "chaturanga", &FEN_FIELDS)?;
        let mut pos = Chaturanga::empty();
        for (file, rank, letter) in parse_board(fields.board(), 8, 8)? {
            let (color, kind) = parse_piece(&LETTERS, letter)?;
            pos.put(color.index() as u8 * 6 + kind as u8, rank * 8 + file);
        }
        pos.side = fields.side()?;
        pos.leap = Chaturanga::parse_leap(fields.get(2, "-"))?;
        let ep = fields.get(3, "-");
        if ep != "-" {
            return Err(format!(
                "chaturanga has no en passant: the fourth field must be '-', not '{}'",
                ep.escape_debug()
            ));
        }
        pos.halfmove = fields.counter(4, "halfmove clock", 0)?;
        pos.fullmove = fields.fullmove(5)?;
        pos.validate()?;
        pos.hash = pos.recompute_hash();
        Ok(pos)
    }

    fn fen(&self) -> String {
        let board = write_board(8, 8, |file, rank| self.letter(rank * 8 + file));
        format!(
            "{board} {} {} - {} {}",
            self.side.letter(),
            self.leap_text(),
            self.halfmove,
            self.fullmove
        )
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate_into(moves);
    }

    fn count_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        let mut count = movegen::Counter(0);
        self.generate_into(&mut count);
        count.0
    }

    fn play(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let code = self.board[from as usize];
        let capture = self.board[to as usize] != EMPTY;
        if capture {
            self.remove(to);
        }
        self.remove(from);
        let placed = match mv.promotion() {
            0 => code,
            promotion => us.index() as u8 * 6 + promotion,
        };
        self.put(placed, to);
        // RULES.md (1): leaping uses the right up.
        if mv.kind() == KIND_LEAP {
            self.clear_leap(us);
        }
        self.halfmove = if capture || code % 6 == PAWN {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.pass_turn();
        // RULES.md (2): a king put in check loses its right.
        if self.has_leap(them) && self.attacked(self.king_square(them), us) {
            self.clear_leap(them);
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = KEYS.pieces(&self.pieces, &self.colors);
        if self.side == Color::Black {
            hash ^= KEYS.extra(SIDE_KEY);
        }
        for color in [Color::White, Color::Black] {
            if self.has_leap(color) {
                hash ^= KEYS.extra(LEAP_KEY + color.index());
            }
        }
        hash
    }

    fn move_text(&self, mv: Move) -> String {
        let name = |sq: u8| square_name(sq % 8, sq / 8);
        let mut text = name(mv.from()) + &name(mv.to());
        if mv.promotion() != 0 {
            text.push(LETTERS[mv.promotion() as usize].to_ascii_lowercase());
        }
        text
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion() != 0 || self.board[mv.to() as usize] != EMPTY
    }

    fn ended(&self) -> Option<GameResult> {
        None
    }

    fn no_moves_result(&self) -> GameResult {
        if self.in_check() {
            GameResult::win(self.side.flip(), "checkmate")
        } else {
            // The player who stalemates the opponent loses.
            GameResult::win(self.side, "stalemate")
        }
    }

    fn rule_draw(&self) -> Option<&'static str> {
        (self.halfmove >= 100).then_some("fifty-move rule")
    }

    fn color_flipped(&self) -> Self {
        // A half turn, not a mirror: the promotion squares are point-symmetric.
        let mut flipped = Chaturanga::empty();
        for sq in self.occupied().squares() {
            let code = self.board[sq as usize];
            let swapped = if code >= 6 { code - 6 } else { code + 6 };
            flipped.put(swapped, sq ^ 63);
        }
        flipped.side = self.side.flip();
        flipped.leap = (self.leap >> 1) | ((self.leap & 1) << 1);
        flipped.halfmove = self.halfmove;
        flipped.fullmove = self.fullmove;
        flipped.hash = flipped.recompute_hash();
        flipped
    }

    fn board_text(&self) -> String {
        draw_board(8, 8, |file, rank| self.letter(rank * 8 + file))
    }
}
