//! The UCI protocol loop. Commands are matched on their tokens; every malformed or illegal
//! input is answered with one `info string error: ...` line and leaves the state unchanged.
//!
//! A front end, like `main`: it may run tools (`bench`), and no tool uses it; its own
//! fuzzer is [`fuzz`].

pub mod fuzz;
mod jobs;

use crate::nnue::network::Network;
use crate::search::{Clock, EvalMode, Limits, Settings, Shared, DEFAULT_CONTEMPT, MAX_PLY};
use crate::variants::{AnyGame, Variant};
use jobs::{Answer, PerftJob, Running, SearchJob};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The largest `Threads` value accepted.
pub const MAX_THREADS: usize = 256;
/// The largest `Hash` in MiB.
pub const MAX_HASH_MB: usize = 16_384;
/// The deepest `go perft` accepted (deeper would run for years in any game).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Where the protocol writes: shared between the command loop and the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// Writes one line (or several) to the shared output and flushes.
pub fn send(out: &Output, text: &str) {
    // A poisoned lock only means another thread panicked mid-write; keep writing.
    let mut sink = out.lock().unwrap_or_else(|p| p.into_inner());
    let _ = writeln!(sink, "{text}");
    let _ = sink.flush();
}

/// The UCI options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines of analysis.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead: u64,
    /// Whether the GUI may ask for pondering.
    pub ponder: bool,
    /// The evaluation: the network (the full evaluation where the game has none), full,
    /// material only, or random moves (for measuring strength).
    pub eval: EvalMode,
    /// Whether `Evaluation` was set: a game without a network is then worth a warning.
    pub eval_chosen: bool,
    /// Centipawns below an even position that a draw is worth to the engine.
    pub contempt: i32,
    /// Networks loaded with `EvalFile`, one per game at most.
    pub networks: Vec<(Variant, Arc<Network>)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 30,
            ponder: false,
            eval: EvalMode::Nnue,
            eval_chosen: false,
            contempt: DEFAULT_CONTEMPT,
            networks: Vec::new(),
        }
    }
}

/// The protocol state: the chosen game, the position, the options and any running search.
pub struct Uci {
    variant: Variant,
    game: AnyGame,
    options: Options,
    shared: Arc<Shared>,
    pool: Option<Arc<rayon::ThreadPool>>,
    running: Option<Running>,
    out: Output,
}

impl Uci {
    /// A fresh session writing to `out`: chess, start position, default options.
    pub fn new(out: Output) -> Uci {
        Uci::with_hash(out, Options::default().hash_mb)
    }

    /// A fresh session with a `Hash` of `hash_mb` MiB (the fuzzer starts thousands of
    /// sessions; zeroing the default table for each would cost more than the session).
    pub fn with_hash(out: Output, hash_mb: usize) -> Uci {
        let variant = Variant::default();
        let options = Options {
            hash_mb: hash_mb.clamp(1, MAX_HASH_MB),
            ..Options::default()
        };
        Uci {
            variant,
            game: AnyGame::start(variant),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            pool: None,
            running: None,
            out,
        }
    }

    /// The current game.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Reads commands from `input` until `quit` or end of input, then ends any search.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.split(b'\n') {
            let line = line?;
            match String::from_utf8(line) {
                Ok(text) => {
                    if !self.handle(&text) {
                        break;
                    }
                }
                Err(_) => send(&self.out, "info string error: input is not valid UTF-8"),
            }
        }
        self.finish_search(true);
        Ok(())
    }

    /// Handles one command line. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let result = match tokens.as_slice() {
            [] => Ok(()),
            ["quit", ..] => {
                self.finish_search(true);
                return false;
            }
            ["uci", ..] => {
                send(&self.out, &self.uci_text());
                Ok(())
            }
            ["isready", ..] => {
                send(&self.out, "readyok");
                Ok(())
            }
            ["stop", ..] => {
                self.finish_search(true);
                Ok(())
            }
            ["ponderhit", ..] => {
                if let Some(running) = &self.running {
                    if let Some(clock) = &running.clock {
                        clock.ponderhit();
                    }
                    running.handle.thread().unpark();
                }
                Ok(())
            }
            ["ucinewgame", ..] => {
                self.finish_search(true);
                self.game = AnyGame::start(self.variant);
                self.shared.clear();
                Ok(())
            }
            ["setoption", rest @ ..] => {
                self.finish_search(true);
                self.cmd_setoption(rest)
            }
            ["position", rest @ ..] => {
                self.finish_search(true);
                self.cmd_position(rest)
            }
            ["go", rest @ ..] => self.cmd_go(rest),
            ["bench", rest @ ..] => {
                self.finish_search(true);
                self.cmd_bench(rest)
            }
            ["d", ..] => {
                send(&self.out, self.game.describe().trim_end());
                Ok(())
            }
            ["eval", ..] => {
                let text = self.game.evaluation_text(&self.settings());
                send(&self.out, text.trim_end());
                Ok(())
            }
            // Standard UCI commands with nothing to do here: debug output goes to the log
            // (`RUST_LOG`), and the engine needs no registration.
            ["debug", "on" | "off"] | ["register", ..] => Ok(()),
            ["debug", ..] => Err("usage: debug on|off".to_string()),
            [cmd, ..] => Err(format!("unknown command '{}'", cmd.escape_debug())),
        };
        if let Err(message) = result {
            send(&self.out, &format!("info string error: {message}"));
        }
        true
    }

    fn uci_text(&self) -> String {
        let variants: Vec<String> = Variant::names()
            .iter()
            .map(|n| format!("var {n}"))
            .collect();
        format!(
            "id name thoat {}\nid author the thoat authors\n\
             option name UCI_Variant type combo default {} {}\n\
             option name Hash type spin default 16 min 1 max {MAX_HASH_MB}\n\
             option name Threads type spin default 1 min 1 max {MAX_THREADS}\n\
             option name MultiPV type spin default 1 min 1 max 256\n\
             option name Move Overhead type spin default 30 min 0 max 5000\n\
             option name Clear Hash type button\n\
             option name Ponder type check default false\n\
             option name Evaluation type combo default nnue var full var material var random var nnue\n\
             option name EvalFile type string default <none>\n\
             option name Contempt type spin default {DEFAULT_CONTEMPT} min -1000 max 1000\nuciok",
            env!("CARGO_PKG_VERSION"),
            Variant::default(),
            variants.join(" ")
        )
    }

    /// Ends a running search: with `stop` it is told to stop now; it prints its `bestmove`.
    fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.halt.store(true, Ordering::SeqCst);
                self.shared.stop.store(true, Ordering::Relaxed);
                running.handle.thread().unpark();
            }
            if running.handle.join().is_err() {
                send(&self.out, "info string error: the search thread failed");
            }
        }
    }

    fn cmd_setoption(&mut self, tokens: &[&str]) -> Result<(), String> {
        let (name, value) = parse_setoption(tokens)?;
        let signed_number = |min: i64, max: i64| -> Result<i64, String> {
            value
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| {
                    format!("option '{name}' takes a number from {min} to {max}, not '{value}'")
                })
        };
        // Every bound below is within both types, so the casts are exact.
        let number = |min: u64, max: u64| signed_number(min as i64, max as i64).map(|v| v as u64);
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant = Variant::from_name(&value)?;
                if variant != self.variant {
                    // Another game's tables and histories mean nothing in this one.
                    self.shared.clear();
                }
                self.variant = variant;
                self.game = AnyGame::start(variant);
            }
            "threads" => {
                self.options.threads = number(1, MAX_THREADS as u64)? as usize;
                self.pool = None;
                self.shared.keep_threads(self.options.threads);
            }
            "hash" => {
                let mb = number(1, MAX_HASH_MB as u64)? as usize;
                // Free the old table first, so that both never have to fit at once.
                self.shared = Arc::new(Shared::new(1));
                match Shared::try_new(mb) {
                    Ok(shared) => {
                        self.shared = Arc::new(shared);
                        self.options.hash_mb = mb;
                    }
                    Err(e) => {
                        self.shared = Arc::new(Shared::new(self.options.hash_mb));
                        return Err(format!("{e}; keeping {} MiB", self.options.hash_mb));
                    }
                }
            }
            "multipv" => self.options.multipv = number(1, 256)? as usize,
            "evaluation" => {
                self.options.eval = EvalMode::from_name(&value)?;
                self.options.eval_chosen = true;
            }
            "evalfile" => {
                // The file names its game, so it may come before or after UCI_Variant (GUIs
                // send options in their own order): it is kept for that game.
                let bytes = std::fs::read(&value)
                    .map_err(|e| format!("cannot read the network '{value}': {e}"))?;
                let game =
                    Network::game_of(&bytes).map_err(|e| format!("network '{value}': {e}"))?;
                let variant = Variant::from_name(&game).map_err(|_| {
                    format!("network '{value}' is for '{game}', not a game of thoat")
                })?;
                let network = crate::with_game!(variant, G => Network::from_bytes::<G>(&bytes))
                    .map_err(|e| format!("network '{value}': {e}"))?;
                self.options.networks.retain(|(v, _)| *v != variant);
                self.options.networks.push((variant, Arc::new(network)));
                if variant != self.variant {
                    send(
                        &self.out,
                        &format!(
                            "info string EvalFile '{value}' is a {game} network: it evaluates when UCI_Variant is {game}"
                        ),
                    );
                }
            }
            "contempt" => self.options.contempt = signed_number(-1000, 1000)? as i32,
            "move overhead" => self.options.move_overhead = number(0, 5000)?,
            "clear hash" => self.shared.tt.clear(),
            "ponder" => {
                self.options.ponder = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "option 'Ponder' takes true or false, not '{value}'"
                        ))
                    }
                }
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    fn cmd_position(&mut self, tokens: &[&str]) -> Result<(), String> {
        self.game = position_from_args(self.variant, tokens)?;
        Ok(())
    }

    /// The settings of a search from the options.
    fn settings(&self) -> Settings {
        Settings {
            threads: self.options.threads,
            multipv: self.options.multipv,
            eval: self.options.eval,
            network: self.network(),
            contempt: self.options.contempt,
        }
    }

    /// The current game's network from `EvalFile` (without one the search takes the built-in
    /// network). With `Evaluation nnue` set and neither, a warning: the search uses the full
    /// evaluation.
    fn network(&self) -> Option<Arc<Network>> {
        let network = self
            .options
            .networks
            .iter()
            .find(|(v, _)| *v == self.variant)
            .map(|(_, n)| Arc::clone(n));
        if network.is_none()
            && self.options.eval == EvalMode::Nnue
            && self.options.eval_chosen
            && crate::nnue::embedded::file_of(self.variant.name()).is_none()
        {
            send(
                &self.out,
                &format!(
                    "info string error: no network for {} (setoption name EvalFile value <file>); \
                     searching with the full evaluation",
                    self.variant.name()
                ),
            );
        }
        network
    }

    fn cmd_go(&mut self, tokens: &[&str]) -> Result<(), String> {
        if let ["perft", depth] = tokens {
            self.finish_search(true);
            return self.cmd_perft(depth);
        }
        let request = parse_go(tokens)?;
        match &self.running {
            Some(running) if !running.answered.load(Ordering::SeqCst) => {
                return Err("a search or perft is already running; send 'stop' first".to_string());
            }
            Some(_) => self.finish_search(false),
            None => {}
        }
        let mut limits = request.limits;
        limits.searchmoves = self.game.parse_moves(&request.searchmoves)?;
        let pool = self.pool()?;
        let halt = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        self.shared.stop.store(false, Ordering::Relaxed);
        let side = self.game.side_to_move().index();
        let clock = Arc::new(Clock::new(&limits, side, self.options.move_overhead));
        let job = SearchJob {
            game: self.game.clone(),
            limits,
            settings: self.settings(),
            clock: Arc::clone(&clock),
            shared: Arc::clone(&self.shared),
            pool,
            halt: Arc::clone(&halt),
            answer: Answer {
                answered: Arc::clone(&answered),
                out: Arc::clone(&self.out),
            },
        };
        self.start("search", halt, answered, Some(clock), move || job.run())
    }

    /// Runs `job` on its own thread named `name`, as the running search or perft: `halt`
    /// stops it, the job sets `answered` when it has answered, `clock` is a search's.
    fn start(
        &mut self,
        name: &str,
        halt: Arc<AtomicBool>,
        answered: Arc<AtomicBool>,
        clock: Option<Arc<Clock>>,
        job: impl FnOnce() + Send + 'static,
    ) -> Result<(), String> {
        let handle = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(job)
            .map_err(|e| format!("could not start the {name} thread: {e}"))?;
        self.running = Some(Running {
            halt,
            clock,
            answered,
            handle,
        });
        Ok(())
    }

    fn pool(&mut self) -> Result<Option<Arc<rayon::ThreadPool>>, String> {
        if self.options.threads <= 1 {
            return Ok(None);
        }
        if self.pool.is_none() {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(self.options.threads)
                .thread_name(|i| format!("search-{i}"))
                .build()
                .map_err(|e| format!("could not start {} threads: {e}", self.options.threads))?;
            self.pool = Some(Arc::new(pool));
        }
        Ok(self.pool.clone())
    }

    /// Starts `go perft` on its own thread, as a search: `isready` is answered meanwhile,
    /// `stop` (or any command that ends a search) stops it and `quit` ends the process.
    fn cmd_perft(&mut self, depth: &str) -> Result<(), String> {
        let depth = depth
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
            .ok_or_else(|| format!("perft depth must be 1 to {MAX_PERFT_DEPTH}, not '{depth}'"))?;
        let halt = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let job = PerftJob {
            game: self.game.clone(),
            depth,
            threads: self.options.threads,
            halt: Arc::clone(&halt),
            answer: Answer {
                answered: Arc::clone(&answered),
                out: Arc::clone(&self.out),
            },
        };
        self.start("perft", halt, answered, None, move || job.run())
    }

    fn cmd_bench(&self, tokens: &[&str]) -> Result<(), String> {
        let depth = match tokens {
            [] => None,
            [d] => Some(
                d.parse::<i32>()
                    .ok()
                    .filter(|d| (1..=64).contains(d))
                    .ok_or_else(|| format!("bench depth must be 1 to 64, not '{d}'"))?,
            ),
            _ => return Err("usage: bench [depth]".to_string()),
        };
        let mut text = Vec::new();
        crate::tools::bench::run(depth, &mut text).map_err(io_error)?;
        send(&self.out, String::from_utf8_lossy(&text).trim_end());
        Ok(())
    }
}

/// A `go` command, parsed.
struct GoRequest {
    limits: Limits,
    searchmoves: Vec<String>,
}

fn parse_go(tokens: &[&str]) -> Result<GoRequest, String> {
    const KEYWORDS: [&str; 13] = [
        "searchmoves",
        "ponder",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
        "perft",
    ];
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut i = 0;
    let number = |i: usize| -> Result<i64, String> {
        let key = tokens[i];
        tokens
            .get(i + 1)
            .and_then(|v| v.parse::<i64>().ok())
            .ok_or_else(|| format!("'go {key}' needs a number"))
    };
    while i < tokens.len() {
        let key = tokens[i];
        let positive = |v: i64| v.max(0) as u64;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i + 1 < tokens.len() && !KEYWORDS.contains(&tokens[i + 1]) {
                    searchmoves.push(tokens[i + 1].to_string());
                    i += 1;
                }
                if searchmoves.is_empty() {
                    return Err("'go searchmoves' needs at least one move".to_string());
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                let v = number(i)?;
                i += 1;
                match key {
                    "wtime" => limits.time[0] = Some(positive(v)),
                    "btime" => limits.time[1] = Some(positive(v)),
                    "winc" => limits.increment[0] = positive(v),
                    "binc" => limits.increment[1] = positive(v),
                    "movestogo" => limits.movestogo = Some(positive(v).min(10_000) as u32),
                    "depth" => limits.depth = Some(v.clamp(1, MAX_PLY as i64 - 1) as i32),
                    "nodes" => limits.nodes = Some(positive(v).max(1)),
                    "mate" => limits.mate = Some(v.clamp(1, 60) as u32),
                    _ => limits.movetime = Some(positive(v)),
                }
            }
            "perft" => return Err("usage: go perft <depth>".to_string()),
            other => return Err(format!("unknown go parameter '{}'", other.escape_debug())),
        }
        i += 1;
    }
    Ok(GoRequest {
        limits,
        searchmoves,
    })
}

/// Splits `name <name...> value <value...>` (names may contain spaces: `Move Overhead`).
fn parse_setoption(tokens: &[&str]) -> Result<(String, String), String> {
    let usage = || "usage: setoption name <name> [value <value>]".to_string();
    let ["name", rest @ ..] = tokens else {
        return Err(usage());
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], rest[i + 1..].join(" ")),
        None => (rest, String::new()),
    };
    if name.is_empty() {
        return Err(usage());
    }
    Ok((name.join(" "), value))
}

fn io_error(e: std::io::Error) -> String {
    format!("output failed: {e}")
}

/// The game that the arguments of a `position` command (the words after `position`) set up
/// in `variant`: `startpos` or `fen <fields>`, then optionally `moves <move>...`.
pub fn position_from_args(variant: Variant, args: &[&str]) -> Result<AnyGame, String> {
    let (setup, moves) = match args.iter().position(|&t| t == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => None,
        ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        _ => return Err("usage: position startpos|fen <fen> [moves <move>...]".to_string()),
    };
    AnyGame::from_setup(variant, fen.as_deref(), moves)
}
