//! Independent checks of every game's rules, through the `Game` trait only:
//! FEN round trip, colour-flip symmetry of perft, incremental hash equals recomputed hash,
//! move text round trip, and random games played to their end.

mod common;

use thoat::core::game::{parse_move, perft, GameState};
use thoat::core::zobrist::splitmix64;
use thoat::core::{Game, Move};

/// The largest perft (by the suite's own count) used for the colour-flip comparison.
const FLIP_NODE_LIMIT: u64 = 2_000_000;

fn fen_round_trip<G: Game>() {
    for case in common::read_suite(G::NAME) {
        let pos = G::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let fen = pos.fen();
        let again = G::from_fen(&fen).unwrap_or_else(|e| panic!("{}: reparse {fen}: {e}", case.id));
        assert_eq!(again.fen(), fen, "{}", case.id);
        assert_eq!(again.hash(), pos.hash(), "{}", case.id);
    }
    let start = G::from_fen(G::START_FEN).expect("start FEN parses");
    assert_eq!(start.fen(), G::START_FEN);
}

fn color_flip_symmetry<G: Game>() {
    for case in common::read_suite(G::NAME) {
        let pos = G::from_fen(&case.fen).unwrap();
        let flipped = pos.color_flipped();
        assert_ne!(flipped.side_to_move(), pos.side_to_move());
        let back = flipped.color_flipped();
        assert_eq!(back.fen(), pos.fen(), "{}: flip twice", case.id);
        let reparsed = G::from_fen(&flipped.fen()).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= FLIP_NODE_LIMIT) {
            assert_eq!(
                perft(&reparsed, depth),
                expected,
                "{} flipped, depth {depth}",
                case.id
            );
        }
    }
}

/// Plays random games from every suite position and the start, checking the hash and the
/// move text at every step; returns the number of plies played.
fn random_games<G: Game>(games_per_position: usize, max_plies: usize) -> usize {
    let mut seed = 0x7E57_u64 ^ G::NAME.len() as u64;
    let mut fens: Vec<String> = common::read_suite(G::NAME)
        .into_iter()
        .map(|c| c.fen)
        .collect();
    fens.push(G::START_FEN.to_string());
    let mut plies = 0;
    let mut moves = Vec::new();
    for fen in &fens {
        for _ in 0..games_per_position {
            let mut game = GameState::new(G::from_fen(fen).unwrap());
            for _ in 0..max_plies {
                if game.result().is_some() {
                    break;
                }
                game.position.generate(&mut moves);
                assert!(
                    !moves.is_empty(),
                    "result() said the game goes on: {}",
                    game.position.fen()
                );
                let (next, r) = splitmix64(seed);
                seed = next;
                let mv: Move = moves[(r % moves.len() as u64) as usize];
                let text = game.position.move_text(mv);
                assert_eq!(
                    parse_move(&game.position, &text),
                    Ok(mv),
                    "move text {text} in {}",
                    game.position.fen()
                );
                game.play(mv);
                plies += 1;
                let pos = &game.position;
                assert_eq!(
                    pos.hash(),
                    pos.recompute_hash(),
                    "incremental hash after {text}: {}",
                    pos.fen()
                );
                let reparsed =
                    G::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
                assert_eq!(reparsed.fen(), pos.fen());
                assert_eq!(
                    reparsed.hash(),
                    pos.hash(),
                    "hash after FEN round trip: {}",
                    pos.fen()
                );
            }
        }
    }
    plies
}

/// The same tests for every game of the list, in a module named after it (`chess::...`).
macro_rules! game_tests {
    ({} $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        $(
            mod $module {
                use super::*;
                type G = thoat::variants::$Type;

                #[test]
                fn fen_round_trip() {
                    super::fen_round_trip::<G>();
                }

                #[test]
                fn color_flip_symmetry() {
                    super::color_flip_symmetry::<G>();
                }

                #[test]
                fn random_games_keep_hash_and_move_text() {
                    let plies = super::random_games::<G>(20, 200);
                    assert!(plies > 1000, "only {plies} plies played");
                }

                #[test]
                fn garbage_moves_are_rejected() {
                    let pos = G::from_fen(G::START_FEN).unwrap();
                    for text in [
                        "", "e2", "zz", "a0a1", "a1a1", "e2e4x", "k11k12", "e2e4,", "ä1ä2", "1e2e",
                    ] {
                        assert!(parse_move(&pos, text).is_err(), "{text} accepted");
                    }
                }
            }
        )+
    };
}

thoat::for_each_game!((game_tests) {});
