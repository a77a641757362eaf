//! `thoat annotate` through the real binary: games from `thoat match` in every game are
//! written back with an evaluation per move, read back by thoat's own PGN reader (and, for
//! chess, by python-chess), the same whatever the number of jobs, and a second annotation of
//! the annotated file changes nothing; unreadable games are named and skipped.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use thoat::tools::pgn::read::{read_games, PgnRecord};
use thoat::variants::Variant;

const THOAT: &str = env!("CARGO_BIN_EXE_thoat");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> common::Scratch {
    common::scratch("annotate", name)
}

/// Plays `games` quick games of `variant` between two thoat instances; returns the PGN file.
fn match_pgn(variant: Variant, games: usize, dir: &Path) -> PathBuf {
    let pgn = dir.join(format!("{}.pgn", variant.name()));
    let engine = format!("cmd={THOAT}");
    let openings = format!("positions/openings/{}.epd", variant.name());
    common::run_ok(
        Command::new(THOAT)
            .args([
                "match",
                "--variant",
                variant.name(),
                "--engine",
                &engine,
                "name=a",
            ])
            .args(["--engine", &engine, "name=b", "--games", &games.to_string()])
            .args([
                "--tc",
                "nodes=300",
                "--maxmoves",
                "60",
                "--openings",
                &openings,
            ])
            .arg("--pgn")
            .arg(&pgn),
    );
    pgn
}

fn annotate(args: &[&str]) -> Output {
    Command::new(THOAT)
        .arg("annotate")
        .args(args)
        .output()
        .expect("run thoat annotate")
}

/// `thoat annotate` that must succeed: its standard output and error.
fn annotate_ok(args: &[&str]) -> (String, String) {
    let out = annotate(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "annotate {args:?}: {stderr}");
    (String::from_utf8_lossy(&out.stdout).to_string(), stderr)
}

fn games_of(path: &Path) -> Vec<PgnRecord> {
    common::pgn_games(&std::fs::read_to_string(path).expect("read PGN"))
}

#[test]
fn games_of_every_variant_are_annotated_and_read_back() {
    let dir = scratch("all");
    for variant in Variant::ALL {
        let name = variant.name();
        let input = match_pgn(variant, 4, &dir);
        let output = dir.join(format!("{name}-annotated.pgn"));
        let summary = dir.join(format!("{name}.csv"));
        let svg = dir.join(format!("{name}-svg"));
        let (_, stderr) = annotate_ok(&[
            "--variant",
            name,
            "--input",
            input.to_str().unwrap(),
            "--nodes",
            "400",
            "--jobs",
            "2",
            "--output",
            output.to_str().unwrap(),
            "--summary",
            summary.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ]);
        assert!(
            stderr.contains(&format!("annotate {name}: 4 games")),
            "{stderr}"
        );
        let played = games_of(&input);
        let annotated = games_of(&output);
        assert_eq!(annotated.len(), 4, "{name}");
        let text = std::fs::read_to_string(&output).unwrap();
        let mut moves = 0;
        for (before, after) in played.iter().zip(&annotated) {
            assert_eq!(before.moves, after.moves, "{name}: the main line is kept");
            assert_eq!(before.result, after.result);
            assert_eq!(before.tag("White"), after.tag("White"));
            assert_eq!(before.tag("FEN"), after.tag("FEN"));
            assert_eq!(after.tag("Variant"), Some(name));
            assert!(after
                .tag("Annotator")
                .is_some_and(|a| a.contains("400 nodes")));
            for side in ["WhiteAccuracy", "BlackAccuracy"] {
                let accuracy: f64 = after.tag(side).expect(side).parse().expect("a number");
                assert!(
                    (0.0..=100.0).contains(&accuracy),
                    "{name} {side} {accuracy}"
                );
            }
            moves += after.moves.len();
        }
        // An evaluation after every move but those that end a game (at most one per game).
        let evals = text.matches("[%eval ").count();
        assert!(
            evals <= moves && evals + 4 >= moves,
            "{name}: {evals} evals for {moves} moves"
        );
        let rows = std::fs::read_to_string(&summary).unwrap();
        let rows: Vec<&str> = rows.lines().collect();
        assert_eq!(rows.len(), 1 + 2 * 4, "{name}: {rows:?}");
        assert!(rows[0].starts_with("game,side,player,moves,inaccuracies"));
        assert!(rows[1].starts_with("1,white,"), "{rows:?}");
        // One graph per game, with a marker for every judged move.
        let mut markers = 0;
        for i in 1..=annotated.len() {
            let graph = std::fs::read_to_string(svg.join(format!("game-{i:03}.svg")))
                .expect("one SVG per game");
            assert!(graph.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
            assert!(graph.contains("<polygon class=\"white-share\""));
            markers += graph.matches("<circle class=").count();
        }
        assert_eq!(markers, text.matches("; best ").count(), "{name}");
        // Annotating the annotated file reads it back and changes nothing.
        let again = dir.join(format!("{name}-again.pgn"));
        annotate_ok(&[
            "--variant",
            name,
            "--input",
            output.to_str().unwrap(),
            "--nodes",
            "400",
            "--output",
            again.to_str().unwrap(),
        ]);
        assert_eq!(
            std::fs::read_to_string(&again).unwrap(),
            text,
            "{name}: one job, again"
        );
    }
}

#[test]
fn a_blunder_is_marked_with_the_better_line() {
    let dir = scratch("blunder");
    let input = dir.join("blunder.pgn");
    // 3. Qxf7+ gives the queen for a pawn.
    let pgn = "[White \"w\"]\n[Black \"b\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 *\n";
    std::fs::write(&input, pgn).unwrap();
    let (text, _) = annotate_ok(&["--input", input.to_str().unwrap(), "--depth", "6"]);
    assert!(text.contains("3. h5f7??"), "{text}");
    assert!(text.contains("Blunder; best "), "{text}");
    // The better line replaces the blunder: a variation that starts with move 3.
    assert!(text.contains("(3. "), "{text}");
    assert!(!text.contains("1. e2e4?"), "{text}");
}

#[test]
fn unreadable_games_are_named_and_skipped() {
    let dir = scratch("bad");
    let input = dir.join("bad.pgn");
    // A comment that is never closed runs to the end of the file: that game comes last.
    let pgn = "[Round \"1\"]\n\n1. e4 e5 *\n\n\
        [Round \"2\"]\n\n1. e2e4 e7e5 2. e1e3 *\n\n\
        [Round \"3\"]\n[Variant \"skak\"]\n\n1. a2a3 *\n\n\
        [Round \"4\"]\n\n1. Nf3 *\n\n\
        [Round \"5\"]\n\n1. d4 { never closed\n\n[Round \"6\"]\n\n1. e4 *\n";
    std::fs::write(&input, pgn).unwrap();
    let (stdout, stderr) = annotate_ok(&["--input", input.to_str().unwrap(), "--nodes", "200"]);
    assert!(
        stderr.contains("game 2: line 5, ply 3 ('e1e3')"),
        "{stderr}"
    );
    assert!(stderr.contains("never closed"), "{stderr}");
    assert!(
        stderr.contains("[Variant \"skak\"] is not chess"),
        "{stderr}"
    );
    assert!(
        stderr.contains("annotate chess: 2 games (3 skipped)"),
        "{stderr}"
    );
    let games = read_games(&stdout);
    let rounds: Vec<_> = games
        .iter()
        .map(|g| g.as_ref().unwrap().tag("Round").unwrap_or("").to_string())
        .collect();
    assert_eq!(rounds, ["1", "4"]);
    let missing = annotate(&["--input", dir.join("none.pgn").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
}

/// python-chess reads the annotated chess PGN with its `%eval` values. Needs python3 with the
/// `chess` package; CI (REQUIRE_PYTHON_CHESS=1) installs it and fails if it cannot run.
#[test]
fn python_chess_reads_the_annotated_games_and_their_evaluations() {
    let has_python_chess = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_python_chess {
        assert!(
            std::env::var("REQUIRE_PYTHON_CHESS").as_deref() != Ok("1"),
            "REQUIRE_PYTHON_CHESS=1 but python3 cannot import chess"
        );
        eprintln!("python-chess test not run: python3 -c 'import chess' fails (pip install chess)");
        return;
    }
    let dir = scratch("python");
    let input = match_pgn(Variant::Chess, 20, &dir);
    let output = dir.join("annotated.pgn");
    annotate_ok(&[
        "--input",
        input.to_str().unwrap(),
        "--nodes",
        "300",
        "--jobs",
        "2",
        "--output",
        output.to_str().unwrap(),
    ]);
    let ours: Vec<(usize, usize)> = games_of(&output)
        .iter()
        .map(|g| (g.moves.len(), 0))
        .collect();
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        nodes = list(game.mainline())
        evals = [n.eval() for n in nodes if n.eval() is not None]
        print(len(nodes), len(evals))
"#;
    let run = common::run_ok(Command::new("python3").args(["-c", script]).arg(&output));
    let theirs: Vec<(usize, usize)> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| {
            let mut n = l.split(' ').map(|x| x.parse::<usize>().unwrap());
            (n.next().unwrap(), n.next().unwrap())
        })
        .collect();
    assert_eq!(theirs.len(), 20);
    for ((moves, _), (their_moves, their_evals)) in ours.iter().zip(&theirs) {
        assert_eq!(moves, their_moves, "python-chess reads every move");
        assert!(
            their_evals + 1 >= *moves && their_evals <= moves,
            "{their_evals} of {moves}"
        );
    }
}
