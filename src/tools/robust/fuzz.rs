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
//! - UCI: at most one `info string error` line per input line, exactly one for an unknown
//!   command or a `position` that an independent parse rejects; after an error the game and
//!   its FEN are unchanged; `d` always prints a FEN that parses and equals the game's;
//!   every reply line is well formed and every `bestmove` is legal where its search began.

use crate::core::game::parse_move;
use crate::core::suite;
use crate::core::{Game, GameState};
use crate::search::{search_quietly, Limits, SearchGame, Settings, Shared};
use crate::uci::{AnyGame, Output, Uci};
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
    /// FEN parsing of all five games.
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
    fens.extend(suite::cases(variant.name()).into_iter().map(|c| c.fen));
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
                    for i in (1..n).rev() {
                        let j = rng.below(i + 1);
                        fields.swap(i, j);
                    }
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

/// Runs `iterations` inputs of `target` from `start` with `seed`, writing a summary and every
/// failure to `out`. Failures are collected, not fatal; a hang aborts the process.
pub fn run(
    target: Target,
    iterations: u64,
    seed: u64,
    start: u64,
    out: &mut impl Write,
) -> std::io::Result<FuzzReport> {
    crate::core::attacks8::init();
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
    let mut uci = UciFuzz::new();
    let mut index = start;
    while report.inputs < iterations {
        CURRENT.store(index, Ordering::Relaxed);
        STARTED_MS.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
        let t0 = Instant::now();
        let mut rng = Rng::new(seed, index);
        let (inputs, accepted, mut failures) = match target {
            Target::Fen => one(|| fuzz_fen(&mut rng)),
            Target::Move => one(|| fuzz_move(&mut rng)),
            Target::Uci => uci.session(&mut rng, iterations - report.inputs),
        };
        for panic in take_panics() {
            failures.push(panic);
        }
        for f in failures {
            let line = format!("FAIL seed {seed} input {index}: {f}");
            writeln!(out, "{line}")?;
            report.failures.push(line);
        }
        if (report.inputs + inputs) / 100_000 > report.inputs / 100_000 {
            writeln!(
                out,
                "progress: {} inputs, {} failures, {} ms",
                report.inputs + inputs,
                report.failures.len(),
                epoch.elapsed().as_millis()
            )?;
            out.flush()?;
        }
        report.inputs += inputs;
        report.accepted += accepted;
        report.slowest_us = report
            .slowest_us
            .max(t0.elapsed().as_micros() / inputs.max(1) as u128);
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

/// One FEN input: a mutated seed FEN of a random game, tried on all five games.
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
        let limits = Limits {
            nodes: Some(64),
            ..Limits::default()
        };
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

/// An in-memory sink for the protocol's output.
type Sink = Arc<Mutex<Vec<u8>>>;

/// The UCI fuzzer's state: the engine under test is created per session.
struct UciFuzz {
    sessions: u64,
}

/// Whether `line` is a reply a GUI understands (lines of `d`, `go perft` and `bench` are
/// free text and are checked elsewhere).
pub fn well_formed_reply(line: &str) -> bool {
    let first = line.split(' ').next().unwrap_or("");
    match first {
        "uciok" | "readyok" => line == first,
        "id" => line.starts_with("id name ") || line.starts_with("id author "),
        "option" => line.starts_with("option name ") && line.contains(" type "),
        "info" => {
            line.len() > 5
                && !line.contains("  ")
                && (line.starts_with("info string ") || {
                    let keys = [
                        "depth",
                        "seldepth",
                        "multipv",
                        "score",
                        "nodes",
                        "nps",
                        "hashfull",
                        "time",
                        "pv",
                        "currmove",
                        "currmovenumber",
                        "tbhits",
                        "lowerbound",
                        "upperbound",
                        "cp",
                        "mate",
                        "string",
                    ];
                    line.split(' ').nth(1).is_some_and(|k| keys.contains(&k))
                })
        }
        "bestmove" => {
            let parts: Vec<&str> = line.split(' ').collect();
            matches!(parts.len(), 2) || (parts.len() == 4 && parts[2] == "ponder")
        }
        _ => false,
    }
}

/// Commands the engine knows (anything else must get exactly one error).
const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "bench",
    "d",
];

impl UciFuzz {
    fn new() -> UciFuzz {
        UciFuzz { sessions: 0 }
    }

    /// One session: a fresh engine, up to 40 lines (at most `budget`). Returns
    /// (lines sent, lines accepted, failures).
    fn session(&mut self, rng: &mut Rng, budget: u64) -> (u64, u64, Vec<String>) {
        self.sessions += 1;
        let sink: Sink = Arc::new(Mutex::new(Vec::new()));
        let out: Output = sink.clone();
        let mut failures = Vec::new();
        let mut sent = 0;
        let mut accepted = 0;
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut uci = Uci::with_hash(out, 1);
            let mut searches: std::collections::VecDeque<AnyGame> = Default::default();
            let lines = (1 + rng.below(40) as u64).min(budget);
            let mut log = Vec::new();
            for n in 0..lines {
                let line = sanitize(&command_line(rng, uci.game()), uci.game());
                log.push(line.clone());
                let before = uci.game().clone();
                let alive = uci.handle(&line);
                sent = n + 1;
                // Usually stop a search at once (keeps inputs short); sometimes let it run
                // into the next commands, as a GUI may.
                let mut replies = drain(&sink);
                let errors = replies
                    .iter()
                    .filter(|l| l.starts_with("info string error"))
                    .count();
                let mut fail = |what: String| {
                    failures.push(format!("line {n} {line:?} ({what}); session: {log:?}"))
                };
                let first = line.split_whitespace().next().unwrap_or("");
                let perft = line.split_whitespace().any(|t| t == "perft");
                let go_accepted = first == "go" && errors == 0 && !perft;
                let free_text = matches!(first, "d" | "bench") || (first == "go" && perft);
                if go_accepted {
                    searches.push_back(before.clone());
                }
                if errors > 1 {
                    fail(format!("{errors} error lines: {replies:?}"));
                }
                if errors == 0 {
                    accepted += 1;
                }
                if errors > 0 && uci.game().fen() != before.fen() {
                    fail("an error changed the position".to_string());
                }
                if !first.is_empty() && !COMMANDS.contains(&first) && errors != 1 {
                    fail(format!("unknown command: {errors} error lines"));
                }
                if first == "position" {
                    match expected_position(&line, variant_of(&before)).map(|g| g.fen()) {
                        Ok(fen) if errors != 0 || uci.game().fen() != fen => fail(format!(
                            "valid position: expected {fen}, got {} with {errors} errors",
                            uci.game().fen()
                        )),
                        Err(_) if errors != 1 => {
                            fail(format!("invalid position: {errors} error lines"))
                        }
                        _ => {}
                    }
                }
                if !alive {
                    check_replies(&mut replies, &mut searches, free_text, &mut fail);
                    break;
                }
                if rng.below(4) != 0 {
                    uci.handle("stop");
                    replies.extend(drain(&sink));
                }
                check_replies(&mut replies, &mut searches, free_text, &mut fail);
                // The position must always be printable and parse back.
                uci.handle("d");
                let d = drain(&sink);
                match d.iter().find_map(|l| l.strip_prefix("Fen: ")) {
                    Some(fen) if fen == uci.game().fen() => {
                        if reparse(uci.game(), fen).is_err() {
                            fail(format!("d printed a FEN that does not parse: {fen}"));
                        }
                    }
                    other => fail(format!("d printed no FEN of the game: {other:?}")),
                }
                // A running search may have printed in between; check those lines too.
                let mut search_lines: Vec<String> = d
                    .into_iter()
                    .filter(|l| l.starts_with("bestmove") || l.starts_with("info"))
                    .collect();
                check_replies(&mut search_lines, &mut searches, false, &mut fail);
            }
            uci.handle("stop");
            let mut rest = drain(&sink);
            check_replies(&mut rest, &mut searches, false, &mut |what| {
                failures.push(format!("at the end ({what}); session: {log:?}"))
            });
            if !searches.is_empty() {
                failures.push(format!(
                    "{} searches never answered bestmove; session: {log:?}",
                    searches.len()
                ));
            }
            sent = sent.max(1);
        }));
        if result.is_err() {
            sent = sent.max(1);
        }
        (sent, accepted, failures)
    }
}

/// Checks reply lines: well formed (unless from `d`, `go perft` or `bench`), and each
/// `bestmove` legal in the position of the oldest unanswered search.
fn check_replies(
    replies: &mut [String],
    searches: &mut std::collections::VecDeque<AnyGame>,
    free_text: bool,
    fail: &mut impl FnMut(String),
) {
    for line in replies.iter() {
        if let Some(rest) = line.strip_prefix("bestmove ") {
            let mv = rest.split(' ').next().unwrap_or("");
            match searches.pop_front() {
                Some(game) => {
                    if mv == "(none)" {
                        if reparse(&game, &game.fen()).is_ok() && any_moves(&game) {
                            fail(format!(
                                "bestmove (none) with legal moves in {}",
                                game.fen()
                            ));
                        }
                    } else if !game.is_legal(mv) {
                        fail(format!("illegal bestmove {mv} in {}", game.fen()));
                    }
                }
                None => fail(format!("bestmove without a search: {line}")),
            }
        }
        if !well_formed_reply(line) && !free_text {
            fail(format!("malformed reply {line:?}"));
        }
    }
}

fn any_moves(game: &AnyGame) -> bool {
    match game {
        AnyGame::Chess(g) => g.result().is_none(),
        AnyGame::Duck(g) => g.result().is_none(),
        AnyGame::Chaturanga(g) => g.result().is_none(),
        AnyGame::Skak(g) => g.result().is_none(),
        AnyGame::Jetan(g) => g.result().is_none(),
    }
}

/// The variant of a game.
pub fn variant_of(game: &AnyGame) -> Variant {
    match game {
        AnyGame::Chess(_) => Variant::Chess,
        AnyGame::Duck(_) => Variant::Duck,
        AnyGame::Chaturanga(_) => Variant::Chaturanga,
        AnyGame::Skak(_) => Variant::Skak,
        AnyGame::Jetan(_) => Variant::Jetan,
    }
}

fn reparse(game: &AnyGame, fen: &str) -> Result<AnyGame, String> {
    AnyGame::from_setup(variant_of(game), Some(fen), &[])
}

/// An independent reading of a `position` line (of the UCI module's): the game it must lead
/// to in `variant`, or an error when it must be refused. The storm test reads lines with it
/// too.
pub fn expected_position(line: &str, variant: Variant) -> Result<AnyGame, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let rest = tokens.get(1..).unwrap_or_default();
    let (setup, moves) = match rest.iter().position(|&t| t == "moves") {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => None,
        ["fen", f @ ..] if !f.is_empty() => Some(f.join(" ")),
        _ => return Err("usage".to_string()),
    };
    AnyGame::from_setup(variant, fen.as_deref(), moves)
}

fn drain(sink: &Sink) -> Vec<String> {
    let bytes = std::mem::take(&mut *sink.lock().unwrap_or_else(|p| p.into_inner()));
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

/// A random command line, valid or nearly so, for the current game.
fn command_line(rng: &mut Rng, game: &AnyGame) -> String {
    let variant = variant_of(game);
    let legal = legal_texts(game);
    let some_moves = |rng: &mut Rng, game: &AnyGame| -> Vec<String> {
        // A random legal line from the current position.
        let mut g = game.clone();
        let mut texts = Vec::new();
        for _ in 0..rng.below(6) {
            let l = legal_texts(&g);
            if l.is_empty() {
                break;
            }
            let t = rng.pick(&l).clone();
            match AnyGame::from_setup(variant_of(&g), Some(&g.fen()), &[t.as_str()]) {
                Ok(next) => g = next,
                Err(_) => break,
            }
            texts.push(t);
        }
        texts
    };
    let line = match rng.below(24) {
        0 => "uci".to_string(),
        1 | 2 => "isready".to_string(),
        3 => "ucinewgame".to_string(),
        4 => "d".to_string(),
        5 => "stop".to_string(),
        6 => "ponderhit".to_string(),
        7 => format!(
            "position startpos moves {}",
            some_moves(rng, game).join(" ")
        ),
        8 | 9 => {
            let v = if rng.one_in(4) {
                *rng.pick(&Variant::ALL)
            } else {
                variant
            };
            let fens = seed_fens(v);
            format!("position fen {}", rng.pick(&fens))
        }
        10 => format!(
            "position fen {} moves {}",
            game.fen(),
            some_moves(rng, game).join(" ")
        ),
        11 => format!(
            "setoption name UCI_Variant value {}",
            rng.pick(&crate::variants::NAMES)
        ),
        12 => format!(
            "setoption name {} value {}",
            rng.pick(&["Hash", "Threads", "MultiPV", "Move Overhead"]),
            1 + rng.below(3)
        ),
        13 => format!(
            "setoption name {}",
            rng.pick(&["Clear Hash", "Ponder value true", "Ponder value false"])
        ),
        14 => format!("go depth {}", 1 + rng.below(3)),
        15 => format!("go nodes {}", 1 + rng.below(400)),
        16 => format!("go movetime {}", rng.below(5)),
        17 => format!(
            "go wtime {} btime {} winc {} binc {} movestogo {}",
            rng.below(3000),
            rng.below(3000),
            rng.below(50),
            rng.below(50),
            1 + rng.below(40)
        ),
        18 => "go infinite".to_string(),
        19 => format!("go ponder movetime {}", rng.below(5)),
        20 => format!("go mate {}", 1 + rng.below(3)),
        21 if !legal.is_empty() => format!(
            "go depth 2 searchmoves {} {}",
            rng.pick(&legal),
            rng.pick(&legal)
        ),
        22 => format!("go perft {}", 1 + rng.below(2)),
        // `bench` runs a fixed path through every game and costs milliseconds: rarely.
        _ if rng.one_in(10) => "bench 1".to_string(),
        _ => "isready".to_string(),
    };
    let line = line.trim_end().to_string();
    if rng.one_in(2) {
        line
    } else {
        let others: Vec<String> = COMMANDS.iter().map(|c| c.to_string()).collect();
        mutate(rng, &line, &others)
    }
}

/// Keeps a fuzzed line from asking for hours of work or gigabytes: `go perft` deeper than
/// 2 (1 in duck chess), `bench` deeper than 1, `Hash` over 8 MiB, `Threads` over 4. These
/// are legitimate but slow requests, not malformed ones; the rejection of values beyond the
/// options' ranges is still exercised (`Hash` above the maximum is kept).
fn sanitize(line: &str, game: &AnyGame) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut out: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    let max_perft = if variant_of(game) == Variant::Duck {
        1
    } else {
        2
    };
    for (i, t) in tokens.iter().enumerate() {
        let next_number = tokens.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        if *t == "perft" {
            if let Some(d) = next_number {
                if d > max_perft {
                    out[i + 1] = max_perft.to_string();
                }
            }
        }
    }
    if tokens.first() == Some(&"bench") {
        return "bench 1".to_string();
    }
    if tokens.first() == Some(&"setoption") {
        let lower = line.to_ascii_lowercase();
        let limit = if lower.contains("hash") {
            Some((8, crate::uci::MAX_HASH_MB as u64))
        } else if lower.contains("threads") {
            Some((4, crate::uci::MAX_THREADS as u64))
        } else {
            None
        };
        if let Some((cap, max)) = limit {
            for t in out.iter_mut() {
                if let Ok(v) = t.parse::<u64>() {
                    if v > cap && v <= max {
                        *t = "2".to_string();
                    }
                }
            }
        }
    }
    if out.len() == tokens.len() && out.iter().zip(&tokens).all(|(a, b)| a == b) {
        line.to_string() // unchanged: keep its original whitespace
    } else {
        out.join(" ")
    }
}

fn legal_texts(game: &AnyGame) -> Vec<String> {
    fn texts<G: Game>(g: &GameState<G>) -> Vec<String> {
        let mut moves = Vec::new();
        g.position.generate(&mut moves);
        moves.iter().map(|&m| g.position.move_text(m)).collect()
    }
    match game {
        AnyGame::Chess(g) => texts(g),
        AnyGame::Duck(g) => texts(g),
        AnyGame::Chaturanga(g) => texts(g),
        AnyGame::Skak(g) => texts(g),
        AnyGame::Jetan(g) => texts(g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

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
    fn sanitize_caps_slow_requests_only() {
        let chess = AnyGame::from_setup(Variant::Chess, None, &[]).unwrap();
        assert_eq!(sanitize("go perft 9", &chess), "go perft 2");
        assert_eq!(sanitize("go  perft 1", &chess), "go  perft 1");
        assert_eq!(
            sanitize("setoption name Hash value 4096", &chess),
            "setoption name Hash value 2"
        );
        assert_eq!(
            sanitize("setoption name Hash value 99999", &chess),
            "setoption name Hash value 99999"
        );
        assert_eq!(sanitize("bench 9", &chess), "bench 1");
    }

    #[test]
    fn reply_shapes() {
        assert!(well_formed_reply("bestmove e2e4"));
        assert!(well_formed_reply("bestmove e2e4 ponder e7e5"));
        assert!(well_formed_reply("info depth 3 score cp 20 pv e2e4"));
        assert!(well_formed_reply("info string error: bad"));
        assert!(!well_formed_reply("bestmove"));
        assert!(!well_formed_reply("panicked at"));
        assert!(!well_formed_reply("info  depth"));
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
        let _ = (
            Duck::START_FEN,
            Chaturanga::START_FEN,
            Skak::START_FEN,
            Jetan::START_FEN,
        );
    }
}
