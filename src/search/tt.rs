//! The transposition table shared by all search threads: lock-free and free of data races.
//! Each entry is two `AtomicU64` words, `check ^ data` and `data`, where `check` holds the
//! low 32 bits of the key and the static evaluation; a reader accepts an entry only if the
//! xor of what it read gives back its key bits, so a torn write by another thread is seen as
//! a miss (but for a 2^-32 chance), never as wrong data. The high bits of the key choose the
//! slot.

use crate::core::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact = 1,
    /// The score is at least this (fail high).
    Lower = 2,
    /// The score is at most this (fail low).
    Upper = 3,
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best (or refuting) move found, possibly `Move::NONE`.
    pub mv: Move,
    /// The score, mate scores relative to this node (see [`score_from_tt`]).
    pub score: i32,
    /// The depth searched.
    pub depth: i32,
    /// The bound.
    pub bound: Bound,
    /// The static evaluation of the position ([`NO_EVAL`]: none stored, e.g. in check).
    pub eval: i32,
}

/// The evaluation stored for a position that has none (in check).
pub const NO_EVAL: i32 = i16::MIN as i32;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table. Its size is fixed at creation; a new `Hash` size makes a new table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    age: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

// The data word: move 29 bits (all a `Move` uses), bound 2, age 5, depth + 16 in 8 bits,
// score 16 bits: 60 bits in all.
const MOVE_BITS: u64 = (1 << 29) - 1;

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least 1024 entries). Panics if the memory cannot
    /// be had; use [`TranspositionTable::try_new`] for a size that comes from outside.
    pub fn new(megabytes: usize) -> TranspositionTable {
        match TranspositionTable::try_new(megabytes) {
            Ok(table) => table,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `megabytes` MiB, or an error if the memory cannot be reserved (a
    /// `Hash` value larger than the machine: the protocol answers an error instead of
    /// aborting on a failed allocation).
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        let error = || format!("cannot allocate {megabytes} MiB for the hash table");
        let bytes = megabytes
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or_else(error)?;
        let entries = (bytes / std::mem::size_of::<Slot>()).max(1024);
        let mut slots = Vec::new();
        slots.try_reserve_exact(entries).map_err(|_| error())?;
        slots.resize_with(entries, Slot::default);
        Ok(TranspositionTable {
            slots,
            age: AtomicU64::new(0),
        })
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of earlier searches become replaceable first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        let index = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed) ^ data;
        if check as u32 != key as u32 || data == 0 {
            return None;
        }
        let bound = match (data >> 29) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_bits((data & MOVE_BITS) as u32),
            bound,
            depth: ((data >> 36) & 0xff) as i32 - 16,
            score: ((data >> 44) & 0xffff) as u16 as i16 as i32,
            eval: (check >> 32) as u16 as i16 as i32,
        })
    }

    /// Stores a search result with the position's static evaluation. An entry of another
    /// position is replaced if it is from an earlier search or not much deeper; an entry of
    /// the same position keeps its move when this result has none, and keeps a deeper result
    /// unless this one is exact.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let slot = self.slot(key);
        let age = self.age.load(Ordering::Relaxed) & 31;
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_check = slot.check.load(Ordering::Relaxed) ^ old_data;
        let same_position = old_data != 0 && old_check as u32 == key as u32;
        let old_age = (old_data >> 31) & 31;
        let old_depth = ((old_data >> 36) & 0xff) as i32 - 16;
        if old_data != 0 && old_age == age {
            let margin = if same_position { 3 } else { 2 };
            if old_depth > depth + margin && bound != Bound::Exact {
                return;
            }
        }
        // Keep the move of an earlier search of this position if this one found none.
        let mv = if mv == Move::NONE && same_position {
            Move::from_bits((old_data & MOVE_BITS) as u32)
        } else {
            mv
        };
        let depth = (depth + 16).clamp(0, 255) as u64;
        let score = score.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16 as u16 as u64;
        let eval = eval.clamp(NO_EVAL, i16::MAX as i32) as i16 as u16 as u64;
        let data = (mv.bits() as u64 & MOVE_BITS)
            | (bound as u64) << 29
            | age << 31
            | depth << 36
            | score << 44;
        let check = (key as u32 as u64) | eval << 32;
        slot.check.store(check ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 31;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 31) & 31 == age
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

/// Converts a score found `ply` plies from the root into one relative to the node, so a
/// mate stored at one depth reads correctly at another.
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= super::MATE_BOUND {
        score + ply
    } else if score <= -super::MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= super::MATE_BOUND {
        score - ply
    } else if score <= -super::MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Hash` the machine cannot hold is an error, not an abort (it aborted before).
    #[test]
    fn impossible_sizes_are_an_error() {
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        assert!(TranspositionTable::try_new(usize::MAX >> 20).is_err());
        assert!(TranspositionTable::try_new(1).is_ok());
    }

    #[test]
    fn stores_and_reads_back() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(12, 99, 45, 3, 2);
        tt.store(0xDEAD_BEEF_1234_5678, mv, -1234, 87, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (mv, -1234, 87, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEF_1234_5679).is_none());
        tt.store(0x42, Move::NONE, 29_000, NO_EVAL, -1, Bound::Exact);
        let e = tt.probe(0x42).unwrap();
        assert_eq!((e.score, e.eval, e.depth), (29_000, NO_EVAL, -1));
    }

    #[test]
    fn a_shallow_result_does_not_replace_a_deep_one_of_this_search() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(1, 2, 0, 0, 0);
        tt.store(7, mv, 50, 10, 12, Bound::Lower);
        tt.store(7, Move::NONE, 60, 10, 2, Bound::Upper);
        let e = tt.probe(7).unwrap();
        assert_eq!((e.depth, e.score, e.mv), (12, 50, mv));
        // An exact result always goes in; an entry of an earlier search is replaceable.
        tt.store(7, Move::NONE, 70, 10, 2, Bound::Exact);
        assert_eq!(tt.probe(7).unwrap().depth, 2);
        tt.store(7, mv, 50, 10, 12, Bound::Lower);
        tt.new_search();
        tt.store(7, Move::NONE, 60, 10, 2, Bound::Upper);
        let e = tt.probe(7).unwrap();
        assert_eq!((e.depth, e.mv), (2, mv));
    }

    #[test]
    fn mate_scores_shift_with_ply() {
        let s = crate::search::MATE - 5;
        assert_eq!(score_from_tt(score_to_tt(s, 3), 3), s);
        assert_eq!(score_to_tt(s, 3), crate::search::MATE - 2);
    }
}
