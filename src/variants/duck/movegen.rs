//! Move generation. The piece moves are produced once, by [`Duck::piece_moves`], into a
//! [`Sink`]: [`ListSink`] expands each piece move with every duck square into the move list,
//! [`CountSink`] only counts, in bulk, for the last ply of perft.
//!
//! Bulk count: after a piece move the duck may go to any square that holds neither a piece
//! nor the duck itself (it must move if it is on the board). A move that captures nothing
//! keeps the number of pieces `n` (castling and promotion too), so it has `64 - n - d` duck
//! squares, `d` = 1 if the duck is on the board; a capture (en passant included) removes a
//! piece and has one more. The square the piece left is free and the one it reached is
//! taken, so they cancel.

use super::*;
use crate::core::attacks8::{bishop, rook, KING as KING_STEPS, KNIGHT as KNIGHT_STEPS};
use crate::core::bits::shift;
use crate::variants::chesslike::{BLACK_KING_SIDE, BLACK_QUEEN_SIDE, WHITE_QUEEN_SIDE};
use crate::variants::chesslike::{CASTLE_PATHS, DOUBLE_PUSH_RANK, FILE_A, FILE_H, FORWARD};
use crate::variants::chesslike::{PROMOTIONS, PROMOTION_RANK};

/// Receives the piece moves of a position.
pub(super) trait Sink {
    /// Moves of one piece from `from` to each square of `targets` (no promotion).
    fn piece(&mut self, from: u8, targets: u64);
    /// Pawn moves to each square of `targets`, each from `to - delta`, of `kind`.
    fn pawns(&mut self, targets: u64, delta: i8, kind: u8);
    /// Pawn moves to each square of `targets` from `to - delta`, each with the four promotions.
    fn promotions(&mut self, targets: u64, delta: i8);
    /// One en-passant capture or castling move.
    fn special(&mut self, from: u8, to: u8, kind: u8);
}

impl Duck {
    /// Sends every piece move of the side to move to `sink` (the king must be on the board).
    pub(super) fn piece_moves<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let own = self.colors[us.index()];
        let enemy = self.colors[us.flip().index()];
        let blockers = own | enemy | self.duck;
        let empty = !blockers;
        let free = !(own | self.duck);

        // Pawns, set-wise: pushes, double pushes, both captures, promotions split off.
        let pawns = self.pieces[PAWN] & own;
        // A match, not an index by the side, as in `castling_moves`.
        let (forward, double_rank, last_rank) = match us {
            Color::White => (FORWARD[0], DOUBLE_PUSH_RANK[0], PROMOTION_RANK[0]),
            Color::Black => (FORWARD[1], DOUBLE_PUSH_RANK[1], PROMOTION_RANK[1]),
        };
        let single = shift(pawns, forward) & empty;
        let double = shift(single & double_rank, forward) & empty;
        sink.pawns(single & !last_rank, forward, NORMAL);
        sink.promotions(single & last_rank, forward);
        sink.pawns(double, 2 * forward, DOUBLE_PUSH);
        for (delta, edge) in [(forward - 1, FILE_A), (forward + 1, FILE_H)] {
            let captures = shift(pawns & !edge, delta) & enemy;
            sink.pawns(captures & !last_rank, delta, NORMAL);
            sink.promotions(captures & last_rank, delta);
        }
        if self.ep != NO_SQUARE && self.duck & bit(self.ep) == 0 {
            let mut capturers =
                en_passant_capturers(&self.pieces, &self.colors, us.index(), self.ep);
            while capturers != 0 {
                sink.special(capturers.trailing_zeros() as u8, self.ep, EN_PASSANT);
                capturers &= capturers - 1;
            }
        }

        let mut knights = self.pieces[KNIGHT] & own;
        while knights != 0 {
            let from = knights.trailing_zeros() as u8;
            sink.piece(from, KNIGHT_STEPS[from as usize] & free);
            knights &= knights - 1;
        }
        let queens = self.pieces[QUEEN];
        let mut diagonal = (self.pieces[BISHOP] | queens) & own;
        while diagonal != 0 {
            let from = diagonal.trailing_zeros() as u8;
            sink.piece(from, bishop(from, blockers) & free);
            diagonal &= diagonal - 1;
        }
        let mut straight = (self.pieces[ROOK] | queens) & own;
        while straight != 0 {
            let from = straight.trailing_zeros() as u8;
            sink.piece(from, rook(from, blockers) & free);
            straight &= straight - 1;
        }
        let king = (self.pieces[KING] & own).trailing_zeros() as u8;
        sink.piece(king, KING_STEPS[king as usize] & free);
        self.castling_moves(king, blockers, sink);
    }

    /// Castling: the right (king and rook unmoved) and every square between them empty of
    /// pieces and duck. No attack test: duck chess has no check.
    fn castling_moves<S: Sink>(&self, king: u8, blockers: u64, sink: &mut S) {
        let [king_path, queen_path] = &CASTLE_PATHS[self.side.index()];
        // The rights and squares by a match on the side, constants in each arm: measured
        // (valgrind) fewer instructions per move generation than indexing by the side.
        let (king_side, queen_side, king_empty, queen_empty) = match self.side {
            Color::White => (
                WHITE_KING_SIDE,
                WHITE_QUEEN_SIDE,
                CASTLE_PATHS[0][0].empty,
                CASTLE_PATHS[0][1].empty,
            ),
            Color::Black => (
                BLACK_KING_SIDE,
                BLACK_QUEEN_SIDE,
                CASTLE_PATHS[1][0].empty,
                CASTLE_PATHS[1][1].empty,
            ),
        };
        if self.castling & king_side != 0 && blockers & king_empty == 0 {
            sink.special(king, king_path.king_to, CASTLE);
        }
        if self.castling & queen_side != 0 && blockers & queen_empty == 0 {
            sink.special(king, queen_path.king_to, CASTLE);
        }
    }
}

/// Expands piece moves into full moves, one per duck square.
pub(super) struct ListSink<'a> {
    moves: &'a mut Vec<Move>,
    /// Squares holding a piece before the move.
    occupied: u64,
    /// The duck's current square (not a candidate: it must move), or 0.
    duck: u64,
    /// The pawn a double push put next to the en-passant square (removed by e.p.).
    ep_victim: u8,
}

impl<'a> ListSink<'a> {
    pub(super) fn new(pos: &Duck, moves: &'a mut Vec<Move>) -> Self {
        ListSink {
            moves,
            occupied: pos.colors[0] | pos.colors[1],
            duck: pos.duck,
            ep_victim: en_passant_victim(pos.ep),
        }
    }

    /// Pushes the piece move with every duck square, given the piece squares after it.
    #[inline]
    fn push(&mut self, base: Move, occupied_after: u64) {
        let mut ducks = !(occupied_after | self.duck);
        self.moves.reserve(ducks.count_ones() as usize);
        while ducks != 0 {
            self.moves
                .push(base.with_extra(ducks.trailing_zeros() as u8));
            ducks &= ducks - 1;
        }
    }

    #[inline]
    fn simple(&mut self, from: u8, to: u8, kind: u8, promotion: u8) {
        let after = self.occupied & !bit(from) | bit(to);
        self.push(Move::new(from, to, 0, kind, promotion), after);
    }
}

impl Sink for ListSink<'_> {
    fn piece(&mut self, from: u8, mut targets: u64) {
        while targets != 0 {
            self.simple(from, targets.trailing_zeros() as u8, NORMAL, 0);
            targets &= targets - 1;
        }
    }

    fn pawns(&mut self, mut targets: u64, delta: i8, kind: u8) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            self.simple((to as i8 - delta) as u8, to, kind, 0);
            targets &= targets - 1;
        }
    }

    fn promotions(&mut self, mut targets: u64, delta: i8) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            for promotion in PROMOTIONS {
                self.simple((to as i8 - delta) as u8, to, NORMAL, promotion as u8);
            }
            targets &= targets - 1;
        }
    }

    fn special(&mut self, from: u8, to: u8, kind: u8) {
        let mut after = self.occupied & !bit(from) | bit(to);
        if kind == EN_PASSANT {
            after &= !bit(self.ep_victim);
        } else {
            let (rook_from, rook_to) = castle_rook(to);
            after = after & !bit(rook_from) | bit(rook_to);
        }
        self.push(Move::new(from, to, 0, kind, 0), after);
    }
}

/// Counts full moves without building them (see the module doc for the formula).
pub(super) struct CountSink {
    /// Duck squares after a non-capturing move: `64 - pieces - (duck on board)`.
    quiet: u64,
    enemy: u64,
    total: u64,
}

impl CountSink {
    pub(super) fn new(pos: &Duck) -> Self {
        let pieces = (pos.colors[0] | pos.colors[1]).count_ones() as u64;
        CountSink {
            quiet: 64 - pieces - pos.duck.count_ones() as u64,
            enemy: pos.colors[pos.side.flip().index()],
            total: 0,
        }
    }

    /// The number of moves sent so far.
    pub(super) fn total(&self) -> u64 {
        self.total
    }

    /// Moves to `targets`: each has `quiet` duck squares, one more if it captures.
    #[inline]
    fn add(&mut self, targets: u64) {
        self.total +=
            targets.count_ones() as u64 * self.quiet + (targets & self.enemy).count_ones() as u64;
    }
}

impl Sink for CountSink {
    #[inline]
    fn piece(&mut self, _from: u8, targets: u64) {
        self.add(targets);
    }

    #[inline]
    fn pawns(&mut self, targets: u64, _delta: i8, _kind: u8) {
        self.add(targets);
    }

    #[inline]
    fn promotions(&mut self, targets: u64, _delta: i8) {
        let before = self.total;
        self.add(targets);
        self.total += 3 * (self.total - before);
    }

    #[inline]
    fn special(&mut self, _from: u8, _to: u8, kind: u8) {
        self.total += self.quiet + u64::from(kind == EN_PASSANT);
    }
}
