//! `analyze`: searches every position of a FEN list or EPD file and writes one record per
//! position (JSON lines or CSV), in input order, each written and flushed as soon as it and
//! all earlier ones are done — so an interrupted run leaves a file that is complete up to
//! the last finished position. Positions may be searched in parallel (`jobs`), each job with
//! its own hash table and threads; test lines (`bm`/`am`) are judged and counted.

pub mod epd;
pub mod record;
pub mod san;

use crate::core::{GameState, Move};
use crate::search::{score_text, search, Clock, Limits, Reporter, SearchGame, Settings, Shared};
use crate::variants::Variant;
use epd::{parse_line, Entry, Line};
pub use record::{Format, PvLine, Record, Score, CSV_HEADER};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// To this depth in plies.
    Depth(i32),
    /// For this many milliseconds.
    MoveTime(u64),
    /// For this many nodes.
    Nodes(u64),
}

impl Limit {
    /// The search limits that stop at this one.
    pub fn limits(self) -> Limits {
        match self {
            Limit::Depth(d) => Limits::fixed_depth(d.clamp(1, crate::search::MAX_PLY as i32 - 1)),
            Limit::MoveTime(ms) => Limits {
                movetime: Some(ms.max(1)),
                ..Limits::default()
            },
            Limit::Nodes(n) => Limits::fixed_nodes(n.max(1)),
        }
    }

    /// The limit in words: `depth 12`, `movetime 100 ms`, `20000 nodes`.
    pub fn text(self) -> String {
        match self {
            Limit::Depth(d) => format!("depth {d}"),
            Limit::MoveTime(ms) => format!("movetime {ms} ms"),
            Limit::Nodes(n) => format!("{n} nodes"),
        }
    }
}

/// Everything `analyze` needs to know.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game.
    pub variant: Variant,
    /// The search limit per position.
    pub limit: Limit,
    /// Lines per position (MultiPV).
    pub multipv: usize,
    /// Threads in all; each job gets `threads / jobs` (at least one).
    pub threads: usize,
    /// Hash in MiB in all; each job's table gets `hash_mb / jobs` (at least one).
    pub hash_mb: usize,
    /// Positions searched at the same time.
    pub jobs: usize,
    /// Output format.
    pub format: Format,
    /// Draw a progress bar on the error stream.
    pub progress: bool,
}

/// The figures of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions analysed.
    pub positions: usize,
    /// Malformed lines skipped.
    pub malformed: usize,
    /// Positions with `bm`/`am`.
    pub tests: usize,
    /// Of those, how many the engine solved.
    pub solved: usize,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u64,
}

/// Analyses the lines of `input` and writes the records to `out` (flushed after each) and
/// the diagnostics, the progress bar and the summary to `err`.
pub fn run(
    options: &Options,
    input: &[u8],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Summary> {
    crate::with_game!(options.variant, G => run_game::<G>(options, input, out, err))
}

fn run_game<G: SearchGame>(
    options: &Options,
    input: &[u8],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Summary> {
    let start = Instant::now();
    let mut summary = Summary::default();
    let mut entries: Vec<Entry<G>> = Vec::new();
    for (index, bytes) in input.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let parsed = match std::str::from_utf8(bytes) {
            Ok(text) => parse_line::<G>(text, number),
            Err(_) => Err("not UTF-8 text".to_string()),
        };
        match parsed {
            Ok(Line::Skip) => {}
            Ok(Line::Position(entry)) => entries.push(*entry),
            Err(e) => {
                summary.malformed += 1;
                writeln!(err, "line {number}: {e}; skipped")?;
            }
        }
    }
    if options.format == Format::Csv {
        writeln!(out, "{CSV_HEADER}")?;
        out.flush()?;
    }
    let total = entries.len();
    let jobs = options.jobs.clamp(1, total.max(1));
    let threads = (options.threads / jobs).max(1);
    let hash_mb = (options.hash_mb / jobs).max(1);
    let limits = options.limit.limits();
    let settings = Settings {
        threads,
        multipv: options.multipv.max(1),
        ..Settings::default()
    };
    if options.progress && total > 0 {
        progress_bar(err, 0, total, start)?;
    }
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Record)>();
    let result = std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (entries, next, limits, settings) = (&entries, &next, &limits, &settings);
            scope.spawn(move || {
                let shared = Shared::new(hash_mb);
                let pool = (threads > 1)
                    .then(|| {
                        rayon::ThreadPoolBuilder::new()
                            .num_threads(threads)
                            .build()
                            .map_err(|e| log::warn!("no search threads ({e}); using one"))
                            .ok()
                    })
                    .flatten();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(entry) = entries.get(i) else { break };
                    let record = analyse(entry, limits, settings, &shared, pool.as_ref());
                    // The receiver is gone only when writing failed: stop taking work.
                    if sender.send((i, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Records arrive in any order; each is written once all earlier ones are. The
        // receiver is moved in here so that a failed write drops it and the jobs stop.
        let mut pending = BTreeMap::new();
        let mut written = 0;
        for (i, record) in receiver {
            pending.insert(i, record);
            while let Some(record) = pending.remove(&written) {
                out.write_all(record.text(options.format).as_bytes())?;
                out.flush()?;
                written += 1;
                summary.positions += 1;
                summary.nodes += record.nodes;
                if record.solved.is_some() {
                    summary.tests += 1;
                }
                if record.solved == Some(true) {
                    summary.solved += 1;
                }
                if options.progress {
                    progress_bar(err, written, total, start)?;
                }
            }
        }
        Ok(())
    });
    if options.progress && total > 0 {
        writeln!(err)?;
    }
    result?;
    summary.millis = start.elapsed().as_millis() as u64;
    write_summary(err, &summary, options)?;
    Ok(summary)
}

/// Searches one position.
fn analyse<G: SearchGame>(
    entry: &Entry<G>,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    pool: Option<&rayon::ThreadPool>,
) -> Record {
    let position = &entry.position;
    let mut record = Record {
        id: entry.id.clone(),
        line: entry.line,
        fen: position.fen(),
        solved: entry.is_test().then_some(false),
        ..Record::default()
    };
    let game = GameState::new(position.clone());
    if game.result().is_some() {
        return record;
    }
    // A fresh table for every position: the result does not depend on which job searched
    // which positions before, so runs are reproducible with any --jobs.
    shared.clear();
    let best = search_position(&game, limits, settings, shared, pool, &mut record);
    if entry.is_test() {
        record.solved = Some(entry.solved_by(best));
    }
    record
}

/// Searches the current position of `game` (not over) with the table as it is, and fills
/// the search fields of `record`: best move, score, line, depth, nodes, time, MultiPV lines.
/// Returns the best move.
pub(crate) fn search_position<G: SearchGame>(
    game: &GameState<G>,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    pool: Option<&rayon::ThreadPool>,
    record: &mut Record,
) -> Option<Move> {
    let position = &game.position;
    shared.stop.store(false, Ordering::Relaxed);
    let lines: Arc<Mutex<Vec<Option<PvLine>>>> = Arc::new(Mutex::new(vec![None; settings.multipv]));
    let sink = Arc::clone(&lines);
    let reporter: Reporter = Arc::new(move |info: &str| {
        if let Some((k, line)) = parse_info(info) {
            if let Ok(mut lines) = sink.lock() {
                if let Some(slot) = lines.get_mut(k.wrapping_sub(1)) {
                    *slot = Some(line);
                }
            }
        }
    });
    let clock = Clock::new(limits, position.side_to_move().index(), 0);
    let start = Instant::now();
    let outcome = search(game, limits, settings, &clock, shared, pool, &reporter);
    record.time_ms = start.elapsed().as_millis() as u64;
    record.nodes = outcome.nodes;
    record.depth = outcome.depth;
    record.bestmove = outcome.best.map(|m| position.move_text(m));
    if outcome.depth > 0 {
        let text = score_text(outcome.score);
        let mut parts = text.split_whitespace();
        record.score = match (parts.next(), parts.next()) {
            (Some(kind), Some(value)) => Score::from_uci(kind, value),
            _ => None,
        };
    }
    let lines: Vec<PvLine> = match lines.lock() {
        Ok(lines) => lines.iter().flatten().cloned().collect(),
        Err(_) => Vec::new(),
    };
    record.pv = match (lines.first(), &record.bestmove) {
        (Some(line), Some(best)) if line.pv.first() == Some(best) => line.pv.clone(),
        (_, Some(best)) => vec![best.clone()],
        _ => Vec::new(),
    };
    if settings.multipv > 1 {
        record.multipv = lines;
    }
    outcome.best
}

/// Reads an `info ... multipv k score cp|mate n ... pv m ...` line of the search.
pub(crate) fn parse_info(info: &str) -> Option<(usize, PvLine)> {
    let tokens: Vec<&str> = info.split_whitespace().collect();
    let (mut depth, mut k, mut score, mut pv) = (None, 1, None, None);
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "depth" => depth = tokens.get(i + 1).and_then(|t| t.parse().ok()),
            "multipv" => k = tokens.get(i + 1).and_then(|t| t.parse().ok())?,
            "score" => {
                score = Score::from_uci(tokens.get(i + 1)?, tokens.get(i + 2)?);
            }
            "pv" => {
                pv = Some(tokens[i + 1..].iter().map(|t| t.to_string()).collect());
                break;
            }
            _ => {}
        }
        i += 1;
    }
    Some((
        k,
        PvLine {
            score: score?,
            pv: pv?,
            depth: depth?,
        },
    ))
}

pub(crate) fn progress_bar(
    err: &mut dyn Write,
    done: usize,
    total: usize,
    start: Instant,
) -> io::Result<()> {
    const WIDTH: usize = 30;
    let filled = WIDTH * done / total.max(1);
    let elapsed = start.elapsed().as_secs_f64();
    // No estimate before the first position is done.
    let eta = if done == 0 {
        "-:--:--".to_string()
    } else {
        clock_text(elapsed / done as f64 * (total - done.min(total)) as f64)
    };
    write!(
        err,
        "\r[{}{}] {done}/{total} elapsed {} ETA {eta}  ",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        clock_text(elapsed),
    )?;
    err.flush()
}

fn clock_text(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn write_summary(err: &mut dyn Write, s: &Summary, options: &Options) -> io::Result<()> {
    let limit = options.limit.text();
    let nps = s.nodes as u128 * 1000 / u128::from(s.millis.max(1));
    write!(
        err,
        "analyze {}: {} positions ({limit})",
        options.variant.name(),
        s.positions
    )?;
    if s.malformed > 0 {
        write!(err, ", {} malformed lines skipped", s.malformed)?;
    }
    if s.tests > 0 {
        write!(err, ", solved {}/{}", s.solved, s.tests)?;
    }
    writeln!(err, ", {} nodes, {} ms, {nps} nps", s.nodes, s.millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_the_line_number_score_and_moves() {
        let (k, line) = parse_info(
            "info depth 7 seldepth 9 multipv 2 score mate -3 nodes 10 nps 1 hashfull 0 time 1 pv e2e4,e4d5 a7a6",
        )
        .unwrap();
        assert_eq!(k, 2);
        assert_eq!(line.score, Score::Mate(-3));
        assert_eq!(line.depth, 7);
        assert_eq!(line.pv, vec!["e2e4,e4d5", "a7a6"]);
        assert!(parse_info("info string hello").is_none());
    }

    #[test]
    fn clock_text_shows_hours_minutes_seconds() {
        assert_eq!(clock_text(3725.2), "1:02:05");
    }
}
