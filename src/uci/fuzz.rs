//! The fuzzer of the protocol (`thoat fuzz --target uci`): whole UCI input lines, valid or
//! mutated, in sessions of a few dozen lines against an in-process [`Uci`]. It lives with
//! the protocol it tests and takes the mutations, the seeds and the driver (watchdog, panic
//! hook) from `tools::robust::fuzz`, which knows nothing of the UCI loop.
//!
//! Properties checked on every line: at most one `info string error` line, exactly one for
//! an unknown command or a `position` that an independent parse rejects; after an error the
//! game and its FEN are unchanged; `d` always prints a FEN that parses and equals the
//! game's; every reply line is well formed and every `bestmove` is legal where its search
//! began.

use super::{Output, Uci, MAX_HASH_MB, MAX_THREADS};
use crate::tools::robust::fuzz::{mutate, seed_fens, Inputs, Rng, Target};
use crate::variants::{AnyGame, Variant};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

/// An in-memory sink for the protocol's output.
type Sink = Arc<Mutex<Vec<u8>>>;

/// The UCI-line inputs of `thoat fuzz --target uci`: sessions of a few dozen lines, each
/// against a fresh [`Uci`].
#[derive(Default)]
pub struct Lines {
    sessions: u64,
}

impl Inputs for Lines {
    fn target(&self) -> Target {
        Target::Uci
    }

    fn try_some(&mut self, rng: &mut Rng, budget: u64) -> (u64, u64, Vec<String>) {
        self.session(rng, budget)
    }
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
    "eval",
];

impl Lines {
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
            // `go perft` runs on its own thread: its divide may come with a later line.
            let mut perfts = 0;
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
                let free_text = matches!(first, "d" | "eval" | "bench");
                if go_accepted {
                    searches.push_back(before.clone());
                }
                if first == "go" && perft && errors == 0 {
                    perfts += 1;
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
                    match expected_position(&line, before.variant()).map(|g| g.fen()) {
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
                if alive && rng.below(4) != 0 {
                    uci.handle("stop");
                    replies.extend(drain(&sink));
                }
                check_replies(
                    &mut replies,
                    &mut searches,
                    &mut perfts,
                    free_text,
                    &mut fail,
                );
                if !alive {
                    break;
                }
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
                check_replies(
                    &mut search_lines,
                    &mut searches,
                    &mut perfts,
                    false,
                    &mut fail,
                );
            }
            uci.handle("stop");
            let mut rest = drain(&sink);
            check_replies(&mut rest, &mut searches, &mut perfts, false, &mut |what| {
                failures.push(format!("at the end ({what}); session: {log:?}"))
            });
            if !searches.is_empty() {
                failures.push(format!(
                    "{} searches never answered bestmove; session: {log:?}",
                    searches.len()
                ));
            }
            if perfts != 0 {
                failures.push(format!(
                    "{perfts} go perft never answered after stop; session: {log:?}"
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

/// Checks reply lines: well formed (unless from `d` or `bench`, or the divide of one of
/// `perfts` running `go perft`s, each ended by an `info string perft` line), and each
/// `bestmove` legal in the position of the oldest unanswered search.
fn check_replies(
    replies: &mut [String],
    searches: &mut std::collections::VecDeque<AnyGame>,
    perfts: &mut usize,
    free_text: bool,
    fail: &mut impl FnMut(String),
) {
    for line in replies.iter() {
        if *perfts > 0 && divide_line(line) {
            if line.starts_with("info string perft") {
                *perfts -= 1;
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("bestmove ") {
            let mv = rest.split(' ').next().unwrap_or("");
            match searches.pop_front() {
                Some(game) => {
                    if mv == "(none)" {
                        if reparse(&game, &game.fen()).is_ok() && !game.is_over() {
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

/// Whether `line` is one of the lines `go perft` prints (RULES.md's divide, then its time
/// or that it was stopped).
fn divide_line(line: &str) -> bool {
    let count = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    line.is_empty()
        || line.starts_with("info string perft ")
        || line.strip_prefix("Nodes searched: ").is_some_and(count)
        || line
            .split_once(": ")
            .is_some_and(|(mv, n)| !mv.is_empty() && !mv.contains(' ') && count(n))
}

fn reparse(game: &AnyGame, fen: &str) -> Result<AnyGame, String> {
    AnyGame::from_setup(game.variant(), Some(fen), &[])
}

/// The game a `position` line must lead to in `variant` (read by the UCI module's own reader
/// of the command: what the fuzzer checks is that the loop applies it, or keeps its previous
/// game when it is refused), or the error. The storm test reads lines with it too.
pub fn expected_position(line: &str, variant: Variant) -> Result<AnyGame, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    super::position_from_args(variant, tokens.get(1..).unwrap_or_default())
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
    let variant = game.variant();
    let legal = game.legal_move_texts();
    let some_moves = |rng: &mut Rng, game: &AnyGame| -> Vec<String> {
        // A random legal line from the current position.
        let mut g = game.clone();
        let mut texts = Vec::new();
        for _ in 0..rng.below(6) {
            let l = g.legal_move_texts();
            if l.is_empty() {
                break;
            }
            let t = rng.pick(&l).clone();
            match AnyGame::from_setup(g.variant(), Some(&g.fen()), &[t.as_str()]) {
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
        4 if rng.below(2) == 0 => "d".to_string(),
        4 => "eval".to_string(),
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
            rng.pick(&Variant::ALL).name()
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
    let max_perft = if game.variant() == Variant::Duck {
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
            Some((8, MAX_HASH_MB as u64))
        } else if lower.contains("threads") {
            Some((4, MAX_THREADS as u64))
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn divide_shapes() {
        for line in [
            "e2e4: 20",
            "e2e4,e4d5: 589",
            "",
            "Nodes searched: 400",
            "info string perft stopped",
        ] {
            assert!(divide_line(line), "{line:?}");
        }
        for line in ["bestmove e2e4", "e2e4: x", "Nodes searched: ", "readyok"] {
            assert!(!divide_line(line), "{line:?}");
        }
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
}
