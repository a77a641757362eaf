//! The protocol, driven through the real binary as a GUI would.

mod common;

use common::engine::Engine;
use std::time::{Duration, Instant};
use thoat::uci::fuzz::well_formed_reply;
use thoat::variants::{AnyGame, Variant};

const LONG: Duration = Duration::from_secs(60);

#[test]
fn handshake_lists_every_option_and_variant() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok", LONG);
    assert!(lines.iter().any(|l| l.starts_with("id name thoat")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .unwrap();
    assert!(variant
        .contains("type combo default chess var chess var duck var chaturanga var skak var jetan"));
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Clear Hash",
        "Ponder",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}"
        );
    }
    e.quit();
}

#[test]
fn bad_input_gets_one_error_line_and_keeps_the_position() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let fen = e.fen();
    assert_eq!(
        fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let bad = [
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position startpos moves e2e4 e2e4",
        "position startpos moves zz",
        "position",
        "position fen",
        "setoption name UCI_Variant value xiangqi",
        "setoption name Threads value 0",
        "setoption name Hash value lots",
        "setoption name Contempt value 1001",
        "setoption name Contempt value -5x",
        "setoption name Nonsense value 1",
        "setoption",
        "go perft 0",
        "go perft x",
        "go depth",
        "go depth x",
        "go wtime -",
        "go searchmoves e2e5",
        "go searchmoves",
        "go sideways",
        "frobnicate",
        "\u{1F600}",
    ];
    for line in bad {
        e.send(line);
        let replies = e.sync();
        assert_eq!(replies.len(), 1, "{line}: {replies:?}");
        assert!(
            replies[0].starts_with("info string error: "),
            "{line}: {replies:?}"
        );
        assert_eq!(e.fen(), fen, "position changed by {line}");
    }
    e.quit();
}

#[test]
fn go_perft_prints_the_divide() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value skak");
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"), LONG);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 49");
    assert_eq!(lines.iter().filter(|l| l.contains(": 7")).count(), 7);
    assert_eq!(lines[lines.len() - 2], "");
    e.quit();
}

/// `go perft` runs like a search, on its own thread: `isready` is answered at once while
/// it counts, `stop` ends it with well-formed output (no divide), and `quit` ends the
/// process. Skak perft 12 would take days.
#[test]
fn go_perft_runs_off_the_input_thread_and_stops() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value skak");
    e.send("position startpos");
    e.send("go perft 12");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    assert_eq!(
        e.read_until(|l| l == "readyok", Duration::from_secs(2)),
        ["readyok"]
    );
    let start = Instant::now();
    e.send("stop");
    let lines = e.sync();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        start.elapsed()
    );
    assert!(lines.iter().all(|l| well_formed_reply(l)), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    // A new perft after the stop counts in full.
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"), LONG);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 49");
    e.send("go perft 12");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.quit();
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "quit took {:?}",
        start.elapsed()
    );
}

/// Many threads cost nothing until they search, and forgetting what they learnt is cheap:
/// `ucinewgame` and a change of game after a 256-thread search used to clear 256 history
/// tables of 8 MiB each in place, seconds before `readyok`.
#[test]
fn many_threads_keep_isready_quick() {
    let mut e = Engine::start();
    let quick = |e: &mut Engine, command: &str, bound: Duration| {
        let start = Instant::now();
        e.send(command);
        e.send("isready");
        e.read_until(|l| l == "readyok", LONG);
        let took = start.elapsed();
        assert!(took < bound, "{command}: readyok after {took:?}");
    };
    quick(
        &mut e,
        "setoption name Threads value 256",
        Duration::from_millis(500),
    );
    e.send("go depth 1");
    e.bestmove(LONG);
    quick(&mut e, "ucinewgame", Duration::from_secs(1));
    e.send("go depth 1");
    e.bestmove(LONG);
    quick(
        &mut e,
        "setoption name UCI_Variant value skak",
        Duration::from_secs(1),
    );
    quick(
        &mut e,
        "setoption name Threads value 1",
        Duration::from_millis(500),
    );
    e.quit();
}

#[test]
fn every_game_returns_legal_bestmoves_for_every_go_form() {
    let mut e = Engine::start();
    for variant in Variant::ALL {
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ));
        for go in [
            "go depth 2",
            "go nodes 3000",
            "go movetime 100",
            "go wtime 2000 btime 2000 winc 10 binc 10",
            "go wtime 500 btime 500 movestogo 5",
        ] {
            let mut moves: Vec<String> = Vec::new();
            for _ in 0..3 {
                e.send(&format!("position startpos moves {}", moves.join(" ")));
                e.send(go);
                let (best, lines) = e.bestmove(LONG);
                let game = AnyGame::from_setup(
                    variant,
                    None,
                    &moves.iter().map(String::as_str).collect::<Vec<_>>(),
                )
                .unwrap();
                assert!(
                    game.is_legal(&best),
                    "{} {go}: illegal bestmove {best}: {lines:?}",
                    variant.name()
                );
                assert!(
                    lines.iter().any(|l| l.starts_with("info depth")),
                    "{go}: no info line"
                );
                moves.push(best);
            }
        }
    }
    e.quit();
}

#[test]
fn stop_ends_an_infinite_search_and_isready_answers_during_search() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.assert_no_bestmove("before stop");
    let start = Instant::now();
    e.send("stop");
    let (best, _) = e.bestmove(LONG);
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        start.elapsed()
    );
    assert!(AnyGame::from_setup(Variant::Chess, None, &[])
        .unwrap()
        .is_legal(&best));
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(1200));
    e.assert_no_bestmove("while pondering");
    e.send("ponderhit");
    let (best, _) = e.bestmove(Duration::from_secs(5));
    assert!(!best.is_empty());
    e.quit();
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::start();
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    e.send("go depth 3");
    let (best, _) = e.bestmove(LONG);
    assert_eq!(best, "(none)");
    e.quit();
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 4");
    let (_, lines) = e.bestmove(LONG);
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last_depth.len(), 3, "{lines:?}");
    let firsts: std::collections::HashSet<&str> = last_depth
        .iter()
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(firsts.len(), 3);
    e.quit();
}

#[test]
fn quit_during_search_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.quit();
}

/// `debug on|off` and `register later` are standard UCI commands: accepted silently (they
/// were answered "unknown command" before).
#[test]
fn debug_and_register_are_accepted() {
    let mut e = Engine::start();
    for command in [
        "debug on",
        "debug off",
        "register later",
        "register name x code y",
    ] {
        e.send(command);
        assert_eq!(e.sync(), Vec::<String>::new(), "{command}");
    }
    e.send("debug sideways");
    let lines = e.sync();
    assert!(lines[0].starts_with("info string error"), "{lines:?}");
    e.quit();
}

/// Asserts that `position fen <fen>` is accepted and gives `fen` back.
fn assert_reads_back(e: &mut Engine, fen: &str) {
    e.send(&format!("position fen {fen}"));
    assert!(e.sync().is_empty(), "{fen} reads back");
    assert_eq!(e.fen(), fen);
}

/// What `d` writes reads back: clocks past 999999 (refused before) and a fullmove number at
/// the top of its range, which counting on leaves where it is.
#[test]
fn every_fen_the_engine_writes_reads_back() {
    let mut e = Engine::start();
    e.send("position fen 4k3/8/8/8/8/8/8/4K3 b - - 999999 999999 moves e8d8");
    let fen = e.fen();
    assert_eq!(fen, "3k4/8/8/8/8/8/8/4K3 w - - 1000000 1000000");
    assert_reads_back(&mut e, &fen);
    for variant in Variant::ALL {
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ));
        e.send("position startpos");
        let start = e.fen();
        let mut fields: Vec<&str> = start.split_whitespace().collect();
        let last = fields.len() - 1;
        fields[last] = "4294967295";
        let fen = fields.join(" ");
        let mut moves = Vec::new();
        for _ in 0..2 {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            e.send("go depth 1");
            let (mv, _) = e.bestmove(LONG);
            moves.push(mv);
        }
        e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        let written = e.fen();
        assert!(written.ends_with(" 4294967295"), "{written}");
        assert_reads_back(&mut e, &written);
    }
    e.quit();
}

/// A long move list is read quickly: 40,000 plies of duck chess, with hundreds of legal turns
/// in every position. The knights go out and back and the duck alternates d4 and d5, which
/// stays legal for ever: `position` does not refuse moves after the fifty-move rule or a
/// repetition would have ended the game. Finding each move by writing the text of every
/// legal turn took 19 s on the busy 2-core machine this was written on; by its squares, 1 to
/// 1.5 s.
#[test]
fn a_long_duck_move_list_is_read_quickly() {
    let cycle = ["g1f3,f3d4", "g8f6,f6d5", "f3g1,g1d4", "f6g8,g8d5"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(40_000).collect();
    let line = format!("position startpos moves {}", moves.join(" "));
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value duck");
    assert!(e.sync().is_empty());
    let start = Instant::now();
    e.send(&line);
    assert!(e.sync().is_empty(), "the move list is legal");
    let took = start.elapsed();
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/3*4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 40000 20001"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
    e.quit();
}
