//! `fuzz`: a property-based fuzzer for everything that comes from outside — FENs of every
//! game, move texts, and whole UCI input lines — run on the stable toolchain (cargo-fuzz
//! needs nightly). Inputs are valid texts (the FENs of `positions/`, legal moves, well-formed
//! commands) put through random structural mutations: truncation, deletion, insertion of
//! ASCII and Unicode atoms, digit/letter swaps, two-digit and huge numbers, field and rank
//! shuffles, splices and random bytes. Every input is a pure function of `(seed, index)`,
//! so a failure is reproduced with `--seed S --start I --iterations 1`.
//!
//! Properties checked on every input:
//! - no panic, in any thread (a panic hook records it);
//! - no hang: a watchdog aborts the run, naming the input, if one input takes over
//!   [`HANG_LIMIT`];
//! - FEN: an accepted FEN yields a position whose FEN parses back to itself, whose hash is
//!   the recomputed one, and whose moves can be generated, played and searched;
//! - move text: an accepted text is exactly the text of a legal move; a rejected one leaves
//!   the game unchanged;
//! - UCI: the properties of `uci::fuzz`, whose inputs this runs like the others.

use crate::core::game::parse_move;
use crate::core::{Game, GameState};
use crate::search::{search_quietly, Limits, SearchGame, Settings, Shared};
use crate::variants::perft_cases;
use crate::variants::Variant;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One input taking longer than this is a hang: the run is aborted and the input named.
pub const HANG_LIMIT: Duration = Duration::from_secs(20);

/// What to fuzz.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// FEN parsing of every game.
    Fen,
    /// Move-text parsing against legal moves.
    Move,
    /// Whole UCI input lines, in sessions of a few dozen lines.
    Uci,
}

/// The figures of a fuzz run.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Inputs tried (FENs, move texts or UCI lines).
    pub inputs: u64,
    /// Inputs accepted (by at least one game, for FENs).
    pub accepted: u64,
    /// Properties that failed, each with the input that broke it.
    pub failures: Vec<String>,
    /// Wall time of the run.
    pub millis: u128,
    /// The slowest single input, in microseconds.
    pub slowest_us: u128,
}

/// The fuzzer's seeded generator (kept under this name for the storm test and soak).
pub use crate::core::rng::Rng;

/// The valid FENs of `variant`: its start position and every position of its perft suite.
pub fn seed_fens(variant: Variant) -> Vec<String> {
    let mut fens = vec![crate::with_game!(variant, G => G::START_FEN.to_string())];
    fens.extend(perft_cases(variant.name()).into_iter().map(|c| c.fen));
    fens
}

/// Short pieces of text inserted by mutations: board letters, separators, digits and
/// Unicode that looks like them (full-width digits, Roman numerals, zero-width space, BOM).
const ATOMS: &[&str] = &[
    "0", "1", "2", "7", "8", "9", "10", "11", "a", "h", "j", "k", "z", "K", "Q", "R", "B", "N",
    "P", "W", "A", "D", "F", "T", "p", "w", "t", "/", " ", "-", ",", "*", "+", "#", "=", ".", "\t",
    "\r", "ä", "é", "😀", "\u{0}", "\u{200b}", "１", "Ⅻ", "\u{feff}", "ﬀ", "moves",
];

/// Numbers that break parsers: zero, two digits, negative, just past integer widths.
const NUMBERS: &[&str] = &[
    "0",
    "10",
    "11",
    "99",
    "-1",
    "255",
    "256",
    "65536",
    "4294967296",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    "08",
    "1.5",
    "+3",
];

/// Applies one to four random mutations to `text`.
pub fn mutate(rng: &mut Rng, text: &str, others: &[String]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        mutate_once(rng, &mut chars, others);
    }
    chars.into_iter().collect()
}

fn mutate_once(rng: &mut Rng, chars: &mut Vec<char>, others: &[String]) {
    let at = |rng: &mut Rng, chars: &Vec<char>| rng.below(chars.len() + 1);
    match rng.below(14) {
        0 => {
            let cut = at(rng, chars);
            chars.truncate(cut);
        }
        1 => {
            if !chars.is_empty() {
                let i = rng.below(chars.len());
                chars.remove(i);
            }
        }
        2 | 3 => {
            let i = at(rng, chars);
            let atom: Vec<char> = rng.pick(ATOMS).chars().collect();
            chars.splice(i..i, atom);
        }
        4 => {
            if !chars.is_empty() {
                let i = rng.below(chars.len());
                let atom: Vec<char> = rng.pick(ATOMS).chars().collect();
                chars.splice(i..=i, atom);
            }
        }
        5 => {
            // Digit <-> letter swap.
            if !chars.is_empty() {
                let i = rng.below(chars.len());
                chars[i] = if chars[i].is_ascii_digit() {
                    (b'a' + rng.below(26) as u8) as char
                } else {
                    (b'0' + rng.below(10) as u8) as char
                };
            }
        }
        6 | 7 => {
            // Replace a run of digits with a number that breaks parsers.
            let starts: Vec<usize> = (0..chars.len())
                .filter(|&i| {
                    chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit())
                })
                .collect();
            if !starts.is_empty() {
                let s = *rng.pick(&starts);
                let mut e = s;
                while e < chars.len() && chars[e].is_ascii_digit() {
                    e += 1;
                }
                chars.splice(s..e, rng.pick(NUMBERS).chars());
            }
        }
        8 => {
            // Shuffle, drop or duplicate whitespace-separated fields.
            let text: String = chars.iter().collect();
            let mut fields: Vec<&str> = text.split(' ').collect();
            let n = fields.len();
            match rng.below(3) {
                0 => {
                    rng.shuffle(&mut fields);
                }
                1 => {
                    fields.remove(rng.below(n));
                }
                _ => {
                    let f = fields[rng.below(n)];
                    fields.insert(rng.below(n + 1), f);
                }
            }
            *chars = fields.join(" ").chars().collect();
        }
        9 => {
            // Swap, drop or duplicate ranks of the board field.
            let text: String = chars.iter().collect();
            let (board, rest) = text.split_once(' ').unwrap_or((&text, ""));
            let mut ranks: Vec<&str> = board.split('/').collect();
            let n = ranks.len();
            match rng.below(3) {
                0 => ranks.swap(rng.below(n), rng.below(n)),
                1 => {
                    ranks.remove(rng.below(n));
                }
                _ => {
                    let r = ranks[rng.below(n)];
                    ranks.insert(rng.below(n + 1), r);
                }
            }
            let sep = if rest.is_empty() && !text.contains(' ') {
                ""
            } else {
                " "
            };
            *chars = format!("{}{sep}{rest}", ranks.join("/")).chars().collect();
        }
        10 => {
            // Random bytes, decoded lossily.
            let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.next_u64() as u8).collect();
            *chars = String::from_utf8_lossy(&bytes).chars().collect();
        }
        11 => {
            // Splice with another valid input.
            if !others.is_empty() {
                let other: Vec<char> = rng.pick(others).chars().collect();
                let i = at(rng, chars);
                let j = rng.below(other.len() + 1);
                chars.truncate(i);
                chars.extend_from_slice(&other[j..]);
            }
        }
        12 => {
            // Whitespace: tabs, doubled spaces, none at all.
            let replacement = *rng.pick(&["\t", "  ", "", "\u{a0}"]);
            let text: String = chars.iter().collect();
            *chars = text.replacen(' ', replacement, 1).chars().collect();
        }
        _ => {
            if !chars.is_empty() {
                let i = rng.below(chars.len());
                let c = chars[i];
                chars[i] = if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                };
            }
        }
    }
}

/// Panics seen since the last [`take_panics`], recorded by the hook [`run`] installs.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn take_panics() -> Vec<String> {
    std::mem::take(&mut *PANICS.lock().unwrap_or_else(|p| p.into_inner()))
}

/// The input being tried and when it started, for the watchdog.
static CURRENT: AtomicU64 = AtomicU64::new(0);
static STARTED_MS: AtomicU64 = AtomicU64::new(0);

/// Where the fuzzer's inputs come from: FENs and move texts ([`OneAtATime`])
/// here, UCI lines in `uci::fuzz` (the protocol's fuzzer lives with the protocol:
/// no tool knows the UCI loop).
pub trait Inputs {
    /// The target these inputs are (for the report).
    fn target(&self) -> Target;

    /// Tries one or more inputs made from `rng`, at most `budget`. Returns how many were
    /// tried, how many accepted, and the properties that failed.
    fn try_some(&mut self, rng: &mut Rng, budget: u64) -> (u64, u64, Vec<String>);
}

/// Inputs made and checked one at a time by `check`, which says whether the input was
/// accepted or which property failed: FENs and move texts.
pub struct OneAtATime {
    target: Target,
    check: fn(&mut Rng) -> Result<bool, String>,
}

impl OneAtATime {
    /// FEN inputs: a mutated seed FEN of a random game, tried on every game.
    pub fn fens() -> Self {
        OneAtATime {
            target: Target::Fen,
            check: fuzz_fen,
        }
    }

    /// Move-text inputs: a mutated legal move of a position reached by random play.
    pub fn move_texts() -> Self {
        OneAtATime {
            target: Target::Move,
            check: fuzz_move,
        }
    }
}

impl Inputs for OneAtATime {
    fn target(&self) -> Target {
        self.target
    }

    fn try_some(&mut self, rng: &mut Rng, _budget: u64) -> (u64, u64, Vec<String>) {
        one(|| (self.check)(rng))
    }
}

/// Runs `iterations` of `inputs` from `start` with `seed`, writing a summary and every
/// failure to `out`. Failures are collected, not fatal; a hang aborts the process.
pub fn run(
    inputs: &mut dyn Inputs,
    iterations: u64,
    seed: u64,
    start: u64,
    out: &mut impl Write,
) -> std::io::Result<FuzzReport> {
    crate::core::attacks8::init();
    let target = inputs.target();
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let thread = std::thread::current().name().unwrap_or("?").to_string();
        PANICS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(format!("panic in thread '{thread}': {info}"));
    }));
    take_panics();
    let epoch = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let started = STARTED_MS.load(Ordering::Relaxed);
                let now = epoch.elapsed().as_millis() as u64;
                if now.saturating_sub(started) > HANG_LIMIT.as_millis() as u64 {
                    eprintln!(
                        "fuzz: HANG: {target:?} input {} of seed {seed} ran over {:?}",
                        CURRENT.load(Ordering::Relaxed),
                        HANG_LIMIT
                    );
                    std::process::exit(3);
                }
            }
        })
    };
    let mut report = FuzzReport::default();
    let mut index = start;
    while report.inputs < iterations {
        CURRENT.store(index, Ordering::Relaxed);
        STARTED_MS.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
        let t0 = Instant::now();
        let mut rng = Rng::new(seed, index);
        let (tried, accepted, mut failures) = inputs.try_some(&mut rng, iterations - report.inputs);
        for panic in take_panics() {
            failures.push(panic);
        }
        for f in failures {
            let line = format!("FAIL seed {seed} input {index}: {f}");
            writeln!(out, "{line}")?;
            report.failures.push(line);
        }
        if (report.inputs + tried) / 100_000 > report.inputs / 100_000 {
            writeln!(
                out,
                "progress: {} inputs, {} failures, {} ms",
                report.inputs + tried,
                report.failures.len(),
                epoch.elapsed().as_millis()
            )?;
            out.flush()?;
        }
        report.inputs += tried;
        report.accepted += accepted;
        report.slowest_us = report
            .slowest_us
            .max(t0.elapsed().as_micros() / tried.max(1) as u128);
        index += 1;
    }
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    std::panic::set_hook(previous_hook);
    report.millis = epoch.elapsed().as_millis();
    writeln!(
        out,
        "fuzz {target:?}: {} inputs ({} accepted), {} failures, {} ms, slowest input {} us",
        report.inputs,
        report.accepted,
        report.failures.len(),
        report.millis,
        report.slowest_us
    )?;
    Ok(report)
}

/// Runs one single-input check under `catch_unwind`: (1 input, accepted 0/1, failures).
fn one(check: impl FnOnce() -> Result<bool, String>) -> (u64, u64, Vec<String>) {
    match catch_unwind(AssertUnwindSafe(check)) {
        Ok(Ok(accepted)) => (1, u64::from(accepted), Vec::new()),
        Ok(Err(failure)) => (1, 0, vec![failure]),
        Err(_) => (1, 0, Vec::new()), // the hook recorded the panic
    }
}

/// One FEN input: a mutated seed FEN of a random game, tried on every game.
fn fuzz_fen(rng: &mut Rng) -> Result<bool, String> {
    let variant = *rng.pick(&Variant::ALL);
    let seeds = seed_fens(variant);
    let base = rng.pick(&seeds).clone();
    let text = if rng.one_in(20) {
        base
    } else {
        mutate(rng, &base, &seeds)
    };
    let mut accepted = false;
    for v in Variant::ALL {
        accepted |= crate::with_game!(v, G => check_fen::<G>(&text, rng))?;
    }
    Ok(accepted)
}

/// Parses `text` as a FEN of `G`; if accepted, the position must be fully usable.
fn check_fen<G: SearchGame>(text: &str, rng: &mut Rng) -> Result<bool, String> {
    let Ok(pos) = G::from_fen(text) else {
        return Ok(false);
    };
    let fail = |what: &str| Err(format!("{}: FEN {text:?} accepted, but {what}", G::NAME));
    let fen = pos.fen();
    match G::from_fen(&fen) {
        Ok(again) if again.fen() == fen && again.hash() == pos.hash() => {}
        Ok(_) => return fail(&format!("its FEN {fen:?} does not round-trip")),
        Err(e) => return fail(&format!("its own FEN {fen:?} is rejected: {e}")),
    }
    if pos.hash() != pos.recompute_hash() {
        return fail("the hash differs from the recomputed one");
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    let mut scratch = Vec::new();
    if pos.count_moves(&mut scratch) != moves.len() as u64 {
        return fail("count_moves differs from generate");
    }
    // Play a sample of the moves: the texts parse back, hashes stay right.
    for _ in 0..moves.len().min(8) {
        let mv = *rng.pick(&moves);
        let text = pos.move_text(mv);
        if parse_move(&pos, &text) != Ok(mv) {
            return fail(&format!("its move {text} does not parse back"));
        }
        let mut child = pos.clone();
        child.play(mv);
        if child.hash() != child.recompute_hash() {
            return fail(&format!("after {text} the hash is wrong"));
        }
        if G::from_fen(&child.fen()).is_err() {
            return fail(&format!(
                "after {text} the FEN {:?} is rejected",
                child.fen()
            ));
        }
    }
    let game = GameState::new(pos);
    let _ = game.result();
    if rng.one_in(16) {
        let limits = Limits::fixed_nodes(64);
        let shared = Shared::new(1);
        let outcome = search_quietly(&game, &limits, &Settings::default(), &shared);
        if let Some(best) = outcome.best {
            if !moves.contains(&best) {
                return fail("a search returned an illegal move");
            }
        } else if !moves.is_empty() && game.position.ended().is_none() {
            return fail("a search found no move though moves exist");
        }
    }
    Ok(true)
}

/// One move-text input: a mutated legal move of a position reached by random play.
fn fuzz_move(rng: &mut Rng) -> Result<bool, String> {
    let variant = *rng.pick(&Variant::ALL);
    let seeds = seed_fens(variant);
    let fen = rng.pick(&seeds).clone();
    crate::with_game!(variant, G => check_move::<G>(&fen, rng))
}

fn check_move<G: Game>(fen: &str, rng: &mut Rng) -> Result<bool, String> {
    let pos = G::from_fen(fen).map_err(|e| format!("seed FEN {fen:?} rejected: {e}"))?;
    let mut game = GameState::new(pos);
    let mut moves = Vec::new();
    for _ in 0..rng.below(12) {
        game.position.generate(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = *rng.pick(&moves);
        game.play(mv);
    }
    game.position.generate(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| game.position.move_text(m)).collect();
    let text = match (texts.is_empty(), rng.below(10)) {
        (false, 0) => rng.pick(&texts).clone(),
        (true, _) | (false, 1) => {
            let bytes: Vec<u8> = (0..rng.below(12)).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => {
            let base = rng.pick(&texts).clone();
            mutate(rng, &base, &texts)
        }
    };
    let fen_before = game.position.fen();
    let history_before = game.history.len();
    let mut after = game.clone();
    match after.play_text(&text) {
        Ok(mv) => {
            if !moves.contains(&mv) || game.position.move_text(mv) != text {
                return Err(format!(
                    "{}: move {text:?} accepted in {fen_before} but it is not a legal move's text",
                    G::NAME
                ));
            }
            Ok(true)
        }
        Err(_) => {
            if texts.contains(&text) {
                return Err(format!(
                    "{}: legal move {text:?} rejected in {fen_before}",
                    G::NAME
                ));
            }
            if after.position.fen() != fen_before || after.history.len() != history_before {
                return Err(format!(
                    "{}: rejected move {text:?} changed the game {fen_before}",
                    G::NAME
                ));
            }
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{AnyGame, Chess};

    #[test]
    fn inputs_are_a_function_of_seed_and_index() {
        let a = mutate(&mut Rng::new(7, 3), Chess::START_FEN, &[]);
        let b = mutate(&mut Rng::new(7, 3), Chess::START_FEN, &[]);
        assert_eq!(a, b);
        let texts: std::collections::HashSet<String> = (0..200)
            .map(|i| mutate(&mut Rng::new(7, i), Chess::START_FEN, &[]))
            .collect();
        assert!(
            texts.len() > 150,
            "mutations are too alike: {}",
            texts.len()
        );
    }

    #[test]
    fn seed_fens_of_every_game_parse() {
        for v in Variant::ALL {
            let fens = seed_fens(v);
            assert!(fens.len() > 3, "{v:?}");
            for fen in fens {
                assert!(AnyGame::from_setup(v, Some(&fen), &[]).is_ok(), "{fen}");
            }
        }
    }
}
