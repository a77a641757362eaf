//! Legal move generation. The usual check and pin logic is exact for chaturanga except in
//! three rare situations, which are settled by making the move and applying RULES.md's
//! steps (1)(2)(3) literally ([`Chaturanga::legal_after`]):
//!
//! - the opponent holds the leap right and our king stands a knight's move from its king:
//!   the leap "checks" us unless our move checks the opponent first (step 2), so every move
//!   of such a position is tested;
//! - a king move to a knight's move from an opponent king that holds the right (same
//!   reason);
//! - a king capture on our first rank next to an enemy pawn: the capture may give the
//!   opponent a promotion and with it a pawn attack on that square.
//!
//! Captures by other pieces that would give an enemy pawn next to our king a promotion
//! onto the king's square are simply illegal ([`Chaturanga::latent_captures`]).

use super::{
    Chaturanga, CHARIOT, COUNSELLOR, ELEPHANT, FILE_A, FILE_H, HORSE, KIND_LEAP, KING_TYPE,
    LAST_RANK, PAWN, PROMOTION_TYPE, START_COUNT,
};
use crate::core::attacks8::{self, ALFIL, FERZ, KING, KNIGHT, PAWN_ATTACKS};
use crate::core::{Bits, Color, Game, Move};

/// Where generated moves go: a list, or a counter for perft's last ply.
pub(super) trait Sink {
    /// Non-promoting moves of the piece on `from` to every square of `targets`.
    fn moves(&mut self, from: u8, targets: u64, kind: u8);
    /// Pawn moves of `color` to `targets`, each from `to - delta`; promotions on the last
    /// rank.
    fn pawn_moves(&mut self, targets: u64, delta: i8, color: Color);
    /// One move.
    fn one(&mut self, mv: Move);
}

impl Sink for Vec<Move> {
    #[inline]
    fn moves(&mut self, from: u8, targets: u64, kind: u8) {
        for to in targets.squares() {
            self.push(Move::simple(from, to, kind));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: u64, delta: i8, color: Color) {
        let last = LAST_RANK[color.index()];
        for to in targets.squares() {
            let from = (to as i8 - delta) as u8;
            let promotion = if last & (1 << to) != 0 {
                PROMOTION_TYPE[color.index()][(to % 8) as usize]
            } else {
                PAWN
            };
            self.push(Move::new(from, to, 0, 0, promotion));
        }
    }

    #[inline]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them (a pawn has one move per target square, promotion
/// included, since the promotion piece is fixed by the file).
pub(super) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn moves(&mut self, _from: u8, targets: u64, _kind: u8) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline]
    fn pawn_moves(&mut self, targets: u64, _delta: i8, _color: Color) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline]
    fn one(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

impl Chaturanga {
    /// The pieces of `by` attacking `sq` (leap excepted), with `by`'s pawns allowed onto
    /// the squares of `reach` only ([`Chaturanga::pawn_reach`]).
    #[inline]
    pub(super) fn attackers_with_reach(&self, sq: u8, by: Color, occ: u64, reach: u64) -> u64 {
        let s = sq as usize;
        let mut attackers = (KNIGHT[s] & self.pieces[HORSE as usize])
            | (ALFIL[s] & self.pieces[ELEPHANT as usize])
            | (FERZ[s] & self.pieces[COUNSELLOR as usize])
            | (KING[s] & self.pieces[KING_TYPE as usize])
            | (attacks8::rook(sq, occ) & self.pieces[CHARIOT as usize]);
        if reach & (1 << sq) != 0 {
            attackers |= PAWN_ATTACKS[by.flip().index()][s] & self.pieces[PAWN as usize];
        }
        attackers & self.colors[by.index()]
    }

    /// Whether `mv` (legal) puts the opponent in check: the moved piece from its
    /// destination (the king by its leap while it holds the right), or a chariot behind the
    /// square it leaves. A leap or a promotion, which change rights or counts, is played out.
    pub(super) fn gives_check(&self, mv: Move) -> bool {
        if mv.kind() == KIND_LEAP || mv.promotion() != 0 {
            let mut child = *self;
            child.play(mv);
            return child.in_check();
        }
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let ksq = self.king_square(us.flip());
        let k = ksq as usize;
        let occ = self.occupied() & !(1u64 << from) | 1u64 << to;
        let straight = attacks8::rook(ksq, occ);
        let direct = match self.board[from as usize] % 6 {
            PAWN if self.pawn_reach(us) & (1u64 << ksq) != 0 => PAWN_ATTACKS[us.flip().index()][k],
            PAWN => 0,
            HORSE => KNIGHT[k],
            ELEPHANT => ALFIL[k],
            COUNSELLOR => FERZ[k],
            CHARIOT => straight,
            _ if self.has_leap(us) => KING[k] | KNIGHT[k],
            _ => KING[k],
        };
        let chariots = self.of(us, CHARIOT) & !(1u64 << from);
        direct & (1u64 << to) != 0 || straight & chariots != 0
    }

    /// Whether `mv` is legal, judged by making it and applying RULES.md (1)(2)(3): `play`
    /// does (1) and (2), and the mover's king must then not be attacked.
    pub(super) fn legal_after(&self, mv: Move) -> bool {
        let us = self.side;
        let mut child = *self;
        child.play(mv);
        !child.attacked(child.king_square(us), us.flip())
    }

    /// Every legal move into `sink`.
    pub(super) fn generate_into<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king_square(us);
        let oksq = self.king_square(them);
        let them_leap = self.has_leap(them);
        if them_leap && KNIGHT[oksq as usize] & (1 << ksq) != 0 {
            self.generate_by_testing(sink);
            return;
        }
        let occ = self.occupied();
        let own = self.colors[us.index()];
        let them_reach = self.pawn_reach(them);
        let checkers = self.attackers_with_reach(ksq, them, occ, them_reach);
        self.king_moves(sink, ksq, oksq, them_reach);
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king may move
        }
        let mut mask = !own;
        if checkers != 0 {
            // Only a chariot's check can be blocked; an elephant jumps over the square
            // between it and the king.
            mask = checkers;
            if checkers & self.pieces[CHARIOT as usize] != 0 {
                mask |= attacks8::between(ksq, checkers.trailing_zeros() as u8);
            }
        }
        mask &= !self.latent_captures(ksq, them, them_reach);
        let pinned = self.pinned(ksq, occ);
        // Pins are along ranks and files: a pinned horse, elephant or counsellor never
        // stays on its line.
        let free = own & !pinned;
        for sq in (self.pieces[HORSE as usize] & free).squares() {
            sink.moves(sq, KNIGHT[sq as usize] & mask, 0);
        }
        for sq in (self.pieces[ELEPHANT as usize] & free).squares() {
            sink.moves(sq, ALFIL[sq as usize] & mask, 0);
        }
        for sq in (self.pieces[COUNSELLOR as usize] & free).squares() {
            sink.moves(sq, FERZ[sq as usize] & mask, 0);
        }
        for sq in self.of(us, CHARIOT).squares() {
            let mut targets = attacks8::rook(sq, occ) & mask;
            if pinned & (1 << sq) != 0 {
                targets &= attacks8::line(ksq, sq);
            }
            sink.moves(sq, targets, 0);
        }
        self.pawn_moves(sink, mask, pinned, ksq);
    }

    /// Pawn steps and captures, filtered by `mask` and the promotion rule.
    #[inline]
    fn pawn_moves<S: Sink>(&self, sink: &mut S, mask: u64, pinned: u64, ksq: u8) {
        let us = self.side;
        let pawns = self.of(us, PAWN);
        if pawns == 0 {
            return;
        }
        let allowed = mask & self.pawn_reach(us);
        let empty = !self.occupied() & allowed;
        let enemy = self.colors[us.flip().index()] & allowed;
        let free = pawns & !pinned;
        let (push, left, right) = if us == Color::White {
            (8, 7, 9)
        } else {
            (-8, -9, -7)
        };
        let shift = |bb: u64, delta: i8| {
            if delta > 0 {
                bb << delta
            } else {
                bb >> -delta
            }
        };
        sink.pawn_moves(shift(free, push) & empty, push, us);
        sink.pawn_moves(shift(free & !FILE_A, left) & enemy, left, us);
        sink.pawn_moves(shift(free & !FILE_H, right) & enemy, right, us);
        for sq in (pawns & pinned).squares() {
            // A pinned pawn may only move along its pin line: forward on a file pin.
            let line = attacks8::line(ksq, sq);
            sink.pawn_moves(shift(1 << sq, push) & empty & line, push, us);
        }
    }

    /// King steps and, with the right, leaps to squares the opponent does not attack.
    #[inline]
    fn king_moves<S: Sink>(&self, sink: &mut S, ksq: u8, oksq: u8, them_reach: u64) {
        let us = self.side;
        let them = us.flip();
        let own = self.colors[us.index()];
        let occ_without_king = self.occupied() ^ (1 << ksq);
        // Squares where the opponent's leap or a promotion made possible by this capture
        // could attack the king: decided by making the move.
        let mut doubtful = 0;
        if self.has_leap(them) {
            doubtful |= KNIGHT[oksq as usize];
        }
        let leaps = if self.has_leap(us) {
            KNIGHT[ksq as usize]
        } else {
            0
        };
        let reachable = KING[ksq as usize] | leaps;
        let captures_on_first_rank =
            LAST_RANK[them.index()] & self.colors[them.index()] & reachable & !them_reach;
        for sq in captures_on_first_rank.squares() {
            if PAWN_ATTACKS[us.index()][sq as usize] & self.of(them, PAWN) != 0 {
                doubtful |= 1 << sq;
            }
        }
        for (targets, kind) in [(KING[ksq as usize], 0), (leaps, KIND_LEAP)] {
            let mut safe = 0;
            for to in (targets & !own).squares() {
                if self.attackers_with_reach(to, them, occ_without_king, them_reach) != 0 {
                    continue;
                }
                if doubtful & (1 << to) != 0 {
                    let mv = Move::simple(ksq, to, kind);
                    if self.legal_after(mv) {
                        sink.one(mv);
                    }
                } else {
                    safe |= 1 << to;
                }
            }
            sink.moves(ksq, safe, kind);
        }
    }

    /// Enemy pieces that may not be captured (except by the king, handled apart): taking
    /// one would leave the opponent fewer of its type than at the start, so an enemy pawn
    /// next to our king on our first rank could then promote there, attacking the king.
    #[inline]
    fn latent_captures(&self, ksq: u8, them: Color, them_reach: u64) -> u64 {
        let bit = 1u64 << ksq;
        if LAST_RANK[them.index()] & bit == 0 || them_reach & bit != 0 {
            return 0;
        }
        let kind = PROMOTION_TYPE[them.index()][(ksq % 8) as usize];
        if kind == PAWN
            || PAWN_ATTACKS[them.flip().index()][ksq as usize] & self.of(them, PAWN) == 0
            || self.of(them, kind).count_ones() != START_COUNT[kind as usize]
        {
            return 0;
        }
        self.of(them, kind)
    }

    /// Our pieces pinned to our king by enemy chariots (the only sliders).
    #[inline]
    fn pinned(&self, ksq: u8, occ: u64) -> u64 {
        let us = self.side;
        let them = us.flip();
        let own = self.colors[us.index()];
        let snipers = attacks8::rook(ksq, self.colors[them.index()]) & self.of(them, CHARIOT);
        let mut pinned = 0;
        for sniper in snipers.squares() {
            let blockers = attacks8::between(ksq, sniper) & occ;
            if blockers & blockers.wrapping_sub(1) == 0 {
                pinned |= blockers & own;
            }
        }
        pinned
    }

    /// Every move the pieces could make ignoring their own king's safety, each kept if
    /// [`Chaturanga::legal_after`] allows it.
    fn generate_by_testing<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let own = self.colors[us.index()];
        let occ = self.occupied();
        let mut pseudo: Vec<Move> = Vec::with_capacity(64);
        for sq in own.squares() {
            let s = sq as usize;
            let targets = match self.board[s] % 6 {
                PAWN => {
                    let (forward, delta) = if us == Color::White {
                        ((1u64 << s) << 8, 8)
                    } else {
                        ((1u64 << s) >> 8, -8)
                    };
                    let reach = self.pawn_reach(us);
                    pseudo.pawn_moves(forward & !occ & reach, delta, us);
                    let captures = PAWN_ATTACKS[us.index()][s] & self.colors[us.flip().index()];
                    for to in (captures & reach).squares() {
                        pseudo.pawn_moves(1 << to, to as i8 - sq as i8, us);
                    }
                    continue;
                }
                HORSE => KNIGHT[s],
                ELEPHANT => ALFIL[s],
                COUNSELLOR => FERZ[s],
                CHARIOT => attacks8::rook(sq, occ),
                _ => {
                    if self.has_leap(us) {
                        pseudo.moves(sq, KNIGHT[s] & !own, KIND_LEAP);
                    }
                    KING[s]
                }
            };
            pseudo.moves(sq, targets & !own, 0);
        }
        for mv in pseudo {
            if self.legal_after(mv) {
                sink.one(mv);
            }
        }
    }
}
