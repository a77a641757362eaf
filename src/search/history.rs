//! What one search thread learns about moves and keeps from one `go` to the next: the
//! history tables that order quiet moves and captures, the counter moves and the killers.
//! `ucinewgame` (and a change of game) clears them. Every table is indexed through
//! [`SearchGame::moved_piece`] and the move's squares, so the search still knows no rules.
//!
//! [`SearchGame::moved_piece`]: super::SearchGame::moved_piece

use super::{MAX_PLY, PIECE_SLOTS};
use crate::core::Move;

/// Squares a move field can name (7 bits).
const SQUARES: usize = 128;
/// (piece, destination) pairs: the index of the continuation tables.
pub const PIECE_TO: usize = PIECE_SLOTS * SQUARES;
/// The bound every history entry stays within (the gravity formula keeps it there).
pub const HISTORY_MAX: i32 = 16_384;

/// A (piece, destination) pair, the index of a move in the continuation tables.
#[inline]
pub fn piece_to(piece: usize, mv: Move) -> usize {
    (piece % PIECE_SLOTS) * SQUARES + mv.to() as usize
}

/// Moves `entry` toward `bonus` (positive or negative) and keeps it within
/// [`HISTORY_MAX`]: a large entry gains less from a bonus and loses more from a malus.
#[inline]
pub fn update(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

/// The bonus for a move that caused a cut-off at `depth` (and the malus for the moves
/// tried before it).
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (170 * depth - 80).clamp(0, 1800)
}

/// One thread's move statistics.
pub struct ThreadData {
    /// Quiet moves by side, from and to square (butterfly history).
    main: Vec<i16>,
    /// Captures by moving piece and destination.
    capture: Vec<i16>,
    /// Quiet moves by (piece, to) of the move one or two plies before and (piece, to) of
    /// this one: continuation history.
    continuation: Vec<i16>,
    /// Duck squares (the move's extra square) by side: which duck placements cut off.
    extra: Vec<i16>,
    /// The quiet move that refuted the previous move, by that move's (piece, to).
    counter: Vec<Move>,
    /// Two quiet moves per ply that caused a cut-off.
    pub killers: Vec<[Move; 2]>,
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            main: vec![0; 2 * SQUARES * SQUARES],
            capture: vec![0; PIECE_TO],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            extra: vec![0; 2 * SQUARES],
            counter: vec![Move::NONE; PIECE_TO],
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
        }
    }
}

impl ThreadData {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.main.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.extra.fill(0);
        self.counter.fill(Move::NONE);
        self.killers.fill([Move::NONE; 2]);
    }

    #[inline]
    fn main_index(side: usize, mv: Move) -> usize {
        (side & 1) * SQUARES * SQUARES + mv.from() as usize * SQUARES + mv.to() as usize
    }

    #[inline]
    fn extra_index(side: usize, mv: Move) -> usize {
        (side & 1) * SQUARES + mv.extra() as usize
    }

    /// The butterfly history of a quiet move plus its duck-square history.
    #[inline]
    pub fn main_score(&self, side: usize, mv: Move) -> i32 {
        i32::from(self.main[Self::main_index(side, mv)])
            + i32::from(self.extra[Self::extra_index(side, mv)]) / 2
    }

    /// The continuation history of a move at (piece, to) `current` after the move at
    /// `previous` (`None`: no such move, e.g. a null move or the root).
    #[inline]
    pub fn continuation_score(&self, previous: Option<usize>, current: usize) -> i32 {
        previous.map_or(0, |p| i32::from(self.continuation[p * PIECE_TO + current]))
    }

    /// The capture history of a capture at (piece, to).
    #[inline]
    pub fn capture_score(&self, current: usize) -> i32 {
        i32::from(self.capture[current])
    }

    /// The counter move recorded against the move at `previous`.
    #[inline]
    pub fn counter_move(&self, previous: Option<usize>) -> Move {
        previous.map_or(Move::NONE, |p| self.counter[p])
    }

    /// Rewards (positive `bonus`) or punishes a quiet move: butterfly, duck square and the
    /// continuation tables of the moves `previous` plies back.
    pub fn update_quiet(
        &mut self,
        side: usize,
        mv: Move,
        current: usize,
        previous: &[Option<usize>],
        bonus: i32,
    ) {
        update(&mut self.main[Self::main_index(side, mv)], bonus);
        update(&mut self.extra[Self::extra_index(side, mv)], bonus);
        for p in previous.iter().flatten() {
            update(&mut self.continuation[p * PIECE_TO + current], bonus);
        }
    }

    /// Rewards or punishes a capture at (piece, to) `current`.
    pub fn update_capture(&mut self, current: usize, bonus: i32) {
        update(&mut self.capture[current], bonus);
    }

    /// Records `mv` as the refutation of the move at `previous`, and as a killer at `ply`.
    pub fn record_refutation(&mut self, ply: usize, previous: Option<usize>, mv: Move) {
        let killers = &mut self.killers[ply.min(MAX_PLY + 1)];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        if let Some(p) = previous {
            self.counter[p] = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_within_the_bound() {
        let mut entry = 0i16;
        for _ in 0..1000 {
            update(&mut entry, 1800);
        }
        assert!(i32::from(entry) <= HISTORY_MAX && entry > 15_000, "{entry}");
        for _ in 0..1000 {
            update(&mut entry, -1800);
        }
        assert!(
            i32::from(entry) >= -HISTORY_MAX && entry < -15_000,
            "{entry}"
        );
    }

    #[test]
    fn clear_forgets_every_table() {
        let mut data = ThreadData::default();
        let mv = Move::simple(12, 28, 0);
        let current = piece_to(3, mv);
        data.update_quiet(0, mv, current, &[Some(5), Some(7)], 500);
        data.update_capture(current, 500);
        data.record_refutation(4, Some(5), mv);
        assert!(data.main_score(0, mv) > 0);
        assert!(data.continuation_score(Some(5), current) > 0);
        assert_eq!(data.counter_move(Some(5)), mv);
        data.clear();
        assert_eq!(data.main_score(0, mv), 0);
        assert_eq!(data.continuation_score(Some(7), current), 0);
        assert_eq!(data.capture_score(current), 0);
        assert_eq!(data.counter_move(Some(5)), Move::NONE);
        assert_eq!(data.killers[4], [Move::NONE; 2]);
    }
}
