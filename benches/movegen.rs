//! Move generation alone: `generate` on every position of a set per game (the bench
//! positions and the perft suite's positions), no moves made. Throughput is moves/second
//! (criterion "elements"/s: the moves generated in one pass over the set).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use thoat::core::{Game, Move};
use thoat::variants::{perft_cases, Variant};

/// The FENs of a bench file (one per line) and of the game's perft suite.
fn positions<G: Game>(bench: &str) -> Vec<G> {
    let bench = bench
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from);
    let perft = perft_cases(G::NAME).into_iter().map(|c| c.fen);
    bench
        .chain(perft)
        .map(|fen| G::from_fen(&fen).expect("suite FEN parses"))
        .collect()
}

fn bench_game<G: Game>(c: &mut Criterion, bench: &str) {
    let set = positions::<G>(bench);
    let mut moves: Vec<Move> = Vec::with_capacity(1024);
    let total: u64 = set
        .iter()
        .map(|p| {
            p.generate(&mut moves);
            moves.len() as u64
        })
        .sum();
    let mut group = c.benchmark_group(G::NAME);
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(total));
    group.bench_function(format!("generate/{}-positions", set.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &set {
                p.generate(&mut moves);
                n += moves.len();
            }
            black_box(n)
        })
    });
    group.finish();
}

fn movegen_benches(c: &mut Criterion) {
    thoat::core::attacks8::init();
    for v in Variant::ALL {
        thoat::with_game!(v, G => bench_game::<G>(c, v.bench_positions()));
    }
}

criterion_group!(benches, movegen_benches);
criterion_main!(benches);
