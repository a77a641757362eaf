//! How good a move was, from the evaluations before and after it — the scale lichess uses,
//! so that its readers see figures they know:
//!
//! - **expected score** of a centipawn evaluation: `1 / (1 + exp(-0.00368208 * cp))`, with
//!   `cp` clamped to ±1000 (a side that mates scores 1, a side being mated 0);
//! - a move's **loss**: the mover's expected score before the move (best play) minus after
//!   it, never below 0; **`?!`** (inaccuracy) from a loss of 0.05, **`?`** (mistake) from
//!   0.10, **`??`** (blunder) from 0.15 — lichess's 0.1, 0.2, 0.3 on its -1..1 scale;
//! - a move's **accuracy** (0-100): `103.1668 * exp(-4.354 * loss) - 3.1669`, clamped;
//! - a side's **accuracy** in a game: the mean of the arithmetic and the harmonic mean of its
//!   moves' accuracies (each at least 1 in the harmonic mean), so that one blunder weighs
//!   more than in a plain average.

use crate::tools::analyze::Score;

/// Centipawns beyond which an evaluation counts as this many: a won position is won.
const CP_CLAMP: i32 = 1000;

/// The expected score (0 = loss, 1 = win) of the side whose evaluation `score` is.
pub fn expected_score(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
        Score::Cp(cp) => {
            let cp = f64::from(cp.clamp(-CP_CLAMP, CP_CLAMP));
            1.0 / (1.0 + (-0.003_682_08 * cp).exp())
        }
    }
}

/// The centipawns a score counts as in an average loss: mates as the clamp.
pub fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Mate(n) if n > 0 => CP_CLAMP,
        Score::Mate(_) => -CP_CLAMP,
        Score::Cp(cp) => cp.clamp(-CP_CLAMP, CP_CLAMP),
    }
}

/// What a move that lost expected score is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!`: a loss of at least 0.05.
    Inaccuracy,
    /// `?`: a loss of at least 0.10.
    Mistake,
    /// `??`: a loss of at least 0.15.
    Blunder,
}

impl Judgement {
    /// All three, mildest first.
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The judgement of a move that lost `loss` expected score, if any.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        if loss >= 0.15 {
            Some(Judgement::Blunder)
        } else if loss >= 0.10 {
            Some(Judgement::Mistake)
        } else if loss >= 0.05 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The move suffix: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The word, for summaries.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// The accuracy (0-100) of a move that lost `loss` expected score.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A side's accuracy (0-100) in a game from its moves' losses; 100 for no moves.
pub fn accuracy(losses: &[f64]) -> f64 {
    if losses.is_empty() {
        return 100.0;
    }
    let accuracies: Vec<f64> = losses.iter().map(|&l| move_accuracy(l)).collect();
    let n = accuracies.len() as f64;
    let arithmetic = accuracies.iter().sum::<f64>() / n;
    let harmonic = n / accuracies.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    (arithmetic + harmonic) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_score_is_even_at_zero_and_saturates() {
        assert!((expected_score(Score::Cp(0)) - 0.5).abs() < 1e-12);
        // lichess: +100 cp is about 59 % for the side to move.
        assert!((expected_score(Score::Cp(100)) - 0.591).abs() < 0.001);
        assert!(
            (expected_score(Score::Cp(-100)) + expected_score(Score::Cp(100)) - 1.0).abs() < 1e-12
        );
        assert_eq!(
            expected_score(Score::Cp(5000)),
            expected_score(Score::Cp(1000))
        );
        assert_eq!(expected_score(Score::Mate(3)), 1.0);
        assert_eq!(expected_score(Score::Mate(-1)), 0.0);
        assert_eq!(clamped_cp(Score::Mate(-2)), -1000);
        assert_eq!(clamped_cp(Score::Cp(37)), 37);
    }

    #[test]
    fn judgements_follow_the_thresholds() {
        assert_eq!(Judgement::of_loss(0.0), None);
        assert_eq!(Judgement::of_loss(0.049), None);
        assert_eq!(Judgement::of_loss(0.05), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.12), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(0.15), Some(Judgement::Blunder));
        assert_eq!(Judgement::of_loss(1.0), Some(Judgement::Blunder));
        let symbols: Vec<&str> = Judgement::ALL.iter().map(|j| j.symbol()).collect();
        assert_eq!(symbols, ["?!", "?", "??"]);
    }

    #[test]
    fn accuracy_is_100_without_loss_and_a_blunder_costs_more_than_its_share() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert_eq!(move_accuracy(1.0), 0.0);
        assert!(move_accuracy(0.1) < move_accuracy(0.05));
        assert_eq!(accuracy(&[]), 100.0);
        assert!((accuracy(&[0.0; 10]) - 100.0).abs() < 0.01);
        let one_blunder = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5];
        let plain_mean = one_blunder.iter().map(|&l| move_accuracy(l)).sum::<f64>() / 10.0;
        assert!(accuracy(&one_blunder) < plain_mean - 5.0);
    }
}
