//! Skak unit tests: hand-counted move lists for each special rule, FEN errors, and an
//! independent slow reference generator (7x7 mailbox, direction loops, its own FEN reader)
//! compared with the bitboard generator on thousands of random positions and on the perft
//! suite.

use super::movegen::BOARD;
use super::Skak;
use crate::core::game::{parse_move, perft, GameState};
use crate::core::rng::Rng;
use crate::core::testkit::{self, texts as move_texts};
use crate::core::{Color, Game, GameResult, Move};

fn pos(fen: &str) -> Skak {
    testkit::pos(fen)
}

// ---------------------------------------------------------------------------------------
// The slow reference: a 7x7 array of squares and direction loops, nothing shared with the
// bitboard generator but the rules text.

/// A piece of the reference board: (is white, uppercase letter).
type RefPiece = (bool, u8);

#[derive(Clone)]
struct Reference {
    /// `board[rank][file]`, rank 0 = rank 1.
    board: [[Option<RefPiece>; 7]; 7],
    white_to_move: bool,
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Reference {
    /// Reads the board and side fields only.
    fn from_fen(fen: &str) -> Reference {
        let mut fields = fen.split(' ');
        let board_text = fields.next().unwrap();
        let mut board = [[None; 7]; 7];
        for (row, text) in board_text.split('/').enumerate() {
            let rank = 6 - row;
            let mut file = 0;
            for c in text.bytes() {
                if c.is_ascii_digit() {
                    file += (c - b'0') as usize;
                } else {
                    board[rank][file] = Some((c.is_ascii_uppercase(), c.to_ascii_uppercase()));
                    file += 1;
                }
            }
        }
        Reference {
            board,
            white_to_move: fields.next() == Some("w"),
        }
    }

    fn fen(&self) -> String {
        let board = crate::core::fen::write_board(7, 7, |file, rank| {
            let (white, letter) = self.board[rank as usize][file as usize]?;
            let c = letter as char;
            Some(if white { c } else { c.to_ascii_lowercase() })
        });
        let side = if self.white_to_move { "w" } else { "b" };
        format!("{board} {side} - - 0 1")
    }

    fn at(&self, file: i32, rank: i32) -> Option<Option<RefPiece>> {
        if (0..7).contains(&file) && (0..7).contains(&rank) {
            Some(self.board[rank as usize][file as usize])
        } else {
            None
        }
    }

    fn text(f0: i32, r0: i32, f1: i32, r1: i32) -> String {
        let name = |f: i32, r: i32| format!("{}{}", (b'a' + f as u8) as char, r + 1);
        format!("{}{}", name(f0, r0), name(f1, r1))
    }

    /// Every move as text, sorted; none when the mover's Jarkhan is gone.
    fn moves(&self) -> Vec<String> {
        let us = self.white_to_move;
        let has_jarkhan = self.board.iter().flatten().any(|&p| p == Some((us, b'K')));
        let mut out = Vec::new();
        if !has_jarkhan {
            return out;
        }
        let back_rank = if us { 0 } else { 6 };
        for rank in 0..7 {
            for file in 0..7 {
                let Some((white, letter)) = self.board[rank as usize][file as usize] else {
                    continue;
                };
                if white != us {
                    continue;
                }
                let all: Vec<(i32, i32)> = ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect();
                let (dirs, slides): (Vec<(i32, i32)>, bool) = match letter {
                    b'K' => (all, false),
                    b'Q' => (all, true),
                    b'R' => (ORTHOGONAL.to_vec(), true),
                    b'B' => (DIAGONAL.to_vec(), true),
                    b'P' => {
                        for (df, dr) in ORTHOGONAL {
                            let (f, r) = (file + df, rank + dr);
                            if r != back_rank && self.at(f, r) == Some(None) {
                                out.push(Self::text(file, rank, f, r));
                            }
                        }
                        for (df, dr) in DIAGONAL {
                            let (f, r) = (file + df, rank + dr);
                            if let Some(Some((w, _))) = self.at(f, r) {
                                if w != us && r != back_rank {
                                    out.push(Self::text(file, rank, f, r));
                                }
                            }
                        }
                        continue;
                    }
                    other => panic!("reference: unknown letter {other}"),
                };
                for (df, dr) in dirs {
                    let (mut f, mut r) = (file, rank);
                    loop {
                        f += df;
                        r += dr;
                        match self.at(f, r) {
                            None => break,
                            Some(None) => out.push(Self::text(file, rank, f, r)),
                            Some(Some((w, _))) => {
                                if w != us {
                                    out.push(Self::text(file, rank, f, r));
                                }
                                break;
                            }
                        }
                        if !slides {
                            break;
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// The position after the move `text` (4 characters, single-digit ranks).
    fn play(&self, text: &str) -> Reference {
        let b = text.as_bytes();
        let square = |i: usize| ((b[i] - b'a') as usize, (b[i + 1] - b'1') as usize);
        let ((f0, r0), (f1, r1)) = (square(0), square(2));
        let mut next = self.clone();
        next.board[r1][f1] = next.board[r0][f0].take();
        next.white_to_move = !self.white_to_move;
        next
    }

    fn is_capture(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let (f, r) = ((b[2] - b'a') as usize, (b[3] - b'1') as usize);
        self.board[r][f].is_some()
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

/// A random legal-by-FEN position: both Jarkhans and up to 24 other pieces anywhere.
fn random_reference(rng: &mut Rng) -> Reference {
    let mut r = Reference {
        board: [[None; 7]; 7],
        white_to_move: rng.below(2) == 0,
    };
    let mut place = |rng: &mut Rng, piece: RefPiece| loop {
        let (f, k) = (rng.below(7), rng.below(7));
        if r.board[k][f].is_none() {
            r.board[k][f] = Some(piece);
            break;
        }
    };
    place(rng, (true, b'K'));
    place(rng, (false, b'K'));
    let extra = rng.below(25);
    for _ in 0..extra {
        let letter = b"QRBPPPP"[rng.below(7)];
        let white = rng.below(2) == 0;
        place(rng, (white, letter));
    }
    r
}

/// Checks the bitboard generator against the reference on one position.
fn compare(pos: &Skak, reference: &Reference) {
    let fen = pos.fen();
    let moves = testkit::moves_of(pos);
    let texts = moves.iter().map(|&m| pos.move_text(m)).collect();
    testkit::assert_same_moves(&fen, texts, reference.moves());
    testkit::assert_count_agrees(pos);
    for &mv in &moves {
        let text = pos.move_text(mv);
        assert_ne!(mv, Move::NONE);
        assert!(BOARD & (1u64 << mv.to()) != 0, "{text} leaves the board");
        assert_eq!(
            pos.is_tactical(mv),
            reference.is_capture(&text),
            "{fen} {text}"
        );
    }
}

#[test]
fn bitboard_generator_equals_reference_on_random_positions() {
    let mut rng = Rng::from_state(0x5CA4);
    let mut compared = 0;
    for _ in 0..3000 {
        let mut reference = random_reference(&mut rng);
        let mut position = pos(&reference.fen());
        assert_eq!(position.fen(), reference.fen());
        // Follow a random game for a while so that captured Jarkhans and sparse boards
        // are compared too.
        for _ in 0..20 {
            compare(&position, &reference);
            compared += 1;
            let moves = reference.moves();
            if moves.is_empty() {
                break;
            }
            let text = &moves[rng.below(moves.len())];
            position.play(parse_move(&position, text).unwrap());
            reference = reference.play(text);
            assert_eq!(position.hash(), position.recompute_hash());
        }
    }
    assert!(compared > 20_000, "only {compared} positions compared");
}

#[test]
fn reference_perft_equals_suite_counts() {
    let mut checked = 0;
    for (case, depth, nodes) in testkit::suite_counts("skak") {
        if nodes <= 40_000 {
            let fen = &case.fen;
            assert_eq!(
                Reference::from_fen(fen).perft(depth),
                nodes,
                "{fen} d{depth}"
            );
            assert_eq!(perft(&pos(fen), depth), nodes, "{fen} d{depth}");
            checked += 1;
        }
    }
    assert!(checked >= 30);
}

// ---------------------------------------------------------------------------------------
// Hand-counted rules.

#[test]
fn start_position_has_seven_fylgdar_steps() {
    let start = pos(Skak::START_FEN);
    testkit::assert_moves(
        &start,
        &["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3"],
    );
}

#[test]
fn white_fylgdar_never_enters_rank_1() {
    // b2 Fylgdar, Black Lanars on a1, c1 (backward diagonals, rank 1) and a3, c3.
    let p = pos("3k3/7/7/7/r1r4/1P5/r1r3K w - - 0 1");
    testkit::assert_moves_from(&p, "b2", &["b2b3", "b2a2", "b2c2", "b2a3", "b2c3"]);
}

#[test]
fn black_fylgdar_never_enters_rank_7() {
    let p = pos("R1R3k/1p5/R1R4/7/7/7/3K3 b - - 0 1");
    testkit::assert_moves_from(&p, "b6", &["b6b5", "b6a6", "b6c6", "b6a5", "b6c5"]);
}

#[test]
fn fylgdar_captures_backwards_and_steps_sideways() {
    // White d4: d5 enemy (no orthogonal capture), d3 own; four diagonal captures.
    let white = pos("3k3/7/2ppp2/3P3/2pBp2/7/3K3 w - - 0 1");
    testkit::assert_moves_from(
        &white,
        "d4",
        &["d4c4", "d4e4", "d4c5", "d4e5", "d4c3", "d4e3"],
    );
    // Black d4: steps back to d3 is "forward" for Black; captures c5/e5 are backwards.
    let black = pos("3k3/7/2PbP2/3p3/2P1P2/7/3K3 b - - 0 1");
    testkit::assert_moves_from(
        &black,
        "d4",
        &["d4d3", "d4c4", "d4e4", "d4c5", "d4e5", "d4c3", "d4e3"],
    );
}

#[test]
fn fylgdar_on_enemy_back_rank_does_not_promote() {
    let p = pos("P2k3/7/7/7/7/7/3K3 w - - 0 1");
    testkit::assert_moves_from(&p, "a7", &["a7a6", "a7b7"]);
    let mut after = p;
    after.play(parse_move(&p, "a7b7").unwrap());
    assert_eq!(after.fen(), "1P1k3/7/7/7/7/7/3K3 b - - 1 1");
}

#[test]
fn jarkhan_may_move_into_attack() {
    // The Lanar on d2 attacks c2 and e2; there is no check, so all five steps are legal.
    let p = pos("3k3/7/7/7/7/3r3/3K3 w - - 0 1");
    testkit::assert_moves(&p, &["d1c1", "d1e1", "d1c2", "d1d2", "d1e2"]);
}

#[test]
fn capturing_the_jarkhan_ends_the_game() {
    let p = pos("3k3/7/7/3Q3/7/7/3K3 w - - 0 1");
    assert_eq!(p.ended(), None);
    let mut game = GameState::new(p);
    game.play_text("d4d7").unwrap();
    let after = &game.position;
    assert_eq!(
        after.ended(),
        Some(GameResult::win(Color::White, "jarkhan captured"))
    );
    assert_eq!(game.result(), after.ended());
    assert!(move_texts(after).is_empty());
    assert_eq!(after.count_moves(&mut Vec::new()), 0);
    assert_eq!(after.fen(), "3Q3/7/7/7/7/7/3K3 b - - 0 1");
    assert_eq!(pos(&after.fen()).hash(), after.hash());
}

#[test]
fn no_legal_move_is_a_draw() {
    testkit::assert_no_moves_result(
        &pos("6k/7/7/p1p4/PpPp3/RBpPp2/KRB4 w - - 0 1"),
        GameResult::draw("no legal move"),
    );
}

#[test]
fn only_captures_reset_the_fifty_move_clock() {
    let mut game = GameState::new(pos("3k3/7/7/7/7/P6/3K3 w - - 98 10"));
    game.play_text("a2a3").unwrap();
    assert_eq!(game.position.fen(), "3k3/7/7/7/P6/7/3K3 b - - 99 10");
    assert_eq!(game.position.rule_draw(), None);
    game.play_text("d7d6").unwrap();
    assert_eq!(game.position.rule_draw(), Some("fifty-move rule"));
    assert_eq!(game.result(), Some(GameResult::draw("fifty-move rule")));

    let mut capture = GameState::new(pos("3k3/7/7/7/1p5/P6/3K3 w - - 60 10"));
    capture.play_text("a2b3").unwrap();
    assert_eq!(capture.position.fen(), "3k3/7/7/7/1P5/7/3K3 b - - 0 10");
}

#[test]
fn hash_covers_side_and_pieces() {
    let white = pos(Skak::START_FEN);
    let black = pos("rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - 0 1");
    assert_ne!(white.hash(), black.hash());
    // Clocks are not part of the position.
    assert_eq!(
        white.hash(),
        pos("rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 7 9").hash()
    );
    // A Fylgdar stepping forward and back restores the hash (after both sides moved twice).
    let mut game = GameState::new(white);
    for text in ["a2a3", "a6a5", "a3a2", "a5a6"] {
        game.play_text(text).unwrap();
    }
    assert_eq!(game.position.hash(), white.hash());
    assert_eq!(game.repetitions(), 2);
}

#[test]
fn fen_defaults_and_round_trip() {
    let short = pos("rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b");
    assert_eq!(
        short.fen(),
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - 0 1"
    );
    let flipped = pos("3k3/7/7/7/1p5/P6/3K3 w - - 60 10").color_flipped();
    assert_eq!(flipped.fen(), "3k3/p6/1P5/7/7/7/3K3 b - - 60 10");
}

#[test]
fn bad_fens_are_rejected() {
    testkit::assert_refused::<Skak>(&[
        "",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR/7 w - - 0 1",
        "rqbkbqr/ppppppp/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "rqbkbqrr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "rqbkbq/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "rqbkbqr/ppppppp/8/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBNR w - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBxR w - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQB*BQR w - - 0 1",
        "rqb1bqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQB1BQR b - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKKQR w - - 0 1",
        "rqbkkqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR x - - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w KQ - 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - a3 0 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - -1 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 0",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - x 1",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1 5",
        "rqbkbqr/ppppppp/07/7/7/PPPPPPP/RQBKBQR w - - 0 1",
    ]);
}

#[test]
fn move_texts_use_the_seven_by_seven_board() {
    let p = pos(Skak::START_FEN);
    for text in ["h2h3", "a2a8", "a2a3q", "d1d2", "a2b3", "e2e4"] {
        assert!(parse_move(&p, text).is_err(), "{text} accepted");
    }
    assert!(parse_move(&p, "g2g3").is_ok());
}

/// The evaluation as played (weights times terms, from the side to move) is exactly the
/// tuner's model of it, in positions of random games.
#[test]
fn evaluation_is_the_tuners_weighted_sum() {
    let checked = crate::variants::terms::check_white_score::<Skak>(20);
    assert!(checked > 500, "only {checked} positions");
}
