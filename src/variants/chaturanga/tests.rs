//! Unit tests: hand-counted positions for each special rule, FEN errors, and a comparison
//! with a slow mailbox generator that applies RULES.md literally.

use super::*;
use crate::core::game::perft;
use crate::core::rng::Rng;
use crate::core::testkit::{self, assert_count_agrees, random_game};

fn pos(fen: &str) -> Chaturanga {
    testkit::pos(fen)
}

fn sorted_moves(fen: &str) -> Vec<String> {
    testkit::texts(&pos(fen))
}

fn assert_moves(fen: &str, expected: &[&str]) {
    testkit::assert_moves(&pos(fen), expected);
}

fn after(fen: &str, moves: &[&str]) -> Chaturanga {
    testkit::after(&pos(fen), moves)
}

#[test]
fn rules_example_leap_right_judged_after_the_move() {
    // Black's king d7, White's e4. With both rights: all 8 steps (d6 is legal because the
    // king there attacks e4 by its own leap, which takes White's right away first) and the
    // leaps b8, f8, b6 (c5 and f6 are reached by White's leap, e5 touches the king).
    assert_moves(
        "8/3k4/8/8/4K3/8/8/8 b Kk - 0 1",
        &[
            "d7c8", "d7d8", "d7e8", "d7c7", "d7e7", "d7c6", "d7d6", "d7e6", "d7b8", "d7f8", "d7b6",
        ],
    );
    // Without Black's right, d6 stays attacked by White's leap.
    assert_moves(
        "8/3k4/8/8/4K3/8/8/8 b K - 0 1",
        &["d7c8", "d7d8", "d7e8", "d7c7", "d7e7", "d7c6", "d7e6"],
    );
    // d7d6 takes White's right; d7e6 and the leap d7b8 (which spends Black's) do not.
    assert_eq!(
        after("8/3k4/8/8/4K3/8/8/8 b Kk - 0 1", &["d7d6"]).leap_text(),
        "k"
    );
    assert_eq!(
        after("8/3k4/8/8/4K3/8/8/8 b Kk - 0 1", &["d7e6"]).leap_text(),
        "Kk"
    );
    assert_eq!(
        after("8/3k4/8/8/4K3/8/8/8 b Kk - 0 1", &["d7b8"]).leap_text(),
        "K"
    );
}

#[test]
fn start_position_has_two_king_leaps() {
    let moves = sorted_moves(Chaturanga::START_FEN);
    assert_eq!(moves.len(), 18);
    assert!(moves.contains(&"e1d3".to_string()) && moves.contains(&"e1f3".to_string()));
    // Leaping uses the right up; a normal king move keeps it.
    let leapt = after(Chaturanga::START_FEN, &["e1f3"]);
    assert_eq!(leapt.leap_text(), "k");
    assert!(leapt
        .fen()
        .starts_with("rnbkqbnr/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1BNR b k - 1 1"));
    assert_eq!(
        after(Chaturanga::START_FEN, &["e1f3", "d8c6"]).leap_text(),
        "-"
    );
    let walked = after(
        "rnbkqbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR w Kk - 0 1",
        &["e1e2", "d8d7"],
    );
    assert_eq!(walked.leap_text(), "Kk");
    let texts = testkit::texts(&walked);
    assert!(
        texts.contains(&"e2f4".to_string()),
        "leap after a king step: {texts:?}"
    );
}

#[test]
fn check_takes_the_leap_right_away() {
    // a1a8 checks: Black loses its right; a1a7 does not check.
    let p = after("3k4/2p5/8/8/8/8/3P4/R3K3 w Kk - 0 5", &["a1a8"]);
    assert_eq!(p.leap_text(), "K");
    assert!(p.in_check());
    let q = after("3k4/2p5/8/8/8/8/3P4/R3K3 w Kk - 0 5", &["a1a7"]);
    assert_eq!(q.leap_text(), "Kk");
}

#[test]
fn leap_check_is_answered_by_checking_back() {
    // White's king e1 with the right attacks Black's king d3 by its leap. Black must move
    // the king off the knight squares or check White's king, which cancels the right:
    // a8a1 and a8e8 check; the king may go to c3, c4, d4, e4, e3 (c2 is a leap square,
    // d2 and e2 touch the king).
    assert_moves(
        "r7/8/8/8/8/3k4/8/4K3 b K - 0 1",
        &["a8a1", "a8e8", "d3c3", "d3c4", "d3d4", "d3e4", "d3e3"],
    );
    let p = after("r7/8/8/8/8/3k4/8/4K3 b K - 0 1", &["a8e8"]);
    assert_eq!(p.leap_text(), "-");
}

#[test]
fn promotion_by_file_and_count() {
    // a7a8r (one chariot), b7b8 no (two horses), b7xc8 and d7xc8 elephant, d7d8 never,
    // e7e8q (no counsellor).
    let moves = sorted_moves("2n4r/PP1PP3/7k/8/8/8/3pp1N1/RNB3K1 w - - 0 30");
    let pawn_moves: Vec<&String> = moves
        .iter()
        .filter(|m| ["a7", "b7", "d7", "e7"].contains(&&m[..2]))
        .collect();
    assert_eq!(pawn_moves, ["a7a8r", "b7c8b", "d7c8b", "e7e8q"]);
    let p = after("2n4r/PP1PP3/7k/8/8/8/3pp1N1/RNB3K1 w - - 0 30", &["e7e8q"]);
    assert_eq!(p.board[60], COUNSELLOR);
    // Black: d2d1q (counsellor) and d2xc1b, never e2e1.
    let moves = sorted_moves("2n4r/PP1PP3/7k/8/8/8/3pp1N1/RNB3K1 b - - 0 30");
    let pawn_moves: Vec<&String> = moves
        .iter()
        .filter(|m| ["d2", "e2"].contains(&&m[..2]))
        .collect();
    assert_eq!(pawn_moves, ["d2c1b", "d2d1q"]);
}

#[test]
fn pawns_attack_only_where_they_could_promote() {
    // c7 and e7 do not attack d8 (White never promotes there): Black's king may stay and
    // step to c8, e8, d7 and take on c7 and e7; and h7h6.
    assert_moves(
        "3k4/2P1P2p/8/8/8/8/8/3QK3 b - - 0 50",
        &["d8c8", "d8e8", "d8d7", "d8c7", "d8e7", "h7h6"],
    );
    // f8 is an elephant square: with two elephants White's e7 does not attack it.
    assert_moves(
        "5k2/4P3/8/8/8/8/8/2BBK3 b - - 0 50",
        &["f8e8", "f8g8", "f8e7", "f8f7", "f8g7"],
    );
    // With one elephant, e7 attacks f8: Black is in check and must leave or capture.
    assert_moves(
        "5k2/4P3/8/8/8/8/8/3BK3 b - - 0 50",
        &["f8e8", "f8g8", "f8e7", "f8f7", "f8g7"],
    );
    assert!(pos("5k2/4P3/8/8/8/8/8/3BK3 b - - 0 50").in_check());
    assert!(!pos("5k2/4P3/8/8/8/8/8/2BBK3 b - - 0 50").in_check());
}

#[test]
fn capture_that_lets_an_enemy_pawn_promote_onto_the_king_is_illegal() {
    // Black's pawn b2 cannot promote on a1 while Black has two chariots. Taking the one
    // on e5 (c4e5) would let it, so that capture exposes White's king a1. Legal: king a2,
    // b1, b2 and the horse's other seven moves.
    assert_moves(
        "7r/8/7k/4r3/2N5/8/1p6/K7 w - - 0 1",
        &[
            "a1a2", "a1b1", "a1b2", "c4a3", "c4a5", "c4b2", "c4b6", "c4d2", "c4d6", "c4e3",
        ],
    );
    // The king may not take the chariot on a1 either: b2 would then promote there. c1 is
    // attacked by the chariot through the king's square and by b2 (elephant promotion),
    // a2 by the chariot; b2 and c2 remain.
    assert_moves("7r/8/7k/8/8/8/1p6/rK6 w - - 0 1", &["b1b2", "b1c2"]);
}

#[test]
fn stalemate_wins_and_checkmate_wins() {
    testkit::assert_no_moves_result(
        &pos("7k/5K2/6Q1/8/8/8/8/8 b - - 0 60"),
        GameResult::win(Color::Black, "stalemate"),
    );
    testkit::assert_no_moves_result(
        &after("7k/8/6K1/8/8/8/8/R7 w - - 0 50", &["a1a8"]),
        GameResult::win(Color::White, "checkmate"),
    );
}

#[test]
fn fifty_move_rule_and_no_bare_king_rule() {
    assert_eq!(pos("7k/8/8/8/8/8/8/K7 w - - 99 80").rule_draw(), None);
    assert_eq!(
        after("7k/8/8/8/8/8/8/K7 w - - 99 80", &["a1a2"]).rule_draw(),
        Some("fifty-move rule")
    );
    // A capture resets the clock.
    assert_eq!(
        after("7k/8/8/8/8/8/r7/K7 w - - 99 80", &["a1a2"]).halfmove,
        0
    );
}

#[test]
fn hash_covers_side_and_leap_rights() {
    let a = pos("8/3k4/8/8/4K3/8/8/8 b Kk - 0 1");
    let b = pos("8/3k4/8/8/4K3/8/8/8 b K - 0 1");
    let c = pos("8/3k4/8/8/4K3/8/8/8 w Kk - 0 1");
    let d = pos("8/3k4/8/8/4K3/8/8/8 b Kk - 7 30");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    assert_eq!(a.hash(), d.hash());
}

#[test]
fn fen_errors() {
    for (fen, why) in [
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk e3 0 1",
            "en passant",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kK - 0 1",
            "leap order",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "castling",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 0",
            "fullmove 0",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - x 1",
            "halfmove",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1 1",
            "seventh field",
        ),
        ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "no side"),
        ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", "bad side"),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBKR w Kk - 0 1",
            "two kings",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w k - 0 1",
            "no white king",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w Kk - 0 1",
            "pawn on rank 1",
        ),
        (
            "rnbkqbnp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1",
            "pawn on rank 8",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w Kk - 0 1",
            "unknown letter",
        ),
        (
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w Kk - 0 1",
            "short rank",
        ),
        (
            "8/8/8/8/8/3k4/8/4K3 w K - 0 1",
            "not to move, in check by a leap",
        ),
        ("3k4/8/8/8/8/8/8/3RK3 w - - 0 1", "not to move, in check"),
    ] {
        assert!(Chaturanga::from_fen(fen).is_err(), "{why}: {fen} accepted");
    }
    // Without White's right the same kings are fine; so is Black to move.
    pos("8/8/8/8/8/3k4/8/4K3 w k - 0 1");
    pos("8/8/8/8/8/3k4/8/4K3 b K - 0 1");
    // Omitted fields take their defaults.
    assert_eq!(
        pos("8/8/8/8/8/3k4/8/4K3 w").fen(),
        "8/8/8/8/8/3k4/8/4K3 w - - 0 1"
    );
}

#[test]
fn color_flip_is_a_half_turn() {
    testkit::assert_color_flip(
        &pos("2n4r/PP1PP3/7k/8/8/8/3pp1N1/RNB3K1 w K - 0 30"),
        "1k3bnr/1n1PP3/8/8/8/K7/3pp1pp/R4N2 b k - 0 30",
        3,
    );
}

/// A slow, literal chaturanga: a mailbox, every move made on a copy and judged by
/// RULES.md's steps (1)(2)(3), attacks found by asking whether each piece could move to
/// the square with a capture.
mod reference {
    /// (white?, letter in upper case) per square, index rank * 8 + file.
    pub type Square = Option<(bool, u8)>;

    #[derive(Clone, PartialEq, Debug)]
    pub struct Ref {
        pub board: [Square; 64],
        pub white_to_move: bool,
        /// [White, Black] leap rights.
        pub leap: [bool; 2],
    }

    fn side(white: bool) -> usize {
        if white {
            0
        } else {
            1
        }
    }

    impl Ref {
        pub fn parse(fen: &str) -> Ref {
            let fields: Vec<&str> = fen.split(' ').collect();
            let mut board = [None; 64];
            for (row, text) in fields[0].split('/').enumerate() {
                let rank = 7 - row;
                let mut file = 0;
                for c in text.chars() {
                    if let Some(d) = c.to_digit(10) {
                        file += d as usize;
                    } else {
                        board[rank * 8 + file] =
                            Some((c.is_ascii_uppercase(), c.to_ascii_uppercase() as u8));
                        file += 1;
                    }
                }
            }
            Ref {
                board,
                white_to_move: fields[1] == "w",
                leap: [fields[2].contains('K'), fields[2].contains('k')],
            }
        }

        /// Board, side and leap fields of the FEN.
        pub fn fen3(&self) -> String {
            let out = crate::core::fen::write_board(8, 8, |file, rank| {
                let (white, letter) = self.board[(rank * 8 + file) as usize]?;
                let c = letter as char;
                Some(if white { c } else { c.to_ascii_lowercase() })
            });
            let leap = crate::core::testkit::flags_field(&self.leap, "Kk");
            format!(
                "{out} {} {leap}",
                if self.white_to_move { 'w' } else { 'b' }
            )
        }

        fn count(&self, white: bool, letter: u8) -> usize {
            self.board
                .iter()
                .filter(|&&s| s == Some((white, letter)))
                .count()
        }

        /// What a pawn of `white` reaching `sq` on its last rank becomes, if it may.
        fn promotion(&self, white: bool, sq: usize) -> Option<u8> {
            let file = sq % 8;
            let letter = match (file, white) {
                (0 | 7, _) => b'R',
                (1 | 6, _) => b'N',
                (2 | 5, _) => b'B',
                (4, true) | (3, false) => b'Q',
                _ => return None,
            };
            let start = if letter == b'Q' { 1 } else { 2 };
            (self.count(white, letter) < start).then_some(letter)
        }

        /// Moves of the piece on `from` ignoring its own king's safety:
        /// (to, leap?, promotion letter).
        fn piece_moves(&self, from: usize) -> Vec<(usize, bool, Option<u8>)> {
            let Some((white, letter)) = self.board[from] else {
                return vec![];
            };
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            let at = |df: i32, dr: i32| -> Option<usize> {
                let (nf, nr) = (f + df, r + dr);
                ((0..8).contains(&nf) && (0..8).contains(&nr)).then(|| (nr * 8 + nf) as usize)
            };
            let free_or_enemy = |sq: usize| self.board[sq].is_none_or(|(w, _)| w != white);
            let knight = crate::core::KNIGHT_LEAPS;
            let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
            let mut out = vec![];
            let jumps = |deltas: &[(i8, i8)], leap: bool, out: &mut Vec<_>| {
                for &(df, dr) in deltas {
                    if let Some(sq) = at(df.into(), dr.into()) {
                        if free_or_enemy(sq) {
                            out.push((sq, leap, None));
                        }
                    }
                }
            };
            match letter {
                b'K' => {
                    jumps(&crate::core::KING_STEPS, false, &mut out);
                    if self.leap[side(white)] {
                        jumps(&knight, true, &mut out);
                    }
                }
                b'Q' => jumps(&diagonal, false, &mut out),
                b'B' => jumps(&[(2, 2), (2, -2), (-2, 2), (-2, -2)], false, &mut out),
                b'N' => jumps(&knight, false, &mut out),
                b'R' => {
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let mut k = 1;
                        while let Some(sq) = at(df * k, dr * k) {
                            match self.board[sq] {
                                None => out.push((sq, false, None)),
                                Some((w, _)) => {
                                    if w != white {
                                        out.push((sq, false, None));
                                    }
                                    break;
                                }
                            }
                            k += 1;
                        }
                    }
                }
                b'P' => {
                    let dr = if white { 1 } else { -1 };
                    let mut targets = vec![];
                    if let Some(sq) = at(0, dr) {
                        if self.board[sq].is_none() {
                            targets.push(sq);
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(sq) = at(df, dr) {
                            if matches!(self.board[sq], Some((w, _)) if w != white) {
                                targets.push(sq);
                            }
                        }
                    }
                    for sq in targets {
                        let last = if white { 7 } else { 0 };
                        if sq / 8 == last {
                            if let Some(p) = self.promotion(white, sq) {
                                out.push((sq, false, Some(p)));
                            }
                        } else {
                            out.push((sq, false, None));
                        }
                    }
                }
                _ => unreachable!(),
            }
            out
        }

        /// Whether a piece of `white` could move to `sq` with a capture.
        pub fn attacked(&self, sq: usize, white: bool) -> bool {
            let mut probe = self.clone();
            if probe.board[sq].is_none() {
                probe.board[sq] = Some((!white, b'P'));
            }
            (0..64).any(|from| {
                matches!(probe.board[from], Some((w, _)) if w == white)
                    && probe.piece_moves(from).iter().any(|m| m.0 == sq)
            })
        }

        pub fn king(&self, white: bool) -> usize {
            (0..64)
                .find(|&s| self.board[s] == Some((white, b'K')))
                .expect("a king")
        }

        /// Legal moves as (text, position after).
        pub fn legal(&self) -> Vec<(String, Ref)> {
            let us = self.white_to_move;
            let mut out = vec![];
            for from in 0..64 {
                if !matches!(self.board[from], Some((w, _)) if w == us) {
                    continue;
                }
                for (to, leap, promotion) in self.piece_moves(from) {
                    let mut next = self.clone();
                    next.board[to] = match promotion {
                        Some(p) => Some((us, p)),
                        None => next.board[from],
                    };
                    next.board[from] = None;
                    next.white_to_move = !us;
                    if leap {
                        next.leap[side(us)] = false; // (1)
                    }
                    if next.attacked(next.king(!us), us) {
                        next.leap[side(!us)] = false; // (2)
                    }
                    if next.attacked(next.king(us), !us) {
                        continue; // (3)
                    }
                    let name =
                        |s: usize| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1);
                    let mut text = name(from) + &name(to);
                    if let Some(p) = promotion {
                        text.push(p.to_ascii_lowercase() as char);
                    }
                    out.push((text, next));
                }
            }
            out
        }
    }
}

use reference::Ref;

/// The fast generator's moves as (text, board-side-leap FEN after).
fn fast_children(p: &Chaturanga) -> Vec<(String, String)> {
    testkit::moves_of(p)
        .into_iter()
        .map(|m| {
            let mut child = *p;
            child.play(m);
            let fen = child.fen();
            let fields: Vec<&str> = fen.split(' ').take(3).collect();
            (p.move_text(m), fields.join(" "))
        })
        .collect()
}

fn reference_children(p: &Chaturanga) -> Vec<(String, String)> {
    Ref::parse(&p.fen())
        .legal()
        .into_iter()
        .map(|(text, next)| (text, next.fen3()))
        .collect()
}

/// Compares both generators on `p`, its in-check flag and its move count.
fn compare(p: &Chaturanga) {
    testkit::assert_same_moves(&p.fen(), fast_children(p), reference_children(p));
    assert_count_agrees(p);
    let r = Ref::parse(&p.fen());
    let king = p.king_square(p.side) as usize;
    assert_eq!(
        p.in_check(),
        r.attacked(king, !r.white_to_move),
        "{}",
        p.fen()
    );
}

/// A random position with few pieces, kings close together and pawns near the last ranks
/// often, so that leaps, leap checks and promotion attacks come up a lot.
fn random_fen(rng: &mut Rng) -> String {
    let mut board = [None::<char>; 64];
    // Kings on their first rank a third of the time: enemy pawns next to them may then
    // attack them, depending on the promotion counts.
    let white_king = if rng.below(3) == 0 {
        rng.below(8)
    } else {
        rng.below(64)
    };
    board[white_king] = Some('K');
    let near = |rng: &mut Rng, sq: usize| -> usize {
        let (f, r) = ((sq % 8) as i64, (sq / 8) as i64);
        let nf = (f + rng.below(7) as i64 - 3).clamp(0, 7);
        let nr = (r + rng.below(7) as i64 - 3).clamp(0, 7);
        (nr * 8 + nf) as usize
    };
    let black_king = match rng.below(3) {
        0 => near(rng, white_king),
        1 => 56 + rng.below(8),
        _ => rng.below(64),
    };
    if board[black_king].is_some() {
        return random_fen(rng);
    }
    board[black_king] = Some('k');
    let pieces = 2 + rng.below(12);
    for _ in 0..pieces {
        let letter = b"PPPPNBRQpppppnbrq"[rng.below(17)] as char;
        let sq = if rng.below(2) == 0 {
            let centre = if rng.below(2) == 0 {
                white_king
            } else {
                black_king
            };
            near(rng, centre)
        } else {
            rng.below(64)
        };
        let pawn_on_end_rank = letter.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq);
        if board[sq].is_none() && !pawn_on_end_rank {
            board[sq] = Some(letter);
        }
    }
    let text = write_board(8, 8, |f, r| board[(r * 8 + f) as usize]);
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    let leap = ["Kk", "K", "k", "-"][rng.below(4)];
    format!("{text} {side} {leap} - 0 1")
}

#[test]
fn fast_generator_equals_reference_on_random_positions() {
    let mut rng = Rng::from_state(0xC4A7);
    let mut compared = 0;
    let mut with_moves = 0;
    while compared < 6000 {
        let fen = random_fen(&mut rng);
        let r = Ref::parse(&fen);
        let valid = !r.attacked(r.king(!r.white_to_move), r.white_to_move);
        let parsed = Chaturanga::from_fen(&fen);
        assert_eq!(parsed.is_ok(), valid, "{fen}");
        let Ok(p) = parsed else { continue };
        // A short random game from each position, compared at every ply.
        with_moves += random_game(p, 8, &mut rng, |p, _| {
            compare(p);
            compared += 1;
            true
        });
    }
    assert!(with_moves > 3000);
}

#[test]
fn fast_generator_equals_reference_in_games_from_the_suite() {
    let mut rng = Rng::from_state(0x5EED);
    let fens = [
        Chaturanga::START_FEN,
        "rn1kqb1r/p2pppp1/1pp2n1p/5B2/P1b3P1/B2R1P2/1PPPP2P/1N1QK1NR w Kk - 4 11",
        "1nbk1bnr/ppp1pppp/3q4/8/8/3r4/PPPP1PPP/RNBQKBNR w Kk - 0 1",
        "2n4r/PP1PP3/7k/8/8/8/3pp1N1/RNB3K1 w - - 0 30",
        "8/5k1p/8/8/3K4/8/P7/8 b Kk - 0 40",
    ];
    for fen in fens {
        for _ in 0..20 {
            random_game(pos(fen), 60, &mut rng, |p, _| {
                compare(p);
                true
            });
        }
    }
}

/// `gives_check` answers as playing the move does, for every legal move along random
/// games from positions with leap rights, promotions and chariots.
#[test]
fn gives_check_agrees_with_playing_the_move() {
    let mut rng = Rng::from_state(0xC4EC);
    let mut checks = 0;
    for fen in [
        Chaturanga::START_FEN,
        "rn1kqb1r/p2pppp1/1pp2n1p/5B2/P1b3P1/B2R1P2/1PPPP2P/1N1QK1NR w Kk - 4 11",
        "2n4r/PP1PP3/7k/8/8/8/3pp1N1/RNB3K1 w - - 0 30",
        "8/5k1p/8/8/3K4/8/P7/8 b Kk - 0 40",
    ] {
        for _ in 0..20 {
            random_game(pos(fen), 80, &mut rng, |p, _| {
                checks += testkit::assert_gives_check_is_exact(p);
                true
            });
        }
    }
    assert!(checks > 300, "only {checks} checking moves seen");
}

/// Perft by the reference generator.
fn reference_perft(r: &Ref, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    r.legal()
        .iter()
        .map(|(_, next)| reference_perft(next, depth - 1))
        .sum()
}

#[test]
fn added_suite_positions_agree_with_the_reference() {
    // The positions this module adds to positions/chaturanga.perft, at every depth listed
    // there.
    for case in [
        "7r/8/7k/4r3/2N5/8/1p6/K7 w - - 0 1",
        "7r/8/7k/8/8/8/1p6/rK6 w - - 0 1",
        "r7/8/8/8/8/3k4/8/4K3 b K - 0 1",
        "8/3k4/8/8/4K3/8/8/8 b Kk - 0 1",
    ] {
        let p = pos(case);
        let r = Ref::parse(case);
        for depth in 1..=4 {
            assert_eq!(
                perft(&p, depth),
                reference_perft(&r, depth),
                "{case} {depth}"
            );
        }
    }
}

/// The evaluation as played (weights times terms, from the side to move) is exactly the
/// tuner's model of it, in positions of random games.
#[test]
fn evaluation_is_the_tuners_weighted_sum() {
    let checked = crate::variants::terms::check_white_score::<Chaturanga>(20);
    assert!(checked > 500, "only {checked} positions");
}
