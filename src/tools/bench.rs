//! `bench`: a fixed-depth, single-thread search of the positions in `positions/bench/` for
//! every game, each to its own depth ([`Variant::bench_depth`]). The node count is a signature of the search: it is the same on every run
//! and changes only when the search or an evaluation changes.
//!
//! With more threads (`thoat bench --threads 2`) the same fixed-depth searches measure the
//! time to reach a depth with Lazy SMP; the node count then varies from run to run.

use crate::core::GameState;
use crate::search::{search, Clock, Limits, Reporter, SearchGame, Settings, Shared};
use crate::variants::Variant;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// The figures of one bench run.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchReport {
    /// Nodes searched in all.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u128,
}

fn bench_game<G: SearchGame>(
    fens: &str,
    depth: i32,
    threads: usize,
    pool: Option<&rayon::ThreadPool>,
) -> Result<(u64, u64, u64), String> {
    let (mut nodes, mut probes, mut hits) = (0, 0, 0);
    let quiet: Reporter = Arc::new(|_: &str| {});
    for fen in fens
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let position = G::from_fen(fen).map_err(|e| format!("bench FEN '{fen}': {e}"))?;
        let game = GameState::new(position);
        let limits = Limits::fixed_depth(depth);
        let clock = Clock::new(&limits, 0, 0);
        let shared = Shared::new(16);
        let settings = Settings {
            threads,
            ..Settings::default()
        };
        let outcome = search(&game, &limits, &settings, &clock, &shared, pool, &quiet);
        nodes += outcome.nodes;
        probes += outcome.tt_probes;
        hits += outcome.tt_hits;
    }
    Ok((nodes, probes, hits))
}

/// Runs the bench (each game at its own depth, or all at `depth`) on one thread and writes
/// one line per game and, last, `<N> nodes <NPS> nps`.
pub fn run(depth: Option<i32>, out: &mut impl Write) -> std::io::Result<BenchReport> {
    run_threads(depth, 1, out)
}

/// [`run`] with `threads` Lazy SMP threads per search.
pub fn run_threads(
    depth: Option<i32>,
    threads: usize,
    out: &mut impl Write,
) -> std::io::Result<BenchReport> {
    let threads = threads.max(1);
    let pool = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(std::io::Error::other)?;
        Some(pool)
    } else {
        None
    };
    let pool = pool.as_ref();
    let start = Instant::now();
    let mut total = 0;
    for variant in Variant::ALL {
        let name = variant.name();
        let depth = depth.unwrap_or(variant.bench_depth());
        let fens = variant.bench_positions();
        let game_start = Instant::now();
        let result = crate::with_game!(variant, G => bench_game::<G>(fens, depth, threads, pool));
        match result {
            Ok((nodes, probes, hits)) => {
                let ms = game_start.elapsed().as_millis().max(1);
                writeln!(
                    out,
                    "{name}: depth {depth} {nodes} nodes {} ms {} nps, tt hits {:.1}%",
                    ms,
                    nodes as u128 * 1000 / ms,
                    100.0 * hits as f64 / probes.max(1) as f64
                )?;
                total += nodes;
            }
            Err(e) => writeln!(out, "info string error: {e}")?,
        }
    }
    let millis = start.elapsed().as_millis();
    let nps = total as u128 * 1000 / millis.max(1);
    writeln!(out, "{total} nodes {nps} nps")?;
    Ok(BenchReport {
        nodes: total,
        millis,
    })
}
