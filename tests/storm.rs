//! Protocol storm: the real binary is driven with thousands of random mixes of valid and
//! invalid commands — positions of every game, `go` of every kind with tiny limits, `stop`
//! at random moments, `isready` floods, `setoption` mid-search, `ucinewgame`, variant
//! switches, garbage — while a model of the engine's state predicts what must happen:
//! every reply line is well formed, each command gets exactly the errors it deserves
//! (0 or 1), `d` shows the model's position, every `isready` is answered, every search
//! answers exactly one legal `bestmove` (inside `searchmoves` when given), and the engine
//! never dies and exits cleanly on `quit`.
//!
//! `THOAT_STORM_ACTIONS=<n>` sets the number of actions (default 1000, about 10 s);
//! `THOAT_STORM_SEED=<s>` the seed.

mod common;

use common::engine::Engine;
use std::collections::VecDeque;
use std::time::Duration;
use thoat::tools::robust::fuzz::{mutate, seed_fens, Rng};
use thoat::uci::fuzz::{expected_position, well_formed_reply};
use thoat::variants::{AnyGame, Variant};

const WAIT: Duration = Duration::from_secs(60);

/// A search the engine owes a `bestmove` for.
struct Search {
    game: AnyGame,
    searchmoves: Vec<String>,
    /// `go infinite`, or `go ponder` before `ponderhit`: only `stop` ends it.
    waits: bool,
    /// Started with `go ponder`.
    ponder: bool,
}

struct Storm {
    e: Engine,
    rng: Rng,
    variant: Variant,
    game: AnyGame,
    searches: VecDeque<Search>,
    log: VecDeque<String>,
    bestmoves: u64,
    readyoks: u64,
    errors: u64,
}

impl Storm {
    fn new(seed: u64) -> Storm {
        Storm {
            e: Engine::start(),
            rng: Rng::new(seed, 0),
            variant: Variant::Chess,
            game: start(Variant::Chess),
            searches: VecDeque::new(),
            log: VecDeque::new(),
            bestmoves: 0,
            readyoks: 0,
            errors: 0,
        }
    }

    fn send(&mut self, line: &str) {
        self.log.push_back(line.to_string());
        if self.log.len() > 40 {
            self.log.pop_front();
        }
        self.e.send(line);
    }

    fn fail(&self, what: String) -> ! {
        panic!("{what}\nlast commands: {:#?}", self.log);
    }

    /// Checks lines read from the engine; returns (error lines, readyok lines). Lines of
    /// `d`, `uci` output and `go perft` are allowed when `free_text`.
    fn check(&mut self, lines: &[String], free_text: bool) -> (usize, usize) {
        let (mut errors, mut ready) = (0, 0);
        for line in lines {
            if line == "readyok" {
                ready += 1;
            } else if line.starts_with("info string error") {
                errors += 1;
            } else if let Some(rest) = line.strip_prefix("bestmove ") {
                let mv = rest.split(' ').next().unwrap_or("").to_string();
                let Some(search) = self.searches.pop_front() else {
                    self.fail(format!("bestmove without a search: {line}"));
                };
                self.bestmoves += 1;
                if mv == "(none)" {
                    if has_moves(&search.game) {
                        self.fail(format!("bestmove (none) in {}", search.game.fen()));
                    }
                } else if !search.game.is_legal(&mv) {
                    self.fail(format!("illegal bestmove {mv} in {}", search.game.fen()));
                } else if !search.searchmoves.is_empty() && !search.searchmoves.contains(&mv) {
                    self.fail(format!("bestmove {mv} not in {:?}", search.searchmoves));
                }
            }
            if !well_formed_reply(line) && !free_text {
                self.fail(format!("malformed reply {line:?}"));
            }
        }
        self.readyoks += ready as u64;
        self.errors += errors as u64;
        (errors, ready)
    }

    /// Sends `isready` and reads until `expected_ready` more `readyok`s than were already
    /// owed have arrived; returns every line read (checked).
    fn sync(&mut self, owed_ready: usize, free_text: bool) -> (usize, Vec<String>) {
        self.send("isready");
        let mut all = Vec::new();
        let mut errors = 0;
        let mut ready = 0;
        while ready < owed_ready + 1 {
            let lines = self.e.read_until(|l| l == "readyok", WAIT);
            let (er, rd) = self.check(&lines, free_text);
            errors += er;
            ready += rd;
            all.extend(lines);
        }
        (errors, all)
    }

    /// Sends a command that must produce `expected` error lines.
    fn command(&mut self, line: &str, expected: usize) {
        self.send(line);
        let (errors, lines) = self.sync(0, false);
        if errors != expected {
            self.fail(format!(
                "{line:?}: {errors} error lines, expected {expected}: {lines:?}"
            ));
        }
    }

    /// Commands that end any search first (`position`, `setoption`, `ucinewgame`, `stop`):
    /// after them no search may be owed.
    fn all_answered(&self, after: &str) {
        if !self.searches.is_empty() {
            self.fail(format!(
                "{} searches unanswered after {after}",
                self.searches.len()
            ));
        }
    }

    /// Waits for the `bestmove` of searches that end by themselves.
    fn wait_finite(&mut self) {
        while self.searches.front().is_some_and(|s| !s.waits) {
            let lines = self.e.read_until(|l| l.starts_with("bestmove"), WAIT);
            self.check(&lines, false);
        }
    }

    fn random_moves(&mut self, from: &AnyGame, max: usize) -> Vec<String> {
        let mut g = from.clone();
        let mut texts = Vec::new();
        for _ in 0..self.rng.below(max + 1) {
            let legal = legal_texts(&g);
            if legal.is_empty() {
                break;
            }
            let t = self.rng.pick(&legal).clone();
            g = AnyGame::from_setup(self.variant, Some(&g.fen()), &[t.as_str()])
                .expect("a legal move plays");
            texts.push(t);
        }
        texts
    }

    fn valid_position(&mut self) -> String {
        if self.rng.one_in(2) {
            let base = start(self.variant);
            let moves = self.random_moves(&base, 8);
            format!("position startpos moves {}", moves.join(" "))
        } else {
            let fens = seed_fens(self.variant);
            let fen = self.rng.pick(&fens).clone();
            let base = AnyGame::from_setup(self.variant, Some(&fen), &[]).expect("seed FEN");
            let moves = self.random_moves(&base, 4);
            format!("position fen {fen} moves {}", moves.join(" "))
        }
    }

    fn position(&mut self, line: &str) {
        let expected = expected_position(line, self.variant).ok();
        self.command(line, usize::from(expected.is_none()));
        self.all_answered(line);
        if let Some(g) = expected {
            self.game = g;
        }
    }

    fn go(&mut self) {
        if self.searches.front().is_some_and(|s| s.waits) {
            if self.rng.one_in(3) {
                // A second `go` while an infinite search runs is refused.
                self.command("go depth 1", 1);
                return;
            }
            self.command("stop", 0);
            self.all_answered("stop");
        }
        self.wait_finite();
        let legal = legal_texts(&self.game);
        let mut searchmoves = Vec::new();
        let mut waits = false;
        let line = match self.rng.below(11) {
            0 => format!("go depth {}", 1 + self.rng.below(3)),
            1 => format!("go nodes {}", 1 + self.rng.below(300)),
            2 => format!("go movetime {}", 1 + self.rng.below(20)),
            3 => format!(
                "go wtime {} btime {} winc {} binc {}",
                self.rng.below(300),
                self.rng.below(300),
                self.rng.below(20),
                self.rng.below(20)
            ),
            4 => format!(
                "go wtime {} btime {} movestogo {}",
                50 + self.rng.below(300),
                50 + self.rng.below(300),
                1 + self.rng.below(30)
            ),
            5 => format!("go mate {} nodes 3000", 1 + self.rng.below(2)),
            6 | 7 => {
                waits = true;
                "go infinite".to_string()
            }
            8 => {
                waits = true;
                format!("go ponder movetime {}", 1 + self.rng.below(20))
            }
            9 if !legal.is_empty() => {
                for _ in 0..1 + self.rng.below(3) {
                    searchmoves.push(self.rng.pick(&legal).clone());
                }
                format!("go depth 2 searchmoves {}", searchmoves.join(" "))
            }
            _ => format!("go perft {}", 1 + self.rng.below(2)),
        };
        if line.starts_with("go perft") {
            let max = if self.variant == Variant::Duck { 1 } else { 2 };
            let line = format!("go perft {}", 1 + self.rng.below(max));
            self.send(&line);
            // It runs on its own thread, as a search does: an `isready` may be answered
            // before its divide comes.
            let lines = self
                .e
                .read_until(|l| l.starts_with("Nodes searched: "), WAIT);
            let (errors, _) = self.check(&lines, true);
            let (more, rest) = self.sync(0, true);
            let time_line = |l: &String| l.starts_with("info string perft time ") || l == "readyok";
            if errors + more != 0 || !rest.iter().all(time_line) {
                self.fail(format!("{line}: {errors} errors, lines {lines:?} {rest:?}"));
            }
            return;
        }
        self.searches.push_back(Search {
            game: self.game.clone(),
            searchmoves,
            waits,
            ponder: line.starts_with("go ponder"),
        });
        self.send(&line);
        // Sometimes check at once that the command was accepted; sometimes send the next
        // command while the search starts.
        if self.rng.one_in(2) {
            let (errors, _) = self.sync(0, false);
            if errors != 0 {
                self.fail(format!("{line}: {errors} error lines"));
            }
        }
    }

    fn setoption(&mut self) {
        let (line, errors) = match self.rng.below(9) {
            0 | 1 => {
                let v = *self.rng.pick(&Variant::ALL);
                self.variant = v;
                self.game = start(v);
                (format!("setoption name UCI_Variant value {}", v.name()), 0)
            }
            2 => (
                format!("setoption name Hash value {}", 1 + self.rng.below(8)),
                0,
            ),
            3 => (
                format!("setoption name Threads value {}", 1 + self.rng.below(2)),
                0,
            ),
            4 => (
                format!("setoption name MultiPV value {}", 1 + self.rng.below(3)),
                0,
            ),
            5 => (
                format!("setoption name Move Overhead value {}", self.rng.below(50)),
                0,
            ),
            6 => ("setoption name Clear Hash".to_string(), 0),
            7 => ("setoption name Ponder value true".to_string(), 0),
            _ => (
                self.rng
                    .pick(&[
                        "setoption name UCI_Variant value xiangqi",
                        "setoption name Hash value 0",
                        "setoption name Hash value 99999999999999999999",
                        "setoption name Threads value -1",
                        "setoption name Nonsense value 1",
                        "setoption name",
                        "setoption",
                    ])
                    .to_string(),
                1,
            ),
        };
        self.command(&line, errors);
        self.all_answered(&line);
    }

    fn garbage(&mut self) {
        let line = match self.rng.below(6) {
            0 => format!("frob{}", self.rng.below(1000)),
            1 => "\u{1F600} go".to_string(),
            2 => {
                let bytes: Vec<u8> = (0..1 + self.rng.below(30))
                    .map(|_| b'A' + self.rng.below(26) as u8)
                    .collect();
                format!("x{}", String::from_utf8_lossy(&bytes))
            }
            3 => "go depth x".to_string(),
            4 => "go searchmoves z9z9".to_string(),
            _ => "go sideways".to_string(),
        };
        // Refused either way (bad syntax, or a search already running): one error.
        self.command(&line, 1);
    }

    fn d(&mut self) {
        self.send("d");
        let (errors, lines) = self.sync(0, true);
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: "));
        if errors != 0 || fen != Some(self.game.fen().as_str()) {
            self.fail(format!("d: expected {}, got {fen:?}", self.game.fen()));
        }
    }

    fn action(&mut self) {
        match self.rng.below(22) {
            0..=3 => {
                let line = self.valid_position();
                self.position(&line);
            }
            4 | 5 => {
                let valid = self.valid_position();
                let others = vec![valid.clone()];
                // One command per line: a newline from the mutation would make two.
                let line = mutate(&mut self.rng, &valid, &others).replace(['\n', '\r'], " ");
                let line = if line.split_whitespace().next() == Some("position") {
                    line
                } else {
                    format!("position {line}")
                };
                self.position(&line);
            }
            6..=10 => self.go(),
            11 | 12 => {
                std::thread::sleep(Duration::from_millis(self.rng.below(15) as u64));
                self.command("stop", 0);
                self.all_answered("stop");
            }
            13 => {
                let k = 1 + self.rng.below(40);
                for _ in 0..k {
                    self.send("isready");
                }
                let (errors, _) = self.sync(k, false);
                if errors != 0 {
                    self.fail(format!("isready flood: {errors} errors"));
                }
            }
            14 | 15 => self.setoption(),
            16 => {
                self.command("ucinewgame", 0);
                self.all_answered("ucinewgame");
                self.game = start(self.variant);
            }
            17 => {
                // `ponderhit` turns a ponder search into a normal one (its movetime now
                // runs); an infinite search keeps waiting for `stop`.
                if let Some(search) = self.searches.front_mut() {
                    if search.ponder {
                        search.waits = false;
                    }
                }
                self.command("ponderhit", 0);
            }
            18 => self.garbage(),
            19 => self.d(),
            20 => {
                self.send("uci");
                let (errors, lines) = self.sync(0, false);
                if errors != 0 || !lines.iter().any(|l| l == "uciok") {
                    self.fail(format!("uci: {lines:?}"));
                }
            }
            _ => std::thread::sleep(Duration::from_millis(self.rng.below(5) as u64)),
        }
    }

    fn finish(mut self) -> (u64, u64, u64) {
        self.command("stop", 0);
        self.wait_finite();
        self.all_answered("the final stop");
        let figures = (self.bestmoves, self.readyoks, self.errors);
        self.e.quit();
        figures
    }
}

fn start(v: Variant) -> AnyGame {
    AnyGame::from_setup(v, None, &[]).expect("start position")
}

fn legal_texts(game: &AnyGame) -> Vec<String> {
    game.legal_move_texts()
}

/// Whether a search here must find a move: in a game already decided (a king captured,
/// the countdown, no legal move, a draw) `bestmove (none)` is allowed.
fn has_moves(game: &AnyGame) -> bool {
    !game.is_over()
}

fn actions() -> usize {
    std::env::var("THOAT_STORM_ACTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

#[test]
fn protocol_storm_every_reply_well_formed_every_bestmove_legal() {
    let seed = std::env::var("THOAT_STORM_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2026);
    let mut storm = Storm::new(seed);
    let n = actions();
    for _ in 0..n {
        storm.action();
    }
    let (bestmoves, readyoks, errors) = storm.finish();
    eprintln!(
        "storm: {n} actions, {bestmoves} bestmoves, {readyoks} readyok, {errors} error lines"
    );
    assert!(bestmoves > n as u64 / 20, "too few searches: {bestmoves}");
    assert!(readyoks >= n as u64);
    assert!(errors > 0);
}

/// A `go` sent the moment the previous search's `bestmove` is read must start a new search,
/// not be refused as "a search is already running" (the search thread may not have ended).
#[test]
fn go_right_after_bestmove_is_accepted() {
    let mut e = Engine::start();
    e.send("position startpos");
    for _ in 0..300 {
        e.send("go nodes 1");
        let (mv, lines) = e.bestmove(WAIT);
        assert!(!mv.is_empty(), "{lines:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("info string error")),
            "{lines:?}"
        );
    }
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    e.quit();
}
