//! A small seeded random number generator (SplitMix64, the step of [`super::zobrist`]) for
//! the tools that must give the same output for the same seed: the fuzzer and soak, the
//! openings books and self-play data.

use super::zobrist::splitmix64;

/// SplitMix64: small, fast and well mixed; the same state gives the same sequence.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator that starts from `state` as it is.
    pub const fn from_state(state: u64) -> Rng {
        Rng(state)
    }

    /// A generator for stream `index` of run `seed` (inputs of a fuzz run, games of a soak):
    /// the two mixed, and one draw made so that neighbouring streams start far apart.
    pub fn new(seed: u64, index: u64) -> Rng {
        Rng::mixed(seed, index, 0x9E37_79B9_7F4A_7C15)
    }

    /// A generator for stream `index` of run `seed`, mixed with the odd constant `mix`.
    pub fn mixed(seed: u64, index: u64, mix: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(mix));
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix64(self.0);
        self.0 = state;
        value
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Puts `items` in a random order (Fisher-Yates, from the last element down).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_below_stays_in_range() {
        let mut a = Rng::new(7, 3);
        let mut b = Rng::new(7, 3);
        let mut c = Rng::new(7, 4);
        let first: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        assert_eq!(first, (0..8).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, (0..8).map(|_| c.next_u64()).collect::<Vec<_>>());
        assert!((0..1000).all(|_| a.below(7) < 7));
        assert_eq!(a.below(0), 0);
    }

    #[test]
    fn shuffle_permutes_and_follows_the_seed() {
        let shuffled = |seed| {
            let mut items: Vec<u32> = (0..50).collect();
            Rng::new(seed, 0).shuffle(&mut items);
            items
        };
        let mut sorted = shuffled(1);
        assert_ne!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(sorted, shuffled(1));
        assert_ne!(sorted, shuffled(2));
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        Rng::new(1, 0).shuffle::<u32>(&mut []);
    }
}
