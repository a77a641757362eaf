//! Robustness in CI: short deterministic runs of the fuzzer (every target) and of the
//! self-play soak (every game), and regression tests for the bugs they and the protocol
//! storm found.

use std::sync::mpsc::channel;
use std::time::Duration;
use thoat::core::{Game, GameState, Move};
use thoat::search::{search_quietly, Limits, Outcome, SearchGame, Settings, Shared};
use thoat::tools::robust::fuzz::{self, seed_fens};
use thoat::tools::robust::soak::{self, SoakConfig};
use thoat::uci::fuzz::Lines;
use thoat::variants::{Duck, Variant};

/// The three fuzz targets, a short run each (one test: the fuzzer's panic hook is global).
#[test]
fn fuzz_every_target_briefly_finds_nothing() {
    let (mut fens, mut moves, mut lines) = (
        fuzz::OneAtATime::fens(),
        fuzz::OneAtATime::move_texts(),
        Lines::default(),
    );
    let targets: [(&mut dyn fuzz::Inputs, u64); 3] =
        [(&mut fens, 6000), (&mut moves, 6000), (&mut lines, 1500)];
    for (inputs, n) in targets {
        let target = inputs.target();
        let mut out = Vec::new();
        let report = fuzz::run(inputs, n, 42, 0, &mut out).expect("fuzz output");
        let text = String::from_utf8_lossy(&out);
        assert_eq!(report.inputs, n, "{text}");
        assert!(report.failures.is_empty(), "{text}");
        // The inputs are a real mix of accepted and rejected ones.
        assert!(report.accepted > n / 50, "{target:?}: {text}");
        assert!(report.accepted < n, "{target:?}: {text}");
    }
}

#[test]
fn soak_every_game_briefly_is_clean() {
    for v in Variant::ALL {
        let config = SoakConfig {
            games: 3,
            nodes: 100,
            seed: 9,
            max_plies: 300,
        };
        let mut out = Vec::new();
        let report = soak::run(v, &config, &mut out).expect("soak output");
        let text = String::from_utf8_lossy(&out);
        assert_eq!(report.games, 3, "{text}");
        assert!(report.failures.is_empty(), "{text}");
        assert!(report.moves >= 3, "{text}");
    }
}

/// Runs a search on another thread; a hang fails the test instead of blocking it.
fn search_within<G: SearchGame>(game: GameState<G>, limits: Limits, multipv: usize) -> Outcome {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let shared = Shared::new(1);
        let settings = Settings {
            multipv,
            ..Settings::default()
        };
        let outcome = search_quietly(&game, &limits, &settings, &shared);
        let _ = tx.send(outcome);
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the search neither answered nor returned (hang or panic)")
}

/// Regression: `go searchmoves` naming a duck move outside duck chess's search selection
/// made the root search nothing; the aspiration loop then widened a full window for ever
/// (an overflow panic in debug builds, a hang in release).
#[test]
fn duck_searchmoves_outside_the_selection_is_searched() {
    thoat::core::attacks8::init();
    let mut tried = 0;
    for fen in seed_fens(Variant::Duck) {
        let pos = Duck::from_fen(&fen).unwrap();
        let (mut all, mut selection) = (Vec::new(), Vec::new());
        pos.generate(&mut all);
        pos.search_moves(&mut selection);
        let Some(&outside) = all.iter().find(|m| !selection.contains(m)) else {
            continue;
        };
        let limits = Limits {
            depth: Some(3),
            searchmoves: vec![outside],
            ..Limits::default()
        };
        let outcome = search_within(GameState::new(pos), limits, 1);
        assert_eq!(outcome.best, Some(outside), "{fen}");
        tried += 1;
    }
    assert!(
        tried > 0,
        "no duck position with moves outside the selection"
    );
}

/// Regression: MultiPV larger than duck chess's root selection left later lines with no
/// move to search (the same endless aspiration loop).
#[test]
fn duck_multipv_beyond_the_selection_ends() {
    thoat::core::attacks8::init();
    let pos = Duck::from_fen(Duck::START_FEN).unwrap();
    let mut selection: Vec<Move> = Vec::new();
    pos.search_moves(&mut selection);
    let limits = Limits::fixed_depth(2);
    let outcome = search_within(GameState::new(pos), limits, selection.len() + 5);
    let mut all = Vec::new();
    pos.generate(&mut all);
    assert!(outcome.best.is_some_and(|m| all.contains(&m)));
}
