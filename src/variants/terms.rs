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

/// The evaluation as played: the weighted sum of `position`'s terms over `weights`, from the
/// side to move's point of view. Each game's `SearchGame::evaluate`.
#[inline(always)]
pub fn side_to_move_score<G: Tunable, const N: usize>(
    position: &G,
    weights: &'static [i32; N],
) -> i32 {
    let mut score = Score::new(weights);
    position.add_terms(&mut score);
    match position.side_to_move() {
        crate::core::Color::White => score.total,
        crate::core::Color::Black => -score.total,
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

    /// Terms the tuner keeps at their value: those that stand for something besides the
    /// position's worth (e.g. a game-over value that only orders captures). None by default.
    const FIXED: &'static [usize] = &[];

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

/// The evaluation of `position` term by term, from White's point of view: each term's
/// weight times its count, the squares of one table summed under the table's name
/// (`pawn_a8` to `pawn_h1` as `pawn squares`), in the order of the terms, terms worth
/// nothing left out. The parts add up to [`Tunable::white_score`], the evaluation.
pub fn term_contributions<G: Tunable>(position: &G) -> Vec<(String, i32)> {
    let mut parts: Vec<(String, i32)> = Vec::new();
    let features = position.features();
    for ((name, count), weight) in G::TERM_NAMES.iter().zip(&features.0).zip(G::weights()) {
        let part = match table_of(name) {
            Some(table) => format!("{table} squares"),
            None => name.to_string(),
        };
        match parts.iter_mut().find(|(p, _)| *p == part) {
            Some((_, sum)) => *sum += count * weight,
            None => parts.push((part, count * weight)),
        }
    }
    parts.retain(|&(_, sum)| sum != 0);
    parts
}

/// The table of a square's term name (`pawn` of `pawn_e4`, `king_mid` of `king_mid_a8`), as
/// [`term_names!`](crate::term_names) writes them; `None` for any other name.
fn table_of(name: &str) -> Option<&str> {
    let (table, square) = name.rsplit_once('_')?;
    let mut chars = square.chars();
    let (file, rank) = (chars.next()?, chars.next()?);
    (chars.next().is_none() && ('a'..='h').contains(&file) && ('1'..='8').contains(&rank))
        .then_some(table)
}

/// The names of a game's terms as one constant array, for [`Tunable::TERM_NAMES`]: the
/// `before` names, then for each table prefix one name per square of the board seen from
/// White (`<prefix>_a8`, `<prefix>_b8`, ..., `<prefix>_h1`: the order of the tables of
/// `pst8`, rank 8 first; on the 7x7 board `_a7` to `_g1`), then the `after` names.
#[macro_export]
macro_rules! term_names {
    (board8, [$($before:literal),* $(,)?], [$($p:literal),* $(,)?], [$($after:literal),* $(,)?]) => {
        $crate::term_names!(@tables [$($before,)*] [$($p)*] [8 7 6 5 4 3 2 1]
            ["a" "b" "c" "d" "e" "f" "g" "h"] [$($after,)*])
    };
    (board7, [$($before:literal),* $(,)?], [$($p:literal),* $(,)?], [$($after:literal),* $(,)?]) => {
        $crate::term_names!(@tables [$($before,)*] [$($p)*] [7 6 5 4 3 2 1]
            ["a" "b" "c" "d" "e" "f" "g"] [$($after,)*])
    };
    // The rest are steps of the expansion. A `macro_rules` repetition cannot pair every
    // prefix with every square, so the names are built one prefix and one rank at a time
    // in the first group. Every table named: the array.
    (@tables [$($name:expr,)*] [] $ranks:tt $files:tt [$($after:expr,)*]) => {
        [$($name,)* $($after,)*]
    };
    // The next prefix: its ranks, top first.
    (@tables $names:tt [$p:literal $($rest:literal)*] $ranks:tt $files:tt $after:tt) => {
        $crate::term_names!(@ranks $names $p $ranks $files [$($rest)*] $ranks $after)
    };
    // The next rank of prefix `$p`: a name per file.
    (@ranks [$($name:expr,)*] $p:literal [$r:literal $($more:literal)*] [$($f:literal)*]
        $rest:tt $ranks:tt $after:tt) => {
        $crate::term_names!(@ranks [$($name,)* $(concat!($p, "_", $f, $r),)*] $p [$($more)*]
            [$($f)*] $rest $ranks $after)
    };
    // Every rank of `$p` named: the next prefix.
    (@ranks $names:tt $p:literal [] $files:tt $rest:tt $ranks:tt $after:tt) => {
        $crate::term_names!(@tables $names $rest $ranks $files $after)
    };
}

/// Asserts that the `eval` command's parts of `position` add up to its evaluation.
#[cfg(test)]
pub(crate) fn check_parts_add_up<G: Tunable>(position: &G) {
    let parts: i32 = term_contributions(position).iter().map(|p| p.1).sum();
    assert_eq!(parts, position.white_score(), "{}", position.fen());
}

/// Plays `games` games of up to 120 random plies (a fixed seed) and checks in every position
/// that the played evaluation equals [`Tunable::white_score`] seen from the side to move, and
/// that the colour-flipped position scores the opposite; returns the number of positions
/// checked. For each game's tests; the `eval` command's parts are checked too.
#[cfg(test)]
pub(crate) fn check_white_score<G: Tunable>(games: u64) -> usize {
    use crate::core::Color;
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = move |n: usize| {
        // xorshift64*: a small fixed sequence, so a failure replays.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    let mut checked = 0;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut position = G::from_fen(G::START_FEN).expect("start FEN");
        for _ in 0..120 {
            let white = position.white_score();
            let expected = match position.side_to_move() {
                Color::White => white,
                Color::Black => -white,
            };
            assert_eq!(position.evaluate(), expected, "{}", position.fen());
            assert_eq!(position.features().0.len(), G::weights().len());
            check_parts_add_up(&position);
            // The same evaluation for either colour: the game's own colour symmetry.
            assert_eq!(
                position.color_flipped().white_score(),
                -white,
                "{}",
                position.fen()
            );
            checked += 1;
            position.generate(&mut moves);
            if moves.is_empty() || position.ended().is_some() {
                break;
            }
            position.play(moves[next(moves.len())]);
        }
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::variants::Chess;

    #[test]
    fn a_square_term_names_its_table() {
        assert_eq!(table_of("pawn_e4"), Some("pawn"));
        assert_eq!(table_of("king_mid_a8"), Some("king_mid"));
        assert_eq!(table_of("king_mid"), None);
        assert_eq!(table_of("material_panthan"), None);
        assert_eq!(table_of("pawn_i4"), None);
        assert_eq!(table_of("pawn"), None);
    }

    #[test]
    fn the_parts_of_a_chess_evaluation_keep_material_and_tables_apart() {
        // White is a knight up; its pawns and pieces stand on their tables' squares.
        let fen = "4k3/pppp4/8/8/8/2N5/PPPP4/4K3 w - - 0 1";
        let parts = term_contributions(&Chess::from_fen(fen).unwrap());
        let part = |name: &str| parts.iter().find(|p| p.0 == name).map(|p| p.1);
        assert_eq!(part("knight"), Some(<Chess as Tunable>::weights()[1]));
        assert!(part("knight squares").is_some());
        assert_eq!(part("pawn"), None, "four pawns each: no material part");
        assert!(parts.iter().all(|p| p.1 != 0));
    }
}
