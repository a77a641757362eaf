//! Perft speed per game, reported as nodes/second (criterion "elements"/s).
//! Single-threaded, last ply counted in bulk: the same measurement as `thoat perft`. Each
//! game's position is the first of its perft suite (`positions/<game>.perft`, the start
//! position), at the first depth with at least [`MIN_NODES`] leaves.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use thoat::core::game::perft;
use thoat::core::Game;
use thoat::variants::Variant;

/// Enough leaves that one run takes milliseconds, not microseconds, in every game.
const MIN_NODES: u64 = 1_000_000;

fn bench_game<G: Game>(c: &mut Criterion, suite: &str) {
    let mut group = c.benchmark_group(G::NAME);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    let fen = suite
        .lines()
        .find_map(|l| l.trim().strip_prefix("epd "))
        .expect("a perft suite has a position");
    let pos = G::from_fen(fen.trim()).expect("suite FEN parses");
    let (mut depth, mut nodes) = (1, perft(&pos, 1));
    while nodes < MIN_NODES && depth < 12 {
        depth += 1;
        nodes = perft(&pos, depth);
    }
    group.throughput(Throughput::Elements(nodes));
    group.bench_with_input(BenchmarkId::new("first", depth), &depth, |b, &d| {
        b.iter(|| perft(&pos, d))
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    thoat::core::attacks8::init();
    for v in Variant::ALL {
        thoat::with_game!(v, G => bench_game::<G>(c, v.perft_suite()));
    }
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
