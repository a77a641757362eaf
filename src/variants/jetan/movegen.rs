//! Legal move generation for jetan (RULES.md, section jetan).
//!
//! Every piece but the Princess moves to any square its paths reach that does not hold a
//! piece of its own side (there is no check). The Princess moves only to empty squares not
//! attacked by the enemy in the position after her move. The attack map is computed once
//! for all her destinations, with her start square emptied: that she then stands on the
//! destination does not matter, since a path to a square never passes through it. Only the
//! enemy pieces near enough to a still unattacked candidate square are looked at.

use super::tables::{bit, tables, tree_reach, Piece, Tables, BOARD, TREE_PIECES};
use super::Jetan;
use crate::core::{Bits, Color, Move};

/// Move kind of a normal move.
pub const NORMAL: u8 = 0;
/// Move kind of the Princess's escape.
pub const ESCAPE: u8 = 1;

/// The Princess's legal destinations: by a normal move, and by the escape.
struct PrincessMoves {
    from: u8,
    normal: u128,
    escape: u128,
}

/// The a-file.
const FILE_A: u128 = {
    let mut file = 0;
    let mut rank = 0;
    while rank < 10 {
        file |= 1 << (rank * 10);
        rank += 1;
    }
    file
};
/// The j-file.
const FILE_J: u128 = FILE_A << 9;

/// The squares the Panthans `panthans` of `color` step to, one bitboard per direction
/// (forward, both diagonals forward, both sideways), each with at most one bit per Panthan.
#[inline(always)]
fn panthan_steps(panthans: u128, color: Color) -> [u128; 5] {
    let left = panthans & !FILE_A;
    let right = panthans & !FILE_J;
    let sideways = [left >> 1, right << 1];
    match color {
        Color::White => [
            panthans << 10 & BOARD,
            left << 9 & BOARD,
            right << 11 & BOARD,
            sideways[0],
            sideways[1],
        ],
        Color::Black => [
            panthans >> 10,
            left >> 11,
            right >> 9,
            sideways[0],
            sideways[1],
        ],
    }
}

impl Jetan {
    /// Calls `visit(from, destinations)` for every piece of the side to move except the
    /// Princess and the Panthans.
    #[inline(always)]
    fn for_each_big_piece(&self, t: &Tables, mut visit: impl FnMut(u8, u128)) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let kind = |piece: Piece| self.by_kind[piece as usize] & own;
        for from in kind(Piece::Flier).squares() {
            visit(from, t.flier[from as usize] & !own);
        }
        for (slot, piece) in TREE_PIECES.into_iter().enumerate() {
            for from in kind(piece).squares() {
                visit(from, tree_reach(t, slot, from, occ) & !own);
            }
        }
    }

    /// The Princess's moves; `None` if the side to move has no Princess.
    fn princess_moves(&self, t: &Tables) -> Option<PrincessMoves> {
        let us = self.side;
        let ours = self.by_kind[Piece::Princess as usize] & self.by_color[us.index()];
        if ours == 0 {
            return None;
        }
        let from = ours.trailing_zeros() as u8;
        let occ = self.occupied();
        let geometric = t.princess[from as usize];
        let normal = geometric & !occ;
        let escape = if self.escape & (1 << us.index()) != 0 {
            BOARD & !occ & !geometric
        } else {
            0
        };
        let candidates = normal | escape;
        if candidates == 0 {
            return None;
        }
        let attacked = self.enemy_attacks(t, occ & !bit(from), candidates);
        Some(PrincessMoves {
            from,
            normal: normal & !attacked,
            escape: escape & !attacked,
        })
    }

    /// Whether the side to move may lose on the next move: an enemy piece can capture its
    /// Princess, or the enemy Chief its Chief. The search treats such a position as it treats
    /// check in chess: not quiet, so no pruning that assumes the side to move could pass.
    pub(super) fn royal_threatened(&self) -> bool {
        let t = tables();
        let us = self.side.index();
        let them = self.side.flip().index();
        let occ = self.occupied();
        let princess = self.by_kind[Piece::Princess as usize] & self.by_color[us];
        if princess != 0 && self.enemy_attacks(t, occ, princess) & princess != 0 {
            return true;
        }
        let chief = self.by_kind[Piece::Chief as usize] & self.by_color[us];
        let enemy_chief = self.by_kind[Piece::Chief as usize] & self.by_color[them];
        let slot = TREE_PIECES.iter().position(|&p| p == Piece::Chief);
        match (chief, enemy_chief.squares().next(), slot) {
            (0, _, _) | (_, None, _) | (_, _, None) => false,
            (_, Some(from), Some(slot)) => tree_reach(t, slot, from, occ) & chief != 0,
        }
    }

    /// The squares of `targets` attacked by the side not to move with the occupied squares
    /// `occ` (the enemy Princess attacks nothing). May stop early once every target is
    /// attacked.
    fn enemy_attacks(&self, t: &Tables, occ: u128, targets: u128) -> u128 {
        let them = self.side.flip();
        let kind = |piece: Piece| self.by_kind[piece as usize] & self.by_color[them.index()];
        // The pieces with fixed destination sets first: they cost one lookup each.
        let mut attacked = panthan_steps(kind(Piece::Panthan), them)
            .iter()
            .fold(0, |acc, step| acc | step);
        for sq in kind(Piece::Flier).squares() {
            attacked |= t.flier[sq as usize];
        }
        for (slot, piece) in TREE_PIECES.into_iter().enumerate() {
            for sq in kind(piece).squares() {
                let open = targets & !attacked;
                if open == 0 {
                    return attacked;
                }
                // Every piece moves at most three squares in each direction.
                if t.near3[sq as usize] & open != 0 {
                    attacked |= tree_reach(t, slot, sq, occ);
                }
            }
        }
        attacked
    }

    /// Fills `moves` with every legal move (nothing once the game has ended).
    pub(super) fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.status.is_some() || self.countdown_over() {
            return;
        }
        let t = tables();
        let own = self.by_color[self.side.index()];
        let panthans = self.by_kind[Piece::Panthan as usize] & own;
        for from in panthans.squares() {
            for to in (t.panthan[self.side.index()][from as usize] & !own).squares() {
                moves.push(Move::simple(from, to, NORMAL));
            }
        }
        self.for_each_big_piece(t, |from, dests| {
            for to in dests.squares() {
                moves.push(Move::simple(from, to, NORMAL));
            }
        });
        if let Some(p) = self.princess_moves(t) {
            for to in p.normal.squares() {
                moves.push(Move::simple(p.from, to, NORMAL));
            }
            for to in p.escape.squares() {
                moves.push(Move::simple(p.from, to, ESCAPE));
            }
        }
    }

    /// The number of legal moves, without building the list.
    pub(super) fn count_legal(&self) -> u64 {
        if self.status.is_some() || self.countdown_over() {
            return 0;
        }
        let t = tables();
        let own = self.by_color[self.side.index()];
        let panthans = self.by_kind[Piece::Panthan as usize] & own;
        // Panthan steps of all Panthans at once, one bitboard per direction.
        let mut count: u64 = panthan_steps(panthans, self.side)
            .iter()
            .map(|step| (step & !own).count_ones() as u64)
            .sum();
        self.for_each_big_piece(t, |_, dests| count += dests.count_ones() as u64);
        if let Some(p) = self.princess_moves(t) {
            count += (p.normal | p.escape).count_ones() as u64;
        }
        count
    }
}
