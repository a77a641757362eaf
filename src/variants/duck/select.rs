//! The staged choice of duck squares: which (piece move, duck square) pairs the search tries.
//!
//! A turn is a piece move times every empty square for the duck: hundreds to thousands of
//! moves. The search does not try them all. For each piece move, [`Duck::staged_moves`]
//! offers only the duck squares that matter, found on the board after the piece move:
//! 1. squares that block an enemy slider's attack on our king, on one of our pieces worth
//!    more than the attacker, or on an undefended one (the duck is the only shield in a game
//!    without check; after a capture it blocks the recapture);
//! 2. empty squares next to the enemy king (they take its flight squares);
//! 3. the square the piece just left (it closes the line the piece opened).
//!
//! Quiescence search gives each capture only its most urgent duck square: the king's shield,
//! else a shield against taking the capturing piece back, else the vacated square.
//! A capture of the king needs no choice: one duck square stands for all. Every piece move
//! keeps at least one duck square, so the selection is never empty when moves exist, and
//! every move in it is legal.

use super::eval::VALUES;
use super::movegen::Sink;
use super::{Duck, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::core::attacks8::{
    between, bishop, rook, KING as KING_STEPS, KNIGHT as KNIGHT_STEPS, PAWN_ATTACKS,
};
use crate::core::{Bits, Color, Game, Move};

/// Collects each piece move once, with no duck square yet.
struct PieceMoves<'a>(&'a mut Vec<Move>);

impl Sink for PieceMoves<'_> {
    fn piece(&mut self, from: u8, targets: u64) {
        self.0.extend(
            targets
                .squares()
                .map(|to| Move::new(from, to, 0, super::NORMAL, 0)),
        );
    }

    fn pawns(&mut self, targets: u64, delta: i8, kind: u8) {
        self.0.extend(
            targets
                .squares()
                .map(|to| Move::new((to as i8 - delta) as u8, to, 0, kind, 0)),
        );
    }

    fn promotions(&mut self, targets: u64, delta: i8) {
        for to in targets.squares() {
            for promotion in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.0.push(Move::new(
                    (to as i8 - delta) as u8,
                    to,
                    0,
                    super::NORMAL,
                    promotion as u8,
                ));
            }
        }
    }

    fn special(&mut self, from: u8, to: u8, kind: u8) {
        self.0.push(Move::new(from, to, 0, kind, 0));
    }
}

impl Duck {
    pub(super) fn king_square(&self, color: Color) -> Option<u8> {
        (self.pieces[KING] & self.colors[color.index()])
            .squares()
            .next()
    }

    /// Enemy sliders (of `attacker_side`) attacking `target` through `occupied`.
    pub(super) fn slider_attackers(&self, target: u8, attacker_side: Color, occupied: u64) -> u64 {
        let theirs = self.colors[attacker_side.index()];
        let queens = self.pieces[QUEEN];
        (bishop(target, occupied) & (self.pieces[BISHOP] | queens) & theirs)
            | (rook(target, occupied) & (self.pieces[ROOK] | queens) & theirs)
    }

    /// All pieces of `attacker_side` attacking `target`.
    pub(super) fn attackers(&self, target: u8, attacker_side: Color, occupied: u64) -> u64 {
        let theirs = self.colors[attacker_side.index()];
        let t = target as usize;
        self.slider_attackers(target, attacker_side, occupied)
            | (KNIGHT_STEPS[t] & self.pieces[KNIGHT] & theirs)
            | (KING_STEPS[t] & self.pieces[KING] & theirs)
            | (PAWN_ATTACKS[attacker_side.flip().index()][t] & self.pieces[PAWN] & theirs)
    }

    /// The duck squares worth trying after a piece move, on `after` (the position after the
    /// piece move, with no duck), for the side `mover` that made it, the piece now on
    /// `arrived`. With `best_only`, the single most urgent one: a shield for the king if it
    /// needs one, else a shield for the piece that moved if a slider can take it for profit
    /// (after a capture: the duck blocks the recapture), else the vacated square.
    fn duck_candidates(
        after: &Duck,
        mover: Color,
        old_duck: u64,
        vacated: u8,
        arrived: u8,
        best_only: bool,
    ) -> u64 {
        let occupied = after.colors[0] | after.colors[1];
        let empty = !occupied & !old_duck;
        let lowest = |set: u64| set & set.wrapping_neg();
        let enemy = mover.flip();
        let Some(enemy_king) = after.king_square(enemy) else {
            return lowest(empty); // the king was captured: any one square
        };
        let own = after.colors[mover.index()];
        let mut king_shield = 0;
        let mut piece_shield = 0;
        let mut moved_shield = 0;
        // Pieces (and the pawn that moved) a slider attacks: shield the king always, another
        // piece when the attacker is cheaper or nothing defends it. A slider's attack on an
        // adjacent square cannot be shielded (nothing lies between).
        for target in (own & (!after.pieces[PAWN] | 1 << arrived)).squares() {
            let value = after.piece_at(target).map_or(0, |k| VALUES[k]);
            let mut defended = None;
            for attacker in after.slider_attackers(target, enemy, occupied).squares() {
                let line = between(target, attacker);
                if value == VALUES[KING] {
                    king_shield |= line;
                    continue;
                }
                let attacker_value = after.piece_at(attacker).map_or(0, |k| VALUES[k]);
                let weak = attacker_value < value
                    || !*defended
                        .get_or_insert_with(|| after.attackers(target, mover, occupied) != 0);
                if weak {
                    piece_shield |= line;
                    if target == arrived {
                        moved_shield |= line;
                    }
                }
            }
        }
        let vacated = 1u64 << vacated & empty;
        if best_only {
            let urgent = lowest(king_shield & empty);
            let moved = lowest(moved_shield & empty);
            return if urgent != 0 {
                urgent
            } else if moved != 0 {
                moved
            } else if vacated != 0 {
                vacated
            } else {
                lowest(empty)
            };
        }
        let chosen =
            (king_shield | piece_shield | KING_STEPS[enemy_king as usize]) & empty | vacated;
        if chosen == 0 {
            lowest(empty)
        } else {
            chosen
        }
    }

    /// Every piece move with its duck squares: all candidates, or only the best one.
    pub(super) fn staged_moves(
        &self,
        moves: &mut Vec<Move>,
        keep: impl Fn(Move) -> bool,
        best_only: bool,
    ) -> bool {
        moves.clear();
        if self.king_captured() {
            return false;
        }
        let mut pieces = Vec::with_capacity(64);
        self.piece_moves(&mut PieceMoves(&mut pieces));
        for &base in pieces.iter().filter(|&&m| keep(m)) {
            // Park the duck on the vacated square to play the piece move, then lift it.
            let mut after = *self;
            after.play(base.with_extra(base.from()));
            after.duck = 0;
            let squares = Duck::duck_candidates(
                &after,
                self.side,
                self.duck,
                base.from(),
                base.to(),
                best_only,
            );
            moves.extend(squares.squares().map(|sq| base.with_extra(sq)));
        }
        !pieces.is_empty()
    }
}
