//! Fixed-depth search speed per game: each bench position (`positions/bench/<game>.fen`)
//! searched on one thread with a cleared 16 MiB table, as `thoat bench` does but
//! [`SHALLOWER`] plies less deep so that criterion can repeat it. Throughput is nodes/second
//! (criterion "elements"/s).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use thoat::core::GameState;
use thoat::search::{search_quietly, Limits, SearchGame, Settings, Shared};
use thoat::variants::Variant;

fn search_once<G: SearchGame>(game: &GameState<G>, depth: i32, shared: &Shared) -> u64 {
    let limits = Limits::fixed_depth(depth);
    shared.clear();
    search_quietly(game, &limits, &Settings::default(), shared).nodes
}

fn bench_game<G: SearchGame>(c: &mut Criterion, fens: &str, depth: i32) {
    let mut group = c.benchmark_group(G::NAME);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    let shared = Shared::new(16);
    let positions = fens
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    for (i, fen) in positions.enumerate() {
        let game = GameState::new(G::from_fen(fen).expect("bench FEN parses"));
        // The search is deterministic: the node count of one run is that of every run.
        let nodes = search_once(&game, depth, &shared);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("pos{}", i + 1), depth),
            &depth,
            |b, &d| b.iter(|| search_once(&game, d, &shared)),
        );
    }
    group.finish();
}

/// How much shallower than `thoat bench` criterion searches, so that it can repeat each
/// search many times.
const SHALLOWER: i32 = 4;

fn search_benches(c: &mut Criterion) {
    thoat::core::attacks8::init();
    for v in Variant::ALL {
        let depth = v.bench_depth() - SHALLOWER;
        thoat::with_game!(v, G => bench_game::<G>(c, v.bench_positions(), depth));
    }
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
