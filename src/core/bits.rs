//! Iteration over the set bits of `u64` (7x7 and 8x8 boards) and `u128` (10x10) bitboards.

/// Shifts an 8x8 (or embedded 7x7) bitboard by `delta` squares: up for a positive delta,
/// down for a negative one. The caller masks off squares that wrap around a file edge.
#[inline(always)]
pub const fn shift(bits: u64, delta: i8) -> u64 {
    if delta >= 0 {
        bits << delta
    } else {
        bits >> -delta
    }
}

/// A bitboard word: `u64` or `u128`.
pub trait Bits: Copy + Eq {
    /// Iterates over the indices of the set bits, lowest first.
    fn squares(self) -> SquareIter<Self>;
}

/// Iterator over set-bit indices of a bitboard word.
pub struct SquareIter<B>(B);

/// The same [`Bits`] and iterator for each word type.
macro_rules! bitboard_word {
    ($($word:ty),*) => {$(
        impl Bits for $word {
            #[inline]
            fn squares(self) -> SquareIter<$word> {
                SquareIter(self)
            }
        }

        impl Iterator for SquareIter<$word> {
            type Item = u8;
            #[inline]
            fn next(&mut self) -> Option<u8> {
                if self.0 == 0 {
                    return None;
                }
                let sq = self.0.trailing_zeros() as u8;
                self.0 &= self.0 - 1;
                Some(sq)
            }
        }
    )*};
}

bitboard_word!(u64, u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_lowest_first() {
        let v: Vec<u8> = (0b1011_u64 | 1 << 63).squares().collect();
        assert_eq!(v, vec![0, 1, 3, 63]);
        let w: Vec<u8> = (1u128 << 99 | 1 << 64 | 2).squares().collect();
        assert_eq!(w, vec![1, 64, 99]);
    }
}
