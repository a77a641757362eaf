//! Zobrist keys, generated at compile time from a fixed seed so hashes are the same on every
//! run and every machine.

use super::Bits;

/// splitmix64: a small, well-mixed generator, enough for hash keys.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// `N` keys from `seed`. Each game uses its own seed so keys do not repeat across games.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix64(state);
        state = next;
        out[i] = value;
        i += 1;
    }
    out
}

/// A game's Zobrist keys: first one for each colour, piece type and square, the piece of
/// `color` and `kind` on `sq` at `(color * KINDS + kind) * SQUARES + sq`; then, from
/// [`Keys::EXTRA`] on, the keys of the rest of the game's state (side to move, rights, en
/// passant ...), in the order the game defines. `N` counts them all.
pub struct Keys<const KINDS: usize, const SQUARES: usize, const N: usize>([u64; N]);

impl<const KINDS: usize, const SQUARES: usize, const N: usize> Keys<KINDS, SQUARES, N> {
    /// The index of the first key after the piece keys.
    pub const EXTRA: usize = 2 * KINDS * SQUARES;

    /// The table of [`keys`] from `seed`: the keys, and so every hash, stay those the game
    /// always had.
    pub const fn new(seed: u64) -> Self {
        assert!(N >= Self::EXTRA, "too few keys for the pieces");
        Keys(keys(seed))
    }

    /// The key of a piece of colour index `color` and type `kind` on `sq`.
    #[inline(always)]
    pub const fn piece(&self, color: usize, kind: usize, sq: u8) -> u64 {
        self.coded(color * KINDS + kind, sq)
    }

    /// The key of the piece with code `colour * KINDS + type` (a mailbox's code) on `sq`.
    #[inline(always)]
    pub const fn coded(&self, code: usize, sq: u8) -> u64 {
        self.0[code * SQUARES + sq as usize]
    }

    /// Key number `index` of the game's other state, counted from [`Keys::EXTRA`].
    #[inline(always)]
    pub const fn extra(&self, index: usize) -> u64 {
        self.0[Self::EXTRA + index]
    }

    /// The keys of every piece combined, from the squares of each type (both colours) and
    /// of each colour: the piece part of a hash computed from scratch.
    pub fn pieces<B: Bits>(&self, by_kind: &[B; KINDS], by_color: &[B; 2]) -> u64 {
        let mut hash = 0;
        for (color, &own) in by_color.iter().enumerate() {
            for (kind, &squares) in by_kind.iter().enumerate() {
                for sq in (squares & own).squares() {
                    hash ^= self.piece(color, kind, sq);
                }
            }
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct_and_nonzero() {
        let k: [u64; 2048] = super::keys(7);
        let mut sorted = k.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), k.len());
        assert!(k.iter().all(|&x| x != 0));
    }

    #[test]
    fn table_lays_out_pieces_then_the_rest() {
        const TABLE: super::Keys<2, 3, 14> = super::Keys::new(5);
        let k: [u64; 14] = super::keys(5);
        assert_eq!(TABLE.piece(1, 1, 2), k[(2 + 1) * 3 + 2]);
        assert_eq!(TABLE.coded(3, 2), k[11]);
        assert_eq!(TABLE.extra(1), k[13]);
        // White's type 0 on square 0, Black's type 1 on square 2.
        assert_eq!(TABLE.pieces(&[1u64, 4], &[1, 4]), k[0] ^ k[11]);
    }
}
