//! Unit tests of the jetan rules, and the comparison with the slow reference generator.

use super::movegen::ESCAPE;
use super::reference::{Board, RefMove, RefPos};
use super::tables::{paths, tables, tree_reach, Piece, Tables, TREE_PIECES};
use super::Jetan;
use crate::core::game::{parse_move, perft};
use crate::core::rng::Rng;
use crate::core::testkit::{self, texts, texts_from};
use crate::core::{Color, Game, GameResult, Move};

/// Destinations (captures included, own pieces not excluded) of `piece` of `color` on `sq`
/// with the occupied squares `occ`, from the tables.
fn reach(t: &Tables, piece: Piece, color: Color, sq: u8, occ: u128) -> u128 {
    match piece {
        Piece::Panthan => t.panthan[color.index()][sq as usize],
        Piece::Flier => t.flier[sq as usize],
        Piece::Princess => t.princess[sq as usize],
        _ => {
            let slot = TREE_PIECES.iter().position(|&p| p == piece).unwrap();
            tree_reach(t, slot, sq, occ)
        }
    }
}

fn pos(fen: &str) -> Jetan {
    testkit::pos(fen)
}

fn sq(name: &str) -> u8 {
    let (file, rank) = crate::core::parse_square(name, 10, 10).unwrap();
    rank * 10 + file
}

fn play(p: &Jetan, text: &str) -> Jetan {
    testkit::after(p, &[text])
}

/// Asserts that playing `text` in `p` ends the game with `result`, after which there is
/// no legal move.
fn assert_ends(p: &Jetan, text: &str, result: GameResult) {
    let after = play(p, text);
    assert_eq!(after.ended(), Some(result), "{text}");
    assert_eq!(texts(&after), Vec::<String>::new());
    assert_eq!(after.count_moves(&mut Vec::new()), 0);
}

/// Destinations on an empty board from the central square e5, as (dx, dy), sorted.
fn empty_board_deltas(piece: Piece, color: Color) -> Vec<(i8, i8)> {
    let from = sq("e5");
    let reached = reach(tables(), piece, color, from, 0);
    let mut deltas: Vec<(i8, i8)> = (0..100u8)
        .filter(|&s| reached & 1 << s != 0)
        .map(|s| ((s % 10) as i8 - 4, (s / 10) as i8 - 4))
        .collect();
    deltas.sort();
    deltas
}

fn sorted(mut v: Vec<(i8, i8)>) -> Vec<(i8, i8)> {
    v.sort();
    v
}

/// Every (dx, dy) with both coordinates in `range` for which `keep` holds.
fn deltas_where(keep: impl Fn(i8, i8) -> bool) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for dx in -3..=3 {
        for dy in -3..=3 {
            if keep(dx, dy) {
                out.push((dx, dy));
            }
        }
    }
    out
}

#[test]
fn empty_board_tables_match_rules_table() {
    let w = Color::White;
    assert_eq!(
        empty_board_deltas(Piece::Panthan, w),
        sorted(vec![(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)])
    );
    assert_eq!(
        empty_board_deltas(Piece::Panthan, Color::Black),
        sorted(vec![(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)])
    );
    let (ax, ay) = (|d: i8| d.abs(), |d: i8| d.abs());
    let thoat = deltas_where(|x, y| {
        (ax(x) == 1 && ay(y) == 2) || (ax(x) == 2 && ay(y) == 1) || ax(x) + ay(y) == 1
    });
    assert_eq!(thoat.len(), 12);
    assert_eq!(empty_board_deltas(Piece::Thoat, w), thoat);
    let warrior = deltas_where(|x, y| {
        (ax(x) == 2 && y == 0) || (x == 0 && ay(y) == 2) || (ax(x) == 1 && ay(y) == 1)
    });
    assert_eq!(warrior.len(), 8);
    assert_eq!(empty_board_deltas(Piece::Warrior, w), warrior);
    let padwar = deltas_where(|x, y| {
        (ax(x) == 2 && ay(y) == 2) || (ax(x) == 2 && y == 0) || (x == 0 && ay(y) == 2)
    });
    assert_eq!(padwar.len(), 8);
    assert_eq!(empty_board_deltas(Piece::Padwar, w), padwar);
    let dwar = deltas_where(|x, y| {
        matches!(
            (ax(x), ay(y)),
            (3, 0) | (0, 3) | (2, 1) | (1, 2) | (1, 0) | (0, 1)
        )
    });
    assert_eq!(dwar.len(), 16);
    assert_eq!(empty_board_deltas(Piece::Dwar, w), dwar);
    let flier = deltas_where(|x, y| matches!((ax(x), ay(y)), (3, 3) | (3, 1) | (1, 3) | (1, 1)));
    assert_eq!(flier.len(), 16);
    assert_eq!(empty_board_deltas(Piece::Flier, w), flier);
    let royal = deltas_where(|x, y| (x, y) != (0, 0));
    assert_eq!(royal.len(), 48);
    assert_eq!(empty_board_deltas(Piece::Chief, w), royal);
    assert_eq!(empty_board_deltas(Piece::Princess, w), royal);
}

#[test]
fn corner_flier_cannot_reach_its_diagonal_neighbour() {
    let reached = reach(tables(), Piece::Flier, Color::White, sq("a1"), 0);
    assert_eq!(reached & 1 << sq("b2"), 0);
    // a1-b2-c3 then b4 or d4 or d2: three diagonal steps, nothing else.
    let expected = [sq("b4"), sq("d4"), sq("d2")]
        .iter()
        .fold(0u128, |a, &s| a | 1 << s);
    assert_eq!(reached, expected);
    // Paths: over c3 to b4, d4, d2; over a3 to b4; over c1 to d2.
    assert_eq!(paths(Piece::Flier, Color::White, sq("a1")).len(), 5);
}

#[test]
fn warrior_blocked_on_one_path_but_not_the_other() {
    let t = tables();
    let e5 = sq("e5");
    let occupied = |names: &[&str]| names.iter().fold(1u128 << e5, |a, n| a | 1 << sq(n));
    let dests = |occ: u128| {
        let r = reach(t, Piece::Warrior, Color::White, e5, occ);
        let mut v: Vec<u8> = (0..100).filter(|&s| r & 1 << s != 0).collect();
        v.sort();
        v
    };
    let names = |list: &[&str]| {
        let mut v: Vec<u8> = list.iter().map(|n| sq(n)).collect();
        v.sort();
        v
    };
    // e6 blocked: e7 is lost, f6 and d6 are still reached through f5 and d5.
    assert_eq!(
        dests(occupied(&["e6"])),
        names(&["e3", "c5", "g5", "d6", "f6", "d4", "f4"])
    );
    // e6 and f5 blocked: g5 and f6 are lost too, f4 still comes through e4.
    assert_eq!(
        dests(occupied(&["e6", "f5"])),
        names(&["e3", "c5", "d6", "d4", "f4"])
    );
}

#[test]
fn dwar_blocked_on_one_path_but_not_the_other() {
    let t = tables();
    let e5 = sq("e5");
    let f5 = 1u128 << sq("f5");
    let occ = |names: &[&str]| names.iter().fold(1u128 << e5, |a, n| a | 1 << sq(n));
    let dwar = |o| reach(t, Piece::Dwar, Color::White, e5, o);
    // e5-f5 (one step sideways) only by e6-f6-f5 or e4-f4-f5.
    assert_ne!(dwar(occ(&["e6"])) & f5, 0);
    assert_ne!(dwar(occ(&["f4"])) & f5, 0);
    assert_eq!(dwar(occ(&["e6", "e4"])) & f5, 0);
    assert_eq!(dwar(occ(&["f6", "f4"])) & f5, 0);
    // The piece on f5 itself does not block the way to f5.
    assert_ne!(dwar(occ(&["f5"])) & f5, 0);
}

#[test]
fn panthan_moves_sideways_on_the_last_rank() {
    // White Panthan a10 (last rank): only b10. Black Panthan j1: only i1.
    let p = pos("P4qk3/10/10/10/10/10/10/10/10/KQ7p w - 0 1");
    testkit::assert_moves_from(&p, "a10", &["a10b10"]);
    let p = pos("P4qk3/10/10/10/10/10/10/10/10/KQ7p b - 0 1");
    testkit::assert_moves_from(&p, "j1", &["j1i1"]);
}

/// White Princess a1, Chief j1; Black Princess a10, Chief j10.
const ESCAPE_FEN: &str = "q8k/10/10/10/10/10/10/10/10/Q8K w Q 0 1";

#[test]
fn escape_counts_and_is_used_once() {
    let p = pos(ESCAPE_FEN);
    let mut moves = Vec::new();
    p.generate(&mut moves);
    let from_a1 = |m: &&Move| m.from() == sq("a1");
    let normal = moves
        .iter()
        .filter(from_a1)
        .filter(|m| m.kind() != ESCAPE)
        .count();
    let escapes = moves
        .iter()
        .filter(from_a1)
        .filter(|m| m.kind() == ESCAPE)
        .count();
    // Chief in a corner: the 15 squares within 3. Princess: 15 normal squares; escape to
    // the 96 empty squares less those 15 and the 15 the black Chief attacks.
    assert_eq!(normal, 15);
    assert_eq!(escapes, 96 - 15 - 15);
    assert_eq!(moves.len(), 15 + 15 + 66);
    assert_eq!(p.count_moves(&mut Vec::new()), 96);

    // A normal Princess move keeps the right.
    let kept = play(&p, "a1d4");
    assert!(kept.fen().contains(" b Q "), "{}", kept.fen());
    // The escape uses it up: after it only normal moves remain for her.
    let used = play(&p, "a1b5");
    assert!(used.fen().contains(" b - "), "{}", used.fen());
    assert_ne!(used.hash(), p.hash());
    let back = play(&used, "j10i10");
    let hers = texts_from(&back, "b5");
    // From b5 she reaches a2-e8 (34 squares), none attacked; no escape any more.
    assert_eq!(hers.len(), 34);
    // Black never had the right: its Princess has only her 15 corner squares less the
    // White Chief's and nothing attacked.
    let black = pos("q8k/10/10/10/10/10/10/10/10/Q8K b Q 0 1");
    assert_eq!(texts_from(&black, "a10").len(), 15);
}

#[test]
fn princess_cannot_end_on_attacked_square_nor_capture() {
    // White Princess e1 below a black Panthan e2 (forward is down for Black: it attacks
    // d1, e1, f1, d2, f2) and a black Warrior h1 (attacks f1 through g1).
    let p = pos("4k4q/10/10/10/10/10/10/10/4p5/K3Q2w2 w - 0 1");
    let hers = texts_from(&p, "e1");
    assert!(!hers.contains(&"e1e2".to_string()), "she never captures");
    assert!(
        !hers.contains(&"e1d1".to_string()),
        "d1 attacked by the Panthan"
    );
    assert!(
        !hers.contains(&"e1f1".to_string()),
        "f1 attacked by the Warrior"
    );
    assert!(hers.contains(&"e1c1".to_string()));
}

#[test]
fn chief_captures_end_the_game() {
    // jetan-06: Chief takes Chief wins, Warrior or Thoat takes Chief draws, Thoat takes
    // Princess wins.
    let p = pos("7d2/10/6q3/10/2W1kT4/7p2/10/4K5/3P6/Q9 w - 0 30");
    assert_ends(&p, "e3e6", GameResult::win(Color::White, "chief captured"));
    for text in ["c6e6", "f6e6"] {
        assert_ends(&p, text, GameResult::draw("chief captured"));
    }
    assert_ends(
        &p,
        "f6g8",
        GameResult::win(Color::White, "princess captured"),
    );
    assert!(p.is_tactical(parse_move(&p, "f6g8").unwrap()));
    assert!(!p.is_tactical(parse_move(&p, "e3e4").unwrap()));
    let ordinary = play(&p, "e3e4");
    assert_eq!(ordinary.ended(), None);
}

#[test]
fn no_legal_move_loses() {
    // jetan-11.
    testkit::assert_no_moves_result(
        &pos("9q/10/10/10/10/2k7/10/10/pQ1p6/Kp8 w q 0 20"),
        GameResult::win(Color::Black, "no legal move"),
    );
}

#[test]
fn countdown_starts_at_three_pieces_and_draws_at_ten() {
    // White has 3 pieces, Black 4: no countdown yet.
    let p = pos("5k4/10/2q7/7p2/10/10/10/p9/1W1Q6/4K5 w - 0 1");
    assert!(Jetan::from_fen("5k4/10/2q7/7p2/10/10/10/p9/1W1Q6/4K5 w - 1 1").is_err());
    let quiet = play(&p, "e1e2");
    assert!(quiet.fen().ends_with(" b - 0 1"), "{}", quiet.fen());
    // The Warrior takes a3: 3 v 3, the countdown is 0 in this first such position ...
    let capture = play(&p, "b2a3");
    assert!(capture.fen().ends_with(" b - 0 1"), "{}", capture.fen());
    // ... and grows by one with every ply from then on.
    let one = play(&capture, "f10f9");
    assert!(one.fen().ends_with(" w - 1 2"), "{}", one.fen());
    let two = play(&one, "e1e2");
    assert!(two.fen().ends_with(" b - 2 2"), "{}", two.fen());

    // Countdown 9: any move draws, unless it captures a Princess or Chief.
    let p = pos("5k4/10/2q7/10/10/4F5/10/10/3Q2p3/4K5 w - 9 60");
    assert_ends(&p, "e1e2", GameResult::draw("countdown"));
    assert_eq!(perft(&p, 2), 0);
    // Countdown above 10 or with many pieces: rejected.
    assert!(Jetan::from_fen("5k4/10/2q7/10/10/4F5/10/10/3Q2p3/4K5 w - 11 60").is_err());
    assert!(Jetan::from_fen("5k4/10/2q7/10/10/4F5/10/10/3Q2p3/4K5 w - 10 60").is_ok());
}

#[test]
fn countdown_capture_of_princess_decides() {
    // White Chief e1 takes the black Chief on e4 at countdown 9: a win, not a countdown
    // draw.
    let p = pos("9q/10/10/10/10/10/4k5/10/10/Q3K5 w - 9 50");
    assert_ends(&p, "e1e4", GameResult::win(Color::White, "chief captured"));
}

#[test]
fn fen_errors() {
    testkit::assert_refused::<Jetan>(&[
        "",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW x Qq 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1 extra",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w K 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w qQ 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq -1 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 0",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 3 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAB w Qq 0 1",
        // Two white Chiefs, two black Princesses.
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/4K5/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/5q4/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        // The side not to move lacks a royal piece; the side to move lacks both.
        "wadf1kfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADF2FDAW b Qq 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADF2FDAW w Qq 0 1",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDA w Qq 0 1",
    ]);
    // Fields may be left off from the end.
    let short = pos("wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w");
    assert_eq!(
        short.fen(),
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w - 0 1"
    );
    // The side to move may lack one royal piece: the last move captured it.
    let over = pos("4q5/10/10/10/10/10/10/10/10/4KQ4 b - 0 40");
    assert_eq!(over.ended(), Some(GameResult::draw("chief captured")));
    let over = pos("4k5/10/10/10/10/10/10/10/10/4KQ4 b - 0 40");
    assert_eq!(
        over.ended(),
        Some(GameResult::win(Color::White, "princess captured"))
    );
}

#[test]
fn color_flip_swaps_rights() {
    testkit::assert_color_flip(
        &pos("q8k/10/10/10/10/10/10/10/10/Q8K w Q 0 7"),
        "q8k/10/10/10/10/10/10/10/10/Q8K b q 0 7",
        2,
    );
}

// ---- Comparison with the reference generator ----

fn random_board(rng: &mut Rng) -> RefPos {
    let mut next = |n: usize| rng.below(n);
    let mut board: Board = [None; 100];
    let place = |board: &mut Board, color, piece, next: &mut dyn FnMut(usize) -> usize| loop {
        let s = next(100);
        if board[s].is_none() {
            board[s] = Some((color, piece));
            return;
        }
    };
    for color in [Color::White, Color::Black] {
        place(&mut board, color, Piece::Chief, &mut next);
        place(&mut board, color, Piece::Princess, &mut next);
    }
    // Every kind but the Chief and the Princess.
    let others = &Piece::ALL[..6];
    // Density from nearly empty to crowded.
    let extra = match next(4) {
        0 => next(5),
        1 => next(20),
        2 => 20 + next(20),
        _ => 40 + next(40),
    };
    for _ in 0..extra {
        let color = if next(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let piece = others[next(6)];
        place(&mut board, color, piece, &mut next);
    }
    let side = if next(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let rights = next(4);
    RefPos {
        board,
        side,
        escape: [rights & 1 != 0, rights & 2 != 0],
        countdown: 0,
        over: false,
    }
}

fn bitboard_moves(p: &Jetan) -> Vec<RefMove> {
    let mut moves = Vec::new();
    p.generate(&mut moves);
    let mut out: Vec<RefMove> = moves
        .iter()
        .map(|m| (m.from(), m.to(), m.kind() == ESCAPE))
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn matches_reference_generator_on_random_positions() {
    let mut rng = Rng::from_state(0x5EED);
    let mut total = 0;
    for i in 0..3500 {
        let reference = random_board(&mut rng);
        let fen = reference.fen();
        let p = pos(&fen);
        let expected = reference.moves();
        total += expected.len();
        testkit::assert_same_moves(
            &format!("position {i}: {fen}"),
            bitboard_moves(&p),
            expected,
        );
        testkit::assert_count_agrees(&p);
    }
    assert!(total > 100_000, "only {total} moves compared");
}

/// The perft counts of the positions this module added to `positions/jetan.perft`, checked
/// with the reference generator (depth 2) so they do not come only from the bitboards.
#[test]
fn added_perft_positions_agree_with_reference() {
    let mut checked = 0;
    for (case, depth, nodes) in testkit::suite_counts("jetan") {
        let id = &case.id;
        let added = id.split_whitespace().next().is_some_and(|n| {
            n.trim_start_matches("jetan-")
                .parse::<u32>()
                .is_ok_and(|k| k > 12)
        });
        if added && depth <= 2 {
            assert_eq!(
                RefPos::from_fen(&case.fen).perft(depth),
                nodes,
                "{id} depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} added counts checked");
}

#[test]
fn reference_agrees_on_suite_depth_two() {
    // The reference generator reproduces the reference suite's small counts too, so it
    // is a fair judge of the added positions.
    let cases = [
        (super::Jetan::START_FEN, 6066),
        ("4kq4/10/10/10/4d5/10/4Q5/10/3P1P4/W3K5 w Qq 0 12", 9728),
        ("7d2/10/6q3/10/2W1kT4/7p2/10/4K5/3P6/Q9 w - 0 30", 5439),
        ("2P1qk3f/10/10/10/D9/t8T/9d/10/10/F3KQ1p1A b - 0 25", 4560),
        ("5k4/10/2q7/10/10/4F5/10/10/3Q2p3/4K5 w - 9 60", 0),
        ("4q5/10/10/10/10/10/10/10/10/4KQ4 b - 0 40", 0),
    ];
    for (fen, nodes) in cases {
        assert_eq!(RefPos::from_fen(fen).perft(2), nodes, "{fen}");
    }
}

#[test]
fn board_text_shows_both_armies() {
    let text = pos(Jetan::START_FEN).board_text();
    assert!(text.starts_with("10  w a d f q k f d a w\n"), "{text}");
    assert!(text.contains(" 1  W A D F K Q F D A W\n"), "{text}");
}
