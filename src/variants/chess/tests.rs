//! Unit tests of the chess rules. Every expected move list or count here was worked out by
//! hand from the diagram of the position (the reasoning is in the comments).

use super::*;
use crate::core::game::perft;
use crate::core::testkit;

fn pos(fen: &str) -> Chess {
    testkit::pos(fen)
}

/// The sorted move texts of `fen`, after checking that the bulk count agrees.
fn move_texts(fen: &str) -> Vec<String> {
    let p = pos(fen);
    testkit::assert_count_agrees(&p);
    testkit::texts(&p)
}

fn play(fen: &str, moves: &[&str]) -> Chess {
    testkit::after(&pos(fen), moves)
}

#[test]
fn start_position_perft() {
    let p = pos(Chess::START_FEN);
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 3), 8902);
}

#[test]
fn castling_both_wings() {
    // Rooks a1: b1-d1, a2-a7, xa8 (10); h1: g1, f1, h2-h7, xh8 (9); king d1 d2 e2 f2 f1 (5);
    // both castlings (2): 26.
    let moves = move_texts("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(moves.len(), 26);
    assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
}

#[test]
fn castling_not_through_attacked_square() {
    // The bishop g2 attacks f1: no e1g1 and no Kf1; e1c1 stays. King d1 d2 e2 f2 + e1c1 (5),
    // rooks 10 + 9: 24.
    let moves = move_texts("r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1");
    assert_eq!(moves.len(), 24);
    assert!(!moves.contains(&"e1g1".to_string()));
    assert!(moves.contains(&"e1c1".to_string()));
    // b1 attacked does not stop the long castling, c1 attacked does, and so does check.
    assert!(move_texts("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1").contains(&"e1c1".to_string()));
    assert!(!move_texts("2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1").contains(&"e1c1".to_string()));
    assert!(!move_texts("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1").contains(&"e1c1".to_string()));
    // A piece on b1 blocks it.
    assert!(!move_texts("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1").contains(&"e1c1".to_string()));
}

#[test]
fn castling_moves_the_rook_and_drops_rights() {
    let p = play("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["e1g1"]);
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    let p = play("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", &["e8c8"]);
    assert_eq!(p.fen(), "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2");
    // Capturing a rook on its corner removes the opponent's right.
    let p = play("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["a1a8"]);
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
}

#[test]
fn en_passant_capture() {
    // King e1: d1 d2 e2 f2 f1; pawn d6 and dxc6 e.p.: 7.
    testkit::assert_moves(
        &pos("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2"),
        &["e1d1", "e1d2", "e1e2", "e1f2", "e1f1", "d5d6", "d5c6"],
    );
    let p = play("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2", &["d5c6"]);
    assert_eq!(p.fen(), "4k3/8/2P5/8/8/8/8/4K3 b - - 0 2");
}

#[test]
fn en_passant_illegal_along_the_rank() {
    // dxc6 would empty rank 5 between the king a5 and the rook h5. King a4 a6 b5 b6 (b4 is
    // attacked by the pawn c5), pawn d6: 5.
    testkit::assert_moves(
        &pos("8/8/8/K1pP3r/8/8/8/4k3 w - c6 0 2"),
        &["a5a4", "a5a6", "a5b5", "a5b6", "d5d6"],
    );
}

#[test]
fn en_passant_removes_the_checking_pawn() {
    // d2d4 gave check to the king c5; exd3 e.p. takes the checker, e4e3 does not answer the
    // check. The king has b4 b5 b6 c4 c6 d5 d6 and xd4, none attacked: 8 + 1 = 9.
    let moves = move_texts("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(moves.contains(&"e4d3".to_string()));
    assert!(!moves.contains(&"e4e3".to_string()));
    let king: Vec<&String> = moves.iter().filter(|m| m.starts_with("c5")).collect();
    assert_eq!(king.len(), 8);
    assert_eq!(moves.len(), 9);
}

#[test]
fn hash_has_en_passant_only_when_capturable() {
    // After e2e4 from the start no black pawn can capture: same hash as without the square.
    let p = play(Chess::START_FEN, &["e2e4"]);
    assert!(p.fen().contains(" e3 "));
    let without = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(p.hash(), without.hash());
    // With a black pawn on d4 the capture is possible and the hash differs.
    let with = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let without = pos("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_ne!(with.hash(), without.hash());
    // A pinned capturer: the e.p. capture is illegal, so the square is not hashed.
    let pinned = pos("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
    assert!(!move_texts("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").contains(&"d4e3".to_string()));
    assert_eq!(
        pinned.hash(),
        pos("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1").hash()
    );
}

#[test]
fn promotions_with_four_letters() {
    // Pawn a7: a8 q r b n (4); king c1: c2 d1 d2 (b1 and b2 touch the king a1): 7.
    testkit::assert_moves(
        &pos("8/P7/8/8/8/8/8/k1K5 w - - 0 1"),
        &["a7a8q", "a7a8r", "a7a8b", "a7a8n", "c1c2", "c1d1", "c1d2"],
    );
    let p = play("8/P7/8/8/8/8/8/k1K5 w - - 0 1", &["a7a8n"]);
    assert_eq!(p.fen(), "N7/8/8/8/8/8/8/k1K5 b - - 0 1");
    let mut list = Vec::new();
    pos("8/P7/8/8/8/8/8/k1K5 w - - 0 1").generate(&mut list);
    let p = pos("8/P7/8/8/8/8/8/k1K5 w - - 0 1");
    assert_eq!(list.iter().filter(|&&m| p.is_tactical(m)).count(), 4);
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook e8 and knight d3 both check. King d1 d2 f1 (e2: rook; f2: knight); Ra2 is idle.
    testkit::assert_moves(
        &pos("4r2k/8/8/8/8/3n4/R7/4K3 w - - 0 1"),
        &["e1d1", "e1d2", "e1f1"],
    );
    // Single check by the rook: king d1 d2 f1 f2, or Ra2-e2 blocks: 5.
    testkit::assert_moves(
        &pos("4r2k/8/8/8/8/8/R7/4K3 w - - 0 1"),
        &["e1d1", "e1d2", "e1f1", "e1f2", "a2e2"],
    );
}

#[test]
fn pinned_pieces_stay_on_their_ray() {
    // Bishop e2 pinned on the file: no moves. King d1 d2 f1 f2: 4.
    assert_eq!(move_texts("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1").len(), 4);
    // Rook e2 pinned on the file moves along it: e3-e6, xe7 (5); king 4: 9.
    assert_eq!(move_texts("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1").len(), 9);
    // Pawn f2 pinned by the bishop g3: only fxg3. King d1 d2 e2 f1: 5.
    testkit::assert_moves(
        &pos("4k3/8/8/8/8/6b1/5P2/4K3 w - - 0 1"),
        &["f2g3", "e1d1", "e1d2", "e1e2", "e1f1"],
    );
}

#[test]
fn king_does_not_step_along_the_checking_ray() {
    // Rook a1 checks along rank 1: f1 stays attacked once the king leaves e1. King d2 e2 f2.
    testkit::assert_moves(
        &pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"),
        &["e1d2", "e1e2", "e1f2"],
    );
}

#[test]
fn checkmate_and_stalemate() {
    testkit::assert_no_moves_result(
        &pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
        GameResult::win(Color::White, "checkmate"),
    );
    testkit::assert_no_moves_result(
        &pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        GameResult::draw("stalemate"),
    );
}

#[test]
fn fifty_move_rule() {
    assert_eq!(pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").rule_draw(), None);
    let p = play("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", &["a1a2"]);
    assert_eq!(p.rule_draw(), Some("fifty-move rule"));
    // A pawn move resets the clock.
    let p = play("4k3/8/8/8/8/8/P7/4K3 w - - 99 80", &["a2a3"]);
    assert_eq!(p.fen(), "4k3/8/8/8/8/P7/8/4K3 b - - 0 80");
}

#[test]
fn insufficient_material() {
    let draw = Some("insufficient material");
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").rule_draw(), draw);
    assert_eq!(pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").rule_draw(), draw);
    assert_eq!(pos("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1").rule_draw(), draw);
    // Bishops c1 and f8 are both on dark squares, even three of them with b2.
    assert_eq!(pos("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1").rule_draw(), draw);
    assert_eq!(pos("4kb2/8/8/8/8/8/1B6/2B1K3 w - - 0 1").rule_draw(), draw);
    // Opposite colours (c1 dark, c8 light), two knights, a pawn: play on.
    assert_eq!(pos("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1").rule_draw(), None);
    assert_eq!(pos("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1").rule_draw(), None);
    assert_eq!(pos("4k3/8/8/8/8/8/8/1N2K1n1 w - - 0 1").rule_draw(), None);
    assert_eq!(pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").rule_draw(), None);
}

#[test]
fn fen_defaults_and_errors() {
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w");
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    assert_eq!(
        pos("r3k2r/8/8/8/8/8/8/R3K2R w qkQK").fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
    testkit::assert_refused::<Chess>(&[
        "",
        "4k3/8/8/8/8/8/8/4K3",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2* w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",
        "4k3/8/8/8/8/8/8/3K3R w K - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w HAha - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w  - 0 1 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e6 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1",
        "4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/3pP3/8/4B3/4K3 b - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1",
        "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
    ]);
}

#[test]
fn hash_follows_transpositions_and_rights() {
    let start = pos(Chess::START_FEN);
    let back = play(Chess::START_FEN, &["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(back.hash(), start.hash());
    assert_ne!(back.fen(), start.fen());
    // The same board without castling rights is another position.
    let no_rights = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert_ne!(no_rights.hash(), start.hash());
    let moved = play(
        Chess::START_FEN,
        &["e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"],
    );
    assert_eq!(
        moved.hash(),
        pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 4 4").hash()
    );
    assert_eq!(moved.hash(), moved.recompute_hash());
}

#[test]
fn color_flip_mirrors_everything() {
    testkit::assert_color_flip(
        &pos("r3k2r/8/8/8/3pP3/8/8/R3K2R b Kq e3 0 1"),
        "r3k2r/8/8/3Pp3/8/8/8/R3K2R w Qk e6 0 1",
        3,
    );
}

/// The evaluation as played (weights times terms, from the side to move) is exactly the
/// tuner's model of it, in positions of random games.
#[test]
fn evaluation_is_the_tuners_weighted_sum() {
    let checked = crate::variants::terms::check_white_score::<Chess>(20);
    assert!(checked > 500, "only {checked} positions");
}

/// `gives_check` answers as playing the move does, for every legal move of every position
/// within two plies of positions with discovered checks, castling, en passant and
/// promotions (kiwipete, and the perft suite's positions 3 to 5).
#[test]
fn gives_check_agrees_with_playing_the_move() {
    fn walk(p: &Chess, depth: u32, checks: &mut usize) {
        *checks += testkit::assert_gives_check_is_exact(p);
        if depth > 1 {
            for mv in testkit::moves_of(p) {
                let mut child = p.clone();
                child.play(mv);
                walk(&child, depth - 1, checks);
            }
        }
    }
    let mut checks = 0;
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        walk(&pos(fen), 3, &mut checks);
    }
    assert!(checks > 1000, "only {checks} checking moves seen");
}
