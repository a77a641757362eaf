//! Perft speed per game, reported as nodes/second (criterion "elements"/s).
//! Single-threaded, last ply counted in bulk: the same measurement as `thoat perft`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use thoat::core::game::perft;
use thoat::core::Game;
use thoat::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

fn bench_game<G: Game>(c: &mut Criterion, positions: &[(&str, &str, u32)]) {
    let mut group = c.benchmark_group(G::NAME);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for &(name, fen, depth) in positions {
        let pos = G::from_fen(fen).expect("bench FEN parses");
        let nodes = perft(&pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| perft(&pos, d))
        });
    }
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    thoat::core::attacks8::init();
    bench_game::<Chess>(
        c,
        &[
            ("start", Chess::START_FEN, 5),
            (
                "kiwipete",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                4,
            ),
        ],
    );
    bench_game::<Duck>(c, &[("start", Duck::START_FEN, 3)]);
    bench_game::<Chaturanga>(
        c,
        &[(
            "start-no-leap",
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            5,
        )],
    );
    bench_game::<Skak>(c, &[("start", Skak::START_FEN, 6)]);
    bench_game::<Jetan>(c, &[("start", Jetan::START_FEN, 4)]);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
