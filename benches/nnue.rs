//! The network's inner loops, per game with a built-in network: `evaluate` (the output layer
//! on a ready accumulator) and `update_from` (a child's accumulator from its parent's: the
//! copy and the columns a move changes), over the bench positions and every move from them.
//! Throughput is evaluations or updates a second (criterion "elements"/s).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use thoat::core::Move;
use thoat::nnue::features::{active_input_sets, InputSet, NnueGame};
use thoat::nnue::network::{Accumulator, Network};
use thoat::variants::Variant;

/// A position's accumulator and active inputs, and those of each of its children.
struct Family {
    parent: Accumulator,
    parent_inputs: [InputSet; 2],
    children: Vec<[InputSet; 2]>,
    active: usize,
    side: thoat::core::Color,
}

fn families<G: NnueGame>(network: &Network, bench: &str) -> Vec<Family> {
    let mut moves: Vec<Move> = Vec::with_capacity(1024);
    bench
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|fen| {
            let position = G::from_fen(fen).expect("bench FEN parses");
            position.generate(&mut moves);
            let children = moves
                .iter()
                .map(|&mv| {
                    let mut child = position.clone();
                    child.play(mv);
                    active_input_sets(&child)
                })
                .collect();
            let parent_inputs = active_input_sets(&position);
            Family {
                parent: network.refresh(&position),
                active: parent_inputs[0].count(network.layers.inputs),
                parent_inputs,
                children,
                side: position.side_to_move(),
            }
        })
        .collect()
}

fn bench_game<G: NnueGame>(c: &mut Criterion, bench: &str) {
    let Some(network) = thoat::nnue::embedded::network::<G>() else {
        return;
    };
    let set = families::<G>(network, bench);
    let updates: u64 = set.iter().map(|f| f.children.len() as u64).sum();
    let mut group = c.benchmark_group(format!("nnue/{}", G::NAME));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function(format!("evaluate/{}-positions", set.len()), |b| {
        b.iter(|| {
            set.iter()
                .map(|f| network.evaluate(black_box(&f.parent), f.side, f.active))
                .sum::<i32>()
        })
    });
    group.throughput(Throughput::Elements(updates));
    let mut child = set[0].parent.clone();
    group.bench_function(format!("update_from/{updates}-moves"), |b| {
        b.iter(|| {
            for f in &set {
                for inputs in &f.children {
                    let views = child.values.iter_mut().zip(&f.parent.values);
                    for ((values, base), (from, to)) in
                        views.zip(f.parent_inputs.iter().zip(inputs))
                    {
                        network.update_from(values, base, from, to);
                    }
                    black_box(&child);
                }
            }
        })
    });
    group.finish();
}

fn nnue_benches(c: &mut Criterion) {
    thoat::core::attacks8::init();
    for v in Variant::ALL {
        thoat::with_game!(v, G => bench_game::<G>(c, v.bench_positions()));
    }
}

criterion_group!(benches, nnue_benches);
criterion_main!(benches);
