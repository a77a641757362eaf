//! The swap list of the static exchange evaluations that compute the exchange's value
//! (jetan, chaturanga, skak, and the tests' reference SEE): what each capture on the square
//! wins, minimaxed backwards so that either side stops where capturing does it no good.

/// The gains of an exchange on one square, `N` entries at most (the first move included).
pub struct SwapList<const N: usize> {
    /// `gain[d]`: what the side making capture `d` has won if the exchange stops after it.
    gain: [i32; N],
    /// The captures after the first move so far.
    depth: usize,
}

impl<const N: usize> SwapList<N> {
    /// The list after the first move, which won `first`.
    #[inline(always)]
    pub fn new(first: i32) -> Self {
        let mut gain = [0; N];
        gain[0] = first;
        SwapList { gain, depth: 0 }
    }

    /// Whether there is no room for another capture.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.depth + 1 >= N
    }

    /// The next capture, which takes a piece worth `value` (a promotion's gain included).
    #[inline(always)]
    pub fn capture(&mut self, value: i32) {
        self.depth += 1;
        self.gain[self.depth] = value - self.gain[self.depth - 1];
    }

    /// The exchange's value for the side that made the first move: each side, from the last
    /// capture back, stops if capturing would do it no good.
    #[inline(always)]
    pub fn value(mut self) -> i32 {
        while self.depth > 0 {
            self.gain[self.depth - 1] = self.gain[self.depth - 1].min(-self.gain[self.depth]);
            self.depth -= 1;
        }
        self.gain[0]
    }
}

/// The piece types `0..N` ordered by `values` from the least valuable to the most, equal
/// values in type order: the order in which an exchange tries its capturers (sorted when
/// compiling, so that tuned values keep it right).
pub const fn least_valuable_first<const N: usize>(values: &[i32; N]) -> [usize; N] {
    let mut order = [0; N];
    let mut i = 0;
    while i < N {
        order[i] = i;
        i += 1;
    }
    // Insertion sort: stable, and fine in a constant.
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && values[order[j - 1]] > values[order[j]] {
            order.swap(j - 1, j);
            j -= 1;
        }
        i += 1;
    }
    order
}
