//! Fully legal move generation for chess, Stockfish style: the checkers and the pinned pieces
//! are found first, so every generated move is legal without playing it. Only the rare
//! en-passant capture is tested by building the board after it (it removes two pieces from
//! one rank, which no pin ray describes).
//!
//! One generator serves both listing and counting: it hands sets of destination squares to a
//! [`Sink`]. The counting sink only takes popcounts, which makes perft's last ply cheap.

use super::{en_passant_capturers, en_passant_victim, Chess, CASTLE, DOUBLE_PUSH, EN_PASSANT};
use super::{BISHOP, KING, KNIGHT, PAWN, PROMOTION, QUEEN, ROOK};
use crate::core::attacks8::{self, between, line};
use crate::core::bits::shift;
use crate::core::{Bits, Move};
use crate::variants::chesslike::{CASTLE_PATHS, DOUBLE_PUSH_RANK, FILE_A, FILE_H, FORWARD};
use crate::variants::chesslike::{PROMOTIONS, PROMOTION_RANK, WHITE_KING_SIDE};

/// Receives the legal moves as destination sets.
pub(super) trait Sink {
    /// Moves of the piece on `from` to every square of `targets`.
    fn piece(&mut self, from: u8, targets: u64, kind: u8);
    /// Pawn moves to every square of `targets`, each coming from `to - delta`.
    fn pawns(&mut self, targets: u64, delta: i8, kind: u8);
    /// Promotions (four pieces each) to every square of `targets`, from `to - delta`.
    fn promotions(&mut self, targets: u64, delta: i8);
}

/// Counts moves without writing them.
pub(super) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: u8, targets: u64, _kind: u8) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, _delta: i8, _kind: u8) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, _delta: i8) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
}

/// Writes moves into a list.
pub(super) struct Lister<'a>(pub &'a mut Vec<Move>);

impl Sink for Lister<'_> {
    #[inline(always)]
    fn piece(&mut self, from: u8, targets: u64, kind: u8) {
        for to in targets.squares() {
            self.0.push(Move::simple(from, to, kind));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, delta: i8, kind: u8) {
        for to in targets.squares() {
            self.0
                .push(Move::simple(to.wrapping_sub(delta as u8), to, kind));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, delta: i8) {
        for to in targets.squares() {
            let from = to.wrapping_sub(delta as u8);
            for piece in PROMOTIONS {
                self.0.push(Move::new(from, to, 0, PROMOTION, piece as u8));
            }
        }
    }
}

/// Writes only the tactical moves (captures, en passant, promotions; `Chess::is_tactical`),
/// in the order [`Lister`] writes them: the quiescence search's list without its quiet moves.
pub(super) struct TacticalLister<'a> {
    pub moves: &'a mut Vec<Move>,
    /// The squares of the side not to move.
    pub enemy: u64,
}

impl Sink for TacticalLister<'_> {
    #[inline(always)]
    fn piece(&mut self, from: u8, targets: u64, kind: u8) {
        let targets = match kind {
            EN_PASSANT => targets,
            CASTLE => 0,
            _ => targets & self.enemy,
        };
        for to in targets.squares() {
            self.moves.push(Move::simple(from, to, kind));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, delta: i8, kind: u8) {
        // Pushes (and double pushes) go to empty squares: only captures remain.
        Lister(self.moves).pawns(targets & self.enemy, delta, kind);
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, delta: i8) {
        Lister(self.moves).promotions(targets, delta);
    }
}

impl Chess {
    /// The pieces of `them` attacking `sq` with occupancy `occupied`.
    #[inline(always)]
    pub(super) fn attackers(&self, sq: u8, them: usize, occupied: u64) -> u64 {
        let enemy = self.colors[them];
        let p = &self.pieces;
        let s = sq as usize & 63;
        ((attacks8::PAWN_ATTACKS[them ^ 1][s] & p[PAWN])
            | (attacks8::KNIGHT[s] & p[KNIGHT])
            | (attacks8::KING[s] & p[KING])
            | (attacks8::bishop(sq, occupied) & (p[BISHOP] | p[QUEEN]))
            | (attacks8::rook(sq, occupied) & (p[ROOK] | p[QUEEN])))
            & enemy
    }

    /// Whether `them` attacks `sq` with occupancy `occupied`; the cheap tables first.
    #[inline(always)]
    fn attacked(&self, sq: u8, them: usize, occupied: u64) -> bool {
        let enemy = self.colors[them];
        let p = &self.pieces;
        let s = sq as usize & 63;
        ((attacks8::PAWN_ATTACKS[them ^ 1][s] & p[PAWN])
            | (attacks8::KNIGHT[s] & p[KNIGHT])
            | (attacks8::KING[s] & p[KING]))
            & enemy
            != 0
            || attacks8::bishop(sq, occupied) & (p[BISHOP] | p[QUEEN]) & enemy != 0
            || attacks8::rook(sq, occupied) & (p[ROOK] | p[QUEEN]) & enemy != 0
    }

    /// The side to move's king square.
    #[inline(always)]
    pub(super) fn king_square(&self, side: usize) -> u8 {
        (self.pieces[KING] & self.colors[side]).trailing_zeros() as u8 & 63
    }

    /// Whether the side to move is in check.
    pub(super) fn in_check(&self) -> bool {
        let us = self.side.index();
        let occupied = self.colors[0] | self.colors[1];
        self.attackers(self.king_square(us), us ^ 1, occupied) != 0
    }

    /// Whether `mv` (legal) puts the opponent in check: the moved piece from its
    /// destination, or a slider behind the square it leaves. Castling, en passant and
    /// promotion, which move or remove a second piece, are played out.
    pub(super) fn gives_check(&self, mv: Move) -> bool {
        let kind = mv.kind();
        if matches!(kind, EN_PASSANT | CASTLE | PROMOTION) {
            let mut child = self.clone();
            crate::core::Game::play(&mut child, mv);
            return child.in_check();
        }
        let us = self.side.index();
        let them = us ^ 1;
        let (from, to) = (mv.from() & 63, mv.to() & 63);
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let ksq = self.king_square(them);
        let k = ksq as usize;
        let occupied = (self.colors[0] | self.colors[1]) & !from_bit | to_bit;
        let diagonal = attacks8::bishop(ksq, occupied);
        let straight = attacks8::rook(ksq, occupied);
        let direct = match super::see::MOVER[kind as usize & 15] {
            PAWN => attacks8::PAWN_ATTACKS[them][k],
            KNIGHT => attacks8::KNIGHT[k],
            BISHOP => diagonal,
            ROOK => straight,
            QUEEN => diagonal | straight,
            _ => 0,
        };
        let p = &self.pieces;
        let others = self.colors[us] & !from_bit;
        direct & to_bit != 0
            || diagonal & (p[BISHOP] | p[QUEEN]) & others != 0
            || straight & (p[ROOK] | p[QUEEN]) & others != 0
    }

    /// Whether the side to move may capture en passant with the pawn on `from` (the `ep`
    /// square is set): the board after the capture must leave its king unattacked.
    pub(super) fn en_passant_legal(&self, from: u8) -> bool {
        let us = self.side.index();
        let them = us ^ 1;
        let to = self.ep & 63;
        let captured = 1u64 << en_passant_victim(to);
        let occupied = (self.colors[0] | self.colors[1]) ^ (1u64 << from) ^ captured | 1u64 << to;
        let ksq = self.king_square(us);
        let enemy = self.colors[them] & !captured;
        let p = &self.pieces;
        let k = ksq as usize;
        ((attacks8::PAWN_ATTACKS[us][k] & p[PAWN])
            | (attacks8::KNIGHT[k] & p[KNIGHT])
            | (attacks8::bishop(ksq, occupied) & (p[BISHOP] | p[QUEEN]))
            | (attacks8::rook(ksq, occupied) & (p[ROOK] | p[QUEEN])))
            & enemy
            == 0
    }

    /// The side to move's pawns that could capture on the `ep` square, legal or not.
    #[inline(always)]
    pub(super) fn en_passant_candidates(&self) -> u64 {
        en_passant_capturers(&self.pieces, &self.colors, self.side.index(), self.ep)
    }

    /// Hands every legal move to `sink`.
    #[inline(always)]
    pub(super) fn legal_moves<S: Sink>(&self, sink: &mut S) {
        if self.side.index() == 0 {
            self.legal_moves_for::<S, 0>(sink);
        } else {
            self.legal_moves_for::<S, 1>(sink);
        }
    }

    #[inline(always)]
    fn legal_moves_for<S: Sink, const US: usize>(&self, sink: &mut S) {
        let them = US ^ 1;
        let own = self.colors[US];
        let enemy = self.colors[them];
        let occupied = own | enemy;
        let p = &self.pieces;
        let ksq = self.king_square(US);
        let checkers = self.attackers(ksq, them, occupied);

        // King steps: the king itself must not shield the square it moves to.
        let without_king = occupied ^ (1u64 << ksq);
        let mut king_targets = 0;
        for to in (attacks8::KING[ksq as usize] & !own).squares() {
            if !self.attacked(to, them, without_king) {
                king_targets |= 1u64 << to;
            }
        }
        sink.piece(ksq, king_targets, KING as u8);
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king may move
        }
        let target = if checkers != 0 {
            between(ksq, checkers.trailing_zeros() as u8) | checkers
        } else {
            !own
        };

        // Pinned pieces: own pieces alone between the king and an enemy slider.
        let mut pinned = 0;
        let snipers = (attacks8::rook(ksq, enemy) & (p[ROOK] | p[QUEEN])
            | attacks8::bishop(ksq, enemy) & (p[BISHOP] | p[QUEEN]))
            & enemy;
        for sniper in snipers.squares() {
            let blockers = between(ksq, sniper) & occupied;
            if blockers & blockers.wrapping_sub(1) == 0 {
                pinned |= blockers & own;
            }
        }

        self.pawn_moves::<S, US>(sink, target, pinned, ksq);

        for from in (p[KNIGHT] & own & !pinned).squares() {
            sink.piece(from, attacks8::KNIGHT[from as usize] & target, KNIGHT as u8);
        }
        let pin_ray = |from: u8| {
            if pinned & (1u64 << from) != 0 {
                line(ksq, from)
            } else {
                !0
            }
        };
        for from in (p[BISHOP] & own).squares() {
            let to = attacks8::bishop(from, occupied) & target & pin_ray(from);
            sink.piece(from, to, BISHOP as u8);
        }
        for from in (p[ROOK] & own).squares() {
            let to = attacks8::rook(from, occupied) & target & pin_ray(from);
            sink.piece(from, to, ROOK as u8);
        }
        for from in (p[QUEEN] & own).squares() {
            let to = attacks8::queen(from, occupied) & target & pin_ray(from);
            sink.piece(from, to, QUEEN as u8);
        }

        if checkers == 0 {
            self.castlings::<S, US>(sink, occupied);
        }
    }

    #[inline(always)]
    fn pawn_moves<S: Sink, const US: usize>(
        &self,
        sink: &mut S,
        target: u64,
        pinned: u64,
        ksq: u8,
    ) {
        let them = US ^ 1;
        let forward = FORWARD[US];
        let (left, right): (i8, i8) = if US == 0 { (7, 9) } else { (-9, -7) };
        let own = self.colors[US];
        let enemy = self.colors[them];
        let empty = !(own | enemy);
        let pawns = self.pieces[PAWN] & own;
        let last = PROMOTION_RANK[US];

        let free = pawns & !pinned;
        let single = shift(free, forward) & empty;
        let double = shift(single & DOUBLE_PUSH_RANK[US], forward) & empty & target;
        let single = single & target;
        let captures_left = shift(free & !FILE_A, left) & enemy & target;
        let captures_right = shift(free & !FILE_H, right) & enemy & target;
        sink.pawns(single & !last, forward, PAWN as u8);
        sink.pawns(double, 2 * forward, DOUBLE_PUSH);
        sink.pawns(captures_left & !last, left, PAWN as u8);
        sink.pawns(captures_right & !last, right, PAWN as u8);
        if (single | captures_left | captures_right) & last != 0 {
            sink.promotions(single & last, forward);
            sink.promotions(captures_left & last, left);
            sink.promotions(captures_right & last, right);
        }

        // A pinned pawn moves only along its pin ray (rare: one at a time).
        for from in (pawns & pinned).squares() {
            let ray = line(ksq, from) & target;
            let bit = 1u64 << from;
            let single = shift(bit, forward) & empty;
            let double = shift(single & DOUBLE_PUSH_RANK[US], forward) & empty & ray;
            let captures = attacks8::PAWN_ATTACKS[US][from as usize] & enemy & ray;
            for (set, delta) in [
                (single & ray, forward),
                (captures & (shift(bit, left) & !FILE_H), left),
                (captures & (shift(bit, right) & !FILE_A), right),
            ] {
                sink.pawns(set & !last, delta, PAWN as u8);
                sink.promotions(set & last, delta);
            }
            sink.pawns(double, 2 * forward, DOUBLE_PUSH);
        }

        if self.ep_capturable {
            for from in self.en_passant_candidates().squares() {
                if self.en_passant_legal(from) {
                    sink.piece(from, 1u64 << self.ep, EN_PASSANT);
                }
            }
        }
    }

    #[inline(always)]
    fn castlings<S: Sink, const US: usize>(&self, sink: &mut S, occupied: u64) {
        let rights = self.castling >> (2 * US) & 3;
        if rights == 0 {
            return;
        }
        let ksq = if US == 0 { 4 } else { 60 };
        for (wing, path) in CASTLE_PATHS[US].iter().enumerate() {
            if rights & (WHITE_KING_SIDE << wing) != 0
                && occupied & path.empty == 0
                && !path
                    .safe
                    .squares()
                    .any(|sq| self.attacked(sq, US ^ 1, occupied))
            {
                sink.piece(ksq, 1u64 << path.king_to, CASTLE);
            }
        }
    }
}
