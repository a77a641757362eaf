//! The static exchange evaluation of the two games with chess pieces on 8x8 (chess and duck
//! chess), in Stockfish's threshold form. Each game's `see.rs` reads its move (what moves,
//! what it captures, a promotion, the occupancy after it) and what is special to it (the
//! duck as a blocker); the rest is here. After the first move each side in turn captures on
//! the square with its least valuable attacker (a pawn reaching the last rank becomes a
//! queen), sliders behind the capturer join, and a side stops as soon as capturing no longer
//! saves it.
//!
//! The loop keeps one number, the balance (material won by the side that made the first move
//! less the threshold), and the invariant that the side about to capture stands badly if it
//! stops: the balance is negative for the first mover's side, at least 0 for the other. It
//! captures; if that still leaves it standing badly, the other side stops and the exchange
//! is decided, else the roles change. Sides without an attacker lose where they stand.

use super::chesslike::{BISHOP, KING, KNIGHT, PAWN, QUEEN, RANK_1, RANK_8, ROOK};
use crate::core::attacks8::{self, bishop, rook};

/// Rank 1 and rank 8, where a pawn promotes.
const LAST_RANKS: u64 = RANK_1 | RANK_8;

/// Thresholds are clamped to this: far beyond any balance (a king and all the material of
/// both sides), so clamping changes no answer and the sums cannot overflow.
const THRESHOLD_LIMIT: i32 = 1 << 24;

/// The position as the exchange sees it.
pub struct Exchange<'a> {
    /// Squares of each piece type, both colours.
    pub pieces: &'a [u64; 6],
    /// Squares of each colour's capturers (duck chess leaves the duck's square out).
    pub colors: [u64; 2],
    /// The game's piece values (the king's huge).
    pub values: &'a [i32; 6],
    /// The side that made the first move.
    pub first: usize,
}

/// The first move, as the exchange needs it.
pub struct FirstMove {
    /// Its destination, where the exchange takes place.
    pub to: u8,
    /// The piece type it moves.
    pub mover: usize,
    /// The piece type it captures (a pawn for en passant), if any.
    pub victim: Option<usize>,
    /// The piece type it promotes to, if any.
    pub promotion: Option<usize>,
}

impl Exchange<'_> {
    /// Whether `first` followed by the best exchange on its destination wins at least
    /// `threshold` for the first mover. `occupied` is every square that holds a piece or
    /// blocks a slider once the first move is made, its destination aside (the start square
    /// and an en-passant victim's square are empty).
    #[inline(always)]
    pub fn at_least(&self, first: &FirstMove, occupied: u64, threshold: i32) -> bool {
        let values = self.values;
        let mut balance = first.victim.map_or(0, |k| values[k])
            - threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
        let mut on_square = values[first.mover];
        if let Some(new) = first.promotion {
            balance += values[new] - values[PAWN];
            on_square = values[new];
        }
        if first.victim == Some(KING) {
            return balance >= 0; // the game is won: nothing takes back
        }
        if balance < 0 {
            return false; // not enough even if nothing is taken back
        }
        let to_bit = 1u64 << (first.to & 63);
        let their_promotion = if to_bit & LAST_RANKS != 0 {
            values[QUEEN] - values[PAWN]
        } else {
            0
        };
        if balance - on_square - their_promotion >= 0 {
            return true; // enough even if the piece is taken back at once
        }
        self.holds(
            first.to,
            occupied | to_bit,
            balance,
            on_square,
            first.mover == KING,
        )
    }

    /// The pieces of both colours attacking `sq` through `occupied` (pieces off `occupied`
    /// may be listed: the loop masks them).
    #[inline(always)]
    fn attackers(&self, sq: u8, occupied: u64) -> u64 {
        let p = self.pieces;
        let s = sq as usize & 63;
        (attacks8::PAWN_ATTACKS[1][s] & p[PAWN] & self.colors[0])
            | (attacks8::PAWN_ATTACKS[0][s] & p[PAWN] & self.colors[1])
            | (attacks8::KNIGHT[s] & p[KNIGHT])
            | (attacks8::KING[s] & p[KING])
            | (bishop(sq, occupied) & (p[BISHOP] | p[QUEEN]))
            | (rook(sq, occupied) & (p[ROOK] | p[QUEEN]))
    }

    /// The captures on `to` after the first move: the other side is to capture, standing
    /// badly (`balance`, from the first mover's side, is at least 0). `occupied` holds the
    /// piece on `to`, whose value is `on_square` (`king_on_square`: it is a king). Whether
    /// the first mover ends at least even.
    #[inline(always)]
    fn holds(
        &self,
        to: u8,
        mut occupied: u64,
        mut balance: i32,
        mut on_square: i32,
        mut king_on_square: bool,
    ) -> bool {
        let p = self.pieces;
        let mut attackers = self.attackers(to, occupied);
        let diagonal = p[BISHOP] | p[QUEEN];
        let straight = p[ROOK] | p[QUEEN];
        let promotes = (1u64 << (to & 63)) & LAST_RANKS != 0;
        let queen_promotion = self.values[QUEEN] - self.values[PAWN];
        let first = self.first;
        let mut side = first ^ 1;
        loop {
            let own = attackers & occupied & self.colors[side];
            if own == 0 {
                break; // it cannot capture: it loses where it stands
            }
            let mut kind = PAWN;
            while kind < KING && own & p[kind] == 0 {
                kind += 1;
            }
            let pieces = own & p[kind];
            let capturer = pieces & pieces.wrapping_neg();
            let promotion = if kind == PAWN && promotes {
                queen_promotion
            } else {
                0
            };
            let gain = on_square + promotion;
            balance += if side == first { gain } else { -gain };
            if king_on_square || (balance >= 0) != (side == first) {
                // A king was taken (the game is over), or the capture did not save the
                // capturer's side: the other side stops, and the balance stands.
                break;
            }
            on_square = self.values[kind] + promotion;
            king_on_square = kind == KING;
            occupied ^= capturer;
            if matches!(kind, PAWN | BISHOP | QUEEN | KING) {
                attackers |= bishop(to, occupied) & diagonal;
            }
            if matches!(kind, ROOK | QUEEN | KING) {
                attackers |= rook(to, occupied) & straight;
            }
            side ^= 1;
        }
        balance >= 0
    }
}
