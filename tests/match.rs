//! `thoat match` through the real binary: a two-game match between two thoat instances whose
//! PGN must replay legally to the result it states, and the referee's verdicts on engines
//! that play an illegal move, crash, or never answer.

mod common;

use std::process::{Command, Output};
use thoat::core::{Color, GameState};
use thoat::tools::pgn::read::PgnRecord;
use thoat::variants::{AnyGame, Variant};

const THOAT: &str = env!("CARGO_BIN_EXE_thoat");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> common::Scratch {
    common::scratch("match", name)
}

fn thoat_match(args: &[&str]) -> Output {
    Command::new(THOAT)
        .arg("match")
        .args(args)
        .output()
        .expect("run thoat match")
}

/// `thoat match` of thoat against thoat (the engines named `a` and `b`) with `args`.
fn thoat_match_a_b(args: &[&str]) -> Output {
    let engine = format!("cmd={THOAT}");
    let mut all = vec!["--engine", &engine, "name=a", "--engine", &engine, "name=b"];
    all.extend_from_slice(args);
    thoat_match(&all)
}

/// More games than twice the book replay openings, and node-limited engines replay the
/// same games: the runner says so before it starts.
#[test]
fn a_match_longer_than_its_book_is_warned_about() {
    let dir = scratch("repeats");
    let book = dir.join("book.epd");
    std::fs::write(&book, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n").unwrap();
    let out = thoat_match_a_b(&[
        "--games",
        "4",
        "--tc",
        "nodes=50",
        "--maxmoves",
        "3",
        "--openings",
        book.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: 4 games from 1 openings play 1 openings again"),
        "{stderr}"
    );
}

#[test]
fn two_thoat_instances_play_a_legal_match() {
    let dir = scratch("selfplay");
    let pgn = dir.join("games.pgn");
    let book = dir.join("book.epd");
    let opening = "wadfqkfdaw/tppppp1ppt/6p3/10/10/10/3P6/10/TPP1PPPPPT/WADFKQFDAW w Qq 0 2";
    std::fs::write(&book, format!("# a one-line book\n{opening}\n")).unwrap();
    let out = thoat_match(&[
        "--variant",
        "jetan",
        "--engine",
        &format!("cmd={THOAT}"),
        "name=first",
        "option.Hash=1",
        "--engine",
        &format!("cmd={THOAT}"),
        "name=second",
        "option.Hash=1",
        "--games",
        "2",
        "--tc",
        "nodes=300",
        "--maxmoves",
        "60",
        "--openings",
        book.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("Score of first vs second: "), "{stdout}");
    assert!(stdout.contains("] 2\n"), "{stdout}");
    // Two games from one opening repeat nothing.
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("warning"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = common::pgn_games(&text);
    assert_eq!(games.len(), 2, "{text}");
    // The opening is played once with each colour.
    assert_eq!(games[0].tag("White"), Some("first"));
    assert_eq!(games[0].tag("Black"), Some("second"));
    assert_eq!(games[1].tag("White"), Some("second"));
    assert_eq!(games[1].tag("Black"), Some("first"));
    let mut first_points = 0.0;
    for game in &games {
        assert_eq!(game.tag("Event"), Some("thoat match"));
        assert_eq!(game.tag("Variant"), Some("jetan"));
        assert_eq!(game.tag("SetUp"), Some("1"));
        assert_eq!(game.tag("FEN"), Some(opening));
        assert_eq!(game.tag("TimeControl"), Some("nodes=300"));
        let result = game.tag("Result").expect("Result tag");
        assert_eq!(Some(result), game.result.as_deref());
        let termination = game.tag("Termination").expect("Termination tag");
        // Replay: every move must be legal, and the end must be what the tags say.
        let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
        let Ok(AnyGame::Jetan(state)) = AnyGame::from_setup(Variant::Jetan, Some(opening), &moves)
        else {
            panic!("the moves do not replay legally: {moves:?}");
        };
        let state: GameState<_> = state;
        match state.result() {
            Some(end) => {
                assert_eq!(end.pgn(), result);
                assert_eq!(end.reason, termination);
            }
            None => {
                assert_eq!(termination, "adjudication");
                assert_eq!(result, "1/2-1/2");
                assert_eq!(moves.len(), 120);
            }
        }
        let first_is_white = game.tag("White") == Some("first");
        first_points += match (result, first_is_white) {
            ("1/2-1/2", _) => 0.5,
            ("1-0", true) | ("0-1", false) => 1.0,
            _ => 0.0,
        };
    }
    let (wins, rest) = stdout["Score of first vs second: ".len()..]
        .split_once(" - ")
        .unwrap();
    let draws_text = rest.split(" - ").nth(1).unwrap();
    let draws: f64 = draws_text
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        wins.parse::<f64>().unwrap() + draws / 2.0,
        first_points,
        "{stdout}"
    );
}

/// A fake UCI engine in `sh` that handshakes and answers `go` with `on_go`.
fn fake_engine(name: &str, on_go: &str) -> Vec<String> {
    let script = format!(
        "while read -r line; do case \"$line\" in \
         uci) echo 'id name fake'; echo uciok;; \
         isready) echo readyok;; \
         go*) {on_go};; \
         stop) echo 'bestmove 0000';; \
         quit) exit 0;; \
         esac; done"
    );
    vec![
        "cmd=sh".to_string(),
        format!("name={name}"),
        "arg=-c".to_string(),
        format!("arg={script}"),
    ]
}

/// Runs a two-game chess match of thoat against a fake engine; returns stdout and the PGN.
fn against_fake(test: &str, on_go: &str, tc: &str, extra: &[&str]) -> (String, Vec<PgnRecord>) {
    let dir = scratch(test);
    let pgn = dir.join("games.pgn");
    let mut args: Vec<String> = vec!["--variant".into(), "chess".into(), "--engine".into()];
    args.extend([format!("cmd={THOAT}"), "name=thoat".into()]);
    args.push("--engine".into());
    args.extend(fake_engine("fake", on_go));
    let games = if extra.is_empty() { "2" } else { "200" };
    args.extend(["--games", games, "--tc", tc, "--timemargin", "400", "--pgn"].map(String::from));
    args.push(pgn.to_str().unwrap().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = thoat_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = common::pgn_games(&std::fs::read_to_string(&pgn).unwrap());
    (stdout, games)
}

fn assert_fake_lost_both(stdout: &str, games: &[PgnRecord], termination: &str) {
    assert!(
        stdout.starts_with("Score of thoat vs fake: 2 - 0 - 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("Terminations: {termination}: 2")),
        "{stdout}"
    );
    assert_eq!(games.len(), 2);
    for game in games {
        assert_eq!(game.tag("Termination"), Some(termination));
        let fake_color = if game.tag("White") == Some("fake") {
            Color::White
        } else {
            Color::Black
        };
        let expected = if fake_color == Color::White {
            "0-1"
        } else {
            "1-0"
        };
        assert_eq!(game.tag("Result"), Some(expected));
        assert!(game.tag("SetUp").is_none() && game.tag("FEN").is_none());
    }
}

#[test]
fn an_illegal_move_loses() {
    // e2e5 is never legal for White at the start, nor for Black ever (no black piece on e2).
    let (stdout, games) = against_fake("illegal", "echo 'bestmove e2e5'", "nodes=200", &[]);
    assert_fake_lost_both(&stdout, &games, "illegal move");
    let unparseable = against_fake("garbage", "echo 'bestmove hello'", "nodes=200", &[]);
    assert_fake_lost_both(&unparseable.0, &unparseable.1, "illegal move");
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    // The fake exits when asked to move; it must be restarted for the second game, which it
    // loses the same way (a failed restart would end the match with an error instead).
    let (stdout, games) = against_fake("crash", "exit 3", "nodes=200", &[]);
    assert_fake_lost_both(&stdout, &games, "engine crashed");
}

#[test]
fn no_answer_is_a_time_forfeit() {
    // The fake ignores `go` (it answers only `stop`): a loss on time after 100 + 400 ms
    // (the margin is wide so that thoat never loses on time on a loaded machine).
    let (stdout, games) = against_fake("timeout", ":", "movetime=100", &[]);
    assert_fake_lost_both(&stdout, &games, "time forfeit");
    for game in &games {
        assert_eq!(game.tag("TimeControl"), Some("movetime=100"));
    }
}

#[test]
fn bad_flags_are_one_clear_error() {
    for args in [
        vec![
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "cmd=/bin/true",
            "name=x",
        ],
        vec![
            "--engine",
            &format!("cmd={THOAT}"),
            "name=a",
            "--engine",
            "cmd=x",
            "name=b",
            "--tc",
            "fast",
        ],
        vec!["--engine", &format!("cmd={THOAT}")],
        vec![
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "alpha=0.05",
            "beta=2",
        ],
    ] {
        let out = thoat_match(&args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("thoat: ") || stderr.contains("error"),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn the_sprt_stops_a_one_sided_match_early() {
    let (stdout, games) = against_fake(
        "sprt",
        "echo 'bestmove e2e5'",
        "nodes=200",
        &[
            "--sprt",
            "elo0=0",
            "elo1=50",
            "alpha=0.05",
            "beta=0.05",
            "--concurrency",
            "2",
        ],
    );
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(games.len() < 200 && games.len() >= 4, "{}", games.len());
    assert!(stdout.contains(&format!("Terminations: illegal move: {}", games.len())));
}

/// A match of thoat against thoat with `args` on a clock: it must succeed with no game lost
/// on time (the margin is wide only to absorb a loaded test machine). Its standard output and
/// games.
fn clock_match(name: &str, args: &[&str]) -> (String, Vec<PgnRecord>) {
    let dir = scratch(name);
    let pgn = dir.join("games.pgn");
    let mut all = vec!["--timemargin", "500", "--pgn", pgn.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = thoat_match_a_b(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    assert!(!stdout.contains("time forfeit"), "{stdout}");
    let games = common::pgn_games(&std::fs::read_to_string(&pgn).unwrap());
    (stdout, games)
}

#[test]
fn a_clock_time_control_is_kept() {
    // 0.5 s + 0.05 s per move, ten moves each: thoat's time management must never lose on
    // time.
    let (_, games) = clock_match(
        "clock",
        &[
            "--variant",
            "skak",
            "--games",
            "2",
            "--tc",
            "0.5+0.05",
            "--maxmoves",
            "10",
        ],
    );
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("TimeControl"), Some("0.5+0.05"));
        assert!(game.tag("SetUp").is_none());
    }
}

/// `--ponder` at sudden death: both engines think on the opponent's time (`go ponder`, then
/// `ponderhit` or `stop`), the clocks are kept, and the summary counts the ponder searches.
#[test]
fn pondering_engines_keep_a_sudden_death_clock() {
    let (stdout, games) = clock_match(
        "ponder",
        &[
            "--games",
            "2",
            "--tc",
            "1+0",
            "--ponder",
            "--maxmoves",
            "15",
        ],
    );
    assert_eq!(games.len(), 2);
    let counts = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Ponder hits: "))
        .unwrap_or_else(|| panic!("no ponder line: {stdout}"));
    for (engine, count) in ["a", "b"].iter().zip(counts.split(", ")) {
        let words: Vec<&str> = count.split(' ').collect();
        let [name, hits, "of", tries] = words[..] else {
            panic!("{count}");
        };
        let (hits, tries): (u32, u32) = (hits.parse().unwrap(), tries.parse().unwrap());
        assert_eq!(name, *engine, "{counts}");
        // Fifteen moves each in two games: every engine ponders on most of its moves.
        assert!(tries >= 10 && hits <= tries, "{counts}");
    }
}
