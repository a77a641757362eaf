//! Evaluations written once as a weighted sum of terms, used two ways: to play, where each
//! term adds its weight times its count ([`Score`]), and to tune, where the same code
//! collects the counts ([`Features`]) for Texel-style fitting of the weights to game results.
//!
//! A game's `add_terms` reports every term from White's point of view (White's count minus
//! Black's), so that one weight serves both colours and the tuner can fit a sigmoid of the
//! sum to the result for White.

use crate::search::SearchGame;

/// Where an evaluation's terms go.
pub trait Terms {
    /// Adds `count` occurrences of term number `term`.
    fn add(&mut self, term: usize, count: i32);
}

/// Sums weight times count: the evaluation as played. The weights are a fixed-size array, so
/// constant term indices need no bounds check.
pub struct Score<const N: usize> {
    weights: &'static [i32; N],
    /// The sum so far, from White's point of view.
    pub total: i32,
}

impl<const N: usize> Score<N> {
    /// A zero sum over `weights`.
    pub fn new(weights: &'static [i32; N]) -> Self {
        Score { weights, total: 0 }
    }
}

impl<const N: usize> Terms for Score<N> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.total += self.weights[term] * count;
    }
}

/// The counts of every term: one position's features for the tuner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features(pub Vec<i32>);

impl Features {
    /// All counts zero, for `terms` terms.
    pub fn new(terms: usize) -> Self {
        Features(vec![0; terms])
    }
}

impl Terms for Features {
    fn add(&mut self, term: usize, count: i32) {
        self.0[term] += count;
    }
}

/// A game whose evaluation is a weighted sum of terms, so that its weights can be tuned from
/// game results. Its `SearchGame::evaluate` must equal [`Tunable::white_score`] from the side
/// to move's point of view (the tests of each game check it).
pub trait Tunable: SearchGame {
    /// One short name per term, in weight order (the tuner writes them beside the weights).
    const TERM_NAMES: &'static [&'static str];

    /// The weights in play, one per term.
    fn weights() -> &'static [i32];

    /// Adds every term of the position, from White's point of view.
    fn add_terms<T: Terms>(&self, terms: &mut T);

    /// The position's features (term counts) for tuning.
    fn features(&self) -> Features {
        let mut features = Features::new(Self::TERM_NAMES.len());
        self.add_terms(&mut features);
        features
    }

    /// The evaluation from White's point of view recomputed from the features: must equal
    /// the played evaluation (it is the tuner's model).
    fn white_score(&self) -> i32 {
        self.features()
            .0
            .iter()
            .zip(Self::weights())
            .map(|(count, weight)| count * weight)
            .sum()
    }
}
