//! `latency`: starts the engine itself as a child process (as a GUI would) and measures, for
//! each game, how long `isready` takes to be answered during a `go infinite` search and how
//! long `stop` takes to produce `bestmove`, over many samples (median, 99th percentile,
//! maximum). Each sample's `bestmove` is checked for legality. Optionally it then runs one
//! long analysis and reports the child's peak resident memory (`VmHWM` in /proc) against the
//! `Hash` size.

use super::fuzz::{seed_fens, Rng};
use super::LatencyArgs;
use crate::variants::{AnyGame, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

/// A child engine and its output lines, each stamped with its arrival time.
struct ChildEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl ChildEngine {
    fn start() -> std::io::Result<ChildEngine> {
        let exe = std::env::current_exe()?;
        let mut child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().ok_or_else(|| other("no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| other("no stdout"))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Ok(ChildEngine {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> std::io::Result<Instant> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()?;
        Ok(Instant::now())
    }

    /// Waits for the first line starting with `prefix`; returns its arrival time and text.
    fn wait_for(&mut self, prefix: &str) -> std::io::Result<(Instant, String)> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) if line.starts_with(prefix) => return Ok((at, line)),
                Ok(_) => {}
                Err(_) => return Err(other(&format!("no '{prefix}' within {TIMEOUT:?}"))),
            }
        }
    }

    /// A field of /proc/<pid>/status in KiB (VmRSS, VmHWM).
    fn memory_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim_start_matches(':').split_whitespace().next())
            .and_then(|v| v.parse().ok())
    }
}

impl Drop for ChildEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        crate::tools::reap(&mut self.child, Duration::from_secs(5));
    }
}

fn other(text: &str) -> std::io::Error {
    std::io::Error::other(text.to_string())
}

/// Median, 99th percentile and maximum of samples, in milliseconds.
pub fn percentiles(samples: &mut [Duration]) -> (f64, f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at =
        |q: f64| samples[((samples.len() as f64 * q).ceil() as usize).clamp(1, samples.len()) - 1];
    (ms(at(0.5)), ms(at(0.99)), ms(samples[samples.len() - 1]))
}

/// Measures every game in `variants`; returns whether all samples were answered legally.
pub fn run(
    variants: &[Variant],
    args: &LatencyArgs,
    out: &mut impl Write,
) -> std::io::Result<bool> {
    let mut ok = true;
    for &variant in variants {
        let mut engine = ChildEngine::start()?;
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ))?;
        engine.send(&format!("setoption name Hash value {}", args.hash))?;
        engine.send(&format!("setoption name Threads value {}", args.threads))?;
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        let fens = seed_fens(variant);
        let mut rng = Rng::new(7, variant as u64);
        // The baseline: `isready` with no search running. On a loaded machine its tail is
        // the scheduler's, and the figures during search are to be read against it.
        let mut idle = Vec::new();
        for _ in 0..args.samples {
            std::thread::sleep(Duration::from_millis(1 + rng.below(20) as u64));
            let sent = engine.send("isready")?;
            let (at, _) = engine.wait_for("readyok")?;
            idle.push(at.saturating_duration_since(sent));
        }
        let (i50, i99, imax) = percentiles(&mut idle);
        writeln!(
            out,
            "latency {}: idle isready p50 {i50:.2} ms p99 {i99:.2} ms max {imax:.2} ms",
            variant.name()
        )?;
        let (mut ready, mut stop) = (Vec::new(), Vec::new());
        let mut illegal = 0;
        for i in 0..args.samples {
            let fen = &fens[i % fens.len()];
            let game = AnyGame::from_setup(variant, Some(fen), &[]).map_err(|e| other(&e))?;
            engine.send(&format!("position fen {fen}"))?;
            engine.send("go infinite")?;
            std::thread::sleep(Duration::from_millis(5 + rng.below(40) as u64));
            let sent = engine.send("isready")?;
            let (at, _) = engine.wait_for("readyok")?;
            ready.push(at.saturating_duration_since(sent));
            std::thread::sleep(Duration::from_millis(rng.below(10) as u64));
            let sent = engine.send("stop")?;
            let (at, line) = engine.wait_for("bestmove")?;
            stop.push(at.saturating_duration_since(sent));
            let mv = line.split_whitespace().nth(1).unwrap_or("");
            if mv != "(none)" && !game.is_legal(mv) {
                illegal += 1;
                writeln!(out, "ILLEGAL bestmove {mv} in {fen}")?;
            }
        }
        let (r50, r99, rmax) = percentiles(&mut ready);
        let (s50, s99, smax) = percentiles(&mut stop);
        writeln!(
            out,
            "latency {}: {} samples; isready p50 {r50:.2} ms p99 {r99:.2} ms max {rmax:.2} ms; \
             stop->bestmove p50 {s50:.2} ms p99 {s99:.2} ms max {smax:.2} ms; {illegal} illegal",
            variant.name(),
            args.samples
        )?;
        ok &= illegal == 0;
        if args.analysis_secs > 0 {
            let idle = engine.memory_kib("VmRSS").unwrap_or(0);
            engine.send(&format!("position fen {}", fens[0]))?;
            engine.send("go infinite")?;
            let start = Instant::now();
            let mut peak_rss = 0;
            while start.elapsed() < Duration::from_secs(args.analysis_secs) {
                std::thread::sleep(Duration::from_millis(500));
                peak_rss = peak_rss.max(engine.memory_kib("VmRSS").unwrap_or(0));
            }
            engine.send("stop")?;
            engine.wait_for("bestmove")?;
            let hwm = engine.memory_kib("VmHWM").unwrap_or(0);
            writeln!(
                out,
                "memory {}: Hash {} MiB, {} s analysis: RSS idle {} MiB, peak (VmHWM) {} MiB, \
                 peak above Hash {} MiB",
                variant.name(),
                args.hash,
                args.analysis_secs,
                idle / 1024,
                hwm.max(peak_rss) / 1024,
                (hwm.max(peak_rss) / 1024).saturating_sub(args.hash as u64)
            )?;
        }
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_hundred() {
        let mut s: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let (p50, p99, max) = percentiles(&mut s);
        assert_eq!((p50, p99, max), (50.0, 99.0, 100.0));
    }
}
