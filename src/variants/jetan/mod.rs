//! jetan, Martian chess on 10x10 (E. R. Burroughs), as specified in RULES.md (section
//! jetan), which is the rule source for everything here.
//!
//! Board: `u128` bitboards, square = rank * 10 + file. Moves are paths of exact step counts
//! that never revisit a square; the `tables` module holds per-square path-prefix trees so
//! blocking is exact. The Princess's escape is move kind `movegen::ESCAPE`; its text is the
//! same `<from><to>` as a normal move (a destination is either normal or escape, never
//! both). A test-only reference generator (`reference`) walks every path on a plain array
//! and is compared with the bitboard generator on thousands of random positions.
//!
//! Choices beyond RULES.md's own:
//! - A FEN may lack the Chief or the Princess of the side to move (never both, never of the
//!   other side): the last move captured it, so the game is over (the reference suite has
//!   such a position). A missing Princess means the other side won; a missing Chief is
//!   scored as the draw of "captured by another piece", since a FEN cannot say which piece
//!   took it.
//! - The countdown field may not exceed 10 (a position with countdown 10 is already drawn,
//!   so no later one exists); the fullmove number must be at least 1.
//! - A player with no legal move loses (RULES.md), reason "no legal move".

mod eval;
mod movegen;
mod nnue;
#[cfg(test)]
mod reference;
mod see;
mod tables;
#[cfg(test)]
mod tests;
mod weights;

use crate::core::fen::{draw_board, parse_board, parse_piece, piece_letter, write_board, Fields};
use crate::core::zobrist::Keys;
use crate::core::{Bits, Color, Game, GameResult, Move};
use movegen::ESCAPE;
use tables::{bit, Piece, LETTERS, SQUARES};

/// The depth `thoat bench` searches `positions/bench/jetan.fen` to (with those positions, it
/// fixes the bench signature).
pub const BENCH_DEPTH: i32 = 11;

/// How the game ended by a capture; the capturer is the side not to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// A Princess was captured: her captor wins.
    PrincessCaptured,
    /// A Chief was captured by the enemy Chief: the captor wins.
    ChiefByChief,
    /// A Chief was captured by another piece: a draw.
    ChiefByOther,
}

/// Plies after which the countdown draws the game.
const COUNTDOWN_LIMIT: u8 = 10;
/// A side is "down to few pieces" for the countdown with this many pieces or fewer.
const FEW_PIECES: u32 = 3;

/// Zobrist keys: 2 colours x 8 kinds x 100 squares, then side to move, then the two escape
/// rights.
const KEYS: Keys<8, SQUARES, { 2 * 8 * SQUARES + 3 }> = Keys::new(0x4A45_5441_4E5F_0005);
const SIDE_KEY: u64 = KEYS.extra(0);
const ESCAPE_KEYS: [u64; 2] = [KEYS.extra(1), KEYS.extra(2)];

/// The FEN fields, for [`Fields::split`].
const FEN_FIELDS: [&str; 5] = ["board", "side", "escape", "countdown", "fullmove number"];

#[inline(always)]
fn piece_key(color: Color, piece: Piece, sq: u8) -> u64 {
    KEYS.piece(color.index(), piece as usize, sq)
}

/// A jetan position.
#[derive(Clone, Debug)]
pub struct Jetan {
    /// Squares of each kind, both colours.
    by_kind: [u128; 8],
    /// Squares of each colour.
    by_color: [u128; 2],
    hash: u64,
    fullmove: u32,
    side: Color,
    /// Escape rights: bit 0 White's Princess, bit 1 Black's.
    escape: u8,
    /// Plies since both sides first had three pieces or fewer.
    countdown: u8,
    /// Set when the move that reached this position captured a Chief or Princess.
    status: Option<Ended>,
}

impl Jetan {
    /// Gives the turn to the other side, the hash following: the end of every move, and
    /// the whole of a null move.
    #[inline(always)]
    fn pass_turn(&mut self) {
        self.side = self.side.flip();
        self.hash ^= SIDE_KEY;
    }

    /// Whether `mv` (a legal move of some position) is the Princess's escape, so that a board
    /// can offer and mark it as such.
    pub fn is_escape(mv: Move) -> bool {
        mv.kind() == ESCAPE
    }

    #[inline(always)]
    fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    fn countdown_over(&self) -> bool {
        self.countdown >= COUNTDOWN_LIMIT
    }

    fn few_pieces_each(&self) -> bool {
        self.by_color.iter().all(|c| c.count_ones() <= FEW_PIECES)
    }

    /// The colour and kind on `sq`.
    fn piece_at(&self, sq: u8) -> Option<(Color, Piece)> {
        let b = bit(sq);
        let color = if self.by_color[0] & b != 0 {
            Color::White
        } else if self.by_color[1] & b != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = self.by_kind.iter().position(|k| k & b != 0)?;
        Some((color, Piece::ALL[kind]))
    }

    #[inline(always)]
    fn toggle(&mut self, color: Color, piece: Piece, sq: u8) {
        self.by_kind[piece as usize] ^= bit(sq);
        self.by_color[color.index()] ^= bit(sq);
        self.hash ^= piece_key(color, piece, sq);
    }

    fn empty(side: Color) -> Jetan {
        Jetan {
            by_kind: [0; 8],
            by_color: [0; 2],
            hash: 0,
            fullmove: 1,
            side,
            escape: 0,
            countdown: 0,
            status: None,
        }
    }

    fn count(&self, color: Color, piece: Piece) -> u32 {
        (self.by_kind[piece as usize] & self.by_color[color.index()]).count_ones()
    }

    /// Checks the Chiefs and Princesses and derives the end of a game a FEN shows as over.
    fn check_royals(&mut self) -> Result<(), String> {
        for color in [Color::White, Color::Black] {
            for piece in [Piece::Chief, Piece::Princess] {
                if self.count(color, piece) > 1 {
                    return Err(format!("{color:?} has more than one {}", piece_name(piece)));
                }
            }
        }
        let them = self.side.flip();
        for piece in [Piece::Chief, Piece::Princess] {
            if self.count(them, piece) == 0 {
                return Err(format!(
                    "{them:?} has no {} (only the side to move may lack one: just captured)",
                    piece_name(piece)
                ));
            }
        }
        let us = self.side;
        match (
            self.count(us, Piece::Chief),
            self.count(us, Piece::Princess),
        ) {
            (0, 0) => Err(format!("{us:?} has neither Chief nor Princess")),
            (0, _) => {
                self.status = Some(Ended::ChiefByOther);
                Ok(())
            }
            (_, 0) => {
                self.status = Some(Ended::PrincessCaptured);
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Chief => "Chief",
        Piece::Princess => "Princess",
        _ => "piece",
    }
}

fn letter(color: Color, piece: Piece) -> char {
    piece_letter(&LETTERS, color, piece as usize)
}

impl Game for Jetan {
    const NAME: &'static str = "jetan";
    const START_FEN: &'static str =
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1";
    const WIDTH: u8 = 10;
    const HEIGHT: u8 = 10;

    fn from_fen(fen: &str) -> Result<Self, String> {
        let fields = Fields::split(fen, "jetan", &FEN_FIELDS)?;
        let mut pos = Jetan::empty(fields.side()?);
        for (file, rank, c) in parse_board(fields.board(), 10, 10)? {
            let (color, kind) = parse_piece(&LETTERS, c)?;
            pos.toggle(color, Piece::ALL[kind], rank * 10 + file);
        }
        pos.check_royals()?;
        pos.escape = match fields.get(2, "-") {
            "-" => 0,
            "Q" => 1,
            "q" => 2,
            "Qq" => 3,
            other => {
                return Err(format!(
                    "escape rights must be 'Qq', 'Q', 'q' or '-', not '{other}'"
                ))
            }
        };
        let countdown = fields.counter(3, "countdown", 0)?;
        if countdown > COUNTDOWN_LIMIT as u32 {
            return Err(format!(
                "countdown {countdown} is above {COUNTDOWN_LIMIT}: the game ended at {COUNTDOWN_LIMIT}"
            ));
        }
        if countdown > 0 && !pos.few_pieces_each() {
            return Err(format!(
                "countdown {countdown} while a side has more than {FEW_PIECES} pieces"
            ));
        }
        pos.countdown = countdown as u8;
        pos.fullmove = fields.fullmove(4)?;
        pos.hash = pos.recompute_hash();
        Ok(pos)
    }

    fn fen(&self) -> String {
        let board = write_board(10, 10, |f, r| {
            self.piece_at(r * 10 + f).map(|(c, p)| letter(c, p))
        });
        let escape = match self.escape {
            0 => "-",
            1 => "Q",
            2 => "q",
            _ => "Qq",
        };
        format!(
            "{board} {} {escape} {} {}",
            self.side.letter(),
            self.countdown,
            self.fullmove
        )
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        self.generate_moves(moves);
    }

    fn count_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        self.count_legal()
    }

    fn play(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let us = self.side;
        let them = us.flip();
        let countdown_running = self.few_pieces_each();
        let Some((_, piece)) = self.piece_at(from) else {
            debug_assert!(false, "no piece on the start square of {mv:?}");
            return;
        };
        if let Some((_, captured)) = self.piece_at(to) {
            self.toggle(them, captured, to);
            self.status = match (captured, piece) {
                (Piece::Princess, _) => Some(Ended::PrincessCaptured),
                (Piece::Chief, Piece::Chief) => Some(Ended::ChiefByChief),
                (Piece::Chief, _) => Some(Ended::ChiefByOther),
                _ => None,
            };
        }
        self.toggle(us, piece, from);
        self.toggle(us, piece, to);
        if mv.kind() == ESCAPE {
            self.escape &= !(1 << us.index());
            self.hash ^= ESCAPE_KEYS[us.index()];
        }
        // The countdown grows with every ply made from a position where both sides had
        // three pieces or fewer; pieces only ever disappear, so it never stops once started.
        if countdown_running {
            self.countdown = self.countdown.saturating_add(1);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.pass_turn();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = KEYS.pieces(&self.by_kind, &self.by_color);
        if self.side == Color::Black {
            hash ^= SIDE_KEY;
        }
        for (i, key) in ESCAPE_KEYS.iter().enumerate() {
            if self.escape & (1 << i) != 0 {
                hash ^= key;
            }
        }
        hash
    }

    fn move_text(&self, mv: Move) -> String {
        let name = |sq: u8| crate::core::square_name(sq % 10, sq / 10);
        format!("{}{}", name(mv.from()), name(mv.to()))
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.occupied() & bit(mv.to()) != 0
    }

    fn ended(&self) -> Option<GameResult> {
        let captor = self.side.flip();
        match self.status {
            Some(Ended::PrincessCaptured) => Some(GameResult::win(captor, "princess captured")),
            Some(Ended::ChiefByChief) => Some(GameResult::win(captor, "chief captured")),
            Some(Ended::ChiefByOther) => Some(GameResult::draw("chief captured")),
            None if self.countdown_over() => Some(GameResult::draw("countdown")),
            None => None,
        }
    }

    fn no_moves_result(&self) -> GameResult {
        GameResult::win(self.side.flip(), "no legal move")
    }

    fn rule_draw(&self) -> Option<&'static str> {
        None
    }

    fn color_flipped(&self) -> Self {
        let mut flipped = Jetan {
            side: self.side.flip(),
            escape: (self.escape & 1) << 1 | (self.escape >> 1),
            ..Jetan::empty(self.side.flip())
        };
        flipped.countdown = self.countdown;
        flipped.fullmove = self.fullmove;
        flipped.status = self.status;
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                let squares = self.by_kind[piece as usize] & self.by_color[color.index()];
                for sq in squares.squares() {
                    flipped.toggle(color.flip(), piece, (9 - sq / 10) * 10 + sq % 10);
                }
            }
        }
        flipped.hash = flipped.recompute_hash();
        flipped
    }

    fn board_text(&self) -> String {
        draw_board(10, 10, |f, r| {
            self.piece_at(r * 10 + f).map(|(c, p)| letter(c, p))
        })
    }
}
