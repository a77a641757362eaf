//! `thoat tune`: Texel-style fitting of a game's evaluation weights to game results.
//!
//! The model is the evaluation itself: a position's score from White's point of view is the
//! sum of weight times count of its terms ([`Tunable`]), and the expected result for White is
//! `sigmoid(K * score / 400) = 1 / (1 + 10^(-K * score / 400))`. The error is the mean squared
//! difference between that and the game's result over all positions. The tuner first fits the
//! scale `K` with the weights in play, then lowers the error over the weights by full-batch
//! Adam, with `K` fixed. Terms that the game lists as fixed ([`Tunable::FIXED`]) and terms
//! present in too few positions (their fit would follow a handful of games) keep their value.
//!
//! Every sum runs in one thread in position order, so a run is reproducible to the bit.

use crate::variants::terms::Tunable;
use std::io::Write;

/// The positions, their sparse features and results.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Where each position's features start in `terms` and `counts`; one more entry at the end.
    offsets: Vec<usize>,
    /// The term of each nonzero count.
    terms: Vec<u32>,
    /// The nonzero counts.
    counts: Vec<i32>,
    /// The result for White of each position: 1 a win, 0.5 a draw, 0 a loss.
    results: Vec<f64>,
    /// The number of terms of the game.
    width: usize,
}

impl Dataset {
    /// An empty dataset for a game of `width` terms.
    pub fn new(width: usize) -> Dataset {
        Dataset {
            offsets: vec![0],
            width,
            ..Dataset::default()
        }
    }

    /// Adds a position by its features (one count per term) and its result for White.
    pub fn push(&mut self, features: &[i32], result: f64) {
        for (term, &count) in features.iter().enumerate() {
            if count != 0 {
                self.terms.push(term as u32);
                self.counts.push(count);
            }
        }
        self.offsets.push(self.terms.len());
        self.results.push(result);
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The nonzero features of position `i`.
    fn features(&self, i: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let range = self.offsets[i]..self.offsets[i + 1];
        self.terms[range.clone()]
            .iter()
            .zip(&self.counts[range])
            .map(|(&t, &c)| (t as usize, f64::from(c)))
    }

    /// The score from White's point of view of position `i` under `weights`.
    fn score(&self, i: usize, weights: &[f64]) -> f64 {
        self.features(i).map(|(t, c)| weights[t] * c).sum()
    }

    /// In how many positions each term is present.
    fn presence(&self) -> Vec<usize> {
        let mut seen = vec![0; self.width];
        for &t in &self.terms {
            seen[t as usize] += 1;
        }
        seen
    }
}

/// `1 / (1 + 10^(-k * score / 400))`: the expected result for White.
fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

/// The mean squared error of the predictions of `weights` with scale `k`.
pub fn error(data: &Dataset, weights: &[f64], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..data.len())
        .map(|i| {
            let diff = data.results[i] - sigmoid(k, data.score(i, weights));
            diff * diff
        })
        .sum();
    sum / data.len() as f64
}

/// The scale `K` that minimises the error with `weights`: a scan of 0.01 to 10 on a log
/// scale, then a golden-section search around the best point.
pub fn fit_k(data: &Dataset, weights: &[f64]) -> f64 {
    let scores: Vec<f64> = (0..data.len()).map(|i| data.score(i, weights)).collect();
    let err = |k: f64| -> f64 {
        scores
            .iter()
            .zip(&data.results)
            .map(|(&s, &r)| (r - sigmoid(k, s)).powi(2))
            .sum::<f64>()
    };
    let grid: Vec<f64> = (0..=120)
        .map(|i| 0.01 * 1000f64.powf(i as f64 / 120.0))
        .collect();
    let best = (0..grid.len())
        .min_by(|&a, &b| err(grid[a]).total_cmp(&err(grid[b])))
        .unwrap_or(0);
    let (mut lo, mut hi) = (grid[best.saturating_sub(1)], grid[(best + 1).min(120)]);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How the weights are fitted.
#[derive(Clone, Debug)]
pub struct Options {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Terms present in fewer positions than this keep their value.
    pub min_presence: usize,
    /// The scale; fitted with the start weights when `None`.
    pub k: Option<f64>,
    /// Ridge penalty: `l2 * (weight - start)^2` per term is added to the error, in units of
    /// 1/10000 per centipawn squared, so that a term only moves as far as its data insist
    /// (Adam moves every term at the same pace, however few positions it is seen in).
    pub l2: f64,
    /// When not empty, only the terms named here are fitted: a name, or a prefix ending in
    /// `*` (`pawn_*`); the others keep their value.
    pub only: Vec<String>,
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The scale used.
    pub k: f64,
    /// The error with the start weights.
    pub before: f64,
    /// The error with the fitted weights, unrounded.
    pub after: f64,
    /// The error with the fitted weights rounded to integers (as they will be played).
    pub rounded_error: f64,
    /// The fitted weights, rounded.
    pub weights: Vec<i32>,
    /// How many terms were fitted (not fixed, present often enough).
    pub free: usize,
}

/// Fits the weights to `data` from `start`, keeping the terms of `fixed` (and those present
/// in fewer than `options.min_presence` positions) at their start value; writes a progress
/// line every 100 epochs to `log`.
pub fn fit(
    data: &Dataset,
    start: &[i32],
    fixed: &[usize],
    options: &Options,
    log: &mut impl Write,
) -> Fit {
    let mut weights: Vec<f64> = start.iter().map(|&w| f64::from(w)).collect();
    let anchor = weights.clone();
    let ridge = options.l2 / 10_000.0;
    let k = options.k.unwrap_or_else(|| fit_k(data, &weights));
    let before = error(data, &weights, k);
    let presence = data.presence();
    let free: Vec<bool> = (0..weights.len())
        .map(|t| !fixed.contains(&t) && presence[t] >= options.min_presence.max(1))
        .collect();
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; weights.len()];
    let mut v = vec![0.0; weights.len()];
    let mut gradient = vec![0.0; weights.len()];
    // d sigmoid(k s / 400) / d s = sigmoid * (1 - sigmoid) * ln(10) * k / 400.
    let slope = std::f64::consts::LN_10 * k / 400.0;
    let n = data.len().max(1) as f64;
    for epoch in 1..=options.epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        let mut sum = 0.0;
        for i in 0..data.len() {
            let p = sigmoid(k, data.score(i, &weights));
            let diff = data.results[i] - p;
            sum += diff * diff;
            let factor = -2.0 * diff * p * (1.0 - p) * slope / n;
            for (t, c) in data.features(i) {
                gradient[t] += factor * c;
            }
        }
        for t in 0..weights.len() {
            if !free[t] {
                continue;
            }
            let g = gradient[t] + 2.0 * ridge * (weights[t] - anchor[t]);
            m[t] = beta1 * m[t] + (1.0 - beta1) * g;
            v[t] = beta2 * v[t] + (1.0 - beta2) * g * g;
            let m_hat = m[t] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[t] / (1.0 - beta2.powi(epoch as i32));
            weights[t] -= options.rate * m_hat / (v_hat.sqrt() + epsilon);
        }
        if epoch % 100 == 0 || epoch == options.epochs {
            let _ = writeln!(log, "epoch {epoch}: error {:.6}", sum / n);
        }
    }
    let after = error(data, &weights, k);
    let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let as_float: Vec<f64> = rounded.iter().map(|&w| f64::from(w)).collect();
    Fit {
        k,
        before,
        after,
        rounded_error: error(data, &as_float, k),
        weights: rounded,
        free: free.iter().filter(|&&f| f).count(),
    }
}

/// Parses a result for White: `1`, `0.5`, `0` (any number from 0 to 1, so that labels may
/// be probabilities), or `1-0`, `1/2-1/2`, `0-1`.
pub fn parse_result(text: &str) -> Result<f64, String> {
    let text = text.trim();
    match text {
        "1-0" => return Ok(1.0),
        "0-1" => return Ok(0.0),
        "1/2-1/2" | "1/2" => return Ok(0.5),
        _ => {}
    }
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "result '{}' is not 1, 0.5 or 0",
            text.escape_debug()
        )),
    }
}

/// Whether term `name` is chosen by `pattern`: the name itself, or a prefix and `*`.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// Reads `<fen> ; <result>` lines of game `G` into a dataset. Blank lines and `#` comments
/// are skipped, and so is a line equal to an earlier one (the same position with the same
/// result: mostly the same game played again, which would count its positions twice); a
/// malformed line is reported to `log` as `line <n>: <error>; skipped`. Returns the dataset
/// and the number of malformed lines.
pub fn load<G: Tunable>(text: &str, log: &mut impl Write) -> (Dataset, usize) {
    let mut data = Dataset::new(G::TERM_NAMES.len());
    let mut bad = 0;
    let mut seen = std::collections::HashSet::new();
    let mut repeated = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !seen.insert(line) {
            repeated += 1;
            continue;
        }
        // `<fen> ; <result>`, or `<fen> ; <score> ; <result>` (datagen --scores): the FEN
        // is the first field, the result the last.
        let parsed = line
            .split_once(';')
            .zip(line.rsplit_once(';'))
            .ok_or_else(|| "expected '<fen> ; <result>'".to_string())
            .and_then(|((fen, _), (_, result))| {
                let result = parse_result(result)?;
                let position = G::from_fen(fen.trim())?;
                Ok((position, result))
            });
        match parsed {
            Ok((position, result)) => data.push(&position.features().0, result),
            Err(e) => {
                bad += 1;
                let _ = writeln!(log, "line {}: {e}; skipped", number + 1);
            }
        }
    }
    if repeated > 0 {
        let _ = writeln!(log, "{repeated} repeated lines skipped");
    }
    (data, bad)
}

/// The text of a `weights.rs`: the header, then `WEIGHTS` with one weight per line and its
/// term's name as a comment (the form every game's `weights.rs` has).
pub fn weights_file(game: &str, names: &[&str], weights: &[i32], note: &str) -> String {
    let mut text = format!(
        "//! The evaluation weights of {game}: one per term of its `Tunable::TERM_NAMES`, in that\n\
         //! order, each with its term's name (`thoat tune` writes this file in this form).\n"
    );
    for line in note.lines() {
        text += &format!("//! {line}\n");
    }
    text += &format!(
        "\n/// The weights in play.\n#[rustfmt::skip]\npub const WEIGHTS: [i32; {}] = [\n",
        weights.len()
    );
    for (weight, name) in weights.iter().zip(names) {
        text += &format!("    {weight}, // {name}\n");
    }
    text + "];\n"
}

/// Loads `text`, fits the weights of `G` and returns the new `weights.rs` text; `command`
/// goes into its header. Progress, skipped lines and the errors go to `log`; with
/// `validation` (positions of other games, same form), also the error there before and after,
/// the measure of over-fitting.
pub fn tune<G: Tunable>(
    text: &str,
    validation: Option<&str>,
    options: &Options,
    command: &str,
    log: &mut impl Write,
) -> Result<String, String> {
    let (data, bad) = load::<G>(text, log);
    if data.is_empty() {
        return Err("no position to tune on".to_string());
    }
    let _ = writeln!(
        log,
        "tune {}: {} positions ({bad} malformed lines skipped), {} terms",
        G::NAME,
        data.len(),
        G::TERM_NAMES.len()
    );
    let start = G::weights();
    let mut fixed = G::FIXED.to_vec();
    if !options.only.is_empty() {
        for pattern in &options.only {
            let known = G::TERM_NAMES.iter().any(|name| matches(pattern, name));
            if !known {
                return Err(format!(
                    "--only: no term of {} is named '{pattern}'",
                    G::NAME
                ));
            }
        }
        fixed.extend(
            (0..G::TERM_NAMES.len())
                .filter(|&t| !options.only.iter().any(|p| matches(p, G::TERM_NAMES[t]))),
        );
    }
    let fit = fit(&data, start, &fixed, options, log);
    let _ = writeln!(
        log,
        "tune {}: K = {:.4}, {} terms fitted; error {:.6} before, {:.6} after ({:.6} rounded)",
        G::NAME,
        fit.k,
        fit.free,
        fit.before,
        fit.after,
        fit.rounded_error
    );
    if let Some(validation) = validation {
        let (held, bad) = load::<G>(validation, log);
        let start: Vec<f64> = start.iter().map(|&w| f64::from(w)).collect();
        let tuned: Vec<f64> = fit.weights.iter().map(|&w| f64::from(w)).collect();
        let _ = writeln!(
            log,
            "tune {}: validation: {} positions ({bad} malformed lines skipped), error {:.6} before, {:.6} after",
            G::NAME,
            held.len(),
            error(&held, &start, fit.k),
            error(&held, &tuned, fit.k)
        );
    }
    let mut changes: Vec<(usize, i32)> = (0..start.len())
        .map(|t| (t, fit.weights[t] - start[t]))
        .filter(|&(_, d)| d != 0)
        .collect();
    changes.sort_by_key(|&(t, d)| (-d.abs(), t));
    for &(t, d) in changes.iter().take(12) {
        let _ = writeln!(
            log,
            "  {:<16} {:>6} -> {:>6} ({d:+})",
            G::TERM_NAMES[t],
            start[t],
            fit.weights[t]
        );
    }
    let note = format!(
        "Fitted by `{command}`\n(on positions of `thoat datagen`, docs/tuning.md):\n{} positions, K = {:.4}, error {:.6} before, {:.6} after.",
        data.len(),
        fit.k,
        fit.before,
        fit.rounded_error
    );
    Ok(weights_file(G::NAME, G::TERM_NAMES, &fit.weights, &note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::variants::Skak;

    /// Positions with random counts of three terms, labelled by the sigmoid of known weights.
    fn synthetic(truth: &[f64], k: f64) -> Dataset {
        let mut data = Dataset::new(truth.len());
        let mut state = 12345u64;
        for _ in 0..3000 {
            let features: Vec<i32> = (0..truth.len())
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 33) % 7) as i32 - 3
                })
                .collect();
            let score: f64 = features
                .iter()
                .zip(truth)
                .map(|(&c, w)| f64::from(c) * w)
                .sum();
            data.push(&features, sigmoid(k, score));
        }
        data
    }

    #[test]
    fn recovers_known_weights_and_scale() {
        let truth = [100.0, -60.0, 25.0];
        let data = synthetic(&truth, 1.3);
        // The scale alone, with the true weights.
        let k = fit_k(&data, &truth);
        assert!((k - 1.3).abs() < 0.01, "K = {k}");
        let options = Options {
            epochs: 1500,
            rate: 2.0,
            min_presence: 1,
            k: Some(1.3),
            l2: 0.0,
            only: Vec::new(),
        };
        let fit = fit(&data, &[0, 0, 0], &[], &options, &mut Vec::new());
        assert_eq!(fit.free, 3);
        for (got, want) in fit.weights.iter().zip(truth) {
            assert!((f64::from(*got) - want).abs() <= 2.0, "{:?}", fit.weights);
        }
        assert!(
            fit.after < fit.before / 100.0,
            "{} -> {}",
            fit.before,
            fit.after
        );
    }

    #[test]
    fn fixed_and_rare_terms_keep_their_value() {
        let truth = [100.0, -60.0, 25.0];
        let mut data = synthetic(&truth, 1.0);
        let mut rare = vec![0; 4];
        rare[3] = 1;
        let mut data4 = Dataset::new(4);
        for i in 0..data.len() {
            let mut features = vec![0; 4];
            for (t, c) in data.features(i) {
                features[t] = c as i32;
            }
            data4.push(&features, data.results[i]);
        }
        data4.push(&rare, 1.0);
        data = data4;
        let options = Options {
            epochs: 200,
            rate: 2.0,
            min_presence: 2,
            k: Some(1.0),
            l2: 0.0,
            only: Vec::new(),
        };
        let fit = fit(&data, &[0, 7, 0, 5], &[1], &options, &mut Vec::new());
        assert_eq!(fit.free, 2);
        assert_eq!(fit.weights[1], 7);
        assert_eq!(fit.weights[3], 5);
        assert!(fit.weights[0] > 50, "{:?}", fit.weights);
    }

    #[test]
    fn malformed_lines_are_skipped_with_their_number() {
        let start = Skak::from_fen(Skak::START_FEN).unwrap().fen();
        let text = format!(
            "# comment\n{start} ; 1\n\nnot a fen ; 1\n{start} ; 2\n{start}\n{start} ; 1/2-1/2\n{start} ; 1\n"
        );
        let mut log = Vec::new();
        let (data, bad) = load::<Skak>(&text, &mut log);
        let log = String::from_utf8(log).unwrap();
        assert_eq!((data.len(), bad), (2, 3), "{log}");
        assert_eq!(data.results, vec![1.0, 0.5]);
        for number in [4, 5, 6] {
            assert!(log.contains(&format!("line {number}: ")), "{log}");
        }
        assert_eq!(log.matches("; skipped").count(), 3);
        assert!(log.contains("1 repeated lines skipped"), "{log}");
    }

    #[test]
    fn the_weights_file_lists_every_term_by_name() {
        let text = weights_file("skak", &["a", "b"], &[3, -4], "note one\nnote two");
        assert!(text.contains("//! note two\n"));
        assert!(text.contains("pub const WEIGHTS: [i32; 2] = [\n    3, // a\n    -4, // b\n];\n"));
    }

    #[test]
    fn tuning_on_skak_positions_lowers_the_error() {
        // A real position set: a tiny self-play run.
        let book = vec![Skak::START_FEN.to_string()];
        let recipe = super::super::datagen::Recipe {
            games: 4,
            nodes: 200,
            seed: 3,
            random_plies: 4,
            skip_plies: 2,
            max_plies: 300,
            threads: 2,
            // Lines with scores: the tuner reads the FEN and the result around them.
            scores: true,
        };
        let mut positions = Vec::new();
        super::super::datagen::run(
            crate::variants::Variant::Skak,
            &book,
            &recipe,
            &mut positions,
            &mut Vec::new(),
        )
        .unwrap();
        let text = String::from_utf8(positions).unwrap();
        let options = Options {
            epochs: 50,
            rate: 1.0,
            min_presence: 1,
            k: None,
            l2: 0.0,
            only: Vec::new(),
        };
        let mut log = Vec::new();
        let file = tune::<Skak>(&text, Some(&text), &options, "test", &mut log).unwrap();
        assert_eq!(file.matches(" // ").count(), Skak::TERM_NAMES.len());
        let log = String::from_utf8(log).unwrap();
        let (data, _) = load::<Skak>(&text, &mut Vec::new());
        let start = fit(
            &data,
            Skak::weights(),
            &[],
            &Options {
                epochs: 0,
                ..options.clone()
            },
            &mut Vec::new(),
        );
        let tuned = fit(&data, Skak::weights(), &[], &options, &mut Vec::new());
        assert!(tuned.after < start.before, "{log}");
        assert!(log.contains("validation: "), "{log}");
        // Only the material terms.
        let only = Options {
            only: vec!["adhal".into(), "fylgdar".into(), "lanar_*".into()],
            ..options.clone()
        };
        let file = tune::<Skak>(&text, None, &only, "test", &mut Vec::new()).unwrap();
        let changed: Vec<&str> = file
            .lines()
            .filter(|l| l.contains(" // "))
            .zip(Skak::weights())
            .filter(|(line, &w)| !line.trim_start().starts_with(&format!("{w},")))
            .map(|(line, _)| line.rsplit(' ').next().unwrap())
            .collect();
        assert!(!changed.is_empty());
        for name in changed {
            assert!(
                name == "adhal" || name == "fylgdar" || name.starts_with("lanar_"),
                "{name}"
            );
        }
        let unknown = Options {
            only: vec!["queen".into()],
            ..options.clone()
        };
        assert!(tune::<Skak>(&text, None, &unknown, "test", &mut Vec::new()).is_err());
    }
}
