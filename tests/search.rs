//! The search finds forced wins in every game and always answers with a legal move.

use std::sync::Arc;
use thoat::core::game::parse_move;
use thoat::core::{Game, GameState, Move};
use thoat::search::{
    search, Clock, EvalMode, Limits, Outcome, Reporter, SearchGame, Settings, Shared, MATE,
};
use thoat::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

/// Searches `game` to `depth` plies with `threads` threads on `pool`, with the table and
/// stop flag of `shared` (cleared first, so that one `shared` serves several searches),
/// evaluating with `eval` (the built-in network where the game has one for `Nnue`).
fn search_depth<G: SearchGame>(
    game: &GameState<G>,
    depth: i32,
    threads: usize,
    eval: EvalMode,
    shared: &Shared,
    pool: &rayon::ThreadPool,
) -> Outcome {
    let limits = Limits::fixed_depth(depth);
    let settings = Settings {
        threads,
        multipv: 1,
        eval,
        ..Settings::default()
    };
    let quiet: Reporter = Arc::new(|_: &str| {});
    shared
        .stop
        .store(false, std::sync::atomic::Ordering::Relaxed);
    let clock = Clock::new(&limits, 0, 0);
    search(game, &limits, &settings, &clock, shared, Some(pool), &quiet)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Searches `fen` to `depth` plies with `threads` threads and the default evaluation (the
/// game's network where it has one); returns best move and score.
fn think<G: SearchGame>(fen: &str, depth: i32, threads: usize) -> (Option<Move>, i32, G) {
    think_with::<G>(fen, depth, threads, Settings::default().eval)
}

/// [`think`] with the evaluation `eval`.
fn think_with<G: SearchGame>(
    fen: &str,
    depth: i32,
    threads: usize,
    eval: EvalMode,
) -> (Option<Move>, i32, G) {
    let position = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let game = GameState::new(position.clone());
    let outcome = search_depth(
        &game,
        depth,
        threads,
        eval,
        &Shared::new(16),
        &pool(threads),
    );
    (outcome.best, outcome.score, position)
}

/// Plies beyond a win's length that the search is given to find it: late-move reductions
/// and pruning make a selective search see a quiet winning move a few plies later than a
/// full-width one would (in chaturanga, the mate in 2 by the quiet b1g1 needs depth 8).
const SELECTIVITY_SLACK: i32 = 4;

/// Further plies the built-in networks are given: with session 17's chess network the pruned
/// search sees the mate in 3 against the king on d4 below at depth 12 (the classical
/// evaluation at 8) and the mate in 2 g2g1 at depth 6 (the classical at 3).
const NETWORK_SLACK: i32 = 2;

/// Asserts that the side to move has a forced win in at most `moves` moves in each
/// position, that the search scores it so with the classical evaluation and with the
/// network, and that the winning move starts with one of `accept` when given (a prefix, so
/// a duck move may carry any duck square).
fn assert_wins<G: SearchGame>(cases: &[(&str, u32, &[&str])]) {
    let evaluations = [
        (EvalMode::Full, SELECTIVITY_SLACK),
        (EvalMode::Nnue, SELECTIVITY_SLACK + NETWORK_SLACK),
    ];
    for &(fen, moves, accept) in cases {
        for (eval, slack) in evaluations {
            assert_win::<G>(fen, moves, accept, eval, slack);
        }
    }
}

/// One case of [`assert_wins`], searched to the win's length plus `slack` with `eval`.
fn assert_win<G: SearchGame>(fen: &str, moves: u32, accept: &[&str], eval: EvalMode, slack: i32) {
    let plies = 2 * moves as i32 - 1;
    let (best, score, position) = think_with::<G>(fen, plies + 1 + slack, 1, eval);
    let best = best.unwrap_or_else(|| panic!("{fen}: no move"));
    let text = position.move_text(best);
    assert!(
        score >= MATE - plies,
        "{fen}: win in {moves} not found with {eval:?}: score {score}, move {text}"
    );
    assert!(
        accept.is_empty() || accept.iter().any(|a| text.starts_with(a)),
        "{fen}: {text} not in {accept:?}"
    );
    assert_eq!(parse_move(&position, &text), Ok(best));
}

#[test]
fn skak_jarkhan_captures() {
    assert_wins::<Skak>(&[
        ("3k3/2p4/7/3Q3/1P5/7/r2K3 w - - 0 30", 1, &["d4d7"]),
        ("6k/5pp/7/7/7/7/R2K3 w - - 0 1", 2, &["a1a7"]),
        ("k6/7/7/7/7/7/3K2B w - - 0 1", 1, &["g1a7"]),
        ("7/7/7/3k3/2P4/7/K6 w - - 0 1", 1, &["c3d4"]),
        // A Fylgdar captures backwards too.
        ("7/7/4P2/3k3/7/7/K6 w - - 0 1", 1, &["e5d4"]),
    ]);
}

/// Chess mates; every one checked with Stockfish's `go mate`.
#[test]
fn chess_mates() {
    assert_wins::<Chess>(&[
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, &["d1d8"]),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            1,
            &["f3f7"],
        ),
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1, &["h1h8"]),
        ("7k/8/8/8/8/8/R7/1R5K w - - 0 1", 2, &[]),
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            2,
            &["g2g1"],
        ),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
            &["f8c5"],
        ),
    ]);
}

/// Duck chess: the king is captured, not mated.
#[test]
fn duck_king_captures() {
    assert_wins::<Duck>(&[
        ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", 1, &["e1e8,"]),
        ("4k3/8/8/3*4/Q6q/8/8/4K3 w - - 0 1", 1, &["a4e8,"]),
        ("4k3/8/3N4/8/8/8/8/4K3 w - - 0 1", 1, &["d6e8,"]),
        ("4k3/3P4/8/8/*7/8/8/4K3 w - - 0 1", 1, &["d7e8"]),
        // The knight on f7 attacks h8, which no duck can shield and the king cannot leave.
        ("6nk/6pp/8/4N3/*7/8/8/K7 w - - 0 1", 2, &["e5f7,"]),
    ]);
}

#[test]
fn chaturanga_mates() {
    assert_wins::<Chaturanga>(&[
        ("7k/8/6K1/8/8/8/8/R7 w - - 0 50", 1, &["a1a8"]),
        ("3k4/R7/8/8/8/8/8/1R2K3 w - - 0 1", 1, &["b1b8"]),
        ("7k/8/8/8/8/8/R7/1R5K w - - 0 1", 2, &[]),
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1, &["h1h8"]),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, &["d1d8"]),
    ]);
}

/// Chaturanga's late-move pruning still tries quiet checks (`LATE_QUIET_CHECKS`): after
/// e2d1 every Black reply allows the quiet mate b2b3, found behind the many quiet moves that
/// come before it. Without the checks a depth-2 search scored this +183 for Black.
#[test]
fn chaturanga_sees_a_quiet_mate_behind_late_moves() {
    let (_, score, _) = think::<Chaturanga>(
        "4q1br/3r4/Pppp2pp/1B1Pp1p1/1R2P3/2k5/1R3PPP/3K4 b - - 3 45",
        2,
        1,
    );
    assert_eq!(score, -(MATE - 2), "score {score}");
}

/// Chaturanga: stalemating the opponent loses, so the engine must not do it.
#[test]
fn chaturanga_avoids_giving_stalemate() {
    let (best, score, position) = think::<Chaturanga>("7k/8/5KQ1/8/8/8/8/8 w - - 0 60", 6, 1);
    let text = position.move_text(best.unwrap());
    assert_ne!(text, "f6f7", "stalemated the opponent, who wins");
    assert!(score > -MATE / 2, "score {score}");
}

#[test]
fn two_threads_find_the_same_mates() {
    for (fen, mv) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1"),
    ] {
        for (eval, depth) in [(EvalMode::Full, 5), (EvalMode::Nnue, 5 + NETWORK_SLACK)] {
            let (best, score, position) = think_with::<Chess>(fen, depth, 2, eval);
            assert_eq!(position.move_text(best.unwrap()), mv, "{eval:?}");
            assert!(score >= MATE - 3, "{eval:?}: score {score}");
        }
    }
}

/// Jetan: capturing the Princess wins, and so does the Chief taking the Chief.
#[test]
fn jetan_princess_and_chief_captures() {
    assert_wins::<Jetan>(&[
        ("7d2/10/6q3/10/2W1kT4/7p2/10/4K5/3P6/Q9 w - 0 30", 1, &[]),
        ("k9/10/10/10/10/4q5/10/4W5/10/Q8K w - 0 1", 1, &["e3e5"]),
        ("9q/10/10/10/4k5/10/10/4K5/10/Q9 w - 0 1", 1, &["e3e6"]),
        // The Flier jumps over the two Panthans.
        ("k9/10/10/10/10/10/5q4/4p5/3p6/Q1F6K w - 0 1", 1, &["c1f4"]),
        // The Warrior turns a corner: c1-b1-b2 or c1-c2-b2.
        ("9k/10/10/10/10/10/10/10/1q8/K1W6Q w - 0 1", 1, &["c1b2"]),
    ]);
}

/// Lazy SMP: with two threads a fixed-depth search answers with a line of exactly that depth
/// (the deepest completed by either thread, never a shallower or a deeper one) and a legal
/// move, in every game.
#[test]
fn two_threads_complete_the_requested_depth() {
    fn check<G: SearchGame>(fen: &str, depth: i32) {
        let position = G::from_fen(fen).unwrap();
        let game = GameState::new(position.clone());
        let (shared, pool) = (Shared::new(16), pool(2));
        for _ in 0..3 {
            let outcome = search_depth(&game, depth, 2, Settings::default().eval, &shared, &pool);
            assert_eq!(outcome.depth, depth, "{fen}");
            let mut legal = Vec::new();
            position.generate(&mut legal);
            assert!(legal.contains(&outcome.best.unwrap()), "{fen}");
        }
    }
    check::<Chess>(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        7,
    );
    check::<Duck>(Duck::START_FEN, 4);
    check::<Chaturanga>(Chaturanga::START_FEN, 8);
    check::<Skak>(Skak::START_FEN, 9);
    check::<Jetan>(Jetan::START_FEN, 6);
}

/// Games without check say when the side to move's royal piece can be captured, so that the
/// search does not prune such a position as quiet; and the wins that hid behind that pruning
/// are found at the least depth.
#[test]
fn royal_pieces_en_prise_are_threats() {
    // Black's Princess b2 is two orthogonal steps (c1-b1-b2) from White's Warrior: en prise.
    let threatened = Jetan::from_fen("9k/10/10/10/10/10/10/10/1q8/K1W6Q b - 0 1").unwrap();
    assert!(threatened.threatened());
    assert!(!threatened.in_check());
    let safe = Jetan::from_fen("9k/10/10/10/10/1q8/10/10/10/K1W6Q b - 0 1").unwrap();
    assert!(!safe.threatened());
    // The Chief next to the enemy Chief: the Chief that moves first takes it and wins.
    let chiefs = Jetan::from_fen("q9/10/10/10/10/10/10/10/10/K1k6Q w - 0 1").unwrap();
    assert!(chiefs.threatened());
    // Skak: a Höfdhing on the Jarkhan's diagonal, then blocked.
    let open = Skak::from_fen("3k3/7/7/B6/7/7/3K3 b - - 0 1").unwrap();
    let blocked = Skak::from_fen("3k3/7/1p5/B6/7/7/3K3 b - - 0 1").unwrap();
    assert!(open.threatened());
    assert!(!blocked.threatened());
    // The wins in two of the tactics suites that need it, found at depth 3.
    let (best, score, position) = think::<Jetan>(
        "wad4Kaw/tppppp1ppt/10/9q/10/10/k4f4/1AP7/DPP1PPPPPT/3Q3DAW w - 0 17",
        3,
        1,
    );
    assert_eq!(position.move_text(best.unwrap()), "h10h7");
    assert!(score >= MATE - 3, "score {score}");
}

#[test]
fn a_node_limit_stops_at_its_count() {
    // One thread stops at the limit itself, not at the next multiple of the interval at
    // which it checks the clock (1024 nodes): a few nodes more while the search unwinds.
    let game = GameState::new(Chess::from_fen(Chess::START_FEN).unwrap());
    for limit in [1, 1000, 1500, 5000] {
        let limits = Limits::fixed_nodes(limit);
        let settings = Settings {
            threads: 1,
            multipv: 1,
            ..Settings::default()
        };
        let outcome = thoat::search::search_quietly(&game, &limits, &settings, &Shared::new(16));
        assert!(outcome.best.is_some());
        assert!(
            (limit..limit + 64).contains(&outcome.nodes),
            "go nodes {limit}: {} nodes",
            outcome.nodes
        );
    }
}
