//! Malformed FENs of every game are rejected with a message, never a panic.

use thoat::variants::{AnyGame, Variant};

const BAD: &[(&str, &str, &str)] = &[
    ("chess", "", "empty"),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "7 ranks",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "9 ranks",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "9 files",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "7 files",
    ),
    (
        "chess",
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "unknown letter",
    ),
    (
        "chess",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "no black king",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1",
        "pawn on rank 1",
    ),
    (
        "chess",
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
        "pawn on rank 8",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "bad side",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
        "bad castling",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "bad e.p. square",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "negative clock",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        "bad move number",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "extra field",
    ),
    (
        "chess",
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "side not to move in check",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "no side to move",
    ),
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN* w KQkq - 0 1",
        "duck in chess",
    ),
    (
        "duck",
        "rnbqkbnr/pppp*ppp/8/8/8/8/PPP*PPPP/RNBQKBNR w KQkq - 0 1",
        "two ducks",
    ),
    (
        "duck",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
        "no white king",
    ),
    (
        "duck",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 *",
        "extra field",
    ),
    (
        "duck",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w KQkq - 0 1",
        "pawn on rank 1",
    ),
    (
        "chaturanga",
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk e3 0 1",
        "e.p. field",
    ),
    (
        "chaturanga",
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kx - 0 1",
        "bad leap rights",
    ),
    (
        "chaturanga",
        "rnbkqbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w Kk - 0 1",
        "pawn on last rank",
    ),
    (
        "chaturanga",
        "rnb1qbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K - 0 1",
        "no black king",
    ),
    (
        "chaturanga",
        "3k4/8/8/8/8/8/8/3RK3 w - - 0 1",
        "side not to move in check",
    ),
    (
        "skak",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR/7 w - - 0 1",
        "8 ranks",
    ),
    (
        "skak",
        "rqbkbqrr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "8 files",
    ),
    (
        "skak",
        "rqb1bqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
        "no black Jarkhan",
    ),
    (
        "skak",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBNR w - - 0 1",
        "knight in skak",
    ),
    (
        "skak",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w KQ - 0 1",
        "castling in skak",
    ),
    (
        "jetan",
        "wadfqkfdawa/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "11 files",
    ),
    (
        "jetan",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "9 ranks",
    ),
    (
        "jetan",
        "wadf1kfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Q 0 1",
        "no black princess",
    ),
    (
        "jetan",
        "wadfq1fdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "no black chief",
    ),
    (
        "jetan",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAN w Qq 0 1",
        "knight in jetan",
    ),
    (
        "jetan",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 5 1",
        "countdown with many pieces",
    ),
    (
        "jetan",
        "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w KQkq 0 1",
        "castling in jetan",
    ),
    (
        "jetan",
        "wadfqkfdaw/tppppppppt/010/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "leading zero",
    ),
    (
        "jetan",
        "wadfqkfdaw/tppppppppt/55/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW w Qq 0 1",
        "run of 55",
    ),
];

#[test]
fn malformed_fens_are_rejected() {
    assert!(BAD.len() >= 30);
    for &(variant, fen, why) in BAD {
        let variant = Variant::from_name(variant).unwrap();
        let result = AnyGame::from_setup(variant, Some(fen), &[]);
        match result {
            Ok(game) => panic!(
                "{} accepted a FEN with {why}: {fen} -> {}",
                variant.name(),
                game.fen()
            ),
            Err(message) => assert!(!message.is_empty()),
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let alphabet = b"rnbqkpRNBQKPwadftWADFTP*/0123456789 -";
    let mut rng = thoat::core::rng::Rng::from_state(1);
    for variant in Variant::ALL {
        for _ in 0..3000 {
            let r = rng.next_u64();
            let len = (r % 70) as usize;
            let fen: String = (0..len)
                .map(|i| alphabet[((r >> (i % 8)) as usize + i * 7) % alphabet.len()] as char)
                .collect();
            let _ = AnyGame::from_setup(variant, Some(&fen), &[]);
        }
    }
}
