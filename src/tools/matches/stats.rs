//! The statistics of a match: the Elo difference from a score, its 95% error bar, and the
//! sequential probability ratio test (SPRT) that stops a match as soon as the games say
//! "at least elo1" or "at most elo0" with the error rates asked for.
//!
//! The SPRT is the normal approximation of the generalised SPRT (as in fishtest and
//! cutechess-cli's newer versions): with the per-game score variance `v` of the games so far,
//! `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v)`, where `s0`, `s1` are the expected scores of
//! the two hypotheses under the logistic Elo model and `s` the observed mean score.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score of the first engine (1 a win, ½ a draw), `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The variance of one game's score around the mean, `None` before any game.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }

    /// The Elo difference and the half-width of its 95% confidence interval. Scores of
    /// exactly 0 or 1 have no finite Elo: `None`.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let elo = elo_from_score(s)?;
        let n = self.games() as f64;
        let stderr = (self.variance()? / n).sqrt();
        // 1.959964: the two-sided 95% quantile of the normal distribution.
        let low = elo_from_score((s - 1.959_964 * stderr).max(1e-9));
        let high = elo_from_score((s + 1.959_964 * stderr).min(1.0 - 1e-9));
        let margin = match (low, high) {
            (Some(low), Some(high)) => (high - low) / 2.0,
            _ => f64::INFINITY,
        };
        Some((elo, margin))
    }
}

/// The Elo difference that gives the expected score `score` (logistic model).
pub fn elo_from_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The expected score of a player `elo` points stronger (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis (H0).
    pub elo0: f64,
    /// Elo of the alternative hypothesis (H1).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 is true.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 is true.
    pub beta: f64,
}

/// What an SPRT says after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the first engine is at most `elo0` stronger.
    H0,
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05` (every key needed once, any order).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut values = [None; 4];
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, not '{word}'"))?;
            let i = KEYS
                .iter()
                .position(|&k| k == key)
                .ok_or_else(|| format!("--sprt: unknown key '{key}' (elo0, elo1, alpha, beta)"))?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: '{key}' needs a number, not '{value}'"))?;
            values[i] = Some(number);
        }
        let get = |i: usize| values[i].ok_or_else(|| format!("--sprt: '{}' is missing", KEYS[i]));
        let sprt = Sprt {
            elo0: get(0)?,
            elo1: get(1)?,
            alpha: get(2)?,
            beta: get(3)?,
        };
        if sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".to_string());
        }
        for p in [sprt.alpha, sprt.beta] {
            if !(p > 0.0 && p < 0.5) {
                return Err("--sprt: alpha and beta must lie between 0 and 0.5".to_string());
            }
        }
        Ok(sprt)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these games (0 when it cannot be
    /// judged yet: no games, or no variance because every game had the same score).
    /// When every game had the same score the variance is 0 and says nothing; then the
    /// mean and variance are taken with half a win and half a loss added, so a one-sided
    /// match (all wins against a random mover) still reaches a decision.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let (Some(mut s), Some(mut v)) = (tally.score(), tally.variance()) else {
            return 0.0;
        };
        let n = tally.games() as f64;
        if v <= 0.0 {
            let (w, d, l) = (
                tally.wins as f64 + 0.5,
                tally.draws as f64,
                tally.losses as f64 + 0.5,
            );
            s = (w + 0.5 * d) / (n + 1.0);
            v = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / (n + 1.0);
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v)
    }

    /// The verdict for these games.
    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.5).unwrap(), 0.0, 1e-12));
        // 75 %: -400 log10(1/3) = 190.848...
        assert!(close(elo_from_score(0.75).unwrap(), 190.848_501_887, 1e-6));
        assert!(close(elo_from_score(0.25).unwrap(), -190.848_501_887, 1e-6));
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(0.0), None);
        assert!(close(score_from_elo(190.848_501_887), 0.75, 1e-9));
    }

    #[test]
    fn error_bar_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7; variance = (60*.09 + 20*.04 + 20*.49)/100
        // = 0.16; stderr = 0.04; interval 0.7 -+ 0.0783986.
        let tally = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(tally.score().unwrap(), 0.7, 1e-12));
        assert!(close(tally.variance().unwrap(), 0.16, 1e-12));
        let (elo, margin) = tally.elo().unwrap();
        assert!(close(elo, 147.190_714, 1e-5), "{elo}");
        let low = elo_from_score(0.7 - 0.078_398_56).unwrap();
        let high = elo_from_score(0.7 + 0.078_398_56).unwrap();
        assert!(close(margin, (high - low) / 2.0, 1e-4), "{margin}");
        assert!(margin > 50.0 && margin < 70.0, "{margin}");
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt::parse(&[
            "elo0=0".to_string(),
            "elo1=10".to_string(),
            "alpha=0.05".to_string(),
            "beta=0.05".to_string(),
        ])
        .unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -(19f64.ln()), 1e-12));
        assert!(close(upper, 19f64.ln(), 1e-12));
        assert!(close(upper, 2.944_438_979, 1e-9));
        // A score exactly between the hypotheses carries no evidence.
        let s0 = score_from_elo(0.0);
        let s1 = score_from_elo(10.0);
        assert!(close(s0, 0.5, 1e-12) && close(s1, 0.514_387_9, 1e-6));
        // By hand: 500 wins, 250 draws, 250 losses: s = 0.625, v = 0.171875;
        // LLR = 1000 * (s1 - s0) * (1.25 - s0 - s1) / (2 v) = 9.861...
        let tally = Tally {
            wins: 500,
            draws: 250,
            losses: 250,
        };
        let expected = 1000.0 * (s1 - s0) * (1.25 - s0 - s1) / (2.0 * 0.171_875);
        assert!(close(sprt.llr(&tally), expected, 1e-9));
        assert!(close(expected, 9.861, 1e-2), "{expected}");
        // A fifth of the games, the same proportions: a fifth of the evidence, undecided.
        let fewer = Tally {
            wins: 100,
            draws: 50,
            losses: 50,
        };
        assert!(close(sprt.llr(&fewer), expected / 5.0, 1e-9));
        assert_eq!(sprt.verdict(&fewer), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&tally), SprtVerdict::H1);
        let mirrored = Tally {
            wins: 250,
            draws: 250,
            losses: 500,
        };
        assert_eq!(sprt.verdict(&mirrored), SprtVerdict::H0);
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert_eq!(sprt.verdict(&even), SprtVerdict::Continue);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
        // All wins: no variance, but the regularised LLR grows with the games and decides.
        let wins = |n| Tally {
            wins: n,
            draws: 0,
            losses: 0,
        };
        assert!(sprt.llr(&wins(10)) > 0.0);
        assert!(sprt.llr(&wins(20)) > sprt.llr(&wins(10)));
        assert_eq!(sprt.verdict(&wins(5)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&wins(40)), SprtVerdict::H1);
        let losses = Tally {
            wins: 0,
            draws: 0,
            losses: 40,
        };
        assert_eq!(sprt.verdict(&losses), SprtVerdict::H0);
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(Sprt::parse(&words("elo0=0 elo1=10 alpha=0.05")).is_err());
        assert!(Sprt::parse(&words("elo0=10 elo1=0 alpha=0.05 beta=0.05")).is_err());
        assert!(Sprt::parse(&words("elo0=0 elo1=10 alpha=0.7 beta=0.05")).is_err());
        assert!(Sprt::parse(&words("elo0=0 elo1=x alpha=0.05 beta=0.05")).is_err());
        assert!(Sprt::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.05 gamma=1")).is_err());
    }
}
