//! Unit tests: hand-counted special rules, FEN errors, hash rules, the bulk-count formula,
//! colour flip, and a comparison with a slow, independent mailbox generator on thousands of
//! positions.

use super::*;
use crate::core::game::{parse_move, perft, GameState};
use crate::core::rng::Rng;
use crate::core::testkit::{self, moves_of};
use crate::variants::perft_cases;
use std::collections::BTreeSet;

fn pos(fen: &str) -> Duck {
    testkit::pos(fen)
}

fn texts(p: &Duck) -> BTreeSet<String> {
    moves_of(p).into_iter().map(|m| p.move_text(m)).collect()
}

/// The piece-move parts (`e2e4`, `e7e8q`) of the legal moves.
fn piece_moves(p: &Duck) -> BTreeSet<String> {
    texts(p)
        .into_iter()
        .map(|t| t.split(',').next().unwrap_or_default().to_string())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- hand-counted rules

#[test]
fn start_position_has_20_piece_moves_times_32_duck_squares() {
    let p = pos(Duck::START_FEN);
    assert_eq!(piece_moves(&p).len(), 20);
    assert_eq!(moves_of(&p).len(), 640);
    assert!(texts(&p).contains("e2e4,e4e5"));
    assert!(
        texts(&p).contains("g1f3,f3g1"),
        "the vacated square is empty"
    );
}

#[test]
fn duck_blocks_a_double_step_and_must_move() {
    // Pawn e2, duck e4: e2e3 only; king d1 f1 d2 f2. 3 pieces + duck: 60 duck squares.
    let p = pos("4k3/8/8/8/4*3/8/4P3/4K3 w - - 0 1");
    assert_eq!(
        piece_moves(&p),
        set(&["e2e3", "e1d1", "e1f1", "e1d2", "e1f2"])
    );
    assert_eq!(moves_of(&p).len(), 5 * 60);
    assert!(!texts(&p).iter().any(|t| t.ends_with("e4")), "duck stays");
}

#[test]
fn duck_blocks_a_slider_and_is_never_captured() {
    // Rook a1, duck a4: a2 a3 b1 c1 d1; king d1 d2 e2 f2 f1.
    let p = pos("4k3/8/8/8/*7/8/8/R3K3 w - - 0 1");
    assert_eq!(
        piece_moves(&p),
        set(&["a1a2", "a1a3", "a1b1", "a1c1", "a1d1", "e1d1", "e1d2", "e1e2", "e1f2", "e1f1"])
    );
    assert_eq!(moves_of(&p).len(), 10 * 60);
}

#[test]
fn knights_jump_the_duck() {
    // Knight b1 hemmed by pawns and the duck: a3 c3 d2 still reachable.
    let p = pos("4k3/8/8/8/8/8/P*P5/1N2K3 w - - 0 1");
    let pm = piece_moves(&p);
    for m in ["b1a3", "b1c3", "b1d2"] {
        assert!(pm.contains(m), "{m}");
    }
}

#[test]
fn promotion_with_and_without_capture() {
    // a7 pushes to a8 or takes b8, four pieces each; king d1 d2 e2 f2 f1.
    // 4 pieces + duck: 59 duck squares, 60 after a capture.
    let p = pos("1n2k3/P7/8/8/8/8/8/4K2* w - - 0 1");
    let pm = piece_moves(&p);
    for promo in ["q", "r", "b", "n"] {
        assert!(pm.contains(&format!("a7a8{promo}")));
        assert!(pm.contains(&format!("a7b8{promo}")));
    }
    assert_eq!(pm.len(), 13);
    assert_eq!(moves_of(&p).len(), 4 * 59 + 4 * 60 + 5 * 59);
    let mv = parse_move(&p, "a7b8n,b8a7").unwrap();
    assert!(p.is_tactical(mv));
    let mut after = p;
    after.play(mv);
    assert_eq!(after.fen(), "1N2k3/*7/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn en_passant_blocked_only_by_the_duck_on_the_skipped_square() {
    let fen = |duck_rank_6: &str, duck_rank_7: &str| {
        format!("4k3/{duck_rank_7}/{duck_rank_6}/3pP3/8/8/8/4K3 w - d6 0 2")
    };
    let open = pos(&fen("8", "8"));
    assert!(piece_moves(&open).contains("e5d6"));
    let mv = parse_move(&open, "e5d6,d6d5").unwrap();
    assert!(open.is_tactical(mv));
    let mut after = open;
    after.play(mv);
    assert_eq!(after.fen(), "4k3/8/3P4/3*4/8/8/8/4K3 b - - 0 2");

    let blocked = pos(&fen("3*4", "8"));
    assert!(!piece_moves(&blocked).contains("e5d6"));
    let duck_on_start = pos(&fen("8", "3*4"));
    assert!(piece_moves(&duck_on_start).contains("e5d6"));
}

#[test]
fn castling_ignores_attacks_but_not_the_duck() {
    // Black rooks attack e1, f1 and d1: both castlings still legal.
    let p = pos("3rkr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let pm = piece_moves(&p);
    assert!(pm.contains("e1g1") && pm.contains("e1c1"));
    assert!(texts(&p).contains("e1g1,g1f3"));
    let mut after = p;
    after.play(parse_move(&p, "e1g1,g1f3").unwrap());
    assert_eq!(after.fen(), "3rkr2/8/8/8/8/5*2/8/R4RK1 b - - 1 1");
    // The duck on b1 blocks the long castling (b1 is between king and rook).
    let blocked = pos("3rkr2/8/8/8/8/8/8/R*2K2R w KQ - 0 1");
    let pm = piece_moves(&blocked);
    assert!(pm.contains("e1g1") && !pm.contains("e1c1"));
}

#[test]
fn king_may_move_into_attack_and_king_capture_ends_the_game() {
    let p = pos("4k3/8/8/3*4/Q6q/8/8/4K3 w - - 0 1");
    assert!(piece_moves(&p).contains("e1e2"), "into the queen's attack");
    let mut after = p;
    after.play(parse_move(&p, "a4e8,e8d8").unwrap());
    assert_eq!(
        after.ended(),
        Some(GameResult::win(Color::White, "king captured"))
    );
    assert!(moves_of(&after).is_empty());
    assert_eq!(after.count_moves(&mut Vec::new()), 0);
    let reread = pos(&after.fen());
    assert_eq!(reread, after, "a king-captured position reads back");
}

#[test]
fn fowling_wins_for_the_side_without_moves() {
    testkit::assert_no_moves_result(
        &pos("7k/8/8/8/8/p1p5/P*P5/KB6 w - - 0 1"),
        GameResult::win(Color::White, "fowling"),
    );
}

#[test]
fn fifty_moves_and_threefold_repetition_with_the_duck() {
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K2* w - - 99 80").rule_draw(), None);
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K2* w - - 100 80").rule_draw(),
        Some("fifty-move rule")
    );
    // The knights go out and back twice, the duck alternating a4 and a3: the position after
    // the first move (knight f3, duck a4, Black to move) comes back after moves 5 and 9.
    let mut game = GameState::new(pos(Duck::START_FEN));
    let out_and_back = ["g1f3,f3a4", "g8f6,f6a3", "f3g1,g1a4", "f6g8,g8a3"];
    for text in out_and_back.iter().cycle().take(9) {
        assert_eq!(game.result(), None, "before {text}");
        game.play_text(text).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.result(),
        Some(GameResult::draw("threefold repetition"))
    );
}

#[test]
fn move_text_and_tactical_flags() {
    let p = pos("r3k3/1P6/8/8/3*4/8/6p1/4K2R w K - 0 1");
    let t = texts(&p);
    assert!(t.contains("b7b8q,b8d7"));
    assert!(t.contains("b7a8n,a8b7"));
    assert!(t.contains("e1g1,g1e1"));
    assert!(!t.contains("h1h2,h2d4"), "the duck must move");
    let quiet = parse_move(&p, "h1h2,h2a1").unwrap();
    assert!(!p.is_tactical(quiet));
    let capture = parse_move(&p, "b7a8q,a8b8").unwrap();
    assert!(p.is_tactical(capture));
    for bad in [
        "b7b8,b8d7",
        "b7b8q",
        "b7b8q,b7d7",
        "b7b8q,b8d4",
        "e1g1,g1g1",
    ] {
        assert!(parse_move(&p, bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------- FEN

#[test]
fn fen_errors_are_rejected() {
    testkit::assert_refused::<Duck>(&[
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "rnbqkbnr/pppp*ppp/8/8/8/8/PPP*PPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "rnbq1bnr/pppppppp/8/3*4/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 *",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w Qkq - 0 1",
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkknr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "7k/8/8/8/8/8/8/K7 w - a1 0 1",
    ]);
}

#[test]
fn fen_accepts_what_duck_chess_allows() {
    // The side not to move may stand "in check": there is no check.
    pos("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
    // Only the board and side are required; the rest takes defaults.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 b").fen(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    // The duck on the skipped square or the pawn's start square does not void the e.p. field.
    pos("rnbqkbnr/1pp1pppp/p2*4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    pos("rnbqkbnr/1pp*pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    // The king of the side to move was just captured (the duck is on the board).
    pos("4Q3/8/8/3*4/7q/8/8/4K3 b - - 0 1");
}

// ---------------------------------------------------------------- hash

#[test]
fn hash_covers_duck_square_and_only_capturable_en_passant() {
    let a = pos("4k3/8/8/8/3*4/8/8/4K3 w - - 0 1");
    let b = pos("4k3/8/8/8/4*3/8/8/4K3 w - - 0 1");
    let none = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), none.hash());
    // No white pawn can take on d6: the e.p. square is not part of the position.
    let idle = pos("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    assert_eq!(idle.hash(), pos("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1").hash());
    // e5 can take: it is, unless the duck sits on d6.
    let live = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_ne!(live.hash(), pos("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1").hash());
    let ducked = pos("4k3/8/3*4/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(
        ducked.hash(),
        pos("4k3/8/3*4/3pP3/8/8/8/4K3 w - - 0 1").hash()
    );
    // Clocks are not part of the position.
    assert_eq!(a.hash(), pos("4k3/8/8/8/3*4/8/8/4K3 w - - 37 90").hash());
}

// ---------------------------------------------------------------- reference generator

/// A slow, simple duck-chess position: a mailbox of FEN letters (`.` empty, `*` duck),
/// parsed from FEN text on its own, sharing no code with the bitboard generator.
#[derive(Clone)]
struct Ref {
    board: [u8; 64],
    white: bool,
    castling: [bool; 4],
    ep: Option<usize>,
    halfmove: u32,
    fullmove: u32,
}

fn sq_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

impl Ref {
    fn parse(fen: &str) -> Ref {
        let fields: Vec<&str> = fen.split(' ').collect();
        let mut board = [b'.'; 64];
        for (row, text) in fields[0].split('/').enumerate() {
            let mut file = 0;
            for c in text.bytes() {
                if c.is_ascii_digit() {
                    file += (c - b'0') as usize;
                } else {
                    board[(7 - row) * 8 + file] = c;
                    file += 1;
                }
            }
        }
        let ep = (fields[3] != "-").then(|| {
            let b = fields[3].as_bytes();
            (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
        });
        Ref {
            board,
            white: fields[1] == "w",
            castling: ['K', 'Q', 'k', 'q'].map(|c| fields[2].contains(c)),
            ep,
            halfmove: fields[4].parse().unwrap(),
            fullmove: fields[5].parse().unwrap(),
        }
    }

    fn fen(&self) -> String {
        let out = crate::core::fen::write_board(8, 8, |file, rank| {
            let c = self.board[(rank * 8 + file) as usize];
            (c != b'.').then_some(c as char)
        });
        let castling = testkit::flags_field(&self.castling, "KQkq");
        let ep = self.ep.map_or("-".to_string(), sq_name);
        let side = if self.white { "w" } else { "b" };
        format!(
            "{} {side} {castling} {ep} {} {}",
            out, self.halfmove, self.fullmove
        )
    }

    fn own(&self, c: u8) -> bool {
        c.is_ascii_alphabetic() && c.is_ascii_uppercase() == self.white
    }

    fn enemy(&self, c: u8) -> bool {
        c.is_ascii_alphabetic() && c.is_ascii_uppercase() != self.white
    }

    fn at(file: i32, rank: i32) -> Option<usize> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
    }

    /// Every legal turn as (text, position after it).
    fn moves(&self) -> Vec<(String, Ref)> {
        let king = if self.white { b'K' } else { b'k' };
        if !self.board.contains(&king) {
            return Vec::new();
        }
        let mut piece_moves = Vec::new(); // (from, to, promotion letter, en passant, castle)
        for from in 0..64 {
            let c = self.board[from];
            if !self.own(c) {
                continue;
            }
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            let mut add = |to: usize| piece_moves.push((from, to, None, false, false));
            match c.to_ascii_uppercase() {
                b'N' | b'K' => {
                    let steps = if c.eq_ignore_ascii_case(&b'N') {
                        crate::core::KNIGHT_LEAPS
                    } else {
                        crate::core::KING_STEPS
                    };
                    for (df, dr) in steps.map(|(df, dr)| (i32::from(df), i32::from(dr))) {
                        if let Some(to) = Ref::at(f + df, r + dr) {
                            let t = self.board[to];
                            if t == b'.' || self.enemy(t) {
                                add(to);
                            }
                        }
                    }
                }
                b'B' | b'R' | b'Q' => {
                    let upper = c.to_ascii_uppercase();
                    let directions = crate::core::KING_STEPS;
                    for (df, dr) in directions.map(|(df, dr)| (i32::from(df), i32::from(dr))) {
                        let diagonal = df != 0 && dr != 0;
                        if (upper == b'B' && !diagonal) || (upper == b'R' && diagonal) {
                            continue;
                        }
                        let (mut tf, mut tr) = (f + df, r + dr);
                        while let Some(to) = Ref::at(tf, tr) {
                            let t = self.board[to];
                            if t == b'.' || self.enemy(t) {
                                add(to);
                            }
                            if t != b'.' {
                                break;
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
                _ => {}
            }
            if c.eq_ignore_ascii_case(&b'P') {
                let dir = if self.white { 1 } else { -1 };
                let last = if self.white { 7 } else { 0 };
                let mut pawn_to = |to: usize, ep: bool| {
                    if (to / 8) as i32 == last {
                        for p in ["q", "r", "b", "n"] {
                            piece_moves.push((from, to, Some(p), false, false));
                        }
                    } else {
                        piece_moves.push((from, to, None, ep, false));
                    }
                };
                if let Some(one) = Ref::at(f, r + dir) {
                    if self.board[one] == b'.' {
                        pawn_to(one, false);
                        let start = if self.white { 1 } else { 6 };
                        if let Some(two) = Ref::at(f, r + 2 * dir) {
                            if r == start && self.board[two] == b'.' {
                                pawn_to(two, false);
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(to) = Ref::at(f + df, r + dir) {
                        if self.enemy(self.board[to]) {
                            pawn_to(to, false);
                        } else if self.ep == Some(to) && self.board[to] == b'.' {
                            pawn_to(to, true);
                        }
                    }
                }
            }
        }
        // Castling: right, and every square between king and rook empty (duck included).
        let back = if self.white { 0 } else { 56 };
        let rights = if self.white { [0, 1] } else { [2, 3] };
        if self.castling[rights[0]] && (5..7).all(|f| self.board[back + f] == b'.') {
            piece_moves.push((back + 4, back + 6, None, false, true));
        }
        if self.castling[rights[1]] && (1..4).all(|f| self.board[back + f] == b'.') {
            piece_moves.push((back + 4, back + 2, None, false, true));
        }

        let old_duck = self.board.iter().position(|&c| c == b'*');
        let mut out = Vec::new();
        for (from, to, promo, ep, castle) in piece_moves {
            let mut next = self.clone();
            if let Some(d) = old_duck {
                next.board[d] = b'.';
            }
            let moving = self.board[from];
            let capture = self.enemy(self.board[to]) || ep;
            next.board[from] = b'.';
            next.board[to] = match promo {
                Some(p) => {
                    let p = p.as_bytes()[0];
                    if self.white {
                        p.to_ascii_uppercase()
                    } else {
                        p
                    }
                }
                None => moving,
            };
            if ep {
                next.board[if self.white { to - 8 } else { to + 8 }] = b'.';
            }
            if castle {
                let (rf, rt) = if to % 8 == 6 {
                    (back + 7, back + 5)
                } else {
                    (back, back + 3)
                };
                next.board[rt] = next.board[rf];
                next.board[rf] = b'.';
            }
            for (i, sq) in [0, 4, 7, 56, 60, 63].into_iter().enumerate() {
                if from == sq || to == sq {
                    let lost: &[usize] = [&[1][..], &[0, 1], &[0], &[3], &[2, 3], &[2]][i];
                    for &l in lost {
                        next.castling[l] = false;
                    }
                }
            }
            let pawn = moving.eq_ignore_ascii_case(&b'P');
            next.ep = (pawn && from.abs_diff(to) == 16).then_some((from + to) / 2);
            next.halfmove = if pawn || capture {
                0
            } else {
                self.halfmove + 1
            };
            if !self.white {
                next.fullmove += 1;
            }
            next.white = !self.white;
            let piece_text = format!("{}{}{}", sq_name(from), sq_name(to), promo.unwrap_or(""));
            for duck in 0..64 {
                if next.board[duck] == b'.' && Some(duck) != old_duck {
                    let mut with_duck = next.clone();
                    with_duck.board[duck] = b'*';
                    out.push((
                        format!("{piece_text},{}{}", sq_name(to), sq_name(duck)),
                        with_duck,
                    ));
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, next)| next.perft(depth - 1)).sum()
    }
}

/// Compares the move lists (as sets of texts), the bulk count, and the position after one
/// move chosen by `r`; returns the list and that move (`None` when there are no moves).
fn compare_with_reference(p: &Duck, r: u64) -> (Vec<Move>, Option<Move>) {
    let fen = p.fen();
    let reference = Ref::parse(&fen);
    let ref_moves = reference.moves();
    let mine = moves_of(p);
    let mine_texts: Vec<String> = mine.iter().map(|&m| p.move_text(m)).collect();
    let ref_texts = ref_moves.iter().map(|m| &m.0).collect();
    testkit::assert_same_moves(&fen, mine_texts.iter().collect(), ref_texts);
    testkit::assert_count_agrees(p);
    if mine.is_empty() {
        return (mine, None);
    }
    let i = (r % mine.len() as u64) as usize;
    let mut child = *p;
    child.play(mine[i]);
    let expected = ref_moves
        .iter()
        .find(|m| m.0 == mine_texts[i])
        .map(|m| m.1.fen());
    assert_eq!(Some(child.fen()), expected, "{fen} after {}", mine_texts[i]);
    assert_eq!(child.hash(), child.recompute_hash());
    let chosen = mine[i];
    (mine, Some(chosen))
}

/// A random legal FEN: kings, up to `max_pieces` other pieces (pawns favour the ranks next
/// to promotion), often a duck, castling rights where king and rook stand at home, and an
/// en-passant square where a double step could just have happened.
fn random_fen(rng: &mut Rng, max_pieces: u64) -> String {
    let mut rand = |n: u64| rng.below(n as usize) as u64;
    let mut board = [b'.'; 64];
    let free_square = |board: &[u8; 64], rand: &mut dyn FnMut(u64) -> u64, pawn: bool| loop {
        let sq = rand(64) as usize;
        if board[sq] == b'.' && (!pawn || (8..56).contains(&sq)) {
            return sq;
        }
    };
    // Kings at home half the time so castling comes up.
    let wk = if rand(2) == 0 {
        4
    } else {
        free_square(&board, &mut rand, false)
    };
    board[wk] = b'K';
    let bk = if rand(2) == 0 && board[60] == b'.' {
        60
    } else {
        free_square(&board, &mut rand, false)
    };
    board[bk] = b'k';
    for corner in [0, 7, 56, 63] {
        if rand(2) == 0 && board[corner] == b'.' {
            board[corner] = if corner < 8 { b'R' } else { b'r' };
        }
    }
    for _ in 0..rand(max_pieces + 1) {
        let letter = b"PPPPNBRQppppnbrq"[rand(16) as usize];
        let pawn = letter.eq_ignore_ascii_case(&b'P');
        let sq = if pawn && rand(2) == 0 {
            // Next to promotion or on the start rank.
            let rank = [1, 6][rand(2) as usize];
            let sq = rank * 8 + rand(8) as usize;
            if board[sq] != b'.' {
                continue;
            }
            sq
        } else {
            free_square(&board, &mut rand, pawn)
        };
        board[sq] = letter;
    }
    let white = rand(2) == 0;
    // Half the time, a pawn that may just have double-stepped next to an enemy pawn, and
    // sometimes the duck on the skipped square.
    if rand(2) == 0 {
        let (file, side) = (rand(8) as i32, [-1, 1][rand(2) as usize]);
        let (rank4, dir, pawn, capturer) = if white {
            (4, 1, b'p', b'P')
        } else {
            (3, -1, b'P', b'p')
        };
        let sq = (rank4 * 8 + file) as usize;
        let skipped = (sq as i32 + 8 * dir) as usize;
        let start = (sq as i32 + 16 * dir) as usize;
        if let Some(next) = Ref::at(file + side, rank4) {
            if [sq, next, skipped, start].iter().all(|&s| board[s] == b'.') {
                board[sq] = pawn;
                board[next] = capturer;
                if rand(4) == 0 {
                    board[skipped] = b'*';
                }
            }
        }
    }
    if rand(5) != 0 && !board.contains(&b'*') {
        let sq = free_square(&board, &mut rand, false);
        board[sq] = b'*';
    }
    let mut castling = String::new();
    for (c, king, rook, k, r) in [
        ('K', 4, 7, b'K', b'R'),
        ('Q', 4, 0, b'K', b'R'),
        ('k', 60, 63, b'k', b'r'),
        ('q', 60, 56, b'k', b'r'),
    ] {
        if board[king] == k && board[rook] == r && rand(4) != 0 {
            castling.push(c);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    // En passant: a pawn of the side not to move on its fourth rank, nothing behind it.
    let mut ep = "-".to_string();
    let (pawn, rank4, dir) = if white {
        (b'p', 4, 1i32)
    } else {
        (b'P', 3, -1)
    };
    for file in 0..8 {
        let sq = rank4 * 8 + file;
        let skipped = (sq as i32 + 8 * dir) as usize;
        let start = (sq as i32 + 16 * dir) as usize;
        let free = |s: usize| board[s] == b'.' || board[s] == b'*';
        if board[sq] == pawn && free(skipped) && free(start) && rand(4) != 0 {
            ep = sq_name(skipped);
            break;
        }
    }
    let mut r = Ref {
        board,
        white,
        castling: [false; 4],
        ep: None,
        halfmove: rand(20) as u32,
        fullmove: 1 + rand(60) as u32,
    };
    r.castling = ['K', 'Q', 'k', 'q'].map(|c| castling.contains(c));
    let fen = r.fen();
    // Ref::fen writes no e.p. square; put the chosen one in.
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    fields[3] = ep;
    fields.join(" ")
}

fn reference_fens() -> Vec<String> {
    let mut fens: Vec<String> = perft_cases("duck").into_iter().map(|c| c.fen).collect();
    fens.push(Duck::START_FEN.to_string());
    fens
}

#[test]
fn reference_generator_agrees_on_random_games_and_positions() {
    let mut rng = Rng::from_state(0x5EED_D0C4);
    let mut starts = reference_fens();
    for i in 0..400 {
        starts.push(random_fen(&mut rng, if i % 2 == 0 { 6 } else { 20 }));
    }
    let mut compared = 0;
    // Positions offering e.p., castling, promotion; king captures and fowlings reached.
    let mut seen = [0usize; 5];
    for fen in &starts {
        let mut p = pos(fen);
        for _ in 0..12 {
            compared += 1;
            let (list, chosen) = compare_with_reference(&p, rng.next_u64());
            seen[0] += usize::from(list.iter().any(|m| m.kind() == EN_PASSANT));
            seen[1] += usize::from(list.iter().any(|m| m.kind() == CASTLE));
            seen[2] += usize::from(list.iter().any(|m| m.promotion() != 0));
            let Some(mv) = chosen else {
                seen[4] += usize::from(p.ended().is_none());
                break;
            };
            p.play(mv);
            seen[3] += usize::from(p.ended().is_some());
        }
    }
    assert!(compared > 3000, "only {compared} positions compared");
    assert!(seen.iter().all(|&n| n > 0), "special cases seen: {seen:?}");
}

// ---------------------------------------------------------------- bulk count, colour flip

#[test]
fn bulk_count_formula_matches_the_enumerated_list() {
    let mut rng = Rng::from_state(0xB0_1C);
    for _ in 0..1500 {
        let p = pos(&random_fen(&mut rng, 24));
        let moves = moves_of(&p);
        assert_eq!(p.count_moves(&mut Vec::new()), moves.len() as u64);
        // Per piece move: 64 - pieces - (duck on board), plus one for a capture.
        let pieces = (p.colors[0] | p.colors[1]).count_ones() as usize;
        let quiet = 64 - pieces - p.duck.count_ones() as usize;
        let mut groups: std::collections::BTreeMap<u32, usize> = Default::default();
        for m in &moves {
            *groups.entry(m.with_extra(0).bits()).or_default() += 1;
        }
        for (&bits, &count) in &groups {
            let m = Move::from_bits(bits);
            let capture = m.kind() == EN_PASSANT || p.piece_at(m.to()).is_some();
            assert_eq!(count, quiet + usize::from(capture), "{}", p.fen());
        }
    }
}

fn mirror_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '1'..='8' => (b'9' - c as u8 + b'0') as char,
            _ => c,
        })
        .collect()
}

#[test]
fn colour_flip_mirrors_moves_and_perft() {
    let mut rng = Rng::from_state(0xF11B);
    let mut fens = reference_fens();
    for _ in 0..300 {
        fens.push(random_fen(&mut rng, 16));
    }
    for (i, fen) in fens.iter().enumerate() {
        let p = pos(fen);
        let flipped = p.color_flipped();
        assert_eq!(flipped.hash(), pos(&flipped.fen()).hash());
        assert_eq!(flipped.color_flipped(), p);
        let mirrored: BTreeSet<String> = texts(&p).iter().map(|t| mirror_text(t)).collect();
        assert_eq!(texts(&flipped), mirrored, "{fen}");
        if i % 20 == 0 {
            assert_eq!(perft(&p, 2), perft(&flipped, 2), "{fen}");
        }
    }
}

/// The positions this module added to `positions/duck.perft` (ids `duck-own-*`): their
/// depth 1 and 2 counts come from the reference generator.
#[test]
fn own_perft_positions_agree_with_the_reference_generator() {
    let mut checked = 0;
    for (case, depth, nodes) in testkit::suite_counts("duck") {
        if case.id.starts_with("duck-own") && depth <= 2 {
            let fen = &case.fen;
            let reference = Ref::parse(&pos(fen).fen());
            assert_eq!(reference.perft(depth), nodes, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 4);
}
