//! The `Evaluation` option: `material` searches with material alone, `random` plays uniformly
//! random legal moves; both are baselines for measuring the full evaluations in matches.

mod common;

use common::engine::Engine;
use std::collections::HashSet;
use std::time::Duration;
use thoat::core::game::parse_move;
use thoat::core::{Game, GameState};
use thoat::search::{search_quietly, EvalMode, Limits, SearchGame, Settings, Shared};
use thoat::tools::matches::openings::parse_openings;
use thoat::variants::{Chess, Jetan, Skak, Variant};

fn score<G: SearchGame>(fen: &str, depth: i32, eval: EvalMode) -> i32 {
    let game = GameState::new(G::from_fen(fen).unwrap());
    let limits = Limits::fixed_depth(depth);
    let settings = Settings {
        eval,
        ..Settings::default()
    };
    search_quietly(&game, &limits, &settings, &Shared::new(1)).score
}

/// Material is 0 at the start and the same for a position and its colour-flipped twin, in
/// every opening of every game's book.
fn material_is_symmetric<G: SearchGame>(variant: Variant) {
    assert_eq!(G::from_fen(G::START_FEN).unwrap().material(), 0);
    let path = format!(
        "{}/positions/openings/{}.epd",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    let text = std::fs::read_to_string(path).unwrap();
    let fens = parse_openings(variant, &text).unwrap();
    assert!(
        fens.len() >= 100,
        "{}: {} openings",
        variant.name(),
        fens.len()
    );
    for fen in fens {
        let pos = G::from_fen(&fen).unwrap();
        assert_eq!(pos.material(), pos.color_flipped().material(), "{fen}");
        assert_eq!(pos.evaluate(), pos.color_flipped().evaluate(), "{fen}");
    }
}

#[test]
fn material_is_symmetric_in_every_book() {
    for v in Variant::ALL {
        thoat::with_game!(v, G => material_is_symmetric::<G>(v));
    }
}

#[test]
fn a_material_search_scores_material_alone() {
    // A rook up and nothing to capture: material says exactly a rook, whatever the move.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(score::<Chess>(fen, 1, EvalMode::Material), 500);
    assert_eq!(score::<Chess>(fen, 3, EvalMode::Material), 500);
    assert_ne!(score::<Chess>(fen, 1, EvalMode::Full), 500);
    // Skak: an extra Lanar (500).
    let skak = "3k3/7/7/7/7/7/R2K3 w - - 0 1";
    assert_eq!(score::<Skak>(skak, 2, EvalMode::Material), 500);
}

#[test]
fn the_random_mode_plays_varied_legal_moves_over_uci() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok", Duration::from_secs(10));
    assert!(lines.contains(
        &"option name Evaluation type combo default nnue var full var material var random var nnue"
            .to_string()
    ));
    e.send("setoption name Evaluation value nonsense");
    let error = e.sync();
    assert!(
        error.len() == 1 && error[0].starts_with("info string error:"),
        "{error:?}"
    );
    e.send("setoption name UCI_Variant value jetan");
    e.send("setoption name Evaluation value random");
    let start = thoat::variants::Jetan::from_fen(thoat::variants::Jetan::START_FEN).unwrap();
    let mut seen = HashSet::new();
    for _ in 0..20 {
        e.send("position startpos");
        e.send("go depth 5");
        let (mv, _) = e.bestmove(Duration::from_secs(10));
        assert!(parse_move(&start, &mv).is_ok(), "{mv}");
        seen.insert(mv);
    }
    // Jetan has dozens of first moves: twenty random picks are never all the same.
    assert!(seen.len() > 3, "{seen:?}");
    e.send("setoption name Evaluation value material");
    e.send("setoption name UCI_Variant value skak");
    e.send("position fen 3k3/7/7/7/7/7/R2K3 w - - 0 1");
    e.go_and_expect("go depth 2", "score cp 500");
    e.quit();
}

/// The file of a network of `G` with seeded random weights.
fn network_bytes<G: SearchGame>(seed: u64) -> Vec<u8> {
    use thoat::nnue::features::input_count;
    use thoat::nnue::train::FloatNetwork;
    FloatNetwork::new(input_count::<G>(), 8, seed)
        .quantise(G::NAME)
        .to_bytes()
}

/// `Evaluation nnue` searches with the network of `Settings::network`; a network of another
/// game is ignored, and without one the game's built-in network is used (skak has one), or
/// the full evaluation in a game without one.
#[test]
fn an_nnue_search_uses_the_games_network() {
    use std::sync::Arc;
    use thoat::nnue::network::Network;
    let bytes = network_bytes::<Skak>(3);
    let network = Arc::new(Network::from_bytes::<Skak>(&bytes).unwrap());
    let fen = "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1";
    let position = Skak::from_fen(fen).unwrap();
    let limits = Limits::fixed_depth(1);
    let run = |eval, network: Option<Arc<Network>>| {
        let settings = Settings {
            eval,
            network,
            ..Settings::default()
        };
        let game = GameState::new(position);
        search_quietly(&game, &limits, &settings, &Shared::new(1)).score
    };
    // At depth 1 the score is the best child's evaluation: the network's.
    let mut moves = Vec::new();
    position.generate(&mut moves);
    let best_by = |network: &Network| {
        moves
            .iter()
            .map(|&m| {
                let mut child = position;
                child.play(m);
                -network.evaluate_position(&child)
            })
            .max()
            .unwrap()
    };
    assert_eq!(
        run(EvalMode::Nnue, Some(Arc::clone(&network))),
        best_by(&network)
    );
    let built_in = thoat::nnue::embedded::network::<Skak>().expect("skak has a network");
    assert_eq!(run(EvalMode::Nnue, None), best_by(built_in));
    assert_ne!(run(EvalMode::Nnue, None), run(EvalMode::Full, None));
    let chess_bytes = network_bytes::<Chess>(3);
    let chess_net = Arc::new(Network::from_bytes::<Chess>(&chess_bytes).unwrap());
    assert_eq!(
        run(EvalMode::Nnue, Some(chess_net)),
        run(EvalMode::Nnue, None)
    );
    // Jetan has no network: `nnue` is its full evaluation.
    let jetan = GameState::new(Jetan::from_fen(Jetan::START_FEN).unwrap());
    let jetan_run = |eval| {
        let settings = Settings {
            eval,
            ..Settings::default()
        };
        search_quietly(&jetan, &limits, &settings, &Shared::new(1)).score
    };
    assert_eq!(jetan_run(EvalMode::Nnue), jetan_run(EvalMode::Full));
}

/// `EvalFile` loads a network for the game its file names, whether it comes before or after
/// `UCI_Variant`; a missing or damaged file is one `info string error` and the network loaded
/// before stays.
#[test]
fn eval_file_errors_keep_the_network_loaded_before() {
    let dir = common::scratch("eval_modes", "eval_file");
    let good = dir.join("good.nnue");
    std::fs::write(&good, network_bytes::<Skak>(5)).unwrap();
    let damaged = dir.join("damaged.nnue");
    let mut bytes = std::fs::read(&good).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&damaged, &bytes).unwrap();
    let not_a_net = dir.join("text.nnue");
    std::fs::write(&not_a_net, "hello").unwrap();
    let chess = dir.join("chess.nnue");
    std::fs::write(&chess, network_bytes::<Chess>(5)).unwrap();
    let mut engine = Engine::start();
    // The network first, the game after, as some GUIs send them.
    engine.send(&format!("setoption name EvalFile value {}", good.display()));
    engine.send("setoption name UCI_Variant value skak");
    engine.send("setoption name Evaluation value nnue");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("is a skak network")),
        "{lines:?}"
    );
    for (file, error) in [
        (damaged.display().to_string(), "checksum"),
        (not_a_net.display().to_string(), "not a thoat network"),
        ("/nonexistent/net.nnue".to_string(), "cannot read"),
    ] {
        engine.send(&format!("setoption name EvalFile value {file}"));
        let lines = engine.sync();
        let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "{lines:?}");
        assert!(errors[0].starts_with("info string error") && errors[0].contains(error));
    }
    // A chess network while skak is the game: kept for chess, the skak one stays.
    engine.send(&format!(
        "setoption name EvalFile value {}",
        chess.display()
    ));
    engine.send("position startpos");
    let (bestmove, lines) = engine.go("go depth 3");
    assert!(bestmove != "(none)");
    assert!(lines.iter().all(|l| !l.contains("no network")), "{lines:?}");
    engine.send("setoption name UCI_Variant value chess");
    let (_, lines) = engine.go("go depth 2");
    assert!(lines.iter().all(|l| !l.contains("no network")), "{lines:?}");
    engine.send("setoption name UCI_Variant value jetan");
    engine.go_and_expect("go depth 2", "no network for jetan");
    engine.quit();
}

/// By default skak searches with its built-in network (another score than `Evaluation
/// full`), and a game without a network searches with its full evaluation without a warning.
#[test]
fn the_default_is_the_built_in_network_and_silent_without_one() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value skak");
    engine.send("position startpos");
    let score = |lines: &[String]| {
        lines
            .iter()
            .rfind(|l| l.starts_with("info depth 4 "))
            .and_then(|l| l.split(" score cp ").nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string)
            .expect("a depth-4 score")
    };
    let (_, lines) = engine.go("go depth 4");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    let by_network = score(&lines);
    engine.send("setoption name Evaluation value full");
    // A new game: the table's entries hold the network's evaluations.
    engine.send("ucinewgame");
    engine.send("position startpos");
    let (_, lines) = engine.go("go depth 4");
    assert_ne!(score(&lines), by_network, "{lines:?}");
    let mut fresh = Engine::start();
    fresh.send("setoption name UCI_Variant value jetan");
    fresh.send("position startpos");
    let (bestmove, lines) = fresh.go("go depth 2");
    assert!(bestmove != "(none)");
    assert!(lines.iter().all(|l| !l.contains("no network")), "{lines:?}");
    engine.quit();
    fresh.quit();
}

/// Searches with a network in every game: the accumulators the search updates from its
/// ancestors' are checked against fresh ones at every evaluation (a debug assertion, on in
/// tests), and the search finds a legal move.
#[test]
fn nnue_searches_of_every_game_update_their_accumulators_exactly() {
    fn run<G: SearchGame>() {
        use std::sync::Arc;
        use thoat::nnue::network::Network;
        let bytes = network_bytes::<G>(11);
        let network = Arc::new(Network::from_bytes::<G>(&bytes).unwrap());
        let settings = Settings {
            eval: EvalMode::Nnue,
            network: Some(network),
            ..Settings::default()
        };
        let limits = Limits::fixed_nodes(20_000);
        let game = GameState::new(G::from_fen(G::START_FEN).unwrap());
        let outcome = search_quietly(&game, &limits, &settings, &Shared::new(1));
        let best = outcome.best.expect("a move");
        let text = game.position.move_text(best);
        assert_eq!(parse_move(&game.position, &text), Ok(best));
    }
    for v in Variant::ALL {
        thoat::with_game!(v, G => run::<G>());
    }
}

/// The number at the end of the line of `lines` that starts with `what`.
fn value_of(lines: &[String], what: &str) -> Option<i32> {
    let line = lines.iter().find(|l| l.starts_with(what))?;
    line.split_whitespace().last()?.parse().ok()
}

/// `eval` prints the classical evaluation term by term (the terms add up to it), material,
/// the network's evaluation, all from White's side, and which one the search uses; a game
/// that is over is not evaluated.
#[test]
fn the_eval_command_shows_every_evaluation_of_the_position() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 c7c5 g1f3");
    e.send("eval");
    let lines = e.sync();
    let position =
        Chess::from_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").unwrap();
    // Black is to move: White's view is the negated side-to-move score.
    let full = value_of(&lines, "full (classical) evaluation");
    assert_eq!(full, Some(-position.evaluate()), "{lines:?}");
    let header = lines
        .iter()
        .position(|l| l.starts_with("term"))
        .expect("a header");
    let total = lines
        .iter()
        .position(|l| l.starts_with("full"))
        .expect("a total");
    let parts: i32 = lines[header + 1..total]
        .iter()
        .map(|l| l.split_whitespace().last().unwrap().parse::<i32>().unwrap())
        .sum();
    assert_eq!(Some(parts), full, "{lines:?}");
    assert_eq!(value_of(&lines, "material"), Some(0));
    let network = thoat::nnue::embedded::network::<Chess>().expect("chess has a network");
    assert_eq!(
        value_of(&lines, "nnue (built in"),
        Some(-network.evaluate_position(&position)),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "The search evaluates with: nnue");

    e.send("setoption name Evaluation value material");
    e.send("eval");
    let lines = e.sync();
    assert_eq!(lines.last().unwrap(), "The search evaluates with: material");

    e.send("setoption name UCI_Variant value jetan");
    e.send("setoption name Evaluation value nnue");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.contains(&"nnue: jetan has no network".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "The search evaluates with: full");

    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("eval");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("The game is over (0-1"), "{lines:?}");
    e.quit();
}
