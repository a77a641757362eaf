//! `thoat match`: engine-vs-engine matches refereed by thoat's own rules, with flags in the
//! style of cutechess-cli. Each worker thread (`--concurrency`) owns one process of each
//! engine and plays game after game; each opening is played twice with the colours swapped.
//! The main thread collects the games, writes the PGN, prints the progress line and stops
//! early when the SPRT crosses a bound.

pub mod cli;
pub mod engine;
pub mod openings;
pub mod referee;
pub mod stats;
pub mod tc;

use crate::core::Color;
use crate::tools::pgn::PgnGame;
use crate::variants::Variant;
use engine::{Engine, EngineSpec};
use referee::{Conditions, Played, PonderCount};
use stats::{Sprt, SprtVerdict, Tally};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::Duration;

/// Everything a match needs, parsed from the command line.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub variant: Variant,
    /// The two engines; the first is the one whose score and Elo are reported.
    pub engines: [EngineSpec; 2],
    /// Games to play.
    pub games: usize,
    /// Time control and adjudication.
    pub conditions: Conditions,
    /// Games played at once.
    pub concurrency: usize,
    /// Start positions (FENs); empty: the game's start position.
    pub openings: Vec<String>,
    /// Where to append the games as PGN.
    pub pgn: Option<std::path::PathBuf>,
    /// Stop early when the SPRT decides.
    pub sprt: Option<Sprt>,
    /// Event name for the PGN.
    pub event: String,
}

/// The outcome of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Wins, draws, losses of the first engine.
    pub tally: Tally,
    /// How many games ended for each reason.
    pub terminations: BTreeMap<String, u32>,
    /// The SPRT verdict, if an SPRT was run. Once a bound is crossed it stays: the games
    /// still being played at that moment are counted in the tally but cannot undo it (as in
    /// fishtest and cutechess-cli).
    pub verdict: Option<SprtVerdict>,
    /// The games played and the log-likelihood ratio when a bound was crossed.
    pub decided_at: Option<(u32, f64)>,
    /// By engine (first, second): its ponder searches and ponder hits.
    pub ponder: [PonderCount; 2],
}

impl MatchReport {
    /// Records the SPRT's verdict after a game; returns whether the match should stop.
    fn record_verdict(&mut self, sprt: &Sprt) -> bool {
        if self.decided_at.is_none() {
            let verdict = sprt.verdict(&self.tally);
            self.verdict = Some(verdict);
            if verdict != SprtVerdict::Continue {
                self.decided_at = Some((self.tally.games(), sprt.llr(&self.tally)));
            }
        }
        self.decided_at.is_some()
    }
}

impl MatchConfig {
    /// A warning when the match plays some opening more than once per colour: engines
    /// limited by depth or nodes on one thread play the same game again, so the repeats add
    /// no information and the error bar comes out too narrow.
    pub fn repeats_openings(&self) -> Option<String> {
        let book = self.openings.len();
        (book > 0 && self.games > 2 * book).then(|| {
            format!(
                "{} games from {book} openings play {} openings again; deterministic engines \
                 (depth or node limits, one thread) repeat those games exactly",
                self.games,
                (self.games - 2 * book).div_ceil(2).min(book)
            )
        })
    }
}

/// What a worker tells the main thread.
enum Event {
    /// Game `index` finished; `first_white` tells whether the first engine had White.
    Done {
        index: usize,
        first_white: bool,
        played: Box<Played>,
    },
    /// An engine could not be started or an opening is bad: the match cannot go on.
    Fatal(String),
}

fn worker(
    config: Arc<MatchConfig>,
    next: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    events: Sender<Event>,
) {
    let mut engines: [Option<Engine>; 2] = [None, None];
    let variant = config.variant.name();
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        for (slot, spec) in engines.iter_mut().zip(&config.engines) {
            if slot.is_none() {
                match Engine::start(spec, variant) {
                    Ok(engine) => *slot = Some(engine),
                    Err(e) => {
                        let _ = events.send(Event::Fatal(e));
                        return;
                    }
                }
            }
        }
        let [Some(first), Some(second)] = &mut engines else {
            return;
        };
        let opening = (!config.openings.is_empty())
            .then(|| config.openings[(index / 2) % config.openings.len()].as_str());
        let first_white = index.is_multiple_of(2);
        let pair = if first_white {
            [first, second]
        } else {
            [second, first]
        };
        let result = crate::with_game!(config.variant, G => {
            referee::play::<G>(opening, pair, &config.conditions)
        });
        match result {
            Ok(played) => {
                // `restart` is by colour; map it back to the engine slots.
                let by_slot = if first_white {
                    played.restart
                } else {
                    [played.restart[1], played.restart[0]]
                };
                for (slot, restart) in engines.iter_mut().zip(by_slot) {
                    if restart {
                        *slot = None; // dropped: killed and reaped; restarted next game
                    }
                }
                let event = Event::Done {
                    index,
                    first_white,
                    played: Box::new(played),
                };
                if events.send(event).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = events.send(Event::Fatal(e));
                return;
            }
        }
    }
}

/// The PGN of a finished game.
pub fn pgn_of(config: &MatchConfig, index: usize, first_white: bool, played: &Played) -> PgnGame {
    let names = [&config.engines[0].name, &config.engines[1].name];
    let (white, black) = if first_white {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    PgnGame {
        tags: vec![
            ("Event".to_string(), config.event.clone()),
            ("Round".to_string(), (index + 1).to_string()),
            ("White".to_string(), white.clone()),
            ("Black".to_string(), black.clone()),
            ("TimeControl".to_string(), config.conditions.tc.pgn_tag()),
        ],
        variant: config.variant.name().to_string(),
        setup_fen: played.setup_fen.clone(),
        first_to_move: Some(played.first.0),
        first_move_number: played.first.1,
        moves: played.moves.clone(),
        result: played.result_text().to_string(),
        termination: Some(played.termination.clone()),
        ..PgnGame::default()
    }
}

/// The progress line: games, W/D/L, score, Elo and the LLR.
fn progress(config: &MatchConfig, tally: &Tally) -> String {
    let mut line = format!(
        "{}/{} games  +{} ={} -{}",
        tally.games(),
        config.games,
        tally.wins,
        tally.draws,
        tally.losses
    );
    if let Some(score) = tally.score() {
        line.push_str(&format!("  score {:.1}%", score * 100.0));
    }
    if let Some((elo, margin)) = tally.elo() {
        line.push_str(&format!("  elo {:+.1} +/- {margin:.1}", elo + 0.0));
    }
    if let Some(sprt) = &config.sprt {
        line.push_str(&format!("  llr {:.2}", sprt.llr(tally)));
    }
    line
}

/// Runs a match and writes the summary to `out`.
pub fn run(config: MatchConfig, out: &mut impl Write) -> Result<MatchReport, String> {
    if config.engines[0].name == config.engines[1].name {
        return Err("the two engines need different names (name=...)".to_string());
    }
    let mut pgn_file = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let config = Arc::new(config);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let threads: Vec<_> = (0..config.concurrency.clamp(1, config.games.max(1)))
        .map(|i| {
            let (config, next, stop, tx) = (
                Arc::clone(&config),
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
            );
            std::thread::Builder::new()
                .name(format!("match-{i}"))
                .spawn(move || worker(config, next, stop, tx))
                .map_err(|e| format!("cannot start a match thread: {e}"))
        })
        .collect::<Result<_, _>>()?;
    drop(tx);
    let mut report = MatchReport::default();
    let mut fatal = None;
    let live = std::io::stderr().is_terminal();
    for event in rx {
        match event {
            Event::Fatal(e) => {
                stop.store(true, Ordering::Relaxed);
                fatal.get_or_insert(e);
            }
            Event::Done {
                index,
                first_white,
                played,
            } => {
                if let Some(detail) = &played.detail {
                    log::info!("game {}: {detail}", index + 1);
                    if !live {
                        eprintln!("game {}: {}: {detail}", index + 1, played.termination);
                    }
                }
                let first_color = if first_white {
                    Color::White
                } else {
                    Color::Black
                };
                match played.winner {
                    None => report.tally.draws += 1,
                    Some(c) if c == first_color => report.tally.wins += 1,
                    Some(_) => report.tally.losses += 1,
                }
                *report
                    .terminations
                    .entry(played.termination.clone())
                    .or_default() += 1;
                // `ponder` is by colour; the first engine had White when `first_white`.
                let by_slot = if first_white { [0, 1] } else { [1, 0] };
                for (slot, colour) in by_slot.into_iter().enumerate() {
                    report.ponder[slot].tries += played.ponder[colour].tries;
                    report.ponder[slot].hits += played.ponder[colour].hits;
                }
                if let Some(file) = &mut pgn_file {
                    let text = pgn_of(&config, index, first_white, &played).to_pgn();
                    file.write_all(text.as_bytes())
                        .map_err(|e| format!("cannot write the PGN: {e}"))?;
                }
                let line = progress(&config, &report.tally);
                if live {
                    eprint!("\r{line}   ");
                } else {
                    eprintln!("{line}");
                }
                if let Some(sprt) = &config.sprt {
                    if report.record_verdict(sprt) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    if live {
        eprintln!();
    }
    for thread in threads {
        let _ = thread.join();
    }
    if let Some(e) = fatal {
        return Err(e);
    }
    write_summary(&config, &report, out).map_err(|e| format!("output failed: {e}"))?;
    Ok(report)
}

fn write_summary(
    config: &MatchConfig,
    report: &MatchReport,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let t = &report.tally;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        config.engines[0].name,
        config.engines[1].name,
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.0),
        t.games()
    )?;
    match t.elo() {
        Some((elo, margin)) => writeln!(
            out,
            "Elo difference: {:.1} +/- {margin:.1} (95%)",
            elo + 0.0
        )?,
        None => writeln!(
            out,
            "Elo difference: not finite (all games won or all lost)"
        )?,
    }
    if let Some(sprt) = &config.sprt {
        let (lower, upper) = sprt.bounds();
        let hypothesis = match report.verdict {
            Some(SprtVerdict::H1) => "H1 accepted",
            Some(SprtVerdict::H0) => "H0 accepted",
            _ => "no decision",
        };
        let verdict = match report.decided_at {
            Some((games, llr)) if games < t.games() => {
                format!("{hypothesis} after {games} games (llr {llr:.2}; the games in flight then are counted above)")
            }
            _ => hypothesis.to_string(),
        };
        writeln!(
            out,
            "SPRT: elo0={} elo1={} alpha={} beta={}: llr {:.2} (bounds {lower:.2}, {upper:.2}) - {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(t)
        )?;
    }
    if config.conditions.ponder {
        let counts: Vec<String> = config
            .engines
            .iter()
            .zip(&report.ponder)
            .map(|(e, p)| format!("{} {} of {}", e.name, p.hits, p.tries))
            .collect();
        writeln!(out, "Ponder hits: {}", counts.join(", "))?;
    }
    let reasons: Vec<String> = report
        .terminations
        .iter()
        .map(|(reason, n)| format!("{reason}: {n}"))
        .collect();
    writeln!(out, "Terminations: {}", reasons.join(", "))
}

/// The default time-forfeit grace: small, but enough for a busy machine's scheduling.
pub const DEFAULT_GRACE: Duration = Duration::from_millis(100);

#[cfg(test)]
mod tests {
    use super::*;

    /// A match stops when the SPRT crosses a bound; the games still in flight then may pull
    /// the ratio back inside, but the decision stays (the report said "no decision" before).
    #[test]
    fn an_sprt_decision_stays_when_the_games_in_flight_come_in() {
        let words: Vec<String> = ["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]
            .map(String::from)
            .to_vec();
        let sprt = Sprt::parse(&words).expect("valid");
        let mut report = MatchReport::default();
        while !report.record_verdict(&sprt) {
            report.tally.wins += 1;
        }
        let stopped_at = report.tally.games();
        // The games in flight are lost: the ratio falls back inside the bounds.
        report.tally.losses += 2;
        assert!(report.record_verdict(&sprt));
        assert_eq!(sprt.verdict(&report.tally), SprtVerdict::Continue);
        assert_eq!(report.verdict, Some(SprtVerdict::H1));
        assert_eq!(report.decided_at.map(|(games, _)| games), Some(stopped_at));
    }
}
